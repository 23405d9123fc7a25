"""Adaptive large neighbourhood search (paper baseline) on the ``alns`` package.

Start: the greedy plan. Each of ``alns_iterations`` iterations destroys a share
(``destroy_fraction``) of the selected candidates — random / most expensive / worst
contribution (smallest S(P) − S(P \\ {c})) — and repairs with greedy or noisy greedy
construction over at most ``repair_limit`` candidates per step. Operators are chosen by a
roulette wheel (scores 25 / 5 / 1 / 0 for new best / better / accepted / rejected, decay
0.8); acceptance is simulated annealing from ``sa_t0`` to ``sa_t_end``. The package
minimises, so the objective is −S (its ``autofit`` rejects negative objectives, hence the
explicit temperatures). The best plan ends with a best-improvement local search (with pairs
of additions); the iterations stop at ``alns_polish_share`` of the time left, so the polish
always gets its share.

Restarts (our choice, not the paper's): the paper's 1,000 iterations are one round. When a
round ends before the time limit, another round starts from the best plan so far (the RNG
stream continues, so it explores differently), until ``alns_patience`` rounds in a row find
nothing better or the time is up. Without them ALNS stopped after a fraction of its time
while GRASP used all of it, and lost to GRASP on the quick suite's land and station cells at
the same time limit; with them every method gets the same time.
"""
from __future__ import annotations

import time

import numpy as np
from alns import ALNS
from alns.accept import SimulatedAnnealing
from alns.select import RouletteWheel
from alns.stop import MaxIterations

from plugin.tasks.base import Instance, SearchState

from .common import Context, better, removable
from .greedy import construct, run as greedy_run
from .local_search import local_search


class _Plan:
    """The ``alns`` State protocol around a SearchState; −S is cached (scores can be costly)."""

    def __init__(self, st: SearchState):
        self.st = st
        self.obj = -st.score

    def objective(self) -> float:
        return self.obj


class _Stop:
    """MaxIterations, or the context's time limit / cancel, or this stage's time box."""

    def __init__(self, ctx: Context, iterations: int, until: float):
        self.ctx, self.iterations, self.until = ctx, iterations, until
        self.max_it = MaxIterations(iterations)
        self.it = 0
        self.by_clock = False

    def __call__(self, rng, best, current) -> bool:
        self.it += 1
        self.ctx.report(self.it / self.iterations)
        if self.max_it(rng, best, current):
            return True
        self.by_clock = self.ctx.stopped() or time.perf_counter() >= self.until
        return self.by_clock


def _destroy(order):
    """A destroy operator removing a random share of the plan, in the order ``order`` gives."""
    def op(plan: _Plan, rng: np.random.Generator, ctx: Context) -> _Plan:
        st = plan.st.copy()
        sel = removable(st)
        if len(sel):
            lo, hi = ctx.settings.destroy_fraction
            k = max(1, int(round(rng.uniform(lo, hi) * len(sel))))
            for i in order(st, sel, rng)[:k]:
                if st.can_remove(int(i)):
                    st.remove(int(i))
        return _Plan(st)
    return op


def _random(st: SearchState, sel: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return rng.permutation(sel)


def _expensive(st: SearchState, sel: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return sel[np.argsort(-st.inst.cost[sel], kind="stable")]


def _worst(st: SearchState, sel: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    contribution = np.array([-st.gain_remove(int(i)) for i in sel])
    return sel[np.argsort(contribution, kind="stable")]


def _repair(noisy: bool):
    def op(plan: _Plan, rng: np.random.Generator, ctx: Context) -> _Plan:
        s = ctx.settings

        def pick(gains: np.ndarray, r: np.random.Generator) -> int:
            if not noisy:
                return int(np.argmax(gains))
            return int(np.argmax(gains * (1 + s.repair_noise * r.uniform(-1, 1, len(gains)))))

        st = construct(plan.st, ctx, pick, s.repair_limit)
        ctx.offer_state(st)
        return _Plan(st)
    return op


def search(st: SearchState, ctx: Context, iterations: int, until: float) -> SearchState:
    """ALNS from ``st`` for ``iterations`` or until ``until`` (perf_counter); best state, polished."""
    s = ctx.settings
    now = time.perf_counter()
    last_stage = until >= ctx.deadline
    until = now + (1.0 - s.alns_polish_share) * max(0.0, until - now)
    engine = ALNS(ctx.rng)
    for name, order in (("random", _random), ("expensive", _expensive), ("worst", _worst)):
        engine.add_destroy_operator(_destroy(order), name)
    engine.add_repair_operator(_repair(False), "greedy")
    engine.add_repair_operator(_repair(True), "noisy_greedy")
    select = RouletteWheel([25, 5, 1, 0], 0.8, 3, 2)
    accept = SimulatedAnnealing(s.sa_t0, s.sa_t_end, (s.sa_t_end / s.sa_t0) ** (1.0 / max(1, iterations)))
    with np.errstate(over="ignore"):  # exp(big improvement / T) overflows to inf: always accept
        stop = _Stop(ctx, iterations, until)
        result = engine.iterate(_Plan(st), select, accept, stop, ctx=ctx)
    best = result.best_state.st
    ctx.offer_state(best)
    best = local_search(best, ctx)
    if stop.by_clock and last_stage:
        ctx.timed_out = True   # the iterations were cut by the time limit, not finished
    return best


def rounds(inst: Instance, ctx: Context, until: float) -> None:
    """ALNS rounds of ``alns_iterations`` from the best plan so far, until ``until``
    (perf_counter) or ``alns_patience`` rounds in a row without a better plan."""
    stale = 0
    while stale < ctx.settings.alns_patience and not ctx.stopped() and time.perf_counter() < until:
        before = ctx.best_key
        search(inst.state(ctx.best_mask), ctx, ctx.settings.alns_iterations, until)
        stale = 0 if better(ctx.best_key, before) else stale + 1


def run(inst: Instance, ctx: Context) -> None:
    greedy_run(inst, ctx)
    rounds(inst, ctx, ctx.deadline)
