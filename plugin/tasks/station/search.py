"""Incremental search state of station placement."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..base import SearchState
from .service import service_value

if TYPE_CHECKING:
    from .task import StationPlacement


def _best_among(inst: StationPlacement, rows: np.ndarray, cols: np.ndarray,
                exclude: np.ndarray | None = None) -> np.ndarray:
    """For regions ``cols``, the candidate among ``rows`` they use (n where none covers them);
    with ``exclude`` (one candidate per region), the best other than that one."""
    if not len(rows) or not len(cols):
        return np.full(len(cols), inst.n, dtype=np.int64)
    sub = inst.rank[np.ix_(rows, cols)]
    if exclude is not None:
        sub = np.where(rows[:, None] == exclude[None, :], inst.BIG, sub)
    k = sub.argmin(axis=0)
    return np.where(sub[k, np.arange(len(cols))] < inst.BIG, rows[k], inst.n)


class StationState(SearchState):
    """Keeps each region's best and second-best selected candidate, the loads and the score
    aggregates.

    A gain never searches the plan: adding i moves the regions that rank i above their best
    to i; removing o moves o's regions to their second best; a swap does both (a region that
    loses o takes the better of its second best and the new candidate). Only the loads of the
    candidates that gain or lose regions change, so T and the overload are updated there.
    Applying a move also refreshes the second bests it invalidates (a search over the plan
    for those regions only)."""

    inst: StationPlacement

    def __init__(self, inst: StationPlacement, mask: np.ndarray | None = None):
        super().__init__(inst, mask)
        self.best = inst.assign(self.mask)
        self.brank = inst.rank[self.best, inst.cols]
        self.second = _best_among(inst, self.selected(), inst.cols, exclude=self.best)
        self.srank = inst.rank[self.second, inst.cols]
        self.load = np.bincount(self.best, weights=inst.w, minlength=inst.n + 1)
        t = inst.terms(self.best)
        self.agg = np.array([t["cov"], t["acc"], t["svc"], t["over"]])
        self.rule = float(sum(inst.rule_excess(self.mask)))

    @property
    def score(self) -> float:
        return self.inst.combine(*self.agg, self.cost, self.rule)[0]

    # ---- the one delta computation behind every move
    def _reassign(self, out: int | None, inn: int | None) -> tuple[np.ndarray, np.ndarray]:
        """(regions whose candidate changes, their new candidates) if ``out`` leaves and/or
        ``inn`` joins the plan."""
        inst = self.inst
        if out is None:
            aff = np.flatnonzero(inst.rank[inn] < self.brank)
            return aff, np.full(len(aff), inn, dtype=np.int64)
        lost = self.best == out
        if inn is None:
            aff = np.flatnonzero(lost)
            return aff, self.second[aff]
        aff = np.flatnonzero(lost | (inst.rank[inn] < self.brank))
        sec = self.second[aff]
        keep_sec = lost[aff] & (self.srank[aff] <= inst.rank[inn, aff])
        return aff, np.where(keep_sec, sec, inn)

    def _delta(self, out: int | None, inn: int | None):
        """(regions, their new candidates, touched candidates, their load change, aggregate change).

        Few numpy calls on short arrays: at this size their overhead, not the arithmetic, is
        the cost, so old and new values go through each formula together."""
        inst, n = self.inst, self.inst.n
        aff, nb = self._reassign(out, inn)
        w = inst.w[aff]
        moved = np.concatenate([nb, self.best[aff]])        # new, then old candidate per region
        signed = np.concatenate([w, -w])
        dload = np.bincount(moved, weights=signed, minlength=n + 1)
        touched = np.flatnonzero(dload[:n])
        k = len(touched)
        old_l = self.load[touched]
        cap = np.concatenate([inst.cap[touched]] * 2)
        loads = np.concatenate([old_l, old_l + dload[touched]])
        svc = service_value(loads, cap)
        over = np.maximum(loads - cap, 0.0)
        d_agg = np.array([
            signed @ (moved < n),
            signed @ inst.access[moved, np.concatenate([aff, aff])],
            svc[k:].sum() - svc[:k].sum(),
            over[k:].sum() - over[:k].sum(),
        ])
        return aff, nb, touched, dload[touched], d_agg

    def _rule_delta(self, out: int | None, inn: int | None) -> int:
        """Change of (extra configurations at used sites + slots over the step limit)."""
        inst, used = self.inst, self._group_used
        g_out = inst.group[out] if out is not None else -1
        d = -1 if g_out >= 0 and used[g_out] >= 2 else 0
        if inn is not None and inst.group[inn] >= 0:
            g = inst.group[inn]
            d += int(used[g] - (g == g_out) >= 1)
        k = self.count - (out is not None) + (inn is not None)
        return d + max(0, k - inst.max_select) - max(0, self.count - inst.max_select)

    def _gain(self, out: int | None, inn: int | None) -> float:
        inst = self.inst
        d_agg = self._delta(out, inn)[4]
        dcost = (inst.cost[inn] if inn is not None else 0.0) - (inst.cost[out] if out is not None else 0.0)
        new = inst.combine(*(self.agg + d_agg), self.cost + dcost, self.rule + self._rule_delta(out, inn))[0]
        return new - self.score

    def _apply(self, out: int | None, inn: int | None) -> None:
        """Update loads and aggregates, then best / second best (before the mask changes)."""
        inst = self.inst
        aff, nb, touched, dl, d_agg = self._delta(out, inn)
        self.rule += self._rule_delta(out, inn)
        self.load[touched] += dl
        self.agg += d_agg
        if inn is not None:
            # regions that now prefer inn: the old best becomes the second best
            self.second[aff], self.srank[aff] = self.best[aff], self.brank[aff]
            self.best[aff], self.brank[aff] = inn, inst.rank[inn, aff]
            between = np.flatnonzero(inst.rank[inn] < self.srank)
            between = between[self.best[between] != inn]
            self.second[between], self.srank[between] = inn, inst.rank[inn, between]
        else:
            self.best[aff], self.brank[aff] = nb, inst.rank[nb, aff]
            stale = np.flatnonzero((self.second == out) | (self.second == self.best))
            stale = stale[self.second[stale] < inst.n]
            rows = self.selected()
            rows = rows[rows != out]
            sec = _best_among(inst, rows, stale, exclude=self.best[stale])
            self.second[stale], self.srank[stale] = sec, inst.rank[sec, stale]

    def gain_add(self, i: int) -> float:
        return self._gain(None, i)

    def gain_remove(self, i: int) -> float:
        return self._gain(i, None)

    def gain_swap(self, out: int, inn: int) -> float:
        return self._gain(out, inn)

    def add(self, i: int) -> None:
        self._apply(None, i)
        super().add(i)

    def remove(self, i: int) -> None:
        self._apply(i, None)
        super().remove(i)
