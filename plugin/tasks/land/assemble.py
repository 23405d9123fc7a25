"""The shared tail of every way to build a land allocation instance: ids, groups, costs,
need, budget and the instance data."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .constants import (
    BUILD_RATE,
    ECOLOGY,
    ECOLOGY_RADIUS,
    GREEN_MIN_AREA,
    GREEN_TYPES,
    KINDS,
    LAND_RATE,
    NEED_BASE,
    NEED_SHARE,
    REDEVELOPMENT,
    SERVICE_KIND,
    SERVICE_RADIUS,
    TYPES,
)
from .coverage import service_coverage, within_any

if TYPE_CHECKING:
    from .task import LandAllocation


def assemble(cls: type[LandAllocation], instance_id: str, cands: pd.DataFrame, units: dict, existing: dict,
             need: dict[str, int] | None, budget: float | None, budget_factor: float,
             max_select: int | None, crs: str, meta: dict, id_prefix: str) -> LandAllocation:
    """Shared tail of ``sample_city`` and ``from_parcels``: ids, groups, costs, need, budget, data.

    ``cands`` has face_id, type, dev_area, coverage, x, y, wkt (+ informative columns)."""
    cands = cands.assign(_t=cands["type"].map(TYPES.index)).sort_values(["face_id", "_t"])
    cands = cands.reset_index(drop=True)
    rate = cands["type"].map(BUILD_RATE).to_numpy() + LAND_RATE
    cost = (cands["dev_area"].to_numpy() * rate * (1.0 + REDEVELOPMENT * cands["coverage"].to_numpy())).round(1)
    green = cands["type"].isin(GREEN_TYPES) & (cands["dev_area"] >= GREEN_MIN_AREA)
    kind = np.where(green, "ecology", cands["type"].map(SERVICE_KIND).fillna("").to_numpy())
    ids = [f"{id_prefix}{f}-{t}" for f, t in zip(cands["face_id"], cands["type"], strict=False)]
    out = pd.DataFrame({"id": ids, "cost": cost, "group": pd.factorize(cands["face_id"], sort=True)[0]})
    out = pd.concat([out, cands.drop(columns=["_t", "wkt"]).assign(kind=kind), cands[["wkt"]]], axis=1)
    if need is None:
        need = _derive_need(out, units, existing)
    n_vec = np.array([need.get(t, 0) for t in TYPES])
    if budget is None:
        full = sum(float(np.sort(cost[cands["_t"].to_numpy() == k])[:n].sum()) for k, n in enumerate(n_vec))
        budget = round(budget_factor * full, 1)
    if max_select is None:
        max_select = int(n_vec.sum() + max(2, math.ceil(0.2 * n_vec.sum())))
    data = {"types": list(TYPES), "need": {t: int(n) for t, n in zip(TYPES, n_vec, strict=False)},
            "cand_type": cands["_t"].astype(int).tolist(), "cand_xy": cands[["x", "y"]].to_numpy().tolist(),
            "cand_area": cands["dev_area"].astype(float).tolist(), "units": units, "existing": existing,
            "service_radius": SERVICE_RADIUS, "ecology_radius": ECOLOGY_RADIUS, "green_min_area": GREEN_MIN_AREA}
    meta = {**meta, "need_config": data["need"], "candidates": len(out)}
    inst = cls(instance_id, out, budget, max_select, crs, meta, data)
    inst._add_effects()
    return inst


def _derive_need(cands: pd.DataFrame, units: dict, existing: dict) -> dict[str, int]:
    """need_config from the candidates and the demand: Σ n_t = 40 % of the candidate faces,
    split by D'Hondt over weights NEED_BASE[t] · (0.5 + unserved demand share of t's kind),
    never more than the candidates of type t."""
    uxy = np.asarray(units["xy"], dtype=float).reshape(-1, 2)
    w = np.asarray(units["w_service"], dtype=float)
    served = np.c_[service_coverage(uxy, {k: np.asarray(v) for k, v in existing.items() if k in KINDS}),
                   within_any(uxy, np.asarray(existing.get("green", []), dtype=float).reshape(-1, 2), ECOLOGY_RADIUS)]
    share = (w @ served) / w.sum() if w.sum() > 0 else np.ones(len(KINDS) + 1)
    row = {t: (KINDS.index(SERVICE_KIND[t]) if t in SERVICE_KIND else ECOLOGY) for t in TYPES}
    weight = np.array([NEED_BASE[t] * (1.5 - share[row[t]]) for t in TYPES])
    avail = cands["type"].value_counts().reindex(list(TYPES), fill_value=0).to_numpy()
    total = min(max(1, round(NEED_SHARE * cands["face_id"].nunique())), int(avail.sum()))
    n = np.zeros(len(TYPES), dtype=int)
    for _ in range(total):
        q = np.where(n < avail, weight / (n + 1), -1.0)
        n[int(np.argmax(q))] += 1
    return {t: int(k) for t, k in zip(TYPES, n, strict=False)}
