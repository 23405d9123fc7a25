"""Incremental search state of road construction."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..base import SearchState
from .constants import TOL
from .graph import _insert

if TYPE_CHECKING:
    from .task import RoadConstruction


class RoadState(SearchState):
    """Incremental state: exact G, Dg, D over the key nodes for the current plan.

    add: one exact edge insertion (O(m²)). remove: G and Dg are recomputed, and of D only the
    rows of key nodes with a shortest path that may run over the segment (none when it lies on
    no shortest path: then nothing is recomputed). Gains of removals and swaps share a
    per-plan cache of the distances without each selected segment."""

    def __init__(self, inst: RoadConstruction, mask: np.ndarray | None = None):
        super().__init__(inst, mask)
        self._rebuild()

    def _rebuild(self) -> None:
        inst: RoadConstruction = self.inst
        self.G, self.Dg, self.D = inst.distances(np.flatnonzero(self.mask), 2)
        self.xcnt = np.bincount(inst.cross[np.flatnonzero(self.mask)].indices, minlength=inst.n).astype(np.int64)
        self.n_cross = int(self.xcnt[self.mask].sum()) // 2
        self._cache: dict[int, tuple[np.ndarray, np.ndarray | None]] = {}

    @property
    def score(self) -> float:
        return self.inst._score(self.G, self.cost, self.n_cross)

    # ---- distances after a change (not applied)
    def _g_with(self, i: int, G: np.ndarray, Dg: np.ndarray) -> np.ndarray:
        inst = self.inst
        a = np.add.outer(Dg[:, inst.cu[i]] + inst.w[i], Dg[:, inst.cv[i]])
        return np.minimum(G, np.minimum(a, a.T))

    @staticmethod
    def _tight(cur: np.ndarray, via: np.ndarray) -> bool:
        """Whether some shortest distance in ``cur`` may run over segment i."""
        return bool((via <= cur + TOL * np.maximum(1.0, cur)).any())

    def _without(self, i: int, need_dg: bool) -> tuple[np.ndarray, np.ndarray | None]:
        """(G, Dg) of the plan without selected segment i; Dg only if ``need_dg``."""
        hit = self._cache.get(i)
        if hit is not None and (hit[1] is not None or not need_dg):
            return hit
        inst = self.inst
        u, v, w = inst.cu[i], inst.cv[i], inst.w[i]
        via_dg = np.minimum(np.add.outer(self.Dg[:, u] + w, self.D[v]), np.add.outer(self.Dg[:, v] + w, self.D[u]))
        if not self._tight(self.Dg, via_dg):
            out = (self.G, self.Dg)
        elif not need_dg and not self._tight(self.G, self._g_with(i, np.full_like(self.G, np.inf), self.Dg)):
            out = (self.G, None)
        else:
            rest = np.flatnonzero(self.mask)
            res = inst.distances(rest[rest != i], int(need_dg))
            out = (res[0], res[1] if need_dg else None)
        self._cache[i] = out
        return out

    # ---- gains
    def gain_add(self, i: int) -> float:
        inst = self.inst
        after = inst._score(self._g_with(i, self.G, self.Dg), self.cost + inst.cost[i], self.n_cross + self.xcnt[i])
        return after - self.score

    def gain_remove(self, i: int) -> float:
        inst = self.inst
        G, _ = self._without(i, need_dg=False)
        after = inst._score(G, self.cost - inst.cost[i], self.n_cross - self.xcnt[i])
        return after - self.score

    def gain_swap(self, out: int, inn: int) -> float:
        inst = self.inst
        G, Dg = self._without(out, need_dg=True)
        crossings = self.n_cross - self.xcnt[out] + self.xcnt[inn] - int(inst.cross[out, inn])
        after = inst._score(self._g_with(inn, G, Dg), self.cost - inst.cost[out] + inst.cost[inn], crossings)
        return after - self.score

    # ---- moves
    def add(self, i: int) -> None:
        super().add(i)
        inst = self.inst
        _insert(self.G, self.Dg, self.D, inst.cu[i], inst.cv[i], inst.w[i])
        self.n_cross += int(self.xcnt[i])
        self.xcnt[inst.cross_idx[i]] += 1
        self._cache = {}

    def remove(self, i: int) -> None:
        inst = self.inst
        u, v, w = inst.cu[i], inst.cv[i], inst.w[i]
        via = np.minimum(np.add.outer(self.D[u] + w, self.D[v]), np.add.outer(self.D[v] + w, self.D[u]))
        via_dg = np.minimum(np.add.outer(self.Dg[:, u] + w, self.D[v]), np.add.outer(self.Dg[:, v] + w, self.D[u]))
        # only key nodes with a shortest path that may run over i get new rows (D is symmetric)
        rows = np.flatnonzero((via <= self.D + TOL * np.maximum(1.0, self.D)).any(axis=1))
        super().remove(i)
        if len(rows) or self._tight(self.Dg, via_dg):
            self.G, self.Dg, d_rows = inst.distances(np.flatnonzero(self.mask), 2, rows)
            self.D[rows] = d_rows
            self.D[:, rows] = d_rows.T
        self.xcnt[inst.cross_idx[i]] -= 1
        self.n_cross -= int(self.xcnt[i])
        self._cache = {}
