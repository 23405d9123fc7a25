"""Build a ``City`` from source layers: drivable graph, faces, buildings, POIs, demand.

Source layers (dict of GeoDataFrames, any CRSs: see ``crs.gather``):
  roads      highway (OSM class), service, name, LineString geometry
  buildings  building (OSM value or 'yes'), levels (float or NaN), Polygon geometry
  features   category (see ``CATEGORIES`` or ''), landuse (OSM landuse or ''), name,
             Point or Polygon geometry (POIs and land-use / green areas)
  demand     residents, Point geometry (optional: replaces the buildings' demand)

Choices (docs/city_model.md):
* drivable = OSM car classes; service roads except parking aisles / driveways.
* faces = the buildable land of the street blocks (``units``): blocks polygonized from the
  streets (drivable roads without service roads, plus pedestrian streets) and the frame,
  margin blocks and traffic islands dropped, minus the road reserve and the water /
  non-buildable masks (``nonbuildable``; raw layer ``masks``: kind, geometry).
* levels default by building type (``DEFAULT_LEVELS``); residential share 1 for dwelling
  types, 0.5 for untyped 'yes' (mixed use), 0 otherwise; demand = residential floor area / 40 m².
"""
from __future__ import annotations

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely
from pyproj import CRS
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from ..errors import InputError
from .crs import gather
from .model import CATEGORIES, M2_PER_RESIDENT, City
from .nonbuildable import masks as nonbuildable_masks
from .units import build_units

DRIVABLE = {"motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential",
            "living_street", "service", "road", "motorway_link", "trunk_link", "primary_link",
            "secondary_link", "tertiary_link"}
NOT_DRIVABLE_SERVICE = {"parking_aisle", "driveway", "drive-through", "emergency_access"}
FACE_EXTRA = {"pedestrian"}
RESIDENTIAL = {"apartments", "residential", "house", "detached", "terrace", "semidetached_house",
               "dormitory", "bungalow", "farm"}
DEFAULT_LEVELS = {"apartments": 5, "residential": 3, "dormitory": 4, "house": 2, "detached": 2,
                  "terrace": 2, "semidetached_house": 2, "bungalow": 1, "garage": 1, "garages": 1,
                  "shed": 1, "hut": 1, "roof": 1, "carport": 1}
DEFAULT_LEVELS_OTHER = 3
SNAP_M = 0.01  # endpoint rounding that merges coincident road ends into one node


def build_city(raw: dict[str, gpd.GeoDataFrame], name: str, crs: str | None = None,
               bounds: tuple[float, float, float, float] | None = None, *,
               area: gpd.GeoDataFrame | None = None, assume_crs: str | None = None,
               warnings: list[str] | None = None) -> City:
    """The City of source layers ``raw`` (roads required; buildings, features, demand optional).

    ``crs``: the working CRS when already known (windows of a city); else it is chosen by
    ``crs.gather`` (input CRS if metric with ≤ 0.5 % scale error, else local UTM) and layers
    in other CRSs are reprojected; ``assume_crs`` is the CRS of layers that have none.
    ``area``: a study-area polygon layer; everything is clipped to it and blocks are closed by
    its boundary. ``raw["demand"]`` (points with ``residents``) replaces the buildings' demand.
    ``warnings`` (assumptions made while reading) are kept on the City with the CRS ones."""
    roads = raw.get("roads")
    if roads is None or roads.empty:
        raise InputError(f"{name}: no roads in the input")
    warnings = list(warnings or [])
    if crs is None:
        layers, work = gather({**raw, "area": area}, assume_crs, reference="roads")
        area = layers.pop("area", None)
        raw, crs = layers, work.crs
        warnings += work.warnings
    raw = {k: _prepare_layer(v, crs) for k, v in raw.items() if v is not None}
    for col in ("name", "service"):  # optional on user layers
        if col not in raw["roads"]:
            raw["roads"][col] = ""
    raw["roads"] = _snap_line_ends(raw["roads"])
    shape = None
    if area is not None:
        shape = shapely.union_all(_prepare_layer(area, crs).geometry.values)
        raw = {k: _clip_area(v, shape) for k, v in raw.items()}
        bounds = tuple(float(b) for b in shape.bounds)
        clipped = raw
    elif bounds is None:  # the whole input: no clipping (clip_by_rect drops lines on the rectangle's edge)
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
    frame = shape if shape is not None else shapely.box(*bounds)
    masks = nonbuildable_masks(clipped.get("masks"), frame, crs)
    faces, extent = build_units(streets, frame, shape is not None, masks, _points_of(clipped.get("buildings")),
                                nodes, crs)
    if faces.empty:
        raise InputError(f"{name}: the roads enclose no blocks of land (no faces could be formed)")
    buildings = _buildings(clipped.get("buildings"), faces, crs)
    pois, faces = _attach_features(clipped.get("features"), faces, crs)
    demand = _demand_points(clipped.get("demand"), faces)
    faces = count_categories(_face_attributes(faces, buildings, demand), pois)
    if demand is not None and len(buildings):
        warnings.append("demand taken from the demand layer; the buildings' residential floor area is not used")
    if not faces["demand"].sum() > 0:
        warnings.append("no residential demand (no residential buildings and no demand layer): demand terms are 0")
    log.append({"event": "build_city", "region": name, "faces": len(faces), "edges": len(edges),
                "buildings": len(buildings), "pois": len(pois)})
    return City(name=name, crs=crs, bounds=tuple(bounds), nodes=nodes, edges=edges, faces=faces,
                buildings=buildings, pois=pois, raw=raw, log=log, warnings=list(dict.fromkeys(warnings)),
                area=shape, demand_points=demand, masks=masks, extent=extent)


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


def _snap_line_ends(roads: gpd.GeoDataFrame, tol: float = SNAP_M) -> gpd.GeoDataFrame:
    """Put road ends that stop within ``tol`` of another road back onto it as a shared vertex.

    Reprojection moves a T-junction's end off the road it touched by nanometres (the end is
    a reprojected vertex, the segment under it is not), and the roads would no longer node."""
    geoms = roads.geometry.values
    pts, owner = shapely.get_parts(shapely.boundary(geoms), return_index=True)
    pi, li = shapely.STRtree(geoms).query(pts, predicate="dwithin", distance=tol)
    other = owner[pi] != li
    pi, li = pi[other], li[other]
    off = ~shapely.intersects(pts[pi], shapely.extract_unique_points(geoms)[li])  # not yet a shared vertex
    pi, li = pi[off], li[off]
    if not len(li):
        return roads
    out = np.array(geoms, dtype=object)
    for line in np.unique(li):
        out[line] = shapely.snap(out[line], shapely.multipoints(pts[pi[li == line]]), tol)
    return roads.set_geometry(gpd.GeoSeries(out, index=roads.index, crs=roads.crs))


def _clip_area(gdf: gpd.GeoDataFrame, shape) -> gpd.GeoDataFrame:
    sub = gdf[gdf.intersects(shape)].copy()
    sub["geometry"] = sub.geometry.intersection(shape)
    return sub[~sub.geometry.is_empty].reset_index(drop=True)


def _graph(drive: gpd.GeoDataFrame, crs: str) -> tuple[gpd.GeoDataFrame, gpd.GeoDataFrame]:
    """Node the drivable lines at every intersection and build node / edge tables.

    ``union_all`` splits the lines at every crossing and every line end, so each noded piece
    lies on one source line and takes its name and class from it. Pieces are then merged only
    across a point where exactly two pieces meet with the same name and class: a change of
    street name or class stays a node, as between OSM ways, so no edge spans two streets."""
    lines = drive.explode(index_parts=False)
    lines = lines[lines.geom_type == "LineString"].reset_index(drop=True)
    lines["name"] = lines["name"].fillna("").astype(str)
    pieces = shapely.get_parts(shapely.union_all(lines.geometry.values))
    pieces = pieces[shapely.get_type_id(pieces) == 1]
    src = _source_lines(pieces, lines)
    name, highway = lines["name"].to_numpy()[src], lines["highway"].to_numpy()[src]
    merged, label = _merge_same_street(pieces, name, highway)
    first = np.unique(label, return_index=True)[1]  # every piece of a merged edge has one name and class
    seg = gpd.GeoDataFrame({"highway": highway[first], "name": name[first]}, geometry=merged, crs=crs)
    u, v = _end_nodes(merged)
    uniq, inv = np.unique(np.r_[u, v], axis=0, return_inverse=True)
    inv = inv.ravel()
    seg["u"] = inv[: len(merged)]
    seg["v"] = inv[len(merged):]
    seg["length"] = shapely.length(merged)
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


def _end_nodes(geoms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Integer keys of each line's first and last point (coincident within ``SNAP_M``)."""
    a = shapely.get_coordinates(shapely.get_point(geoms, 0))
    b = shapely.get_coordinates(shapely.get_point(geoms, -1))
    return np.round(a / SNAP_M).astype(np.int64), np.round(b / SNAP_M).astype(np.int64)


def _source_lines(pieces: np.ndarray, lines: gpd.GeoDataFrame) -> np.ndarray:
    """Index into ``lines`` of the source line each noded piece lies on.

    The piece's middle lies on its source line (a piece never spans a line end); where lines
    overlap, several are equally near: a named one is preferred, then the first."""
    mids = shapely.line_interpolate_point(pieces, 0.5, normalized=True)
    (pi, li), dist = shapely.STRtree(lines.geometry.values).query_nearest(mids, all_matches=True,
                                                                        return_distance=True)
    pick = pd.DataFrame({"p": pi, "l": li, "d": np.round(dist, 6),
                         "unnamed": lines["name"].to_numpy()[li] == ""})
    pick = pick.sort_values(["p", "d", "unnamed", "l"], kind="stable").drop_duplicates("p")
    out = np.zeros(len(pieces), dtype=np.int64)
    out[pick["p"].to_numpy()] = pick["l"].to_numpy()
    return out


def _merge_same_street(pieces: np.ndarray, name: np.ndarray, highway: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Merge noded pieces across points where exactly two pieces of one name and class meet.

    Returns the merged lines and, per piece, the index of the merged line it went into."""
    n = len(pieces)
    u, v = _end_nodes(pieces)
    node = np.unique(np.r_[u, v], axis=0, return_inverse=True)[1].ravel()
    piece = np.r_[np.arange(n), np.arange(n)]
    deg = np.bincount(node)
    order = np.argsort(node, kind="stable")
    ends = order[deg[node[order]] == 2].reshape(-1, 2)  # the two piece ends at each degree-2 point
    a, b = piece[ends[:, 0]], piece[ends[:, 1]]
    join = (a != b) & (name[a] == name[b]) & (highway[a] == highway[b])  # a != b: a ring's own closing point
    a, b = a[join], b[join]
    _, label = connected_components(coo_matrix((np.ones(len(a)), (a, b)), shape=(n, n)), directed=False)
    merged = _merge_by_label(pieces, label)
    bad = shapely.get_type_id(merged[label]) != 1
    if bad.any():  # a component that does not merge into one line (not met on OSM data): keep its pieces
        label = np.unique(np.where(bad, label.max() + 1 + np.arange(n), label), return_inverse=True)[1]
        merged = _merge_by_label(pieces, label)
    # A chain whose two ends meet at one junction comes back as a ring that may start mid-chain;
    # rotate it to start at the junction (a handful of lines, so a plain loop).
    junction = np.ones(len(deg), dtype=bool)  # per node: an edge ends there (not merged across)
    junction[node[ends[join, 0]]] = False
    keys = np.unique(np.r_[u, v], axis=0)
    for c in np.nonzero(shapely.is_closed(merged) & (np.bincount(label) > 1))[0]:
        own = np.unique(node[np.isin(piece, np.nonzero(label == c)[0])])
        at = own[junction[own]]
        if len(at):
            merged[c] = _ring_from(merged[c], keys[at[0]] * SNAP_M)
    return merged, label


def _merge_by_label(pieces: np.ndarray, label: np.ndarray) -> np.ndarray:
    """One line per label value: its pieces merged end to end."""
    order = np.argsort(label, kind="stable")
    return shapely.line_merge(shapely.multilinestrings(pieces[order], indices=label[order]))


def _ring_from(ring, at: np.ndarray):
    """The closed line ``ring`` with its start moved to its vertex nearest to ``at``."""
    xy = shapely.get_coordinates(ring)[:-1]
    k = int(np.argmin(((xy - at) ** 2).sum(axis=1)))
    xy = np.r_[xy[k:], xy[:k], xy[k:k + 1]]
    return shapely.linestrings(xy)


def _points_of(b: gpd.GeoDataFrame | None) -> np.ndarray:
    """A point inside each building footprint (none without buildings)."""
    if b is None or b.empty:
        return np.empty(0, dtype=object)
    return shapely.point_on_surface(b.geometry[b.geom_type.isin(["Polygon", "MultiPolygon"])].to_numpy())


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


def _demand_points(d: gpd.GeoDataFrame | None, faces: gpd.GeoDataFrame) -> gpd.GeoDataFrame | None:
    """The demand layer's points (``residents``) with their face; None without a demand layer."""
    if d is None:
        return None
    d = d[d.geom_type == "Point"].copy()
    d["face_id"] = _face_of(d.geometry, faces)
    return d[["residents", "face_id", "geometry"]].reset_index(drop=True)


def _face_attributes(faces: gpd.GeoDataFrame, buildings: gpd.GeoDataFrame,
                     demand: gpd.GeoDataFrame | None = None) -> gpd.GeoDataFrame:
    by_face = buildings[buildings["face_id"] >= 0].assign(
        res=lambda d: d["floor_area"] * d["residential_share"]).groupby("face_id")
    # astype: with no buildings the empty groupby sums come back as object dtype
    faces["building_area"] = by_face["area"].sum().reindex(faces.index, fill_value=0.0).astype(float)
    faces["coverage"] = (faces["building_area"] / faces["area"]).clip(upper=1.0)
    faces["floor_area"] = by_face["floor_area"].sum().reindex(faces.index, fill_value=0.0).astype(float)
    faces["residential_floor_area"] = by_face["res"].sum().reindex(faces.index, fill_value=0.0).astype(float)
    faces["demand"] = faces["residential_floor_area"] / M2_PER_RESIDENT
    if demand is not None:
        on = demand[demand["face_id"] >= 0]
        faces["demand"] = on.groupby("face_id")["residents"].sum().reindex(faces.index, fill_value=0.0).astype(float)
    faces["vacant"] = faces["coverage"] < 0.05
    rp = faces.geometry.representative_point()
    faces["cx"], faces["cy"] = rp.x, rp.y
    return faces


def count_categories(faces: gpd.GeoDataFrame, pois: gpd.GeoDataFrame) -> gpd.GeoDataFrame:
    """Add n_<category> columns (POIs per face) for every category in ``CATEGORIES``."""
    counts = pois[pois["face_id"] >= 0].groupby(["face_id", "category"]).size().unstack(fill_value=0)
    for cat in CATEGORIES:
        faces[f"n_{cat}"] = counts[cat].reindex(faces.index, fill_value=0).astype(int) if cat in counts else 0
    return faces
