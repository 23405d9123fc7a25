"""``compare``: which of several places is closer by road to a target ("Which is closer to
Kiasma: Oodi, Ateneum or Stockmann?")."""
from __future__ import annotations

from ..synthesis import _label
from .base import Calls, Facts, Intent, Step


class Compare(Intent):
    name = "compare"
    rules = ("compare.places",)
    needs = ()
    tools = ("route",)
    independent_calls = True   # one route per candidate: a failed one leaves the others to answer

    def calls(self, step: Step) -> Calls:
        s = step.slots
        return [("route", {"region": step.region, "origin": c, "destination": s["target"]}) for c in s["candidates"]], None

    def facts(self, f: Facts) -> list[str]:
        routes = [o.result for o in f.good if o.tool == "route"]
        if not routes:
            return []
        best = min(routes, key=lambda x: x["network_distance_m"])
        others = "; ".join(f"{_label(x['origin'])} is {x['network_distance_m']} m"
                           for x in routes if x is not best)
        return [f"Closer by road to {_label(best['destination'])}: {_label(best['origin'])} "
                f"({best['network_distance_m']} m)" + (f"; {others}." if others else ".")]
