"""Solve station (Toolbox: Planning tasks)."""
from .solve_task import SolveTask


class SolveStation(SolveTask):
    TASK = "station"
