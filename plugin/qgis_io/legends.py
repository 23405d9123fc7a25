"""Plain-language words for what the dock, the reports and the map legends show.

The score formulas are the tasks' (plugin/tasks/*/task.py docstrings); this module only says
in words what each term measures, so a planner can read "score 0.37" as a sentence.
"""
from __future__ import annotations

from typing import Any

COLUMN_HELP = {
    "goal": "the method that made the plan (for the agent: its BuildPlan / ImprovePlan step)",
    "round": "the agent's ImprovePlan round (1 for a solver run)",
    "valid": "does the plan keep every hard rule — budget, step limit, one choice per site or parcel, "
             "and your instructions? An invalid plan never replaces a valid one",
    "score": "the evaluator's score S of the plan: higher is better",
    "bound": "a proven upper bound on S (from the exact MILP of a 'default' or 'milp' run): no plan can "
             "score more. Empty until such a run has certified one",
    "gap": "(bound − score) / bound: how far this plan is below the best possible score; 0 % = proven optimal",
    "diagnostics": "the evaluator's errors (why a plan is invalid) and warnings",
}

#: per task: the score formula and, per term, (metric key, weight sign, words)
TERMS: dict[str, tuple[str, tuple[tuple[str, float, str], ...]]] = {
    "station": ("S = 0.50·coverage + 0.25·access + 0.15·service time − 0.20·budget share − penalties", (
        ("coverage", 0.50, "share of the EV charging demand within reach of a station"),
        ("access", 0.25, "how close that demand is to its station (1 = at the door)"),
        ("service_time", 0.15, "share of drivers' time spent charging rather than queueing"),
        ("cost_ratio", -0.20, "share of the budget spent"),
        ("penalty", -1.0, "penalties for overloaded stations and unserved demand"),
    )),
    "land": ("S = 0.6·need met + 0.3·access − 0.2·budget share − penalties", (
        ("R", 0.6, "how well the plan meets the needed number of parcels of each land use"),
        ("A", 0.3, "residents' access: (5 × services within 500 m + green within 300 m) / 6"),
        ("rho", -0.2, "share of the budget spent"),
        ("V", -1.0, "penalty for building more of a type than needed"),
    )),
    "road": ("S = network quality − 0.1·budget share − penalties", (
        ("Q", 1.0, "network quality: when every pair of neighbourhoods is connected, how short the trips "
                   "are compared with building every candidate (1 = as short); otherwise the share of "
                   "pairs connected minus 1"),
        ("rho", -0.1, "share of the budget spent"),
        ("V", -1.0, "penalty for new links that cross each other"),
    )),
}


def score_terms(task: str, metrics: dict[str, Any]) -> list[dict[str, Any]]:
    """The score's terms as rows: term (words), weight, value, contribution (weight × value)."""
    if task not in TERMS:
        return []
    return [{"term": words, "weight": weight, "value": float(metrics[key]),
             "contribution": weight * float(metrics[key])}
            for key, weight, words in TERMS[task][1] if metrics.get(key) is not None]


def explain_score(task: str, metrics: dict[str, Any], score: float | None) -> str:
    """One paragraph: the score as the sum of its terms, each term in words with its value."""
    if task not in TERMS or score is None:
        return ""
    formula, terms = TERMS[task]
    parts = []
    for key, weight, words in terms:
        value = metrics.get(key)
        if value is None:
            continue
        sign = "+" if weight > 0 else "−"
        w = "" if abs(weight) == 1 else f"{abs(weight):g} × "
        parts.append(f"{sign} {w}{float(value):.3f} ({words})")
    body = " ".join(parts).lstrip("+ ")
    return f"Score {score:.4f} = {body}. Formula: {formula}."
