"""Audit a plan against the city model's geometry (not against the candidate filter).

Rules per task (``{"flags": [{"id", "reason", "value", "limit"}], "checked": N}``):
  land     outside_study_area  share of the site outside the study area   > ``SHARE_TOL``
           on_road_reserve     share on the road reserve (class widths)     > ``SHARE_TOL``
           in_water            share on water                               > ``SHARE_TOL``
           on_non_buildable    share on railway, cemetery, wetland …        > ``SHARE_TOL``
           too_small           site area (m²)                               < the type's minimum
           too_narrow          site width (m, 2 × inscribed radius)         < the type's minimum
  station  outside_study_area  distance (m) from the study area            > ``POINT_TOL_M``
           in_water            1 when the site lies in water                  (limit 0)
           unreachable         distance (m) to the nearest road of the main
                               network component                            > ``REACH_M``
           near_junction       distance (m) to the nearest junction where three or more
                               street segments meet (not for charging / fuel /
                               parking places)                              < ``JUNCTION_CLEAR_M``
  road     (new links only; rebuilt links are existing roads)
           crosses_building    length (m) of the link inside buildings      > ``LENGTH_TOL_M``
           crosses_water       length (m) of the link over water            > ``LENGTH_TOL_M``
           outside_study_area  length (m) of the link outside the area      > ``LENGTH_TOL_M``
The road reserve is recomputed from the roads and the class widths (``AuditContext.reserve``).
A rule the context lacks the geometry for is a flag of its own kind (``kind: not_checked``, no
id, ``rule`` and ``why``): see ``not_checked``.
"""
from __future__ import annotations

from typing import Any, Iterable

import numpy as np
import shapely
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree

from ..tasks.site_rules import SITE_RULES, site_width, violations
from ..tasks.station.constants import JUNCTION_CLEAR_M, PLACE_KINDS

from .context import AuditContext

SHARE_TOL = 0.02
POINT_TOL_M = 1.0
LENGTH_TOL_M = 0.5
REACH_M = 100.0


def audit_plan(inst, ids: Iterable[Any], ctx: AuditContext) -> dict[str, Any]:
    """Flags of the plan's known candidates (unknown ids are the evaluator's business)."""
    index = {i: k for k, i in enumerate(inst.ids)}
    rows = sorted({index[i] for i in ids if isinstance(i, str) and i in index})
    cands = inst.candidates.iloc[rows]
    from ..tasks.registry import spec

    check = globals()[spec(inst.task).audit]   # every registered task names its check (completeness test)
    flags = check(cands, ctx) if len(cands) else []
    if rows:
        flags += [_unchecked(rule, why) for rule, why in not_checked(inst.task, ctx)]
    return {"flags": flags, "checked": len(rows)}


def _unchecked(rule: str, why: str) -> dict[str, Any]:
    """A flag of its own kind: a rule this audit could not check, and why (plan-wide: no id)."""
    return {"id": "", "reason": "not_checked", "rule": rule, "why": why, "value": 0.0, "limit": 0.0,
            "kind": "not_checked"}


def not_checked(task: str, ctx: AuditContext) -> list[tuple[str, str]]:
    """(rule, why) for each rule of ``task`` the context lacks the geometry for: no study area,
    no street network (a parcel workspace: only size and width are checked), no building layer."""
    out = []
    if ctx.extent is None:
        out.append(("outside_study_area", "no study area in the city model"))
    no_streets = not len(ctx.edges)
    if task == "land" and no_streets:
        out += [(r, "no city model (a parcel layer): only size and width checked")
                for r in ("on_road_reserve", "in_water", "on_non_buildable")]
    if task == "station" and no_streets:
        out += [(r, "no street network in the city model") for r in ("unreachable", "near_junction")]
    if task == "road" and not len(ctx.buildings):
        out.append(("crosses_building", "no building layer: links through buildings unchecked (blocks were "
                                        "obstacles when the links were drawn)"))
    return out


def _flag(cid: str, reason: str, value: float, limit: float) -> dict[str, Any]:
    return {"id": str(cid), "reason": reason, "value": round(float(value), 3), "limit": float(limit)}


def _shares(geoms: np.ndarray, area: np.ndarray, other) -> np.ndarray:
    if other is None or shapely.is_empty(other):
        return np.zeros(len(geoms))
    return shapely.area(shapely.intersection(geoms, other)) / np.maximum(area, 1e-9)


def _land(cands, ctx: AuditContext) -> list[dict]:
    geoms = shapely.make_valid(shapely.from_wkt(cands["wkt"].to_numpy()))
    area = shapely.area(geoms)
    width = site_width(geoms)
    shares = {
        "outside_study_area": (1.0 - _shares(geoms, area, ctx.extent)) if ctx.extent is not None
        else np.zeros(len(geoms)),
        "on_road_reserve": _shares(geoms, area, ctx.reserve),
        "in_water": _shares(geoms, area, ctx.mask("water")),
        "on_non_buildable": _shares(geoms, area, ctx.mask("non_buildable")),
    }
    out = []
    for k, (cid, t) in enumerate(zip(cands["id"], cands["type"])):
        out += [_flag(cid, r, s[k], SHARE_TOL) for r, s in shares.items() if s[k] > SHARE_TOL]
        if t in SITE_RULES:
            out += [_flag(cid, r, v, lim) for r, v, lim in violations(t, area[k], width[k])]
    return out


def _station(cands, ctx: AuditContext) -> list[dict]:
    pts = shapely.from_wkt(cands["wkt"].to_numpy())
    outside = shapely.distance(pts, ctx.extent) if ctx.extent is not None else np.zeros(len(pts))
    water = ctx.mask("water")
    wet = shapely.within(pts, water) if water is not None else np.zeros(len(pts), dtype=bool)
    reach = _reach(pts, ctx)
    junc = _junction_distance(pts, ctx)
    kinds = cands["site_kind"].astype(str).to_numpy() if "site_kind" in cands else np.full(len(pts), "")
    out = []
    for k, cid in enumerate(cands["id"]):
        if junc[k] < JUNCTION_CLEAR_M and kinds[k] not in PLACE_KINDS:
            out.append(_flag(cid, "near_junction", junc[k], JUNCTION_CLEAR_M))
        if outside[k] > POINT_TOL_M:
            out.append(_flag(cid, "outside_study_area", outside[k], POINT_TOL_M))
        if wet[k]:
            out.append(_flag(cid, "in_water", 1, 0))
        if reach[k] > REACH_M:
            out.append(_flag(cid, "unreachable", reach[k], REACH_M))
    return out


def _junction_distance(pts: np.ndarray, ctx: AuditContext) -> np.ndarray:
    """Distance from each point to the nearest node where three or more street segments meet
    (the edges' end points, counted over the edges; inf when there is none)."""
    e = ctx.edges
    if not len(e):
        return np.full(len(pts), np.inf)
    geoms = e.geometry.to_numpy()
    ends = np.r_[shapely.get_coordinates(shapely.get_point(geoms, 0)), shapely.get_coordinates(shapely.get_point(geoms, -1))]
    ids = np.r_[e["u"].to_numpy(), e["v"].to_numpy()]
    uniq, first, count = np.unique(ids, return_index=True, return_counts=True)
    junc = ends[first[count >= 3]]
    if not len(junc):
        return np.full(len(pts), np.inf)
    d, _ = cKDTree(junc).query(shapely.get_coordinates(pts))
    return d


def _reach(pts: np.ndarray, ctx: AuditContext) -> np.ndarray:
    """Distance from each point to the nearest road of the largest connected component."""
    e = ctx.edges
    if not len(e):
        return np.full(len(pts), np.inf)
    nodes, inv = np.unique(np.r_[e["u"].to_numpy(), e["v"].to_numpy()], return_inverse=True)
    m = len(e)
    g = coo_matrix((np.ones(m), (inv[:m], inv[m:])), shape=(len(nodes), len(nodes)))
    _, lab = connected_components(g, directed=False)
    main = lab[inv[:m]] == np.bincount(lab).argmax()
    roads = e.geometry.to_numpy()[main]
    tree = shapely.STRtree(roads)
    _, dist = tree.query_nearest(pts, return_distance=True, all_matches=False)
    return dist


def _road(cands, ctx: AuditContext) -> list[dict]:
    new = cands[cands["kind"] == "new"] if "kind" in cands else cands
    if not len(new):
        return []
    lines = shapely.from_wkt(new["wkt"].to_numpy())
    b = ctx.buildings.geometry.to_numpy()
    inside_b = np.zeros(len(lines))
    if len(b):
        li, bi = shapely.STRtree(b).query(lines, predicate="intersects")
        np.add.at(inside_b, li, shapely.length(shapely.intersection(lines[li], b[bi])))
    water = ctx.mask("water")
    wet = shapely.length(shapely.intersection(lines, water)) if water is not None else np.zeros(len(lines))
    outside = shapely.length(shapely.difference(lines, ctx.extent)) if ctx.extent is not None \
        else np.zeros(len(lines))
    out = []
    for k, cid in enumerate(new["id"]):
        for reason, v in (("crosses_building", inside_b[k]), ("crosses_water", wet[k]),
                          ("outside_study_area", outside[k])):
            if v > LENGTH_TOL_M:
                out.append(_flag(cid, reason, v, LENGTH_TOL_M))
    return out
