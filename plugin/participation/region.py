"""A parcel layer as a planning region: land use per parcel, the Service / Ecology rules of docs/reference.md.

Reads the DRL GeoJSON of shared data/participation (integer ``type`` codes, ``existence``,
planar metres without CRS) and any polygon layer with a land-use field whose values are the
type names (``residential``, ``feasible``, and the eight types of ``plugin.tasks.land.TYPES``),
their DRL codes, or any values through a land-use map (``plugin.parcels.landuse_map``).
Residential parcels are homes; every other kept parcel is plannable.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import geopandas as gpd
import numpy as np

from ..errors import InputError
from ..parcels.layer import parcels_frame, read_parcel_layer, unlabel_false_degrees
from ..tasks.land import (
    GREEN_TYPES,
    ecology_polygons,
    facilities_by_kind,
    service_score,
)


@dataclass
class Region:
    """Parcels (columns ``id``, ``landuse``, geometry) in a planar metric CRS (or none)."""

    parcels: gpd.GeoDataFrame
    name: str = "region"
    xy: np.ndarray = field(init=False)
    area: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        cen = self.parcels.geometry.centroid
        self.xy = np.c_[cen.x.to_numpy(), cen.y.to_numpy()]
        self.area = self.parcels.geometry.area.to_numpy()
        self.residential = (self.parcels["landuse"] == "residential").to_numpy()
        self.plannable = ~self.residential

    @property
    def ids(self) -> np.ndarray:
        return self.parcels["id"].to_numpy()

    @property
    def plan0(self) -> np.ndarray:
        """The layer's current land use (object array, one entry per parcel)."""
        return self.parcels["landuse"].to_numpy(dtype=object)

    def service(self, plan: np.ndarray) -> float:
        """Service: mean over residential parcels of served kinds / 5 (centroids, 500 m)."""
        fac = ~self.residential
        return service_score(self.xy[self.residential], facilities_by_kind(plan[fac], self.xy[fac]))

    def ecology(self, plan: np.ndarray) -> float:
        """Ecology, exact: 300 m buffers of green ≥ 2000 m² over the residential area."""
        geom = self.parcels.geometry.to_numpy()
        return ecology_polygons(geom[self.residential], geom[np.isin(plan, GREEN_TYPES)])


def region_from_gdf(gdf: gpd.GeoDataFrame, landuse_field: str | None = None, name: str = "region",
                    landuse_map: str | Mapping[str, str] | None = None, assume_crs: str | None = None,
                    warnings: list[str] | None = None) -> Region:
    """Validate a parcels table and build a Region. Bad input raises a one-line InputError.

    ``landuse_map`` maps the field's values to planning types (``plugin.parcels.landuse_map``;
    the program, ``--need``, is ``participation.program``'s). Parcels are brought to the
    working CRS (``plugin.city.crs``); a file without CRS (the participation data) is read as
    planar metres with a warning."""
    warnings = warnings if warnings is not None else []
    if "existence" in gdf:  # DRL files keep removed features with existence = false
        gdf = gdf[gdf["existence"].fillna(False).astype(bool)]
    gdf = gdf[gdf.geom_type.isin(["Polygon", "MultiPolygon"])]
    if not len(gdf):
        raise InputError(f"{name}: no polygon parcels")
    parcels = parcels_frame(unlabel_false_degrees(gdf), name, landuse_field, landuse_map, None, assume_crs, warnings,
                            planar=True)
    if not (parcels["landuse"] == "residential").any():
        raise InputError(f"{name}: no residential parcels, so no residents to ask")
    if (parcels["landuse"] == "residential").all():
        raise InputError(f"{name}: every parcel is residential, nothing to plan")
    return Region(parcels.reset_index(drop=True), name)


def load_parcels(path: str | Path, landuse_field: str | None = None, landuse_map: str | None = None,
                 assume_crs: str | None = None, warnings: list[str] | None = None) -> Region:
    """Read ``PATH[:LAYER]`` (a GeoPackage layer, GeoJSON, …); see ``read_parcel_layer``."""
    warnings = warnings if warnings is not None else []
    gdf, name = read_parcel_layer(str(path), warnings)
    return region_from_gdf(gdf, landuse_field, name, landuse_map, assume_crs, warnings)
