"""Iterative inference (docs/reference.md#inference-and-training): BuildPlan, then ImprovePlan rounds, validity first.

An *episode* is one atomic goal worked on for at most ``max_turns`` terminal turns. A model
reply that is not a valid turn (garbage, cut off by max_tokens, wrong schema) is retried
with another seed; a turn repeated unchanged (same commands, same plan) ends the episode
early — at once when the workspace state already says "done"; a backend failure (the worker died twice) ends that
episode, not the run,
unless the model never answered at all: then no further episode asks it (the fallback still
runs; ``stop_reason`` "model_unavailable"). Model text cannot
end the run either: any failure while a turn runs (the terminal, the state of a workspace the model
has scribbled on) becomes an error observation for the next turn.
Every episode ends with an evaluated *proposal*; a proposal replaces the best plan only if
it is better in the validity-first order, so the loop never accepts a worse plan, and the
best-so-far plan is what is written back and returned. A workspace that already has a valid
best plan (``runs/best.json``, judged under the planner's instructions in force) starts the
run from it: ImprovePlan rounds work on it and the run never hands back anything worse.
The model may propose constraints (the terminal's ``constrain`` verb; they steer its
``solve`` calls, never how plans are judged); a run starts with none and its result lists them.
With ``reference`` set, the run ends by solving the same instance with that method
(``default``) under the same time limit, and reports both gaps to one certified bound
(``plugin.agent.reference``). Everything goes to ``logs/agent.jsonl``.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..constraints import store
from ..errors import Cancelled
from ..sandbox import best_plan
from ..sandbox.evaluator import evaluate_plan_file
from ..sandbox.terminal import VirtualTerminal, parse_turn
from ..sandbox.workspace import CONTEXT_FILE, PLAN_FILE, atomic_context, load_instance, read_plan
from ..solvers.common import better
from ..util.io import append_jsonl, atomic_write_json

from . import terminal_verbs  # noqa: F401 - registers the `solve` verb
from .backend import Backend, BackendError
from .protocol import (TURN_SCHEMA, instance_prompt, invalid_turn_prompt, observation_prompt, system_prompt,
                       workspace_state)

LOG_FILE = "logs/agent.jsonl"
KEEP_EXCHANGES = 3   # earlier turns are dropped from the prompt: a 4k context holds about this many
STALL_REPEATS = 2    # the same commands this many more times in a row, plan unchanged: the episode is stuck


@dataclass
class AgentSettings:
    rounds: int = 5                 # ImprovePlan round budget
    patience: int = 3               # stop after this many non-improving ImprovePlan rounds
    build_attempts: int = 3         # BuildPlan retries
    max_turns: int = 20             # turns per atomic episode
    parse_retries: int = 3          # new samples of one turn when the reply is not a valid turn
    max_tokens: int = 384
    temperature: float = 0.7
    seed: int = 0
    constrained: bool = True        # JSON-schema constrained decoding of turns
    fallback: str | None = "greedy"  # tool run for the model when no BuildPlan gave a valid plan
    time_limit: float | None = None  # seconds for the whole run
    compact_prompt: bool = False    # the short system prompt the training script trains on
    reference: str | None = None    # a solver run after the agent on the same instance and time limit


@dataclass
class Proposal:
    goal: str
    round: int
    valid: bool
    score: float | None
    ids: list[str]
    errors: list[str]
    turns: int
    accepted: bool = False


@dataclass
class RunStats:
    turns: int = 0
    replies: int = 0
    parsed: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model_seconds: float = 0.0
    backend_errors: int = 0
    backend_error: str | None = None   # the last backend failure, for the result
    proposals: list[Proposal] = field(default_factory=list)

    def add(self, res) -> None:
        self.replies += 1
        self.prompt_tokens += res.prompt_tokens
        self.completion_tokens += res.completion_tokens
        self.model_seconds += res.seconds


Event = Callable[[dict[str, Any]], None]


#: seconds an agent run may overrun ``time_limit`` to finish the model call or the step in
#: flight (an endpoint call is cut at the limit plus this; see HttpBackend.deadline)
RUN_GRACE_S = 5.0


class PlannerAgent:
    """Runs BuildPlan / ImprovePlan on one workspace with one backend."""

    def __init__(self, backend: Backend, ws: str | os.PathLike, settings: AgentSettings | None = None,
                 cancel: Callable[[], bool] | None = None, on_event: Event | None = None):
        self.backend = backend
        self.ws = Path(ws)
        self.inst = load_instance(self.ws)
        self.s = settings or AgentSettings()
        self.cancel = cancel
        self.on_event = on_event
        self.stats = RunStats()
        self.log_path = self.ws / LOG_FILE
        self.terminal = VirtualTerminal(self.ws, time_limit=15.0)
        self._sample = 0
        self._t0 = time.perf_counter()
        self._model_down = False  # the backend failed before the model ever answered

    # ------------------------------------------------------------------ run
    def run(self) -> dict[str, Any]:
        self._t0 = time.perf_counter()
        if self.s.time_limit is not None and hasattr(self.backend, "deadline"):
            # an endpoint call must not outlive the run: the time limit plus a stated grace
            self.backend.deadline = time.monotonic() + self.s.time_limit + RUN_GRACE_S
        best: Proposal | None = None
        curve: list[dict[str, Any]] = []
        stop_reason = "rounds"
        if (self.ws / store.PROPOSED).is_file():
            store.clear(self.ws, store.PROPOSED)   # proposals of an earlier run do not steer this one
        try:
            start = self._workspace_best()
            if start is not None:
                best = self._accept(start, best, curve)
            for attempt in range(1, 0 if best is not None and best.valid else self.s.build_attempts + 1):
                prop = self.episode("build", attempt, [])
                best = self._accept(prop, best, curve)
                if best.valid or self._model_down:
                    break
            if not best.valid and self.s.fallback:
                best = self._accept(self._fallback(), best, curve)
            idle = 0
            if self._model_down:
                stop_reason = "model_unavailable"
            for rnd in range(1, 0 if self._model_down else self.s.rounds + 1):
                if not best.valid or not best.ids:
                    stop_reason = "no valid plan to improve"
                    break
                improved = self._accept(self.episode("improve", rnd, best.ids), best, curve)
                idle = 0 if improved is not best else idle + 1
                best = improved
                if self._model_down:   # started from the workspace's best, the model never answered
                    stop_reason = "model_unavailable"
                    break
                if idle >= self.s.patience:
                    stop_reason = "patience"
                    break
        except Cancelled:
            stop_reason = "cancelled"
        except _OutOfTime:
            stop_reason = "time_limit"
        return self._finish(best, curve, stop_reason)

    def _accept(self, prop: Proposal, best: Proposal | None, curve: list[dict[str, Any]]) -> Proposal:
        """Validity-first acceptance; returns the (possibly unchanged) best proposal."""
        prop.accepted = best is None or better((prop.valid, prop.score), (best.valid, best.score))
        self.stats.proposals.append(prop)
        new_best = prop if prop.accepted else best
        curve.append({"seconds": round(self.elapsed(), 3), "goal": prop.goal, "round": prop.round,
                      "score": prop.score, "valid": prop.valid, "best_score": new_best.score,
                      "best_valid": new_best.valid})
        self._log({"event": "proposal", **prop.__dict__, "best_score": new_best.score,
                   "best_valid": new_best.valid})
        return new_best

    def _workspace_best(self) -> Proposal | None:
        """The workspace's best plan, re-judged now, as the run's first proposal (None if none)."""
        row = self._guarded(lambda: best_plan.current_best(self.ws), None)
        if row is None or not row["valid"]:
            return None
        self._log({"event": "start_from_best", "method": row["method"], "score": row["score"]})
        self._emit({"event": "proposal", "goal": "workspace best", "round": 0, "valid": True, "score": row["score"],
                    "errors": [], "warnings": [], "ids": list(row["candidate_ids"]), "submitted": row["selected"]})
        return Proposal(goal="workspace best", round=0, valid=True, score=row["score"],
                        ids=list(row["candidate_ids"]), errors=[], turns=0)

    def _fallback(self) -> Proposal:
        """No BuildPlan episode produced a valid plan: run the fallback tool for the model."""
        out = self.terminal.run(f"solve --method {self.s.fallback}\n")
        self._log({"event": "fallback", "method": self.s.fallback, "output": out})
        return self._proposal("fallback", 0, 0)

    def _finish(self, best: Proposal | None, curve: list[dict[str, Any]], reason: str) -> dict[str, Any]:
        if best is not None:  # write back the best-so-far plan and evaluate it (the run's answer)
            atomic_write_json(self.ws / PLAN_FILE, {"candidate_ids": best.ids})
            ev = evaluate_plan_file(self.ws, self.ws / PLAN_FILE)
        else:
            ev = {"valid": False, "score": None, "errors": ["no proposal"], "candidate_ids": []}
        st = self.stats
        result = {
            "valid": bool(ev["valid"]) and bool(ev.get("candidate_ids")),  # an empty plan is no answer
            "score": ev["score"], "errors": ev.get("errors", []),
            "candidate_ids": ev.get("candidate_ids", []), "plan": str(self.ws / PLAN_FILE),
            "rounds": sum(p.goal == "improve" for p in st.proposals),
            "build_attempts": sum(p.goal == "build" for p in st.proposals),
            "fallback_used": any(p.goal == "fallback" for p in st.proposals),
            "best_from": None if best is None else best.goal,
            "turns": st.turns, "replies": st.replies,
            "parse_rate": round(st.parsed / st.replies, 4) if st.replies else None,
            "tokens": {"prompt": st.prompt_tokens, "completion": st.completion_tokens},
            "tokens_per_second": round(st.completion_tokens / st.model_seconds, 1) if st.model_seconds else None,
            "backend_errors": st.backend_errors, "backend_error": st.backend_error, "stop_reason": reason,
            "seconds": round(self.elapsed(), 2), "curve": curve, "log": str(self.log_path),
            "model_best": _model_best(st.proposals),
            "proposed_constraints": [{"key": c["key"], "text": c.get("text"), "kind": c["kind"]}
                                     for c in store.load(self.ws, store.PROPOSED)],
        }
        if self.s.reference and reason != "cancelled":
            from .reference import reference_run, side_by_side

            # the same time limit; a run without one gives the reference the seconds the agent used
            limit = self.s.time_limit if self.s.time_limit is not None else max(1.0, result["seconds"])
            ref = self._guarded(lambda: reference_run(self.ws, limit, self.s.reference, seed=self.s.seed,
                                                      cancel=self.cancel), None)
            if ref is not None:   # a failed reference solve is logged; the agent's result stands
                result.update(side_by_side(result, ref))
        self._log({"event": "result", **{k: v for k, v in result.items() if k != "curve"}})
        return result

    # ------------------------------------------------------------------ episode
    def episode(self, goal: str, rnd: int, base: list[str]) -> Proposal:
        """One atomic BuildPlan / ImprovePlan episode; returns its evaluated proposal."""
        atomic_write_json(self.ws / PLAN_FILE, {"candidate_ids": list(base)})
        atomic_write_json(self.ws / CONTEXT_FILE, atomic_context(self.inst, goal, list(base)))
        self._log({"event": "episode", "goal": goal, "round": rnd, "base": base})
        head = [{"role": "system", "content": system_prompt(self.s.compact_prompt)},
                {"role": "user", "content": self._guarded(lambda: instance_prompt(self.ws, goal), "")}]
        exchanges: list[dict[str, str]] = []
        turns = repeats = 0
        last: tuple[list[str], Any] | None = None
        while turns < self.s.max_turns:
            self._check()
            try:
                turn, reply = self._next_turn(head + exchanges[-2 * KEEP_EXCHANGES:])
            except BackendError as e:
                self.stats.backend_errors += 1
                self.stats.backend_error = str(e)
                self._log({"event": "backend_error", "goal": goal, "round": rnd, "error": str(e)})
                self._model_down = not self.stats.replies
                break
            if turn is None:
                break  # no valid turn after the retries: the episode ends with what is on disk
            turns += 1
            self.stats.turns += 1
            obs = self._guarded(lambda: self.terminal.run_turn(turn), None)
            if obs is None:
                obs = {"observation": "error: the turn failed inside the terminal; the workspace is as the "
                                      "commands before the failure left it"}
            state = self._guarded(lambda: workspace_state(self.ws, goal), None) or _UNKNOWN_STATE
            self._log({"event": "turn", "goal": goal, "round": rnd, "turn": turns, **reply,
                       "analysis": turn["analysis"], "plan": turn["plan"],
                       "commands": [c["keystrokes"] for c in turn["commands"]],
                       "observation": obs["observation"], "state": state})
            self._emit({"event": "turn", "goal": goal, "round": rnd, "turn": turns, "analysis": turn["analysis"],
                        "plan": turn["plan"], "commands": [c["keystrokes"] for c in turn["commands"]]})
            if turn["task_complete"] and state["non_empty"] and not state["needs_evaluation"]:
                break
            # a small model often repeats one turn forever instead of declaring completion
            now = ([c["keystrokes"].strip() for c in turn["commands"]], read_plan(self.ws / PLAN_FILE)[0])
            repeats = repeats + 1 if now == last else 0
            last = now
            if repeats >= (1 if state["next_action"].startswith("done") else STALL_REPEATS):
                self._log({"event": "stalled", "goal": goal, "round": rnd, "turn": turns})
                break
            exchanges += [{"role": "assistant", "content": reply["text"]},
                          {"role": "user", "content": observation_prompt(obs["observation"], state)}]
        return self._proposal(goal, rnd, turns)

    def _next_turn(self, messages: list[dict[str, str]]) -> tuple[dict | None, dict[str, Any]]:
        """Sample until the reply is a valid protocol turn (at most 1 + parse_retries samples)."""
        reply: dict[str, Any] = {}
        extra: list[dict[str, str]] = []
        for _ in range(1 + self.s.parse_retries):
            self._check()
            self._sample += 1
            res = self.backend.chat(messages + extra, schema=TURN_SCHEMA if self.s.constrained else None,
                                    max_tokens=self.s.max_tokens, temperature=self.s.temperature,
                                    seed=self.s.seed * 100_003 + self._sample)
            self.stats.add(res)
            turn, error = parse_turn(res.text)
            if turn is not None and res.finish_reason == "length" and not turn["commands"]:
                turn, error = None, "the reply was cut off"
            reply = {"text": res.text, "prompt_tokens": res.prompt_tokens,
                     "completion_tokens": res.completion_tokens, "latency": round(res.seconds, 3),
                     "finish_reason": res.finish_reason}
            if turn is not None:
                self.stats.parsed += 1
                return turn, reply
            self._log({"event": "invalid_reply", **reply, "error": error})
            # tell the model what was wrong (kept out of the history once it answers well)
            extra = [{"role": "assistant", "content": res.text[:400]},
                     {"role": "user", "content": invalid_turn_prompt(error)}]
        return None, reply

    def _proposal(self, goal: str, rnd: int, turns: int) -> Proposal:
        ev = evaluate_plan_file(self.ws, self.ws / PLAN_FILE)
        ids, _ = read_plan(self.ws / PLAN_FILE)
        prop = Proposal(goal=goal, round=rnd, valid=bool(ev["valid"]) and bool(ev["candidate_ids"]),
                        score=ev["score"], ids=list(ev["candidate_ids"]), errors=ev.get("errors", []), turns=turns)
        self._emit({"event": "proposal", "goal": goal, "round": rnd, "valid": prop.valid, "score": prop.score,
                    "errors": prop.errors, "warnings": ev.get("warnings", []), "ids": prop.ids,
                    "submitted": len(ids or [])})
        return prop

    # ------------------------------------------------------------------ helpers
    def _guarded(self, fn: Callable[[], Any], default: Any) -> Any:
        """``fn()``, or ``default`` (the failure logged) when it raises: model text must not end the run."""
        try:
            return fn()
        except (Cancelled, _OutOfTime):
            raise
        except Exception as e:  # noqa: BLE001 - the agent survives; the log keeps the failure visible
            self._log({"event": "internal_error", "error": f"{type(e).__name__}: {str(e)[:500]}"})
            return default

    def elapsed(self) -> float:
        return time.perf_counter() - self._t0

    def _check(self) -> None:
        if self.cancel is not None and self.cancel():
            raise Cancelled("planner agent cancelled")
        if self.s.time_limit is not None and self.elapsed() > self.s.time_limit:
            raise _OutOfTime()

    def _log(self, record: dict[str, Any]) -> None:
        append_jsonl(self.log_path, record)

    def _emit(self, event: dict[str, Any]) -> None:
        if self.on_event is not None:
            self.on_event(event)


class _OutOfTime(Exception):
    pass


def _model_best(proposals: list[Proposal]) -> dict[str, Any] | None:
    """The best plan of the model's own episodes (no fallback, not the workspace's best): what
    the model contributed, reported apart from the plan the run hands back."""
    own = [p for p in proposals if p.goal in ("build", "improve")]
    top: Proposal | None = None
    for p in own:
        if top is None or better((p.valid, p.score), (top.valid, top.score)):
            top = p
    return None if top is None else {"goal": top.goal, "round": top.round, "valid": top.valid, "score": top.score,
                                     "accepted": top.accepted}


#: the state shown when the workspace state cannot be computed (the turn goes on)
_UNKNOWN_STATE: dict[str, Any] = {
    "plan_exists": False, "non_empty": False, "count": 0, "needs_evaluation": False, "last_valid": None,
    "last_score": None, "hard_errors": ["the workspace state could not be read"], "warnings": [],
    "next_action": "rewrite outputs/final_plan.json in the plan format (e.g. `plan set ID...`)"}


def run_agent(backend: Backend, ws: str | os.PathLike, settings: AgentSettings | None = None,
              cancel: Callable[[], bool] | None = None, on_event: Event | None = None) -> dict[str, Any]:
    """BuildPlan + ImprovePlan on workspace ``ws``; the JSON result (best plan written back)."""
    return PlannerAgent(backend, ws, settings, cancel, on_event).run()
