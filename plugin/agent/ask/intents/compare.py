"""``compare``: which of several places is closer by road to a target ("Which is closer to
Kiasma: Oodi, Ateneum or Stockmann?")."""
from __future__ import annotations

from ..synthesis import _label
from .base import Calls, Facts, Intent, Step


class Compare(Intent):
    name = "compare"
    rules = ("compare.places", "compare.of-list", "compare.further")   # "is A further from X than B?"
    follows = ("compare.follows",)   # "… closer to X? by road", "— which one, and how far?": said by it
    needs = ()
    tools = ("route",)
    independent_calls = True   # one route per candidate: a failed one leaves the others to answer

    def calls(self, step: Step) -> Calls:
        s = step.slots
        # a name the data gives to several features (a square, its stops, its building) is measured
        # between the nearest of them: "closer to Rautatientori" is closer to any part of it
        return [("route", {"region": step.region, "origin": c, "destination": s["target"], "every_named": True})
                for c in s["candidates"]], None

    def facts(self, f: Facts) -> list[str]:
        routes = [o.result for o in f.good if o.tool == "route"]
        if not routes:
            return []
        if f.s.get("missing"):   # an option the data lacks: each one it has is measured, no winner claimed
            return [f"By road, {_label(x['origin'])} is {x['network_distance_m']} m from {_label(x['destination'])}; "
                    f"{' and '.join(repr(m) for m in f.s['missing'])} cannot be compared (not in the data)."
                    for x in routes]
        best = min(routes, key=lambda x: x["network_distance_m"])
        others = "; ".join(f"{_label(x['origin'])} is {x['network_distance_m']} m"
                           for x in routes if x is not best)
        several = any(max((x.get("features_so_named") or {}).values(), default=1) > 1 for x in routes)
        return [f"Closer by road to {_label(best['destination'])}: {_label(best['origin'])} "
                f"({best['network_distance_m']} m)" + (f"; {others}." if others else ".")
                + (" (A name the data gives to several features is measured from the nearest of them.)"
                   if several else "")]
