"""The workspace evaluator behind ``python input/evaluate_plan.py PLAN`` (docs/design.md#the-sandbox).

Prints the evaluator JSON (``valid, score, errors, warnings, metrics, cost_ratio,
candidate_ids`` plus ``binding`` and ``contributions``) and appends it, with a timestamp
and the plan path, to ``outputs/eval_history.jsonl``. A bad plan file never raises: it is
an invalid plan with a one-line error. Exit code 0 when the plan was judged (valid or not),
2 when the plan file or the workspace cannot be read at all.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from ..constraints import store
from ..errors import InputError
from ..tasks import Evaluation
from ..util.io import append_jsonl
from .workspace import HISTORY_FILE, PLAN_FILE, load_instance, parse_plan, read_plan_text


def evaluate_plan_file(ws: str | os.PathLike, plan_path: str | os.PathLike) -> dict[str, Any]:
    """Evaluate a plan file of workspace ``ws``, append it to the history, return the JSON."""
    return _evaluate(Path(ws), Path(plan_path))[0]


def _evaluate(ws: Path, plan_path: Path) -> tuple[dict[str, Any], bool]:
    """(evaluator JSON, whether the plan file and the workspace could be read)."""
    text, err = read_plan_text(plan_path)
    readable = err is None
    ids = None
    if readable:
        ids, err = parse_plan(text)
    if err is None:
        try:
            result = _judge(ws, ids)
        except InputError as e:
            result, readable = _invalid(str(e)), False
    else:
        result = _invalid(err)
    if (ws / "outputs").is_dir():
        append_jsonl(ws / HISTORY_FILE, {"plan": _shown(ws, plan_path), **result})
    return result, readable


def _judge(ws: Path, ids: list) -> dict[str, Any]:
    inst = store.apply(load_instance(ws), ws)   # the planner's instructions are Ψ too (named violations)
    try:
        result = inst.evaluate(ids).to_json()
    except Exception as e:  # noqa: BLE001 - an agent must get an observation, not a traceback; the text keeps a task bug visible
        return _invalid(f"evaluator failed: {type(e).__name__}: {e}")
    from ..audit import audit_warnings  # geopandas: only once a plan is judged

    result["warnings"] += audit_warnings(ws, inst, ids)  # sites or links that make no sense on the map
    return result


def _invalid(error: str) -> dict[str, Any]:
    return Evaluation(valid=False, score=None, errors=[error]).to_json()


def _shown(ws: Path, path: Path) -> str:
    """The plan path as recorded: relative to the workspace when inside it."""
    try:
        return path.resolve().relative_to(ws.resolve()).as_posix()
    except (ValueError, OSError):
        return str(path)


def resolve_plan_path(ws: Path, arg: str) -> Path:
    """A relative plan path means the current directory, else the workspace (so both work)."""
    p = Path(arg)
    if not p.is_absolute() and not p.exists() and (ws / p).exists():
        return ws / p
    return p


def main(argv: list[str] | None = None, workspace: str | os.PathLike | None = None) -> int:
    """CLI: print the evaluator JSON of a plan; ``workspace`` defaults to the current folder."""
    parser = argparse.ArgumentParser(prog="evaluate_plan.py", description="Evaluate a plan of this workspace.")
    parser.add_argument("plan", nargs="?", default=PLAN_FILE, help=f"plan JSON (default {PLAN_FILE})")
    args = parser.parse_args(argv)
    ws = Path(workspace) if workspace is not None else Path.cwd()
    result, readable = _evaluate(ws, resolve_plan_path(ws, args.plan))
    print(json.dumps(result, indent=2))
    sys.stdout.flush()
    return 0 if readable else 2
