"""Planner revision of one community: deterministic (solver) or by the LLM.

Deterministic planner: the community's plannable parcels are re-allocated with the
land-allocation evaluator (``plugin.tasks.land``) extended by the residents' stated needs:

    S' = S_land + λ · Need,   Need = Σ_d w_d · [a parcel of type t_d within 500 m of x_d] / Σ_d w_d

S_land is LandAllocation's score on the community (candidates = its plannable parcels × the
eight types; need_config = the community's current type counts, so the plan's program is
kept unless the residents' needs outweigh it; demand units = every residential parcel of
the region, so README Service and Ecology stay in the objective; parcels outside the
community are existing facilities; budget unbounded: re-designating costs are not modelled).
The demand points d are the summaries' aggregated stated needs (home parcel, type) with
weight n + (VULNERABLE_WEIGHT − 1)·n_vulnerable. The subclass adds one term to the
evaluator and to its incremental state, so every solver in ``plugin.solvers`` works on it
unchanged; the result is a valid plan by construction. A parcel the solver leaves empty
keeps its current type.

Acceptance (both planners): a revision is kept only if the region's Service does not fall
below the initial plan's and Satisfaction over the stated needs does not fall; otherwise the
community keeps its plan (recorded in the transcript).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from plugin.solvers import Settings, solve
from plugin.tasks.land import TYPES, LandAllocation, LandState, within
from plugin.tasks.land import SERVICE_RADIUS

from .fishbowl import Summary
from .region import Region

NEED_LAMBDA = 2.0          # weight of the stated-needs term next to S_land (whose A term ≤ 0.3)
LAMBDA_TRIES = 3           # λ, λ/2, λ/4 until Service keeps its floor
VULNERABLE_WEIGHT = 3.0    # a vulnerable resident's stated need counts this many times
SOLVER = "alns"
SOLVER_SETTINGS = Settings(alns_iterations=150)
SOLVER_TIME = 20.0         # seconds; the iteration count, not the clock, ends a normal run


class NeedAllocation(LandAllocation):
    """LandAllocation + λ·Need over demand points (data["demand"]: xy, type index, w)."""

    task = "participation"   # not "land": the land MILP would bound the wrong objective
    components = LandAllocation.components + ("need",)

    def _prepare(self) -> None:
        super()._prepare()
        d = self.data["demand"]
        dxy = np.asarray(d["xy"], dtype=float).reshape(-1, 2)
        dtype = np.asarray(d["type"], dtype=np.int64)
        w = np.asarray(d["w"], dtype=float)
        self.dw = self.data["need_lambda"] * w / w.sum() if w.sum() > 0 else np.zeros(len(w))
        self.dcover = within(np.asarray(self.data["cand_xy"]), dxy, SERVICE_RADIUS) & (self.ctype[:, None] == dtype[None, :])
        self.dcover_idx = [np.flatnonzero(row) for row in self.dcover]
        fixed = self.data["fixed"]
        fxy = np.asarray(fixed["xy"], dtype=float).reshape(-1, 2)
        ftype = np.array([TYPES.index(t) if t in TYPES else -1 for t in fixed["type"]], dtype=np.int64)
        self.dexist = (within(dxy, fxy, SERVICE_RADIUS) & (dtype[:, None] == ftype[None, :])).sum(axis=1)

    def need_served(self, mask: np.ndarray) -> np.ndarray:
        return (self.dexist > 0) | self.dcover[np.asarray(mask, dtype=bool)].any(axis=0)

    def score_mask(self, mask: np.ndarray) -> tuple[float, dict[str, float], list[str]]:
        s, terms, warnings = super().score_mask(mask)
        need = float(self.dw @ self.need_served(mask))
        terms["need"] = need / self.data["need_lambda"] if self.data["need_lambda"] else 0.0
        return s + need, terms, warnings

    def state(self, mask: np.ndarray | None = None) -> "NeedState":
        return NeedState(self, mask)


class NeedState(LandState):
    """LandState + dcnt[d] = existing + selected parcels serving demand point d."""

    inst: NeedAllocation

    def __init__(self, inst: NeedAllocation, mask: np.ndarray | None = None):
        super().__init__(inst, mask)
        self.dcnt = inst.dexist.copy()
        for i in np.flatnonzero(self.mask):
            self.dcnt[inst.dcover_idx[i]] += 1

    @property
    def score(self) -> float:
        return super().score + float(self.inst.dw[self.dcnt > 0].sum())

    def _d_need(self, i: int, delta: int) -> float:
        idx = self.inst.dcover_idx[i]
        hit = self.dcnt[idx] == (0 if delta > 0 else 1)
        return delta * float(self.inst.dw[idx[hit]].sum())

    def gain_add(self, i: int) -> float:
        return super().gain_add(i) + self._d_need(i, 1)

    def gain_remove(self, i: int) -> float:
        return super().gain_remove(i) + self._d_need(i, -1)

    def gain_swap(self, out: int, inn: int) -> float:
        inst = self.inst
        io, ii = inst.dcover_idx[out], inst.dcover_idx[inn]
        lost = io[(self.dcnt[io] == 1) & ~inst.dcover[inn, io]]
        won = ii[self.dcnt[ii] == 0]
        return super().gain_swap(out, inn) + float(inst.dw[won].sum() - inst.dw[lost].sum())

    def add(self, i: int) -> None:
        super().add(i)
        self.dcnt[self.inst.dcover_idx[i]] += 1

    def remove(self, i: int) -> None:
        super().remove(i)
        self.dcnt[self.inst.dcover_idx[i]] -= 1


def demand_points(summaries: list[Summary]) -> dict:
    """The summaries' stated needs as weighted demand points (merged over rounds)."""
    agg: dict[tuple, list[float]] = {}
    for s in summaries:
        for d in s.demand:
            w = d["n"] + (VULNERABLE_WEIGHT - 1.0) * d["vulnerable"]
            acc = agg.setdefault((d["parcel"], d["type"]), [0.0, 0.0, 0.0])
            acc[0] += w
            acc[1] += w * d["x"]
            acc[2] += w * d["y"]
    keys = sorted(agg, key=str)
    return {"xy": [[agg[k][1] / agg[k][0], agg[k][2] / agg[k][0]] for k in keys],
            "type": [TYPES.index(k[1]) for k in keys], "w": [agg[k][0] for k in keys]}


def need_instance(region: Region, plan: np.ndarray, parcels: np.ndarray, demand: dict,
                  need_lambda: float = NEED_LAMBDA, need_config: dict[str, int] | None = None) -> NeedAllocation:
    """The community's re-allocation instance: ``parcels`` (bool over region parcels) are
    re-planned; every other non-residential parcel keeps its type in ``plan``."""
    gdf = region.parcels.assign(landuse=plan)
    cand = parcels & region.plannable
    if need_config is None:
        need_config = {t: int((plan[cand] == t).sum()) for t in TYPES}
    gdf = gdf.assign(landuse=np.where(cand, "feasible", plan))
    base = LandAllocation.from_parcels(gdf, need_config, budget=1e12, type_col="landuse", max_select=int(cand.sum()),
                                       instance_id=f"{region.name}-community")
    fixed = ~region.residential & ~cand
    data = {**base.data, "demand": demand, "need_lambda": float(need_lambda),
            "fixed": {"xy": region.xy[fixed].tolist(), "type": [str(t) for t in plan[fixed]]}}
    return NeedAllocation(base.instance_id, base.candidates, base.budget, base.max_select, base.crs, base.meta, data)


@dataclass
class Revision:
    plan: np.ndarray
    changes: list[dict]
    accepted: bool
    reason: str
    score: float | None = None


def plan_from_mask(region: Region, inst: LandAllocation, mask: np.ndarray, plan: np.ndarray) -> np.ndarray:
    """Write the selected (parcel, type) candidates into a copy of ``plan``."""
    out = plan.copy()
    pos = {pid: k for k, pid in enumerate(region.ids.tolist())}
    sel = inst.candidates.loc[np.asarray(mask, dtype=bool), ["face_id", "type"]]
    for pid, t in zip(sel["face_id"], sel["type"]):
        out[pos[pid]] = t
    return out


def solver_revision(region: Region, plan: np.ndarray, parcels: np.ndarray, summaries: list[Summary],
                    seed: int, service_floor: float, cancel=None) -> tuple[np.ndarray, str]:
    """Re-solve the community with the stated needs folded into the objective; when the
    plan would lower Service below ``service_floor``, re-solve with λ halved (LAMBDA_TRIES)."""
    demand = demand_points(summaries)
    for k in range(LAMBDA_TRIES):
        lam = NEED_LAMBDA / 2 ** k
        inst = need_instance(region, plan, parcels, demand, lam)
        res = solve(inst, SOLVER, time_limit=SOLVER_TIME, seed=seed, cancel=cancel, settings=SOLVER_SETTINGS)
        new = plan_from_mask(region, inst, res.mask, plan)
        if region.service(new) >= service_floor - 1e-9:
            break
    return new, f"solver lambda={lam:g} S'={res.score}"


def changes_between(region: Region, before: np.ndarray, after: np.ndarray) -> list[dict]:
    return [{"parcel": region.ids[j].item(), "from": str(before[j]), "to": str(after[j])}
            for j in np.flatnonzero(before != after)]
