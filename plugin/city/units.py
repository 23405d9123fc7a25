"""Spatial units: the buildable land of the street blocks (the city model's faces).

1. Blocks = polygonize(streets ∪ frame boundary); the frame is the study-area polygon when
   the user gives one, else the data's bounding box.
2. Margin: blocks closed by the frame rather than by streets are not enclosed by streets
   inside the data (the outer face, blocks cut by the data's edge). Without a study-area polygon they are
   dropped; with one they are kept, clipped to it (the planner drew that boundary).
3. Traffic islands and interchange infields: blocks whose boundary runs for ≥ ``ISLAND_SHARE``
   of its length along roundabouts (junction=roundabout|circular), slip roads (``*_link``) or
   motorways are dropped.
4. Land = block − road reserve − water / non-buildable masks (plugin.city.nonbuildable);
   a block may fall apart into several units (``block_id`` keeps the parent).
5. Units under ``MIN_UNIT_M2`` or narrower than ``MIN_UNIT_WIDTH_M`` with no building on
   them are dropped (leftover medians, verges, slip-road triangles).
Width = 2 × the radius of the largest inscribed circle (``shapely.maximum_inscribed_circle``).

The study area in effect (``extent``): the user's polygon, else the kept blocks with the road
reserve of their streets inside the frame, i.e. the area the street network encloses.
"""
from __future__ import annotations

import geopandas as gpd
import numpy as np
import shapely

from .nonbuildable import QUAD_SEGS, RESERVE_WIDTH_M, road_reserve

MIN_UNIT_M2 = 300.0
MIN_UNIT_WIDTH_M = 8.0
ISLAND_SHARE = 0.7
ISLAND_HIGHWAYS = ("motorway",)  # besides every *_link
ISLAND_JUNCTIONS = ("roundabout", "circular")
EDGE_TOL_M = 1.0       # m: tolerance for "runs along the frame" and "along a roundabout"
ENTRY_TOL_M = 2.0      # road nodes within this of a block's boundary are its entry nodes
ENTRY_REACH_M = max(RESERVE_WIDTH_M.values()) / 2 + ENTRY_TOL_M  # … if this close to the unit
WIDTH_TOL_M = 0.25     # maximum_inscribed_circle precision (radius)


def inscribed_width(geoms) -> np.ndarray:
    """2 × radius of the largest circle inside each polygon (m; 0 for empty geometries)."""
    g = np.asarray(geoms, dtype=object)
    out = np.zeros(len(g))
    ok = ~shapely.is_empty(g) & (shapely.area(g) > 0)
    if ok.any():
        out[ok] = 2.0 * shapely.length(shapely.maximum_inscribed_circle(g[ok], WIDTH_TOL_M))
    return out


def island_roads(streets: gpd.GeoDataFrame) -> np.ndarray:
    """Geometries of roundabouts, slip roads and motorways (the rims of traffic islands)."""
    highway = streets["highway"].fillna("").astype(str)
    hit = highway.str.endswith("_link") | highway.isin(ISLAND_HIGHWAYS)
    if "junction" in streets:
        hit |= streets["junction"].fillna("").astype(str).isin(ISLAND_JUNCTIONS)
    return streets.geometry.to_numpy()[hit.to_numpy()]


def build_units(streets: gpd.GeoDataFrame, frame, explicit_area: bool, masks: gpd.GeoDataFrame,
                building_points: np.ndarray, nodes: gpd.GeoDataFrame, crs: str):
    """(units GeoDataFrame, extent geometry). Units: block_id, area, width, boundary,
    entry_nodes, geometry; index ``face_id``."""
    lines = shapely.intersection(streets.geometry.to_numpy(), frame)
    lines = lines[~shapely.is_empty(lines)]
    edge = shapely.boundary(frame)
    blocks = shapely.get_parts(shapely.polygonize(shapely.get_parts(
        shapely.union_all(np.append(lines, edge)))))
    blocks = blocks[shapely.within(shapely.point_on_surface(blocks), frame)]
    margin = _on_open_edge(blocks, edge, lines)
    keep = ~_islands(blocks, island_roads(streets)) & (explicit_area | ~margin)
    blocks, margin = blocks[keep], margin[keep]
    reserve = road_reserve(streets)
    extent = frame if explicit_area else _enclosed(blocks, reserve, frame)
    cut = shapely.union_all([reserve, *masks.geometry.to_numpy()]) if len(masks) else reserve
    land = _difference(blocks, cut)
    parts, block_id = shapely.get_parts(land, return_index=True)
    poly = shapely.get_type_id(parts) == 3  # a difference may leave stray lines or points
    parts, block_id = parts[poly], block_id[poly]
    area = shapely.area(parts)
    width = inscribed_width(parts)
    built = np.zeros(len(parts), dtype=bool)
    if len(building_points) and len(parts):
        hit, _ = shapely.STRtree(building_points).query(parts, predicate="contains")
        built[hit] = True
    ok = (area >= MIN_UNIT_M2) & ((width >= MIN_UNIT_WIDTH_M) | built)
    parts, block_id, area, width = parts[ok], block_id[ok], area[ok], width[ok]
    units = gpd.GeoDataFrame({"block_id": block_id, "area": area, "width": width.round(1),
                              "boundary": margin[block_id]}, geometry=parts, crs=crs)
    units["entry_nodes"] = _entries(blocks, nodes, parts, block_id)
    units.index.name = "face_id"
    return units, extent


def _enclosed(blocks: np.ndarray, reserve, frame):
    """The kept blocks with the reserve of the streets around them (dead ends reaching out
    into the margin keep only a stub of ``ENTRY_REACH_M``)."""
    inner = shapely.union_all(blocks)
    near = shapely.intersection(reserve, shapely.buffer(inner, ENTRY_REACH_M, quad_segs=QUAD_SEGS))
    return shapely.intersection(shapely.union_all([inner, near]), frame)


def _on_open_edge(blocks: np.ndarray, edge, lines: np.ndarray) -> np.ndarray:
    """Blocks closed by the frame rather than by a street (a street may run along the frame)."""
    if not len(blocks):
        return np.zeros(0, dtype=bool)
    open_edge = shapely.difference(shapely.buffer(edge, EDGE_TOL_M / 2),
                                   shapely.buffer(shapely.union_all(lines), EDGE_TOL_M, quad_segs=QUAD_SEGS))
    return shapely.length(shapely.intersection(shapely.boundary(blocks), open_edge)) > EDGE_TOL_M


def _islands(blocks: np.ndarray, rims: np.ndarray) -> np.ndarray:
    if not len(rims) or not len(blocks):
        return np.zeros(len(blocks), dtype=bool)
    near = shapely.buffer(shapely.union_all(rims), EDGE_TOL_M, quad_segs=QUAD_SEGS)
    ring = shapely.boundary(blocks)
    with np.errstate(invalid="ignore"):  # GEOS overlay raises a spurious flag; every result is checked finite
        along = shapely.length(shapely.intersection(ring, near))
    return np.isfinite(along) & (along >= ISLAND_SHARE * shapely.length(ring))


def _difference(blocks: np.ndarray, cut) -> np.ndarray:
    """blocks − cut, each block against only the parts of ``cut`` that touch it."""
    parts = shapely.get_parts(cut)
    if not len(parts):
        return blocks
    bi, pi = shapely.STRtree(parts).query(blocks, predicate="intersects")
    out = blocks.copy()
    for b in np.unique(bi):
        out[b] = shapely.difference(blocks[b], shapely.union_all(parts[pi[bi == b]]))
    return out


def _entries(blocks: np.ndarray, nodes: gpd.GeoDataFrame | None, parts: np.ndarray, block_id: np.ndarray) -> list:
    """Per unit: sorted ids of the road nodes on its block's boundary that lie across the road
    reserve from it (a block cut in two gives each part the junctions on its side)."""
    if nodes is None or not len(nodes) or not len(parts):
        return [[] for _ in range(len(parts))]
    ring = shapely.buffer(shapely.boundary(blocks), ENTRY_TOL_M, quad_segs=QUAD_SEGS)
    bi, ni = shapely.STRtree(nodes.geometry.to_numpy()).query(ring, predicate="contains")
    pts, ids = nodes.geometry.to_numpy(), nodes.index.to_numpy()
    out = []
    for part, b in zip(parts, block_id, strict=False):
        on = ni[bi == b]
        near = shapely.distance(pts[on], part) <= ENTRY_REACH_M
        out.append(sorted(int(x) for x in ids[on[near]]))
    return out
