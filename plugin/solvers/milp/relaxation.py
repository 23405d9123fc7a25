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
from typing import Callable

import numpy as np

from ...tasks.base import Instance
from . import run_highs

#: share of a MILP's time the LP may take (it usually needs far less)
LP_SHARE = 0.5
#: models with fewer variables skip the LP: their MIP ends well within any time limit
LP_MIN_VARS = 5000


def lp_bound(c: np.ndarray, const: float, constraints, bounds, time_limit: float, t0: float | None = None,
             cancel: Callable[[], bool] | None = None) -> tuple[float, np.ndarray | None]:
    """(``const − min c·x`` over the LP relaxation, the LP solution): a bound on the maximised
    S = const − c·x, or (inf, None) when the LP did not finish within ``time_limit`` seconds
    of ``t0`` (or the model is too small to need it)."""
    if len(c) < LP_MIN_VARS:
        return math.inf, None
    t0 = time.perf_counter() if t0 is None else t0
    res = run_highs(c, constraints, np.zeros(len(c)), bounds, time_limit, t0, cancel=cancel)
    if res.status != 0 or res.x is None:
        return math.inf, None
    return float(const - c @ res.x), res.x


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
