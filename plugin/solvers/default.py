"""The MILP method and the default pipeline (the strongest combination we have).

``milp``: the greedy plan warm-starts the task's MILP, which gets the rest of the time.

``default``: greedy → ALNS rounds (``plugin.solvers.alns.rounds``; greedy, ALNS and its
final local search all time-boxed to ``default_alns_share`` of the time, or the task's entry
in ``default_alns_share_by_task``, when a MILP follows) → the MILP warm-started from that
plan with the remaining time less ``milp_margin`` (HiGHS runs in a child process killed
at its limit, ``plugin.solvers.milp.run_highs``; the margin covers the kill and the final
evaluation; from ``SCALE_N`` candidates on ALNS gets at most ``SCALE_ALNS_SHARE``). The
better plan under the validity-first order is kept and the MILP's bound
becomes the upper bound. From the spec's ``at_scale_n`` candidates on (station, road) the full MIP gives
way to its at-scale form (``run_at_scale``). Without a MILP (task has none, or more than ``milp_max_n``
candidates), or when the MILP fails, ALNS gets the remaining time instead.
"""
from __future__ import annotations

import math

from ..tasks.base import Instance

from . import alns
from .common import Context
from .greedy import run as greedy_run
from .local_search import local_search
from .milp import MilpUnavailable, milp_module, solve_milp


def milp_margin(ctx: Context) -> float:
    """Seconds kept free after the MILP: killing an overrunning HiGHS takes up to
    ``KILL_GRACE`` and the plan is still re-evaluated."""
    return max(0.5, ctx.settings.milp_margin * ctx.time_limit)


def milp_stage(inst: Instance, ctx: Context, seconds: float | None = None, at_scale: bool = False) -> bool:
    """Run the MILP from the best plan so far for ``seconds`` (default: the remaining time),
    or its at-scale form (``at_scale``: LP bound + support MIP); False if it failed."""
    seconds = ctx.remaining() - milp_margin(ctx) if seconds is None else seconds
    try:
        res = solve_milp(inst, seconds, warm_start=ctx.best_mask, cancel=ctx.cancel, at_scale=at_scale)
    except MilpUnavailable as e:
        ctx.notes.append(str(e))
        return False
    except Exception as e:  # a failing MILP must not lose the heuristic plan
        ctx.notes.append(f"milp failed: {type(e).__name__}: {e}")
        return False
    ctx.notes.append(f"milp {res.status} in {res.seconds:.1f}s ({'exact' if res.exact else 'relaxation'})")
    if res.status == "error":
        return False
    if math.isfinite(res.bound):
        ctx.set_bound(res.bound)
    if res.mask is not None and len(res.mask) == inst.n:
        ctx.offer_plan(res.mask)
    if res.exact:  # a relaxation's "optimal" says nothing about the plan
        ctx.status = res.status
    return True


def run_milp(inst: Instance, ctx: Context) -> None:
    """The ``milp`` method: the greedy plan as a warm start, then the task's MILP with the time left."""
    milp_module(inst.task)  # fail fast with a clear message when the task has no MILP
    greedy_run(inst, ctx)
    milp_stage(inst, ctx)


def _has_milp(inst: Instance, ctx: Context) -> bool:
    if inst.n > ctx.settings.milp_max_n:
        ctx.notes.append(f"milp skipped: {inst.n} candidates > {ctx.settings.milp_max_n}")
        return False
    try:
        milp_module(inst.task)
    except MilpUnavailable as e:
        ctx.notes.append(str(e))
        return False
    return True


#: from this many candidates on, ALNS gets at most SCALE_ALNS_SHARE: the MILP's early LP needs
#: the time, and its rounded plan beat ALNS's there (station, whole Helsinki, 2,320
#: candidates, 120 s: 0.463 against 0.415)
SCALE_N = 1000
SCALE_ALNS_SHARE = 0.1


def alns_share(inst: Instance, ctx: Context) -> float:
    """Share of the time limit for greedy + ALNS when a MILP follows (per task, else the
    default; at most SCALE_ALNS_SHARE from SCALE_N candidates on)."""
    s = ctx.settings
    share = dict(s.default_alns_share_by_task).get(inst.task, s.default_alns_share)
    return min(share, SCALE_ALNS_SHARE) if inst.n >= SCALE_N else share


def at_scale_n(task: str) -> int | None:
    """From this many candidates on, the task's full MIP gives way to its at-scale form in
    ``run_at_scale`` (the spec's ``at_scale_n``; None: never, e.g. land, whose MIP ends in
    seconds at 1,000 candidates, or a task without a spec)."""
    from ..tasks.registry import REGISTRY, spec

    return spec(task).at_scale_n if task in REGISTRY else None


#: at scale, the share of the time limit kept for local search and ALNS after the MILP
SCALE_HEURISTIC_SHARE = 0.15
#: at scale, greedy's time box (its plan is only the fallback: the support MIP's is better)
SCALE_GREEDY_SHARE = 0.1


def run_at_scale(inst: Instance, ctx: Context) -> None:
    """greedy → the MILP's at-scale form (a true bound, and for station the exact MIP over
    the LP's support for the plan) until SCALE_HEURISTIC_SHARE of the time is left → local
    search and ALNS rounds from the best plan. The full MIP is skipped: at thousands of
    candidates its root node outlasts two minutes on two cores."""
    with ctx.boxed(ctx.start + SCALE_GREEDY_SHARE * ctx.time_limit):   # 17 s at 4,000 candidates
        greedy_run(inst, ctx)
    if milp_stage(inst, ctx, (1.0 - SCALE_HEURISTIC_SHARE) * ctx.time_limit - ctx.elapsed(), at_scale=True):
        ctx.offer_state(local_search(inst.state(ctx.best_mask), ctx))
    alns.rounds(inst, ctx, ctx.deadline)


def run(inst: Instance, ctx: Context) -> None:
    """The ``default`` method: greedy → ALNS → local search → MILP warm-started with the remaining
    time (the at-scale form from AT_SCALE_N candidates)."""
    use_milp = _has_milp(inst, ctx)
    scale_n = at_scale_n(inst.task)
    if use_milp and scale_n is not None and inst.n >= scale_n:
        run_at_scale(inst, ctx)
        return
    with ctx.boxed(ctx.start + (alns_share(inst, ctx) if use_milp else 1.0) * ctx.time_limit):
        greedy_run(inst, ctx)
        alns.rounds(inst, ctx, ctx.deadline)
    if use_milp and not ctx.stopped() and not milp_stage(inst, ctx):
        # the MILP failed: spend what is left on ALNS from the best plan
        alns.rounds(inst, ctx, ctx.deadline)
