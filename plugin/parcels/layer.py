"""A parcel layer read for planning: land-use field + mapping → ``landuse`` type names, ids,
and the working CRS (``plugin.city.crs``); and the land instance built from it.

Shared by ``instance --task land --parcels``, ``participate`` and the QGIS parcel inputs.
"""
from __future__ import annotations

from collections.abc import Mapping

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from ..city.crs import gather
from ..city.sources import check_frame, parse_layer_spec, pick_field, read_layer
from ..errors import InputError
from ..tasks.land import LandAllocation
from .landuse_map import NEED_HINT, apply_landuse_map, parse_landuse_map

FIELD_GUESSES = ("type", "landuse", "land_use")


def parcels_frame(gdf: gpd.GeoDataFrame, label: str, landuse_field: str | None = None,
                  landuse_map: str | Mapping[str, str] | None = None, id_field: str | None = None,
                  assume_crs: str | None = None, warnings: list[str] | None = None,
                  planar: bool = False) -> gpd.GeoDataFrame:
    """Parcels with ``id`` (text), ``landuse`` (a planning type; 'ignore' rows dropped), geometry
    in the working CRS. ``planar``: a layer without CRS is taken as local metres (the
    participation data) instead of asking for --crs. One-line InputError on bad input."""
    warnings = warnings if warnings is not None else []
    gdf = check_frame(gdf, label, "polygon", warnings)
    fld = pick_field(gdf, landuse_field, FIELD_GUESSES, label, "--landuse-field")
    if fld is None:
        cols = ", ".join(str(c) for c in gdf.columns if c != "geometry") or "none"
        raise InputError(f"{label}: no land-use field; name it with --landuse-field (fields: {cols})")
    landuse = apply_landuse_map(gdf[fld], parse_landuse_map(landuse_map), fld, label, warnings)
    if id_field:
        pid = pick_field(gdf, id_field, (), label, "--id-field")
        ids = gdf[pid]
        if ids.isna().any() or ids.duplicated().any():
            raise InputError(f"{label}: id field '{pid}' has empty or repeated values")
    elif "id" in gdf and gdf["id"].notna().all() and gdf["id"].is_unique:
        ids = gdf["id"]
    else:
        ids = pd.Series(np.arange(len(gdf)), index=gdf.index)
    keep = (landuse != "ignore").to_numpy()
    if not keep.any():
        raise InputError(f"{label}: every parcel is ignored by the land-use map")
    out = gpd.GeoDataFrame({"id": ids.map(_id_text).to_numpy()[keep], "landuse": landuse.to_numpy()[keep]},
                           geometry=gdf.geometry.to_numpy()[keep], crs=gdf.crs)
    if out.crs is None and planar:
        warnings.append(f"{label}: no CRS; coordinates taken as metres in a local plane (--crs to say otherwise)")
        if not assume_crs:
            return out
    layers, work = gather({label: out}, assume_crs)
    warnings += work.warnings
    return layers[label]


def _id_text(v) -> str:
    return str(int(v)) if isinstance(v, (float, np.floating)) and float(v).is_integer() else str(v)


def read_parcel_layer(spec_text: str, warnings: list[str]) -> tuple[gpd.GeoDataFrame, str]:
    """``--parcels PATH[:LAYER]`` read as is → (frame, layer name). A GeoJSON whose coordinates
    are not degrees although GDAL labels it WGS 84 (the GeoJSON default) gets no CRS."""
    spec = parse_layer_spec(spec_text, "--parcels")
    gdf = unlabel_false_degrees(read_layer(spec, "polygon", "parcels", warnings))
    return gdf, spec.path.stem if spec.layer is None else spec.layer


def unlabel_false_degrees(gdf: gpd.GeoDataFrame) -> gpd.GeoDataFrame:
    """A layer labelled geographic (GeoJSON's default WGS 84, also in QGIS) whose coordinates
    are not degrees gets no CRS: planar metres, like the participation data."""
    if gdf.crs is not None and gdf.crs.is_geographic and len(gdf):
        x0, y0, x1, y1 = gdf.total_bounds
        if min(x0, y0) < -180 or max(x1, y1) > 180 or max(abs(y0), abs(y1)) > 90:
            return gdf.set_crs(None, allow_override=True)
    return gdf


def read_parcels(spec_text: str, landuse_field: str | None = None, landuse_map: str | None = None,
                 id_field: str | None = None, assume_crs: str | None = None,
                 warnings: list[str] | None = None) -> tuple[gpd.GeoDataFrame, str]:
    """``--parcels PATH[:LAYER]`` → (parcels frame as ``parcels_frame`` makes it, layer name)."""
    warnings = warnings if warnings is not None else []
    gdf, name = read_parcel_layer(spec_text, warnings)
    return parcels_frame(gdf, f"--parcels {name}", landuse_field, landuse_map, id_field, assume_crs, warnings), name


def with_building_coverage(parcels: gpd.GeoDataFrame, buildings: gpd.GeoDataFrame, label: str,
                           warnings: list[str]) -> gpd.GeoDataFrame:
    """``parcels`` with ``coverage`` (share of each parcel under the buildings' footprints, from
    the union of the footprints, so overlapping footprints count once); a 'feasible' parcel more
    than HALF_BUILT covered becomes 'built' (neither offered nor demand), with a warning that
    counts them. ``buildings`` in any CRS (none: the parcels')."""
    from ..tasks.land.plan import HALF_BUILT

    if buildings.crs is None or parcels.crs is None:
        buildings = buildings.set_crs(parcels.crs, allow_override=True)
    else:
        buildings = buildings.to_crs(parcels.crs)
    fp = shapely.union_all(shapely.make_valid(buildings.geometry.to_numpy()))
    geoms = shapely.make_valid(parcels.geometry.to_numpy())
    cov = shapely.area(shapely.intersection(geoms, fp)) / np.maximum(shapely.area(geoms), 1e-9)
    out = parcels.assign(coverage=np.round(cov, 4))
    built = (out["landuse"] == "feasible").to_numpy() & (cov > HALF_BUILT)
    if built.any():
        n_feasible = int((out["landuse"] == "feasible").sum())
        warnings.append(f"{label}: {int(built.sum())} of {n_feasible} parcels mapped to feasible are more than "
                        f"{HALF_BUILT:.0%} covered by buildings and are not offered")
        out.loc[built, "landuse"] = "built"
    if not (out["landuse"] == "feasible").any():
        raise InputError(f"{label}: every parcel mapped to feasible is more than {HALF_BUILT:.0%} built over: "
                         "nothing vacant to allocate")
    return out


def land_instance(parcels: gpd.GeoDataFrame, need: Mapping[str, int], budget: float | None,
                  name: str) -> LandAllocation:
    """The land instance of a parcels frame: 'feasible' parcels are re-planned to meet ``need``
    (no residential parcel: no demand, a warning of ``sandbox.notices``)."""
    if not need or not sum(need.values()):
        raise InputError(f"parcels: {NEED_HINT}")
    if not (parcels["landuse"] == "feasible").any():
        raise InputError("parcels: no parcel maps to 'feasible': nothing to allocate; map the values that may "
                         "be re-planned to feasible (--landuse-map \"VALUE=feasible\")")
    return LandAllocation.from_parcels(parcels.reset_index(drop=True), need, budget, type_col="landuse",
                                       instance_id=f"{name}-land-parcels",
                                       meta={"region": name, "parcels": len(parcels), "mode": "plan"})


def with_need(inst: LandAllocation, need: Mapping[str, int]) -> LandAllocation:
    """A land instance with the planner's need per type (the step limit raised to fit)."""
    d = inst.to_export()
    d["data"]["need"] = {t: int(need.get(t, 0)) for t in d["data"]["types"]}
    d["meta"]["need_config"] = d["data"]["need"]
    d["max_select"] = max(inst.max_select, sum(need.values()) + 2)
    return type(inst).from_export(d)
