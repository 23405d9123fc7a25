"""Name each selected site by the street it is on, with the shared street helper
(``plugin/city/streets.py``: the nearest named road of the workspace's saved city model), so a
curve's rows read like the dock's and the report's answers. A workspace whose roads carry no
names (built before names were saved) lists its sites by id only.
"""
from __future__ import annotations

from pathlib import Path

from ..city.streets import namer_for_workspace
from ..tasks import Instance


class SiteStreets:
    """Street names of an instance's candidates, looked up once for all of them."""

    def __init__(self, inst: Instance, ws: str | Path):
        namer = namer_for_workspace(ws)
        self.streets = namer.of_sites(inst.candidates) if namer is not None else {}

    def sites(self, ids: list[str]) -> list[dict[str, str]]:
        """[{id, street}] in plan order."""
        return [{"id": c, "street": self.streets.get(str(c), "")} for c in ids]


def by_street(sites: list[dict[str, str]]) -> str:
    """'Kotkantie (s03c1, s07c0); Hovinsaarentie (s11c2)': the plan's sites grouped by street."""
    groups: dict[str, list[str]] = {}
    for s in sites:
        groups.setdefault(s["street"] or "unnamed road", []).append(s["id"])
    return "; ".join(f"{street} ({', '.join(ids)})" for street, ids in groups.items())
