"""``summary``: what a region holds ("Give me an overview of Kotka")."""
from __future__ import annotations

from ..synthesis import fact_lines
from .base import Calls, Facts, Intent, Step


class Summary(Intent):
    name = "summary"
    rules = ("summary",)
    needs = ()
    tools = ("region_summary",)

    def calls(self, step: Step) -> Calls:
        return [("region_summary", {"region": step.region})], None

    def facts(self, f: Facts) -> list[str]:
        return fact_lines(f.good[-1])
