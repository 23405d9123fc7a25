"""Build a ``City`` from source layers: drivable graph, faces, buildings, POIs, demand.

Source layers (dict of GeoDataFrames, any one CRS):
  roads      highway (OSM class), service, name, LineString geometry
  buildings  building (OSM value or 'yes'), levels (float or NaN), Polygon geometry
  features   category (see ``CATEGORIES`` or ''), landuse (OSM landuse or ''), name,
             Point or Polygon geometry (POIs and land-use / green areas)

Choices (documented in README):
* drivable = OSM car classes; service roads except parking aisles / driveways.
* faces = polygonize(streets ∪ region boundary) where streets = drivable roads without
  service roads, plus pedestrian streets; faces under ``MIN_FACE_M2`` are slivers and dropped.
* levels default by building type (``DEFAULT_LEVELS``); residential share 1 for dwelling
  types, 0.5 for untyped 'yes' (mixed use), 0 otherwise; demand = residential floor area / 40 m².
"""
from __future__ import annotations

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely
from pyproj import CRS

from ..errors import InputError

from .model import CATEGORIES, M2_PER_RESIDENT, City

DRIVABLE = {"motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential",
            "living_street", "service", "road", "motorway_link", "trunk_link", "primary_link",
            "secondary_link", "tertiary_link"}
NOT_DRIVABLE_SERVICE = {"parking_aisle", "driveway", "drive-through", "emergency_access"}
FACE_EXTRA = {"pedestrian"}
MIN_FACE_M2 = 300.0
RESIDENTIAL = {"apartments", "residential", "house", "detached", "terrace", "semidetached_house",
               "dormitory", "bungalow", "farm"}
DEFAULT_LEVELS = {"apartments": 5, "residential": 3, "dormitory": 4, "house": 2, "detached": 2,
                  "terrace": 2, "semidetached_house": 2, "bungalow": 1, "garage": 1, "garages": 1,
                  "shed": 1, "hut": 1, "roof": 1, "carport": 1}
DEFAULT_LEVELS_OTHER = 3
SNAP_M = 0.01  # endpoint rounding that merges coincident road ends into one node


def metric_crs(gdf: gpd.GeoDataFrame) -> str:
    """The local UTM zone for geographic data; a projected CRS in metres is kept."""
    crs = CRS.from_user_input(gdf.crs) if gdf.crs is not None else None
    if crs is None:
        raise InputError("layer has no CRS")
    if crs.is_geographic:
        return gdf.estimate_utm_crs().to_string()
    unit = crs.axis_info[0].unit_name if crs.axis_info else ""
    if unit not in ("metre", "meter"):
        raise InputError(f"CRS {crs.to_string()} is not in metres (units: {unit or 'unknown'})")
    return crs.to_string()


def build_city(raw: dict[str, gpd.GeoDataFrame], name: str, crs: str | None = None,
               bounds: tuple[float, float, float, float] | None = None) -> City:
    roads = raw.get("roads")
    if roads is None or roads.empty:
        raise InputError(f"{name}: no roads in the input")
    crs = crs or metric_crs(roads)
    raw = {k: _prepare_layer(v, crs) for k, v in raw.items() if v is not None}
    for col in ("name", "service"):  # optional on user layers
        if col not in raw["roads"]:
            raw["roads"][col] = ""
    if bounds is None:  # the whole input: no clipping (clip_by_rect drops lines on the rectangle's edge)
        bounds = tuple(float(b) for b in raw["roads"].total_bounds)
        clipped = raw
    else:
        clipped = {k: _clip(v, bounds) for k, v in raw.items()}
    log: list[dict] = []

    drive = clipped["roads"]
    drive = drive[drive["highway"].isin(DRIVABLE) & ~drive["service"].fillna("").isin(NOT_DRIVABLE_SERVICE)]
    if drive.empty:
        raise InputError(f"{name}: no drivable roads inside the area")
    nodes, edges = _graph(drive, crs)
    streets = clipped["roads"][(clipped["roads"]["highway"].isin(DRIVABLE - {"service"}))
                               | clipped["roads"]["highway"].isin(FACE_EXTRA)]
    faces = _faces(streets, bounds, crs)
    if faces.empty:
        raise InputError(f"{name}: the roads enclose no blocks (no faces could be formed)")
    buildings = _buildings(clipped.get("buildings"), faces, crs)
    pois, faces = _attach_features(clipped.get("features"), faces, crs)
    faces = count_categories(_face_attributes(faces, buildings, nodes), pois)
    log.append({"event": "build_city", "region": name, "faces": len(faces), "edges": len(edges),
                "buildings": len(buildings), "pois": len(pois)})
    return City(name=name, crs=crs, bounds=tuple(bounds), nodes=nodes, edges=edges, faces=faces,
                buildings=buildings, pois=pois, raw=raw, log=log)


def _prepare_layer(gdf: gpd.GeoDataFrame, crs: str) -> gpd.GeoDataFrame:
    if gdf.crs is None:
        raise InputError("a source layer has no CRS")
    gdf = gdf.to_crs(crs) if CRS.from_user_input(gdf.crs) != CRS.from_user_input(crs) else gdf.copy()
    bad = ~gdf.geometry.is_valid
    if bad.any():  # repair rather than crash on dirty OSM / user data
        gdf.loc[bad, "geometry"] = shapely.make_valid(gdf.geometry[bad].values)
    return gdf[gdf.geometry.notna() & ~gdf.geometry.is_empty].reset_index(drop=True)


def _clip(gdf: gpd.GeoDataFrame, bounds) -> gpd.GeoDataFrame:
    sub = gdf.cx[bounds[0]:bounds[2], bounds[1]:bounds[3]].copy()
    sub["geometry"] = shapely.clip_by_rect(sub.geometry.values, *bounds)
    return sub[~sub.geometry.is_empty].reset_index(drop=True)


def _graph(drive: gpd.GeoDataFrame, crs: str) -> tuple[gpd.GeoDataFrame, gpd.GeoDataFrame]:
    """Node the drivable lines at every intersection and build node / edge tables."""
    lines = drive.explode(index_parts=False)
    lines = lines[lines.geom_type == "LineString"].reset_index(drop=True)
    noded = shapely.get_parts(shapely.line_merge(shapely.union_all(lines.geometry.values)))
    noded = noded[shapely.get_type_id(noded) == 1]
    # union_all loses attributes: take them from the source line nearest to each piece's middle
    seg = gpd.GeoDataFrame(geometry=noded, crs=crs)
    mids = gpd.GeoDataFrame(geometry=shapely.line_interpolate_point(noded, 0.5, normalized=True), crs=crs)
    near = gpd.sjoin_nearest(mids, lines[["highway", "name", "geometry"]], how="left").groupby(level=0).first()
    seg["highway"] = near["highway"].to_numpy()
    seg["name"] = near["name"].fillna("").to_numpy()
    coords_a = shapely.get_coordinates(shapely.get_point(noded, 0))
    coords_b = shapely.get_coordinates(shapely.get_point(noded, -1))
    keys = np.round(np.vstack([coords_a, coords_b]) / SNAP_M).astype(np.int64)
    uniq, inv = np.unique(keys, axis=0, return_inverse=True)
    inv = inv.ravel()
    seg["u"] = inv[: len(noded)]
    seg["v"] = inv[len(noded):]
    seg["length"] = shapely.length(noded)
    seg = seg[(seg["u"] != seg["v"]) | (seg["length"] > 1.0)].reset_index(drop=True)
    seg["edge_id"] = np.arange(len(seg))
    xy = uniq * SNAP_M
    deg = np.bincount(np.concatenate([seg["u"], seg["v"]]), minlength=len(uniq))
    nodes = gpd.GeoDataFrame({"x": xy[:, 0], "y": xy[:, 1], "degree": deg},
                             geometry=shapely.points(xy), crs=crs)
    nodes.index.name = "node_id"
    nodes = nodes[nodes["degree"] > 0]
    edges = seg[["edge_id", "u", "v", "length", "highway", "name", "geometry"]]
    return nodes, edges


def _faces(streets: gpd.GeoDataFrame, bounds, crs: str) -> gpd.GeoDataFrame:
    frame = shapely.box(*bounds).exterior
    merged = shapely.union_all(np.append(streets.geometry.values, frame))
    polys = shapely.get_parts(shapely.polygonize(shapely.get_parts(merged)))
    faces = gpd.GeoDataFrame(geometry=polys, crs=crs)
    faces["area"] = faces.area
    faces = faces[faces["area"] >= MIN_FACE_M2].reset_index(drop=True)
    faces["boundary"] = faces.geometry.distance(frame) < 1.0
    faces.index.name = "face_id"
    return faces


def _buildings(b: gpd.GeoDataFrame | None, faces: gpd.GeoDataFrame, crs: str) -> gpd.GeoDataFrame:
    cols = ["building", "levels", "area", "floor_area", "residential_share", "face_id", "geometry"]
    if b is None or b.empty:
        return gpd.GeoDataFrame(columns=cols, geometry="geometry", crs=crs)
    b = b[b.geom_type.isin(["Polygon", "MultiPolygon"])].copy()
    b["building"] = b["building"].fillna("yes").astype(str)
    b["area"] = b.area
    default = b["building"].map(DEFAULT_LEVELS).fillna(DEFAULT_LEVELS_OTHER)
    b["levels"] = pd.to_numeric(b.get("levels"), errors="coerce").clip(1, 60).fillna(default)
    b["floor_area"] = b["area"] * b["levels"]
    b["residential_share"] = np.where(b["building"].isin(RESIDENTIAL), 1.0,
                                      np.where(b["building"] == "yes", 0.5, 0.0))
    b["face_id"] = _face_of(b.geometry.representative_point(), faces)
    return b[cols].reset_index(drop=True)


def _face_of(points: gpd.GeoSeries, faces: gpd.GeoDataFrame) -> np.ndarray:
    hit = gpd.sjoin(gpd.GeoDataFrame(geometry=points.values, crs=faces.crs), faces[["geometry"]],
                    how="left", predicate="within")
    hit = hit[~hit.index.duplicated()]
    return hit["face_id"].fillna(-1).astype(int).to_numpy()


def _attach_features(f: gpd.GeoDataFrame | None, faces: gpd.GeoDataFrame, crs: str):
    cols = ["category", "tag", "name", "face_id", "geometry"]
    faces = faces.copy()
    faces["landuse"] = ""
    faces["green_area"] = 0.0
    faces["parking_area"] = 0.0
    if f is None or f.empty:
        return gpd.GeoDataFrame(columns=cols, geometry="geometry", crs=crs), faces
    polys = f[f.geom_type.isin(["Polygon", "MultiPolygon"])]
    if not polys.empty:
        ov = gpd.overlay(faces.reset_index()[["face_id", "geometry"]], polys, how="intersection", keep_geom_type=True)
        ov["a"] = ov.area
        for cat in ("green", "parking"):
            s = ov[ov["category"] == cat].groupby("face_id")["a"].sum()
            faces.loc[s.index, f"{cat}_area"] = s.clip(upper=faces.loc[s.index, "area"])
        lu = ov[ov["landuse"] != ""].sort_values("a").groupby("face_id")["landuse"].last()
        faces.loc[lu.index, "landuse"] = lu
    pois = f[f["category"] != ""].copy()
    pois["tag"] = pois["landuse"]
    pois["geometry"] = pois.geometry.representative_point()
    pois["face_id"] = _face_of(pois.geometry, faces)
    return gpd.GeoDataFrame(pois[cols].reset_index(drop=True), geometry="geometry", crs=crs), faces


def _face_attributes(faces: gpd.GeoDataFrame, buildings: gpd.GeoDataFrame, nodes: gpd.GeoDataFrame) -> gpd.GeoDataFrame:
    by_face = buildings[buildings["face_id"] >= 0].assign(
        res=lambda d: d["floor_area"] * d["residential_share"]).groupby("face_id")
    # astype: with no buildings the empty groupby sums come back as object dtype
    faces["building_area"] = by_face["area"].sum().reindex(faces.index, fill_value=0.0).astype(float)
    faces["coverage"] = (faces["building_area"] / faces["area"]).clip(upper=1.0)
    faces["floor_area"] = by_face["floor_area"].sum().reindex(faces.index, fill_value=0.0).astype(float)
    faces["residential_floor_area"] = by_face["res"].sum().reindex(faces.index, fill_value=0.0).astype(float)
    faces["demand"] = faces["residential_floor_area"] / M2_PER_RESIDENT
    faces["vacant"] = faces["coverage"] < 0.05
    rp = faces.geometry.representative_point()
    faces["cx"], faces["cy"] = rp.x, rp.y
    # entry nodes: road nodes on the face's boundary (within 2 m: rounding and dual lines)
    ring = gpd.GeoDataFrame({"face_id": faces.index}, geometry=faces.geometry.boundary.buffer(2.0), crs=faces.crs)
    hit = gpd.sjoin(nodes[["geometry"]].reset_index(), ring, predicate="within")
    entries = hit.groupby("face_id")["node_id"].apply(lambda s: sorted(int(x) for x in s))
    faces["entry_nodes"] = [entries.get(i, []) for i in faces.index]
    return faces


def count_categories(faces: gpd.GeoDataFrame, pois: gpd.GeoDataFrame) -> gpd.GeoDataFrame:
    """Add n_<category> columns (POIs per face) for every category in ``CATEGORIES``."""
    counts = pois[pois["face_id"] >= 0].groupby(["face_id", "category"]).size().unstack(fill_value=0)
    for cat in CATEGORIES:
        faces[f"n_{cat}"] = counts[cat].reindex(faces.index, fill_value=0).astype(int) if cat in counts else 0
    return faces
