"""Exact MILPs (or proven relaxations) per task, solved with scipy's ``milp`` (HiGHS).

Each task module ``plugin.solvers.milp.<task>`` exposes
``solve(inst, time_limit, warm_start=None, cancel=None) -> MilpResult`` and says in its
docstring whether the model is exact for the evaluator's score or a relaxation. ``bound`` is
always a proven upper bound on S over all valid plans, so any plan can be shown with a
certified gap; ``mask`` is the best plan the model found (re-check it with the evaluator
when ``exact`` is False).
"""
from __future__ import annotations

import importlib
import math
from dataclasses import dataclass
from types import ModuleType
from typing import Callable

import numpy as np

from plugin.errors import InputError
from plugin.tasks.base import Instance

MILP_MODULES: dict[str, str] = {
    "land": "plugin.solvers.milp.land",
    "road": "plugin.solvers.milp.road",
    "station": "plugin.solvers.milp.station",
}
STATUSES = ("optimal", "time_limit", "infeasible", "error")


class MilpUnavailable(InputError):
    """The task has no MILP model."""


@dataclass
class MilpResult:
    mask: np.ndarray
    bound: float = math.inf   # proven upper bound on S over valid plans (inf = none proven)
    status: str = "error"     # one of STATUSES
    exact: bool = False       # True: exact for the evaluator's score; False: a relaxation
    seconds: float = 0.0


def milp_module(task: str) -> ModuleType:
    """The MILP module of ``task``; MilpUnavailable when there is none."""
    name = MILP_MODULES.get(task)
    if name is None:
        raise MilpUnavailable(f"no MILP for task '{task}' (MILPs exist for: {', '.join(MILP_MODULES)})")
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:  # a missing dependency inside the module is a real error
            raise
        raise MilpUnavailable(f"no MILP for task '{task}': module {name} is missing") from e


def solve_milp(inst: Instance, time_limit: float, warm_start: np.ndarray | None = None,
               cancel: Callable[[], bool] | None = None) -> MilpResult:
    """Solve ``inst`` with its task's MILP for at most ``time_limit`` seconds."""
    return milp_module(inst.task).solve(inst, time_limit, warm_start=warm_start, cancel=cancel)


__all__ = ["MILP_MODULES", "MilpResult", "MilpUnavailable", "milp_module", "solve_milp"]
