"""Turn the points of a sweep into curves: monotone repair, bounds, gaps, marginal score, prices.

A smaller budget's plan is feasible for a larger budget, and every task's score
S = … − w·cost/budget is at least as high for one plan at a larger budget. So along one
scenario's curve (budgets ascending):
* **repair**: a point whose plan scores below a smaller budget's plan — re-scored at the
  point's own budget — takes that plan (``repaired_from`` names the budget), so scores never
  fall as the budget grows; the point keeps its own proven bound;
* **bounds**: the optimum is non-decreasing in the budget, so a larger budget's proven bound
  also bounds a smaller budget: each point's bound is the least of its own and those of larger
  budgets;
* ``gap`` = (bound − score) / |bound|, as ``solve`` reports it (a fraction);
* ``marginal_per_100k`` = the score gained per 100 k€ from the previous budget of the curve;
* ``price`` of a scenario at a budget = the base curve's score − the scenario's (S lost to its
  instructions), ``price_pct`` relative to the base (when the base scores above 0).
A point whose gap is above the target (or unknown) says why in ``why``.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..solvers import gap as rel_gap
from ..tasks import Instance

#: the curve's unit of money for the marginal score, k€
PER_KEUR = 100.0

InstanceAt = Callable[[str, float], Instance]


def repair(rows: list[dict[str, Any]], instance_at: InstanceAt) -> None:
    """Monotone repair and bound tightening of each scenario's rows, in place (see module doc)."""
    for scenario in dict.fromkeys(r["scenario"] for r in rows):
        curve = sorted((r for r in rows if r["scenario"] == scenario and not r.get("error")), key=lambda r: r["budget"])
        for k, r in enumerate(curve):
            inst = instance_at(scenario, r["budget"])
            for prev in curve[:k]:
                if not prev["valid"]:
                    continue
                ev = inst.evaluate(list(prev["ids"]))
                if ev.valid and (not r["valid"] or ev.score > r["score"] + 1e-9):
                    r.update(ids=ev.candidate_ids, valid=True, score=ev.score,
                             repaired_from=prev.get("repaired_from") or prev["budget"])
        bound = math.inf
        for r in reversed(curve):
            own = r["upper_bound"]
            if own is not None:
                bound = min(bound, own)
            r["upper_bound"] = None if math.isinf(bound) else round(bound, 6)
            if own is not None and r["upper_bound"] is not None and r["upper_bound"] < own - 1e-9:
                r["bound_from_larger_budget"] = True
            r["gap"] = rel_gap(r["upper_bound"], r["score"]) if r["valid"] else None


def marginals(rows: list[dict[str, Any]]) -> None:
    """``marginal_per_100k`` of each row (None for the first budget of a curve or a missing score)."""
    for scenario in dict.fromkeys(r["scenario"] for r in rows):
        prev = None
        for r in sorted((r for r in rows if r["scenario"] == scenario), key=lambda r: r["budget"]):
            r["marginal_per_100k"] = None
            if prev is not None and r["score"] is not None and prev["score"] is not None and r["budget"] > prev["budget"]:
                r["marginal_per_100k"] = round((r["score"] - prev["score"]) / (r["budget"] - prev["budget"]) * PER_KEUR, 6)
            if r["score"] is not None:
                prev = r


def prices(rows: list[dict[str, Any]], base: str) -> None:
    """``price`` / ``price_pct`` of every non-base row against the base row of the same budget;
    ``price_range``: what the proven bounds allow the exact price to be ([low, high])."""
    by_budget = {r["budget"]: r for r in rows if r["scenario"] == base}
    for r in rows:
        r.setdefault("price", None)
        r.setdefault("price_pct", None)
        b = by_budget.get(r["budget"])
        if r["scenario"] == base or b is None or b["score"] is None or r["score"] is None:
            continue
        r["price"] = round(b["score"] - r["score"], 6)
        # a share of a score at or below zero means nothing (the smallest budgets can score < 0)
        r["price_pct"] = round(100.0 * r["price"] / b["score"], 2) if b["score"] > 0 else None
        if b["upper_bound"] is not None and r["upper_bound"] is not None:
            # exact price = OPT_base − OPT_scenario ∈ [base score − scenario bound, base bound − scenario score]
            r["price_range"] = [round(b["score"] - r["upper_bound"], 6), round(b["upper_bound"] - r["score"], 6)]


def why(row: dict[str, Any], target: float) -> str | None:
    """None when the point's gap is within ``target``; else the reason, in one line."""
    if row.get("error"):
        return f"the point failed: {row['error']}"
    if not row["valid"]:
        return f"no valid plan found within {row['time_limit']:g} s (the instructions may leave none at this budget)"
    g = row["gap"]
    notes = " ".join(row.get("notes") or [])
    if g is not None and g <= target + 1e-12:
        return None
    if g is None:
        detail = next((n for n in row.get("notes") or [] if "milp" in n), "the MILP proved no bound")
        return f"no proven bound: {detail}"
    head = f"gap {100 * g:.2f} % > {100 * target:g} %: "
    if "relaxation" in notes:
        return head + "this task's MILP is a relaxation of the score, so its bound stays above the optimum"
    if "skipped" in notes or "failed" in notes:
        return head + next(n for n in row["notes"] if "skipped" in n or "failed" in n)
    if row.get("status") in ("time_limit", "done") or "time_limit" in notes:
        return head + (f"the {row['time_limit']:g} s time limit ended the MILP before it closed the gap "
                       "(give a longer --time-limit)")
    return head + f"solver status {row.get('status')}"
