"""``find``, ``count``, ``exists``: places of a kind in the region or an area of it ("Are there
any pharmacies in Kotka?", "how many schools are in Kluuvi?", "list the car parks"). One tool
call; the three differ only in how the answer is worded."""
from __future__ import annotations

from ...tools import Observation
from ..synthesis import ALL_NAMES, _bounds_line, _names_list, _what
from .base import Calls, Facts, Intent, Step, first_result, slot_args
from .kinds_total import together_calls, together_facts


class FindBase(Intent):
    """What the three share: the rules, the need (what to look for), the call and the facts."""
    rules = ("find.kind",)
    follows = ("find.area-follows",)   # "pharmacies? dentists? in Kluuvi": the area each looks in
    needs = (("category", "what to look for (a name or a kind of place)"),)
    tools = ("find_features",)

    def missing(self, slots: dict) -> list[str]:
        """What to look for, and where, when the clause named places that are neither an area nor a
        centre ("cafés … Kiasma … Oodi"): the count is never made over the whole region instead."""
        where = slots.get("unplaced")
        return super().missing(slots) + ([f"where to look: in or around {' or '.join(where)}"] if where else [])

    def calls(self, step: Step) -> Calls:
        where = {"region": step.region, **slot_args(step.slots, "area")}
        return [("find_features", {**where, **slot_args(step.slots, "category", "tag", "name")}),
                *together_calls("find_features", where, step.slots)], None   # "cafés/shops on X: how many?"

    def tested(self, ran: list[Observation]) -> tuple[float | None, str]:
        r = first_result(ran)   # the kind asked for, not the kinds counted together after it
        return (float(r["count"]), "count") if r is not None else (None, "")

    def facts(self, f: Facts) -> list[str]:
        g, s, r, out = f.g, f.s, first_result(f.good), []
        where = f" in {s['area_name']}" if s.get("area_name") else f" in the {f.region} data"
        approx = " (area approximated from the place's location)" if (r.get("area") or {}).get("approximate") else ""
        bounds = _bounds_line(r.get("area"))
        street = street_line(r.get("area"), r["count"])
        if street:   # "restaurants on Yrjönkatu": along the street's line, not over its bounding box
            where, bounds = f" on {r['area']['name']}", street
            r = {**r, "features": sorted(r["features"], key=lambda x: x.get("street") != r["area"]["name"])}
        out += together_facts(f, where)   # the kinds counted together, before each kind's count
        what = _what(g, r["count"])
        said = g.intent == "exists" and g.branch != "if"   # a condition's answer is its Condition line, not yes / no
        if r["count"] == 0:
            out.append(f"{'No: t' if said else 'T'}here are no {what}{where}{approx}.")
        elif g.intent == "count":
            named = [x for x in r["features"] if x.get("name")]
            every = len(named) == r["count"] <= ALL_NAMES   # all of them named: a list, not examples
            out.append(f"There {'is' if r['count'] == 1 else 'are'} {r['count']} {what}{where}{approx}"
                       + (f"{': ' if every else ', e.g. '}{_names_list(named, r['count'], n=5)}." if named else "."))
        else:
            yes = "Yes: t" if said else "T"
            out.append(f"{yes}here {'is' if r['count'] == 1 else 'are'} {r['count']} {what}{where}{approx}: "
                       f"{_names_list(r['features'], r['count'])}.")
        if bounds:
            out.append(bounds)
        return out


def street_line(area: dict | None, count: int) -> str:
    """How a count "on <street>" was made, in one sentence: within the tool's corridor of the street's
    line (its distance said), or addressed on it; how many of them are addressed on it."""
    if not area or area.get("kind") != "street" or area.get("corridor_m") is None:
        return ""
    n, k = count, area.get("addressed", 0)
    how = (("it is addressed on it" if n == 1 else "all of them are addressed on it") if k == n else
           ("it is not addressed on it: it stands within that distance of it" if n == 1 else
            "none has it as its address: each stands within that distance of it") if k == 0 else
           f"{k} of them {'is' if k == 1 else 'are'} addressed on it; the "
           f"{'other stands' if n - k == 1 else 'others stand'} within that distance of it, e.g. at a corner")
    return (f"Counted along {area['name']}: within {area['corridor_m']:g} m of the street's line, or with "
            f"{area['name']} as the address" + (f" ({how})." if n else "."))


class Find(FindBase):
    name = "find"
    # "…; otherwise report those car parks" (find.those); "dentists Kluuvi" (terse)
    rules = ("find.kind", "find.those", "terse", "within.each-place", "find.kinds-one-area")
    rules += ("follow.elliptic",)   # "list the cafés in Kluuvi. What about Kaisaniemi?": the list again, there
    rules += ("plan.money-as-background",)   # "Budget is 300k but first: list the schools in Kotka"
    rules += ("count.each-area",)   # "list the cafés in Kluuvi and Kaisaniemi": each area's list


class Count(FindBase):
    name = "count"
    # count.of-what: "How many are there in Kotka?": of what? (asked)
    rules = ("find.kind", "count.of-what", "within.each-place", "find.kinds-one-area")
    # "how many there are within 300 m of X" (of what? asked); "Before we put 250k€ into roads: how many …"
    rules += ("within.count-of-what", "plan.money-as-background")
    rules += ("follow.elliptic",)   # "Kluuvissa montako kahvilaa? entä Kaisaniemessä?": the count again, there
    rules += ("count.each-area",)   # "Soopeli vs Sampi — cafés in each?": a count in each area
    follows = ("count.follows", "find.area-follows")   # "schools in Kluuvi; how many?": the count of those


class Exists(FindBase):
    name = "exists"
    rules = (*FindBase.rules, "plan.money-as-background")   # "Before we put 150k€ into chargers: is there …"
    rules += ("count.each-area",)   # "are there pharmacies in Kluuvi or Kaisaniemi?": in each area
