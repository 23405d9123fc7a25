"""Land allocation from a City, sampled to the paper's sizes (small / medium / large)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from ...errors import InputError
from ..site_rules import fits, site_width
from .assemble import assemble
from .constants import (
    BUDGET_FACTOR,
    EXISTING_COLUMNS,
    GREEN_MIN_AREA,
    HIGH_DEMAND,
    LOW_COVERAGE,
    MAX_AREA,
    REDEV_LANDUSE,
    TARGET,
    TYPES,
    UNDERUSED_AREA,
    UNDERUSED_FAR,
)

if TYPE_CHECKING:
    from .task import LandAllocation


def sample_city(cls: type[LandAllocation], city, size: str, seed: int, budget: float | None,
                mode: str = "benchmark", assume_vacant: bool = False, **params: Any) -> LandAllocation:
    """Candidates on vacant/redevelopable faces, demand on residential faces.

    ``size="all"`` (the whole area): every eligible (face, type) pair, no sampling and no
    extension. params: n_candidates (override the size's target count), budget_factor.
    Plan mode: vacancy measured (``plan``), candidates drawn as their developed area."""
    from . import plan

    rng = np.random.default_rng(seed)
    demand_notes: list[str] = []
    if mode == "plan":
        from ..plan_demand import with_complete_demand

        plan.check_measurable(city, assume_vacant)
        city, demand_notes = with_complete_demand(city)
    faces = city.faces
    faces = faces[faces["area"] > 0]
    if not len(faces):
        raise InputError(f"{city.name}: no faces with area, nothing to allocate")
    whole = size == "all"
    target = 0 if whole else int(params.get("n_candidates") or TARGET[size])
    cen = faces.geometry.centroid
    fxy = np.c_[cen.x.to_numpy(), cen.y.to_numpy()]
    left = None
    if mode == "plan":
        pool, reasons, left = plan.plan_pool(faces, plan.has_buildings(city), assume_vacant)
    else:
        pool, reasons = _candidate_pool(faces, target)
    if not len(pool):
        why = f" ({', '.join(f'{v} {k}' for k, v in left.items())})" if left else ""
        raise InputError(f"{city.name}: no vacant or redevelopable face fits a land-use type "
                         f"(site rules: each type's minimum area and width){why}")
    take = np.arange(len(pool)) if whole else np.sort(rng.choice(len(pool), size=min(target, len(pool)), replace=False))
    pool = pool.iloc[take].reset_index(drop=True)
    pos = faces.index.get_indexer(pool["face_id"])
    sub = faces.iloc[pos]
    dev = np.minimum(sub["area"].to_numpy(), pool["type"].map(MAX_AREA).to_numpy())
    cands = pd.DataFrame({
        "face_id": pool["face_id"].to_numpy(), "type": pool["type"].to_numpy(),
        "face_area": sub["area"].round(1).to_numpy(), "dev_area": dev.round(1),
        "coverage": sub["coverage"].round(3).to_numpy(), "landuse": sub["landuse"].to_numpy(),
        "reason": [reasons[f] for f in pool["face_id"]],
        "x": fxy[pos, 0].round(2), "y": fxy[pos, 1].round(2), "wkt": sub.geometry.to_wkt().to_numpy(),
    })
    if mode == "plan":   # the map draws the plot a type uses, not the whole face
        cands["wkt"] = [shapely.to_wkt(plan.developed_polygon(g, d), rounding_precision=2)
                        for g, d in zip(sub.geometry.to_numpy(), dev, strict=False)]
    demand = faces["demand"].to_numpy(dtype=float)
    is_unit = demand > 0
    w = demand[is_unit] * np.exp(rng.normal(0.0, 0.1, int(is_unit.sum())))  # seeded perturbation
    units = {"id": [str(f) for f in faces.index[is_unit]], "xy": fxy[is_unit].round(2).tolist(),
             "w_service": w.round(3).tolist(), "w_ecology": w.round(3).tolist()}
    existing = {k: fxy[(faces[list(cols)].sum(axis=1) > 0).to_numpy()].round(2).tolist()
                for k, cols in EXISTING_COLUMNS.items()}
    existing["green"] = fxy[(faces["green_area"] >= GREEN_MIN_AREA).to_numpy()].round(2).tolist()
    factor = float(params.get("budget_factor", BUDGET_FACTOR * rng.uniform(0.9, 1.1)))
    meta = {"region": city.name, "size": size, "seed": seed, "target": target,
            "short_of_target": len(cands) < target, "candidate_faces": int(cands["face_id"].nunique()),
            "demand_units": int(is_unit.sum()), "bounds": [round(float(b), 2) for b in city.bounds]}
    if not is_unit.any():
        meta["note"] = "no residential demand in this area: A = 0"
    if mode == "plan":
        meta.update(mode="plan", left_out=left, short_of_target=False, plan_notes=demand_notes)
        if assume_vacant:
            meta["plan_notes"] += [f"--assume-vacant: every block without a land use was taken as free to build on "
                                  f"({int((np.array(list(reasons.values())) == 'assumed_vacant').sum())} blocks); "
                                  "check them on the map"]
    inst_id = f"{city.name}-land-{'plan-' if mode == 'plan' else ''}{size}-{seed}"
    return assemble(cls, inst_id, cands, units, existing, None, budget, factor, None, city.crs, meta, "f")


def _candidate_pool(faces: gpd.GeoDataFrame, target: int) -> tuple[pd.DataFrame, dict[int, str]]:
    """(face_id, type) pairs on eligible faces, and why each face is eligible.

    A face is offered for the types whose site rule (area and width, ``site_rules``) it meets.
    Eligible: fits some type, not a built-up high-demand face, and vacant / low coverage /
    redevelopable landuse / large but underused. When these give fewer than ``target``
    pairs, the least covered other faces are added until the target is reached."""
    area = faces["area"].to_numpy(dtype=float)
    width = faces["width"].to_numpy(dtype=float) if "width" in faces else site_width(faces.geometry)
    fit = fits(TYPES, area, width)
    cov = faces["coverage"].to_numpy(dtype=float)
    far = faces["floor_area"].to_numpy(dtype=float) / area
    ok = fit.any(axis=1) & ~((faces["demand"].to_numpy() >= HIGH_DEMAND) & (cov >= LOW_COVERAGE))
    reason = np.select(
        [faces["vacant"].to_numpy(dtype=bool), cov < LOW_COVERAGE, faces["landuse"].isin(REDEV_LANDUSE).to_numpy(),
         (area >= UNDERUSED_AREA) & (far < UNDERUSED_FAR)],
        ["vacant", "low_coverage", "landuse", "underused"], "")
    core = ok & (reason != "")
    extra = np.flatnonzero(ok & ~core)
    extra = extra[np.lexsort((faces.index.to_numpy()[extra], cov[extra]))]
    n_pairs = fit.sum(axis=1)
    chosen = list(np.flatnonzero(core))
    total = int(n_pairs[chosen].sum())
    for i in extra:
        if total >= target:
            break
        chosen.append(int(i))
        reason[i] = "extension"
        total += int(n_pairs[i])
    rows = [(int(faces.index[i]), t) for i in sorted(chosen) for j, t in enumerate(TYPES) if fit[i, j]]
    return (pd.DataFrame(rows, columns=["face_id", "type"]),
            {int(faces.index[i]): str(reason[i]) for i in chosen})
