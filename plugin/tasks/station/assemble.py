"""The shared tail of every way to build a station placement instance: EV demand scaled to
the budget, capacities and coverage radii, the instance data."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .constants import AREA_DEMAND_CELLS, AREA_SITES_PER_STATION, DEFAULT_PARAMS, DEMAND_RATIO, DETOUR, MU, RADIUS_SHAPE

if TYPE_CHECKING:
    from .task import StationPlacement


def assemble(cls: type[StationPlacement], inst_id: str, sites: pd.DataFrame, demand: pd.DataFrame,
             dist: np.ndarray, cands: pd.DataFrame, budget: float | None, max_select: int, budget_factor: float,
             rng: np.random.Generator, bounds: tuple[float, float, float, float], crs: str,
             meta: dict) -> StationPlacement:
    """``sites``: site, x, y (one row per group); ``demand``: x, y, residents; ``dist``: road
    distance site × demand region; ``cands``: id, cost, group, site, site_kind, n_slow,
    n_medium, n_fast, supply_q, wkt. Default budget: ``budget_factor`` (±10 %) × max_select ×
    the median candidate cost."""
    p = dict(DEFAULT_PARAMS)
    q = cands["supply_q"].to_numpy(dtype=float)
    # EV demand is scaled so that capacity is scarce whatever the city's population
    w = demand["residents"].to_numpy() * rng.lognormal(0.0, 0.2, len(demand))
    if budget is None:
        factor = budget_factor * rng.uniform(0.9, 1.1)
        budget = round(factor * max_select * float(np.median(cands["cost"])), 1)
    w *= DEMAND_RATIO * MU * float(budget) * float(np.median(q / cands["cost"])) / w.sum()
    minx, miny, maxx, maxy = bounds
    r_ref = DETOUR * np.sqrt((maxx - minx) * (maxy - miny) / (np.pi * max_select))
    # recorded for the reader; the score reads each candidate's radius and capacity
    p.update(r0=round(RADIUS_SHAPE[0] * r_ref, 1), r1=round(RADIUS_SHAPE[1] * r_ref, 1), mu=MU)
    cap = MU * q
    radius = p["r0"] + p["r1"] * np.sqrt(q)
    cands["capacity"] = cap
    cands["radius_m"] = np.round(radius, 1)
    data = {
        "params": p,
        "site_ids": sites["site"].tolist(),
        "demand": {"w": np.round(w, 4).tolist(), "x": demand["x"].round(1).tolist(),
                   "y": demand["y"].round(1).tolist(), "residents": demand["residents"].round(1).tolist()},
        "cand": {"site": cands["group"].tolist(), "q": q.tolist(), "cap": cap.tolist(),
                 "radius": radius.tolist()},
        "dist": np.round(dist, 1).tolist(),
    }
    cands = cands[["id", "cost", "group", "site", "site_kind", "n_slow", "n_medium", "n_fast",
                   "supply_q", "capacity", "radius_m", "wkt"]]
    meta = {**meta, "sites": len(sites), "demand_regions": len(demand)}
    inst = cls(inst_id, cands, float(budget), max_select, crs, meta, data)
    inst.candidates["demand_in_radius"] = np.round(inst.cover @ inst.w, 2)
    inst.meta["total_demand"] = round(inst.W, 2)
    return inst


def area_cell(city, cells: int = AREA_DEMAND_CELLS) -> float:
    """The demand grid cell (m) of a whole-area instance: the sampler's finest (120 m), or
    coarser so that the bounding box holds about ``cells`` cells (the MILP's size grows with
    regions × covering candidates)."""
    minx, miny, maxx, maxy = city.bounds
    return max(120.0, round(float(np.sqrt((maxx - minx) * (maxy - miny) / cells)), -1))


def area_max_select(n_sites: int) -> int:
    """Step limit of a whole-area instance: one station per AREA_SITES_PER_STATION sites (at
    least the large size's 10), so coverage radii stay local as the area grows."""
    return max(10, -(-n_sites // AREA_SITES_PER_STATION))
