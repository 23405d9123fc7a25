"""``python -m plugin solve WS --method M``: solve a workspace, write and evaluate the plan.

The run's plan goes to WS/runs/NNN-<method>.json and is evaluated by the sandbox evaluator, so
the evaluation lands in WS/outputs/eval_history.jsonl like an agent's would.
WS/outputs/final_plan.json holds the workspace's best plan: it is replaced only when this run's
plan is better (``plugin.sandbox.best_plan``); the JSON says which (``best``, ``best_replaced``).
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..solvers import PAPER, SOLVERS, bound_note, default_time_limit, solve
from . import seconds, seed


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("workspace", help="workspace folder (made by 'python -m plugin instance')")
    parser.add_argument("--method", choices=list(SOLVERS), default="default")
    parser.add_argument("--time-limit", type=seconds, default=None,
                        help="seconds (default: 60 up to 500 candidates, growing in proportion beyond, at most 600; "
                             "docs/solving.md)")
    parser.add_argument("--seed", type=seed, default=PAPER.seed)


def run(args: argparse.Namespace) -> dict[str, Any]:
    from ..sandbox import best_plan
    from ..sandbox.evaluator import evaluate_plan_file
    from ..sandbox.workspace import PLAN_FILE

    ws = Path(args.workspace)
    inst = best_plan.instance_in_force(ws)
    best_plan.adopt_existing(ws, inst)
    time_limit = args.time_limit if args.time_limit is not None else default_time_limit(inst.n)
    res = solve(inst, args.method, time_limit=time_limit, seed=args.seed)
    # the run's own plan goes to runs/; final_plan.json changes only when this plan is better
    # with an emphasis the MILP bounds the emphasised objective, not the score S: no bound on S
    emphasis = getattr(getattr(inst, "compiled", None), "emphasis", ())
    rec = best_plan.record_run(ws, args.method, res.ids, upper_bound=None if len(emphasis) else res.upper_bound,
                               status=res.status, seconds=res.seconds, inst=inst)
    ev = evaluate_plan_file(ws, ws / rec["run"]["file"])
    from ..tasks.needs import plan_warnings

    warnings = [*ev.get("warnings", []), *plan_warnings(inst, res.ids, ev.get("contributions"))]
    note = bound_note(inst, rec["run"]["upper_bound"], ev["score"], time_limit)
    if note:
        warnings.append(note)
    return {
        "valid": ev["valid"], "score": ev["score"], "upper_bound": rec["run"]["upper_bound"],
        "gap": rec["run"]["gap"], "time_limit": time_limit, "seconds": res.seconds, "method": res.method, "status": res.status,
        "selected": len(res.ids), "plan": str(ws / rec["run"]["file"]), "errors": ev.get("errors", []),
        "warnings": warnings,
        "notes": res.notes, "best": rec["best"], "best_replaced": rec["replaced"], "final_plan": str(ws / PLAN_FILE),
    }
