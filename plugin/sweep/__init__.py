"""Budget curves and scenario comparisons (``python -m plugin sweep``, docs/sweep.md).

``sweep(ws, budgets, …)`` solves the workspace's instance at every budget of every scenario
— each point an ordinary solve with the default method, run in parallel on Dask or on local
processes (``executors``) — checks every returned plan again here, repairs the curves to be
monotone, tightens their bounds (``curve``), names the sites by street, records the sweep's
best plan for the workspace's own budget through ``sandbox.best_plan`` and returns the rows.
"""
from .run import Scenario, budgets_of, parse_budgets, read_scenarios, sweep

__all__ = ["Scenario", "budgets_of", "parse_budgets", "read_scenarios", "sweep"]
