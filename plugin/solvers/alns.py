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

Our ALNS adds two things to the paper's. A third repair operator, ``rcl``, constructs with
GRASP's randomised pick (uniform over the candidates whose gain is within ``grasp_alpha`` of
the best): the greedy repairs rebuild the plan a destroy step just took apart (station plans
of 2–5 sites went back to the same local optimum every time), the RCL repair does not.
And restarts: the paper's 1,000 iterations are one round, and rounds repeat until the time
limit or until ``alns_patience`` rounds in a row find no better plan. Rounds alternate their
start, beginning with a fresh one. A fresh round starts from the best of
``alns_fresh_starts`` GRASP plans (RCL construction with ``grasp_alpha``, then local
search), doubling with each fresh round (diversification: one ALNS round costs as much as
~50–100 of them on land instances, and the greedy plan is a poor basin there); the other
rounds continue from the best plan so far (intensification; the RNG stream continues, so
each explores differently). The best plan over all rounds is kept. Restarting only from the
best plan left ALNS stuck in one basin: it lost to GRASP, which samples a new start every
iteration, on the quick suite's land and station cells at the same time limit. Everything
runs on the context's seeded RNG, so the same seed gives the same plan when the rounds end
by patience rather than by the clock.
"""
from __future__ import annotations

import time

import numpy as np
from alns import ALNS
from alns.accept import SimulatedAnnealing
from alns.select import RouletteWheel
from alns.stop import MaxIterations

from ..tasks.base import Instance, SearchState
from .common import Context, better, removable
from .grasp import rcl_pick
from .greedy import Pick, best_pick, construct
from .greedy import run as greedy_run
from .local_search import local_search


class _Plan:
    """The ``alns`` State protocol around a SearchState; −S is cached (scores can be costly)."""

    def __init__(self, st: SearchState):
        self.st = st
        self.obj = -st.score

    def objective(self) -> float:
        return self.obj


class _Stop:
    """MaxIterations, or the context's clock (time limit, stage box) / cancel."""

    def __init__(self, ctx: Context, iterations: int):
        self.ctx, self.iterations = ctx, iterations
        self.max_it = MaxIterations(iterations)
        self.it = 0

    def __call__(self, rng, best, current) -> bool:
        self.it += 1
        self.ctx.report(self.it / self.iterations)
        return self.max_it(rng, best, current) or self.ctx.stopped()


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


def _noisy_pick(noise: float) -> Pick:
    def pick(gains: np.ndarray, rng: np.random.Generator) -> int:
        return int(np.argmax(gains * (1 + noise * rng.uniform(-1, 1, len(gains)))))
    return pick


def _repair(kind: str):
    """Repair by construction with the greedy, noisy-greedy or RCL (GRASP) pick."""
    def op(plan: _Plan, rng: np.random.Generator, ctx: Context) -> _Plan:
        s = ctx.settings
        pick = {"greedy": best_pick, "noisy_greedy": _noisy_pick(s.repair_noise),
                "rcl": rcl_pick(s.grasp_alpha)}[kind]
        st = construct(plan.st, ctx, pick, s.repair_limit)
        ctx.offer_state(st)
        return _Plan(st)
    return op


def search(st: SearchState, ctx: Context, iterations: int, until: float) -> SearchState:
    """ALNS from ``st`` for ``iterations`` or until ``until`` (perf_counter); best state, polished.

    The iterations stop at ``alns_polish_share`` of the time left so that the final local
    search gets its share; the local search itself also ends at ``until``. Time the polish
    leaves unused goes to the next round (``rounds``)."""
    s = ctx.settings
    now = time.perf_counter()
    engine = ALNS(ctx.rng)
    for name, order in (("random", _random), ("expensive", _expensive), ("worst", _worst)):
        engine.add_destroy_operator(_destroy(order), name)
    for name in ("greedy", "noisy_greedy", "rcl"):
        engine.add_repair_operator(_repair(name), name)
    select = RouletteWheel([25, 5, 1, 0], 0.8, 3, 3)
    accept = SimulatedAnnealing(s.sa_t0, s.sa_t_end, (s.sa_t_end / s.sa_t0) ** (1.0 / max(1, iterations)))
    stop = _Stop(ctx, iterations)
    with np.errstate(over="ignore"), ctx.boxed(now + (1.0 - s.alns_polish_share) * max(0.0, until - now)):
        # exp(big improvement / T) overflows to inf: always accept
        result = engine.iterate(_Plan(st), select, accept, stop, ctx=ctx)
    best = result.best_state.st
    ctx.offer_state(best)
    with ctx.boxed(until):
        return local_search(best, ctx)


def fresh_start(inst: Instance, ctx: Context, starts: int) -> SearchState:
    """A diversifying start: the best of ``starts`` GRASP iterations (randomised RCL
    construction, then local search)."""
    s = ctx.settings
    best = None
    for _ in range(max(1, starts)):
        st = local_search(construct(inst.state(), ctx, rcl_pick(s.grasp_alpha), s.repair_limit), ctx)
        if best is None or st.score > best.score:
            best = st
        if ctx.stopped():
            break
    return best


def rounds(inst: Instance, ctx: Context, until: float) -> None:
    """ALNS rounds of ``alns_iterations``, alternating between the best plan so far and a
    fresh start, until ``until`` (perf_counter) or ``alns_patience`` rounds in a row without
    a better plan."""
    stale, k = 0, 1   # the first round starts fresh: the greedy plan is a poor basin on land
    with ctx.boxed(until):
        while stale < ctx.settings.alns_patience and not ctx.stopped():
            before = ctx.best_key
            # the j-th fresh start samples alns_fresh_starts·2^j GRASP plans: ever more
            # exploration while rounds from the best plan stop paying
            start = inst.state(ctx.best_mask) if k % 2 == 0 else \
                fresh_start(inst, ctx, ctx.settings.alns_fresh_starts * 2 ** (k // 2))
            if not ctx.stopped():
                search(start, ctx, ctx.settings.alns_iterations, until)
            stale = 0 if better(ctx.best_key, before) else stale + 1
            k += 1


def run(inst: Instance, ctx: Context) -> None:
    """ALNS as a method: the greedy plan, then ALNS rounds until the deadline."""
    greedy_run(inst, ctx)
    rounds(inst, ctx, ctx.deadline)
