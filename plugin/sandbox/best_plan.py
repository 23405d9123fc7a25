"""The workspace's best plan: replaced only by a better one, whichever method produced it.

Every finished (or cancelled) run of a solver, the agent or the Planner dock is recorded in
``runs/NNN-<method>.json`` (its own plan, reachable later) and then compared with the stored
best, ``runs/best.json``. The comparison is validity first, then score (``solvers.common.better``),
and both plans are judged by the instance *in force now*: the workspace's instance under its
stored planner constraints (``plugin.constraints.store``), so a best plan that a new constraint
makes invalid loses to any valid one. Only a strictly better plan replaces the best; then
``outputs/final_plan.json`` gets the best plan's ids (it always holds the best plan after a run).

``runs/`` sits beside ``input/``, outside ``work/`` and ``outputs/``: the agent's terminal
cannot write it, so model text cannot forge a best plan or a bound. Upper bounds proven by a
run are kept per constraint set (a bound of a constrained problem says nothing about a looser
one), so later runs of any method show their gap to the best possible score.

``record_run`` is the one writer of ``runs/``, ``runs/best.json`` and ``final_plan.json`` (CLI,
dock, MCP, agent, instructions): it holds the workspace lock (``plugin.util.locks``) while it
numbers the run file, re-reads the instructions in force *at the moment of the write* and
judges both plans under them. A run solved under another instruction set (an ``instruct
--apply`` or ``--clear`` happened while it ran) is re-evaluated before it may replace anything,
and its bound is filed under the set it was proven for, never under the one in force
(``stale`` in the run row).
"""
from __future__ import annotations

import json
import math
import os
import re
import time
from pathlib import Path
from typing import Any

from ..solvers import better, gap as bound_gap
from ..tasks.base import Instance
from ..util.io import atomic_write_json
from ..util.words import gap_text

from .workspace import PLAN_FILE, load_instance, read_plan

RUNS = "runs"
BEST = f"{RUNS}/best.json"


def instance_in_force(ws: str | os.PathLike) -> Instance:
    """The workspace's instance under the planner constraints stored in it."""
    from ..constraints import store

    return store.apply(load_instance(ws), ws)


def _fingerprint(ws: Path, inst: Instance) -> str:
    """The key of the bounds of the instruction set ``inst`` enforces (``ws`` kept for callers)."""
    from ..constraints import store

    return store.enforced_fingerprint(inst)


def _judge(inst: Instance, ids: list) -> tuple[bool, float | None, list[str], list[str]]:
    """(valid, score, ids as evaluated, errors); an empty plan is no answer, so not valid."""
    ev = inst.evaluate(list(ids))
    return bool(ev.valid) and bool(ev.candidate_ids), ev.score, ev.candidate_ids, ev.errors


def gap(upper_bound: float | None, score: float | None, valid: bool) -> float | None:
    """(bound − score) / |bound| for a valid plan with a known bound, else None."""
    return bound_gap(upper_bound, score) if valid else None


def _row(method: str, valid: bool, score: float | None, ub: float | None, ids: list[str], file: str,
         errors: list[str]) -> dict[str, Any]:
    return {"method": method, "valid": valid, "score": score, "upper_bound": ub, "gap": gap(ub, score, valid),
            "selected": len(ids), "file": file, "errors": errors[:5]}


def _next_file(ws: Path, method: str) -> str:
    folder = ws / RUNS
    folder.mkdir(exist_ok=True)
    numbers = [int(m.group(1)) for p in folder.glob("*.json") if (m := re.match(r"(\d+)-", p.name))]
    safe = re.sub(r"[^a-z0-9_]+", "_", method.lower())[:30] or "run"
    return f"{RUNS}/{max(numbers, default=0) + 1:03d}-{safe}.json"


def _doc(ws: Path, inst: Instance) -> dict[str, Any] | None:
    """runs/best.json when it belongs to this instance (a rebuilt workspace starts afresh)."""
    try:
        doc = json.loads((ws / BEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) and doc.get("instance_id") == inst.instance_id else None


def known_bound(ws: str | os.PathLike, inst: Instance | None = None) -> float | None:
    """The tightest upper bound proven so far for the constraints in force (None if none)."""
    ws = Path(ws)
    inst = inst or instance_in_force(ws)
    doc = _doc(ws, inst) or {}
    return (doc.get("bounds") or {}).get(_fingerprint(ws, inst))


def current_best(ws: str | os.PathLike, inst: Instance | None = None) -> dict[str, Any] | None:
    """The stored best plan re-judged under the constraints in force (None when there is none)."""
    ws = Path(ws)
    inst = inst or instance_in_force(ws)
    doc = _doc(ws, inst)
    if doc is None or not isinstance(doc.get("candidate_ids"), list):
        return None
    valid, score, ids, errors = _judge(inst, doc["candidate_ids"])
    ub = known_bound(ws, inst)
    return {**_row(str(doc.get("method", "?")), valid, score, ub, ids, str(doc.get("file", "")), errors),
            "candidate_ids": ids}


def record_run(ws: str | os.PathLike, method: str, ids: list, *, upper_bound: float | None = None,
               status: str = "done", seconds: float | None = None, inst: Instance | None = None) -> dict[str, Any]:
    """Record a run's plan and keep the better of it and the stored best.

    ``inst``: the instance the run solved (its instructions as they were when it started); the
    plans are judged under the instructions in force now, and ``upper_bound`` is filed under the
    set it was proven for. Returns ``{"run": row, "best": row, "replaced": bool, "previous": row |
    None, "run_ids", "best_ids"}``; a row has method, valid, score, upper_bound, gap, selected,
    file (the run's own plan file), errors; the run row also ``stale`` (True when the
    instructions changed while the run ran)."""
    from ..util.locks import workspace_lock

    ws = Path(ws)
    with workspace_lock(ws):  # one writer: the run number, best.json and final_plan.json agree
        now = instance_in_force(ws)
        fp = _fingerprint(ws, now)
        solved_fp = _fingerprint(ws, inst) if inst is not None else fp
        doc = _doc(ws, now) or {"instance_id": now.instance_id, "bounds": {}}
        bounds: dict[str, float] = dict(doc.get("bounds") or {})
        if upper_bound is not None and math.isfinite(float(upper_bound)):
            # several proofs of one constraint set: the tightest holds; a proof under another set
            # (the instructions changed during the run) is kept for that set only
            bounds[solved_fp] = min(float(upper_bound), bounds.get(solved_fp, float("inf")))
        ub = bounds.get(fp)
        valid, score, ids, errors = _judge(now, ids)
        file = _next_file(ws, method)
        run = {**_row(method, valid, score, ub, ids, file, errors), "stale": solved_fp != fp}
        atomic_write_json(ws / file, {"candidate_ids": ids, **{k: v for k, v in run.items() if k != "file"},
                                      "status": status, "seconds": seconds, "time": round(time.time(), 3)})
        previous = current_best(ws, now) if isinstance(doc.get("candidate_ids"), list) else None
        replaced = previous is None or better((valid, score), (previous["valid"], previous["score"]))
        best = run if replaced else {k: v for k, v in previous.items() if k != "candidate_ids"}
        best_ids = ids if replaced else previous["candidate_ids"]
        atomic_write_json(ws / BEST, {"instance_id": now.instance_id, "method": best["method"], "file": best["file"],
                                      "candidate_ids": best_ids, "bounds": bounds})
        atomic_write_json(ws / PLAN_FILE, {"candidate_ids": best_ids})
    return {"run": run, "best": {**best, "upper_bound": ub, "gap": gap(ub, best["score"], best["valid"])},
            "replaced": replaced, "previous": previous, "run_ids": ids, "best_ids": best_ids}


def adopt_existing(ws: str | os.PathLike, inst: Instance | None = None) -> dict[str, Any] | None:
    """A workspace from before best-plan records: its final_plan.json becomes the first best
    (method "earlier plan"), so that a new run cannot silently overwrite it. Returns the record."""
    from ..util.locks import workspace_lock

    ws = Path(ws)
    with workspace_lock(ws):  # two runs starting together adopt the earlier plan once
        if (ws / BEST).is_file():
            return None
        ids, err = read_plan(ws / PLAN_FILE)
        if err is not None or not ids:
            return None
        return record_run(ws, "earlier plan", ids, inst=inst)


def describe(row: dict[str, Any] | None) -> str:
    """One line for a planner: 'default: score 0.3744 (valid), bound 0.3744, gap 0.0 %'."""
    if row is None:
        return "no plan yet"
    state = "valid" if row["valid"] else "INVALID"
    score = "–" if row["score"] is None else f"{row['score']:.4f}"
    bound = "bound unknown (run default or milp to certify one)" if row["upper_bound"] is None \
        else f"bound {row['upper_bound']:.4f}"
    gap = "" if row["gap"] is None else f", {gap_text(row['gap'])}"
    return f"{row['method']}: score {score} ({state}), {bound}{gap}"
