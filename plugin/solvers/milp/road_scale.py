"""Road construction at scale: a certificate without the flow models.

The pair model has one flow per demand pair and arc (1.05 million variables at 1,000
candidate links, 2.3 GB, no MIP result within 60 s on 2 cores), so from ``AT_SCALE_N``
candidates on ``default`` asks for this bound instead and gives the time to the heuristics.

Bound. A plan with Γ < 1 scores Q = Γ − 1 < 0. A plan with Γ = 1 has Δ ≤ 1 (D_P ≥ D_ideal:
the ideal network has every candidate built), V ≥ 0, so S ≤ 1 − W_RHO·cost(P)/budget, and
its cost is at least that of the cheapest connecting set: for every demand group a with a
partner b in Π that the existing network does not reach (G0 = ∞), let U_a be the union of
the network components holding a's entry nodes; no existing road leaves U_a, so P holds a
candidate with exactly one end in U_a. The covering problem

    min Σ cost_i·x_i   s.t.  Σ_{i leaves U_a} x_i ≥ 1 for every such a,  Σ x_i ≤ max_select,
                             Σ cost_i·x_i ≤ budget,  x ∈ {0, 1}

is a relaxation of "connect every pair", so its dual bound C is a lower bound on cost(P), and
S ≤ max(1 − W_RHO·C/budget, 0) over all valid plans (0 covers the plans with Γ < 1; the
reported bound is never below the plan returned).
"""
from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from scipy.optimize import Bounds, LinearConstraint
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from ...tasks.road import W_RHO, RoadConstruction
from . import MILP_EXTENSION, MilpResult, run_highs

#: seconds for the covering MILP (a few hundred binaries and a handful of rows)
COVER_SECONDS = 10.0


def leaving_rows(inst: RoadConstruction) -> np.ndarray:
    """Boolean (rows × n): row r marks the candidates with exactly one end in U_a, one row per
    distinct U_a of a group that the existing network does not connect to a partner in Π."""
    _, label = connected_components(inst.csr, directed=False)
    g = len(inst.entries)
    partner = np.zeros((g, g), dtype=bool)
    partner.ravel()[inst.pair_flat] = True
    partner |= partner.T
    su, sv = inst.seg_nodes
    rows = {}
    for a, ent in enumerate(inst.entries):
        if len(ent) and (partner[a] & ~np.isfinite(inst.G0[a])).any():
            comps = np.unique(label[ent])
            rows.setdefault(tuple(comps), np.isin(label[su], comps) ^ np.isin(label[sv], comps))
    return np.array(list(rows.values()), dtype=bool).reshape(-1, inst.n)


def connection_cost(inst: RoadConstruction, time_limit: float, cancel: Callable[[], bool] | None = None) -> float:
    """A lower bound on the cost of every plan with Γ = 1 (the covering MILP's dual bound; 0
    when there is nothing to cover or HiGHS proved nothing); inf when no plan can connect."""
    rows = leaving_rows(inst)
    if not len(rows):
        return 0.0
    if not rows.any(axis=1).all():
        return np.inf   # a group no candidate can reach: no plan has Γ = 1
    a = csr_matrix(np.vstack([rows, np.ones(inst.n), inst.cost]).astype(float))
    lo = np.r_[np.ones(len(rows)), -np.inf, -np.inf]
    hi = np.r_[np.full(len(rows), np.inf), inst.max_select, inst.budget]
    # the covering model is not the task MILP: the planner's rows and emphasis stay out of it
    # (without them it is still a relaxation, and an emphasis would change what it minimises)
    token = MILP_EXTENSION.set(None)
    try:
        res = run_highs(inst.cost.astype(float), LinearConstraint(a, lo, hi), np.ones(inst.n), Bounds(0, 1),
                        min(time_limit, COVER_SECONDS), time.perf_counter(), cancel=cancel)
    finally:
        MILP_EXTENSION.reset(token)
    if res.status == 2:   # infeasible within budget and step limit
        return np.inf
    dual = res.mip_dual_bound
    return float(dual) if dual is not None and np.isfinite(dual) and res.status in (0, 1) else 0.0


def solve_at_scale(inst: RoadConstruction, time_limit: float, fallback: np.ndarray,
                   cancel: Callable[[], bool] | None, t0: float) -> MilpResult:
    """The bound of the module docstring with the fallback plan (no model of the plan itself)."""
    cost = connection_cost(inst, time_limit - (time.perf_counter() - t0), cancel)
    bound = 0.0 if not np.isfinite(cost) else max(0.0, 1.0 - W_RHO * cost / inst.budget)
    return MilpResult(fallback, max(bound, inst.score_mask(fallback)[0]), "time_limit", True,
                      time.perf_counter() - t0)
