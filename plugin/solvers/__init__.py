"""Solvers for every planning task: greedy, GRASP, SA, ALNS (the paper's baselines), the
task MILPs and the default pipeline, behind one call:

    solve(inst, method, time_limit=60, seed=42, cancel=None, progress=None) -> SolveResult

Every solver checks ``cancel`` and the time limit inside its loops and returns its best plan
so far. The returned plan is re-evaluated with ``inst.evaluate`` and labelled valid only from
that evaluation. Defaults (the paper's seed and iteration counts) live in
``plugin.solvers.common.Settings``.
"""
from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from ..deps import require
from ..errors import InputError
from ..tasks.base import Instance

from .common import PAPER, Context, Settings, better

SOLVERS: dict[str, str] = {
    "greedy": ".greedy:run",
    "grasp": ".grasp:run",
    "sa": ".sa:run",
    "alns": ".alns:run",
    "milp": ".default:run_milp",
    "default": ".default:run",
    # the LLM planner loop; model and rounds from CITYPLANNER_MODEL / _ENDPOINT / _AGENT_ROUNDS
    "agent": "..agent.solver_adapter:run",
}

NEEDS_ALNS = ("alns", "default")  # the methods built on the ``alns`` package


@dataclass
class SolveResult:
    mask: np.ndarray
    ids: list[str]
    valid: bool
    score: float | None
    upper_bound: float | None        # proven bound on S (from the MILP) when known
    gap: float | None                # (upper_bound − score) / max(|upper_bound|, 1e-9), valid plans only
    seconds: float
    method: str
    status: str                      # done | time_limit | cancelled | optimal | infeasible
    trace: list[tuple[float, float]] = field(default_factory=list)  # (seconds, best score)
    bound_trace: list[tuple[float, float]] = field(default_factory=list)  # (seconds, proven bound)
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The result as JSON (everything but the boolean mask)."""
        return {k: v for k, v in self.__dict__.items() if k != "mask"}


def gap(upper_bound: float | None, score: float | None) -> float | None:
    """Relative gap (bound − score) / |bound|, rounded to 6 places; None when either is unknown."""
    if upper_bound is None or score is None:
        return None
    return round((upper_bound - score) / max(abs(upper_bound), 1e-9), 6)


def time_to_gap(trace: list[tuple[float, float]], bound_trace: list[tuple[float, float]],
                target: float) -> float | None:
    """The first second at which the best plan so far and the best bound so far were within
    ``target`` (relative gap, as ``gap``); None if never."""
    best, bound = -math.inf, math.inf
    # one pass over both traces in time order (a score before a bound at the same second)
    for t, kind, v in sorted([(t, 0, s) for t, s in trace] + [(t, 1, b) for t, b in bound_trace]):
        best, bound = (max(best, v), bound) if kind == 0 else (best, min(bound, v))
        if math.isfinite(best) and math.isfinite(bound) and gap(bound, best) <= target:
            return t
    return None


def solver(method: str) -> Callable[[Instance, Context], None]:
    """The run function of ``method``; an unknown method or a missing ``alns`` package is an InputError."""
    if method not in SOLVERS:
        raise InputError(f"unknown method '{method}' (choose {', '.join(SOLVERS)})")
    if method in NEEDS_ALNS:
        require("solvers")  # a one-line reason + fix instead of "No module named 'alns'"
    mod, fn = SOLVERS[method].split(":")
    return getattr(importlib.import_module(mod, __package__), fn)


def solve(inst: Instance, method: str, time_limit: float = 60.0, seed: int = PAPER.seed,
          cancel: Callable[[], bool] | None = None, progress: Callable[[float], None] | None = None,
          settings: Settings = PAPER) -> SolveResult:
    """Solve ``inst`` with ``method``; the plan is the best found within ``time_limit`` seconds."""
    run = solver(method)
    ctx = Context(inst, time_limit, seed, cancel, progress, settings)
    run(inst, ctx)
    mask = ctx.best_mask if ctx.best_mask is not None else np.zeros(inst.n, dtype=bool)
    ev = inst.evaluate(inst.ids_of(mask))
    ctx.report(1.0)
    return SolveResult(
        mask=mask, ids=ev.candidate_ids, valid=ev.valid, score=ev.score, upper_bound=ctx.upper_bound,
        gap=gap(ctx.upper_bound, inst.score_mask(mask)[0]) if ev.valid else None, seconds=round(ctx.elapsed(), 4),
        method=method, status=ctx.final_status(), trace=ctx.trace, bound_trace=ctx.bound_trace, errors=ev.errors, notes=ctx.notes)


#: the solve command's default time: BASE_SECONDS up to BASE_N candidates, growing in proportion
#: beyond (a 1,540-site station instance on a loaded machine had only the trivial bound at 60 s,
#: a 1.18 % gap at 120 s), at most MAX_SECONDS (docs/solving.md)
BASE_SECONDS, BASE_N, MAX_SECONDS = 60.0, 500, 600.0


def default_time_limit(n: int) -> float:
    """Seconds the solve command gives an instance of ``n`` candidates when none is asked for."""
    return float(min(MAX_SECONDS, round(BASE_SECONDS * max(1.0, n / BASE_N))))


def bound_note(inst: Instance, upper_bound: float | None, score: float | None, time_limit: float) -> str | None:
    """A line when the bound is only the score's ceiling (the task's ``score_max``: no
    certificate was found in time), with an estimate of the time that would give one: the run
    again, and at least the default time for its size."""
    from ..tasks.registry import REGISTRY, spec

    if upper_bound is None or score is None or inst.task not in REGISTRY:
        return None
    ceiling = spec(inst.task).score_max
    if upper_bound < ceiling - 1e-6 or upper_bound - score <= 1e-9:
        return None
    more = max(time_limit, default_time_limit(inst.n))
    return (f"no bound yet: the upper bound {upper_bound:.4f} is only the score's ceiling ({ceiling:g}), so the gap "
            f"says nothing; about {more:.0f} s more would give one (--time-limit {time_limit + more:.0f})")


__all__ = ["SOLVERS", "Settings", "PAPER", "SolveResult", "better", "bound_note", "default_time_limit", "gap", "solve",
           "solver", "time_to_gap"]
