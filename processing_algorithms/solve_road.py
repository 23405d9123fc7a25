"""Solve road (Toolbox: Planning tasks)."""
from .solve_task import SolveTask


class SolveRoad(SolveTask):
    TASK = "road"
