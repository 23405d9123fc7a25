"""Needs and budgets said in words: a need a plan leaves unmet, a budget below what a need costs,
and a type chosen beyond its need.

A need is ``data["need"]`` (type -> count) over candidates with a ``type`` column (land
allocation; a task without needs gets no lines). The least budget that meets a set of needs is
a min-cost MILP (scipy / HiGHS), exact: minimise Σ cost_i·x_i subject to Σ_{type t} x_i ≥ need_t
for every type, at most one candidate per exclusive group (a parcel holds one type) and at most
``max_select`` candidates; x binary.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import csr_matrix


def needs_of(inst) -> dict[str, int]:
    """The instance's positive needs (type -> count); empty for a task without needs."""
    need = inst.data.get("need") if isinstance(inst.data, dict) else None
    if not need or "type" not in inst.candidates:
        return {}
    return {str(t): int(n) for t, n in need.items() if int(n) > 0}


def least_budget(inst, need: dict[str, int]) -> float | None:
    """The least total cost of a plan that meets every need of ``need`` (None: no plan can)."""
    if not need:
        return 0.0
    types = inst.candidates["type"].astype(str).to_numpy()
    rows, lb = [], []
    for t, n in need.items():
        rows.append((types == t).astype(float))
        lb.append(float(n))
    cons = [LinearConstraint(np.array(rows), lb, np.inf), LinearConstraint(np.ones((1, inst.n)), 0, inst.max_select)]
    g = inst.group
    if (g >= 0).any():
        cols = np.flatnonzero(g >= 0)
        a = csr_matrix((np.ones(len(cols)), (g[cols], cols)), shape=(int(g.max()) + 1, inst.n))
        cons.append(LinearConstraint(a, 0, 1))
    res = milp(inst.cost, constraints=cons, integrality=np.ones(inst.n), bounds=Bounds(0, 1),
               options={"time_limit": 30})
    if res.x is None or res.status not in (0, 1):
        return None
    return float(inst.cost[np.round(res.x) > 0.5].sum())


def _k(x: float) -> str:
    return f"{x:,.0f} k€"


def cheapest(inst, t: str) -> float | None:
    types = inst.candidates["type"].astype(str).to_numpy()
    costs = inst.cost[types == t]
    return float(costs.min()) if len(costs) else None


def budget_warnings(inst) -> list[str]:
    """At build time: each need the budget cannot buy, with the cheapest candidate and the least
    budget that meets every need."""
    need = needs_of(inst)
    out = []
    for t, n in need.items():
        c = cheapest(inst, t)
        if c is None:
            out.append(f"need {t}={n} cannot be met: no candidate can hold a {t}")
        elif c > inst.budget + 1e-9:
            out.append(f"need {t}={n}: the cheapest {t} costs {_k(c)}, above the budget of {_k(inst.budget)}")
    if out:
        least = least_budget(inst, {t: n for t, n in need.items() if cheapest(inst, t) is not None})
        if least is not None and least > inst.budget + 1e-9:
            out.append(f"a budget of {_k(least)} meets every need that candidates can meet (now {_k(inst.budget)})")
    return out


def with_budget_for_needs(inst, automatic: bool):
    """(instance, warnings) at build time in plan mode: ``budget_warnings``, and when the budget
    was the task's default (``automatic``) and buys less than the needs, the budget raised to the
    least that meets every need candidates can meet (an empty plan scored 0 answers no one)."""
    lines = budget_warnings(inst)
    need = needs_of(inst)
    if not (automatic and lines and need):
        return inst, lines
    least = least_budget(inst, {t: n for t, n in need.items() if cheapest(inst, t) is not None})
    if least is None or least <= inst.budget + 1e-9:
        return inst, lines
    d = inst.to_export()
    d["budget"] = round(least, 1)
    raised = type(inst).from_export(d)
    return raised, [f"the default budget of {_k(inst.budget)} buys none of the needed {', '.join(need)}: raised to "
                    f"{_k(least)}, the least that meets every need (give --budget to set your own)"]


def plan_warnings(inst, ids: Iterable[str], contributions: dict[str, float] | None = None) -> list[str]:
    """After a plan: each need it leaves unmet (the cheapest qualifying candidate and the least
    budget that meets the need, or that no candidate can), and each type chosen beyond its need
    with what it adds to the score."""
    need = needs_of(inst)
    if "type" not in inst.candidates:
        return []
    index = {i: k for k, i in enumerate(inst.ids)}
    rows = [index[i] for i in dict.fromkeys(ids) if i in index]
    types = inst.candidates["type"].astype(str).to_numpy()
    chosen: dict[str, list[int]] = {}
    for r in rows:
        chosen.setdefault(types[r], []).append(r)
    out: list[str] = []
    for t, n in need.items():
        have = len(chosen.get(t, []))
        if have >= n:
            continue
        c = cheapest(inst, t)
        if c is None:
            out.append(f"need {t}={n} not met ({have} in the plan): no candidate can meet it")
            continue
        least = least_budget(inst, {t: n})
        tail = f"a budget of {_k(least)} meets it" if least is not None else \
            f"no plan within the step limit of {inst.max_select} meets it"
        out.append(f"need {t}={n} not met ({have} in the plan): the cheapest {t} costs {_k(c)}; {tail}")
    contributions = contributions or {}
    all_need = {str(t): int(v) for t, v in (inst.data.get("need") or {}).items()}
    why = getattr(inst, "why_chosen", None)   # the task's own reason per type (land: the access it alone adds)
    mask = np.zeros(inst.n, dtype=bool)
    mask[rows] = True
    for t, rs in chosen.items():
        extra = len(rs) - all_need.get(t, 0)
        if t in all_need and extra > 0:
            gain = sum(float(contributions.get(inst.ids[r], 0.0)) for r in rs)
            reason = why(mask, np.array(rs)) if why is not None else "chosen for the access and ecology terms"
            out.append(f"{t}: {len(rs)} chosen beyond the need of {all_need.get(t, 0)}: {reason}; together they add "
                       f"{gain:+.4f} to the score, over-need penalty included")
    return out

