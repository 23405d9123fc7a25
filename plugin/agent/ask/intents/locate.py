"""``locate``: where a named place is ("Where is Oodi?", "where's Kiasma", "Missä on Otsonkallio?"),
answered with the street and the coordinates the place search returns for it, or that the data
does not hold it."""
from __future__ import annotations

from ..synthesis import _label
from .base import Calls, Facts, Intent, Step, slot_args


class Locate(Intent):
    name = "locate"
    rules = ("locate.where", "locate.show", "follow.elliptic")   # "Where is A? and B?"
    needs = (("place", "which place to locate"),)
    tools = ("find_features",)

    def calls(self, step: Step) -> Calls:
        return [("find_features", {"region": step.region, **slot_args(step.slots, "name")})], None

    def facts(self, f: Facts) -> list[str]:
        feats = f.r.get("features") or []
        # the feature the reader resolved, not merely the first whose name contains the words
        hit = next((x for x in feats if x.get("id") == f.s.get("place")), feats[0] if feats else None)
        if hit is None:
            return [f"'{f.s.get('name')}' is not in the {f.region} data."]
        street = f" on {hit['street']}" if hit.get("street") else ""
        return [f"{_label(hit)} is{street}, at x {hit['x']}, y {hit['y']} (the {f.region} data's "
                f"coordinates, metres; a {hit.get('category') or hit.get('kind')})."]
