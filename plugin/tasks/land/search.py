"""Incremental search state of land allocation."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..base import SearchState
from .constants import W_A, W_R, W_RHO, W_V

if TYPE_CHECKING:
    from .task import LandAllocation


class LandState(SearchState):
    """Aggregates: cnt[k, u] = existing + selected facilities of kind row k serving unit u;
    c[t] = selected count of type t. Every gain is O(units touched by the candidate)."""

    inst: LandAllocation

    def __init__(self, inst: LandAllocation, mask: np.ndarray | None = None):
        super().__init__(inst, mask)
        self.c = np.bincount(inst.ctype[self.mask], minlength=len(inst.types)).astype(np.int64)
        self.cnt = inst.existing.copy()
        for i in np.flatnonzero(self.mask & (inst.ckind >= 0)):
            self.cnt[inst.ckind[i], inst.cover_idx[i]] += 1
        self.dups = int(np.maximum(self._group_used - 1, 0).sum())

    @property
    def score(self) -> float:
        inst = self.inst
        return inst._terms(self.c, self.cnt > 0, self.cost, self.dups)["S"]

    # per-move pieces: count terms (R, overbuild), duplicates, coverage, cost
    def _d_count(self, t: int, delta: int) -> float:
        inst = self.inst
        c, n = self.c[t], inst.need[t]
        def f(x: int) -> float:
            return W_R * min(x, n) - W_V * max(0, x - n)
        return (f(c + delta) - f(c)) / inst.n_need

    def _d_dup(self, g: int, delta: int) -> float:
        if g < 0:
            return 0.0
        u = int(self._group_used[g])
        return -W_V * (max(0, u + delta - 1) - max(0, u - 1)) / self.inst.n_need

    def _d_cover(self, i: int, delta: int) -> float:
        inst = self.inst
        k = inst.ckind[i]
        if k < 0:
            return 0.0
        idx = inst.cover_idx[i]
        hit = self.cnt[k, idx] == (0 if delta > 0 else 1)
        return delta * W_A * float(inst.W[k, idx[hit]].sum())

    def gain_add(self, i: int) -> float:
        inst = self.inst
        return (self._d_count(inst.ctype[i], 1) + self._d_dup(inst.group[i], 1) + self._d_cover(i, 1)
                - W_RHO * inst.cost[i] / inst.budget)

    def gain_remove(self, i: int) -> float:
        inst = self.inst
        return (self._d_count(inst.ctype[i], -1) + self._d_dup(inst.group[i], -1) + self._d_cover(i, -1)
                + W_RHO * inst.cost[i] / inst.budget)

    def gain_swap(self, out: int, inn: int) -> float:
        inst = self.inst
        g = W_RHO * (inst.cost[out] - inst.cost[inn]) / inst.budget
        if inst.ctype[out] != inst.ctype[inn]:
            g += self._d_count(inst.ctype[out], -1) + self._d_count(inst.ctype[inn], 1)
        if inst.group[out] != inst.group[inn]:
            g += self._d_dup(inst.group[out], -1) + self._d_dup(inst.group[inn], 1)
        k = inst.ckind[out]
        if k < 0 or k != inst.ckind[inn]:
            return g + self._d_cover(out, -1) + self._d_cover(inn, 1)
        # same kind row: a unit covered by both keeps its count
        io, ii = inst.cover_idx[out], inst.cover_idx[inn]
        lost = io[(self.cnt[k, io] == 1) & ~np.isin(io, ii, assume_unique=True)]
        won = ii[self.cnt[k, ii] == 0]
        return g + W_A * float(inst.W[k, won].sum() - inst.W[k, lost].sum())

    def add(self, i: int) -> None:
        inst = self.inst
        g = inst.group[i]
        if g >= 0 and self._group_used[g] >= 1:
            self.dups += 1
        super().add(i)
        self.c[inst.ctype[i]] += 1
        if inst.ckind[i] >= 0:
            self.cnt[inst.ckind[i], inst.cover_idx[i]] += 1

    def remove(self, i: int) -> None:
        inst = self.inst
        g = inst.group[i]
        if g >= 0 and self._group_used[g] >= 2:
            self.dups -= 1
        super().remove(i)
        self.c[inst.ctype[i]] -= 1
        if inst.ckind[i] >= 0:
            self.cnt[inst.ckind[i], inst.cover_idx[i]] -= 1
