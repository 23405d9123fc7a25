"""Solvers on ToyCover instances small enough to enumerate every plan."""
from __future__ import annotations

import itertools
import time

import numpy as np
import pytest
from hypothesis import given, settings as hsettings, strategies as st

from cityplanner.plugin.errors import InputError
from cityplanner.plugin.solvers import SOLVERS, Settings, better, solve, solver
from cityplanner.plugin.solvers.milp import MilpUnavailable, solve_milp
from tests.toy_task import ToyCover, register

HEURISTICS = ["greedy", "grasp", "sa", "alns", "default"]
PAPER_SHARE = Settings().default_alns_share
LONG = Settings(sa_iterations=10**8, alns_iterations=10**8, grasp_iterations=10**8)


def brute_force(inst) -> float:
    """Best score over every valid plan."""
    best = -np.inf
    for bits in itertools.product([False, True], repeat=inst.n):
        mask = np.array(bits)
        if not inst.hard_errors(mask):
            best = max(best, inst.score_mask(mask)[0])
    return best


@pytest.fixture
def toy_milp(monkeypatch):
    register(monkeypatch, milp=True)


@pytest.mark.parametrize("seed", range(4))
def test_heuristics_valid_and_below_optimum(seed):
    inst = ToyCover.build(seed=seed, n=10, m=12, max_select=4)
    opt = brute_force(inst)
    for method in HEURISTICS:
        r = solve(inst, method, time_limit=10)
        assert r.valid and not inst.hard_errors(r.mask), method
        assert r.score <= opt + 1e-6, method
        assert r.score == pytest.approx(inst.score_mask(r.mask)[0], abs=1e-6)
        assert r.trace and r.trace[-1][1] == pytest.approx(r.score, abs=1e-6)
    assert solve(inst, "alns", time_limit=10).score == pytest.approx(opt, abs=1e-6)


# alns and default run to their time limit twice (~15 s alone): slow, out of make test-fast
@pytest.mark.parametrize("method", [pytest.param(m, marks=pytest.mark.slow) if m in ("alns", "default") else m
                                    for m in HEURISTICS])
def test_same_seed_same_plan(method):
    inst = ToyCover.build(seed=7, n=30, m=40)
    a, b = (solve(inst, method, time_limit=30, seed=3) for _ in range(2))
    assert a.ids == b.ids and a.score == b.score


@pytest.mark.parametrize("method", ["grasp", "sa", "alns", "default"])
def test_time_limit_respected(method):
    inst = ToyCover.build(seed=1, n=40, m=60)
    solver(method)  # importing a solver (the alns package: ~1 s on a loaded machine) is not solving
    t0 = time.perf_counter()
    r = solve(inst, method, time_limit=0.2, settings=LONG)
    assert time.perf_counter() - t0 < 0.5
    assert r.valid and r.status == "time_limit"


@pytest.mark.parametrize("method", ["greedy", "grasp", "sa", "alns", "default"])
def test_cancel_stops_promptly_with_best_so_far(method):
    inst = ToyCover.build(seed=2, n=40, m=60)
    calls = []
    def cancel() -> bool:
        calls.append(1)
        return len(calls) > 3
    t0 = time.perf_counter()
    r = solve(inst, method, time_limit=60, cancel=cancel, settings=LONG)
    assert time.perf_counter() - t0 < 1.0
    assert r.status == "cancelled" and r.valid
    assert r.score == pytest.approx(max(s for _, s in r.trace), abs=1e-6)


def test_progress_is_monotone_and_ends_at_one():
    seen: list[float] = []
    solve(ToyCover.build(seed=0, n=20, m=30), "sa", time_limit=10, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == 1.0


@hsettings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(1, 9), frac=st.floats(0.0, 1.0),
       k=st.integers(0, 9), method=st.sampled_from(HEURISTICS), solver_seed=st.integers(0, 100))
def test_never_labels_an_invalid_plan_valid(seed, n, frac, k, method, solver_seed):
    inst = ToyCover.build(seed=seed, n=n, m=6, max_select=k)
    inst.budget = max(frac * float(inst.cost.sum()), 1e-6)
    r = solve(inst, method, time_limit=5, seed=solver_seed)
    ev = inst.evaluate(r.ids)
    assert r.valid == ev.valid
    if r.valid:
        assert not inst.hard_errors(r.mask) and r.score <= brute_force(inst) + 1e-6


def test_better_is_validity_first():
    assert better((True, -5.0), (False, 1.0))
    assert not better((False, 9.0), (True, 0.0))
    assert better((True, 0.5), (True, 0.4)) and not better((True, 0.4), (True, 0.4))
    assert better((False, 0.1), (False, None))


def test_unknown_method_and_missing_milp():
    inst = ToyCover.build(seed=0)
    with pytest.raises(InputError):
        solve(inst, "nope")
    with pytest.raises(MilpUnavailable):
        solve_milp(inst, 1.0)
    with pytest.raises(MilpUnavailable):
        solve(inst, "milp", time_limit=1)
    assert set(HEURISTICS) | {"milp", "agent"} == set(SOLVERS)  # agent: the LLM planner loop


@pytest.mark.parametrize("seed", range(3))
def test_milp_dispatch_and_default_reach_optimum_with_bound(toy_milp, seed):
    inst = ToyCover.build(seed=seed, n=10, m=12, max_select=4)
    opt = brute_force(inst)
    res = solve_milp(inst, 10)
    assert res.status == "optimal" and res.exact and res.bound == pytest.approx(opt, abs=1e-6)
    for method in ("milp", "default"):
        r = solve(inst, method, time_limit=10)
        assert r.valid and r.score == pytest.approx(opt, abs=1e-6)
        assert r.upper_bound == pytest.approx(opt, abs=1e-6) and abs(r.gap) < 1e-6
        assert r.status == "optimal"


def test_default_keeps_heuristic_plan_when_milp_fails(monkeypatch):
    import tests.core.toy_milp as toy

    def broken(inst, time_limit, warm_start=None, cancel=None):
        raise RuntimeError("solver crashed")
    register(monkeypatch, milp=True)
    monkeypatch.setattr(toy, "solve", broken)
    r = solve(ToyCover.build(seed=3, n=12, m=15), "default", time_limit=10)
    assert r.valid and r.upper_bound is None and any("milp failed" in s for s in r.notes)


def test_local_search_pair_of_additions():
    """Two candidates that only pay together (a single add loses, the pair wins) are found."""
    from cityplanner.plugin.solvers.common import Context
    from cityplanner.plugin.solvers.local_search import add_pair

    inst = ToyCover.build(seed=3, n=12, m=16)
    st_ = inst.state()
    ctx = Context(inst, 10)
    before = st_.score
    if add_pair(st_, ctx):
        assert st_.score > before and st_.count == 2
        assert st_.score == pytest.approx(inst.score_mask(st_.mask)[0], abs=1e-9)


def test_alns_restarts_until_rounds_stop_improving():
    # a round of 5 iterations ends long before the time limit: rounds restart (alternately from
    # the best plan and a fresh RCL start) and stop after alns_patience rounds without a better
    # one (deterministic, not timed)
    inst = ToyCover.build(seed=4, n=30, m=40)
    few = Settings(alns_iterations=5, alns_patience=2)
    r = solve(inst, "alns", time_limit=30, settings=few)
    assert r.status == "done" and r.seconds < 10
    assert r.ids == solve(inst, "alns", time_limit=30, settings=few).ids
    assert r.score >= solve(inst, "alns", time_limit=30, settings=Settings(alns_iterations=5, alns_patience=1)).score - 1e-9


def test_highs_limit_counts_model_building():
    from cityplanner.plugin.solvers.milp import highs_options

    t0 = time.perf_counter() - 3.0          # the model took 3 s to build
    assert highs_options(10.0, t0)["time_limit"] == pytest.approx(7.0, abs=0.2)
    assert highs_options(2.0, t0)["time_limit"] == 0.1
    assert highs_options(5.0)["time_limit"] == pytest.approx(5.0)


def test_default_keeps_a_margin_for_the_milp(toy_milp):
    from cityplanner.plugin.solvers.common import Context
    from cityplanner.plugin.solvers.default import milp_margin

    inst = ToyCover.build(seed=0)
    assert milp_margin(Context(inst, 30.0)) == pytest.approx(1.5)
    assert milp_margin(Context(inst, 2.0)) == 0.5


def test_alns_fresh_start_is_a_valid_local_optimum_and_seeded():
    from cityplanner.plugin.solvers.alns import fresh_start
    from cityplanner.plugin.solvers.common import Context

    inst = ToyCover.build(seed=5, n=30, m=40)
    a, b = (fresh_start(inst, Context(inst, 10, seed=9), 3) for _ in range(2))
    assert not inst.hard_errors(a.mask) and list(a.selected()) == list(b.selected())
    assert all(a.gain_add(int(i)) <= 1e-9 for i in range(inst.n) if not a.mask[i] and a.can_add(int(i)))


def test_boxed_clock_stops_a_stage_but_not_the_run():
    from cityplanner.plugin.solvers.common import Context

    ctx = Context(ToyCover.build(seed=0), 10.0)
    with ctx.boxed(time.perf_counter()):
        assert ctx.stopped()
    assert not ctx.stopped() and ctx.remaining() > 5


def test_default_gives_road_less_alns_time():
    from cityplanner.plugin.solvers.common import Context
    from cityplanner.plugin.solvers.default import alns_share

    inst = ToyCover.build(seed=0)
    assert alns_share(inst, Context(inst, 10.0)) == PAPER_SHARE
    inst.task = "road"
    assert alns_share(inst, Context(inst, 10.0)) == 0.1


def test_bounded_call_kills_an_overrunning_child_promptly():
    from cityplanner.plugin.solvers.milp import bounded_call

    t0 = time.perf_counter()
    assert bounded_call(time.sleep, (30,), 0.3) == ("killed", None)
    assert time.perf_counter() - t0 < 3.0
    assert bounded_call(divmod, (7, 2), 5.0) == ("ok", (3, 1))
    state, msg = bounded_call(divmod, (1, 0), 5.0)
    assert state == "error" and "ZeroDivisionError" in msg


def test_run_highs_matches_scipy_milp():
    from scipy.optimize import Bounds, LinearConstraint, milp

    from cityplanner.plugin.solvers.milp import run_highs

    c = -np.array([5.0, 4.0, 3.0, 7.0])
    cons = LinearConstraint(np.array([[2.0, 3.0, 1.0, 4.0]]), -np.inf, 6.0)
    bounds = Bounds(np.zeros(4), np.ones(4))
    ref = milp(c, constraints=cons, integrality=np.ones(4), bounds=bounds)
    res = run_highs(c, cons, np.ones(4), bounds, time_limit=5.0)
    assert res.status == 0 and np.allclose(res.x, ref.x) and res.mip_dual_bound == pytest.approx(ref.fun)
