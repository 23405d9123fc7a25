"""Region and layer queries on the City model: named features, nearest facility, route, radius.

Places are given as any name the region's data has (``plugin.city.names``: OSM names in
every language, alternative names, brands, misspellings ranked by similarity; a name not in
the data fails with "X is not in the <region> data — did you mean …?"), a feature id returned
by an earlier call (``poi:17``, ``street:Annankatu``, ``osm:building:123``), or coordinates
``"x,y"`` in the region's metric CRS or ``"lat,lon"`` in degrees. A place outside the
region's bounds is a failed observation (the geographic-consistency check). A category may be
narrowed by an OSM tag (``tag="amenity=pharmacy"``, values split by ``|``, ``*`` for any),
as planners' words do ("pharmacy" is the category clinic narrowed so). Finding nothing of a
category is an answer (count 0), not a failure. Network distances are shortest paths on ``City.graph`` (drivable roads, metres)
between the graph nodes nearest to the two places; straight distances are Euclidean.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import networkx as nx
import numpy as np

from ...city import CATEGORIES, City, load_city
from ...city.names import STREET_BUFFER_M, NameIndex, name_index, normalise
from ...city.streets import namer_for_city
from ...city.vocabulary import matches_tags
from .registry import Tool, ToolContext, ToolFailure, object_schema, region_schema

MAX_LIST = 20          # features listed in one result; the count is always complete
COORDS = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$")
TAG = re.compile(r"^\s*([\w:]+)\s*=\s*([^=]+?)\s*$")


@dataclass(frozen=True)
class Place:
    id: str
    name: str
    kind: str          # poi | street | point
    category: str
    x: float
    y: float

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "kind": self.kind, "category": self.category,
                "x": round(self.x, 1), "y": round(self.y, 1)}


class RegionIndex:
    """Named features of one City with a KD-tree on the road graph's nodes."""

    def __init__(self, city: City, names: NameIndex):
        self.city = city
        self.names = names
        pois = city.pois
        xy = np.c_[pois.geometry.x.to_numpy(), pois.geometry.y.to_numpy()]
        self.pois = [Place(f"poi:{i}", str(n or ""), "poi", str(c), float(x), float(y))
                     for i, n, c, (x, y) in zip(pois.index, pois["name"], pois["category"], xy, strict=False)]
        self.by_id = {p.id: p for p in self.pois}

    def inside(self, x: float, y: float) -> bool:
        minx, miny, maxx, maxy = self.city.bounds
        return minx <= x <= maxx and miny <= y <= maxy

    def node(self, p: Place) -> int:
        return self.city.node_near(p.x, p.y)   # where the place joins the network: its nearest road

    def named(self, text: str) -> list[Place]:
        """Features whose name (or alias) is ``text`` or contains it as words, best first."""
        return [_place(m.feature) for m in self.names.lookup(text, limit=MAX_LIST * 5, fuzzy_min=1.1)
                if m.how in ("exact", "alias", "words")]

    def same_named(self, p: Place) -> list[Place]:
        """``p`` and every other feature whose name (or an alias) is exactly ``p``'s name: what a name
        that the data gives to several features stands for (a square, its stops and its building)."""
        n = normalise(p.name)
        if not n or p.kind == "point":
            return [p]
        return [p] + [_place(f) for f in self.names.features if f.kind != "region" and f.id != p.id
                      and (normalise(f.name) == n or n in {normalise(x) for x in f.aliases})]

    def resolve(self, text: str) -> Place:
        text = str(text).strip()
        if text.startswith("poi:"):
            if text not in self.by_id:
                raise ToolFailure(f"no feature '{text}' in {self.city.name}")
            return self.by_id[text]
        if text.startswith(("street:", "osm:", "region:")):
            f = next((f for f in self.names.features if f.id == text), None)
            if f is None:
                raise ToolFailure(f"no feature '{text}' in {self.city.name}")
            return _place(f)
        if COORDS.match(text):
            return self._point(*map(float, COORDS.match(text).groups()), text)
        res = self.names.resolve(text)
        if res.status != "found":
            raise ToolFailure(res.message)
        return _place(res.feature)

    def _point(self, a: float, b: float, text: str) -> Place:
        if abs(a) <= 90 and abs(b) <= 180:  # degrees: lat, lon
            from pyproj import Transformer

            x, y = Transformer.from_crs("EPSG:4326", self.city.crs, always_xy=True).transform(b, a)
        else:
            x, y = a, b
        if not self.inside(x, y):
            raise ToolFailure(f"{text} lies outside the region {self.city.name}")
        return Place(f"point:{x:.1f},{y:.1f}", text, "point", "point", float(x), float(y))

    def of_category(self, category: str | None, tag: str | None = None) -> list[Place]:
        """POIs of ``category`` (all when None) whose OSM tags fit ``tag`` ("key=v1|v2", "key=*")."""
        flt = parse_tag(tag)
        return [p for p in self.pois if (category is None or p.category == category)
                and (not flt or matches_tags(self.names.poi_tags.get(p.id, {}), flt))]

    def of_kinds(self, a: dict[str, Any]) -> list[Place]:
        """The POIs a call asks for: those of any of its ``kinds`` ([{category, tag}, …], each POI once: "cafés,
        shops and restaurants" in one count), else of its ``category`` narrowed by its ``tag``."""
        if not a.get("kinds"):
            return self.of_category(a.get("category"), a.get("tag"))
        ids = {p.id for k in a["kinds"] for p in self.of_category(k["category"], k.get("tag"))}
        return [p for p in self.pois if p.id in ids]

    def street_near(self, x: float, y: float) -> str:
        """The name of the nearest named drivable road (or ''), however far (``plugin.city.streets``)."""
        return namer_for_city(self.city, max_m=float("inf")).near(x, y)

    def distances_from(self, p: Place) -> dict[int, float]:
        return nx.single_source_dijkstra_path_length(self.city.graph, self.node(p), weight="length")


def parse_tag(tag: str | None) -> dict[str, tuple[str, ...] | None]:
    """'amenity=pharmacy|dentist' -> {'amenity': ('pharmacy', 'dentist')}; 'shop=*' -> {'shop': None}."""
    if not tag:
        return {}
    m = TAG.match(tag)
    if not m:
        raise ToolFailure(f"bad tag filter '{tag}' (write key=value, key=v1|v2 or key=*)")
    vals = tuple(v.strip() for v in m.group(2).split("|") if v.strip())
    return {m.group(1): None if vals == ("*",) else vals}


def _place(f: Any) -> Place:
    kind = f.kind if f.kind in ("poi", "street") else f.kind
    return Place(f.id, f.name, kind, f.category or f.kind, f.x, f.y)


@lru_cache(maxsize=8)
def _index(path: str, name: str) -> RegionIndex:
    return RegionIndex(load_city(path, name), name_index(name, path))


def region_index(ctx: ToolContext, region: str) -> RegionIndex:
    if region not in ctx.regions:
        raise ToolFailure(f"unknown region '{region}' (available: {', '.join(ctx.regions)})")
    return _index(str(ctx.regions[region]), region)


def _straight(a: Place, b: Place) -> float:
    return float(np.hypot(a.x - b.x, a.y - b.y))


def _label(p: Place) -> str:
    return p.name or f"unnamed {p.category} ({p.id})"


# ------------------------------------------------------------------------------- tools
def region_summary(ctx: ToolContext, a: dict[str, Any]) -> dict[str, Any]:
    idx = region_index(ctx, a["region"])
    counts = idx.city.counts()
    pois = idx.city.pois["category"].value_counts()
    counts["pois_by_category"] = {c: int(pois.get(c, 0)) for c in CATEGORIES}
    return counts


def _what(a: dict[str, Any]) -> str:
    return " ".join(filter(None, [a.get("category") or "feature", f"[{a['tag']}]" if a.get("tag") else None]))


def find_features(ctx: ToolContext, a: dict[str, Any]) -> dict[str, Any]:
    idx = region_index(ctx, a["region"])
    if not a.get("name") and not a.get("category") and not a.get("kinds"):
        raise ToolFailure("give a name, a category (or kinds) or both")
    if a.get("name"):
        found = idx.named(a["name"])
        flt = parse_tag(a.get("tag"))
        found = [p for p in found if (not a.get("category") or p.category == a["category"])
                 and (not flt or matches_tags(idx.names.poi_tags.get(p.id, {}), flt))]
    else:
        found = idx.of_kinds(a)
    area = None
    if a.get("area"):
        res = idx.names.resolve(a["area"], kinds=("region", "place", "area", "street", "building"))
        if res.status != "found":
            raise ToolFailure(res.message)
        area = res.feature
        inside = idx.names.within_area(area, np.array([[p.x, p.y] for p in found]).reshape(-1, 2),
                                       [p.id for p in found])
        found = [p for p, ok in zip(found, inside, strict=False) if ok]
    named = sum(1 for p in found if p.name)
    out = {"region": a["region"], "count": len(found), "named": named,
           "features": [{**p.to_json(), **_street_of(idx, p)} for p in found[:MAX_LIST]],
           "listed": min(len(found), MAX_LIST)}
    if area is not None:
        b = [round(float(v), 1) for v in area.area.bounds] if area.area is not None else None
        out["area"] = {**area.to_json(), "approximate": area.approximate,
                       # what was counted over, so an answer can say it (x0, y0, x1, y1; data CRS, metres)
                       # and its size, so the answer states a figure of the result, not one of its own
                       "bounds": b, "size_m": [round(b[2] - b[0], 1), round(b[3] - b[1], 1)] if b else None}
        if area.kind == "street":   # "on Yrjönkatu": along its line, not over its bounding box (the answer says so)
            out["area"]["corridor_m"] = STREET_BUFFER_M
            out["area"]["addressed"] = sum(1 for p in found if normalise(idx.names.poi_tags.get(p.id, {})
                                                                         .get("addr:street", "")) == normalise(area.name))
    return out


def _street_of(idx: RegionIndex, p: Place) -> dict[str, str]:
    """The street a POI is on: its addr:street, else the nearest named road."""
    street = idx.names.poi_tags.get(p.id, {}).get("addr:street") or idx.street_near(p.x, p.y)
    return {"street": street} if street else {}


def nearest_facility(ctx: ToolContext, a: dict[str, Any]) -> dict[str, Any]:
    idx = region_index(ctx, a["region"])
    origin = idx.resolve(a["place"])
    pool = [p for p in idx.of_category(a["category"], a.get("tag")) if p.id != origin.id]
    out = {"region": a["region"], "origin": origin.to_json(), "category": a["category"], "tag": a.get("tag"),
           "in_region": len(pool)}
    if not pool:   # an answer ("there is none"), not a failure
        return {**out, "nearest": None, "ranked": [], "reachable": 0}
    dist = idx.distances_from(origin)
    reach = sorted(((dist[idx.node(p)], _straight(origin, p), p) for p in pool if idx.node(p) in dist),
                   key=lambda r: (r[0], r[1], r[2].id))
    if not reach:
        raise ToolFailure(f"no {_what(a)} reachable by road from {_label(origin)}")
    rows = [{"facility": _label(p), **p.to_json(), **_street_of(idx, p), "network_distance_m": round(d, 1),
             "straight_distance_m": round(s, 1)} for d, s, p in reach[: a.get("limit", 3)]]
    return {**out, "nearest": rows[0], "ranked": rows, "reachable": len(reach)}


def route(ctx: ToolContext, a: dict[str, Any]) -> dict[str, Any]:
    idx = region_index(ctx, a["region"])
    src, dst = idx.resolve(a["origin"]), idx.resolve(a["destination"])
    g = idx.city.graph
    named = None
    if a.get("every_named"):   # the shortest route between any features so named (a square and its stops)
        srcs, dsts = idx.same_named(src), idx.same_named(dst)
        named = {"origin": len(srcs), "destination": len(dsts)}
        if len(srcs) * len(dsts) > 1:
            src, dst = _closest_pair(idx, srcs, dsts)
    try:
        length, nodes = nx.single_source_dijkstra(g, idx.node(src), idx.node(dst), weight="length")
    except nx.NetworkXNoPath:
        raise ToolFailure(f"no road connects {_label(src)} and {_label(dst)} in {a['region']}") from None
    edges = idx.city.edges.set_index("edge_id")
    streets: list[str] = []
    coords: list[list[float]] = []
    for u, v in zip(nodes, nodes[1:], strict=False):
        e = edges.loc[g.edges[u, v]["edge_id"]]
        if e["name"] and (not streets or streets[-1] != e["name"]):
            streets.append(str(e["name"]))
        line = list(e.geometry.coords)
        if coords and np.hypot(*np.subtract(line[-1], coords[-1])) < np.hypot(*np.subtract(line[0], coords[-1])):
            line = line[::-1]  # orient each edge along the route
        coords.extend([round(x, 1), round(y, 1)] for x, y in line)
    return {"region": a["region"], "origin": src.to_json(), "destination": dst.to_json(),
            "network_distance_m": round(float(length), 1), "straight_distance_m": round(_straight(src, dst), 1),
            "road_segments": len(nodes) - 1, "streets": streets,
            "geometry": {"type": "LineString", "coordinates": coords}, "crs": idx.city.crs,
            **({"features_so_named": named} if named else {})}


def _closest_pair(idx: RegionIndex, srcs: list[Place], dsts: list[Place]) -> tuple[Place, Place]:
    """The (origin, destination) of ``srcs`` × ``dsts`` nearest by road (the first of each when none
    is connected: the route then says no road connects them)."""
    g = idx.city.graph
    dist = nx.multi_source_dijkstra_path_length(g, {idx.node(p) for p in srcs}, weight="length")
    dst = min(dsts, key=lambda p: dist.get(idx.node(p), float("inf")))
    try:
        _, path = nx.multi_source_dijkstra(g, {idx.node(p) for p in srcs}, target=idx.node(dst), weight="length")
    except nx.NetworkXNoPath:
        return srcs[0], dsts[0]
    return next(p for p in srcs if idx.node(p) == path[0]), dst


def within_distance(ctx: ToolContext, a: dict[str, Any]) -> dict[str, Any]:
    idx = region_index(ctx, a["region"])
    center = idx.resolve(a["place"])
    pool = idx.of_kinds(a)
    hits = sorted(((d, p) for p in pool if p.id != center.id and (d := _straight(center, p)) <= a["radius_m"]),
                  key=lambda r: (r[0], r[1].id))
    by_cat: dict[str, int] = {}
    for _, p in hits:
        by_cat[p.category] = by_cat.get(p.category, 0) + 1
    return {"region": a["region"], "center": center.to_json(), "radius_m": a["radius_m"], "count": len(hits),
            "category": a.get("category"), "tag": a.get("tag"), **({"kinds": a["kinds"]} if a.get("kinds") else {}),
            "by_category": by_cat,
            "features": [{**p.to_json(), "straight_distance_m": round(d, 1)} for d, p in hits[:MAX_LIST]],
            "listed": min(len(hits), MAX_LIST)}


def tools(ctx: ToolContext) -> list[Tool]:
    region = region_schema(ctx)
    category = {"type": "string", "enum": list(CATEGORIES), "description": "POI category"}
    place = {"type": "string", "minLength": 1,
             "description": "feature name, an id from an earlier result (poi:17), 'x,y' in the region CRS or 'lat,lon'"}
    tag = {"type": "string", "minLength": 3, "description": "OSM tag narrowing the category: amenity=pharmacy, "
                                                            "leisure=park, amenity=doctors|clinic, shop=*"}
    kinds = {"type": "array", "minItems": 2, "description": "several kinds at once instead of category and tag: "
                                                          "places of any of them, each counted once",
             "items": object_schema({"category": category, "tag": tag}, ["category"])}

    return [
        Tool("region_summary", "Counts for a region: faces, roads and road km, junctions, buildings, "
             "residents (demand) and points of interest by category.", object_schema({"region": region}, ["region"]),
             region_summary),
        Tool("find_features", "Find points of interest and streets of a region by name (any spelling the data "
             "has) and/or category (narrowed by an OSM tag; or several kinds at once), optionally inside a named "
             "area (a district, park, street or the region); returns the count (0 when there is none) and up to 20 features "
             "with ids, coordinates and street.",
             object_schema({"region": region, "name": {"type": "string"}, "category": category, "tag": tag,
                            "kinds": kinds, "area": {"type": "string", "minLength": 1}}, ["region"]), find_features),
        Tool("nearest_facility", "The facility of a category nearest to a place by road network distance "
             "(metres), with the next ones ranked.",
             object_schema({"region": region, "place": place, "category": category, "tag": tag,
                  "limit": {"type": "integer", "minimum": 1, "maximum": 10}}, ["region", "place", "category"]),
             nearest_facility),
        Tool("route", "Shortest drivable route between two places: network distance (m), straight "
             "distance, the streets in order and the line geometry.",
             object_schema({"region": region, "origin": place, "destination": place,
                            "every_named": {"type": "boolean", "description": "measure between every feature "
                                            "named as the origin and every one named as the destination (a name "
                                            "the data gives to several features) and keep the shortest"}},
                           ["region", "origin", "destination"]),
             route),
        Tool("within_distance", "Points of interest within a straight-line radius (m) of a place, "
             "optionally of one category; counts by category and the nearest 20.",
             object_schema({"region": region, "place": place,
                  "radius_m": {"type": "number", "exclusiveMinimum": 0, "maximum": 5000}, "category": category,
                  "tag": tag, "kinds": kinds},
                 ["region", "place", "radius_m"]), within_distance),
    ]
