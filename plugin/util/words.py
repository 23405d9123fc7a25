"""Numbers as a planner reads them: one place that formats percentages (the gap above all),
money and distances, and the one-sentence summary of a solved plan.

Processing feedback, REPORT.html, the Planner dock and the instruction panel all call these,
so a gap reads the same everywhere ("gap 6.6 %", never "gap -0.0 %" nor "gap=0.0661…").
Money is in k€ (every instance's budget and costs are), distances in metres.
"""
from __future__ import annotations

from typing import Any, Iterable

DASH = "–"


def percent(fraction: float | None, digits: int = 1) -> str:
    """0.0661 → "6.6 %"; a value that rounds to zero is "0.0 %" (never "-0.0 %"); None → "–"."""
    if fraction is None:
        return DASH
    value = round(100.0 * float(fraction), digits) + 0.0   # + 0.0 turns -0.0 into 0.0
    return f"{value:.{digits}f} %"


def gap_text(gap: float | None, digits: int = 1) -> str:
    """"gap 6.6 %", or "gap unknown (no bound yet)" when no bound was certified."""
    return "gap unknown (no bound yet)" if gap is None else f"gap {percent(gap, digits)}"


def keur(value: float | None, digits: int = 1) -> str:
    """657.1 → "657.1 k€" (the unit of every budget and cost)."""
    return DASH if value is None else f"{float(value):,.{digits}f} k€".replace(",", " ")


def metres(value: float | None) -> str:
    """Whole metres below 1 km ("300 m"), kilometres with one decimal above ("1.2 km")."""
    if value is None:
        return DASH
    v = float(value)
    return f"{v / 1000:.1f} km" if abs(v) >= 1000 else f"{round(v) + 0:d} m"


def score(value: float | None) -> str:
    return DASH if value is None else f"{float(value):.4f}"


def result_sentence(row: dict[str, Any], budget: float | None = None, cost_ratio: float | None = None,
                    candidates: int | None = None) -> str:
    """The result of one solver run in words: validity, score against the bound with the gap,
    what was selected, how long it took and what it spends.

    ``row``: method, valid, score, upper_bound, gap, selected, seconds (missing keys are left out)."""
    state = "valid" if row.get("valid") else "INVALID"
    parts = [f"The plan is {state}: score {score(row.get('score'))}"]
    if row.get("upper_bound") is not None:
        parts[-1] += f", at most {score(row['upper_bound'])} is possible (proven bound), {gap_text(row.get('gap'))}"
    else:
        parts[-1] += ", no bound certified (the default or milp method proves one)"
    sel = row.get("selected")
    if sel is not None:
        of = f" of {candidates} candidates" if candidates is not None else ""
        by = f" by {row['method']}" if row.get("method") else ""
        took = f" in {float(row['seconds']):.1f} s" if row.get("seconds") is not None else ""
        parts.append(f"{sel} selected{of}{by}{took}")
    if budget is not None and cost_ratio is not None:
        parts.append(f"it spends {keur(cost_ratio * budget)} of the {keur(budget)} budget ({percent(cost_ratio, 0)})")
    return "; ".join(parts) + "."


def sites_sentence(labels: Iterable[str], limit: int = 12) -> str:
    """"Sites: s07 on Mannerheimintie; s12 on Bulevardi (and 3 more)." ('' for none)."""
    labels = list(labels)
    if not labels:
        return ""
    more = f" (and {len(labels) - limit} more)" if len(labels) > limit else ""
    return "Sites: " + "; ".join(labels[:limit]) + more + "."


__all__ = ["gap_text", "keur", "metres", "percent", "result_sentence", "score", "sites_sentence"]
