"""Simulated annealing (paper baseline): ``sa_iterations`` random moves from the empty plan.

Each iteration draws a move type (add / remove / swap) uniformly among those that have an
allowed move, then one allowed move of that type uniformly; an improving move is always
accepted, a worsening one with probability exp(gain / T). T cools geometrically from
``sa_t0`` to ``sa_t_end`` over the iterations. Only allowed (feasible) moves are drawn, so
every visited plan is valid.
"""
from __future__ import annotations

import math

import numpy as np

from ..tasks.base import Instance, SearchState
from .common import Context, addable, removable, swappable_in


def random_move(st: SearchState, rng: np.random.Generator) -> tuple | None:
    """One allowed move drawn uniformly by type, then by candidate; None if none exists."""
    for kind in rng.permutation(["add", "remove", "swap"]):
        if kind == "add":
            cand = addable(st)
            if len(cand):
                return ("add", int(rng.choice(cand)))
        elif kind == "remove":
            cand = removable(st)
            if len(cand):
                return ("remove", int(rng.choice(cand)))
        elif st.count:
            out = int(rng.choice(st.selected()))
            cand = swappable_in(st, out)
            if len(cand):
                return ("swap", out, int(rng.choice(cand)))
    return None


def gain(st: SearchState, move: tuple) -> float:
    """The score change of a move ``(kind, *indices)`` without applying it."""
    return getattr(st, f"gain_{move[0]}")(*move[1:])


def run(inst: Instance, ctx: Context) -> None:
    """Simulated annealing over random add / remove / swap moves with geometric cooling from ``sa_t0`` to ``sa_t_end``."""
    s = ctx.settings
    st = inst.state()
    ctx.offer_state(st)
    t = s.sa_t0
    cool = (s.sa_t_end / s.sa_t0) ** (1.0 / max(1, s.sa_iterations))
    for it in range(s.sa_iterations):
        if ctx.stopped():
            break
        move = random_move(st, ctx.rng)
        if move is None:
            break
        g = gain(st, move)
        if g >= 0 or ctx.rng.random() < math.exp(g / t):
            getattr(st, move[0])(*move[1:])
            if g > 0:
                ctx.offer_state(st)
        t *= cool
        if it % 50 == 0:
            ctx.report(it / s.sa_iterations)
