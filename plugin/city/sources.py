"""A planner's own layers: ``PATH[:LAYER]`` specs, reading with checks, fields → the City's columns.

The same field rules serve the CLI (files) and QGIS (feature sources already read into
frames). Every optional field that is missing takes a documented default and adds a
warning (docs/cli.md#your-own-data, "Defaults for missing fields"):

=============  ======================  =================================================
layer          field (flag)            when missing
=============  ======================  =================================================
roads          --highway-field         ``highway`` if present, else every road is a
                                       drivable ``residential`` street
buildings      --building-field        ``building`` if present, else ``yes`` (mixed use,
                                       residential share 0.5)
buildings      --levels-field          ``levels`` / ``building:levels`` if present, else
                                       the default per building type (3 for ``yes``)
pois           --category-field        ``category`` if present, else OSM tags (amenity,
                                       shop, …) if present, else an error
demand         --demand-field          ``weight`` if present, else 1 per feature
=============  ======================  =================================================
"""
from __future__ import annotations

import warnings as pywarnings
from dataclasses import dataclass
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pyogrio
import shapely

from ..errors import InputError
from .model import CATEGORIES
from .osm import categorize

GEOMETRY_KINDS = {"line": ("LineString", "MultiLineString"), "polygon": ("Polygon", "MultiPolygon"),
                  "point": ("Point", "MultiPoint"),
                  "point or polygon": ("Point", "MultiPoint", "Polygon", "MultiPolygon")}
#: features per layer read (docs/limits.md): above it a layer is refused in one line, from the
#: file's header count, before anything is read (200,000 tiny roads ran past 120 s and 2 GB;
#: 20,000-feature layers build within 2 GB, measured by ``bench --suite scale``)
MAX_LAYER_FEATURES = 100_000
#: vertices (coordinates) in one layer: one road of 5 million vertices took 4.9 GB to node
MAX_LAYER_VERTICES = 2_000_000
MAX_DEMAND_WEIGHT = 1e9

OSM_TAGS = ("amenity", "shop", "office", "leisure", "landuse", "natural")


@dataclass(frozen=True)
class LayerSpec:
    """A file and, optionally, one of its layers; ``flag`` names the option in messages."""

    path: Path
    layer: str | None
    flag: str

    def __str__(self) -> str:
        return f"{self.path.name}:{self.layer}" if self.layer else self.path.name


def parse_layer_spec(text: str, flag: str) -> LayerSpec:
    """``PATH`` or ``PATH:LAYER``; the last ``:`` splits only when what precedes it is a file
    (so ``C:\\data\\x.gpkg`` and names with a colon in the folder still work)."""
    text = str(text).strip()
    if not text:
        raise InputError(f"{flag}: empty path")
    head, sep, tail = text.rpartition(":")
    if sep and head and Path(head).is_file() and not Path(text).is_file():
        return LayerSpec(Path(head), tail or None, flag)
    p = Path(text)
    if not p.is_file():
        raise InputError(f"{flag}: file not found: {text}")
    return LayerSpec(p, None, flag)


def layer_names(path: Path) -> list[str]:
    try:
        return [str(n) for n, _ in pyogrio.list_layers(path)]
    except Exception as e:  # noqa: BLE001 - GDAL's error types vary by driver
        raise InputError(f"cannot open {path.name}: {_first_line(e)}") from None


def _first_line(e: Exception) -> str:
    return str(e).splitlines()[0] if str(e) else type(e).__name__


def choose_layer(spec: LayerSpec, default: str | None = None) -> str:
    """The layer to read: the named one, the only one, or ``default`` when the file has it."""
    names = layer_names(spec.path)
    if not names:
        raise InputError(f"{spec.flag}: {spec.path.name} holds no layers")
    if spec.layer is not None:
        if spec.layer not in names:
            raise InputError(f"{spec.flag}: {spec.path.name} has no layer '{spec.layer}' (layers: {', '.join(names)})")
        return spec.layer
    if len(names) == 1:
        return names[0]
    if default in names:
        return default
    raise InputError(f"{spec.flag}: {spec.path.name} has layers {', '.join(names)}; name one, "
                     f"e.g. {spec.flag} {spec.path.name}:{names[0]}")


def check_layer_count(spec: LayerSpec, default: str | None = None) -> None:
    """The feature limit of ``read_layer`` from the file header alone: a command can refuse an
    oversized layer before slower work (building the city the layer belongs to)."""
    layer = choose_layer(spec, default)
    try:
        with pywarnings.catch_warnings():
            pywarnings.simplefilter("ignore", RuntimeWarning)
            count = pyogrio.read_info(spec.path, layer=layer, force_feature_count=True)["features"]
    except Exception as e:  # noqa: BLE001 - any GDAL failure is a bad file for the user
        raise InputError(f"{spec.flag} {spec.path.name}:{layer}: cannot read: {_first_line(e)}") from None
    _check_count(count, f"{spec.flag} {spec.path.name}:{layer}")


def read_layer(spec: LayerSpec, geometry: str, default: str | None = None,
               warnings: list[str] | None = None) -> gpd.GeoDataFrame:
    """Read a layer and check it: not empty, ``geometry`` kind, valid geometries. Features
    without geometry are dropped (a warning). One-line InputError on anything else."""
    layer = choose_layer(spec, default)
    label = f"{spec.flag} {spec.path.name}:{layer}"
    try:
        with pywarnings.catch_warnings():
            pywarnings.simplefilter("ignore", RuntimeWarning)
            count = pyogrio.read_info(spec.path, layer=layer, force_feature_count=True)["features"]
            _check_count(count, label)
            gdf = pyogrio.read_dataframe(spec.path, layer=layer)
    except InputError:
        raise
    except Exception as e:  # noqa: BLE001 - any GDAL failure is a bad file for the user
        raise InputError(f"{label}: cannot read: {_first_line(e)}") from None
    return check_frame(gdf, label, geometry, warnings)


def _check_count(count: int, label: str) -> None:
    if count > MAX_LAYER_FEATURES:
        raise InputError(f"{label}: {count:,} features, more than the {MAX_LAYER_FEATURES:,} a layer may hold "
                         "(docs/limits.md); clip the layer to the planning area first")


def check_frame(gdf: gpd.GeoDataFrame, label: str, geometry: str,
                warnings: list[str] | None = None) -> gpd.GeoDataFrame:
    """The checks of ``read_layer`` on a frame already read (the QGIS adapter's too)."""
    if not len(gdf):
        raise InputError(f"{label}: layer is empty")
    _check_count(len(gdf), label)
    vertices = int(shapely.get_num_coordinates(gdf.geometry.values).sum())
    if vertices > MAX_LAYER_VERTICES:
        raise InputError(f"{label}: {vertices:,} vertices, more than the {MAX_LAYER_VERTICES:,} a layer may hold "
                         "(docs/limits.md); simplify the layer or clip it to the planning area first")
    has = gdf.geometry.notna() & ~gdf.geometry.is_empty
    if not has.any():
        raise InputError(f"{label}: no feature has a geometry")
    if not has.all() and warnings is not None:
        warnings.append(f"{label}: {int((~has).sum())} feature(s) without geometry dropped")
    gdf = gdf[has]
    kinds = set(gdf.geom_type.unique())
    wrong = kinds - set(GEOMETRY_KINDS[geometry])
    right = gdf.geom_type.isin(GEOMETRY_KINDS[geometry])
    if wrong and not right.any():
        raise InputError(f"{label}: expected {geometry} geometries, found {', '.join(sorted(wrong))}")
    if wrong:   # a mixed layer (the DRL files keep roads and junctions beside the parcels)
        if warnings is not None:
            warnings.append(f"{label}: {int((~right).sum())} feature(s) that are not {geometry}s "
                            f"({', '.join(sorted(wrong))}) skipped")
        gdf = gdf[right]
    bad = np.flatnonzero(~shapely.is_valid(gdf.geometry.values))
    if len(bad):
        raise InputError(f"{label}: {len(bad)} invalid geometr{'y' if len(bad) == 1 else 'ies'} "
                         f"({shapely.is_valid_reason(gdf.geometry.values[bad[0]])}); repair them first "
                         "(QGIS: Fix geometries)")
    return gdf.reset_index(drop=True)


def pick_field(gdf: pd.DataFrame, given: str | None, guesses: tuple[str, ...], label: str, flag: str) -> str | None:
    """The field to use: ``given`` (must exist), else the first of ``guesses`` present, else None."""
    if given:
        if given not in gdf.columns:
            cols = ", ".join(str(c) for c in gdf.columns if c != "geometry") or "none"
            raise InputError(f"{label}: no field '{given}' for {flag} (fields: {cols})")
        return given
    return next((g for g in guesses if g in gdf.columns), None)


def _text(gdf: pd.DataFrame, col: str | None, default: str) -> pd.Series:
    if col is None:
        return pd.Series(default, index=gdf.index, dtype=object)
    return gdf[col].map(lambda v: default if v is None or (isinstance(v, float) and np.isnan(v)) or str(v) == ""
                        else str(v).strip())


def roads_frame(gdf: gpd.GeoDataFrame, highway_field: str | None, label: str, warnings: list[str]) -> gpd.GeoDataFrame:
    """Roads with ``highway``, ``service``, ``name`` (OSM classes expected in the class field)."""
    from .build import DRIVABLE, FACE_EXTRA

    hw = pick_field(gdf, highway_field, ("highway",), label, "--highway-field")
    if hw is None:
        warnings.append(f"{label}: no road class field (--highway-field / HIGHWAY_FIELD): every road is taken as a drivable "
                        "residential street")
    out = gpd.GeoDataFrame({"highway": _text(gdf, hw, "residential").str.lower(),
                            "service": _text(gdf, "service" if "service" in gdf else None, ""),
                            "name": _text(gdf, "name" if "name" in gdf else None, "")},
                           geometry=gdf.geometry.values, crs=gdf.crs)
    known = out["highway"].isin(DRIVABLE | FACE_EXTRA)
    if not known.any():
        vals = ", ".join(out["highway"].value_counts().index[:8].astype(str))
        raise InputError(f"{label}: no road has an OSM drivable class in field '{hw}' (values: {vals}); "
                         "give --highway-field a field with OSM highway values, or none (all residential)")
    if not known.all():
        warnings.append(f"{label}: {int((~known).sum())} of {len(out)} roads have a class that is not drivable "
                        f"(e.g. '{out.loc[~known, 'highway'].iloc[0]}'): left out of the network")
    return out


def buildings_frame(gdf: gpd.GeoDataFrame, building_field: str | None, levels_field: str | None, label: str,
                    warnings: list[str]) -> gpd.GeoDataFrame:
    """Buildings with ``building`` (type, 'yes' = mixed use) and ``levels`` (float, NaN = default)."""
    bf = pick_field(gdf, building_field, ("building",), label, "--building-field")
    lf = pick_field(gdf, levels_field, ("levels", "building:levels"), label, "--levels-field")
    if bf is None:
        warnings.append(f"{label}: no building type field (--building-field / BUILDING_FIELD): every building is taken as "
                        "mixed use (residential share 0.5)")
    if lf is None:
        warnings.append(f"{label}: no levels field (--levels-field / LEVELS_FIELD): levels default by building type "
                        "(3 for untyped buildings)")
        levels = pd.Series(np.nan, index=gdf.index)
    else:
        raw = gdf[lf]
        levels = pd.to_numeric(raw.astype(str).str.extract(r"(\d+(?:\.\d+)?)")[0], errors="coerce")
        bad = levels.isna() & raw.notna() & (raw.astype(str).str.strip() != "")
        if bad.any():
            warnings.append(f"{label}: {int(bad.sum())} value(s) of '{lf}' are not numbers (e.g. "
                            f"'{raw[bad].iloc[0]}'); those buildings take the default levels")
    return gpd.GeoDataFrame({"building": _text(gdf, bf, "yes").str.lower(), "levels": levels.astype(float)},
                            geometry=gdf.geometry.values, crs=gdf.crs)


def pois_frame(gdf: gpd.GeoDataFrame, category_field: str | None, label: str, warnings: list[str]) -> gpd.GeoDataFrame:
    """Features with ``category`` (one of CATEGORIES or ''), ``landuse`` and ``name``."""
    cf = pick_field(gdf, category_field, ("category",), label, "--category-field")
    name = _text(gdf, "name" if "name" in gdf else None, "")
    if cf is None:
        tags = [t for t in OSM_TAGS if t in gdf.columns]
        if not tags:
            cols = ", ".join(str(c) for c in gdf.columns if c != "geometry") or "none"
            raise InputError(f"{label}: no category field; give --category-field / CATEGORY_FIELD "
                             f"(values: {', '.join(CATEGORIES)}; "
                             f"fields: {cols})")
        f = pd.DataFrame({t: _text(gdf, t if t in gdf else None, "") for t in OSM_TAGS})
        cat = pd.Series(categorize(f), index=gdf.index)
        landuse = f["landuse"]
    else:
        cat = _text(gdf, cf, "").str.lower()
        landuse = _text(gdf, "landuse" if "landuse" in gdf else None, "")
    other = (cat != "") & ~cat.isin(CATEGORIES)
    if other.any():
        warnings.append(f"{label}: {int(other.sum())} feature(s) with a category outside "
                        f"{', '.join(CATEGORIES)} ignored (e.g. '{cat[other].iloc[0]}')")
    cat = cat.where(cat.isin(CATEGORIES), "")
    return gpd.GeoDataFrame({"name": name, "category": cat, "landuse": landuse},
                            geometry=gdf.geometry.values, crs=gdf.crs)


def demand_frame(gdf: gpd.GeoDataFrame, demand_field: str | None, label: str, warnings: list[str]) -> gpd.GeoDataFrame:
    """Demand points (``residents``): a point per feature (a polygon's representative point)."""
    wf = pick_field(gdf, demand_field, ("weight",), label, "--demand-field")
    if wf is None:
        warnings.append(f"{label}: no weight field (--demand-field / DEMAND_FIELD): every feature counts as 1 resident")
        w = pd.Series(1.0, index=gdf.index)
    else:
        w = pd.to_numeric(gdf[wf], errors="coerce")
        if w.isna().any() or (w < 0).any():
            raise InputError(f"{label}: field '{wf}' must hold non-negative numbers "
                             f"({int(w.isna().sum())} empty or not numbers, {int((w < 0).sum())} negative)")
        # weights near 1e308 overflow every sum and share to inf / NaN further on: a weight is
        # residents or a share of them, and no place holds more than a billion
        if (w > MAX_DEMAND_WEIGHT).any():
            raise InputError(f"{label}: field '{wf}' holds weights up to {float(w.max()):.3g}; at most "
                             f"{MAX_DEMAND_WEIGHT:.0e} per feature (residents or a relative weight)")
    if not w.sum() > 0:
        raise InputError(f"{label}: the demand weights sum to 0")
    return gpd.GeoDataFrame({"residents": w.astype(float).to_numpy()},
                            geometry=gdf.geometry.representative_point().values, crs=gdf.crs)


def area_polygon(gdf: gpd.GeoDataFrame) -> gpd.GeoDataFrame:
    """The study area as one (multi)polygon row."""
    return gpd.GeoDataFrame(geometry=[shapely.union_all(gdf.geometry.values)], crs=gdf.crs)
