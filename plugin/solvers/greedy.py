"""Greedy construction (paper baseline): from the empty plan, add the allowed candidate with
the best positive score gain until no addition improves the score.

``construct`` is the one construction loop; GRASP (randomised RCL pick) and ALNS repair
(greedy / noisy greedy, at most ``repair_limit`` candidates per step) reuse it with another
``pick``.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..tasks.base import Instance, SearchState
from .common import EPS, Context, addable, limited

#: chooses one of the improving candidates: pick(gains, rng) -> position in ``gains``
Pick = Callable[[np.ndarray, np.random.Generator], int]


def best_pick(gains: np.ndarray, rng: np.random.Generator) -> int:
    """The pick of plain greedy: the candidate with the largest gain."""
    return int(np.argmax(gains))


def construct(st: SearchState, ctx: Context, pick: Pick = best_pick, limit: int | None = None) -> SearchState:
    """Add candidates chosen by ``pick`` among those with a positive gain, until none has one."""
    while not ctx.stopped():
        cand = limited(addable(st), limit, ctx.rng)
        if not len(cand):
            break
        gains = np.array([st.gain_add(int(i)) for i in cand])
        good = gains > EPS
        if not good.any():
            break
        st.add(int(cand[good][pick(gains[good], ctx.rng)]))
        ctx.offer_state(st)
    return st


def run(inst: Instance, ctx: Context) -> None:
    """Greedy from the empty plan: add the best-gain candidate until none improves the score."""
    st = inst.state()
    ctx.offer_state(st)
    construct(st, ctx)
