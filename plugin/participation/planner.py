"""Planner revision of one community: deterministic (exact MILP) or by the LLM.

Deterministic planner: the community's plannable parcels are re-allocated with the
land-allocation evaluator (``plugin.tasks.land``) extended by the residents' stated needs:

    S' = S_land + λ · Need,   Need = Σ_d w_d · [a parcel of type t_d in view V_d] / Σ_d w_d

S_land is LandAllocation's score on the community (candidates = its plannable parcels × the
eight types; need_config = the community's current type counts, so the plan's program is
kept unless the residents' needs outweigh it; demand units = every residential parcel of
the region, so README Service and Ecology stay in the objective; parcels outside the
community are existing facilities; budget unbounded: re-designating costs are not modelled).
The demand points d are the summaries' stated needs merged over rounds by (type, view): the
type t_d and the non-residential parcels V_d the speakers see within 500 m of home (the same
centroid rule as Satisfaction), with weight n + (VULNERABLE_WEIGHT − 1)·n_vulnerable.

``need_milp`` maximises S' exactly: the land-allocation MILP (``plugin.solvers.milp.land``)
plus one variable z_d ≤ Σ x_i over the candidates serving d, and the region's README
Service as a hard constraint (≥ the initial plan's), so the revision is optimal for S' among
the plans that keep Service — feasible by construction (the current plan always is one).
The subclass also extends the incremental state, so the heuristic solvers of
``plugin.solvers`` (GSCA's greedy) work on it unchanged. A parcel left empty keeps its type.

Acceptance (both planners): a revision is kept only if the region's Service does not fall
below the initial plan's and Satisfaction over the speakers' needs does not fall; otherwise
the community keeps its plan (recorded in the transcript).
"""
from __future__ import annotations

import time
from typing import Callable

import numpy as np
from scipy.optimize import Bounds, LinearConstraint
from scipy.sparse import coo_matrix, csr_matrix, hstack, vstack

from ..solvers.milp import MilpResult, check_cancel, result_from_highs, run_highs, valid_warm_start
from ..solvers.milp.land import land_model
from ..tasks.land import ECOLOGY, TYPES, W_A, W_R, LandAllocation, LandState

from .fishbowl import Summary
from .region import Region

NEED_LAMBDA = 4.0          # weight of the stated-needs term next to S_land (R ≤ 0.6, A ≤ 0.3): needs lead
VULNERABLE_WEIGHT = 3.0    # a vulnerable resident's stated need counts this many times
MILP_TIME = 20.0           # seconds; a community's MILP solves in well under a second


class NeedAllocation(LandAllocation):
    """LandAllocation + λ·Need over demand points (data["demand"]: xy, type index, w)."""

    task = "participation"   # not "land": the land MILP would bound the wrong objective
    components = LandAllocation.components + ("need",)

    def _prepare(self) -> None:
        super()._prepare()
        d = self.data["demand"]
        dtype = np.asarray(d["type"], dtype=np.int64)
        w = np.asarray(d["w"], dtype=float)
        self.dw = self.data["need_lambda"] * w / w.sum() if w.sum() > 0 else np.zeros(len(w))
        cand_pid = self.candidates["face_id"].to_numpy()
        fixed = self.data["fixed"]
        fid = np.asarray(fixed["id"])
        ftype = np.array([TYPES.index(t) if t in TYPES else -1 for t in fixed["type"]], dtype=np.int64)
        self.dcover = np.zeros((self.n, len(w)), dtype=bool)
        self.dexist = np.zeros(len(w), dtype=np.int64)
        for j, (view, t) in enumerate(zip(d["view"], dtype)):
            self.dcover[:, j] = np.isin(cand_pid, view) & (self.ctype == t)
            self.dexist[j] = int((np.isin(fid, view) & (ftype == t)).sum())
        self.dcover_idx = [np.flatnonzero(row) for row in self.dcover]

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
    """The summaries' stated needs as weighted demand points, merged by (type, view)."""
    agg: dict[tuple, float] = {}
    for s in summaries:
        for d in s.demand:
            key = (d["type"], tuple(d["view"]))
            agg[key] = agg.get(key, 0.0) + d["n"] + (VULNERABLE_WEIGHT - 1.0) * d["vulnerable"]
    keys = sorted(agg)
    return {"type": [TYPES.index(k[0]) for k in keys], "view": [list(k[1]) for k in keys],
            "w": [agg[k] for k in keys]}


NO_DEMAND = {"type": [], "view": [], "w": []}


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
            "fixed": {"id": region.ids[fixed].tolist(), "type": [str(t) for t in plan[fixed]]}}
    return NeedAllocation(base.instance_id, base.candidates, base.budget, base.max_select, base.crs, base.meta, data)


def need_milp(inst: NeedAllocation, service_floor: float | None = None, warm_start: np.ndarray | None = None,
              time_limit: float = MILP_TIME, cancel: Callable[[], bool] | None = None) -> MilpResult:
    """max S' exactly (see the module docstring), with README Service ≥ ``service_floor``
    when given. The land MILP's columns are [x | y | r | o]; z (one per demand point no
    existing parcel serves) is appended."""
    check_cancel(cancel, "participation")
    t0 = time.perf_counter()
    c, const, cons, integrality, bounds = land_model(inst)
    n, n_var = inst.n, len(c)
    free = np.flatnonzero((inst.dexist == 0) & inst.dcover.any(axis=0))
    n_z = len(free)
    const += float(inst.dw[inst.dexist > 0].sum())
    rows = [hstack([cons.A, csr_matrix((cons.A.shape[0], n_z))])]
    lo, hi = [cons.lb], [cons.ub]
    if n_z:   # z_j − Σ_{i serving d_j} x_i ≤ 0
        ii, jj = np.nonzero(inst.dcover[:, free])
        rows.append(coo_matrix((np.r_[np.ones(n_z), -np.ones(len(ii))],
                                (np.r_[np.arange(n_z), jj], np.r_[n_var + np.arange(n_z), ii])),
                               shape=(n_z, n_var + n_z)))
        lo.append(np.full(n_z, -np.inf))
        hi.append(np.zeros(n_z))
    if service_floor is not None:
        # the land MILP's y columns, in its order: (kind row k, unit u) pairs a candidate can newly serve
        pairs = [(k, u) for k in range(ECOLOGY + 1)
                 for u in np.flatnonzero(inst.cover[inst.ckind == k].any(axis=0) & (inst.existing[k] == 0))]
        if len(pairs) != n_var - n - 2 * len(inst.types):
            raise RuntimeError("the land MILP's column layout changed: update need_milp")
        serv = np.zeros(n_var + n_z)
        for j, (k, u) in enumerate(pairs):
            if k < ECOLOGY:
                serv[n + j] = inst.W[k, u] * 6.0 / 5.0
        have = float((inst.W[:ECOLOGY] * (inst.existing[:ECOLOGY] > 0)).sum() * 6.0 / 5.0)
        rows.append(csr_matrix(serv[None, :]))
        lo.append(np.array([service_floor - have - 1e-9]))
        hi.append(np.array([np.inf]))
    # run_highs: the same killable HiGHS call as the task MILPs, so the time limit holds
    res = run_highs(np.r_[c, -inst.dw[free]],
                    LinearConstraint(vstack(rows).tocsr(), np.concatenate(lo), np.concatenate(hi)),
                    np.r_[integrality, np.zeros(n_z)],
                    Bounds(np.r_[bounds.lb, np.zeros(n_z)], np.r_[bounds.ub, np.ones(n_z)]), time_limit, t0)
    trivial = W_R + W_A * inst.score_mask(np.ones(n, dtype=bool))[1]["A"] + float(inst.dw.sum())
    return result_from_highs(inst, res, const, trivial, valid_warm_start(inst, warm_start), t0)


def plan_from_mask(region: Region, inst: LandAllocation, mask: np.ndarray, plan: np.ndarray) -> np.ndarray:
    """Write the selected (parcel, type) candidates into a copy of ``plan``."""
    out = plan.copy()
    pos = {pid: k for k, pid in enumerate(region.ids.tolist())}
    sel = inst.candidates.loc[np.asarray(mask, dtype=bool), ["face_id", "type"]]
    for pid, t in zip(sel["face_id"], sel["type"]):
        out[pos[pid]] = t
    return out


def plan_mask(region: Region, inst: LandAllocation, plan: np.ndarray) -> np.ndarray:
    """The candidates that reproduce ``plan`` (the always-valid fallback of the MILP)."""
    pos = {pid: k for k, pid in enumerate(region.ids.tolist())}
    cur = plan[[pos[p] for p in inst.candidates["face_id"]]]
    return (cur == inst.candidates["type"].to_numpy()).astype(bool)


def solver_revision(region: Region, plan: np.ndarray, parcels: np.ndarray, summaries: list[Summary],
                    service_floor: float, cancel: Callable[[], bool] | None = None) -> tuple[np.ndarray, str]:
    """Re-solve the community exactly with the stated needs folded into the objective and
    the region's Service kept ≥ ``service_floor``."""
    inst = need_instance(region, plan, parcels, demand_points(summaries))
    res = need_milp(inst, service_floor, plan_mask(region, inst, plan), cancel=cancel)
    s, terms, _ = inst.score_mask(res.mask)
    return plan_from_mask(region, inst, res.mask, plan), f"milp {res.status}: S'={s:.4f}, need {terms['need']:.3f}"


def changes_between(region: Region, before: np.ndarray, after: np.ndarray) -> list[dict]:
    return [{"parcel": region.ids[j].item(), "from": str(before[j]), "to": str(after[j])}
            for j in np.flatnonzero(before != after)]
