"""Land allocation from a planner's own parcel layer."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

import geopandas as gpd
import numpy as np
import pandas as pd

from ...city.crs import gather
from ...errors import InputError
from ..site_rules import fits, site_width
from .assemble import assemble
from .constants import GREEN_MIN_AREA, GREEN_TYPES, TYPE_CODES, TYPES
from .coverage import facilities_by_kind

if TYPE_CHECKING:
    from .task import LandAllocation


def from_parcels(cls: type[LandAllocation], parcels: gpd.GeoDataFrame, need_config: Mapping[str, int],
                 budget: float | None = None,
                 *, type_col: str = "type", candidate_types: Iterable[str | int] = ("feasible",),
                 site_rules: bool = True, budget_factor: float = 1.0,
                 max_select: int | None = None, instance_id: str = "parcels", crs: str | None = None,
                 meta: dict | None = None) -> LandAllocation:
    """From a generic parcels table (e.g. the participation hlg/dhm GeoJSON, existing rows).

    ``type_col`` holds type names or the participation codes (``TYPE_CODES``). Parcels of
    a type in ``candidate_types`` become candidates (× every type in ``TYPES`` whose site rule —
    minimum area and width, ``site_rules`` — they meet; a parcel that fits no type is left out
    and counted in ``meta["warnings"]``; ``site_rules=False`` offers every type); residential parcels are demand
    units (service weight 1,
    ecology weight = area, as in the Ecology rule); other typed parcels are existing
    facilities. The whole parcel is developed (no plot cap); an optional ``coverage``
    column raises the cost as in ``build``. Default budget: ``budget_factor`` × cost of
    the cheapest full plan. ``need_config`` types outside ``TYPES`` are an InputError."""
    bad = sorted(set(need_config) - set(TYPES))
    if bad:
        raise InputError(f"need_config: unknown land-use types {', '.join(bad)} (known: {', '.join(TYPES)})")
    if parcels.crs is not None:  # measure in the working CRS (≤ 0.5 % scale error, else local UTM)
        parcels = gather({"parcels": parcels})[0]["parcels"]
    ptype = parcels[type_col].map(_type_name)
    cand_types = {_type_name(c) for c in candidate_types}
    is_cand = ptype.isin(cand_types).to_numpy()
    if not is_cand.any():
        raise InputError(f"no parcel of type {', '.join(sorted(cand_types))}: nothing to allocate")
    cen = parcels.geometry.centroid
    xy = np.c_[cen.x.to_numpy(), cen.y.to_numpy()]
    area = parcels.geometry.area.to_numpy()
    pid = parcels["id"].to_numpy() if "id" in parcels else parcels.index.to_numpy()
    cov = parcels["coverage"].to_numpy(dtype=float) if "coverage" in parcels else np.zeros(len(parcels))
    cand = np.flatnonzero(is_cand)
    fit = fits(TYPES, area[cand], site_width(parcels.geometry.iloc[cand])) if site_rules \
        else np.ones((len(cand), len(TYPES)), dtype=bool)
    rows = [(i, t) for i, row in zip(cand, fit, strict=False) for t, ok in zip(TYPES, row, strict=False) if ok]
    if not rows:
        raise InputError("no candidate parcel fits any land-use type (site rules: each type's minimum "
                         "area and width)")
    ri = np.array([r[0] for r in rows])
    cands = pd.DataFrame({
        "face_id": pid[ri], "type": [r[1] for r in rows], "face_area": area[ri].round(1),
        "dev_area": area[ri].round(1), "coverage": cov[ri].round(3), "x": xy[ri, 0].round(2),
        "y": xy[ri, 1].round(2), "wkt": parcels.geometry.iloc[ri].to_wkt().to_numpy(),
    })
    res = (ptype == "residential").to_numpy()
    units = {"id": [str(p) for p in pid[res]], "xy": xy[res].round(2).tolist(),
             "w_service": [1.0] * int(res.sum()), "w_ecology": area[res].round(1).tolist()}
    fixed = ~is_cand
    existing = {k: v.round(2).tolist() for k, v in facilities_by_kind(ptype[fixed], xy[fixed]).items()}
    green = fixed & ptype.isin(GREEN_TYPES).to_numpy() & (area >= GREEN_MIN_AREA)
    existing["green"] = xy[green].round(2).tolist()
    need = {t: int(need_config.get(t, 0)) for t in TYPES}
    crs = crs or (parcels.crs.to_string() if parcels.crs is not None else "LOCAL_METRIC")
    m = {"source": "parcels", "demand_units": int(res.sum()), **(meta or {})}
    unfit = int((~fit.any(axis=1)).sum())
    if unfit:
        m["warnings"] = [*m.get("warnings", []), f"{unfit} of {len(cand)} candidate parcels fit no land-use type "
                         "(too small or too narrow for every type's site rule) and are not offered"]
    return assemble(cls, instance_id, cands, units, existing, need, budget, budget_factor, max_select, crs, m, "p")


def _type_name(v: str | int) -> str:
    """A land-use type name from a name or a participation code."""
    return v.lower() if isinstance(v, str) else TYPE_CODES.get(int(v), str(v))
