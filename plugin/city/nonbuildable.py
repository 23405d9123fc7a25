"""What is not buildable land: the road reserve and the OSM water / non-buildable areas.

Road reserve: every street is buffered by half of ``RESERVE_WIDTH_M`` of its class (the
carriageway with its kerbs, pavements and verges; a ``*_link`` by ``LINK_WIDTH_M``). The
widths are typical rights-of-way (motorway with hard shoulders and verges ≈ 32 m, a
residential street with pavements ≈ 12 m); classes not listed get ``DEFAULT_WIDTH_M``.
Medians between dual carriageways and traffic islands narrower than the reserve vanish.

Masked areas (``MASK_RULES``, an OSM key, its values and the kind they become):
  water          natural=water|bay|strait, any water=*, waterway=riverbank|dock|canal|river
                 (as areas), landuse=reservoir|basin|salt_pond, the sea (from natural=coastline:
                 OSM keeps land on the left of a coastline way, water on its right)
  non_buildable  landuse=railway|cemetery, amenity=grave_yard, natural=wetland|beach,
                 aeroway=runway|taxiway|apron
"""
from __future__ import annotations

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

RESERVE_WIDTH_M = {"motorway": 32.0, "trunk": 26.0, "primary": 22.0, "secondary": 18.0, "tertiary": 15.0,
                   "unclassified": 12.0, "residential": 12.0, "road": 12.0, "living_street": 8.0,
                   "pedestrian": 8.0, "service": 6.0}
LINK_WIDTH_M = 10.0
DEFAULT_WIDTH_M = 10.0
#: (OSM key, values or None for any value, kind)
MASK_RULES = (
    ("natural", ("water", "bay", "strait"), "water"),
    ("water", None, "water"),
    ("waterway", ("riverbank", "dock", "canal", "river"), "water"),
    ("landuse", ("reservoir", "basin", "salt_pond"), "water"),
    ("landuse", ("railway", "cemetery"), "non_buildable"),
    ("amenity", ("grave_yard",), "non_buildable"),
    ("natural", ("wetland", "beach"), "non_buildable"),
    ("aeroway", ("runway", "taxiway", "apron"), "non_buildable"),
)
MASK_KINDS = ("water", "non_buildable")
COASTLINE = "coastline"
SEA_STRIP_M = 50.0  # where a cut coastline closes no sea polygon: this strip on its water side
QUAD_SEGS = 4  # buffer arcs: 4 segments per quarter circle are within 2 % of the true radius


def reserve_width(highway: pd.Series) -> np.ndarray:
    """Total reserve width (m) per road class."""
    h = highway.fillna("").astype(str)
    w = h.map(RESERVE_WIDTH_M).to_numpy(dtype=float)
    w = np.where(h.str.endswith("_link"), LINK_WIDTH_M, w)
    return np.where(np.isnan(w), DEFAULT_WIDTH_M, w)


def road_reserve(roads: gpd.GeoDataFrame):
    """The union of the roads buffered by half their class width (a shapely geometry)."""
    if roads is None or not len(roads):
        return shapely.Polygon()
    buf = shapely.buffer(roads.geometry.to_numpy(), reserve_width(roads["highway"]) / 2.0, quad_segs=QUAD_SEGS)
    return shapely.union_all(buf)


def mask_kind(tags: pd.DataFrame) -> np.ndarray:
    """Mask kind per row of OSM tag columns ('' = land); earlier rules win."""
    out = np.full(len(tags), "", dtype=object)
    for key, values, kind in reversed(MASK_RULES):
        if key not in tags:
            continue
        v = tags[key].fillna("").astype(str)
        hit = (v != "") if values is None else v.isin(values)
        out[hit.to_numpy()] = kind
    return out


def sea(coastlines: gpd.GeoSeries, frame) -> list:
    """Sea polygons inside ``frame`` (a polygon) from coastline lines that cross it.

    The frame is cut by the coastlines; a piece is sea when more probe points 0.5 m to the
    right of the coastline segments fall in it than probes on the left (land side). A
    coastline that ends inside the frame cuts nothing: then a ``SEA_STRIP_M`` strip on its
    right side is taken as sea."""
    lines = shapely.intersection(coastlines.to_numpy(), frame)
    lines = shapely.get_parts(shapely.get_parts(lines))
    lines = lines[shapely.get_type_id(lines) == 1]
    if not len(lines):
        return []
    pieces = shapely.get_parts(shapely.polygonize(shapely.get_parts(
        shapely.union_all(np.append(lines, shapely.boundary(frame))))))
    if not len(pieces):
        return []
    right, left = [], []
    for line in lines:
        xy = shapely.get_coordinates(line)
        d = np.diff(xy, axis=0)
        n = np.hypot(d[:, 0], d[:, 1])
        ok = n > 0
        mid, d, n = (xy[:-1] + xy[1:])[ok] / 2.0, d[ok], n[ok]
        normal = np.c_[d[:, 1], -d[:, 0]] / n[:, None] * 0.5  # to the right of the direction
        right.append(mid + normal)
        left.append(mid - normal)
    tree = shapely.STRtree(pieces)
    votes = np.zeros(len(pieces))
    for pts, sign in ((np.vstack(right), 1.0), (np.vstack(left), -1.0)):
        _, hit = tree.query(shapely.points(pts), predicate="within")
        np.add.at(votes, hit, sign)
    if (votes > 0).any():
        return list(pieces[votes > 0])
    # the coastline ends inside the data (a cut extract): the water along its right side
    strip = shapely.buffer(lines, -SEA_STRIP_M, single_sided=True)
    return list(shapely.get_parts(shapely.intersection(shapely.union_all(strip), frame)))


def masks(features: gpd.GeoDataFrame | None, frame, crs: str) -> gpd.GeoDataFrame:
    """Mask polygons (kind, geometry) inside ``frame``, one row per kind, from a source layer
    with ``kind`` (water / non_buildable / coastline) and geometry."""
    rows = []
    if features is not None and len(features):
        polys = features[features.geom_type.isin(["Polygon", "MultiPolygon"])
                         & features["kind"].isin(MASK_KINDS)]
        for kind in MASK_KINDS:
            g = polys.loc[polys["kind"] == kind].geometry.to_numpy()
            if len(g):
                rows.append((kind, shapely.intersection(shapely.union_all(g), frame)))
        coast = features[(features["kind"] == COASTLINE) & features.geom_type.isin(["LineString", "MultiLineString"])]
        sea_polys = sea(coast.geometry, frame) if len(coast) else []
        if sea_polys:
            rows = [(k, shapely.union_all([g, *sea_polys]) if k == "water" else g) for k, g in rows]
            if not any(k == "water" for k, _ in rows):
                rows.append(("water", shapely.union_all(sea_polys)))
    rows = [(k, g) for k, g in rows if not shapely.is_empty(g)]
    return gpd.GeoDataFrame({"kind": [k for k, _ in rows]}, geometry=[g for _, g in rows], crs=crs)
