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
import importlib.util
import math
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from functools import partial
from types import ModuleType, SimpleNamespace

import numpy as np
from scipy.optimize import milp

from ...errors import Cancelled, InputError
from ...tasks.base import Instance
from ...util.spawned import SpawnedWorker, bounded_call

STATUSES = ("optimal", "time_limit", "infeasible", "error")
#: extra rows / objective terms for the MILP being solved by ``solve_milp`` (planner
#: constraints, ``plugin.constraints``): (c, constraints, integrality, bounds) -> the same
#: plus the constant the dual bound must carry; applied by ``run_highs``
MILP_EXTENSION: ContextVar[Callable | None] = ContextVar("milp_extension", default=None)


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
    """The MILP module of ``task`` (its spec's ``milp_module``); MilpUnavailable when there is none."""
    from ...tasks.registry import REGISTRY, spec

    name = spec(task).milp_module if task in REGISTRY else None
    if name is None:
        have = ", ".join(t for t in REGISTRY if spec(t).milp_module)
        raise MilpUnavailable(f"no MILP for task '{task}' (MILPs exist for: {have})")
    name = importlib.util.resolve_name(name, __package__)
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:  # a missing dependency inside the module is a real error
            raise
        raise MilpUnavailable(f"no MILP for task '{task}': module {name} is missing") from e


def check_cancel(cancel: Callable[[], bool] | None, what: str) -> None:
    """A MILP honours ``cancel`` before it starts; ``run_highs`` then kills HiGHS when it turns true."""
    if cancel is not None and cancel():
        raise Cancelled(f"cancelled before the {what} MILP started")


def valid_warm_start(inst: Instance, warm_start: np.ndarray | None) -> np.ndarray:
    """The warm start if it is a valid plan, else the empty plan (always valid).

    scipy's ``milp`` takes no start solution, so the warm start is the fallback plan: it is
    returned whenever HiGHS ends without a better valid one."""
    if warm_start is not None:
        w = np.asarray(warm_start, dtype=bool)
        if len(w) == inst.n and not inst.hard_errors(w):
            return w.copy()
    return np.zeros(inst.n, dtype=bool)


def highs_options(time_limit: float, t0: float | None = None) -> dict:
    """HiGHS options for a solve that started (model building included) at ``t0``
    (perf_counter; default now) and must end ``time_limit`` seconds after it."""
    left = float(time_limit) - (0.0 if t0 is None else time.perf_counter() - t0)
    return {"time_limit": max(left, 0.1), "mip_rel_gap": 1e-6, "disp": False}


KILL_GRACE = 0.3   # seconds HiGHS may run past its own time limit before it is killed


def run_highs(c: np.ndarray, constraints, integrality: np.ndarray, bounds, time_limit: float,
              t0: float | None = None, cancel: Callable[[], bool] | None = None) -> SimpleNamespace:
    """scipy's ``milp`` (HiGHS) that ends within ``time_limit`` (+ ``KILL_GRACE``) seconds of
    ``t0`` (default: now; the worker's start-up counts). HiGHS checks its clock only between
    steps (it overran a 10 s limit by 6 s in its root LP on a loaded machine) and scipy cannot
    interrupt it, so it runs in a spawned worker process (``plugin.util.spawned``: no fork, so
    safe in threaded hosts) that is killed at the limit or when ``cancel()`` turns true; a
    killed run returns no plan and no bound (status 1, time limit)."""
    t0 = time.perf_counter() if t0 is None else t0
    extend, offset = MILP_EXTENSION.get(), 0.0
    if extend is not None:
        c, constraints, integrality, bounds, offset = extend(c, constraints, integrality, bounds)
    with SpawnedWorker(preload=("scipy.optimize",)) as worker:
        state, res = worker.wait_ready(highs_options(time_limit, t0)["time_limit"] + KILL_GRACE, cancel)
        if state == "ready":
            options = highs_options(time_limit, t0)
            state, res = worker.call(partial(milp, c, constraints=constraints, integrality=integrality,
                                             bounds=bounds, options=options), (),
                                     options["time_limit"] + KILL_GRACE, cancel)
    if state == "ok":
        dual = getattr(res, "mip_dual_bound", None)
        return SimpleNamespace(x=res.x, status=res.status, mip_dual_bound=None if dual is None else dual + offset)
    if state == "killed":
        return SimpleNamespace(x=None, status=1, mip_dual_bound=None)
    if state == "cancelled":
        raise Cancelled("cancelled while HiGHS was running")
    raise RuntimeError(f"HiGHS failed: {res}")


def result_from_highs(inst: Instance, res, const: float, trivial_bound: float, fallback: np.ndarray,
                      t0: float, exact: bool = True) -> MilpResult:
    """The MilpResult of a HiGHS run whose minimised objective is ``const − S``.

    The plan is the better (by the evaluator) of HiGHS's plan, when valid, and ``fallback``;
    the bound is ``const − dual bound`` when HiGHS proved one, capped by ``trivial_bound``
    (a bound that holds for every plan), and never below the returned plan's score (the MIP
    tolerance must not cut the plan found)."""
    best, best_s = fallback, inst.score_mask(fallback)[0]
    if res.x is not None:
        mask = res.x[: inst.n] > 0.5
        # rounding may push a plan that sits exactly on a limit over it: keep only valid ones
        if not inst.hard_errors(mask):
            s = inst.score_mask(mask)[0]
            if s >= best_s:
                best, best_s = mask, s
    dual = getattr(res, "mip_dual_bound", None)
    bound = float(trivial_bound)
    if dual is not None and np.isfinite(dual) and res.status in (0, 1):
        bound = min(bound, const - float(dual))
    status = {0: "optimal", 1: "time_limit", 2: "infeasible"}.get(res.status, "error")
    return MilpResult(best, max(bound, float(best_s)), status, exact, time.perf_counter() - t0)


def solve_milp(inst: Instance, time_limit: float, warm_start: np.ndarray | None = None,
               cancel: Callable[[], bool] | None = None, at_scale: bool = False) -> MilpResult:
    """Solve ``inst`` with its task's MILP for at most ``time_limit`` seconds (with the rows of
    the planner constraints it carries, if any); ``at_scale``: the task's form for models too
    large to finish (only tasks whose ``solve`` takes it)."""
    ext = getattr(inst, "milp_extension", None)
    token = MILP_EXTENSION.set(ext() if ext is not None else None)
    try:
        extra = {"at_scale": True} if at_scale else {}
        return milp_module(inst.task).solve(inst, time_limit, warm_start=warm_start, cancel=cancel, **extra)
    finally:
        MILP_EXTENSION.reset(token)


__all__ = ["MilpResult", "MilpUnavailable", "bounded_call", "check_cancel", "highs_options",
           "milp_module", "result_from_highs", "run_highs", "solve_milp", "valid_warm_start"]
