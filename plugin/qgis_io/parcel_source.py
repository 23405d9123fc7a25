"""A land allocation instance from the planner's own parcel layer (instead of the city inputs).

``add_parcel_parameters`` declares the parcel layer, its fields and the land-use mapping on an
algorithm, ``land_from_parcels`` reads them through the core (``plugin.parcels``): the
mapping table turns the layer's values (any codes or names) into residential, feasible (to be
re-planned), one of the eight facility types, or ignore. Type names and the participation
codes (1 feasible, 4 residential, 5–12 the types) need no entry. CANDIDATE_TYPES is the
deprecated way to say "these values are feasible" and is folded into the mapping.
"""
from __future__ import annotations

from collections.abc import Mapping

from qgis.core import (
    QgsProcessingAlgorithm,
    QgsProcessingContext,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterField,
    QgsProcessingParameterMatrix,
    QgsProcessingParameterString,
)

from ..errors import InputError
from ..parcels.landuse_map import SYNTAX, TARGETS, parse_landuse_map, value_key
from ..parcels.layer import land_instance, parcels_frame
from ..tasks.land import LandAllocation
from .city_source import declare
from .compat import ProcessingSourceType
from .layers import source_to_gdf

PARCELS, LANDUSE_FIELD = "PARCELS", "LANDUSE_FIELD"
PARCEL_ID_FIELD, CANDIDATE_TYPES = "PARCEL_ID_FIELD", "CANDIDATE_TYPES"
LANDUSE_MAP = "LANDUSE_MAP"


def landuse_map_parameter(alg: QgsProcessingAlgorithm) -> QgsProcessingParameterMatrix:
    """The mapping table: rows of (value of the land-use field, planning type)."""
    p = QgsProcessingParameterMatrix(LANDUSE_MAP, alg.tr("Land-use mapping (value → planning type)"),
                                     numberRows=0, hasFixedNumberRows=False, headers=["value", "type"],
                                     optional=True)
    p.setHelp(alg.tr(f"One row per land-use value of the layer: the value, then one of {', '.join(TARGETS)}. "
                     "Type names and the participation codes (1 feasible, 4 residential, 5–12) need no row; "
                     "any other value without a row stops with the most frequent ones listed. "
                     f"(Command line: {SYNTAX}.)"))
    return p


def landuse_map_from_parameters(alg: QgsProcessingAlgorithm, parameters: dict,
                                context: QgsProcessingContext) -> dict[str, str]:
    """The mapping table as a dict, plus the deprecated CANDIDATE_TYPES values as 'feasible'."""
    cells = alg.parameterAsMatrix(parameters, LANDUSE_MAP, context) if LANDUSE_MAP in parameters else []
    cells = list(cells or [])
    if len(cells) % 2:
        raise QgsProcessingException("land-use mapping: every row needs a value and a type")
    try:
        table = parse_landuse_map({str(k): str(t) for k, t in zip(cells[::2], cells[1::2], strict=False)})
    except InputError as e:
        raise QgsProcessingException(str(e)) from None
    if alg.parameterDefinition(CANDIDATE_TYPES) is not None:
        for v in (alg.parameterAsString(parameters, CANDIDATE_TYPES, context) or "").split(","):
            key = value_key(v)
            if key and key.lower() != "feasible":
                table.setdefault(key, "feasible")
    return table


def add_parcel_parameters(alg: QgsProcessingAlgorithm) -> None:
    """Declare the parcel layer, its land-use and id fields, and the land-use mapping."""
    tr = alg.tr
    params = [
        (QgsProcessingParameterFeatureSource(PARCELS, tr("Parcel layer (instead of the city inputs)"),
                                             [ProcessingSourceType.VectorPolygon], optional=True),
         "Your parcels (polygons, any CRS) with a land-use field. When given, the instance is built from "
         "them: size, seed and the number of candidates do not apply, NEED is required.", False),
        (QgsProcessingParameterField(LANDUSE_FIELD, tr("Land-use field of the parcels"),
                                     parentLayerParameterName=PARCELS, optional=True),
         "Any values: map them to planning types in the land-use mapping.", False),
        (landuse_map_parameter(alg), None, False),
        (QgsProcessingParameterString(CANDIDATE_TYPES, tr("Values that may be re-planned (deprecated: use the "
                                                          "mapping's 'feasible')"), defaultValue="", optional=True),
         "Comma-separated values that count as 'feasible' (the mapping says the same).", True),
        (QgsProcessingParameterField(PARCEL_ID_FIELD, tr("Parcel id field (empty = feature order)"),
                                     parentLayerParameterName=PARCELS, optional=True),
         "Names the parcels in candidate ids (p<id>-<type>).", True),
    ]
    declare(alg, params)


def has_parcels(parameters: dict) -> bool:
    return parameters.get(PARCELS) not in (None, "")


def land_from_parcels(alg: QgsProcessingAlgorithm, parameters: dict, context: QgsProcessingContext,
                      feedback: QgsProcessingFeedback, need: Mapping[str, int], budget: float | None,
                      warnings: list[str], assume_crs: str | None = None) -> LandAllocation:
    """The land instance of the parcel layer; one-line QgsProcessingException on bad input."""
    source = alg.parameterAsSource(parameters, PARCELS, context)
    lu = alg.parameterAsString(parameters, LANDUSE_FIELD, context) or ""
    pid = alg.parameterAsString(parameters, PARCEL_ID_FIELD, context) or ""
    if not lu:
        raise QgsProcessingException("parcel layer: choose its land-use field")
    table = landuse_map_from_parameters(alg, parameters, context)
    gdf = source_to_gdf(source, "parcel layer", "polygon", [lu, pid], feedback, require_metric=False,
                        require_crs=not assume_crs)
    name = source.sourceName() or "parcels"
    parcels = alg.core(parcels_frame, gdf, "parcel layer", lu, table, pid or None, assume_crs, warnings)
    inst = alg.core(land_instance, parcels, need, budget, name)
    feedback.pushInfo(f"{len(parcels)} parcels kept, {inst.meta['demand_units']} residential, "
                      f"{inst.candidates['face_id'].nunique()} to re-plan")
    return inst
