"""The process-level memo of certified plans (``plugin.constraints.roundtrip.certified_plan``): a
repeated round trip on the same instance and constraints gets the proven optimum a fresh solve
gets, an instance that differs only in its budget (same instance id) is never answered from
another's entry, and a caller that edits its reply cannot change what the next caller gets."""
from __future__ import annotations

import pytest

from cityplanner.plugin.city import load_city
from cityplanner.plugin.constraints import roundtrip
from cityplanner.plugin.tasks import task_class

KEEP = ("valid", "score", "upper_bound", "gap", "status", "ids")


@pytest.fixture(scope="module")
def road():
    return task_class("road").build(load_city("kotka"), "small", seed=0)


def _fresh(inst, constraints):
    """The same MILP solved again, never through the memo."""
    return roundtrip._solve_certified(inst, constraints, 60.0)


def test_a_repeated_certified_plan_is_the_fresh_solve(road):
    roundtrip._certified.clear()
    first = roundtrip.certified_plan(road, [], 60.0)
    assert first["status"] == "optimal" and len(roundtrip._certified) == 1
    again = roundtrip.certified_plan(road, [], 60.0)
    assert again == first and again is not first
    fresh = _fresh(road, [])
    assert {k: again[k] for k in KEEP} == {k: fresh[k] for k in KEEP}
    again["ids"].clear()   # the caller's copy: the memo keeps its own
    assert roundtrip.certified_plan(road, [], 60.0)["ids"] == first["ids"] != []


def test_the_same_id_with_another_budget_is_solved_on_its_own(road):
    roundtrip._certified.clear()
    tight = task_class("road").build(load_city("kotka"), "small", seed=0, budget=road.budget / 4)
    assert tight.instance_id == road.instance_id and tight.budget < road.budget
    assert roundtrip._certified_key(tight, [], 60.0) != roundtrip._certified_key(road, [], 60.0)
    roundtrip.certified_plan(road, [], 60.0)
    got = roundtrip.certified_plan(tight, [], 60.0)
    fresh = _fresh(tight, [])
    assert {k: got[k] for k in KEEP} == {k: fresh[k] for k in KEEP}
    assert sum(tight.cost[tight.index[i]] for i in got["ids"]) <= tight.budget + 1e-9
    assert len(roundtrip._certified) == 2


def test_a_result_cut_at_its_time_limit_is_not_kept(road):
    roundtrip._certified.clear()
    # no time at all: a millisecond was sometimes enough to prove this small instance optimal (flaky under CI)
    got = roundtrip.certified_plan(road, [], 0.0)
    assert got["status"] != "optimal" and not roundtrip._certified
