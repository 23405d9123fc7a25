"""Exact MILP for station placement (EXACT for the evaluator's score S).

Variables: y_i ∈ {0,1} (candidate i selected); x_ij ∈ [0,1] for every pair where i covers
region j (j uses i); o_i ≥ 0 (overload of i); t_i free (service value c_i·φ̂(u_i) of i).
  Ψ:           Σ cost_i·y_i ≤ budget,  Σ y_i ≤ max_select,  Σ_{i∈site} y_i ≤ 1
  assignment:  x_ij ≤ y_i,  Σ_i x_ij ≤ 1,  and the closest-assignment constraints
               Σ_{i' : rank_j(i') ≤ rank_j(k)} x_i'j ≥ y_k  for every k covering j,
               which, with binary y, force x_·j to be exactly the indicator of the
               selected candidate j prefers (the evaluator's assignment), so x is integral
  overload:    o_i ≥ Σ_j w_j·x_ij − c_i·y_i          (minimised: o_i = max(0, L_i − c_i))
  service:     t_i ≤ a_k·c_i·y_i + b_k·Σ_j w_j·x_ij  for every line k of φ̂
               (maximised: t_i = min_k(...) = the evaluator's c_i·φ̂(u_i); 0 when y_i = 0)
  maximise     0.50·A + 0.25·D + 0.15·T − 0.20·ρ − lambda_over·O − lambda_unserved·(1 − A)
with A, D, T, O linear in x, t, o as in the task docstring. The duplicate-site and
step-limit terms of V are 0 under Ψ. Every term equals the evaluator's at integral y, so the
model is exact; ``bound`` is −(HiGHS dual bound) + the constant −lambda_unserved.

Warm start: scipy's milp takes none, so the warm start is only a fallback — it is returned
when HiGHS finds nothing better (a cutoff row S ≥ S(warm) made the LP harder in practice).
Cancel: checked before the solve; during it ``run_highs`` kills the HiGHS worker and raises
``Cancelled`` (as the other task MILPs do).
"""
from __future__ import annotations

import time
from typing import Callable

import numpy as np
from scipy.optimize import Bounds, LinearConstraint
from scipy.sparse import coo_matrix

from . import MilpResult, check_cancel, result_from_highs, run_highs, valid_warm_start
from ...tasks.station import W_A, W_D, W_RHO, W_T, WAIT_A, WAIT_B, StationPlacement

#: a trivially valid bound: A, D, T ≤ 1 and every other term is ≤ 0
TRIVIAL_BOUND = W_A + W_D + W_T


class _Rows:
    """Sparse constraint rows collected as (row, col, value) triples with their bounds."""

    def __init__(self) -> None:
        self.r: list[np.ndarray] = []
        self.c: list[np.ndarray] = []
        self.v: list[np.ndarray] = []
        self.lo: list[np.ndarray] = []
        self.hi: list[np.ndarray] = []
        self.n = 0

    def add(self, rows: np.ndarray, cols: np.ndarray, vals: np.ndarray, n_rows: int,
            lo: float | np.ndarray, hi: float | np.ndarray) -> None:
        """Add ``n_rows`` rows; ``rows`` are numbered from 0 within this block."""
        self.r.append(np.asarray(rows, dtype=np.int64) + self.n)
        self.c.append(np.asarray(cols, dtype=np.int64))
        self.v.append(np.asarray(vals, dtype=float))
        self.lo.append(np.broadcast_to(np.asarray(lo, dtype=float), (n_rows,)))
        self.hi.append(np.broadcast_to(np.asarray(hi, dtype=float), (n_rows,)))
        self.n += n_rows

    def constraint(self, n_vars: int) -> LinearConstraint:
        a = coo_matrix((np.concatenate(self.v), (np.concatenate(self.r), np.concatenate(self.c))),
                       shape=(self.n, n_vars)).tocsr()
        return LinearConstraint(a, np.concatenate(self.lo), np.concatenate(self.hi))


def solve(inst: StationPlacement, time_limit: float, warm_start: np.ndarray | None = None,
          cancel: Callable[[], bool] | None = None) -> MilpResult:
    """Solve exactly (within ``time_limit`` seconds); see the module docstring."""
    check_cancel(cancel, "station-placement")
    t0 = time.perf_counter()
    n = inst.n

    p, W = inst.params, inst.W
    pi, pj = np.nonzero(inst.rank[:n] < inst.BIG)         # covering pairs (i, j)
    nx = len(pi)
    # variable layout: y (n) | x (nx) | o (n) | t (n)
    X, O, T = n, n + nx, n + nx + n
    nv = T + n
    wx = inst.w[pj]
    c = np.zeros(nv)
    c[:n] = -W_RHO * inst.cost / inst.budget
    c[X:O] = wx * (W_A + p["lambda_unserved"] + W_D * inst.access[pi, pj]) / W
    c[O:T] = -p["lambda_over"] / W
    c[T:] = W_T / W
    const = -p["lambda_unserved"]

    rows = _Rows()
    rows.add(np.zeros(n), np.arange(n), inst.cost, 1, -np.inf, inst.budget)
    rows.add(np.zeros(n), np.arange(n), np.ones(n), 1, -np.inf, inst.max_select)
    grp = np.flatnonzero(inst.group >= 0)
    if len(grp):
        rows.add(inst.group[grp], grp, np.ones(len(grp)), inst.n_groups, -np.inf, 1.0)
    k = np.arange(nx)
    rows.add(np.repeat(k, 2), np.column_stack([X + k, pi]).ravel(), np.tile([1.0, -1.0], nx), nx, -np.inf, 0.0)
    rows.add(pj, X + k, np.ones(nx), inst.m, -np.inf, 1.0)
    # closest assignment: for pair (k_i, j) the row holds every pair (i', j) ranked at or before k_i
    rank = inst.rank[pi, pj]
    rr, cc = [k], [pi]
    for j in np.unique(pj):
        idx = np.flatnonzero(pj == j)
        a_, b_ = np.nonzero(rank[idx][None, :] <= rank[idx][:, None])   # pair b at or before pair a
        rr.append(idx[a_])
        cc.append(X + idx[b_])
    rr, cc = np.concatenate(rr), np.concatenate(cc)
    vals = np.ones(len(rr))
    vals[:nx] = -1.0
    rows.add(rr, cc, vals, nx, 0.0, np.inf)
    # load L_i = Σ_j w_j x_ij appears in the overload and service rows
    ii = np.arange(n)
    rows.add(np.concatenate([ii, pi, ii]), np.concatenate([O + ii, X + k, ii]),
             np.concatenate([np.ones(n), -wx, inst.cap]), n, 0.0, np.inf)
    for a, b in zip(WAIT_A, WAIT_B):
        rows.add(np.concatenate([ii, pi, ii]), np.concatenate([T + ii, X + k, ii]),
                 np.concatenate([np.ones(n), -b * wx, -a * inst.cap]), n, -np.inf, 0.0)

    lb = np.zeros(nv)
    ub = np.ones(nv)
    ub[O:T] = np.inf
    lb[T:], ub[T:] = -np.inf, np.inf
    integrality = np.zeros(nv)
    integrality[:n] = 1
    res = run_highs(-c, rows.constraint(nv), integrality, Bounds(lb, ub), time_limit, t0, cancel=cancel)
    return result_from_highs(inst, res, const, TRIVIAL_BOUND, valid_warm_start(inst, warm_start), t0)
