"""Facts a region's data holds about one street: its mapped length and the streets that cross or
meet it.

Both are read from the street's own lines as the data maps them (the City's source road layer,
``City.raw["roads"]``, in the working CRS and clipped to the study area), not from the noded road
graph: the graph merges pieces of different streets between junctions and names each merged piece
after one of them, so its edges can carry a neighbour's name. The length is that of the union of
the street's lines (a line drawn twice counts once), so it is the part of the street inside the
data, never the whole street. A street crosses or meets another where their lines touch or
intersect (a shared node, a T-junction, a crossing).
"""
from __future__ import annotations

from typing import Any

import shapely

from ...city.names import normalise
from .places import region_index
from .registry import Tool, ToolContext, ToolFailure, object_schema, region_schema

TOUCH_M = 0.5   # lines this close meet (a junction node written with rounded coordinates)


def _named_lines(roads: Any) -> dict[str, Any]:
    """Each street name (normal form) → (the name as written, the union of its lines)."""
    names = roads["name"].fillna("").astype(str) if "name" in roads else None
    if names is None:
        return {}
    out: dict[str, Any] = {}
    for name, geoms in roads.geometry.groupby(names.to_numpy()):
        if name.strip():
            out[normalise(name)] = (name, shapely.union_all(geoms.to_numpy()))
    return out


def street_facts(ctx: ToolContext, a: dict[str, Any]) -> dict[str, Any]:
    idx = region_index(ctx, a["region"])
    place = idx.resolve(a["street"])
    if place.kind != "street":
        raise ToolFailure(f"{place.name} is no street in the {a['region']} data (it is a {place.category})")
    lines = _named_lines(idx.city.raw.get("roads"))
    if normalise(place.name) not in lines:
        raise ToolFailure(f"the {a['region']} data maps no road line named {place.name}")
    name, line = lines[normalise(place.name)]
    reach = line.buffer(TOUCH_M)
    meets = sorted(other for key, (other, geom) in lines.items()
                   if key != normalise(place.name) and shapely.intersects(reach, geom))
    # lines that do not touch: the street mapped in gaps, or once per carriageway of a divided road
    pieces = [float(shapely.intersection(line, part).length) for part in shapely.get_parts(reach)]
    return {"region": a["region"], "street": {**place.to_json(), "name": name},
            "length_m": round(float(line.length), 1), "pieces": len(pieces), "longest_piece_m": round(max(pieces), 1),
            "bounds": [round(float(v), 1) for v in line.bounds], "crs": idx.city.crs,
            "crossing": meets, "crossing_count": len(meets)}


def tools(ctx: ToolContext) -> list[Tool]:
    return [
        Tool("street_facts", "One street's facts as the region's data maps it: the length (metres) of its "
             "lines inside the data, how many separate pieces they form (lines that do not touch) and the longest, "
             "and the named streets that cross or meet it.",
             object_schema({"region": region_schema(ctx),
                            "street": {"type": "string", "minLength": 1,
                                       "description": "a street name (any spelling the data has) or its id"}},
                           ["region", "street"]), street_facts),
    ]
