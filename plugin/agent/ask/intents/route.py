"""``route``: the road route between two places ("how far is Kiasma from Oodi?", "route from
Kiasma to the nearest pharmacy")."""
from __future__ import annotations

from ...tools import Observation
from ..synthesis import _km, _label, _via, road_and_straight
from .base import Calls, Facts, Intent, Step, last_result


class Route(Intent):
    name = "route"
    # nearest.search: "nearest pharmacy to X and how far is it by road" reads a search and its route
    # route.to-nearest: "the road distance between Kiasma and the nearest cinema to it" (the search, then its route)
    rules = ("nearest.search", "route.conditional", "route.places", "route.from-to", "route.bare", "route.to-nearest",
             "route.from-found", "route.legs", "route.each", "route.kinds",
             "route.onward",   # route.onward: "nearest shop; from there to Siiantie, m"
             "route.onward-leg",   # "distance from A to B, then on to C"
             "route.between-found",   # "…; otherwise the road distance between the two" (the two found)
             "route.pair-condition",   # "if A - B is more than 500 m, …": the condition's route
             "follow.elliptic")   # "how far is A from B? and from C?": the route again, from C
    rules += ("plan.money-as-background",)   # "Before we invest 200k in roads: how far is A from B by road?"
    # "A to B by car, how many metres?": that route's distance; "nearest … by road, and how far is it?": the
    # search's own route
    follows = ("route.follows", "route.already-asked", "route.tail-follows")
    needs = (("origin", "the start place"), ("destination", "the destination place"))
    tools = ("route",)

    def calls(self, step: Step) -> Calls:
        s = step.slots
        (o, why1), (d, why2) = step.ref(s["origin"]), step.ref(s["destination"])
        if why1 or why2:
            return [], f"the route: {why1 or why2}"
        return [("route", {"region": step.region, "origin": o, "destination": d})], None

    def tested(self, ran: list[Observation]) -> tuple[float | None, str]:
        if any(not o.ok and "no road connects" in (o.error or "") for o in ran):
            return float("inf"), "distance_m"   # "if it is more than 2 km by road": farther than any distance
        r = last_result(ran)
        return (float(r["network_distance_m"]), "distance_m") if r is not None and not _same_place(r) else (None, "")

    def facts(self, f: Facts) -> list[str]:
        r = f.r
        if _same_place(r):
            # a route from a place to itself is no distance to state: "X to X is 0 m" would be a wrong fact
            # when two names were read as one place ("Reijon Diesel/Bosch Car service and Neste Huttunen")
            return [f"The route's two ends are the same place, {_label(r['origin'])}: there is no distance "
                    "to state — which other place is the route to?"]
        if r["network_distance_m"] == 0 and r["straight_distance_m"] > 0:   # two places, one join point
            return [f"{_label(r['origin'])} and {_label(r['destination'])} are "
                    f"{road_and_straight(0, r['straight_distance_m'])}."]
        via = _via(r["streets"])
        return [f"By road, {_label(r['origin'])} to {_label(r['destination'])} is "
                f"{_km(r['network_distance_m'])}{via} ({r['straight_distance_m']} m straight)."]


def _same_place(r: dict) -> bool:
    """Both ends of a route result are one feature (the same id)."""
    o, d = r.get("origin") or {}, r.get("destination") or {}
    return bool(o.get("id")) and o.get("id") == d.get("id")
