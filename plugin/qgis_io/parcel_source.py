"""A land allocation instance from the planner's own parcel layer (instead of the city inputs).

``add_parcel_parameters`` declares the parcel layer and its field mappings on an algorithm,
``land_from_parcels`` reads them into ``LandAllocation.from_parcels``. Land-use values are
type names (feasible, residential, business, office, green_l, green_s, school, hospital_l,
hospital_s, recreation; any case) or the participation data's integer codes (1 feasible,
4 residential, 5–12 the types); parcels of a candidate type are re-planned, residential
parcels are the demand, every other typed parcel is an existing facility.
"""
from __future__ import annotations

from typing import Mapping

import pandas as pd
from qgis.core import (QgsProcessing, QgsProcessingAlgorithm, QgsProcessingContext, QgsProcessingException,
                       QgsProcessingFeedback, QgsProcessingParameterDefinition,
                       QgsProcessingParameterFeatureSource, QgsProcessingParameterField,
                       QgsProcessingParameterString)

from ..tasks.land import TYPE_CODES, TYPES, LandAllocation

from .layers import source_to_gdf

PARCELS, LANDUSE_FIELD = "PARCELS", "LANDUSE_FIELD"
PARCEL_ID_FIELD, CANDIDATE_TYPES = "PARCEL_ID_FIELD", "CANDIDATE_TYPES"
KNOWN = frozenset(TYPE_CODES.values())


def add_parcel_parameters(alg: QgsProcessingAlgorithm) -> None:
    """Declare the parcel layer, its land-use and id fields, and the re-plannable types."""
    tr = alg.tr
    params = [
        (QgsProcessingParameterFeatureSource(PARCELS, tr("Parcel layer (instead of the city inputs)"),
                                             [QgsProcessing.TypeVectorPolygon], optional=True),
         "Your parcels (polygons, projected CRS in metres) with a land-use field. When given, the instance "
         "is built from them: size, seed and the number of candidates do not apply, NEED is required.", False),
        (QgsProcessingParameterField(LANDUSE_FIELD, tr("Land-use field of the parcels"),
                                     parentLayerParameterName=PARCELS, optional=True),
         "Type names (" + ", ".join(sorted(KNOWN)) + ") or the integer codes "
         + ", ".join(f"{k} {v}" for k, v in TYPE_CODES.items()) + ". Other values: ignored parcels.", False),
        (QgsProcessingParameterString(CANDIDATE_TYPES, tr("Land-use values that may be re-planned"),
                                      defaultValue="feasible", optional=True),
         "Comma-separated names or codes: parcels with these values become candidates (one per land-use type).",
         False),
        (QgsProcessingParameterField(PARCEL_ID_FIELD, tr("Parcel id field (empty = feature order)"),
                                     parentLayerParameterName=PARCELS, optional=True),
         "Names the parcels in candidate ids (p<id>-<type>).", True),
    ]
    for p, help_text, advanced in params:
        p.setHelp(tr(help_text))
        if advanced:
            p.setFlags(p.flags() | QgsProcessingParameterDefinition.FlagAdvanced)
        alg.addParameter(p)


def has_parcels(parameters: dict) -> bool:
    return parameters.get(PARCELS) not in (None, "")


def _land_use(v) -> str | int:
    """A field value as from_parcels reads it: an integer code, or a lower-case name ('' = none)."""
    text = "" if v is None else str(v).strip()
    if text.replace(".", "", 1).isdigit() and float(text).is_integer():
        return int(float(text))
    return text.lower()


def land_from_parcels(alg: QgsProcessingAlgorithm, parameters: dict, context: QgsProcessingContext,
                      feedback: QgsProcessingFeedback, need: Mapping[str, int],
                      budget: float | None) -> LandAllocation:
    """The land instance of the parcel layer; one-line QgsProcessingException on bad input."""
    source = alg.parameterAsSource(parameters, PARCELS, context)
    lu = alg.parameterAsString(parameters, LANDUSE_FIELD, context) or ""
    pid = alg.parameterAsString(parameters, PARCEL_ID_FIELD, context) or ""
    if not lu:
        raise QgsProcessingException("parcel layer: choose its land-use field")
    # the layer first: an empty, invalid or CRS-less layer is the real problem, not the missing need
    gdf = source_to_gdf(source, "parcel layer", "polygon", [lu, pid], feedback)
    if not need:
        raise QgsProcessingException(f"parcel layer: give the need per land-use type, e.g. school=2 "
                                     f"(types: {', '.join(TYPES)})")
    values = gdf.pop(lu).map(_land_use)
    names = values.map(lambda v: TYPE_CODES.get(v, str(v)) if isinstance(v, int) else v)
    unknown = sorted(set(names) - KNOWN - {""})
    if unknown:
        feedback.pushWarning(f"parcel layer: land-use values {', '.join(map(str, unknown[:8]))} are not known "
                             "types; those parcels are ignored")
    gdf["landuse"] = values
    gdf = gdf[names.isin(KNOWN).to_numpy()]
    if pid:
        ids = gdf.pop(pid)
        if ids.isna().any() or ids.duplicated().any():
            raise QgsProcessingException(f"parcel layer: id field {pid} has empty or repeated values")
        gdf["id"] = ids.astype(str).to_numpy()
    else:
        gdf["id"] = pd.RangeIndex(len(gdf)).astype(str)
    cand_types = [_land_use(t) for t in
                  (alg.parameterAsString(parameters, CANDIDATE_TYPES, context) or "feasible").split(",") if t.strip()]
    name = source.sourceName() or "parcels"
    inst = alg.core(LandAllocation.from_parcels, gdf.reset_index(drop=True), need, budget, type_col="landuse",
                    candidate_types=cand_types, instance_id=f"{name}-land-parcels",
                    meta={"region": name, "parcels": len(gdf)})
    feedback.pushInfo(f"{len(gdf)} typed parcels, {inst.meta['demand_units']} residential, "
                      f"{inst.candidates['face_id'].nunique()} re-plannable")
    return inst
