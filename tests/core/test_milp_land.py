"""Land-allocation MILP: equals brute force on tiny instances, valid bound and plan."""
from __future__ import annotations

import pytest

from cityplanner.plugin.city import load_city
from cityplanner.plugin.errors import Cancelled
from cityplanner.plugin.solvers.milp import solve_milp
from cityplanner.plugin.tasks.land import LandAllocation
from tests.core.test_solvers import brute_force
from tests.core.test_task_land import greedy, random_land


@pytest.mark.parametrize("seed", range(12))
def test_milp_equals_brute_force(seed):
    inst = random_land(seed, n=6 + seed % 7, n_units=1 + seed % 6)
    res = solve_milp(inst, 30)
    opt = brute_force(inst)
    assert res.exact and res.status == "optimal"
    assert inst.hard_errors(res.mask) == []
    assert inst.score_mask(res.mask)[0] == pytest.approx(opt, abs=1e-7)
    assert res.bound >= opt - 1e-7


def test_warm_start_fallback_and_cancel():
    inst = random_land(7, 8, 4)
    warm = greedy(inst)
    res = solve_milp(inst, 30, warm_start=warm)
    assert inst.score_mask(res.mask)[0] >= inst.score_mask(warm)[0] - 1e-12
    with pytest.raises(Cancelled):
        solve_milp(inst, 30, cancel=lambda: True)


def test_milp_on_real_city_beats_greedy():
    inst = LandAllocation.build(load_city("helsinki"), "large", seed=0)
    warm = greedy(inst)
    res = solve_milp(inst, 60, warm_start=warm)
    s = inst.score_mask(res.mask)[0]
    assert res.status == "optimal" and inst.hard_errors(res.mask) == []
    assert s >= inst.score_mask(warm)[0] - 1e-9 and res.bound >= s - 1e-9
    assert res.bound - s <= 1e-5
