"""``plan``: a plan of one kind (chargers, land use, roads) with a budget, built, solved and
evaluated by the plan tools ("Plan new roads with 400k"; "… near Kiasma" holds it to a stored
constraint)."""
from __future__ import annotations

import re
from typing import Any

from ...tools import Observation
from ..synthesis import COORDS_ASKED, plan_lines
from .base import Calls, Facts, Intent, Step

SOLVE_SECONDS = 5.0
#: what a plan's sites are called in an instruction ("at least one site within 500 m of Kiasma")
PLAN_UNIT = {"station": "site", "land": "parcel", "road": "link"}
#: the question when the kind of plan is missing (also asked for money said with no plan: cognition)
KIND_QUESTION = "the kind of plan (land use, roads or charging stations)"


def plan_calls(step: Step, task_name: str, budget: float, size: str,
               near: dict[str, Any] | None = None) -> list[tuple[str, dict]]:
    """Build, [hold to "near X" as a stored constraint], solve, evaluate."""
    region = step.region
    # a workspace per (task, budget): two plans of one request never overwrite each other
    # a plan held near a place has its own workspace: its stored instruction never reaches a plain plan
    suffix = f"-near-{re.sub(r'[^A-Za-z0-9]+', '-', str(near['place'])).strip('-')}-{near['radius_m']:g}m" if near else ""
    build = {"region": region, "task": task_name, "budget": budget, "size": size or "small",
             "workspace": f"{region}-{task_name}-{budget:g}k-{size or 'small'}{suffix}", "overwrite": True}
    built = step.done("build_instance", build)
    if built is None or not built.ok:
        return [("build_instance", build)]
    ws = built.result["workspace"]
    hold = [("add_constraint", {"workspace": ws, "apply": True,
                                "instruction": f"at least one {PLAN_UNIT.get(task_name, 'site')} within "
                                               f"{near['radius_m']:g} m of {near['name']}"})] if near else []
    return [("build_instance", build), *hold, ("solve_plan", {"workspace": ws, "time_limit": SOLVE_SECONDS}),
            ("evaluate_plan", {"workspace": ws})]


class Plan(Intent):
    name = "plan"
    # plan.terse: "Stations, Kluuvi." (a task word alone); plan.add-to: "lisää latausasemia Karhulaan"
    rules = ("plan.request", "plan.terse", "plan.add-to", "plan.kinds")
    # a budget, "then evaluate it", "draft the new links" after a plan: that plan's
    follows = ("plan.money-follows", "plan.evaluate-follows", "plan.continues")
    needs = (("task", KIND_QUESTION), ("budget", "the budget (k€)"))
    tools = ("build_instance", "add_constraint", "solve_plan", "evaluate_plan")

    def calls(self, step: Step) -> Calls:
        s = step.slots
        return plan_calls(step, s["task"], s["budget"], s.get("size"), s.get("near")), None

    def tested(self, ran: list[Observation]) -> tuple[float | None, str]:
        ok = [o for o in ran if o.ok]
        if not ok or ok[-1].tool != "evaluate_plan":
            return None, ""
        r = ok[-1].result
        return (float(r["score"]) if r.get("score") is not None else None), "score"

    def facts(self, f: Facts) -> list[str]:
        out = plan_lines(f.s["task"], f.s["budget"], f.obs, f.idx, coords=bool(COORDS_ASKED.search(f.g.clause)))
        return out + empty_sites_line(f.s, f.obs)


def empty_sites_line(slots: dict[str, Any], obs: list[Observation]) -> list[str]:
    """"…, then tell me what streets the parcels are on" of a plan that selects nothing: the follow-up
    answered plainly (there is nothing to place on a street), never dropped."""
    done = [o for o in obs if o.ok and o.tool in ("evaluate_plan", "solve_plan")]
    if not slots.get("sites") or not done or done[-1].result.get("selected"):
        return []
    unit = PLAN_UNIT.get(slots.get("task"), "site")
    return [f"The plan selects no {unit}, so there are no streets to name."]
