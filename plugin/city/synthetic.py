"""A city-sized test region made from the bundled extracts (no larger extract is bundled).

``synthetic_city(rows, cols)`` lays the source layers of ``helsinki`` and ``kotka`` (both in
UTM 35N) out on a ``rows × cols`` grid, alternating them like a chessboard, each tile shifted
by whole multiples of its cell (the larger extent of the two plus ``GAP_M``). Adjacent tiles
are joined by ``LINKS_PER_SIDE`` straight ``secondary`` roads between the road-end points
nearest to their shared side, so the drivable network is one component. The City is built
once by ``build_city`` (the same pipeline as every region) and cached as a pickle under
``build/synthetic/`` keyed by the grid and a format version; delete the folder to rebuild.

The data is real OSM (© OpenStreetMap contributors, ODbL 1.0); only the layout is made up:
every tile is an exact copy, so demand, sites and parcels repeat with the tile period.
"""
from __future__ import annotations

import pickle
from dataclasses import fields

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely
from scipy.spatial import cKDTree

from .. import PLUGIN_ROOT
from ..errors import InputError
from ..util.io import atomic_write_bytes
from .build import build_city
from .model import City
from .regions import load_city

SOURCES = ("helsinki", "kotka")
GAP_M = 150.0            # empty strip between tiles (m), crossed by the connecting roads
LINKS_PER_SIDE = 4       # connecting roads between two adjacent tiles
BORDER_M = 400.0         # road ends this close to the shared side may be joined
FORMAT = 2               # bump when the layout changes: old caches are then ignored
CACHE_DIR = PLUGIN_ROOT / "build" / "synthetic"


def synthetic_city(rows: int = 3, cols: int = 3) -> City:
    """The ``rows × cols`` synthetic city (built on first use, then read from the cache)."""
    if not (1 <= rows <= 12 and 1 <= cols <= 12):
        raise InputError(f"synthetic city: rows and cols must be 1..12, got {rows} × {cols}")
    path = CACHE_DIR / f"city-{rows}x{cols}-v{FORMAT}.pickle"
    if path.is_file():
        with open(path, "rb") as f:
            return City(**pickle.load(f))
    city = build_city(synthetic_layers(rows, cols), f"synthetic-{rows}x{cols}", crs=_crs())
    # the fields, not the City: a pickled class is bound to the package's import name, which
    # differs between the CLI (plugin), QGIS and the tests (cityplanner.plugin)
    state = {f.name: getattr(city, f.name) for f in fields(City)}
    atomic_write_bytes(path, pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    return city


def _crs() -> str:
    crs = {load_city(s).crs for s in SOURCES}
    if len(crs) != 1:
        raise InputError(f"synthetic city: the bundled extracts are in different CRSs ({', '.join(sorted(crs))})")
    return crs.pop()


def synthetic_layers(rows: int, cols: int) -> dict[str, gpd.GeoDataFrame]:
    """The tiled source layers (roads with the connecting roads, buildings, features, …)."""
    cities = [load_city(s) for s in SOURCES]
    cell = max(max(c.bounds[2] - c.bounds[0], c.bounds[3] - c.bounds[1]) for c in cities) + GAP_M
    keys = sorted(set.intersection(*(set(c.raw) for c in cities)))
    parts: dict[str, list[gpd.GeoDataFrame]] = {k: [] for k in keys}
    ends: dict[tuple[int, int], np.ndarray] = {}
    for r in range(rows):
        for c in range(cols):
            src = cities[(r + c) % len(cities)]
            dx, dy = c * cell - src.bounds[0], r * cell - src.bounds[1]
            for k in keys:
                g = src.raw[k]
                parts[k].append(g.set_geometry(shapely.transform(g.geometry.values, lambda xy, d=(dx, dy): xy + d)))
            e = src.edges.geometry.values
            pts = np.r_[shapely.get_coordinates(shapely.get_point(e, 0)), shapely.get_coordinates(shapely.get_point(e, -1))]
            ends[(r, c)] = np.unique(pts + (dx, dy), axis=0)
    layers = {k: gpd.GeoDataFrame(pd.concat(v, ignore_index=True), crs=v[0].crs) for k, v in parts.items()}
    links = [_join(ends[a], ends[b], horizontal) for a, b, horizontal in _adjacent(rows, cols)]
    if links:
        roads = layers["roads"]
        new = gpd.GeoDataFrame({"highway": "secondary", "name": "synthetic link"},
                               geometry=[g for part in links for g in part], index=range(sum(map(len, links))),
                               crs=roads.crs)
        layers["roads"] = gpd.GeoDataFrame(pd.concat([roads, new], ignore_index=True), crs=roads.crs)
    return layers


def _adjacent(rows: int, cols: int) -> list[tuple[tuple[int, int], tuple[int, int], bool]]:
    out = [((r, c), (r, c + 1), True) for r in range(rows) for c in range(cols - 1)]
    return out + [((r, c), (r + 1, c), False) for r in range(rows - 1) for c in range(cols)]


def _join(a: np.ndarray, b: np.ndarray, horizontal: bool) -> list[shapely.LineString]:
    """Up to LINKS_PER_SIDE roads from tile ``a`` to tile ``b`` (``b`` right of or above
    ``a``): the nearest pairs of road ends near the shared side, spread along it."""
    ax = 0 if horizontal else 1
    a = a[a[:, ax] >= a[:, ax].max() - BORDER_M]
    b = b[b[:, ax] <= b[:, ax].min() + BORDER_M]
    if not len(a) or not len(b):
        return []
    d, k = cKDTree(b).query(a)
    lines, used = [], np.zeros(len(a), dtype=bool)
    along = a[:, 1 - ax]
    # one road per stretch of the side: the shortest in each of LINKS_PER_SIDE equal stretches
    edges = np.linspace(along.min(), along.max() + 1e-6, LINKS_PER_SIDE + 1)
    for lo, hi in zip(edges[:-1], edges[1:], strict=False):
        inside = np.flatnonzero((along >= lo) & (along < hi) & ~used)
        if len(inside):
            i = inside[np.argmin(d[inside])]
            used[i] = True
            lines.append(shapely.LineString([a[i], b[k[i]]]))
    return lines
