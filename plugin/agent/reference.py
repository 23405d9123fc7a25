"""The yardstick of an agent run: ``default`` on the same instance, with the same time limit.

Every agent run reports its gap to the certified bound next to ``default``'s gap (issue 18,
item 5): the reference solve runs on the workspace's instance under the planner's
instructions in force, is recorded in ``runs/`` like any run (so its plan can become the
workspace's best and its proven bound is kept), and both gaps are taken against the tightest
bound known for that constraint set — one bound for both, so the two gaps compare.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ..sandbox import best_plan
from ..solvers import solve


def reference_run(ws: str | os.PathLike, time_limit: float, method: str = "default", seed: int = 0,
                  cancel: Callable[[], bool] | None = None) -> dict[str, Any]:
    """Solve the workspace's instance in force with ``method``; record it; its row and the bound."""
    inst = best_plan.instance_in_force(ws)
    res = solve(inst, method, time_limit=time_limit, seed=seed, cancel=cancel)
    emphasis = getattr(getattr(inst, "compiled", None), "emphasis", ())
    # with an emphasis the MILP bounds the emphasised objective, not the score S: no bound on S
    bound = None if len(emphasis) else res.upper_bound
    rec = best_plan.record_run(ws, method, res.ids, upper_bound=bound, status=res.status, seconds=res.seconds,
                               inst=inst)
    run = rec["run"]
    return {"method": method, "valid": run["valid"], "score": run["score"], "upper_bound": run["upper_bound"],
            "gap": run["gap"], "status": res.status, "seconds": round(res.seconds, 2),
            "time_limit": round(time_limit, 2), "file": run["file"]}


def side_by_side(result: dict[str, Any], ref: dict[str, Any]) -> dict[str, Any]:
    """The agent result's fields for the comparison: its gap and ``default``'s against one bound."""
    ub = ref["upper_bound"]
    return {"upper_bound": ub, "gap": best_plan.gap(ub, result["score"], bool(result["valid"])),
            "default_valid": ref["valid"], "default_score": ref["score"], "default_gap": ref["gap"],
            "default_status": ref["status"], "default_seconds": ref["seconds"], "default_time_limit": ref["time_limit"],
            "default_plan": ref["file"]}
