"""``within``: places within a distance of a place ("how many cafés are within 250 m of Oodi?",
"cafés near Stockmann": within ``reading.NEAR_M``, said in the answer)."""
from __future__ import annotations

from typing import Any

from ...tools import Observation
from ..synthesis import _label, _names_list, _what
from .base import Calls, Facts, Intent, Step, first_result, slot_args
from .kinds_total import together_calls, together_facts


class Within(Intent):
    name = "within"
    # find.those: "… list those" after a within search; find.kind: "count cafés Kiasma" (around a point)
    rules = ("within.radius", "find.those", "within.kind-follows", "find.kind", "within.same-kind", "within.there",
             "within.each-place", "find.kinds-one-area", "within.there-found")
    rules += ("follow.elliptic",)   # "cafés within 300 m of A? and around B?": the same radius around B
    # "… say within 400 metres": that search's radius; "cafés within 300 m of X — how many?": its count
    # "what's near X? cafes specifically, 100m": the kind that vague question meant
    # "…, but schools are fine": an aside after a search asks nothing new (clause.aside, after any goal)
    follows = ("within.radius-follows", "count.follows", "within.refine-follows", "clause.aside")
    needs = (("place", "the start place (where to search from)"),)
    tools = ("within_distance",)

    def calls(self, step: Step) -> Calls:
        s = step.slots
        place, why = step.ref(s["place"])
        if why:
            return [], f"the count within {s['radius_m']:g} m: {why}"
        around = {"region": step.region, "place": place, "radius_m": s["radius_m"]}
        return [("within_distance", {**around, **slot_args(s, "category", "tag")}),
                *_every_green(step.region, place, s),
                *together_calls("within_distance", around, s)], None   # "cafés and bars within 200 m of X: how many?"

    def tested(self, ran: list[Observation]) -> tuple[float | None, str]:
        r = first_result(ran)   # the kind asked for ("parks"), not every green area beside it
        return (float(r["count"]), "count") if r is not None else (None, "")

    def facts(self, f: Facts) -> list[str]:
        g, s, r, out = f.g, f.s, first_result(f.good), []
        what = _what(g, r["count"]) if s.get("category") else "points of interest"
        if s.get("default_radius"):
            out.append(f"'Near' read as within {r['radius_m']:g} m (straight line); give a distance to change it.")
        out += together_facts(f, f" within {r['radius_m']:g} m of {_label(r['center'])}")
        if r["count"] == 0:
            out.append(f"There are no {what} within {r['radius_m']:g} m of {_label(r['center'])}.")
        else:
            out.append(f"There {'is' if r['count'] == 1 else 'are'} {r['count']} {what} within {r['radius_m']:g} m "
                       f"of {_label(r['center'])} "
                       f"(straight line): {_names_list(r['features'], r['count'], with_street=False)}.")
        green = next((o.result for o in f.good[1:] if o.params.get("category") == "green" and not o.params.get("tag")
                      and s.get("tag") == "leisure=park"), None)
        if green is not None and green["count"] != r["count"]:
            out.append(f"Counting every green area (the category green, any tag: grass, woods and cemeteries too), "
                       f"there {'is' if green['count'] == 1 else 'are'} {green['count']} within {green['radius_m']:g} m"
                       f" of {_label(green['center'])}: {_names_list(green['features'], green['count'], with_street=False)}.")
        return out


def _every_green(region: str | None, place: Any, s: dict[str, Any]) -> list[tuple[str, dict]]:
    """"parks within 350 m of X": a planner's "park" may mean a mapped park (leisure=park, what the first
    call counts) or any green space; the count of every green area is a second call, so the reply can give
    both as tool results (docs/ask.md, "What a park is")."""
    if s.get("category") != "green" or s.get("tag") != "leisure=park":
        return []
    return [("within_distance", {"region": region, "place": place, "radius_m": s["radius_m"], "category": "green"})]
