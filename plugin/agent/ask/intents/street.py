"""``street``: a fact the data holds about one street — how long it is ("How long is Broadway?",
"what is the length of Yrjönkatu", "kuinka pitkä on Puistokatu") and which streets cross or meet
it ("Which streets cross West 86th St?", "mitkä kadut risteävät Puistokadun kanssa"). Both come
from the street's own mapped lines (the ``street_facts`` tool): the length is the part of the
street inside the data, and the answer says so."""
from __future__ import annotations

from ..synthesis import ALL_NAMES, _km, _more
from .base import Calls, Facts, Intent, Step, slot_args


class Street(Intent):
    name = "street"
    rules = ("street.length", "street.crossings")
    needs = (("street", "which street"),)
    tools = ("street_facts",)

    def calls(self, step: Step) -> Calls:
        return [("street_facts", {"region": step.region, **slot_args(step.slots, "street")})], None

    def facts(self, f: Facts) -> list[str]:
        r = f.r
        name = r["street"]["name"]
        if f.s.get("asked") == "crossings":
            meets = r["crossing"]
            if not meets:
                return [f"No named street crosses or meets {name} in the {f.region} data."]
            shown = meets[:ALL_NAMES]
            return [f"Streets that cross or meet {name} in the {f.region} data ({len(meets)}): "
                    f"{', '.join(shown)}{_more(len(shown), len(meets), 'streets')}."]
        lines = [f"{name} is {_km(r['length_m'])} long as mapped in the {f.region} data (its mapped segments "
                 "added up; only the part inside the data is measured, the street may go on beyond it)."]
        if r["pieces"] > 1:   # a divided road is mapped once per carriageway: the sum counts both
            lines.append(f"Its lines form {r['pieces']} separate pieces that do not touch (a road mapped in gaps, "
                         f"or once per carriageway); the longest is {_km(r['longest_piece_m'])}.")
        return lines
