"""A tiny covering task used by tests of the generic machinery (sandbox, solvers).

Candidates cover demand points; S = covered demand share − 0.2·ρ. Small enough to
enumerate every plan, rich enough to have budget, step-limit and group conflicts.
Register it in a test with ``register(monkeypatch)`` (its spec in the task registry; ``milp=True``
also gives it the toy MILP of ``tests.core.toy_milp``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cityplanner.plugin.tasks.base import Instance, SearchState
from cityplanner.plugin.tasks.spec import TaskSpec, Term


class ToyCover(Instance):
    """S = Σ_j w_j·[j covered] / Σ_j w_j − 0.2·cost/budget."""

    task = "toy"
    components = ("coverage", "cost_ratio")

    def _prepare(self) -> None:
        self.w = np.asarray(self.data["weights"], dtype=float)
        self.cover = np.zeros((self.n, len(self.w)), dtype=bool)
        for i, js in enumerate(self.data["covers"]):
            self.cover[i, js] = True

    @classmethod
    def build(cls, city=None, size="small", seed=0, budget=None, n=8, m=10, **params):
        rng = np.random.default_rng(seed)
        cands = pd.DataFrame({
            "id": [f"c{i}" for i in range(n)],
            "cost": rng.integers(1, 6, n).astype(float),
            "group": [i // 2 if i < 4 else -1 for i in range(n)],
        })
        covers = [sorted(rng.choice(m, size=rng.integers(1, 4), replace=False).tolist()) for _ in range(n)]
        data = {"weights": rng.integers(1, 5, m).astype(float).tolist(), "covers": covers}
        b = float(budget) if budget is not None else float(cands["cost"].sum()) / 2
        return cls(f"toy-{seed}", cands, b, params.get("max_select", n), "EPSG:3857", {"seed": seed}, data)

    def score_mask(self, mask):
        covered = self.cover[mask].any(axis=0)
        cov = float(self.w[covered].sum() / self.w.sum())
        rho = float(self.cost[mask].sum() / self.budget)
        return cov - 0.2 * rho, {"coverage": cov, "cost_ratio": rho}, []

    def state(self, mask=None):
        return ToyState(self, mask)


class ToyState(SearchState):
    def __init__(self, inst: ToyCover, mask=None):
        super().__init__(inst, mask)
        self.cnt = inst.cover[self.mask].sum(axis=0).astype(np.int64)

    @property
    def score(self) -> float:
        i = self.inst
        return float(i.w[self.cnt > 0].sum() / i.w.sum()) - 0.2 * self.cost / i.budget

    def gain_add(self, k: int) -> float:
        i = self.inst
        new = i.cover[k] & (self.cnt == 0)
        return float(i.w[new].sum() / i.w.sum()) - 0.2 * i.cost[k] / i.budget

    def gain_remove(self, k: int) -> float:
        i = self.inst
        lost = i.cover[k] & (self.cnt == 1)
        return -float(i.w[lost].sum() / i.w.sum()) + 0.2 * i.cost[k] / i.budget

    def add(self, k: int) -> None:
        super().add(k)
        self.cnt += self.inst.cover[k]

    def remove(self, k: int) -> None:
        super().remove(k)
        self.cnt -= self.inst.cover[k]


#: the toy's spec (absolute module paths: it lives outside plugin.tasks)
SPEC = TaskSpec(
    name="toy", title="toy covering", instance="tests.toy_task:ToyCover", candidate_style="candidates_station",
    geometry="point", candidate_layer="one feature per covering candidate", id_word="candidate",
    score_formula="S = coverage − 0.2·budget share", legend=(Term("coverage", 1.0, "covered demand share"),),
    score_terms={"coverage": "coverage"}, score_max=1.0, types=(), site_fields=("id",), milp_module=None, at_scale_n=None,
    scale_sizes=(10,), audit="", audit_checks=(), knobs=(), style="plan_station")


def register(monkeypatch, milp: bool = False) -> None:
    """Register the toy task (and, with ``milp``, its MILP) for one test."""
    import dataclasses
    import sys

    from cityplanner.plugin.tasks import TASKS

    monkeypatch.setitem(TASKS, "toy", "tests.toy_task")
    if milp:
        monkeypatch.setattr(sys.modules[__name__], "SPEC", dataclasses.replace(SPEC, milp_module="tests.core.toy_milp"))
