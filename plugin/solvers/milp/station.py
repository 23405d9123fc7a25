"""Exact MILP for station placement (EXACT for the evaluator's score S).

Variables: y_i ∈ {0,1} (candidate i selected); for every region j, its covering candidates
in j's preference order p_1, p_2, … (the evaluator's rank) get cumulative assignment
variables z_jr = Σ_{s ≤ r} x_{p_s j} ∈ [0, 1] (j uses one of its first r candidates), so
x_{p_r j} = z_jr − z_j(r−1); L_i ≥ 0 (load of i); o_i ≥ 0 (overload); t_i free (service
value c_i·φ̂(u_i)).
  Ψ:           Σ cost_i·y_i ≤ budget,  Σ y_i ≤ max_select,  Σ_{i∈site} y_i ≤ 1
  assignment:  0 ≤ x_{p_r j} ≤ y_{p_r},  z_jr ≤ 1, and closest assignment
               z_jr ≥ Σ_{s ≤ r, site(p_s) = site(p_r)} y_{p_s}
               (if a configuration of that site ranked at or before r is selected, j uses
               one of its first r candidates; with at most one configuration per site the
               sum is ≤ 1, and it is ≥ y_{p_r}: tighter than the plain z_jr ≥ y_{p_r})
               which, with binary y, force x_·j to be exactly the indicator of the selected
               candidate j prefers (the evaluator's assignment), so x is integral
  load:        L_i = Σ_j w_j·x_ij
  overload:    o_i ≥ L_i − c_i·y_i                    (minimised: o_i = max(0, L_i − c_i))
  service:     t_i ≤ a_k·c_i·y_i + b_k·L_i  for every line k of φ̂
               (maximised: t_i = min_k(...) = the evaluator's c_i·φ̂(u_i); 0 when y_i = 0)
  maximise     0.50·A + 0.25·D + 0.15·T − 0.20·ρ − lambda_over·O − lambda_unserved·(1 − A)
with A, D, T, O linear in x, t, o as in the task docstring. The duplicate-site and
step-limit terms of V are 0 under Ψ. Every term equals the evaluator's at integral y, so the
model is exact; ``bound`` is −(HiGHS dual bound) + the constant −lambda_unserved.

Size: the cumulative variables make the closest-assignment rows O(pairs) non-zeros (the
direct form Σ_{rank ≤ r} x ≥ y needs O(Σ_j k_j²): 10⁸ at 2,000 candidates), and the load
variable keeps the 21 service rows of a candidate at 3 non-zeros each.

Early bound: on large models the LP relaxation is solved first (``relaxation.lp_bound``), so
a bound exists even when the MIP's root node outlasts the time limit. At scale (``default``
from ``AT_SCALE_N`` candidates) the full MIP is not attempted: ``solve_at_scale``.

Warm start: scipy's milp takes none, so the warm start is only a fallback — it is returned
when HiGHS finds nothing better (a cutoff row S ≥ S(warm) made the LP harder in practice).
Cancel: checked before the solve; during it ``run_highs`` kills the HiGHS worker and raises
``Cancelled`` (as the other task MILPs do).
"""
from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from scipy.optimize import Bounds, LinearConstraint
from scipy.sparse import coo_matrix

from ...tasks.station import W_A, W_D, W_RHO, W_T, WAIT_A, WAIT_B, StationPlacement
from . import MilpResult, check_cancel, result_from_highs, run_highs, valid_warm_start
from .relaxation import LP_SHARE, lp_bound, round_lp, with_planner_rows

#: a trivially valid bound: A, D, T ≤ 1 and every other term is ≤ 0
TRIVIAL_BOUND = W_A + W_D + W_T
#: the φ̂ lines the early LP bound keeps (u from 0 to 1 in steps of 0.25, and the overload line)
LP_LINES = np.array([0, 5, 10, 15, 19, 20])


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


def station_model(inst: StationPlacement, lines: np.ndarray | None = None):
    """(objective to minimise, constant, constraints, integrality, bounds) of the module docstring.

    ``lines``: indices of the φ̂ lines to keep (default all: exact). A subset is a relaxation
    (the minimum over fewer lines is larger), used for the early LP bound: the service rows
    are most of the model's rows."""
    n, p, W = inst.n, inst.params, inst.W
    pi, pj = np.nonzero(inst.rank[:n] < inst.BIG)         # covering pairs (i, j)
    order = np.lexsort((inst.rank[pi, pj], pj))            # by region, then preference
    pi, pj = pi[order], pj[order]
    nx = len(pi)
    first = np.r_[True, pj[1:] != pj[:-1]] if nx else np.zeros(0, dtype=bool)
    k = np.arange(nx)
    prev = np.where(first, -1, k - 1)                      # the previous pair of the same region
    # variable layout: y (n) | z (nx) | L (n) | o (n) | t (n)
    Z, LD, O, T = n, n + nx, n + nx + n, n + nx + 2 * n
    nv = T + n
    cx = inst.w[pj] * (W_A + p["lambda_unserved"] + W_D * inst.access[pi, pj]) / W   # per x_{p_r j}
    c = np.zeros(nv)
    c[:n] = -W_RHO * inst.cost / inst.budget
    # x_r = z_r − z_(r−1): z_r takes x_r's coefficient minus that of the next pair of its region
    cz = cx.copy()
    has_next = np.r_[~first[1:], False] if nx else np.zeros(0, dtype=bool)
    cz[has_next] -= cx[np.flatnonzero(has_next) + 1]
    c[Z:LD] = cz
    c[O:T] = -p["lambda_over"] / W
    c[T:] = W_T / W
    const = -p["lambda_unserved"]

    rows = _Rows()
    rows.add(np.zeros(n), np.arange(n), inst.cost, 1, -np.inf, inst.budget)
    rows.add(np.zeros(n), np.arange(n), np.ones(n), 1, -np.inf, inst.max_select)
    grp = np.flatnonzero(inst.group >= 0)
    if len(grp):
        rows.add(inst.group[grp], grp, np.ones(len(grp)), inst.n_groups, -np.inf, 1.0)
    hp = np.flatnonzero(prev >= 0)
    # 0 ≤ x_r ≤ y_i:  z_r − z_(r−1) − y_i ≤ 0  and  z_r − z_(r−1) ≥ 0
    rows.add(np.r_[k, k, hp], np.r_[Z + k, pi, Z + prev[hp]], np.r_[np.ones(nx), -np.ones(nx), -np.ones(len(hp))],
             nx, -np.inf, 0.0)
    if len(hp):
        rows.add(np.r_[np.arange(len(hp)), np.arange(len(hp))], np.r_[Z + hp, Z + prev[hp]],
                 np.r_[np.ones(len(hp)), -np.ones(len(hp))], len(hp), 0.0, np.inf)
    # closest assignment: z_r ≥ Σ y over the configurations of p_r's site ranked at or before r
    site = np.where(inst.group[pi] >= 0, inst.group[pi], inst.n_groups + pi)   # no group: its own site
    key = np.lexsort((k, site, pj))                        # pairs of one (region, site) in rank order
    rr, cc = [k], [Z + k]
    start = np.r_[True, (pj[key][1:] != pj[key][:-1]) | (site[key][1:] != site[key][:-1])] if nx else first
    run_id = np.cumsum(start) - 1
    pos_in_run = k - np.flatnonzero(start)[run_id]
    for d in range(int(pos_in_run.max()) + 1 if nx else 0):   # the d-th earlier configuration of the site
        sel = np.flatnonzero(pos_in_run >= d)
        rr.append(key[sel])
        cc.append(pi[key[sel - d]])
    vals = np.r_[np.ones(nx), -np.ones(sum(len(r) for r in rr[1:]))]
    rows.add(np.concatenate(rr), np.concatenate(cc), vals, nx, 0.0, np.inf)
    # load L_i = Σ_j w_j x_ij = Σ_r w_j (z_r − z_(r−1))
    ii = np.arange(n)
    wx = inst.w[pj]
    rows.add(np.r_[ii, pi, pi[hp]], np.r_[LD + ii, Z + k, Z + prev[hp]], np.r_[np.ones(n), -wx, wx[hp]], n, 0.0, 0.0)
    rows.add(np.r_[ii, ii, ii], np.r_[O + ii, LD + ii, ii], np.r_[np.ones(n), -np.ones(n), inst.cap], n, 0.0, np.inf)
    keep = np.arange(len(WAIT_A)) if lines is None else np.asarray(lines)
    for a, b in zip(WAIT_A[keep], WAIT_B[keep], strict=False):
        rows.add(np.r_[ii, ii, ii], np.r_[T + ii, LD + ii, ii], np.r_[np.ones(n), -b * np.ones(n), -a * inst.cap],
                 n, -np.inf, 0.0)

    lb = np.zeros(nv)
    ub = np.ones(nv)
    ub[LD:T] = np.inf
    lb[T:], ub[T:] = -np.inf, np.inf
    integrality = np.zeros(nv)
    integrality[:n] = 1
    return -c, const, rows.constraint(nv), integrality, Bounds(lb, ub)


#: at scale, the share of the time the LP may take before the support MIP gets the rest
SCALE_LP_SHARE = 0.75
#: an LP value above this puts a candidate's site into the support MIP
SUPPORT_EPS = 1e-6
#: the at-scale LP keeps every φ̂ line (the exact model's LP, the tighter bound) when it may take
#: at least this many seconds per candidate, else only LP_LINES: a bound that comes late is no
#: bound. Interior point on 2 cores, quiet: 2,000 candidates, all lines 25 s (bound 0.4729) vs
#: LP_LINES 17 s (0.4750); 4,000: 74 s vs 33 s (0.4852 vs 0.4875); 2.4 × margin for a loaded
#: machine (at load 5 the all-lines LP at 2,000 missed a 34 s limit)
FULL_LINES_S_PER_N = 0.03


def solve(inst: StationPlacement, time_limit: float, warm_start: np.ndarray | None = None,
          cancel: Callable[[], bool] | None = None, at_scale: bool = False) -> MilpResult:
    """Solve exactly (within ``time_limit`` seconds); see the module docstring. ``at_scale``:
    for models too large to finish, the LP bound and the support MIP (``solve_at_scale``)."""
    check_cancel(cancel, "station-placement")
    t0 = time.perf_counter()
    fallback = valid_warm_start(inst, warm_start)
    if at_scale:
        return solve_at_scale(inst, time_limit, fallback, cancel, t0)
    c, const, cons, _, bounds = station_model(inst, LP_LINES)
    lp, x = lp_bound(c, const, cons, bounds, LP_SHARE * time_limit, t0, cancel)
    if x is not None:
        fallback = _better(inst, round_lp(inst, x), fallback)
    c, const, cons, integrality, bounds = station_model(inst)
    res = run_highs(c, cons, integrality, bounds, time_limit, t0, cancel=cancel)
    return result_from_highs(inst, res, const, min(TRIVIAL_BOUND, lp), fallback, t0)


def _better(inst: StationPlacement, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The better plan, validity first (a rounded LP may break a planner's constraint)."""
    key = lambda m: (not inst.hard_errors(m), inst.score_mask(m)[0])  # noqa: E731
    return a if key(a) > key(b) else b


def support(inst: StationPlacement, y: np.ndarray, plan: np.ndarray) -> np.ndarray:
    """Candidates of the support MIP: every configuration of a site that the LP uses (y >
    SUPPORT_EPS) or that ``plan`` selects."""
    keep = (np.asarray(y[: inst.n]) > SUPPORT_EPS) | plan
    grouped = inst.group >= 0
    return keep | (grouped & np.isin(inst.group, inst.group[keep & grouped]))


def solve_at_scale(inst: StationPlacement, time_limit: float, fallback: np.ndarray,
                   cancel: Callable[[], bool] | None, t0: float) -> MilpResult:
    """The exact model's LP relaxation (all φ̂ lines when SCALE_LP_SHARE of the time allows,
    FULL_LINES_S_PER_N, else LP_LINES: either optimum is a bound; it may run to the end of
    ``time_limit``, never killed at its share), then the exact MIP restricted to the LP's
    support (``support``) for the plan with the time left.

    At thousands of candidates the full MIP's root node (dual simplex, then cuts that moved the
    bound by 0.2 % at 2,000 candidates) outlasts two minutes on two cores, and reduced-cost
    fixing frees almost nothing (the LP is degenerate: y = 0 at zero reduced cost, the x ≤ y
    rows carry the duals). The LP's support is a few dozen sites; the MIP over their
    configurations solved in 31 s and its plan was within 0.7 % of the LP bound (synthetic
    city, 2,000 candidates; 2.7 % before with ALNS from the rounded LP). The restricted MIP's
    own bound holds only for its sub-problem, so the LP's is the one reported."""
    lp_seconds = SCALE_LP_SHARE * time_limit
    c, const, cons, _, bounds = station_model(inst, None if lp_seconds >= FULL_LINES_S_PER_N * inst.n else LP_LINES)
    c, cons, offset = with_planner_rows(c, cons, bounds)
    # the LP is expected within lp_seconds, but it is the certificate: on a busy machine it may
    # take the whole stage (the support MIP then gets nothing, and the rounded LP is the plan)
    lp, x = lp_bound(c, const, cons, bounds, time_limit, t0, cancel, 0)
    lp -= offset
    if x is not None:
        c, const, cons, integrality, bounds = station_model(inst)
        fallback = _better(inst, round_lp(inst, x), fallback)
        ub = np.array(bounds.ub, dtype=float)
        ub[: inst.n][~support(inst, x, fallback)] = 0.0
        res = run_highs(c, cons, integrality, Bounds(bounds.lb, ub), time_limit, t0, cancel=cancel)
        if res.x is not None:
            mask = res.x[: inst.n] > 0.5
            if not inst.hard_errors(mask):
                fallback = _better(inst, mask, fallback)
    plan_s = inst.score_mask(fallback)[0] if not inst.hard_errors(fallback) else -np.inf
    return MilpResult(fallback, max(min(TRIVIAL_BOUND, lp), plan_s), "time_limit", True, time.perf_counter() - t0)
