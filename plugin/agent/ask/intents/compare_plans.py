"""``compare_plans``: plans of two kinds, each with its budget, and which scores better
("Compare roads at 200k vs chargers at 300k in Kotka")."""
from __future__ import annotations

from typing import Any

from ..synthesis import TASK_LABEL, plan_lines
from .base import Calls, Facts, Intent, Step
from .plan import Plan, plan_calls


class ComparePlans(Intent):
    name = "compare_plans"
    rules = ("compare_plans.kinds", "plan.kinds")
    follows = ("compare_plans.follows", "compare_plans.money-before")   # "… Compare both plans' scores and recommend one"
    needs = ()
    tools = Plan.tools

    def missing(self, slots: dict[str, Any]) -> list[str]:
        """"station vs road plan — which is better?": a plan without its amount is asked for, not guessed."""
        return ["the budget (k€)"] if any(p.get("budget") is None for p in slots.get("plans", ())) else []

    def calls(self, step: Step) -> Calls:
        calls: list[tuple[str, dict]] = []
        for p in step.slots["plans"]:
            calls += plan_calls(step, p["task"], p["budget"], "small")
        return calls, None

    def facts(self, f: Facts) -> list[str]:
        out: list[str] = []
        scores = []
        for p in f.s["plans"]:
            ws = f"{f.region}-{p['task']}-{p['budget']:g}k-small"
            pobs = [o for o in f.obs if o.params.get("workspace") == ws]
            out.extend(plan_lines(p["task"], p["budget"], pobs, f.idx, show_sites=False))
            ev = next((o.result for o in pobs if o.ok and o.tool == "evaluate_plan"), None)
            if ev and ev.get("score") is not None:
                scores.append((ev["score"], p))
        if len(scores) >= 2:
            best = max(scores, key=lambda x: x[0])
            out.append(f"The {TASK_LABEL[best[1]['task']]} plan scores better ({best[0]} vs "
                       f"{', '.join(str(x[0]) for x in scores if x is not best)}); scores of different "
                       "tasks measure different things.")
        return out
