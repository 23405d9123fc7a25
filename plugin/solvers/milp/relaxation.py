"""An early bound: the LP relaxation of a task MILP, solved first with part of the time.

HiGHS's MIP reports its dual bound only when it returns; on a large model its root node
(presolve, LP, analytic centre, cut rounds) can run past the time limit, and ``run_highs``
then kills it, losing the bound with the process. The LP alone ends much sooner, and its
optimum is a proven upper bound on S (a relaxation of an exact model, or of a relaxation),
so the MIP that follows can only improve on it. The MIP repeats the LP as its root: that
costs time, but a certificate that is always there is worth it at scale.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable
from functools import partial

import numpy as np
from scipy.optimize import LinearConstraint, linprog
from scipy.sparse import vstack

from ...errors import Cancelled
from ...tasks.base import Instance
from ...util.spawned import bounded_call
from . import KILL_GRACE, MILP_EXTENSION

#: share of a MILP's time the LP may take (it usually needs far less)
LP_SHARE = 0.6
#: models with fewer variables skip the LP when its share is at least SHORT_LP_S: their MIP
#: ends well within such a limit (the paper-sized instances of the quick suite have at most
#: 4,000 for station and land)
LP_MIN_VARS = 15000
#: below this many seconds for the LP (a MILP limit under about 8 s) even a small model computes
#: the LP first: the MIP's worker start-up and presolve alone can outlast such a limit, and a
#: killed MIP leaves only the score's ceiling as the bound
SHORT_LP_S = 5.0
#: an LP given less than this is not started (the worker would be killed before it answers)
LP_LEAST_S = 0.2


def lp_bound(c: np.ndarray, const: float, constraints, bounds, time_limit: float, t0: float | None = None,
             cancel: Callable[[], bool] | None = None, min_vars: int | None = None) -> tuple[float, np.ndarray | None]:
    """(``const − min c·x`` over the LP relaxation, the LP solution): a bound on the maximised
    S = const − c·x, or (inf, None) when the LP did not finish within ``time_limit`` seconds
    of ``t0`` (or the model has fewer than ``min_vars``, default LP_MIN_VARS, and the LP may take
    SHORT_LP_S or more: its MIP then ends in time). HiGHS's interior point method (with
    crossover, so the optimum is exact) in a spawned worker killed at the limit: on these
    models it takes half the time of the dual simplex the MIP uses for its root."""
    if len(c) < (LP_MIN_VARS if min_vars is None else min_vars) and time_limit >= SHORT_LP_S:
        return math.inf, None
    t0 = time.perf_counter() if t0 is None else t0
    a, lo, hi = constraints.A.tocsr(), np.asarray(constraints.lb, dtype=float), np.asarray(constraints.ub, dtype=float)
    eq = lo == hi
    up, down = ~eq & np.isfinite(hi), ~eq & np.isfinite(lo)
    left = time_limit - (time.perf_counter() - t0)
    if left < LP_LEAST_S:
        return math.inf, None
    # scipy's own function: the worker imports it by name (this package may not be importable there)
    call = partial(linprog, c, A_ub=vstack([a[up], -a[down]]).tocsr(), b_ub=np.r_[hi[up], -lo[down]], A_eq=a[eq],
                   b_eq=lo[eq], bounds=np.c_[bounds.lb, bounds.ub], method="highs-ipm", options={"time_limit": left})
    state, out = bounded_call(call, (), left + KILL_GRACE, cancel)
    if state == "cancelled":
        raise Cancelled("cancelled while the LP bound was computed")
    if state != "ok" or out.status != 0 or out.x is None:
        return math.inf, None
    return float(const - c @ out.x), out.x


def with_planner_rows(c: np.ndarray, constraints: LinearConstraint, bounds) -> tuple[np.ndarray, LinearConstraint, float]:
    """(c, constraints, offset) with the planner's rows and emphasis of the MILP being solved
    (``MILP_EXTENSION``; unchanged without one), merged into one LinearConstraint for
    ``lp_bound``; the LP's bound is then ``lp_bound(...) − offset``. An LP that keeps the
    planner's rows has a support whose plans can keep them too."""
    extend = MILP_EXTENSION.get()
    if extend is None:
        return c, constraints, 0.0
    c, cons, _, _, offset = extend(c, constraints, None, bounds)
    cons = cons if isinstance(cons, (list, tuple)) else [cons]
    merged = LinearConstraint(vstack([k.A for k in cons]).tocsr(),
                              np.concatenate([np.broadcast_to(k.lb, (k.A.shape[0],)) for k in cons]),
                              np.concatenate([np.broadcast_to(k.ub, (k.A.shape[0],)) for k in cons]))
    return c, merged, float(offset)


def round_lp(inst: Instance, y: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
    """A valid plan from LP values ``y`` (one per candidate): from ``start`` (or empty), add
    candidates in decreasing y while the move is allowed and raises S, then drop any whose
    removal raises S. Cheap (one pass), and near the LP optimum when it is nearly integral."""
    st = inst.state(start)
    for i in np.argsort(-np.asarray(y[: inst.n]), kind="stable"):
        if y[i] <= 1e-6:
            break
        if st.can_add(int(i)) and st.gain_add(int(i)) > 0:
            st.add(int(i))
    for i in st.selected():
        if st.gain_remove(int(i)) > 0:
            st.remove(int(i))
    return st.mask.copy()
