"""The agent loop measured honestly (issue 18, item 5): a run starts from the workspace's best
plan and never hands back a worse one; it reports its gap next to ``default``'s on the same
instance and time limit, against one certified bound; the model may propose constraints that
steer its solver calls but cannot touch the planner's instructions.

The hand-computed station instance of tests/core/test_task_station.py: {c0, c2} 0.54875 is the
optimum, {c1, c2} ≈ 0.5330, {c2} alone 0.1225; c0 and c1 share a site. The stand-in backend
replays turns; the real GGUF model runs in the last test."""
from __future__ import annotations

import itertools
import json

import pytest

from cityplanner.plugin.agent.loop import AgentSettings, run_agent
from cityplanner.plugin.agent.terminal_verbs import constrain_verb  # noqa: F401 - registers the verbs
from cityplanner.plugin.constraints import store
from cityplanner.plugin.sandbox import best_plan, write_workspace
from cityplanner.plugin.sandbox.terminal import VirtualTerminal
from cityplanner.plugin.sandbox.workspace import PLAN_FILE
from cityplanner.plugin.util.io import read_jsonl
from tests.core.test_agent_loop import EVAL, Scripted, turn
from tests.core.test_task_station import HAND_CASES, hand

BEST, SECOND, ALONE = ("c0", "c2"), ("c1", "c2"), ("c2",)


@pytest.fixture
def ws(tmp_path):
    return write_workspace(hand(), tmp_path / "ws")


def ids_in(path) -> list[str]:
    return json.loads(path.read_text())["candidate_ids"]


def test_a_run_starts_from_the_best_and_reports_default_beside_it(ws):
    best_plan.record_run(ws, "greedy", list(SECOND))               # the workspace's best so far
    # the model only makes the plan worse: {c2} alone
    res = run_agent(Scripted([turn("plan set c2", EVAL, done=True)]), ws,
                    AgentSettings(rounds=1, patience=1, max_turns=2, fallback=None, reference="default",
                                  time_limit=30.0))
    s_second, s_alone, ub = HAND_CASES[SECOND][0], HAND_CASES[ALONE][0], HAND_CASES[BEST][0]
    # never worse than the workspace's best: the model's {c2} was not accepted
    assert res["build_attempts"] == 0 and res["rounds"] == 1 and res["best_from"] == "workspace best"
    assert res["valid"] and res["score"] == pytest.approx(s_second) and set(res["candidate_ids"]) == set(SECOND)
    assert res["model_best"]["score"] == pytest.approx(s_alone) and not res["model_best"]["accepted"]
    # default on the same instance, same limit: it finds and certifies the optimum {c0, c2}
    assert res["default_time_limit"] == 30.0 and res["default_status"] == "optimal"
    assert res["default_score"] == pytest.approx(ub) and res["default_gap"] == pytest.approx(0.0, abs=1e-9)
    assert res["upper_bound"] == pytest.approx(ub)
    assert res["gap"] == pytest.approx((ub - s_second) / ub, abs=1e-6)
    # default's run is recorded like any run and is now the workspace's best
    assert set(ids_in(ws / res["default_plan"])) == set(BEST)
    assert best_plan.current_best(ws)["method"] == "default" and set(ids_in(ws / PLAN_FILE)) == set(BEST)
    assert [r["event"] for r in read_jsonl(ws / "logs/agent.jsonl")][-1] == "result"


def test_without_a_best_the_run_builds_and_a_time_limit_free_run_gives_default_its_seconds(ws):
    res = run_agent(Scripted([turn("plan set c0 c2", EVAL, done=True)]), ws,
                    AgentSettings(rounds=0, max_turns=2, fallback=None, reference="default"))
    assert res["build_attempts"] == 1 and res["best_from"] == "build" and res["model_best"]["accepted"]
    assert res["default_time_limit"] == pytest.approx(max(1.0, res["seconds"]), abs=0.01)
    assert res["score"] == pytest.approx(HAND_CASES[BEST][0])          # the model's plan is the optimum
    ub = res["upper_bound"]   # within a second on a loaded machine default may not prove a bound
    if ub is not None:        # one bound for both gaps
        assert res["gap"] == pytest.approx((ub - res["score"]) / ub, abs=1e-6)
        assert res["default_gap"] == pytest.approx((ub - res["default_score"]) / ub, abs=1e-6)
    else:
        assert res["gap"] is None and res["default_gap"] is None


def brute_force(inst, allowed, max_cost: float) -> tuple[float, set[str]]:
    """The best valid plan costing at most ``max_cost`` among subsets of ``allowed`` (a few)."""
    top = (float("-inf"), set())
    for k in range(1, len(allowed) + 1):
        for combo in itertools.combinations(allowed, k):
            ev = inst.evaluate(list(combo))
            if ev.valid and inst.cost[inst.mask_of(list(combo))].sum() <= max_cost and ev.score > top[0]:
                top = (ev.score, set(combo))
    return top


def test_the_model_proposes_constraints_that_steer_solve_but_never_the_planners(ws):
    store.add(ws, [{"kind": "lock_out", "target": {"id": "c0"}, "text": "c0 out", "source": "manual"}])
    term = VirtualTerminal(ws, time_limit=15.0)
    out = term.run("constrain add spend at most 60 % of the budget\n")
    assert "proposed p1" in out and "60 % of the budget" in out
    out = term.run("solve --method milp\n")
    plan = set(ids_in(ws / PLAN_FILE))
    inst = hand()
    # both the planner's c0-out and the proposal (cost ≤ 0.6 · 50) hold, and the plan is the best such
    score, best_ids = brute_force(inst, [i for i in inst.ids if i != "c0"], 0.6 * inst.budget)
    assert plan == best_ids and "c0" not in plan and inst.cost[inst.mask_of(list(plan))].sum() <= 30.0
    # the proposal as JSON data goes through the same checks; an unknown id is refused
    assert "proposed p2" in term.run("""constrain add '{"kind": "lock_out", "target": {"id": "c2"}}'\n""")
    assert "no candidate" in term.run("""constrain add '{"kind": "lock_out", "target": {"id": "c9"}}'\n""")
    listed = term.run("constrain list\n")
    assert "c1 (planner, fixed)" in listed and "p1 (proposed)" in listed and "p2 (proposed)" in listed
    # the planner's instruction cannot be removed or overwritten from the terminal
    assert "fixed" in term.run("constrain remove c1\n")
    assert "only inside work/ and outputs/" in term.run("echo '{}' > constraints/instructions.json\n")
    assert [c["key"] for c in store.load(ws)] == ["c1"]
    assert "removed p1" in term.run("constrain remove p1\n")
    # plans are judged by the planner's instructions only: {c1, c2} (cost 50) is valid though p1 was 60 %
    judged = best_plan.instance_in_force(ws)
    assert judged.evaluate(list(SECOND)).valid and not judged.evaluate(list(BEST)).valid   # c0 is the planner's


def test_a_new_run_starts_without_the_last_runs_proposals(ws):
    store.add(ws, [{"kind": "budget_share_max", "share": 0.5, "text": "half", "source": "rules"}], store.PROPOSED)
    res = run_agent(Scripted([turn("constrain list", done=True)]), ws,
                    AgentSettings(rounds=0, max_turns=1, fallback=None))
    assert store.load(ws, store.PROPOSED) == [] and res["proposed_constraints"] == []
    turns = [r for r in read_jsonl(ws / "logs/agent.jsonl") if r["event"] == "turn"]
    assert "no constraints" in turns[0]["observation"]


@pytest.mark.model
@pytest.mark.slow
def test_the_real_model_never_hands_back_less_than_the_best(ws):
    from cityplanner.plugin.agent.backend import make_backend

    best_plan.record_run(ws, "greedy", list(SECOND))
    backend = make_backend("default", threads=1, n_ctx=2048, seed=0)
    try:
        res = run_agent(backend, ws, AgentSettings(rounds=1, patience=1, max_turns=1, max_tokens=128, seed=0,
                                                   fallback=None, reference="default", time_limit=60.0))
    finally:
        backend.close()
    assert res["replies"] >= 1 and res["build_attempts"] == 0
    assert res["valid"] and res["score"] >= HAND_CASES[SECOND][0] - 1e-9
    assert res["default_score"] == pytest.approx(HAND_CASES[BEST][0]) and res["upper_bound"] is not None
    assert res["gap"] == pytest.approx((res["upper_bound"] - res["score"]) / res["upper_bound"], abs=1e-6)


def test_a_model_that_never_answers_leaves_the_best_as_it_was(ws):
    from cityplanner.plugin.agent.backend import BackendError

    best_plan.record_run(ws, "greedy", list(SECOND))
    backend = Scripted([BackendError("connection refused")])
    res = run_agent(backend, ws, AgentSettings(rounds=5, patience=3, max_turns=2, fallback=None))
    assert len(backend.calls) == 1 and res["stop_reason"] == "model_unavailable"   # asked once, not per round
    assert res["valid"] and set(res["candidate_ids"]) == set(SECOND) and res["best_from"] == "workspace best"
