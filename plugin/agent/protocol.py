"""The paper's terminal protocol on the model side: turn schema, prompts, workspace state.

Prompt text lives in ``resources/prompts/*.md`` (``string.Template`` files); this module only
fills them. The workspace-state block is computed from the files an agent can see, so the
model is told exactly what the next required action is.
"""
from __future__ import annotations

import json
import math
import os
from functools import cache
from pathlib import Path
from string import Template
from typing import Any

from .. import RESOURCES
from ..sandbox.confine import VIRTUAL_ROOT
from ..sandbox.verbs import VERBS
from ..sandbox.workspace import CONTEXT_FILE, EVAL_COMMAND, GOALS, HISTORY_FILE, PLAN_FILE, PLAN_FORMAT, load_instance, read_plan

PROMPTS = RESOURCES / "prompts"
MAX_COMMANDS = 4        # commands per turn under constrained decoding
MAX_OBSERVATION = 1500  # characters of terminal output shown per turn: a 4k context holds several turns

#: JSON schema of one turn for constrained decoding (no maxLength/pattern: they make deep grammars)
TURN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "analysis": {"type": "string"},
        "plan": {"type": "string"},
        # maxItems: a small model otherwise repeats one command until max_tokens cuts the reply
        "commands": {"type": "array", "maxItems": MAX_COMMANDS, "items": {
            "type": "object",
            "properties": {"keystrokes": {"type": "string"}, "duration": {"type": "number"}},
            "required": ["keystrokes", "duration"]}},
        "task_complete": {"type": "boolean"},
    },
    "required": ["analysis", "plan", "commands", "task_complete"],
}

#: JSON schema of a text-only answer (the raw model without tools)
PLAN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"candidate_ids": {"type": "array", "items": {"type": "string"}}},
    "required": ["candidate_ids"],
}


@cache
def template(name: str) -> Template:
    return Template((PROMPTS / f"{name}.md").read_text(encoding="utf-8"))


def render(name: str, **values: Any) -> str:
    return template(name).substitute(**values).strip()


def system_prompt(compact: bool = False) -> str:
    """The agent's system prompt; ``compact`` is the short variant (~150 tokens instead of ~550)
    that small-model training renders, so a model trained on it is prompted with it too."""
    names = COMPACT_COMMANDS if compact else AGENT_COMMANDS
    commands = "\n".join(f"- {v.help}" for name, v in VERBS.items() if name in names)
    return render("system_compact" if compact else "system", commands=commands)


#: the commands named in the system prompt (the terminal knows more; `help` lists them)
AGENT_COMMANDS = ("solve", "plan", "candidates", "diagnose", "constrain", "cat", "head", "grep", "python", "help")
COMPACT_COMMANDS = ("solve", "plan", "candidates", "python")


def workspace_state(ws: str | os.PathLike, goal: str) -> dict[str, Any]:
    """What the agent must know about its workspace (the state block of docs/reference.md#the-terminal-protocol)."""
    ws = Path(ws)
    plan_path = ws / PLAN_FILE
    ids, err = read_plan(plan_path) if plan_path.exists() else (None, None)
    history, skipped = read_history(ws / HISTORY_FILE)
    last = next((h for h in reversed(history) if h["plan"] == PLAN_FILE), None)
    # evaluated = the last evaluation of the plan file is newer than the file (or saw the same ids)
    evaluated = last is not None and ids is not None and (
        _mtime(plan_path) <= last["ts"] or list(dict.fromkeys(map(_text, ids))) == last["candidate_ids"])
    state = {
        "plan_exists": plan_path.exists(),
        "non_empty": bool(ids),
        "count": len(ids or []),
        "needs_evaluation": bool(ids) and not evaluated,
        "last_valid": None if last is None else bool(last.get("valid")),
        "last_score": None if last is None else last.get("score"),
        "hard_errors": _virtual(([err] if err else []) + (list(last.get("errors", [])) if evaluated else []), ws),
        "warnings": _virtual(list(last.get("warnings", [])) if evaluated else [], ws),
    }
    if skipped:  # the model may write into outputs/: say what was ignored instead of failing
        state["warnings"].insert(0, f"{HISTORY_FILE}: {skipped} unreadable line(s) skipped")
    state["next_action"] = _next_action(state, goal, ws)
    return state


#: an evaluator history line the state may use: field -> test of its value
_HISTORY_FIELDS = {
    "ts": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v),
    "plan": lambda v: isinstance(v, str),
    "valid": lambda v: isinstance(v, bool),
    "score": lambda v: v is None or (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)),
    "errors": lambda v: isinstance(v, list) and all(isinstance(e, str) for e in v),
    "warnings": lambda v: isinstance(v, list) and all(isinstance(w, str) for w in v),
    "candidate_ids": lambda v: isinstance(v, list) and all(isinstance(i, str) for i in v),
}


def read_history(path: Path) -> tuple[list[dict[str, Any]], int]:
    """(well-formed evaluator lines, number of other lines): the file lies in outputs/, which the
    model may write, so any line can be garbage, a JSON array or a record with wrong types."""
    good: list[dict[str, Any]] = []
    skipped = 0
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError:
        return good, 0
    for line in raw.decode("utf-8", errors="replace").splitlines():
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except (ValueError, RecursionError):
            rec = None
        if isinstance(rec, dict) and all(test(rec[k]) if k in rec else k == "warnings"
                                         for k, test in _HISTORY_FIELDS.items()):
            good.append(rec)
        else:
            skipped += 1
    return good, skipped


def _virtual(messages: list[str], ws: Path) -> list[str]:
    """Messages with the workspace's host path shown as the model knows it (``/workspace``)."""
    hosts = sorted({str(ws.resolve()), str(ws.absolute())}, key=len, reverse=True)
    out = []
    for m in messages:
        for h in hosts:
            m = m.replace(h, VIRTUAL_ROOT)
        out.append(m)
    return out


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return math.inf


def _text(value: Any) -> str:
    try:
        return str(value)
    except ValueError:  # an integer over Python's digit limit
        return "<number>"


def _next_action(s: dict[str, Any], goal: str, ws: Path) -> str:
    if s["hard_errors"] and not s["non_empty"]:
        return "rewrite outputs/final_plan.json in the plan format (e.g. `plan set ID...`)"
    if not s["non_empty"]:
        return "write a non-empty plan (e.g. `solve --method greedy` or `plan add ID...`), then evaluate it"
    if s["needs_evaluation"]:
        return f"evaluate the plan: {EVAL_COMMAND}"
    if s["hard_errors"]:
        return "fix the hard errors (`plan remove ID`, `plan swap OUT IN`), then evaluate"
    if goal == "improve" and _unchanged(ws):
        return "make one concrete edit (`plan swap OUT IN`, `plan add ID`, `plan remove ID`), then evaluate"
    return 'done: reply with "task_complete": true'


def _unchanged(ws: Path) -> bool:
    """ImprovePlan: is the plan still the preloaded base plan?"""
    try:  # work/ is the model's to write: the context may be anything
        ctx = json.loads((ws / CONTEXT_FILE).read_text(encoding="utf-8", errors="replace"))
        base = ctx["base_plan"]["candidate_ids"]
    except (OSError, ValueError, RecursionError, KeyError, TypeError):
        return False
    ids, _ = read_plan(ws / PLAN_FILE)
    return isinstance(base, list) and ids is not None and sorted(map(_text, ids)) == sorted(map(_text, base))


def state_block(state: dict[str, Any]) -> str:
    def words(items: list[str]) -> str:
        return "; ".join(items[:5]) if items else "none"

    return render("state", plan_exists=_yn(state["plan_exists"]), non_empty=_yn(state["non_empty"]),
                  count=state["count"], needs_evaluation=_yn(state["needs_evaluation"]),
                  last_valid="none" if state["last_valid"] is None else _yn(state["last_valid"]),
                  last_score="none" if state["last_score"] is None else f"{state['last_score']:.4f}",
                  hard_errors=words(state["hard_errors"]), warnings=words(state["warnings"]),
                  next_action=state["next_action"])


def _yn(flag: bool) -> str:
    return "yes" if flag else "no"


def instance_prompt(ws: str | os.PathLike, goal: str) -> str:
    inst = load_instance(ws)
    name, text = GOALS[goal]
    return render("instance", task=inst.task, instance_id=inst.instance_id, goal_name=name, goal_text=text,
                  budget=f"{inst.budget:g}", max_select=inst.max_select, n_candidates=inst.n,
                  plan_format=PLAN_FORMAT, eval_command=EVAL_COMMAND,
                  state=state_block(workspace_state(ws, goal)))


def observation_prompt(observation: str, state: dict[str, Any]) -> str:
    if len(observation) > MAX_OBSERVATION:
        observation = observation[:MAX_OBSERVATION] + f"\n[… {len(observation) - MAX_OBSERVATION} more characters]"
    return render("observation", observation=observation or "(no output)", state=state_block(state))


def invalid_turn_prompt(error: str) -> str:
    return render("invalid_turn", error=error)
