"""The one interface every planning task implements.

An ``Instance`` holds a finite candidate set C (rows of ``candidates``), a budget, a step
limit and the task data needed to score a plan. A plan is a set of candidate ids; inside the
solvers it is a boolean mask over the candidate rows.

Evaluator convention (docs/reference.md#the-evaluator-convention):
* submitted ids are mapped to candidates; unknown ids are hard errors (the plan is invalid);
* duplicated ids are removed before scoring (a warning names them);
* hard constraints Ψ: total cost ≤ budget, number selected ≤ max_select, at most one
  candidate per exclusive ``group`` (same parcel in land allocation, same site in station
  placement), plus task-specific checks (``task_errors``);
* the score S is computed for every plan (so an agent sees how far an invalid plan is),
  but only a plan with Ψ = 1 is ``valid``; rewards use S if valid else R_fail.

Search code never calls ``evaluate`` in its inner loop: it uses a ``SearchState``
(incremental add / remove / swap) and a plan is valid iff every move was ``can_*``.
"""
from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

import numpy as np
import pandas as pd

MAX_IDS = 100_000  # a plan longer than this is rejected unread (a million-id plan is an attack or a bug)
SIZES = ("small", "medium", "large")
#: the sizes an instance can be built at: the paper's three, and every eligible candidate of the area
BUILD_SIZES = SIZES + ("all",)
#: how an instance is built (docs/modes.md): ``benchmark`` = the paper's recipe (the suites; links
#: cut and rebuilt, vacant faces sampled, sites at junctions); ``plan`` = the planner's question of
#: the planner's city (the network stays, vacancy measured, chargers on the curb)
MODES = ("benchmark", "plan")


def check_mode(mode: str) -> str:
    """``mode`` if it is one of MODES, else a one-line InputError."""
    if mode not in MODES:
        from ..errors import InputError

        raise InputError(f"unknown mode '{mode}' (choose {', '.join(MODES)})")
    return mode


def mode_of(inst: Instance) -> str:
    """The mode an instance was built in (benchmark instances carry no ``mode`` in their meta,
    so that their export stays as it was before modes existed)."""
    return str(inst.meta.get("mode", "benchmark"))


@dataclass
class Evaluation:
    """What the evaluator returns (docs/design.md#contracts)."""

    valid: bool
    score: float | None
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    metrics: dict[str, float] = field(default_factory=dict)
    cost_ratio: float = 0.0
    candidate_ids: list[str] = field(default_factory=list)
    binding: str | None = None          # the constraint that stops the plan from growing
    contributions: dict[str, float] = field(default_factory=dict)  # id -> S(P) - S(P \ {id})

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class SearchState(ABC):
    """Incremental evaluation of one plan (a boolean mask), used by every solver.

    ``gain_*`` return the score change of a move without applying it; ``can_*`` say whether
    the move keeps Ψ (budget, step limit, groups, task rules). A state built from a valid
    plan and changed only by allowed moves stays valid: this is how solvers guarantee that
    they never return an infeasible plan labelled valid.
    """

    def __init__(self, inst: Instance, mask: np.ndarray | None = None):
        self.inst = inst
        self.mask = np.zeros(inst.n, dtype=bool) if mask is None else np.asarray(mask, dtype=bool).copy()
        self.cost = float(inst.cost[self.mask].sum())
        self.count = int(self.mask.sum())
        self._group_used = np.zeros(inst.n_groups, dtype=np.int32)
        np.add.at(self._group_used, inst.group[self.mask & (inst.group >= 0)], 1)

    # ---- feasibility (generic part; tasks with extra rules override and call super) ----
    def can_add(self, i: int) -> bool:
        inst = self.inst
        if self.mask[i] or self.count + 1 > inst.max_select:
            return False
        if self.cost + inst.cost[i] > inst.budget + 1e-9:
            return False
        g = inst.group[i]
        return g < 0 or self._group_used[g] == 0

    def can_remove(self, i: int) -> bool:
        return bool(self.mask[i])

    def can_swap(self, out: int, inn: int) -> bool:
        inst = self.inst
        if not self.mask[out] or self.mask[inn]:
            return False
        if self.cost - inst.cost[out] + inst.cost[inn] > inst.budget + 1e-9:
            return False
        g = inst.group[inn]
        return g < 0 or self._group_used[g] == 0 or g == inst.group[out]

    # ---- moves: subclasses extend these to update their aggregates, then call super ----
    def add(self, i: int) -> None:
        self.mask[i] = True
        self.cost += float(self.inst.cost[i])
        self.count += 1
        g = self.inst.group[i]
        if g >= 0:
            self._group_used[g] += 1

    def remove(self, i: int) -> None:
        self.mask[i] = False
        self.cost -= float(self.inst.cost[i])
        self.count -= 1
        g = self.inst.group[i]
        if g >= 0:
            self._group_used[g] -= 1

    def swap(self, out: int, inn: int) -> None:
        self.remove(out)
        self.add(inn)

    def gain_swap(self, out: int, inn: int) -> float:
        """Default: apply, measure, undo. Tasks override with a cheaper formula where they can."""
        before = self.score
        self.swap(out, inn)
        after = self.score
        self.swap(inn, out)
        return after - before

    @property
    @abstractmethod
    def score(self) -> float:
        """S of the current mask (identical to ``inst.score_mask(mask)[0]``)."""

    @abstractmethod
    def gain_add(self, i: int) -> float: ...

    @abstractmethod
    def gain_remove(self, i: int) -> float: ...

    def copy(self) -> SearchState:
        return type(self)(self.inst, self.mask)

    def selected(self) -> np.ndarray:
        return np.flatnonzero(self.mask)


class Instance(ABC):
    """A planning instance. Subclasses set ``task`` and implement the abstract methods.

    Attributes common to all tasks:
      instance_id  str, unique name (region-task-size-window-seed)
      candidates   DataFrame, one row per candidate, column ``id`` (str) first, ``cost``,
                   ``group`` (int, -1 = none), plus task columns and ``wkt`` (geometry in
                   ``crs``) — this table is what candidates.csv/json and layers show
      budget       float
      max_select   int, the step limit (largest allowed plan size)
      crs          str, metric CRS of every coordinate in the instance
      meta         dict, JSON-serialisable (region, window, seed, size, parameters)
      data         dict, JSON-serialisable task data (demand, graph, distances ...)
    """

    task: ClassVar[str]
    #: component names in the order the score formula lists them
    components: ClassVar[tuple[str, ...]] = ()
    #: reward for an invalid plan (paper: R_fail)
    r_fail: ClassVar[float] = -1.0

    def __init__(self, instance_id: str, candidates: pd.DataFrame, budget: float, max_select: int,
                 crs: str, meta: dict, data: dict):
        self.instance_id = instance_id
        self.candidates = candidates.reset_index(drop=True)
        self.budget = float(budget)
        self.max_select = int(max_select)
        self.crs = crs
        self.meta = meta
        self.data = data
        self.ids: list[str] = [str(x) for x in self.candidates["id"]]
        self.index: dict[str, int] = {cid: i for i, cid in enumerate(self.ids)}
        self.cost = self.candidates["cost"].to_numpy(dtype=float)
        self.group = self.candidates["group"].to_numpy(dtype=np.int64) if "group" in self.candidates else np.full(self.n, -1)
        self.n_groups = int(self.group.max()) + 1 if self.n and self.group.max() >= 0 else 0
        self._prepare()

    # ------------------------------------------------------------------ task hooks
    def _prepare(self) -> None:  # noqa: B027 - an optional hook: a task without arrays to precompute keeps it
        """Precompute arrays from ``data`` (called once by __init__)."""

    @classmethod
    @abstractmethod
    def build(cls, city, size: str = "small", seed: int = 0, budget: float | None = None,
              mode: str = "benchmark", **params: Any) -> Instance:
        """Build an instance from a ``plugin.city.City`` (or a window of one) in ``mode`` (MODES)."""

    @abstractmethod
    def score_mask(self, mask: np.ndarray) -> tuple[float, dict[str, float], list[str]]:
        """Full evaluation: (S, named components incl. penalties, warnings)."""

    @abstractmethod
    def state(self, mask: np.ndarray | None = None) -> SearchState:
        """A fast incremental SearchState for this instance."""

    def task_errors(self, mask: np.ndarray) -> list[str]:
        """Task-specific hard violations beyond budget / step limit / groups (default none)."""
        return []

    def describe(self) -> str:
        """The exact score formula in words; goes into the workspace README."""
        return (self.__doc__ or "").strip()

    # ------------------------------------------------------------------ generic
    @property
    def n(self) -> int:
        return len(self.candidates)

    def mask_of(self, ids: Iterable[str]) -> np.ndarray:
        m = np.zeros(self.n, dtype=bool)
        m[[self.index[i] for i in ids]] = True
        return m

    def ids_of(self, mask: np.ndarray) -> list[str]:
        return [self.ids[i] for i in np.flatnonzero(mask)]

    def hard_errors(self, mask: np.ndarray) -> list[str]:
        errs = []
        cost = float(self.cost[mask].sum())
        if cost > self.budget + 1e-9:
            errs.append(f"budget exceeded: cost {cost:.1f} > budget {self.budget:.1f}")
        k = int(mask.sum())
        if k > self.max_select:
            errs.append(f"too many candidates: {k} selected > step limit {self.max_select}")
        sel = np.flatnonzero(mask & (self.group >= 0))
        if len(sel):
            groups = pd.Series(self.group[sel], index=sel)
            for g, rows in groups.groupby(groups).groups.items():
                if len(rows) > 1:
                    errs.append(f"conflict: {', '.join(self.ids[r] for r in rows)} share {self.group_label(int(g))}")
        return errs + self.task_errors(mask)

    def group_label(self, g: int) -> str:
        return f"group {g}"

    def binding_constraint(self, mask: np.ndarray) -> str | None:
        """Which limit stops the plan from growing: budget, step limit, or none."""
        free = ~mask
        if int(mask.sum()) >= self.max_select:
            return "step_limit"
        remaining = self.budget - float(self.cost[mask].sum())
        if free.any() and not (self.cost[free] <= remaining + 1e-9).any():
            return "budget"
        return None

    def contributions(self, mask: np.ndarray) -> dict[str, float]:
        st = self.state(mask)
        return {self.ids[i]: -st.gain_remove(i) for i in np.flatnonzero(mask)}

    def evaluate(self, ids: Any) -> Evaluation:
        """Evaluate a submitted plan (list of ids as parsed from JSON). Never raises on bad ids."""
        errors: list[str] = []
        warnings: list[str] = []
        if not isinstance(ids, list):
            return Evaluation(False, None, [f"candidate_ids must be a list, got {type(ids).__name__}"])
        if len(ids) > MAX_IDS:
            return Evaluation(False, None, [f"too many ids: {len(ids)} > {MAX_IDS}"])
        seen: dict[str, None] = {}
        dups, unknown, bad = [], [], []
        for x in ids:
            if not isinstance(x, (str, int)) or isinstance(x, bool):
                bad.append(repr(x)[:40])
                continue
            s = str(x)
            if s not in self.index:
                unknown.append(s[:40])
            elif s in seen:
                dups.append(s)
            else:
                seen[s] = None
        if bad:
            errors.append(f"ids must be strings: {', '.join(bad[:10])}{' ...' if len(bad) > 10 else ''}")
        if unknown:
            errors.append(f"unknown candidate ids: {', '.join(unknown[:10])}{' ...' if len(unknown) > 10 else ''}")
        if dups:
            warnings.append(f"duplicate ids removed: {', '.join(sorted(set(dups))[:10])}")
        kept = list(seen)
        mask = self.mask_of(kept)
        errors += self.hard_errors(mask)
        score, metrics, w = self.score_mask(mask)
        warnings += w
        if not kept:
            warnings.append("empty plan")
        return Evaluation(
            valid=not errors,
            score=round(float(score), 6),
            errors=errors,
            warnings=warnings,
            metrics={k: round(float(v), 6) for k, v in metrics.items()},
            cost_ratio=round(float(self.cost[mask].sum()) / self.budget, 6) if self.budget > 0 else 0.0,
            candidate_ids=kept,
            binding=self.binding_constraint(mask),
            contributions={k: round(v, 6) for k, v in self.contributions(mask).items()},
        )

    def reward(self, ev: Evaluation) -> float:
        """Paper's reward: S if valid else R_fail."""
        return float(ev.score) if ev.valid and ev.score is not None else self.r_fail

    # ------------------------------------------------------------------ serialisation
    def to_export(self) -> dict[str, Any]:
        """Complete, JSON-serialisable instance: ``from_export(to_export())`` scores identically."""
        return {
            "task": self.task,
            "instance_id": self.instance_id,
            "budget": self.budget,
            "max_select": self.max_select,
            "crs": self.crs,
            "meta": self.meta,
            "candidates": json.loads(self.candidates.to_json(orient="records")),
            "data": self.data,
        }

    @classmethod
    def from_export(cls, d: dict[str, Any]) -> Instance:
        return cls(d["instance_id"], pd.DataFrame(d["candidates"]), d["budget"], d["max_select"],
                   d["crs"], d["meta"], d["data"])
