"""An Instance with a compiled constraint set: the same task, with the instructions as Ψ.

``constrain(inst, compiled)`` returns a copy of ``inst`` whose class is a subclass of the
task class made once per task, so every solver, the MILP and the evaluator see one object:
* ``hard_errors`` adds one named violation per broken instruction (the evaluator's Ψ);
* ``state()`` returns the task's SearchState extended with r = A·y: a move that would break
  a row is refused (``can_*``); an empty start is repaired first (each unmet lower row gets
  its best allowed candidate), so search starts valid whenever that is possible;
* ``score_mask`` is the optimised objective S + emphasis (= S without emphasis); the
  evaluator still reports S as ``score`` and the objective as ``metrics.objective``;
* ``milp_extension`` hands the rows and the emphasis to the task MILP
  (``plugin.solvers.milp.run_highs``), so the certified bound holds for the constrained problem.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.optimize import LinearConstraint
from scipy.sparse import csr_matrix, hstack

from ..tasks.base import Evaluation, Instance, SearchState
from .compile import Compiled

_INSTANCE_CLASSES: dict[type, type] = {}
_STATE_CLASSES: dict[type, type] = {}


def constrain(inst: Instance, compiled: Compiled) -> Instance:
    """``inst`` under ``compiled`` (``inst`` itself when there is nothing to enforce)."""
    base = getattr(inst, "unconstrained", inst)
    if compiled.empty:
        return base
    cls = _INSTANCE_CLASSES.get(type(base))
    if cls is None:
        cls = type(f"Constrained{type(base).__name__}", (ConstrainedMixin, type(base)), {})
        _INSTANCE_CLASSES[type(base)] = cls
    out = rebrand(base, cls)
    out.compiled = compiled
    out.unconstrained = base
    return out


def rebrand(obj: Any, cls: type) -> Any:
    """A shallow copy of ``obj`` as an instance of ``cls`` (a subclass of its class); attributes
    are shared, as with ``copy.copy`` (``__class__`` assignment refuses subclasses that add a dict)."""
    out = cls.__new__(cls)
    for klass in type(obj).__mro__:
        for name in getattr(klass, "__slots__", ()):
            if name not in ("__dict__", "__weakref__") and hasattr(obj, name):
                object.__setattr__(out, name, getattr(obj, name))
    if hasattr(obj, "__dict__"):
        out.__dict__.update(obj.__dict__)
    return out


def _state_class(base: type) -> type:
    cls = _STATE_CLASSES.get(base)
    if cls is None:
        cls = type(f"Constrained{base.__name__}", (ConstrainedState, base), {})
        _STATE_CLASSES[base] = cls
    return cls


class ConstrainedMixin:
    compiled: Compiled
    unconstrained: Instance

    def hard_errors(self, mask: np.ndarray) -> list[str]:
        return super().hard_errors(mask) + self.compiled.violations(mask, self.ids)

    def score_mask(self, mask: np.ndarray) -> tuple[float, dict[str, float], list[str]]:
        s, metrics, warnings = super().score_mask(mask)
        extra = self.compiled.extra(np.asarray(mask, dtype=bool))
        if len(self.compiled.emphasis):
            metrics = {**metrics, "original_score": s, "objective": s + extra}
        return s + extra, metrics, warnings

    def evaluate(self, ids: Any) -> Evaluation:
        ev = super().evaluate(ids)
        if "original_score" in ev.metrics:   # the reported score stays the task's S
            ev.score = ev.metrics.pop("original_score")
        return ev

    def state(self, mask: np.ndarray | None = None) -> SearchState:
        st = super().state(None if mask is None else mask)
        st = rebrand(st, _state_class(type(st)))
        st.r = self.compiled.rows_of(st.mask)
        if mask is None:
            st.repair()
        return st

    def milp_extension(self) -> Callable:
        return milp_extension(self.compiled)


class ConstrainedState:
    """Mixed in before a task's SearchState: keeps r = A·y and refuses moves that break a row."""

    r: np.ndarray

    def __init__(self, inst: Instance, mask: np.ndarray | None = None):
        super().__init__(inst, mask)
        self.r = inst.compiled.rows_of(self.mask)

    def _col(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        A = self.inst.compiled.A
        return A.indices[A.indptr[i]:A.indptr[i + 1]], A.data[A.indptr[i]:A.indptr[i + 1]]

    def _fits(self, delta_rows: np.ndarray, delta: np.ndarray) -> bool:
        c = self.inst.compiled
        new = self.r[delta_rows] + delta
        return bool(((new <= c.hi[delta_rows] + 1e-9) & ((new >= c.lo[delta_rows] - 1e-9) | (delta >= 0))).all())

    def can_add(self, i: int) -> bool:
        return super().can_add(i) and self._fits(*self._col(i))

    def can_remove(self, i: int) -> bool:
        if not super().can_remove(i):
            return False
        rows, vals = self._col(i)
        return self._fits(rows, -vals)

    def can_swap(self, out: int, inn: int) -> bool:
        if not super().can_swap(out, inn):
            return False
        (ro, vo), (ri, vi) = self._col(out), self._col(inn)
        rows = np.concatenate([ro, ri])
        d = np.concatenate([-vo, vi])
        u, inv = np.unique(rows, return_inverse=True)
        return self._fits(u, np.bincount(inv, weights=d, minlength=len(u)))

    def add(self, i: int) -> None:
        super().add(i)
        rows, vals = self._col(i)
        self.r[rows] += vals

    def remove(self, i: int) -> None:
        super().remove(i)
        rows, vals = self._col(i)
        self.r[rows] -= vals

    @property
    def score(self) -> float:
        return super().score + self.inst.compiled.extra(self.mask)

    def gain_add(self, i: int) -> float:
        e = self.inst.compiled.emphasis
        return super().gain_add(i) + (float(e[i]) if len(e) else 0.0)

    def gain_remove(self, i: int) -> float:
        e = self.inst.compiled.emphasis
        return super().gain_remove(i) - (float(e[i]) if len(e) else 0.0)

    def gain_swap(self, out: int, inn: int) -> float:
        e = self.inst.compiled.emphasis
        return super().gain_swap(out, inn) + (float(e[inn] - e[out]) if len(e) else 0.0)

    def repair(self) -> None:
        """Meet every lower row from the empty plan: add, row by row, the allowed member with
        the best gain. A row that no allowed move can meet stays unmet (the evaluator names it)."""
        c = self.inst.compiled
        for row in np.flatnonzero(np.isfinite(c.lo) & (c.lo > 0)):
            members = c.A.getrow(row).indices
            while self.r[row] < c.lo[row] - 1e-9:
                ok = [i for i in members if not self.mask[i] and self.can_add(i)]
                if not ok:
                    break
                self.add(max(ok, key=self.gain_add))


def milp_extension(compiled: Compiled) -> Callable:
    """(c, constraints, integrality, bounds) -> the same with the rows appended on the first n
    variables and the emphasis in the minimised objective, plus the objective offset that the
    dual bound must carry (``plugin.solvers.milp.run_highs``)."""

    def extend(c: np.ndarray, constraints, integrality, bounds):
        n, nv = compiled.n, len(c)
        cons = list(constraints) if isinstance(constraints, (list, tuple)) else [constraints]
        if compiled.A.shape[0]:
            A = hstack([compiled.A, csr_matrix((compiled.A.shape[0], nv - n))]).tocsr()
            cons.append(LinearConstraint(A, compiled.lo, compiled.hi))
        c = np.array(c, dtype=float)
        if len(compiled.emphasis):
            c[:n] -= compiled.emphasis
        return c, cons, integrality, bounds, compiled.offset

    return extend
