"""Checks every task's tests share: a plain greedy plan and replaying random moves on a
SearchState while comparing it with the full evaluation."""
from __future__ import annotations

import numpy as np
import pytest

from cityplanner.plugin.tasks.base import Instance

#: a hypothesis move: (0 add | 1 remove | 2 swap, index into the free/selected rows, second index)
Move = tuple[int, int, int]


def greedy(inst: Instance) -> np.ndarray:
    """From the empty plan, add the allowed candidate with the best positive gain until none."""
    s = inst.state()
    while True:
        cand = [i for i in range(inst.n) if s.can_add(i)]
        gains = [s.gain_add(i) for i in cand]
        if not cand or max(gains) <= 1e-12:
            return s.mask
        s.add(cand[int(np.argmax(gains))])


def replay_moves(inst: Instance, moves: list[Move], tol: float = 1e-9) -> None:
    """Apply every move (allowed or not) and assert score and predicted gain == full evaluation."""
    s = inst.state()
    for kind, a, b in moves:
        sel, free = np.flatnonzero(s.mask), np.flatnonzero(~s.mask)
        before = s.score
        if kind == 0 and len(free):
            i = int(free[a % len(free)])
            gain = s.gain_add(i)
            s.add(i)
        elif kind == 1 and len(sel):
            i = int(sel[a % len(sel)])
            gain = s.gain_remove(i)
            s.remove(i)
        elif kind == 2 and len(sel) and len(free):
            o, i = int(sel[a % len(sel)]), int(free[b % len(free)])
            gain = s.gain_swap(o, i)
            s.swap(o, i)
        else:
            continue
        full = inst.score_mask(s.mask)[0]
        assert s.score == pytest.approx(full, abs=tol)
        assert before + gain == pytest.approx(full, abs=tol)
    assert s.copy().score == pytest.approx(s.score, abs=tol)


def milp_from_greedy(inst: Instance, time_limit: float):
    """Solve the task MILP warm-started from greedy; assert the plan is valid, no worse than
    greedy and under the bound. Returns (MilpResult, its score, greedy's score)."""
    from cityplanner.plugin.solvers.milp import solve_milp

    warm = greedy(inst)
    res = solve_milp(inst, time_limit, warm_start=warm)
    s, s_warm = inst.score_mask(res.mask)[0], inst.score_mask(warm)[0]
    assert inst.hard_errors(res.mask) == []
    assert s >= s_warm - 1e-9 and res.bound >= s - 1e-9
    return res, s, s_warm


def check_milp_exact(inst: Instance, tol: float = 1e-7) -> None:
    """The task MILP (exact) finds the brute-force optimum of a tiny instance, with a valid bound."""
    from cityplanner.plugin.solvers.milp import solve_milp
    from tests.core.test_solvers import brute_force

    res = solve_milp(inst, 30)
    opt = brute_force(inst)
    assert res.exact and res.status == "optimal"
    assert inst.hard_errors(res.mask) == []
    assert inst.score_mask(res.mask)[0] == pytest.approx(opt, abs=tol)
    assert res.bound >= opt - tol
