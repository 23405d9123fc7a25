"""Road-construction MILP: equals brute force on tiny instances, bound ≥ optimum, valid plan."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from cityplanner.plugin.solvers.milp import solve_milp
from cityplanner.plugin.solvers.milp.road import reduced_graph, solve
from tests.core.test_task_road import handmade, random_instance


def brute_force(inst) -> float:
    best = -np.inf
    for bits in itertools.product([False, True], repeat=inst.n):
        mask = np.array(bits, dtype=bool)
        if not inst.hard_errors(mask):
            best = max(best, inst.score_mask(mask)[0])
    return best


def test_handmade_optimum():
    inst = handmade()
    res = solve_milp(inst, 10.0)
    # best valid plan: {r0, n1} (S = 46/47 − 0.05); n0 + n1 + n2 scores 40/47 − 0.15
    assert res.exact and res.status == "optimal" and inst.ids_of(res.mask) == ["r0", "n1"]
    assert res.bound == pytest.approx(46 / 47 - 0.05, abs=1e-6)


@pytest.mark.parametrize("seed", range(30))
def test_equals_brute_force(seed):
    inst = random_instance(seed, n=int(np.random.default_rng(seed).integers(4, 13)))
    opt = brute_force(inst)
    res = solve(inst, 30.0)
    assert res.status == "optimal" and not inst.hard_errors(res.mask)
    assert inst.score_mask(res.mask)[0] == pytest.approx(opt, abs=1e-6)
    assert res.bound >= opt - 1e-6


def test_warm_start_is_the_fallback():
    inst = random_instance(7, n=10)
    warm = np.zeros(inst.n, dtype=bool)
    res = solve(inst, 30.0, warm_start=warm)
    assert inst.score_mask(res.mask)[0] >= inst.score_mask(warm)[0]
    bad = np.ones(inst.n, dtype=bool)  # invalid warm start (budget): never returned
    assert not inst.hard_errors(solve(inst, 30.0, warm_start=bad).mask)


def test_reduced_graph_keeps_key_distances():
    from scipy.sparse.csgraph import dijkstra

    from cityplanner.plugin.tasks.road import _csr

    inst = random_instance(3, n=8, n_nodes=30)
    nodes, edges = reduced_graph(inst)
    keep = np.r_[inst.key_nodes, np.concatenate(inst.entries)]
    full = dijkstra(inst.csr, directed=False, indices=keep)[:, keep]
    pos = np.searchsorted(nodes, keep)
    red = dijkstra(_csr(edges, len(nodes)), directed=False, indices=pos)[:, pos]
    assert np.allclose(full, red, equal_nan=True)


@pytest.mark.parametrize("seed", range(30))
def test_pair_model_equals_brute_force(seed):
    """With a valid incumbent of S ≥ 0 (the greedy plan) the pruned pair model runs; it must
    still find the brute-force optimum and a bound ≥ it."""
    from tests.core.test_task_road import greedy

    inst = random_instance(seed, n=int(np.random.default_rng(seed).integers(4, 13)))
    warm = greedy(inst)
    if inst.score_mask(warm)[0] < 0:
        warm = np.zeros(inst.n, dtype=bool)
        for i in np.argsort(inst.cost):   # any connecting plan within Ψ, else the test skips
            trial = warm.copy()
            trial[i] = True
            if not inst.hard_errors(trial):
                warm = trial
        if inst.hard_errors(warm) or inst.score_mask(warm)[0] < 0:
            pytest.skip("no incumbent with S ≥ 0: the general model runs (tested above)")
    opt = brute_force(inst)
    res = solve(inst, 30.0, warm_start=warm)
    assert res.status == "optimal" and not inst.hard_errors(res.mask)
    assert inst.score_mask(res.mask)[0] == pytest.approx(opt, abs=1e-6)
    assert res.bound >= opt - 1e-6


def test_pair_model_on_handmade():
    inst = handmade()
    res = solve(inst, 10.0, warm_start=inst.mask_of(["r0", "n1"]))  # already optimal
    assert inst.ids_of(res.mask) == ["r0", "n1"] and res.status == "optimal"
    assert res.bound == pytest.approx(46 / 47 - 0.05, abs=1e-6)


def test_connection_cost_bound_by_hand():
    """Components {1,2}, {3,4}, {5,6} hold groups A, B, C; every pair is in Π. Leaving A:
    r0, n0, n2; B: r0, n0, n1; C: n1, n2. Cheapest cover r0 + n2 = 30 of budget 100, so
    S ≤ 1 − 0.1·30/100 = 0.97."""
    from cityplanner.plugin.solvers.milp.road_scale import connection_cost, leaving_rows

    inst = handmade()
    rows = leaving_rows(inst)
    assert sorted(map(tuple, rows.astype(int))) == [(0, 0, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0)]
    assert connection_cost(inst, 10) == pytest.approx(30.0)
    res = solve_milp(inst, 10, at_scale=True)
    assert res.bound == pytest.approx(0.97) and res.bound >= brute_force(inst) - 1e-9


@pytest.mark.parametrize("seed", range(10))
def test_at_scale_bound_holds_over_the_optimum(seed):
    """The connection-cost bound is ≥ the brute-force optimum; the plan is the valid fallback."""
    inst = random_instance(300 + seed)
    res = solve_milp(inst, 10, at_scale=True)
    assert res.bound >= brute_force(inst) - 1e-9 and inst.hard_errors(res.mask) == []


def test_connection_cost_ignores_the_planner_extension():
    """The covering MILP is not the task MILP: an active planner extension (here an emphasis
    that would reward every link) leaves its cost bound at the hand-computed 30."""
    from cityplanner.plugin.solvers.milp import MILP_EXTENSION
    from cityplanner.plugin.solvers.milp.road_scale import connection_cost

    token = MILP_EXTENSION.set(lambda c, cons, integ, b: (c - 100.0, cons, integ, b, 5.0))
    try:
        assert connection_cost(handmade(), 10) == pytest.approx(30.0)
    finally:
        MILP_EXTENSION.reset(token)
