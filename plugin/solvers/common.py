"""What every solver shares: the paper's settings, the run context, feasible moves, ordering.

A solver is ``run(inst, ctx) -> None``: it searches with ``SearchState`` moves that are
``can_*``-allowed (so every state it reaches is valid), hands each improvement to
``ctx.offer`` and stops as soon as ``ctx.stopped()`` says so. The context keeps the
best-so-far plan and its score-vs-time trace, so a cancelled or timed-out run still returns
the best plan found.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from ..tasks.base import Instance, SearchState

EPS = 1e-9  # gains below this are float noise; accepting them lets local search cycle


@dataclass(frozen=True)
class Settings:
    """Solver parameters. The first four are the paper's (docs/reference.md#heuristic-baselines)."""

    seed: int = 42
    sa_iterations: int = 2000
    alns_iterations: int = 1000
    repair_limit: int = 300             # candidates a repair step (and a swap scan) looks at
    grasp_alpha: float = 0.3            # RCL: gains within alpha of the best (Feo & Resende)
    grasp_iterations: int = 100
    sa_t0: float = 0.01                 # scores are O(1), typical move gains O(0.01)
    sa_t_end: float = 1e-4
    destroy_fraction: tuple[float, float] = (0.2, 0.6)  # (0.1, 0.4) left station plans of 2–5 sites stuck
    repair_noise: float = 0.2           # noisy greedy multiplies gains by 1 ± noise
    milp_max_n: int = 20000             # beyond this the default skips the MILP
    default_alns_share: float = 0.25    # share of the time the default gives ALNS before the MILP
    # road: ALNS reaches its best plan in ~2 s while the pair MILP needs every second it gets to
    # finish its root LP on large instances (else its bound is only the trivial Q ≤ 1)
    default_alns_share_by_task: tuple[tuple[str, float], ...] = (("road", 0.1),)
    alns_polish_share: float = 0.25     # share of an ALNS stage's time kept for the final local search
    alns_patience: int = 6              # ALNS rounds in a row without a better plan end the restarts
    alns_fresh_starts: int = 10         # GRASP iterations behind each diversifying ALNS restart
    milp_margin: float = 0.05           # share of the time limit (at least 0.5 s) kept free after the MILP


PAPER = Settings()


def better(a: tuple[bool, float | None], b: tuple[bool, float | None]) -> bool:
    """Validity-first order: is plan a = (valid, score) strictly better than plan b?"""
    if a[0] != b[0]:
        return bool(a[0])
    sa = -math.inf if a[1] is None else a[1]
    sb = -math.inf if b[1] is None else b[1]
    return sa > sb + EPS


class Context:
    """Clock, cancel flag, progress, RNG and best-so-far of one solver run."""

    def __init__(self, inst: Instance, time_limit: float, seed: int = PAPER.seed,
                 cancel: Callable[[], bool] | None = None,
                 progress: Callable[[float], None] | None = None,
                 settings: Settings = PAPER):
        self.inst = inst
        self.settings = settings
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.time_limit = float(time_limit)
        self.start = time.perf_counter()
        self.deadline = self.start + self.time_limit
        self.cancel = cancel
        self._progress = progress
        self._reported = -1.0
        self.cancelled = False
        self.timed_out = False
        self.best_mask: np.ndarray | None = None
        self.best_key: tuple[bool, float | None] = (False, None)
        self.trace: list[tuple[float, float]] = []
        self.upper_bound: float | None = None
        self.bound_trace: list[tuple[float, float]] = []   # (seconds, proven bound) as bounds arrive
        self.status: str | None = None     # a solver's own verdict (e.g. the MILP's)
        self.notes: list[str] = []

    def elapsed(self) -> float:
        """Seconds since the run started."""
        return time.perf_counter() - self.start

    def remaining(self) -> float:
        """Seconds left before the deadline (never negative)."""
        return max(0.0, self.deadline - time.perf_counter())

    def stopped(self) -> bool:
        """True once the time limit has passed or cancel() said so (sticky)."""
        if not (self.cancelled or self.timed_out):
            if time.perf_counter() >= self.deadline:
                self.timed_out = True
            elif self.cancel is not None and self.cancel():
                self.cancelled = True
        return self.cancelled or self.timed_out

    @contextmanager
    def boxed(self, until: float) -> Iterator[None]:
        """Within the block the clock also stops at ``until`` (perf_counter): a stage's time
        box, honoured by every loop that checks ``stopped()`` (local search included)."""
        saved, was_out = self.deadline, self.timed_out
        self.deadline = min(saved, until)
        try:
            yield
        finally:
            self.deadline = saved
            if until < saved and not was_out and time.perf_counter() < saved:
                self.timed_out = False   # only the box ran out, not the run

    def offer(self, mask: np.ndarray, score: float, valid: bool = True) -> bool:
        """Keep the plan if it beats the best so far; returns whether it did."""
        key = (bool(valid), float(score))
        if self.best_mask is not None and not better(key, self.best_key):
            return False
        self.best_mask = np.array(mask, dtype=bool)
        self.best_key = key
        self.trace.append((round(self.elapsed(), 4), round(float(score), 6)))
        return True

    def set_bound(self, bound: float) -> None:
        """A proven upper bound on S, known from now on."""
        self.upper_bound = float(bound)
        self.bound_trace.append((round(self.elapsed(), 4), self.upper_bound))

    def offer_state(self, st: SearchState) -> bool:
        """Offer the plan of a search state, valid by the SearchState contract; True if it became the best."""
        # states reached by can_*-allowed moves from a valid plan are valid by contract
        return self.offer(st.mask, st.score, True)

    def offer_plan(self, mask: np.ndarray) -> bool:
        """Offer a plan not built by allowed moves (e.g. the MILP's): check it first."""
        mask = np.asarray(mask, dtype=bool)
        return self.offer(mask, self.inst.score_mask(mask)[0], not self.inst.hard_errors(mask))

    def report(self, fraction: float) -> None:
        """Progress = the larger of work done and time used; calls back at 1 % steps."""
        if self._progress is None:
            return
        f = min(1.0, max(fraction, self.elapsed() / self.time_limit if self.time_limit > 0 else 1.0))
        if f >= self._reported + 0.01 or (f == 1.0 and self._reported < 1.0):
            self._reported = f
            self._progress(f)

    def final_status(self) -> str:
        """How the run ended: cancelled, a status the solver set (optimal, infeasible …), time_limit or done."""
        if self.cancelled:
            return "cancelled"
        if self.status is not None:
            return self.status
        return "time_limit" if self.timed_out else "done"


def addable(st: SearchState) -> np.ndarray:
    """Indices of candidates that ``st.can_add`` allows (cheap vector prefilter first)."""
    inst = st.inst
    pre = np.flatnonzero(~st.mask & (inst.cost <= inst.budget - st.cost + 1e-9))
    return np.array([i for i in pre if st.can_add(int(i))], dtype=np.int64)


def removable(st: SearchState) -> np.ndarray:
    """Indices of the selected candidates that ``st.can_remove`` allows."""
    return np.array([i for i in st.selected() if st.can_remove(int(i))], dtype=np.int64)


def swappable_in(st: SearchState, out: int) -> np.ndarray:
    """Candidates that may replace ``out`` under ``st.can_swap``."""
    inst = st.inst
    room = inst.budget - st.cost + inst.cost[out] + 1e-9
    pre = np.flatnonzero(~st.mask & (inst.cost <= room))
    return np.array([i for i in pre if st.can_swap(out, int(i))], dtype=np.int64)


def limited(idx: np.ndarray, limit: int | None, rng: np.random.Generator) -> np.ndarray:
    """At most ``limit`` of ``idx``, sampled without replacement (sorted, for stable scans)."""
    if limit is None or len(idx) <= limit:
        return idx
    return np.sort(rng.choice(idx, size=limit, replace=False))
