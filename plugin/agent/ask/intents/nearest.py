"""``nearest``: the nearest place of a kind to a place, by road ("nearest pharmacy to Kiasma")."""
from __future__ import annotations

from ....city.streets import site_label
from ...tools import Observation
from ..synthesis import _label, _what, road_and_straight
from .base import Calls, Facts, Intent, Step, last_result, slot_args


class Nearest(Intent):
    name = "nearest"
    rules = ("nearest.same-kind", "nearest.search", "nearest.how-far-follows", "nearest.from-where", "nearest.no-kind",
             "nearest.each",
             "terse",
             "follow.elliptic")   # "nearest pharmacy to Kiasma? what about Oodi?": the search again, from Oodi
    rules += ("plan.money-as-background",)   # "Quick one before I spend 90k: what is the nearest car park to X?"
    # "… and give the driving distance": the search reports it; "… Also: is it within 300 m?": answered from it
    follows = ("route.reported", "nearest.within-follows", "nearest.place-follows")
    needs = (("place", "the start place (where to search from)"),
             ("category", "the kind of facility (a category such as pharmacy, school or parking)"))
    tools = ("nearest_facility",)

    def calls(self, step: Step) -> Calls:
        s, region = step.slots, step.region
        place, why = step.ref(s["place"])
        if why:
            return [], f"the nearest {s.get('word') or s.get('category')}: {why}"
        narrow = ("nearest_facility", {"region": region, "place": place, **slot_args(s, "category", "tag")})
        done = step.done(*narrow)
        if s.get("tag") and done is not None and done.ok and done.result.get("nearest") is None:
            # none of the narrow kind ("park"): the broad category (green) answers what is near
            return [narrow, ("nearest_facility", {"region": region, "place": place, "category": s["category"]})], None
        return [narrow], None

    def tested(self, ran: list[Observation]) -> tuple[float | None, str]:
        r = last_result(ran)
        if r is None:
            return None, ""
        return (float(r["nearest"]["network_distance_m"]) if r.get("nearest") else float("inf")), "distance_m"

    def facts(self, f: Facts) -> list[str]:
        g, s, r, out = f.g, f.s, f.r, []
        n = r.get("nearest")
        if n is not None:
            out.append(f"The nearest {_what(g, 1)} to {_label(r['origin'])} is {site_label(_label(n), n.get('street'))}: "
                       f"{road_and_straight(n['network_distance_m'], n['straight_distance_m'])}.")
            if s.get("within_m") is not None:
                out.append(_within_line(float(s["within_m"]), float(n["network_distance_m"]),
                                        float(n["straight_distance_m"])))
            return out
        out.append(f"There is no {_what(g, 1)} in the {f.region} data, so none is near {_label(r['origin'])}.")
        broad = next((o.result for o in f.good if o.tool == "nearest_facility" and not o.params.get("tag")
                      and o.result.get("nearest")), None)
        if broad is not None and s.get("tag"):
            b = broad["nearest"]
            out.append(f"Taking any {s['category']} instead: the nearest to {_label(broad['origin'])} is "
                       f"{site_label(_label(b), b.get('street'))}: "
                       f"{road_and_straight(b['network_distance_m'], b['straight_distance_m'])}.")
        return out


def _within_line(limit: float, road: float, straight: float) -> str:
    """"… is it within 300 m?" answered from the search's two distances: by road first (the
    distance the search ranks by), and the straight line when the two answers differ."""
    if road <= limit:
        return f"Within {limit:g} m: yes, {road:g} m by road."
    if straight <= limit:
        return f"Within {limit:g} m: not by road ({road:g} m), but yes in a straight line ({straight:g} m)."
    return f"Within {limit:g} m: no, it is {road:g} m by road ({straight:g} m straight)."
