"""The planner loop with a deterministic stand-in backend: retries on bad replies, validity-first
acceptance, backend failures, logging. The real model runs in test_agent_model.py."""
from __future__ import annotations

import json

import pytest

from cityplanner.plugin.agent.backend import BackendError, ChatResult
from cityplanner.plugin.agent.loop import STALL_REPEATS, AgentSettings, PlannerAgent, Proposal, run_agent
from cityplanner.plugin.agent.protocol import workspace_state
from cityplanner.plugin.util.io import read_jsonl
from tests.core.sandbox_helpers import toy_workspace


def turn(*commands: str, done: bool = False) -> str:
    return json.dumps({"analysis": "a", "plan": "p", "task_complete": done,
                       "commands": [{"keystrokes": c + "\n", "duration": 0.1} for c in commands]})


EVAL = "python input/evaluate_plan.py outputs/final_plan.json"


class Scripted:
    """Replays replies in order (a str, or an exception to raise); then repeats the last one."""

    def __init__(self, replies: list):
        self.replies = list(replies)
        self.calls: list[list[dict]] = []

    def chat(self, messages, *, schema=None, max_tokens=512, temperature=0.7, seed=None) -> ChatResult:
        self.calls.append(messages)
        r = self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]
        if isinstance(r, Exception):
            raise r
        return ChatResult(r, 10, len(r) // 4, 0.01, "length" if r.startswith('{"analysis": "cut') else "stop")

    def close(self) -> None:
        pass


def settings(**kw) -> AgentSettings:
    base = dict(rounds=0, build_attempts=1, max_turns=4, fallback=None)
    return AgentSettings(**{**base, **kw})


def test_bad_replies_are_retried_never_crash(tmp_path, monkeypatch):
    _, ws = toy_workspace(tmp_path / "ws", monkeypatch)
    backend = Scripted(["garbage", '{"analysis": "cut off', '{"analysis": 1, "plan": "p"}', "[]",
                        turn("plan set c0", EVAL), turn(done=True)])
    res = run_agent(backend, ws, settings(parse_retries=4))
    assert res["valid"] and res["candidate_ids"] == ["c0"]
    assert res["replies"] == 6 and res["turns"] == 2 and res["parse_rate"] == pytest.approx(2 / 6, abs=1e-3)
    invalid = [r for r in read_jsonl(ws / "logs/agent.jsonl") if r["event"] == "invalid_reply"]
    assert len(invalid) == 4 and all(r["error"] for r in invalid)
    # the model is told what was wrong before the next sample
    assert "not a valid turn" in backend.calls[1][-1]["content"]


def test_only_garbage_ends_the_episode_with_an_evaluated_proposal(tmp_path, monkeypatch):
    _, ws = toy_workspace(tmp_path / "ws", monkeypatch)
    res = run_agent(Scripted(["no json here"]), ws, settings(parse_retries=2))
    assert res["replies"] == 3 and res["turns"] == 0 and not res["valid"]
    assert [p["event"] for p in read_jsonl(ws / "logs/agent.jsonl")].count("proposal") == 1


def test_fallback_gives_a_valid_plan_when_the_model_cannot(tmp_path, monkeypatch):
    _, ws = toy_workspace(tmp_path / "ws", monkeypatch)
    res = run_agent(Scripted(["no json"]), ws, settings(parse_retries=0, build_attempts=2, fallback="greedy"))
    assert res["valid"] and res["fallback_used"] and res["build_attempts"] == 2


def test_backend_failure_ends_the_episode_not_the_run(tmp_path, monkeypatch):
    _, ws = toy_workspace(tmp_path / "ws", monkeypatch)
    backend = Scripted([turn("plan set c0", EVAL, done=True), BackendError("worker exited twice")])
    res = run_agent(backend, ws, settings(rounds=2, patience=5))
    assert res["backend_errors"] == 2 and res["rounds"] == 2 and res["stop_reason"] == "rounds" and res["valid"]


def test_a_model_that_never_answers_is_asked_once(tmp_path, monkeypatch):
    _, ws = toy_workspace(tmp_path / "ws", monkeypatch)
    res = run_agent(Scripted([BackendError("worker exited twice")]), ws, settings(build_attempts=2, fallback="greedy"))
    assert res["backend_errors"] == 1 and res["backend_error"] == "worker exited twice"
    assert res["stop_reason"] == "model_unavailable" and res["valid"] and res["fallback_used"]


def test_never_accepts_a_worse_plan_and_returns_best_so_far(tmp_path, monkeypatch):
    inst, ws = toy_workspace(tmp_path / "ws", monkeypatch)
    everything = " ".join(inst.ids)  # over budget: invalid, whatever its score
    backend = Scripted([turn("solve --method greedy", EVAL, done=True),     # build: the greedy plan
                        turn(f"plan set {everything}", EVAL, done=True),     # improve 1: invalid
                        turn("plan set c0", EVAL, done=True)])               # improve 2+: worse, valid
    res = run_agent(backend, ws, settings(rounds=4, patience=3))
    props = [r for r in read_jsonl(ws / "logs/agent.jsonl") if r["event"] == "proposal"]
    assert [p["accepted"] for p in props] == [True, False, False, False]
    assert res["stop_reason"] == "patience" and res["rounds"] == 3
    assert res["valid"] and res["score"] == props[0]["score"]
    assert json.loads((ws / "outputs/final_plan.json").read_text())["candidate_ids"] == props[0]["ids"]
    best = [c["best_score"] for c in res["curve"]]
    assert best == sorted(best)


@pytest.mark.parametrize("prop, best, accepted", [
    ((True, 0.1), (False, 0.9), True),     # valid beats invalid whatever the scores
    ((False, 0.9), (True, 0.1), False),
    ((True, 0.5), (True, 0.4), True),
    ((True, 0.4), (True, 0.4), False),     # ties keep the incumbent
    ((False, 0.5), (False, None), True),
    ((True, None), (True, 0.0), False),
])
def test_validity_first_order(tmp_path, monkeypatch, prop, best, accepted):
    _, ws = toy_workspace(tmp_path / "ws", monkeypatch)
    agent = PlannerAgent(Scripted(["x"]), ws, settings())
    incumbent = Proposal("build", 1, best[0], best[1], ["c0"], [], 1)
    new = Proposal("improve", 1, prop[0], prop[1], ["c1"], [], 1)
    assert (agent._accept(new, incumbent, []) is new) is accepted


def test_workspace_state_block_follows_the_plan(tmp_path, monkeypatch):
    _, ws = toy_workspace(tmp_path / "ws", monkeypatch)
    s = workspace_state(ws, "build")
    assert not s["non_empty"] and "non-empty plan" in s["next_action"]
    (ws / "outputs/final_plan.json").write_text('{"candidate_ids": ["c0"]}')
    s = workspace_state(ws, "build")
    assert s["needs_evaluation"] and "evaluate" in s["next_action"]
    from cityplanner.plugin.sandbox.terminal import VirtualTerminal
    VirtualTerminal(ws).run(EVAL + "\n")
    s = workspace_state(ws, "build")
    assert not s["needs_evaluation"] and s["last_valid"] and "task_complete" in s["next_action"]


def test_cancel_stops_between_turns(tmp_path, monkeypatch):
    _, ws = toy_workspace(tmp_path / "ws", monkeypatch)
    res = run_agent(Scripted([turn("plan set c0", EVAL)]), ws, settings(max_turns=20), cancel=lambda: True)
    assert res["stop_reason"] == "cancelled" and res["turns"] == 0


def test_a_repeated_turn_ends_the_episode(tmp_path, monkeypatch):
    _, ws = toy_workspace(tmp_path / "ws", monkeypatch)
    # the plan is evaluated and valid ("done") yet the model repeats itself: stop at the first repeat
    res = run_agent(Scripted([turn("plan set c0", EVAL)]), ws, settings(max_turns=20))
    assert res["turns"] == 2 and res["valid"]
    # nothing is evaluated, so not "done": the same edit-free turn may repeat STALL_REPEATS times
    _, ws2 = toy_workspace(tmp_path / "ws2", monkeypatch)
    res = run_agent(Scripted([turn("help")]), ws2, settings(max_turns=20))
    assert res["turns"] == 1 + STALL_REPEATS
    assert [r["event"] for r in read_jsonl(ws2 / "logs/agent.jsonl")].count("stalled") == 1
