"""Street names for sites: the one helper that reports, Ask answers, plan answers and
Processing output use to say where a site is ("s07 on Mannerheimintie").

A site's street is its OSM ``addr:street`` when the caller has one, else the name of the nearest
named road of the city's network (``City.edges`` or a workspace's saved city model). Distances
are in the network's metric CRS; a site farther than ``max_m`` from every named road gets no
street (a lake shore, a park's middle): an honest blank beats a street across the water.

Stable public API (other modules call it; keep the signatures):
  ``StreetNamer(edges, max_m=…)``, ``.near(x, y)``, ``.of_geometry(geom)``, ``.of_sites(candidates)``
  ``namer_for_city(city)`` (cached on the City), ``namer_for_workspace(ws)`` (None without roads)
  ``site_label(site_id, street)`` → "<id> on <Street>" (or the bare id)
"""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

MAX_M = 250.0   # farther than this from every named road: no street named


class StreetNamer:
    """Nearest named road of a line layer with a ``name`` column (a metric CRS)."""

    def __init__(self, edges: Any, max_m: float = MAX_M):
        names = edges["name"].fillna("").astype(str).str.strip() if "name" in edges else pd.Series([], dtype=str)
        self.edges = edges[names.to_numpy() != ""] if len(names) else edges.iloc[0:0]
        self.names = names[names != ""].to_numpy() if len(names) else np.array([], dtype=str)
        self.max_m = float(max_m)

    def __bool__(self) -> bool:
        return len(self.edges) > 0

    def near_many(self, xy: Iterable[tuple[float, float]]) -> list[str]:
        """The street of each point ('' where no named road is within ``max_m``)."""
        import shapely

        pts = shapely.points(np.asarray(list(xy), dtype=float).reshape(-1, 2))
        if not len(pts) or not self:
            return [""] * len(pts)
        (i_pt, i_edge), dist = self.edges.sindex.nearest(pts, return_distance=True, return_all=False)
        out = [""] * len(pts)
        for p, e, d in zip(i_pt, i_edge, dist, strict=False):
            if d <= self.max_m:
                out[int(p)] = str(self.names[int(e)])
        return out

    def near(self, x: float, y: float) -> str:
        """The street of one point ('' when none is near)."""
        return self.near_many([(x, y)])[0]

    def of_geometry(self, geom: Any) -> str:
        """The street of a point, a link (its middle) or a parcel (a point inside it)."""
        p = geom if geom.geom_type == "Point" else (
            geom.interpolate(0.5, normalized=True) if geom.geom_type.endswith("LineString")
            else geom.representative_point())
        return self.near(p.x, p.y)

    def of_sites(self, candidates: pd.DataFrame) -> dict[str, str]:
        """{site id: street} for a candidates table (``id`` plus ``wkt`` or ``x``/``y``). The
        geometry wins over x/y: a parcel's x/y is its centroid, which can lie outside it."""
        if not len(candidates):
            return {}
        ids = [str(i) for i in candidates["id"]]
        if "wkt" not in candidates.columns:
            return dict(zip(ids, self.near_many(candidates[["x", "y"]].to_numpy(dtype=float)), strict=False))
        import shapely

        return {i: self.of_geometry(g) for i, g in zip(ids, shapely.from_wkt(candidates["wkt"].to_numpy()), strict=False)}


def namer_for_city(city: Any, max_m: float = MAX_M) -> StreetNamer:
    """The namer of a ``City`` (its drivable network), built once per City object."""
    cached = city.__dict__.get("_street_namer")
    if cached is None or cached.max_m != max_m:
        cached = city.__dict__["_street_namer"] = StreetNamer(city.edges, max_m)
    return cached


def namer_for_workspace(ws: str | Path, max_m: float = MAX_M) -> StreetNamer | None:
    """The namer of a workspace's saved city model (``input/city_model.gpkg``), or None when the
    workspace has none or its roads carry no names (built before names were saved)."""
    from ..audit.context import CITY_MODEL_FILE, AuditContext

    path = Path(ws) / CITY_MODEL_FILE
    if not path.is_file():
        return None
    try:
        namer = StreetNamer(AuditContext.read(path).edges, max_m)
    except Exception:  # a damaged file: the report names no streets rather than failing
        return None
    return namer or None


def site_label(site_id: Any, street: str | None) -> str:
    """"<id> on <Street>", or the bare id when the street is unknown."""
    return f"{site_id} on {street}" if street else str(site_id)


__all__ = ["MAX_M", "StreetNamer", "namer_for_city", "namer_for_workspace", "site_label"]
