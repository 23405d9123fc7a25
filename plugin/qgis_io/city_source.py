"""A City from processing parameters: an OSM extract, or the planner's own layers.

``add_city_parameters`` declares the inputs on an algorithm, ``city_from_parameters`` reads
them. Layer rules (one-line QgsProcessingException otherwise): roads are lines, buildings
polygons, POIs points, all in a projected CRS in metres, with valid geometries (a planner's
own layer is not silently repaired: 'Fix geometries' says what changes); a mapped field
must exist and numeric fields (levels) must be numeric.
"""
from __future__ import annotations

import geopandas as gpd
from qgis.core import (QgsProcessing, QgsProcessingAlgorithm, QgsProcessingContext, QgsProcessingException,
                       QgsProcessingFeedback, QgsProcessingParameterDefinition,
                       QgsProcessingParameterFeatureSource, QgsProcessingParameterField,
                       QgsProcessingParameterFile)

from ..city import CATEGORIES, City, build_city, load_city
from ..errors import InputError

from .layers import source_to_gdf

PBF = "INPUT"
ROADS, HIGHWAY_FIELD = "ROADS", "HIGHWAY_FIELD"
BUILDINGS, BUILDING_FIELD, LEVELS_FIELD = "BUILDINGS", "BUILDING_FIELD", "LEVELS_FIELD"
POIS, CATEGORY_FIELD = "POIS", "CATEGORY_FIELD"


def add_city_parameters(alg: QgsProcessingAlgorithm) -> None:
    """Declare the city inputs (all optional: an extract, or a road layer plus extras)."""
    tr = alg.tr
    params = [
        (QgsProcessingParameterFile(PBF, tr("OpenStreetMap extract (.osm.pbf) — or leave empty and give layers"),
                                    behavior=QgsProcessingParameterFile.File,
                                    fileFilter="OpenStreetMap (*.pbf *.osm)", optional=True),
         "An OSM extract; the city model (roads, urban blocks, buildings, POIs, demand) is built from it.", False),
        (QgsProcessingParameterFeatureSource(ROADS, tr("Road layer"), [QgsProcessing.TypeVectorLine], optional=True),
         "Your road network (lines, projected CRS in metres), used when no extract is given.", False),
        (QgsProcessingParameterField(HIGHWAY_FIELD, tr("Road class field (OSM highway values)"),
                                     parentLayerParameterName=ROADS, optional=True),
         "OSM highway classes (residential, primary, …); empty = every road is a drivable residential street.",
         False),
        (QgsProcessingParameterFeatureSource(BUILDINGS, tr("Building layer"), [QgsProcessing.TypeVectorPolygon],
                                             optional=True),
         "Building footprints; residential floor area gives the demand (40 m² per resident).", False),
        (QgsProcessingParameterField(BUILDING_FIELD, tr("Building type field (OSM building values)"),
                                     parentLayerParameterName=BUILDINGS, optional=True),
         "apartments, house, … (empty = mixed use).", True),
        (QgsProcessingParameterField(LEVELS_FIELD, tr("Number of levels field"), parentLayerParameterName=BUILDINGS,
                                     type=QgsProcessingParameterField.Numeric, optional=True),
         "Floors per building; empty = a default per building type.", True),
        (QgsProcessingParameterFeatureSource(POIS, tr("Points of interest"), [QgsProcessing.TypeVectorPoint],
                                             optional=True),
         "Existing facilities (schools, clinics, shops, parking, charging …).", True),
        (QgsProcessingParameterField(CATEGORY_FIELD, tr("POI category field"), parentLayerParameterName=POIS,
                                     optional=True),
         f"One of: {', '.join(CATEGORIES)}; other values are ignored.", True),
    ]
    for p, help_text, advanced in params:
        p.setHelp(tr(help_text))
        if advanced:
            p.setFlags(p.flags() | QgsProcessingParameterDefinition.FlagAdvanced)
        alg.addParameter(p)


def has_city_input(alg: QgsProcessingAlgorithm, parameters: dict, context: QgsProcessingContext) -> bool:
    return bool(alg.parameterAsFile(parameters, PBF, context)) or parameters.get(ROADS) not in (None, "")


def city_from_parameters(alg: QgsProcessingAlgorithm, parameters: dict, context: QgsProcessingContext,
                         feedback: QgsProcessingFeedback) -> City:
    """The City of the extract, else of the layers; InputError from the core becomes one line."""
    pbf = alg.parameterAsFile(parameters, PBF, context)
    try:
        if pbf:
            feedback.pushInfo(f"Reading {pbf}")
            return load_city(pbf)
        roads_src = alg.parameterAsSource(parameters, ROADS, context)
        if roads_src is None:
            raise QgsProcessingException("give an OSM extract or a road layer")
        return build_city(_raw_layers(alg, parameters, context, feedback, roads_src), roads_src.sourceName() or "layers")
    except InputError as e:
        raise QgsProcessingException(str(e)) from None


def _field(alg, parameters, key, context) -> str:
    return alg.parameterAsString(parameters, key, context) or ""


def _text_column(gdf: gpd.GeoDataFrame, field: str, default: str):
    return gdf.pop(field).fillna(default).astype(str) if field else default


def _raw_layers(alg, parameters, context, feedback, roads_src) -> dict[str, gpd.GeoDataFrame]:
    hw = _field(alg, parameters, HIGHWAY_FIELD, context)
    roads = source_to_gdf(roads_src, "road layer", "line", [hw], feedback)
    roads["highway"] = _text_column(roads, hw, "residential")
    raw = {"roads": roads}
    b_src = alg.parameterAsSource(parameters, BUILDINGS, context)
    if b_src is not None:
        bf, lf = _field(alg, parameters, BUILDING_FIELD, context), _field(alg, parameters, LEVELS_FIELD, context)
        b = source_to_gdf(b_src, "building layer", "polygon", [bf, lf], feedback)
        b["building"] = _text_column(b, bf, "yes")
        b["levels"] = b.pop(lf).astype(float) if lf else float("nan")
        raw["buildings"] = b.to_crs(roads.crs)
    p_src = alg.parameterAsSource(parameters, POIS, context)
    if p_src is not None:
        cf = _field(alg, parameters, CATEGORY_FIELD, context)
        if not cf:
            raise QgsProcessingException("POI layer: choose its category field")
        p = source_to_gdf(p_src, "POI layer", "point", [cf], feedback)
        cat = p.pop(cf).fillna("").astype(str).str.lower()
        p["category"] = cat.where(cat.isin(CATEGORIES), "")
        p["landuse"] = ""
        p["name"] = ""
        raw["features"] = p.to_crs(roads.crs)
    return raw
