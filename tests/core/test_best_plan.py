"""The workspace's best plan is replaced only by a better one (validity first, under the
constraints in force); each run keeps its own plan file and shows score, bound and gap.

Scores are the hand-computed cases of tests/core/test_task_station.py: {c0, c2} 0.54875 beats
{c1, c2} ≈ 0.5330; {c0, c1} shares a site (invalid); {c2} alone is 0.1225."""
from __future__ import annotations

import json

import pytest

from cityplanner.plugin.constraints import store
from cityplanner.plugin.sandbox import best_plan, write_workspace
from cityplanner.plugin.sandbox.workspace import PLAN_FILE
from tests.core.test_task_station import HAND_CASES, hand

BEST, SECOND, ALONE = ("c0", "c2"), ("c1", "c2"), ("c2",)


@pytest.fixture
def ws(tmp_path):
    return write_workspace(hand(), tmp_path / "ws")


def plan_in(path) -> set[str]:
    return set(json.loads(path.read_text())["candidate_ids"])


def test_a_worse_plan_never_replaces_the_best_but_keeps_its_own_file(ws):
    first = best_plan.record_run(ws, "default", list(BEST), upper_bound=HAND_CASES[BEST][0])
    assert first["replaced"] and first["run"]["score"] == pytest.approx(HAND_CASES[BEST][0])
    assert first["run"]["gap"] == pytest.approx(0.0)
    second = best_plan.record_run(ws, "agent", list(SECOND))
    assert not second["replaced"]
    assert second["best"]["method"] == "default" and second["best"]["score"] == pytest.approx(HAND_CASES[BEST][0])
    # the agent's own row: its score, the bound proven by the default run, and its gap to it
    ub, s = HAND_CASES[BEST][0], HAND_CASES[SECOND][0]
    assert second["run"]["upper_bound"] == pytest.approx(ub)
    assert second["run"]["gap"] == pytest.approx((ub - s) / ub, abs=1e-6)
    assert plan_in(ws / PLAN_FILE) == set(BEST)                      # final_plan.json holds the best
    assert plan_in(ws / second["run"]["file"]) == set(SECOND)        # the run stays reachable
    assert second["run"]["file"] != first["run"]["file"]
    assert "gap 2.9 %" in best_plan.describe(second["run"])


def test_an_invalid_plan_loses_to_a_valid_one_and_a_better_plan_wins(ws):
    best_plan.record_run(ws, "greedy", list(SECOND))
    bad = best_plan.record_run(ws, "hand edit", ["c0", "c1"])
    assert not bad["run"]["valid"] and not bad["replaced"] and plan_in(ws / PLAN_FILE) == set(SECOND)
    assert "INVALID" in best_plan.describe(bad["run"])
    win = best_plan.record_run(ws, "alns", list(BEST))
    assert win["replaced"] and win["previous"]["method"] == "greedy" and plan_in(ws / PLAN_FILE) == set(BEST)
    tie = best_plan.record_run(ws, "milp", list(BEST))
    assert not tie["replaced"] and tie["best"]["method"] == "alns"   # only a strictly better plan replaces


def test_the_best_is_rejudged_when_the_constraints_change(ws):
    best_plan.record_run(ws, "default", list(BEST), upper_bound=HAND_CASES[BEST][0])
    store.add(ws, [{"kind": "count_max", "count": 1}])                # now at most one station
    now = best_plan.current_best(ws)
    assert now["method"] == "default" and not now["valid"]
    assert now["upper_bound"] is None                                 # the old bound was for another problem
    res = best_plan.record_run(ws, "greedy", list(ALONE))
    assert res["replaced"] and res["best"]["score"] == pytest.approx(HAND_CASES[ALONE][0])
    store.clear(ws)                                                   # back to the original problem:
    again = best_plan.current_best(ws)                                # {c2} is what is stored …
    assert again["valid"] and again["upper_bound"] == pytest.approx(HAND_CASES[BEST][0])  # … its bound is back
    assert best_plan.record_run(ws, "default", list(BEST))["replaced"]


def test_an_earlier_final_plan_is_adopted_before_a_run(ws):
    (ws / PLAN_FILE).write_text(json.dumps({"candidate_ids": list(BEST)}))
    adopted = best_plan.adopt_existing(ws)
    assert adopted["best"]["method"] == "earlier plan"
    assert best_plan.adopt_existing(ws) is None                       # once only
    assert not best_plan.record_run(ws, "greedy", list(ALONE))["replaced"]
    assert plan_in(ws / PLAN_FILE) == set(BEST)


def test_runs_cannot_be_written_from_the_agent_terminal(ws):
    from cityplanner.plugin.sandbox import VirtualTerminal

    best_plan.record_run(ws, "default", list(BEST))
    out = VirtualTerminal(ws).run("echo '{\"candidate_ids\": [\"c2\"]}' > runs/best.json\n")
    assert plan_in(ws / best_plan.BEST) == set(BEST), out


def test_a_solve_that_started_before_an_apply_is_rejudged_and_its_bound_filed_apart(ws):
    """Issue 30, item 3. Before: a solve kept the instructions it started with; its plan (which
    breaks the new instruction) became the best plan and its bound was stored as the new set's."""
    started = best_plan.instance_in_force(ws)                         # the solve starts: no instructions
    best_plan.record_run(ws, "greedy", list(ALONE))                    # {c2}: valid either way
    store.add(ws, [{"kind": "count_max", "count": 1}])                 # applied while the solve runs
    late = best_plan.record_run(ws, "milp", list(BEST), upper_bound=HAND_CASES[BEST][0], inst=started)
    assert late["run"]["stale"] and not late["run"]["valid"]           # judged under the set in force now
    assert not late["replaced"] and plan_in(ws / PLAN_FILE) == set(ALONE)
    assert best_plan.known_bound(ws) is None                           # no bound for "at most one"
    store.clear(ws)
    assert best_plan.known_bound(ws) == pytest.approx(HAND_CASES[BEST][0])   # filed under the set it was proven for


def test_a_bound_proven_under_an_instruction_is_not_kept_after_a_clear(ws):
    """Before: `instruct --clear` during a solve stored the constrained bound as the bound without
    it; a later MILP showed gap −23 % and, bounds only decreasing, the wrong bound stayed."""
    store.add(ws, [{"kind": "count_max", "count": 1}])
    started = best_plan.instance_in_force(ws)
    tight = HAND_CASES[ALONE][0]                                       # the best single station's score
    store.clear(ws)
    rec = best_plan.record_run(ws, "milp", list(ALONE), upper_bound=tight, inst=started)
    assert rec["run"]["stale"] and rec["run"]["upper_bound"] is None
    assert best_plan.known_bound(ws) is None
    win = best_plan.record_run(ws, "default", list(BEST), upper_bound=HAND_CASES[BEST][0])
    assert win["replaced"] and win["run"]["gap"] == pytest.approx(0.0)   # never negative


def test_mcp_solve_plan_goes_through_the_best_plan(tmp_path):
    """Issue 30, item 2. Before: MCP `solve_plan` wrote final_plan.json directly and ignored the
    stored instructions: it replaced a certified plan with a worse greedy one, wrote a plan
    breaking an instruction, with `time_limit: 1e-300` an empty plan, and best.json disagreed."""
    from cityplanner.plugin.agent.tools import default_registry

    reg = default_registry(tmp_path / "root")
    ws = write_workspace(hand(), reg.ctx.root / "w")
    best_plan.record_run(ws, "milp", list(BEST), upper_bound=HAND_CASES[BEST][0])
    tiny = reg.call("solve_plan", {"workspace": "w", "method": "greedy", "time_limit": 1e-300})
    assert tiny.ok, tiny.error
    assert plan_in(ws / PLAN_FILE) == set(BEST) == plan_in(ws / best_plan.BEST)
    assert tiny.result["best"]["score"] == pytest.approx(HAND_CASES[BEST][0])
    store.add(ws, [{"kind": "count_max", "count": 1}])
    one = reg.call("solve_plan", {"workspace": "w", "method": "greedy", "time_limit": 2})
    assert one.ok and one.result["valid"] and one.result["selected"] == 1   # the instruction holds
    assert one.result["best_replaced"]                                    # the stored pair breaks it now
    assert plan_in(ws / PLAN_FILE) == plan_in(ws / best_plan.BEST) and len(plan_in(ws / PLAN_FILE)) == 1


def test_a_solve_under_an_emphasis_keeps_no_bound_on_the_score(ws, capsys):
    """The MILP under an emphasis bounds the emphasised objective, not S: `solve` must not file it."""
    from cityplanner.plugin.cli import main

    store.add(ws, [{"kind": "emphasis", "term": "coverage"}])
    assert main(["solve", str(ws), "--method", "milp", "--time-limit", "20"]) == 0, capsys.readouterr().err
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] and out["upper_bound"] is None and best_plan.known_bound(ws) is None
