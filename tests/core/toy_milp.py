"""An exact MILP for tests.toy_task.ToyCover, used to test the MILP dispatcher, the
``milp`` and ``default`` methods and benchmark bounds. Register it with
``monkeypatch.setitem(MILP_MODULES, "toy", "tests.core.toy_milp")``.

max Σ_j w_j y_j / W − 0.2 Σ_i c_i x_i / B  s.t.  y_j ≤ Σ_{i covers j} x_i, Σ c x ≤ B,
Σ x ≤ max_select, Σ_{i ∈ g} x_i ≤ 1 per group; x, y binary. Exact for ToyCover's score.
"""
from __future__ import annotations

import math
import time

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

from cityplanner.plugin.solvers.milp import MilpResult


def solve(inst, time_limit, warm_start=None, cancel=None) -> MilpResult:
    t0 = time.perf_counter()
    n, m = inst.n, len(inst.w)
    c = np.concatenate([0.2 * inst.cost / inst.budget, -inst.w / inst.w.sum()])  # minimise −S
    rows = [np.concatenate([-inst.cover[:, j].astype(float), np.eye(m)[j]]) for j in range(m)]
    rows.append(np.concatenate([inst.cost, np.zeros(m)]))
    rows.append(np.concatenate([np.ones(n), np.zeros(m)]))
    ub = [0.0] * m + [inst.budget, inst.max_select]
    for g in range(inst.n_groups):
        rows.append(np.concatenate([(inst.group == g).astype(float), np.zeros(m)]))
        ub.append(1.0)
    res = milp(c, constraints=LinearConstraint(np.array(rows), -np.inf, ub), integrality=np.ones(n + m),
               bounds=Bounds(0, 1), options={"time_limit": max(time_limit, 0.01)})
    if res.x is None:
        return MilpResult(np.zeros(n, bool), math.inf, "error", True, time.perf_counter() - t0)
    status = "optimal" if res.status == 0 else "time_limit"
    bound = -float(res.mip_dual_bound) if res.mip_dual_bound is not None else -float(res.fun)
    return MilpResult(res.x[:n] > 0.5, bound, status, True, time.perf_counter() - t0)
