"""Exact MILP for land allocation (``exact = True``): maximises the evaluator's S over Ψ.

Variables: x_i ∈ {0,1} per candidate; y_{k,u} ∈ [0,1] per (kind row k, demand unit u) that
no existing facility serves but some candidate of row k can; r_t ∈ [0, n_t] and o_t ≥ 0
per type t.

  max  0.6·Σ_t r_t / N + 0.3·(A_existing + Σ W_{k,u}·y_{k,u}) − 0.2·Σ_i cost_i·x_i / B
       − 0.1·Σ_t o_t / N
  s.t. y_{k,u} ≤ Σ_{i of row k covering u} x_i        (served iff some selected facility)
       r_t ≤ c_t = Σ_{i of type t} x_i                 (r_t = min(c_t, n_t) at the optimum)
       o_t ≥ c_t − n_t                                 (o_t = max(0, c_t − n_t))
       Σ cost·x ≤ B,  Σ x ≤ max_select,  Σ_{i on face g} x_i ≤ 1 (so duplicates = 0)

For integral x every continuous variable takes its score value at the optimum (the objective
pushes y, r up and o down to their bounds), so the optimum equals max S exactly.
Warm start: scipy's ``milp`` takes none, so the warm start is only a fallback — it is
returned when HiGHS ends without a better valid plan (or the LP-rounded plan, when better).
Early bound: on large models the LP relaxation is solved first (``relaxation.lp_bound``).
"""
from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from scipy.optimize import Bounds, LinearConstraint
from scipy.sparse import coo_matrix, csr_matrix, vstack

from ...tasks.land import ECOLOGY, W_A, W_R, W_RHO, W_V, LandAllocation
from . import MilpResult, check_cancel, result_from_highs, run_highs, valid_warm_start
from .relaxation import LP_SHARE, lp_bound, round_lp


def land_model(inst: LandAllocation):
    """(objective to minimise, constant, constraints, integrality, bounds, n_vars)."""
    n, n_t = inst.n, len(inst.types)
    free = inst.existing == 0
    # (k, u) pairs a candidate can newly serve
    rows_k, rows_u = [], []
    for k in range(ECOLOGY + 1):
        reach = inst.reach(inst.ckind == k) & free[k]
        u = np.flatnonzero(reach)
        rows_k += [k] * len(u)
        rows_u += u.tolist()
    n_y = len(rows_k)
    ky, uy = np.array(rows_k, dtype=np.int64), np.array(rows_u, dtype=np.int64)
    ox, oy, orr, oo = 0, n, n + n_y, n + n_y + n_t
    n_var = oo + n_t
    c = np.zeros(n_var)
    c[ox:oy] = W_RHO * inst.cost / inst.budget
    c[oy:orr] = -W_A * inst.W[ky, uy]
    c[orr:oo] = -W_R / inst.n_need
    c[oo:] = W_V / inst.n_need
    const = W_A * float((inst.W * (inst.existing > 0)).sum())

    blocks, lo, hi = [], [], []
    # coverage: y_j − Σ x_i ≤ 0
    if n_y:
        pair_of = {(k, u): j for j, (k, u) in enumerate(zip(rows_k, rows_u, strict=False))}
        r_, c_, v_ = list(range(n_y)), [oy + j for j in range(n_y)], [1.0] * n_y
        for i in np.flatnonzero(inst.ckind >= 0):
            for u in inst.cover_idx[i]:
                j = pair_of.get((int(inst.ckind[i]), int(u)))
                if j is not None:
                    r_.append(j), c_.append(i), v_.append(-1.0)
        blocks.append(coo_matrix((v_, (r_, c_)), shape=(n_y, n_var)))
        lo += [-np.inf] * n_y
        hi += [0.0] * n_y
    # type counts: c_t − r_t ≥ 0 and c_t − o_t ≤ n_t
    cnt = csr_matrix((np.ones(n), (inst.ctype, np.arange(n))), shape=(n_t, n_var))
    t = np.arange(n_t)
    blocks.append(cnt - csr_matrix((np.ones(n_t), (t, orr + t)), shape=(n_t, n_var)))
    lo += [0.0] * n_t
    hi += [np.inf] * n_t
    blocks.append(cnt - csr_matrix((np.ones(n_t), (t, oo + t)), shape=(n_t, n_var)))
    lo += [-np.inf] * n_t
    hi += inst.need.astype(float).tolist()
    # budget and step limit
    blocks.append(csr_matrix(np.r_[inst.cost / inst.budget, np.zeros(n_var - n)][None, :]))
    lo.append(-np.inf)
    hi.append(1.0)
    blocks.append(csr_matrix(np.r_[np.ones(n), np.zeros(n_var - n)][None, :]))
    lo.append(-np.inf)
    hi.append(float(inst.max_select))
    # one type per face
    if inst.n_groups:
        g = inst.group >= 0
        blocks.append(coo_matrix((np.ones(int(g.sum())), (inst.group[g], np.flatnonzero(g))),
                                 shape=(inst.n_groups, n_var)))
        lo += [-np.inf] * inst.n_groups
        hi += [1.0] * inst.n_groups
    cons = LinearConstraint(vstack(blocks).tocsr(), np.array(lo), np.array(hi))
    integrality = np.r_[np.ones(n), np.zeros(n_var - n)]
    ub = np.r_[np.ones(n + n_y), inst.need.astype(float), np.full(n_t, np.inf)]
    return c, const, cons, integrality, Bounds(np.zeros(n_var), ub)


def solve(inst: LandAllocation, time_limit: float, warm_start: np.ndarray | None = None,
          cancel: Callable[[], bool] | None = None) -> MilpResult:
    """Solve exactly (within ``time_limit`` seconds); see the module docstring."""
    check_cancel(cancel, "land-allocation")
    t0 = time.perf_counter()
    c, const, cons, integrality, bounds = land_model(inst)
    fallback = valid_warm_start(inst, warm_start)
    lp, x = lp_bound(c, const, cons, bounds, LP_SHARE * time_limit, t0, cancel)
    if x is not None:
        rounded = round_lp(inst, x[: inst.n])
        if inst.score_mask(rounded)[0] > inst.score_mask(fallback)[0]:
            fallback = rounded
    # without a proven bound: R ≤ 1, A ≤ A(every candidate), ρ and V ≥ 0
    trivial = W_R + W_A * inst.score_mask(np.ones(inst.n, dtype=bool))[1]["A"]
    res = run_highs(c, cons, integrality, bounds, time_limit, t0, cancel=cancel)
    return result_from_highs(inst, res, const, min(trivial, lp), fallback, t0)
