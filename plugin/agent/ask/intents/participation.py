"""``participation``: the participation metrics of a parcels file ("Run a participation round on parcels.geojson")."""
from __future__ import annotations

from ..synthesis import fact_lines
from .base import Calls, Facts, Intent, Step


class Participation(Intent):
    name = "participation"
    rules = ("participation",)
    needs = (("parcels", "the parcels GeoJSON file"),)
    needs_region = False   # the parcels file is the whole input
    tools = ("participation_metrics",)

    def calls(self, step: Step) -> Calls:
        return [("participation_metrics", {"parcels": step.slots["parcels"]})], None

    def facts(self, f: Facts) -> list[str]:
        return fact_lines(f.good[-1])
