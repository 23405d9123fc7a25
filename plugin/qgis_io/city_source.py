"""A City from processing parameters: an OSM extract, or the planner's own layers.

``add_city_parameters`` declares the inputs on an algorithm, ``city_from_parameters`` reads
them. Layer rules (one-line QgsProcessingException otherwise): roads are lines, buildings
polygons, POIs points, in any CRS (brought to one working CRS: ``plugin.city.crs``), with
valid geometries (a planner's own layer is not silently repaired: 'Fix geometries' says
what changes); a mapped field must exist. Missing optional fields take the defaults of
``plugin.city.sources`` and every assumption is a ``feedback.pushWarning``. An optional
study area clips everything; an optional demand layer replaces the buildings' demand.
"""
from __future__ import annotations

from pathlib import Path

import geopandas as gpd
from qgis.core import (
    QgsProcessingAlgorithm,
    QgsProcessingContext,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsProcessingParameterCrs,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterField,
    QgsProcessingParameterFile,
    QgsWkbTypes,
)

from ..city import CATEGORIES, City, build_city, load_city, region_path
from ..city.regions import REGIONS, read_region
from ..city.sources import area_polygon, buildings_frame, demand_frame, pois_frame, roads_frame
from ..errors import InputError
from .compat import (
    GeometryType,
    ProcessingFieldParameterDataType,
    ProcessingFileParameterBehavior,
    ProcessingParameterFlag,
    ProcessingSourceType,
)
from .layers import source_to_gdf

PBF = "INPUT"
REGION = "REGION"
#: the REGION choices: nothing, or a bundled region (resources/data) by name
REGION_CHOICES = ("none — use the extract or the layers below", *REGIONS)
ROADS, HIGHWAY_FIELD = "ROADS", "HIGHWAY_FIELD"
BUILDINGS, BUILDING_FIELD, LEVELS_FIELD = "BUILDINGS", "BUILDING_FIELD", "LEVELS_FIELD"
POIS, CATEGORY_FIELD = "POIS", "CATEGORY_FIELD"
AREA, DEMAND, DEMAND_FIELD, INPUT_CRS = "AREA", "DEMAND_LAYER", "DEMAND_FIELD", "INPUT_CRS"


def add_city_parameters(alg: QgsProcessingAlgorithm) -> None:
    """Declare the city inputs (all optional: an extract, or a road layer plus extras)."""
    tr = alg.tr
    params = [
        (QgsProcessingParameterEnum(REGION, tr("Bundled region (no data of your own needed)"),
                                    options=list(REGION_CHOICES), defaultValue=0, optional=True),
         "A region shipped with the plugin (OpenStreetMap extracts of central Helsinki and of Karhula, "
         "Kotka); it takes the place of the extract below.", False),
        (QgsProcessingParameterFile(PBF, tr("OpenStreetMap extract (.osm.pbf) — or leave empty and give layers"),
                                    behavior=ProcessingFileParameterBehavior.File,
                                    fileFilter="OpenStreetMap (*.pbf *.osm)", optional=True),
         "An OSM extract; the city model (roads, urban blocks, buildings, POIs, demand) is built from it.", False),
        (QgsProcessingParameterFeatureSource(ROADS, tr("Road layer"), [ProcessingSourceType.VectorLine], optional=True),
         "Your road network (lines, any CRS), used when no extract is given.", False),
        (QgsProcessingParameterField(HIGHWAY_FIELD, tr("Road class field (OSM highway values)"),
                                     parentLayerParameterName=ROADS, optional=True),
         "OSM highway classes (residential, primary, …); empty = every road is a drivable residential street.",
         False),
        (QgsProcessingParameterFeatureSource(BUILDINGS, tr("Building layer"), [ProcessingSourceType.VectorPolygon],
                                             optional=True),
         "Building footprints; residential floor area gives the demand (40 m² per resident).", False),
        (QgsProcessingParameterField(BUILDING_FIELD, tr("Building type field (OSM building values)"),
                                     parentLayerParameterName=BUILDINGS, optional=True),
         "apartments, house, … (empty = mixed use).", True),
        (QgsProcessingParameterField(LEVELS_FIELD, tr("Number of levels field"), parentLayerParameterName=BUILDINGS,
                                     type=ProcessingFieldParameterDataType.Numeric, optional=True),
         "Floors per building; empty = a default per building type.", True),
        (QgsProcessingParameterFeatureSource(POIS, tr("Points of interest"), [ProcessingSourceType.VectorPoint],
                                             optional=True),
         "Existing facilities (schools, clinics, shops, parking, charging …).", True),
        (QgsProcessingParameterField(CATEGORY_FIELD, tr("POI category field"), parentLayerParameterName=POIS,
                                     optional=True),
         f"One of: {', '.join(CATEGORIES)}; other values are ignored.", True),
    ]
    declare(alg, params)
    add_area_parameters(alg)


def add_area_parameters(alg: QgsProcessingAlgorithm, demand: bool = True) -> None:
    """Study area, demand layer (optional) and the CRS of layers that have none."""
    tr = alg.tr
    params = [
        (QgsProcessingParameterFeatureSource(AREA, tr("Study area (optional)"), [ProcessingSourceType.VectorPolygon],
                                             optional=True),
         "A polygon layer: every input is clipped to it and blocks are closed by its boundary.", False),
        (QgsProcessingParameterCrs(INPUT_CRS, tr("CRS of layers without one (optional)"), optional=True),
         "Only for layers whose CRS is unknown; layers with a CRS are reprojected as needed.", True),
    ]
    if demand:
        params[1:1] = [
            (QgsProcessingParameterFeatureSource(DEMAND, tr("Demand layer (optional: instead of the buildings)"),
                                                 [ProcessingSourceType.VectorPoint, ProcessingSourceType.VectorPolygon],
                                                 optional=True),
             "Points or polygons with a weight (residents, households, trips …): the demand of every task "
             "comes from it instead of the buildings' residential floor area.", True),
            (QgsProcessingParameterField(DEMAND_FIELD, tr("Demand weight field"), parentLayerParameterName=DEMAND,
                                         type=ProcessingFieldParameterDataType.Numeric, optional=True),
             "Empty = 1 per feature.", True),
        ]
    declare(alg, params)


def declare(alg: QgsProcessingAlgorithm, params: list) -> None:
    """Add (parameter, help text or None, advanced) triples to ``alg``."""
    for p, help_text, advanced in params:
        if help_text:
            p.setHelp(alg.tr(help_text))
        if advanced:
            p.setFlags(p.flags() | ProcessingParameterFlag.Advanced)
        alg.addParameter(p)


def extract_path(alg: QgsProcessingAlgorithm, parameters: dict, context: QgsProcessingContext) -> str:
    """The chosen bundled region's extract, else the extract parameter ("" for neither)."""
    k = alg.parameterAsEnum(parameters, REGION, context) if alg.parameterDefinition(REGION) is not None else 0
    return str(REGIONS[REGION_CHOICES[k]]) if k > 0 else alg.parameterAsFile(parameters, PBF, context)


def has_city_input(alg: QgsProcessingAlgorithm, parameters: dict, context: QgsProcessingContext) -> bool:
    return bool(extract_path(alg, parameters, context)) or parameters.get(ROADS) not in (None, "")


def assumed_crs(alg: QgsProcessingAlgorithm, parameters: dict, context: QgsProcessingContext) -> str | None:
    """The CRS parameter for layers without one (None when not given)."""
    if alg.parameterDefinition(INPUT_CRS) is None:
        return None
    crs = alg.parameterAsCrs(parameters, INPUT_CRS, context)
    return crs.toWkt() if crs.isValid() else None


def city_from_parameters(alg: QgsProcessingAlgorithm, parameters: dict, context: QgsProcessingContext,
                         feedback: QgsProcessingFeedback) -> City:
    """The City of the extract, else of the layers, clipped to the study area; its warnings are
    pushed to ``feedback``; InputError from the core becomes one line."""
    pbf = extract_path(alg, parameters, context)
    assume = assumed_crs(alg, parameters, context)
    try:
        warnings: list[str] = []
        extras = any(parameters.get(k) not in (None, "") for k in (AREA, DEMAND, INPUT_CRS))
        if pbf and not extras:
            feedback.pushInfo(f"Reading {pbf}")
            city = load_city(pbf)
            _report(city, feedback)
            return city
        if pbf:
            feedback.pushInfo(f"Reading {pbf}")
            raw, _, warnings = read_region(region_path(pbf))
            name = Path(pbf).name.split(".")[0]
        else:
            roads_src = alg.parameterAsSource(parameters, ROADS, context)
            if roads_src is None:
                raise QgsProcessingException("give an OSM extract or a road layer")
            raw = _raw_layers(alg, parameters, context, feedback, roads_src, warnings, assume)
            name = roads_src.sourceName() or "layers"
        area = _optional(alg, parameters, context, feedback, AREA, "study area", "polygon", [], assume)
        demand = _optional(alg, parameters, context, feedback, DEMAND, "demand layer", "point or polygon",
                           [_field(alg, parameters, DEMAND_FIELD, context)], assume)
        if demand is not None:
            raw["demand"] = demand_frame(demand, _field(alg, parameters, DEMAND_FIELD, context) or None,
                                         "demand layer", warnings)
        if area is not None:
            area = area_polygon(area)
        city = build_city(raw, name, area=area, assume_crs=assume, warnings=warnings)
    except InputError as e:
        raise QgsProcessingException(str(e)) from None
    _report(city, feedback)
    return city


def _report(city: City, feedback: QgsProcessingFeedback) -> None:
    feedback.pushInfo(f"working CRS: {city.crs}")
    for w in city.warnings:
        feedback.pushWarning(w)


def _field(alg, parameters, key, context) -> str:
    if alg.parameterDefinition(key) is None:
        return ""
    return alg.parameterAsString(parameters, key, context) or ""


def _read(src, name: str, geometry: str, fields: list[str], feedback, assume: str | None) -> gpd.GeoDataFrame:
    """A source in any CRS (``assume`` lets one without CRS through); 'point or polygon' takes
    the source's own kind."""
    if geometry == "point or polygon":
        geometry = "polygon" if QgsWkbTypes.geometryType(src.wkbType()) == GeometryType.Polygon else "point"
    return source_to_gdf(src, name, geometry, fields, feedback, require_metric=False, require_crs=not assume)


def _optional(alg, parameters, context, feedback, key: str, name: str, geometry: str, fields: list[str],
              assume: str | None) -> gpd.GeoDataFrame | None:
    if alg.parameterDefinition(key) is None or parameters.get(key) in (None, ""):
        return None
    src = alg.parameterAsSource(parameters, key, context)
    return _read(src, name, geometry, fields, feedback, assume)


def _raw_layers(alg, parameters, context, feedback, roads_src, warnings: list[str],
                assume: str | None) -> dict[str, gpd.GeoDataFrame]:
    """roads / buildings / features frames through the core's field rules (defaults + warnings)."""
    hw = _field(alg, parameters, HIGHWAY_FIELD, context)
    roads = _read(roads_src, "road layer", "line", [hw], feedback, assume)
    raw = {"roads": roads_frame(roads, hw or None, "road layer", warnings)}
    b_src = alg.parameterAsSource(parameters, BUILDINGS, context)
    if b_src is not None:
        bf, lf = _field(alg, parameters, BUILDING_FIELD, context), _field(alg, parameters, LEVELS_FIELD, context)
        b = _read(b_src, "building layer", "polygon", [bf, lf], feedback, assume)
        raw["buildings"] = buildings_frame(b, bf or None, lf or None, "building layer", warnings)
    p_src = alg.parameterAsSource(parameters, POIS, context)
    if p_src is not None:
        cf = _field(alg, parameters, CATEGORY_FIELD, context)
        p = _read(p_src, "POI layer", "point", [cf], feedback, assume)
        raw["features"] = pois_frame(p, cf or None, "POI layer", warnings)
    return raw
