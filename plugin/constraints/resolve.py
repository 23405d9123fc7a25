"""Place resolution for constraints: a target in words → a geometry in the instance's data.

Everything a constraint names is looked up in the data, never invented: candidate ids, sites,
parcels and links in the candidate table; place names (POIs, named areas such as parks,
streets) and POI categories in the OSM extract of the instance's region. A misspelt name is
read as the one close data name (the reply says so); a name that is not there, or that names
several different places, is a ``Clarify`` with the closest names found. ``resolve_target``
is the one entry point (the switch point to a shared place-name resolver).
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import geopandas as gpd
import pandas as pd
import pyogrio
import shapely

from ..city import CATEGORIES, REGIONS, load_city
from ..city.osm import read_osm
from ..tasks.base import Instance

from .compile import by_id, candidate_geometries

#: words planners use for the data's POI categories
CATEGORY_WORDS = {
    "school": "school", "kindergarten": "school", "hospital": "hospital", "clinic": "clinic",
    "health centre": "clinic", "doctor": "clinic", "pharmacy": "clinic", "shop": "business",
    "business": "business", "office": "office", "park": "green", "green area": "green", "green": "green",
    "playground": "recreation", "recreation": "recreation", "parking": "parking", "car park": "parking",
    "fuel station": "fuel", "gas station": "fuel", "petrol station": "fuel", "fuel": "fuel",
    "charger": "charging", "charging station": "charging", "charging point": "charging", "charging": "charging",
    "station": "charging",
}
SPELLING_CUTOFF = 0.84   # a name this close (difflib ratio) to exactly one data name is read as it
STREET_REACH_M = 150.0   # "the school on X street": a school this close to the street


class Clarify(Exception):
    """The target cannot be resolved without the planner: the message is the question."""


@dataclass
class Resolved:
    label: str               # the data's name for it (what the reply and the constraint record)
    wkt: str                 # its geometry in the instance CRS
    category: str | None = None
    note: str | None = None  # e.g. "read 'Simonpuistiko' as 'Simonpuistikko'"


def category_of(word: str | None) -> str | None:
    w = re.sub(r"^(?:the|a|an|any|every|all|existing)\s+", "", str(word or "").strip().casefold())
    w = re.sub(r"(?<=[a-z])s$", "", w) if w not in CATEGORY_WORDS else w
    return CATEGORY_WORDS.get(w) or (w if w in CATEGORIES else None)


def region_of(inst: Instance) -> str | None:
    region = str(inst.meta.get("region", ""))
    return region if region in REGIONS else None


@lru_cache(maxsize=4)
def named_features(region: str) -> gpd.GeoDataFrame:
    """name, category, geometry (instance CRS) of every named POI, area and street of a region."""
    city = load_city(region)
    raw, _ = read_osm(REGIONS[region])
    feats = raw["features"][["name", "category", "geometry"]].to_crs(city.crs)
    streets = city.edges[["name", "geometry"]].assign(category="street")
    # every other named OSM object (a kindergarten, a neighbourhood, a square) is a place too
    others = [pyogrio.read_dataframe(REGIONS[region], layer=layer, columns=["name"], **kw).to_crs(city.crs)
              for layer, kw in (("points", {}), ("lines", {}), ("multipolygons", {"on_invalid": "fix"}))]
    out = pd.concat([feats, streets, *[o.assign(category=None) for o in others]], ignore_index=True)
    out = out[out["name"].fillna("").astype(str).str.strip() != ""].copy()
    out["name"] = out["name"].astype(str)
    out["key"] = out["name"].str.casefold()
    out["geometry"] = shapely.make_valid(out["geometry"].values)   # dirty OSM rings (DESIGN.md §6)
    return gpd.GeoDataFrame(out, geometry="geometry", crs=city.crs)


def extent(inst: Instance, margin: float) -> Any:
    return shapely.box(*shapely.bounds(shapely.union_all(candidate_geometries(inst)))).buffer(margin)


def resolve_target(inst: Instance, target: dict[str, Any], reach: float = 0.0) -> Resolved:
    """The geometry of ``target`` ({id, name, category}) in ``inst``'s data; raises Clarify."""
    tid, name, cat = (str(target.get(k) or "").strip() for k in ("id", "name", "category"))
    if tid:
        m = by_id(inst, tid)
        if not m.any():
            raise Clarify(f"there is no candidate, site, parcel or link '{tid}' in this instance "
                          f"(ids look like {', '.join(inst.ids[:3])})")
        return Resolved(tid, shapely.union_all(candidate_geometries(inst)[m]).wkt)
    region = region_of(inst)
    if region is None:
        raise Clarify("this instance has no place data: name a candidate, site, parcel or link instead")
    feats = named_features(region)
    if cat and not name:
        c = category_of(cat)
        if c is None:
            raise Clarify(f"'{cat}' is not a feature category in the data ({', '.join(CATEGORIES)})")
        f = feats[(feats["category"] == c) & feats.intersects(extent(inst, reach + 500.0))]
        return Resolved(f"any {c}", shapely.union_all(shapely.centroid(f.geometry.values)).wkt, category=c)
    if not name:
        raise Clarify("which place do you mean? (a name in the data, a site, parcel or link, or a category)")
    return _named(feats, region, name, category_of(cat))


def _named(feats: gpd.GeoDataFrame, region: str, name: str, cat: str | None) -> Resolved:
    text = re.sub(r"^(?:the|a|an)\s+", "", name.strip(), flags=re.I).strip(" .,'\"")
    on = re.match(r"^(.+?)\s+(?:on|at|in)\s+(.+)$", text, re.I)
    if on and category_of(on.group(1)):                  # "the school on Lapinlahdenkatu"
        street = _lookup(feats, region, on.group(2))
        f = feats[feats["category"] == category_of(on.group(1))]
        f = f[f.distance(shapely.from_wkt(street.wkt)) <= STREET_REACH_M]
        names = sorted(set(f["name"]))
        if not names:
            raise Clarify(f"no {category_of(on.group(1))} within {STREET_REACH_M:g} m of {street.label}")
        if len(names) > 1:
            raise Clarify(f"several places on {street.label}: {', '.join(names[:6])}; which one?")
        return Resolved(names[0], shapely.union_all(f.geometry.values).wkt, category_of(on.group(1)), street.note)
    r = _lookup(feats, region, text, cat)
    return r


def _lookup(feats: gpd.GeoDataFrame, region: str, text: str, cat: str | None = None) -> Resolved:
    q = text.strip().casefold()
    pool = feats[feats["category"] == cat] if cat and (feats["category"] == cat).any() else feats
    note = None
    hit = pool[pool["key"] == q]
    if not len(hit):
        part = pool[pool["key"].str.contains(re.escape(q), regex=True)] if len(q) >= 4 else pool.iloc[:0]
        if part["name"].nunique() == 1:
            hit = part
        elif part["name"].nunique() > 1:
            names = sorted(set(part["name"]))
            raise Clarify(f"'{text}' matches several places in {region}: {', '.join(names[:6])}; which one?")
    if not len(hit):
        keys = sorted(set(pool["key"]))
        close = difflib.get_close_matches(q, keys, n=3, cutoff=0.6)
        good = [k for k in close if difflib.SequenceMatcher(None, q, k).ratio() >= SPELLING_CUTOFF]
        if len(good) >= 1 and (len(good) == 1 or difflib.SequenceMatcher(None, q, good[1]).ratio()
                               < difflib.SequenceMatcher(None, q, good[0]).ratio()):
            hit = pool[pool["key"] == good[0]]
            note = f"read '{text}' as '{hit['name'].iloc[0]}'"
        else:
            names = sorted({pool.loc[pool["key"] == k, "name"].iloc[0] for k in close})
            hint = f"; did you mean {', '.join(names)}?" if names else ""
            raise Clarify(f"I found no place called '{text}' in the {region} data{hint}")
    label = str(hit["name"].iloc[0])
    cats = hit["category"].dropna().astype(str)
    return Resolved(label, shapely.union_all(hit.geometry.values).wkt,
                    str(cats.iloc[0]) if len(cats) and cats.iloc[0] not in ("", "street") else None, note)
