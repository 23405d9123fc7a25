"""The City: an attributed city graph in a metric CRS (the paper's G_p).

Columns (a **contract** for tasks, QGIS adapters and tools):

nodes      index ``node_id`` (int); x, y, degree, geometry (Point). Junctions are nodes whose
           degree != 2; dead ends have degree 1.
edges      edge_id (int), u, v (node ids), length (m), highway (OSM class), name, geometry
           (LineString). Only drivable roads; noded at every intersection.
faces      index ``face_id`` (int): the buildable land of the urban blocks (the paper's spatial
           units / parcels; plugin.city.units). Columns: block_id, area, width (m, 2 × the
           inscribed radius),
           building_area, coverage, floor_area, residential_floor_area, demand (residents),
           landuse (dominant OSM landuse tag or ''), green_area, n_<category> for every
           POI category (see ``CATEGORIES``), parking_area, vacant (bool), boundary (bool,
           touches the region edge), entry_nodes (list of node ids on the face boundary),
           cx, cy (representative point), geometry (Polygon).
buildings  building (OSM value), levels, area, floor_area, residential_share, face_id, geometry
pois       category (one of ``CATEGORIES``), tag, name, face_id, geometry (Point)
demand_points  residents, face_id, geometry (Point) when a demand layer was given, else None

``resident_points()`` is the demand as points for every task: the demand layer's points,
else the residential floor area of each building / ``M2_PER_RESIDENT`` at its centroid.

Demand formula (docs/city_model.md): residential floor area = Σ footprint × levels ×
residential_share over the face's buildings; demand (residents) = residential floor area /
``M2_PER_RESIDENT``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import geopandas as gpd
import networkx as nx
import numpy as np
import pandas as pd
import shapely

CATEGORIES = ("school", "hospital", "clinic", "business", "office", "recreation", "green",
              "parking", "fuel", "charging")
M2_PER_RESIDENT = 40.0


@dataclass
class City:
    name: str
    crs: str
    bounds: tuple[float, float, float, float]  # minx, miny, maxx, maxy in ``crs``
    nodes: gpd.GeoDataFrame
    edges: gpd.GeoDataFrame
    faces: gpd.GeoDataFrame
    buildings: gpd.GeoDataFrame
    pois: gpd.GeoDataFrame
    #: source layers in ``crs`` (roads incl. non-drivable, buildings, pois, landuse) so that a
    #: window can be rebuilt from the same data
    raw: dict[str, gpd.GeoDataFrame] = field(default_factory=dict, repr=False)
    log: list[dict[str, Any]] = field(default_factory=list, repr=False)
    #: what was assumed or changed while building (CRS, default fields, dropped inputs)
    warnings: list[str] = field(default_factory=list)
    #: the study-area polygon (in ``crs``) everything was clipped to, or None
    area: Any = field(default=None, repr=False)
    #: demand from the planner's demand layer (residents, face_id, Point), or None (buildings)
    demand_points: gpd.GeoDataFrame | None = field(default=None, repr=False)
    #: water and non-buildable land (kind: water | non_buildable, geometry), masked out of the faces
    masks: gpd.GeoDataFrame | None = field(default=None, repr=False)
    #: the study area in effect: ``area`` when given, else what the street network encloses
    extent: Any = field(default=None, repr=False)

    @cached_property
    def graph(self) -> nx.Graph:
        """Undirected drivable graph; parallel edges keep the shortest; weight = length."""
        g = nx.Graph()
        g.add_nodes_from((int(i), {"x": r.x, "y": r.y}) for i, r in self.nodes.iterrows())
        for r in self.edges.sort_values("length", ascending=False).itertuples():
            g.add_edge(int(r.u), int(r.v), length=float(r.length), edge_id=int(r.edge_id), highway=r.highway)
        return g

    @cached_property
    def _edge_tree(self) -> shapely.STRtree:
        return shapely.STRtree(self.edges.geometry.to_numpy())

    def node_near(self, x: float, y: float) -> int:
        """The graph node where a place at (x, y) joins the network: the nearer end of the nearest road
        edge, measured at the place's foot on that edge. The nearest node alone can lie on another road:
        with the name-change nodes (docs/city_model.md), Ekami malminki's nearest node was in a pocket cut
        off at the extract's edge, 126 m off, while Malminginkatu on the main network is 40 m away."""
        pt = shapely.Point(x, y)
        e = self.edges.iloc[int(self._edge_tree.nearest(pt))]
        foot = e.geometry.interpolate(e.geometry.project(pt))
        ends = self.nodes.loc[[int(e.u), int(e.v)], ["x", "y"]].to_numpy()
        return int((e.u, e.v)[int(np.argmin(np.hypot(ends[:, 0] - foot.x, ends[:, 1] - foot.y)))])

    def resident_points(self) -> pd.DataFrame:
        """Residents as points: x, y, residents (> 0), face (face id or -1)."""
        if self.demand_points is not None:
            d = self.demand_points
            res, xy, face = d["residents"].to_numpy(dtype=float), d.geometry, d["face_id"]
        else:
            b = self.buildings
            if b is None or not len(b):
                return pd.DataFrame(columns=["x", "y", "residents", "face"])
            res = b["floor_area"].to_numpy(dtype=float) * b["residential_share"].to_numpy(dtype=float) / M2_PER_RESIDENT
            xy, face = b.geometry.centroid, b["face_id"]
        df = pd.DataFrame({"x": xy.x.to_numpy(), "y": xy.y.to_numpy(), "residents": res,
                           "face": face.fillna(-1).to_numpy(dtype=np.int64)})
        return df[np.isfinite(df["residents"]) & (df["residents"] > 0)].reset_index(drop=True)

    def counts(self) -> dict[str, Any]:
        return {
            "region": self.name,
            "crs": self.crs,
            "faces": int(len(self.faces)),
            "roads": int(len(self.edges)),
            "road_km": round(float(self.edges["length"].sum()) / 1000, 2),
            "junctions": int((self.nodes["degree"] != 2).sum()),
            "dead_ends": int((self.nodes["degree"] == 1).sum()),
            "buildings": int(len(self.buildings)),
            "pois": int(len(self.pois)),
            "demand": round(float(self.faces["demand"].sum()), 1),
            "residential_floor_area_m2": round(float(self.faces["residential_floor_area"].sum()), 0),
            "area_km2": round(float(self.faces["area"].sum()) / 1e6, 4),
            "warnings": list(self.warnings),
        }

    def window(self, bounds: tuple[float, float, float, float], name: str | None = None) -> City:
        """The city rebuilt inside ``bounds`` (same CRS) from the same source layers.

        The window's study area is ``bounds`` ∩ this city's ``extent``: blocks cut by the
        window's edge stay (clipped), land outside what the streets enclose stays out."""
        from shapely import box

        from .build import build_city

        name = name or f"{self.name}@{'_'.join(str(int(b)) for b in bounds)}"
        if self.extent is None:
            return build_city(self.raw, name, crs=self.crs, bounds=bounds)
        area = gpd.GeoDataFrame(geometry=[box(*bounds).intersection(self.extent)], crs=self.crs)
        return build_city(self.raw, name, crs=self.crs, area=area)
