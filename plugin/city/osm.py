"""Read an OpenStreetMap extract (.osm.pbf / .osm) into the City's source layers.

GDAL's OSM driver (through pyogrio) does the parsing. Tags that GDAL's default osmconf puts
in ``other_tags`` (amenity on points, building:levels, service, shop on points …) are pulled
out of that hstore string. Real OSM is dirty: invalid polygons are repaired with
``make_valid`` and the few that stay unusable are dropped and counted in the log.
"""
from __future__ import annotations

import re
import warnings
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pyogrio
import shapely

from ..errors import InputError
from .nonbuildable import COASTLINE, mask_kind

_HSTORE = re.compile(r'"((?:[^"\\]|\\.)*)"=>"((?:[^"\\]|\\.)*)"')
_POLY_COLS = ["osm_id", "osm_way_id", "name", "aeroway", "amenity", "building", "landuse", "leisure",
              "natural", "office", "shop", "other_tags"]


def tag(other_tags: pd.Series, key: str) -> pd.Series:
    """Value of ``key`` from GDAL's hstore ``other_tags`` column ('' when absent)."""
    pat = re.compile(r'"' + re.escape(key) + r'"=>"((?:[^"\\]|\\.)*)"')
    return other_tags.fillna("").map(lambda s: (m.group(1) if (m := pat.search(s)) else ""))


def read_osm(path: str | Path) -> tuple[dict[str, gpd.GeoDataFrame], dict]:
    """Return raw layers in EPSG:4326 — roads, buildings, pois, landuse — and a log record."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"OSM file not found: {path}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # GDAL's notes on unclosed rings etc.
            lines = pyogrio.read_dataframe(path, layer="lines", columns=["osm_id", "name", "highway", "other_tags"])
            # GDAL hands over rings that shapely can't build; "fix" repairs them on read
            polys = pyogrio.read_dataframe(path, layer="multipolygons", columns=_POLY_COLS, on_invalid="fix")
            points = pyogrio.read_dataframe(path, layer="points", columns=["osm_id", "name", "other_tags"])
    except Exception as e:  # GDAL raises a zoo of error types for non-OSM input
        raise InputError(f"cannot read {path.name} as OpenStreetMap data: {str(e).splitlines()[0]}") from None

    roads = lines[lines["highway"].notna()].copy()
    roads["service"] = tag(roads["other_tags"], "service")
    roads["junction"] = tag(roads["other_tags"], "junction")  # roundabouts rim traffic islands
    roads = roads[["osm_id", "name", "highway", "service", "junction", "geometry"]]

    n_poly = len(polys)
    polys["geometry"] = shapely.make_valid(polys.geometry.values)
    polys = polys[~polys.geometry.is_empty & polys.geometry.notna()]
    polys = polys.explode(index_parts=False)
    polys = polys[polys.geom_type == "Polygon"]  # make_valid may leave stray lines/points
    log = {"event": "read_osm", "file": path.name, "roads": int(len(roads)),
           "polygons": n_poly, "polygons_dropped_invalid": int(n_poly - polys.index.nunique())}

    levels = pd.to_numeric(tag(polys["other_tags"], "building:levels").str.extract(r"(\d+(?:\.\d+)?)")[0],
                           errors="coerce")
    is_b = polys["building"].notna()
    buildings = polys[is_b].assign(levels=levels[is_b])[["osm_id", "osm_way_id", "name", "building", "levels", "geometry"]]

    area_pois = polys[~is_b | polys["amenity"].notna() | polys["shop"].notna() | polys["office"].notna()].copy()
    for k in ("amenity", "shop", "office", "leisure", "landuse", "natural"):
        area_pois[k] = area_pois[k].fillna("")

    pts = points.copy()
    for k in ("amenity", "shop", "office", "leisure", "landuse", "natural"):
        pts[k] = tag(pts["other_tags"], k)
    pts = pts[(pts[["amenity", "shop", "office", "leisure"]] != "").any(axis=1)]
    cols = ["name", "amenity", "shop", "office", "leisure", "landuse", "natural", "geometry"]
    features = gpd.GeoDataFrame(pd.concat([area_pois[cols], pts[cols]], ignore_index=True),
                                geometry="geometry", crs=polys.crs)
    features["category"] = categorize(features)
    features = features[(features["category"] != "") | (features["landuse"] != "")]
    features = features[["name", "category", "landuse", "geometry"]]
    return {"roads": roads.reset_index(drop=True), "buildings": buildings.reset_index(drop=True),
            "features": features, "masks": _masks(polys, lines)}, log


def _masks(polys: gpd.GeoDataFrame, lines: gpd.GeoDataFrame) -> gpd.GeoDataFrame:
    """Water and non-buildable polygons (plugin.city.nonbuildable rules) and coastline lines."""
    tags = polys[["natural", "landuse", "amenity", "aeroway"]].copy()
    for k in ("water", "waterway"):
        tags[k] = tag(polys["other_tags"], k)
    kind = mask_kind(tags)
    coast = lines[tag(lines["other_tags"], "natural") == COASTLINE]
    return gpd.GeoDataFrame({"kind": np.r_[kind[kind != ""], np.full(len(coast), COASTLINE, dtype=object)]},
                            geometry=np.r_[polys.geometry.to_numpy()[kind != ""], coast.geometry.to_numpy()],
                            crs=polys.crs)


def categorize(features: pd.DataFrame) -> np.ndarray:
    """Map OSM tags to the City's POI categories ('' = none). Order matters: first match wins."""
    a, s, o, lei, lu, nat = (features[k].fillna("") for k in ("amenity", "shop", "office", "leisure", "landuse", "natural"))
    rules = [
        ("charging", a == "charging_station"),
        ("fuel", a == "fuel"),
        ("parking", a.isin(["parking", "parking_space"]) | (lu == "garages")),
        ("hospital", a == "hospital"),
        ("clinic", a.isin(["clinic", "doctors", "dentist", "pharmacy"])),
        ("school", a.isin(["school", "kindergarten", "college", "university"])),
        ("recreation", lei.isin(["sports_centre", "pitch", "playground", "fitness_centre", "stadium",
                                 "swimming_pool", "track", "ice_rink"])
         | a.isin(["theatre", "cinema", "library", "community_centre", "arts_centre"])),
        ("green", lei.isin(["park", "garden", "nature_reserve", "dog_park"])
         | lu.isin(["grass", "forest", "meadow", "recreation_ground", "village_green", "cemetery", "allotments"])
         | nat.isin(["wood", "scrub", "grassland", "heath"])),
        ("office", o != ""),
        ("business", (s != "") | a.isin(["marketplace", "restaurant", "cafe", "fast_food", "bank", "pub", "bar"])),
    ]
    out = np.full(len(features), "", dtype=object)
    for name, cond in reversed(rules):  # earlier rules overwrite later ones
        out[cond.to_numpy()] = name
    return out
