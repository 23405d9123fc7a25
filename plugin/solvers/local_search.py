"""Best-improvement local search over add / remove / swap moves (used by GRASP, ALNS and the
default method, and as the ``local_search`` step of any pipeline).

Each pass scans every allowed add, every allowed remove and, per selected candidate, up to
``repair_limit`` allowed replacements, then applies the single best move if it gains more
than ``EPS``. At a local optimum it tries pairs of additions (``add_pair``): each allowed
candidate i, then the best allowed follow-up j; a pair whose joint gain is positive is
applied. That finds what single moves cannot see, e.g. two road links that only shorten a
trip together. It stops at a local optimum of both or when the context says stop.
"""
from __future__ import annotations

from ..tasks.base import SearchState
from .common import EPS, Context, addable, limited, removable, swappable_in


def local_search(st: SearchState, ctx: Context) -> SearchState:
    """Best-improvement local search over add, remove and swap moves (then pairs of additions)
    until none improves; returns ``st``."""
    limit = ctx.settings.repair_limit
    while not ctx.stopped():
        best, move = EPS, None
        for i in addable(st):
            g = st.gain_add(int(i))
            if g > best:
                best, move = g, ("add", int(i))
        for i in removable(st):
            g = st.gain_remove(int(i))
            if g > best:
                best, move = g, ("remove", int(i))
        for out in st.selected():
            if ctx.stopped():
                return st
            for inn in limited(swappable_in(st, int(out)), limit, ctx.rng):
                g = st.gain_swap(int(out), int(inn))
                if g > best:
                    best, move = g, ("swap", int(out), int(inn))
        if move is None:
            if not add_pair(st, ctx):
                break
            continue
        getattr(st, move[0])(*move[1:])
        ctx.offer_state(st)
    return st


def add_pair(st: SearchState, ctx: Context) -> bool:
    """Apply the best improving pair of additions (i, then j) if there is one."""
    best, pair = EPS, None
    for i in limited(addable(st), ctx.settings.repair_limit, ctx.rng):
        if ctx.stopped():
            return False
        i = int(i)
        gi = st.gain_add(i)
        trial = st.copy()
        trial.add(i)
        for j in addable(trial):
            g = gi + trial.gain_add(int(j))
            if g > best:
                best, pair = g, (i, int(j))
    if pair is None:
        return False
    st.add(pair[0])
    st.add(pair[1])
    ctx.offer_state(st)
    return True
