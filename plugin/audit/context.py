"""The geometry an audit checks plans against, taken from the city model.

``AuditContext``: drivable road edges (u, v, highway), the water / non-buildable masks,
building footprints and the study area in effect (``City.extent``). It is saved next to a
workspace's instance as ``input/city_model.gpkg`` so that a workspace can be audited on its
own; a workspace of a bundled region without that file is audited against the region rebuilt
from its name (``helsinki``, ``kotka`` or a window ``helsinki@minx_miny_maxx_maxy``).
"""
from __future__ import annotations

import os
import tempfile
import warnings
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import geopandas as gpd
import pyogrio
import shapely

from ..city.nonbuildable import road_reserve
from ..errors import InputError

CITY_MODEL_FILE = "input/city_model.gpkg"
LAYERS = ("edges", "masks", "buildings", "extent")


@dataclass(frozen=True)
class AuditContext:
    crs: str
    edges: gpd.GeoDataFrame       # u, v, highway, name (when known), geometry (drivable network)
    masks: gpd.GeoDataFrame       # kind (water | non_buildable), geometry
    buildings: gpd.GeoDataFrame   # geometry
    extent: Any                   # shapely (Multi)Polygon: the study area in effect (None: unknown)

    @classmethod
    def from_city(cls, city) -> "AuditContext":
        masks = getattr(city, "masks", None)
        if masks is None:
            masks = gpd.GeoDataFrame({"kind": []}, geometry=[], crs=city.crs)
        extent = getattr(city, "extent", None)
        if extent is None:  # a City built before extents existed: its bounding box
            extent = shapely.box(*city.bounds)
        # street names travel with the roads: reports name each site's street from this file
        cols = ["u", "v", "highway", *(["name"] if "name" in city.edges else []), "geometry"]
        return cls(city.crs, city.edges[cols].reset_index(drop=True),
                   masks[["kind", "geometry"]].reset_index(drop=True),
                   city.buildings[["geometry"]].reset_index(drop=True), extent)

    @classmethod
    def without_city(cls, crs: str) -> "AuditContext":
        """No roads, masks, buildings or study area: the geometry-free rules only."""
        empty = gpd.GeoDataFrame({"kind": []}, geometry=[], crs=crs)
        edges = gpd.GeoDataFrame({"u": [], "v": [], "highway": []}, geometry=[], crs=crs)
        return cls(crs, edges, empty, empty[["geometry"]], None)

    @cached_property
    def reserve(self):
        """The streets' road reserve (service roads inside a block belong to its site)."""
        return road_reserve(self.edges[self.edges["highway"] != "service"])

    def mask(self, kind: str):
        """The union of the masks of ``kind`` (None when there is none)."""
        return self._masks.get(kind)

    @cached_property
    def _masks(self) -> dict[str, Any]:
        return {k: shapely.union_all(g.geometry.to_numpy()) for k, g in self.masks.groupby("kind")}

    def write(self, path: str | Path) -> Path:
        """Write the context as a GeoPackage, atomically (temp file, then rename)."""
        path = Path(path)
        fd, tmp = tempfile.mkstemp(suffix=".gpkg", dir=path.parent, prefix=f".{path.stem}.")
        os.close(fd)
        os.unlink(tmp)  # GDAL refuses to create a GeoPackage over an existing empty file
        extent = gpd.GeoDataFrame({"name": ["study_area"]}, geometry=[self.extent], crs=self.crs)
        try:
            for name, layer in (("edges", self.edges), ("masks", self.masks), ("buildings", self.buildings),
                                ("extent", extent)):
                layer.to_file(tmp, layer=name, driver="GPKG", engine="pyogrio")
            os.replace(tmp, path)
        finally:
            Path(tmp).unlink(missing_ok=True)
        return path

    @classmethod
    def read(cls, path: str | Path) -> "AuditContext":
        path = Path(path)
        st = path.stat()
        return _read(str(path), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=8)
def _read(path: str, mtime_ns: int, size: int) -> AuditContext:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # GDAL notes on empty layers
            found = {name for name, _ in pyogrio.list_layers(path)}
            layers = {n: pyogrio.read_dataframe(path, layer=n) for n in LAYERS if n in found}
    except Exception as e:  # GDAL raises a zoo of error types on a damaged file
        raise InputError(f"cannot read the audit context {Path(path).name}: {str(e).splitlines()[0]}") from None
    if "edges" not in layers or "extent" not in layers:
        raise InputError(f"{Path(path).name} is not an audit context (layers edges and extent are required)")
    crs = layers["edges"].crs.to_string()
    empty = gpd.GeoDataFrame({"kind": []}, geometry=[], crs=crs)
    return AuditContext(crs, layers["edges"], layers.get("masks", empty),
                        layers.get("buildings", empty[["geometry"]]),
                        shapely.union_all(layers["extent"].geometry.to_numpy()))


def context_for_workspace(ws: str | Path, inst) -> AuditContext:
    """The workspace's saved context, else the bundled region its instance names; a land
    instance of a parcel layer has no city: only its sites' own rules (area, width) are checked."""
    path = Path(ws) / CITY_MODEL_FILE
    if path.is_file():
        return AuditContext.read(path)
    if inst.meta.get("source") == "parcels":
        return AuditContext.without_city(inst.crs)
    return _region_context(str(inst.meta.get("region", "")))


@lru_cache(maxsize=4)
def _region_context(region: str) -> AuditContext:
    from ..city import REGIONS, load_city

    base, _, window = region.partition("@")
    if base not in REGIONS:
        raise InputError(f"no city model for this workspace ({CITY_MODEL_FILE} is missing and "
                         f"'{region}' is not a bundled region): rebuild it with `python -m plugin instance`")
    city = load_city(base)
    if window:
        try:
            bounds = tuple(float(b) for b in window.split("_"))
        except ValueError:
            raise InputError(f"cannot read the window of region '{region}'") from None
        city = city.window(bounds, region)
    return AuditContext.from_city(city)
