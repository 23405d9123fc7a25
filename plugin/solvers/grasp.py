"""GRASP (Feo & Resende 1995): repeat {randomised greedy construction from the empty plan,
picking uniformly from the restricted candidate list (RCL) of improving candidates whose
gain is within ``grasp_alpha`` of the best, then best-improvement local search}; keep the
best plan. Stops after ``grasp_iterations`` or at the time limit / cancel.
"""
from __future__ import annotations

import numpy as np

from ..tasks.base import Instance
from .common import Context
from .greedy import Pick, construct
from .local_search import local_search


def rcl_pick(alpha: float) -> Pick:
    """A pick that draws uniformly among the candidates whose gain is within ``alpha`` of the
    best (the restricted candidate list)."""
    def pick(gains: np.ndarray, rng: np.random.Generator) -> int:
        hi, lo = gains.max(), gains.min()
        rcl = np.flatnonzero(gains >= hi - alpha * (hi - lo))
        return int(rng.choice(rcl))
    return pick


def run(inst: Instance, ctx: Context) -> None:
    """GRASP: randomised greedy constructions, each followed by local search, until the iterations or the time run out."""
    s = ctx.settings
    pick = rcl_pick(s.grasp_alpha)
    ctx.offer_state(inst.state())
    for it in range(s.grasp_iterations):
        if ctx.stopped():
            break
        st = construct(inst.state(), ctx, pick, s.repair_limit)
        local_search(st, ctx)
        ctx.report((it + 1) / s.grasp_iterations)
