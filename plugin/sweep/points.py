"""One point of a budget curve: an ordinary solve of the workspace's instance at another budget.

This is the code a worker runs (a Dask worker on another machine, or a local spawned
interpreter): it gets the instance as its export (plain JSON data), the budget, the
constraints of the point's scenario (resolved JSON, geometry included, so no city data is
needed) and a time limit, and returns plain data. It never touches the workspace: the main
process checks every returned plan again and records the best through ``sandbox.best_plan``.
"""
from __future__ import annotations

import os
import socket
from dataclasses import asdict, dataclass, field
from typing import Any

from ..tasks import Instance, instance_from_export

#: the method of every point: the default pipeline (greedy → ALNS → MILP warm-started), whose
#: MILP bound makes each point's gap a certificate
METHOD = "default"


@dataclass(frozen=True)
class Point:
    """What one worker call solves."""

    scenario: str
    budget: float
    time_limit: float
    seed: int = 42
    constraints: tuple = field(default_factory=tuple)   # resolved constraint dicts of the scenario

    def key(self) -> str:
        """A name for logs and Dask keys: 'base@400'."""
        return f"{self.scenario}@{self.budget:g}"


def instance_at(export: dict[str, Any], budget: float, constraints: list[dict[str, Any]] | tuple = ()) -> Instance:
    """The exported instance with ``budget`` (k€) and ``constraints`` (none: the plain instance).

    Only the budget changes: every task's score is S = … − w·cost/budget, so one plan scores
    at least as well at a larger budget, and a smaller budget's plan is feasible there."""
    inst = instance_from_export({**export, "budget": float(budget)})
    if constraints:
        from ..constraints.compile import compile_constraints
        from ..constraints.constrained import constrain

        inst = constrain(inst, compile_constraints(inst, list(constraints)))
    return inst


def run_point_data(export: dict[str, Any], point: dict[str, Any]) -> dict[str, Any]:
    """``run_point`` with the point as plain data (``dataclasses.asdict``), as Dask sends it."""
    return run_point(export, Point(**{**point, "constraints": tuple(point["constraints"])}))


def run_point(export: dict[str, Any], point: Point) -> dict[str, Any]:
    """Solve ``point`` with the default method: the plan (ids), its S, the proven bound and the
    solver's status and notes, plus where it ran (host, pid) for the record."""
    from ..solvers import solve

    inst = instance_at(export, point.budget, point.constraints)
    res = solve(inst, METHOD, time_limit=point.time_limit, seed=point.seed)
    return {**asdict(point), "constraints": len(point.constraints), "ids": res.ids, "valid": res.valid,
            "score": res.score, "upper_bound": res.upper_bound, "status": res.status,
            "seconds": round(res.seconds, 3), "notes": list(res.notes), "host": socket.gethostname(),
            "pid": os.getpid(), "code": "shipped" if "cityplanner-code-" in __file__ else "installed"}
