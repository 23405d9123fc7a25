"""Atomic tasks (BuildPlan / ImprovePlan) as terminal-protocol chats, their demonstrations and reward.

An atomic episode for training is a short, fixed-shape chat in the paper's terminal
protocol, rendered with the agent's own prompts (``plugin.agent.protocol``, so training
and inference see the same text): system → user (instance prompt: goal, plan format,
evaluator command, workspace state block — no city data) → assistant (a scripted first turn that looks at the
candidates and, for ImprovePlan, at the preloaded plan) → user (that turn's real terminal
output) → **assistant turn the model learns**: one JSON object whose commands write
``outputs/final_plan.json`` and run the evaluator. One learned turn per episode keeps a CPU
rollout to a few seconds; the agent's multi-turn loop uses the same protocol at inference
time. ``compact`` renders the agent's short system prompt (``system_prompt(compact=True)``),
which halves the prompt a CPU step pays for; the agent must then be prompted the same way.

Demonstrations come in two kinds (``DEMO_KINDS``), mixed by ``sft.tool_share``:
``tool`` — one solver tool call (``solve --method greedy`` for BuildPlan, ``solve --method
alns`` for ImprovePlan), short and the same on every instance, so a 135M model learns it in
a few steps; ``explicit`` — the plan written out with the ``plan`` verb (greedy construction
over the shown candidates; the best improving add/remove/swap for ImprovePlan).

Reward (docs/reference.md#inference-and-training): S(P) if the plan is valid, else R_fail — where, following the
atomic goals, an empty BuildPlan plan and an ImprovePlan plan left unchanged count as
failures (the goal was not attempted). The reward always comes from evaluating the plan
file the model's commands left in the workspace.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..agent import terminal_verbs  # noqa: F401 - registers the `solve` verb
from ..agent.protocol import instance_prompt, observation_prompt, system_prompt, workspace_state
from ..sandbox.terminal import VirtualTerminal
from ..sandbox.workspace import EVAL_COMMAND, GOALS, PLAN_FILE, read_plan, write_workspace
from ..solvers.common import EPS
from ..tasks.base import Instance, SearchState
from ..util.io import atomic_write_json

SHOWN_COLUMNS = "id,cost,group"  # what a plan needs to respect budget and groups; scores come from evaluating
DEMO_KINDS = ("tool", "explicit")
#: the solver tool call a ``tool`` demonstration makes per goal (ALNS kept short: rollouts run it)
TOOL_CALLS = {"build": "solve --method greedy", "improve": "solve --method alns --time-limit 1"}


@dataclass
class AtomicTask:
    """One atomic task on one instance, with its workspace and the chat up to the learned turn."""

    inst: Instance
    goal: str                   # 'build' | 'improve'
    ws: Path
    shown: list[str]            # candidate ids the scripted turn shows the model
    base_plan: list[str] = field(default_factory=list)
    messages: list[dict] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The task's name: goal and instance id."""
        return f"{GOALS[self.goal][0]}:{self.inst.instance_id}"


def make_task(inst: Instance, goal: str, ws: str | os.PathLike, show: int, rng: np.random.Generator,
              compact: bool = False) -> AtomicTask:
    """Write the workspace and render the chat; ImprovePlan starts from a random valid plan."""
    shown = inst.ids[:show]
    base = random_plan(inst, shown, rng) if goal == "improve" else []
    task = AtomicTask(inst, goal, Path(ws), list(shown), base)
    write_workspace(inst, ws, goal, base_plan=base or None)
    look = f"candidates --limit {show} --columns {SHOWN_COLUMNS}\n"
    commands = [look] + (["plan show\n"] if goal == "improve" else [])
    first = turn("Look at the data.", "Then write the plan.", commands, False)
    prompt = instance_prompt(ws, goal)
    observation = VirtualTerminal(ws).run_turn(first)["observation"]
    task.messages = [{"role": "system", "content": system_prompt(compact)},
                     {"role": "user", "content": prompt},
                     {"role": "assistant", "content": first},
                     {"role": "user", "content": observation_prompt(observation, workspace_state(ws, goal))}]
    return task


def turn(analysis: str, plan: str, commands: list[str], done: bool) -> str:
    """One protocol turn as compact JSON text (what the model is trained to write)."""
    return json.dumps({"analysis": analysis, "plan": plan,
                       "commands": [{"keystrokes": c, "duration": 0.1} for c in commands],
                       "task_complete": done})


# ---------------------------------------------------------------------- plans and demos
def _restricted_greedy(st: SearchState, pool: np.ndarray) -> SearchState:
    """Greedy construction (paper baseline) over the shown candidates only."""
    while True:
        cand = [int(i) for i in pool if st.can_add(int(i))]
        gains = [st.gain_add(i) for i in cand]
        if not cand or max(gains) <= EPS:
            return st
        st.add(cand[int(np.argmax(gains))])


def random_plan(inst: Instance, shown: list[str], rng: np.random.Generator) -> list[str]:
    """A valid, non-empty plan of random shown candidates (the ImprovePlan starting point)."""
    st = inst.state()
    pool = inst.mask_of(shown).nonzero()[0]
    target = int(rng.integers(1, max(2, inst.max_select // 2 + 1)))
    for i in rng.permutation(pool):
        if st.count >= target:
            break
        if st.can_add(int(i)):
            st.add(int(i))
    if st.count == 0:  # nothing affordable alone: fall back to the cheapest shown candidate
        st.add(int(pool[np.argmin(inst.cost[pool])]))
    return inst.ids_of(st.mask)


def best_move(inst: Instance, plan: list[str], shown: list[str]) -> tuple[str, ...] | None:
    """The best improving add / remove / swap among the shown candidates (local-search step)."""
    st = inst.state(inst.mask_of(plan))
    pool = [int(i) for i in inst.mask_of(shown).nonzero()[0]]
    best, move = EPS, None
    for i in pool:
        if st.can_add(i) and (g := st.gain_add(i)) > best:
            best, move = g, ("add", i)
        if st.can_remove(i) and st.count > 1 and (g := st.gain_remove(i)) > best:
            best, move = g, ("remove", i)
    for out in st.selected():
        for inn in pool:
            if st.can_swap(int(out), inn) and (g := st.gain_swap(int(out), inn)) > best:
                best, move = g, ("swap", int(out), inn)
    return None if move is None else (move[0], *(inst.ids[i] for i in move[1:]))


def demonstration(task: AtomicTask, kind: str = "explicit") -> str | None:
    """The solver's answer to the learned turn, in the protocol; None when there is none."""
    inst = task.inst
    if kind == "tool":
        what = "Empty plan." if task.goal == "build" else "Improve the plan."
        return turn(what, "Run the solver, then evaluate.", [TOOL_CALLS[task.goal] + "\n", EVAL_COMMAND + "\n"], True)
    if task.goal == "build":
        st = _restricted_greedy(inst.state(), inst.mask_of(task.shown).nonzero()[0])
        if st.count == 0:
            return None
        return turn("Empty plan.", "Set the best affordable candidates, then evaluate.",
                    [f"plan set {' '.join(inst.ids_of(st.mask))}\n", EVAL_COMMAND + "\n"], True)
    move = best_move(inst, task.base_plan, task.shown)
    if move is None:
        return None
    return turn(f"A {move[0]} raises the score.", "Edit, then evaluate.",
                [f"plan {' '.join(move)}\n", EVAL_COMMAND + "\n"], True)


def checked_demonstrations(tasks: list[AtomicTask], kind: str) -> list[tuple[AtomicTask, str]]:
    """The ``kind`` demonstrations that, run in their workspace, reach a valid (improved) plan."""
    out = []
    for task in tasks:
        text = demonstration(task, kind)
        if text is None:
            continue
        ep = run_episode(task, text)
        base = task.inst.evaluate(task.base_plan).score if task.goal == "improve" else -np.inf
        if ep["valid"] and ep["score"] > base + EPS:
            out.append((task, text))
    return out


# ---------------------------------------------------------------------- episodes and reward
def atomic_reward(task: AtomicTask, ids: list | None) -> tuple[float, bool, float | None]:
    """(reward, valid, score) of the plan ``ids`` for ``task`` (see the module docstring)."""
    if ids is None:
        return task.inst.r_fail, False, None
    ev = task.inst.evaluate(ids)
    attempted = bool(ev.candidate_ids) and (task.goal == "build" or set(ev.candidate_ids) != set(task.base_plan))
    valid = ev.valid and attempted
    return (task.inst.reward(ev) if valid else task.inst.r_fail), valid, ev.score if valid else None


def run_episode(task: AtomicTask, text: str) -> dict[str, Any]:
    """Reset the plan file, run the model's turn in the virtual terminal, score the result."""
    atomic_write_json(task.ws / PLAN_FILE, {"candidate_ids": task.base_plan})
    result = VirtualTerminal(task.ws).run_turn(text)
    ids, _ = read_plan(task.ws / PLAN_FILE)
    reward, valid, score = atomic_reward(task, ids)
    return {"task": task.inst.task, "goal": task.goal, "instance": task.inst.instance_id,
            "protocol_ok": result["ok"], "reward": reward, "valid": valid, "score": score}
