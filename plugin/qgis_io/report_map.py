"""A plan drawn the way a planner reads it: over the city's blocks and roads, as a memory layer
or a report PNG.

``backdrop_frames`` is core work (no QGIS objects) for a worker thread: the blocks and drivable
roads of the city an instance was built from, when the instance names a bundled region or a
readable extract. ``memory_layer`` and ``render_plan_map`` run on the main thread.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import geopandas as gpd
from qgis.core import QgsCoordinateReferenceSystem, QgsVectorLayer, QgsWkbTypes

from ..tasks import Instance
from .compat import WkbType
from .layers import qgs_fields, write_gdf
from .maps import apply_style, render_png

#: backdrop layer -> (city attribute, style, columns kept)
BACKDROP = {"blocks": ("faces", "city_faces", ("area", "landuse", "demand")),
            "roads": ("edges", "city_roads", ("highway", "name", "length"))}


def backdrop_frames(inst: Instance, ws: str | os.PathLike | None = None) -> dict[str, gpd.GeoDataFrame] | None:
    """{"blocks", "roads"} of the instance's city; for a city read from the planner's own layers
    (its name is no loadable source) the roads of workspace ``ws``'s saved city model
    (``input/city_model.gpkg``: the streets, no blocks); None when neither is there (a parcel
    layer without a workspace, a test instance)."""
    from ..city import load_city
    from ..city.regions import REGIONS

    source = inst.meta.get("region")
    if not source or not (str(source) in REGIONS or Path(str(source)).is_file()):
        return _saved_roads(ws)
    city = load_city(str(source))
    out = {}
    for name, (attr, _, cols) in BACKDROP.items():
        frame = getattr(city, attr)
        out[name] = frame[[c for c in cols if c in frame.columns] + ["geometry"]].reset_index(drop=True)
    return out


def _saved_roads(ws: str | os.PathLike | None) -> dict[str, gpd.GeoDataFrame] | None:
    """{"roads"} from a workspace's saved city model, or None."""
    from ..audit.context import CITY_MODEL_FILE, AuditContext

    path = Path(ws) / CITY_MODEL_FILE if ws else None
    if path is None or not path.is_file():
        return None
    try:
        edges = AuditContext.read(path).edges
    except Exception:  # a damaged file: the map without its streets rather than no map
        return None
    cols = [c for c in BACKDROP["roads"][2] if c in edges.columns]
    return {"roads": edges[cols + ["geometry"]].reset_index(drop=True)} if len(edges) else None


def qgs_crs(text: str) -> QgsCoordinateReferenceSystem:
    crs = QgsCoordinateReferenceSystem(text)
    return crs if crs.isValid() else QgsCoordinateReferenceSystem.fromWkt(text)


#: shapely geometry type -> the layer type that holds it (polygons and lines as multi-parts)
LAYER_TYPE = {"Point": WkbType.Point, "MultiPoint": WkbType.MultiPoint,
              "LineString": WkbType.MultiLineString, "MultiLineString": WkbType.MultiLineString,
              "Polygon": WkbType.MultiPolygon, "MultiPolygon": WkbType.MultiPolygon}


def memory_layer(frame: gpd.GeoDataFrame, name: str, crs: str, style: str | None = None,
                 wkb_type: int | None = None) -> QgsVectorLayer:
    """A memory layer holding ``frame`` (main thread only), styled from resources/styles.
    The layer type is ``wkb_type`` or follows the first geometry; ``crs`` "" = no CRS."""
    import shapely

    if wkb_type is None:
        wkb_type = LAYER_TYPE.get(frame.geometry.iloc[0].geom_type, WkbType.Point) if len(frame) \
            else WkbType.Point
    if QgsWkbTypes.isMultiType(wkb_type):  # the memory provider drops a single part in a multi layer
        multi = {"Polygon": shapely.MultiPolygon, "LineString": shapely.MultiLineString}
        frame = frame.set_geometry(gpd.GeoSeries([multi[g.geom_type]([g]) if g.geom_type in multi else g
                                                  for g in frame.geometry], index=frame.index))
    q = qgs_crs(crs)
    uri = QgsWkbTypes.displayString(wkb_type) + (f"?crs={q.authid() or q.toWkt()}" if q.isValid() else "")
    layer = QgsVectorLayer(uri, name, "memory")
    if not q.isValid():  # local coordinates, drawn untransformed (the provider would assume WGS 84)
        layer.setCrs(QgsCoordinateReferenceSystem())
    fields = qgs_fields(frame)
    layer.dataProvider().addAttributes(list(fields))
    layer.updateFields()
    write_gdf(frame, layer.dataProvider(), layer.fields())
    layer.updateExtents()
    if style:
        apply_style(layer, style)
    return layer


def render_plan_map(plan: QgsVectorLayer, backdrop: dict[str, gpd.GeoDataFrame] | None, crs: str,
                    path: str | os.PathLike, title: str, subtitle: str) -> Path:
    """The plan over the blocks and roads (when known) as a PNG with legend and scale bar,
    framed on the plan with a margin of context."""
    layers: list[Any] = [plan]
    for name in ("roads", "blocks"):   # roads over blocks (top first); either may be missing
        if backdrop is not None and backdrop.get(name) is not None and len(backdrop[name]):
            layers.append(memory_layer(backdrop[name], name, crs, BACKDROP[name][1]))
    extent = plan.extent() if plan.featureCount() else None
    if extent is not None and backdrop is not None:
        # a margin of context in proportion to the plan (a fixed 300 m left a small district's
        # plan a third of the frame)
        extent.grow(max(100.0, 0.15 * max(extent.width(), extent.height())))
    return render_png(layers, path, title, subtitle, extent=extent)
