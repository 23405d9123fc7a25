"""Plain-language words for what the dock, the reports and the map legends show.

The score formulas are the tasks' (plugin/tasks/*/task.py docstrings); each task's spec
(plugin/tasks/*/spec.py) says in words what each term measures, so a planner can read
"score 0.37" as a sentence.
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

def score_terms(task: str, metrics: dict[str, Any]) -> list[dict[str, Any]]:
    """The score's terms as rows: term (words), weight, value, contribution (weight × value)."""
    from ..tasks.registry import REGISTRY, spec

    if task not in REGISTRY:
        return []
    return [{"term": t.words, "weight": t.weight, "value": float(metrics[t.key]),
             "contribution": t.weight * float(metrics[t.key])}
            for t in spec(task).legend if metrics.get(t.key) is not None]


def explain_score(task: str, metrics: dict[str, Any], score: float | None) -> str:
    """One paragraph: the score as the sum of its terms, each term in words with its value."""
    from ..tasks.registry import REGISTRY, spec

    if task not in REGISTRY or score is None:   # a task outside the registry (a test's toy) has no words
        return ""
    formula, terms = spec(task).score_formula, spec(task).legend
    parts = []
    for term in terms:
        key, weight, words = term.key, term.weight, term.words
        value = metrics.get(key)
        if value is None:
            continue
        sign = "+" if weight > 0 else "−"
        w = "" if abs(weight) == 1 else f"{abs(weight):g} × "
        parts.append(f"{sign} {w}{float(value):.3f} ({words})")
    body = " ".join(parts).lstrip("+ ")
    return f"Score {score:.4f} = {body}. Formula: {formula}."
