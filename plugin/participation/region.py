"""A parcel layer as a planning region: land use per parcel, the README Service / Ecology rules.

Reads the DRL GeoJSON of shared data/participation (integer ``type`` codes, ``existence``,
planar metres without CRS) and any polygon layer with a land-use field whose values are the
type names (``residential``, ``feasible``, and the eight types of ``plugin.tasks.land.TYPES``)
or their DRL codes. Residential parcels are homes; every other typed parcel is plannable.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import geopandas as gpd
import numpy as np

from ..errors import InputError
from ..tasks.land import (GREEN_TYPES, TYPE_CODES, TYPES, ecology_polygons, facilities_by_kind,
                               service_score)

LANDUSES = ("residential", "feasible") + TYPES
FIELD_GUESSES = ("type", "landuse", "land_use")


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
        """README Service: mean over residential parcels of served kinds / 5 (centroids, 500 m)."""
        fac = ~self.residential
        return service_score(self.xy[self.residential], facilities_by_kind(plan[fac], self.xy[fac]))

    def ecology(self, plan: np.ndarray) -> float:
        """README Ecology, exact: 300 m buffers of green ≥ 2000 m² over the residential area."""
        geom = self.parcels.geometry.to_numpy()
        return ecology_polygons(geom[self.residential], geom[np.isin(plan, GREEN_TYPES)])


def landuse_name(v) -> str | None:
    """A type name from a name, a DRL code or a numeric string; None for empty cells."""
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return None
    if isinstance(v, (int, np.integer)) or (isinstance(v, float) and v.is_integer()):
        return TYPE_CODES.get(int(v), str(int(v)))
    s = str(v).strip().lower()
    return TYPE_CODES.get(int(s), s) if s.isdigit() else s


def region_from_gdf(gdf: gpd.GeoDataFrame, landuse_field: str | None = None, name: str = "region") -> Region:
    """Validate a parcels table and build a Region. Bad input raises a one-line InputError."""
    if "existence" in gdf:  # DRL files keep removed features with existence = false
        gdf = gdf[gdf["existence"].fillna(False).astype(bool)]
    gdf = gdf[gdf.geom_type.isin(["Polygon", "MultiPolygon"])]
    if not len(gdf):
        raise InputError(f"{name}: no polygon parcels")
    fld = landuse_field or next((f for f in FIELD_GUESSES if f in gdf.columns), None)
    if fld is None or fld not in gdf.columns:
        cols = ", ".join(c for c in gdf.columns if c != "geometry")
        raise InputError(f"{name}: no land-use field '{fld or FIELD_GUESSES[0]}' (fields: {cols})")
    landuse = gdf[fld].map(landuse_name)
    unknown = sorted({str(v) for v in landuse if v not in LANDUSES})
    if unknown:
        raise InputError(f"{name}: unknown land-use values {', '.join(unknown[:6])} in field '{fld}' "
                         f"(known: {', '.join(LANDUSES)} or DRL codes 1, 4-12)")
    if gdf.crs is not None and gdf.crs.is_geographic:
        raise InputError(f"{name}: parcels are in a geographic CRS; reproject them to metres")
    ids = gdf["id"].to_numpy() if "id" in gdf and gdf["id"].is_unique else np.arange(len(gdf))
    parcels = gpd.GeoDataFrame({"id": ids, "landuse": landuse.to_numpy()}, geometry=gdf.geometry.to_numpy(),
                               crs=gdf.crs).reset_index(drop=True)
    if not (parcels["landuse"] == "residential").any():
        raise InputError(f"{name}: no residential parcels, so no residents to ask")
    if (parcels["landuse"] == "residential").all():
        raise InputError(f"{name}: every parcel is residential, nothing to plan")
    return Region(parcels, name)


def load_parcels(path: str | Path, landuse_field: str | None = None) -> Region:
    """Read a parcel file. A GeoJSON without CRS whose coordinates are not degrees is read
    as planar metres (the DRL files), not as the GeoJSON default WGS 84."""
    p = Path(path)
    if not p.is_file():
        raise InputError(f"parcels file not found: {path}")
    try:
        gdf = gpd.read_file(p)
    except Exception as e:  # any GDAL/pyogrio failure is a bad file for the user
        raise InputError(f"cannot read parcels {p.name}: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
    if gdf.crs is not None and gdf.crs.is_geographic and len(gdf):
        x0, y0, x1, y1 = gdf.total_bounds
        if min(x0, y0) < -180 or max(x1, y1) > 180 or max(abs(y0), abs(y1)) > 90:
            gdf = gdf.set_crs(None, allow_override=True)
    return region_from_gdf(gdf, landuse_field, p.stem)
