"""Solve land (Toolbox: Planning tasks)."""
from .solve_task import SolveTask


class SolveLand(SolveTask):
    TASK = "land"
