"""QgsFeatureSource ⇄ GeoDataFrame, with the checks a planner's own layers need."""
from __future__ import annotations

from collections.abc import Iterable

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely
from qgis.core import (
    QgsFeature,
    QgsFeatureRequest,
    QgsFeatureSink,
    QgsField,
    QgsFields,
    QgsGeometry,
    QgsProcessingException,
    QgsProcessingFeatureSource,
    QgsProcessingFeedback,
    QgsWkbTypes,
)
from qgis.PyQt.QtCore import QVariant

from .compat import FeatureRequestFlag, GeometryType, ProcessingFeatureSourceFlag, field_type

_GEOM = {"line": GeometryType.Line, "polygon": GeometryType.Polygon,
         "point": GeometryType.Point}


def source_to_gdf(source, name: str, geometry: str, fields: Iterable[str] = (),
                  feedback: QgsProcessingFeedback | None = None, require_metric: bool = True,
                  keep_invalid: bool = False, require_crs: bool = True) -> gpd.GeoDataFrame:
    """Read a processing feature source into a GeoDataFrame.

    Raises QgsProcessingException with one line naming the layer for: an empty layer, the
    wrong geometry type, a geographic CRS, a missing field, and an invalid geometry (a
    planner's layer is not silently repaired: 'Fix geometries' says what changes). With
    ``keep_invalid`` invalid geometries pass through: for layers whose geometry is only
    carried along (a plan's features), never computed on. ``require_crs=False`` lets a layer
    without CRS through (crs None) for a CRS the user gives."""
    if source is None:
        raise QgsProcessingException(f"{name}: layer could not be opened")
    if QgsWkbTypes.geometryType(source.wkbType()) != _GEOM[geometry]:
        raise QgsProcessingException(f"{name}: expected a {geometry} layer, got "
                                     f"{QgsWkbTypes.geometryDisplayString(QgsWkbTypes.geometryType(source.wkbType()))}")
    crs = source.sourceCrs()
    if not crs.isValid() and require_crs:
        raise QgsProcessingException(f"{name}: layer has no valid CRS; set it (Layer Properties › Source) "
                                     "or give the CRS parameter")
    if require_metric and crs.isGeographic():
        raise QgsProcessingException(f"{name}: layer is in a geographic CRS ({crs.authid()}); "
                                     "reproject it to a projected CRS in metres")
    names = [f.name() for f in source.fields()]
    fields = [f for f in fields if f]
    missing = [f for f in fields if f not in names]
    if missing:
        raise QgsProcessingException(f"{name}: missing field {', '.join(missing)}")
    total = source.featureCount() or 1
    wkb, rows = [], []
    # QGIS's own abort-on-invalid raises from inside its iterator, which on 3.22 corrupts the
    # Python state (a segfault later): always skip it and check validity ourselves below
    feats = (source.getFeatures(QgsFeatureRequest(), ProcessingFeatureSourceFlag.SkipGeometryValidityChecks)
             if isinstance(source, QgsProcessingFeatureSource) else source.getFeatures())
    for k, feat in enumerate(feats):
        if feedback is not None:
            if feedback.isCanceled():
                break
            if k % 500 == 0:
                feedback.setProgress(100.0 * k / total)
        g = feat.geometry()
        if g.isNull() or g.isEmpty():
            continue
        wkb.append(bytes(g.asWkb()))
        rows.append([_py(feat[f]) for f in fields])
    if not wkb:
        raise QgsProcessingException(f"{name}: layer has no features with geometry")
    df = pd.DataFrame(rows, columns=list(fields))
    geoms = shapely.from_wkb(wkb)
    if not keep_invalid:
        bad = np.flatnonzero(~shapely.is_valid(geoms))
        if len(bad):
            raise QgsProcessingException(
                f"{name}: {len(bad)} invalid geometr{'y' if len(bad) == 1 else 'ies'} "
                f"({shapely.is_valid_reason(geoms[bad[0]])}); run 'Fix geometries' first")
    return gpd.GeoDataFrame(df, geometry=geoms, crs=crs.toWkt() if crs.isValid() else None)


def field_values(layer, name: str) -> pd.Series:
    """Every feature's value of field ``name`` (NULL → None), without reading geometries."""
    idx = layer.fields().indexOf(name)
    req = QgsFeatureRequest().setFlags(FeatureRequestFlag.NoGeometry).setSubsetOfAttributes([idx])
    return pd.Series([_py(f.attribute(idx)) for f in layer.getFeatures(req)], dtype=object)


def _py(v):
    # QVariant NULLs come through as QVariant objects in PyQGIS; map them to None
    return None if v is None or (isinstance(v, QVariant) and v.isNull()) else v


_FIELD_TYPES = tuple(field_type(k) for k in ("bool", "int64", "double", "string"))


def qgs_fields(df: pd.DataFrame) -> QgsFields:
    fields = QgsFields()
    as_bool, as_int, as_float, as_text = _FIELD_TYPES
    for col, dtype in df.drop(columns="geometry").dtypes.items():
        if pd.api.types.is_bool_dtype(dtype):
            fields.append(QgsField(col, as_bool))
        elif pd.api.types.is_integer_dtype(dtype):
            fields.append(QgsField(col, as_int))
        elif pd.api.types.is_float_dtype(dtype):
            fields.append(QgsField(col, as_float))
        else:
            fields.append(QgsField(col, as_text))
    return fields


def write_gdf(gdf: gpd.GeoDataFrame, sink: QgsFeatureSink, fields: QgsFields,
              feedback: QgsProcessingFeedback | None = None) -> int:
    """Write rows to a sink made with ``qgs_fields(gdf)``; list/dict cells become JSON-ish text."""
    attrs = gdf.drop(columns="geometry")
    wkb = shapely.to_wkb(gdf.geometry.values)
    n = 0
    for _k, (row, geom) in enumerate(zip(attrs.itertuples(index=False), wkb, strict=False)):
        if feedback is not None and feedback.isCanceled():
            break
        f = QgsFeature(fields)
        g = QgsGeometry()
        g.fromWkb(geom)
        f.setGeometry(g)
        f.setAttributes([_cell(v) for v in row])
        sink.addFeature(f, QgsFeatureSink.Flag.FastInsert)
        n += 1
    return n


def _cell(v):
    if isinstance(v, (list, tuple, dict)):
        return str(list(v) if isinstance(v, tuple) else v)
    if isinstance(v, np.generic):
        return v.item()
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return None
    return v
