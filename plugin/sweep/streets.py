"""Name each selected site by the street it is on.

Uses the existing street lookup of the place tools (``RegionIndex.street_near`` in
``plugin/agent/tools/places.py``: the nearest named drivable road). The issue-28 shared helper
``plugin/city/streets.py`` did not exist when this was written; switch to it when it lands.
Instances of a region that is not bundled (a PBF or GeoPackage of the planner's own) have no
place index here: their sites are listed by id only.
"""
from __future__ import annotations

from typing import Any

import shapely

from ..tasks import Instance


class SiteStreets:
    """Street names of an instance's candidates, looked up once per candidate."""

    def __init__(self, inst: Instance, root: str):
        self.inst = inst
        self.index = _region_index(inst, root)
        self.cache: dict[str, str] = {}

    def street(self, cid: str) -> str:
        if self.index is None:
            return ""
        if cid not in self.cache:
            i = self.inst.index.get(cid)
            wkt = self.inst.candidates["wkt"].iloc[i] if i is not None and "wkt" in self.inst.candidates else None
            if not wkt:
                self.cache[cid] = ""
            else:
                p = shapely.point_on_surface(shapely.from_wkt(wkt))
                self.cache[cid] = self.index.street_near(float(p.x), float(p.y))
        return self.cache[cid]

    def sites(self, ids: list[str]) -> list[dict[str, str]]:
        """[{id, street}] in plan order."""
        return [{"id": c, "street": self.street(c)} for c in ids]


def by_street(sites: list[dict[str, str]]) -> str:
    """'Kotkantie (s03c1, s07c0); Hovinsaarentie (s11c2)': the plan's sites grouped by street."""
    groups: dict[str, list[str]] = {}
    for s in sites:
        groups.setdefault(s["street"] or "unnamed road", []).append(s["id"])
    return "; ".join(f"{street} ({', '.join(ids)})" for street, ids in groups.items())


def _region_index(inst: Instance, root: str) -> Any:
    from ..agent.tools.places import region_index
    from ..agent.tools.registry import ToolContext, ToolFailure
    from ..constraints.resolve import region_of

    region = region_of(inst)
    if region is None:
        return None
    try:
        return region_index(ToolContext(root=root), region)
    except ToolFailure:
        return None
