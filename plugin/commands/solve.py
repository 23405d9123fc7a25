"""``python -m plugin solve WS --method M``: solve a workspace, write and evaluate the plan.

The plan goes to WS/outputs/final_plan.json (atomically) and is evaluated by the sandbox
evaluator, so the evaluation lands in WS/outputs/eval_history.jsonl like an agent's would.
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..solvers import PAPER, SOLVERS, solve
from . import seconds, seed


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("workspace", help="workspace folder (made by 'python -m plugin instance')")
    parser.add_argument("--method", choices=list(SOLVERS), default="default")
    parser.add_argument("--time-limit", type=seconds, default=60.0, help="seconds (default 60)")
    parser.add_argument("--seed", type=seed, default=PAPER.seed)


def run(args: argparse.Namespace) -> dict[str, Any]:
    from ..sandbox.evaluator import evaluate_plan_file
    from ..sandbox.workspace import load_instance
    from ..util.io import atomic_write_json

    ws = Path(args.workspace)
    inst = load_instance(ws)
    res = solve(inst, args.method, time_limit=args.time_limit, seed=args.seed)
    plan = atomic_write_json(ws / "outputs" / "final_plan.json", {"candidate_ids": res.ids})
    ev = evaluate_plan_file(ws, plan)
    return {
        "valid": ev["valid"], "score": ev["score"], "upper_bound": res.upper_bound,
        "gap": res.gap if ev["valid"] else None,
        "seconds": res.seconds, "method": res.method, "status": res.status,
        "selected": len(res.ids), "plan": str(plan), "errors": ev.get("errors", []), "notes": res.notes,
    }
