"""Best-improvement local search over add / remove / swap moves (used by GRASP, ALNS and the
default method, and as the ``local_search`` step of any pipeline).

Each pass scans every allowed add, every allowed remove and, per selected candidate, up to
``repair_limit`` allowed replacements, then applies the single best move if it gains more
than ``EPS``. It stops at a local optimum or when the context says stop.
"""
from __future__ import annotations

from plugin.tasks.base import SearchState

from .common import EPS, Context, addable, limited, removable, swappable_in


def local_search(st: SearchState, ctx: Context) -> SearchState:
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
            break
        getattr(st, move[0])(*move[1:])
        ctx.offer_state(st)
    return st
