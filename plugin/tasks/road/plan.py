"""Road construction in plan mode: the planner's own network stays whole; candidates are new
links only, drawn as plausible street segments (docs/modes.md).

A new link is a straight segment between two network nodes at most ``link_radius`` apart that
the benchmark's link rules already accept (``sampler._Network.new_links``: no building, no water,
inside the study area, crossing no street except at its ends, shortening the network path by
MIN_DETOUR), and in addition:

* touches no non-buildable land (railway land, cemeteries, wetlands: ``City.masks``);
* runs at most ``BLOCK_TOL_M`` through a block (a street-enclosed face: ``City.faces``), where a
  block is every face when no building layer was given, else a face with building coverage of at
  least ``BUILT_COVERAGE`` (a vacant face may get a new street). Exception: a link that continues
  a dead-end street (leaves a degree-1 node within ``EXTEND_ANGLE_DEG`` of the stub's direction)
  may run through blocks for up to ``EXTEND_BLOCK_M`` without a building layer (any length with
  one, where the building test guards it): it extends a street that is already there;
* crosses no other candidate: links are taken in order of the detour they save (network
  distance between the ends − link length; ties by node ids) and one that would cross an
  already taken link away from their ends is left out.

Fewer than ``MIN_PLAN_LINKS`` candidates is a warning that counts what each rule left out.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import shapely

from ...errors import InputError
from .assemble import assemble
from .constants import BUDGET_FACTOR, LINK_RADIUS, MIN_DETOUR, N_GROUPS, TARGET

if TYPE_CHECKING:
    from .sampler import _Network
    from .task import RoadConstruction

BLOCK_TOL_M = 5.0          # m a link may run inside a block (corner clipping, digitising noise)
BUILT_COVERAGE = 0.05      # a face at least this covered by buildings is a block (cf. City faces' vacant)
EXTEND_ANGLE_DEG = 35.0    # a dead-end extension leaves the stub at most this far off its direction
EXTEND_BLOCK_M = 20.0      # without buildings, an extension runs at most this far through blocks (a plot's width)
MIN_PLAN_LINKS = 10        # fewer candidates than this is a warning saying why


def plan_city(cls: type[RoadConstruction], city, size: str, seed: int, budget: float | None,
              **params: Any) -> RoadConstruction:
    """The plan-mode instance: demand faces sampled as in the benchmark, nothing removed, the
    new links of the module docstring (the most useful ``n_candidates`` of them at a paper size,
    all of them for ``size="all"``)."""
    from ..plan_demand import with_complete_demand
    from .sampler import _candidate_table, _Network

    city, demand_notes = with_complete_demand(city)
    rng = np.random.default_rng(seed)
    whole = size == "all"
    sized = "large" if whole else size
    target = int(params.get("n_candidates") or TARGET[sized])
    net = _Network(city)
    groups = net.sample_groups(rng, int(params.get("n_groups") or N_GROUPS[sized]))
    radius = float(params.get("link_radius") or LINK_RADIUS)
    links, why = plan_links(net, city, radius)
    if len(links) < MIN_PLAN_LINKS and not params.get("link_radius"):   # a sparse network: longer links
        wider, why_wider = plan_links(net, city, 1.5 * radius)
        if len(wider) > len(links):
            links, why, radius = wider, why_wider, 1.5 * radius
    if not whole and len(links) > target:
        links = links.iloc[:target]
    removed = net.edges.iloc[:0].assign(reason=pd.Series(dtype=str))
    cands = _candidate_table(net, removed, links.reset_index(drop=True), city)
    if not len(cands):
        raise InputError(f"{city.name}: no new street link is worth building within {radius:g} m ({describe(why)}); "
                         "give your own proposed links with --links")
    notes = list(demand_notes)
    if len(cands) < MIN_PLAN_LINKS:
        notes.append(f"only {len(cands)} new-link candidates (fewer than {MIN_PLAN_LINKS}): {describe(why)}")
    meta = {"region": city.name, "size": size, "seed": seed, "target": target, "mode": "plan",
            "short_of_target": False, "link_radius_m": float(radius), "left_out": why, "plan_notes": notes}
    factor = float(params.get("budget_factor", rng.uniform(*BUDGET_FACTOR)))
    return assemble(cls, f"{city.name}-road-plan-{size}-{seed}", cands, net.nodes, net.kept, groups, city.crs,
                    meta, budget, factor)


def describe(why: dict[str, int]) -> str:
    """The left-out counts as one clause."""
    words = {"pairs": "node pairs within reach", "too_short_or_existing": "already joined or under 10 m",
             "small_detour": f"already joined by a path under {MIN_DETOUR:g}× the straight line (no detour to cut)",
             "building": "through a building", "water_or_outside": "over water or outside the study area",
             "crossing_street": "crossing a street", "non_buildable": "on railway or other non-buildable land",
             "block": "through a block", "crossing": "crossing a more useful link"}
    return ", ".join(f"{why[k]} {w}" for k, w in words.items() if why.get(k) or k == "pairs")


def plan_links(net: _Network, city, radius: float) -> tuple[pd.DataFrame, dict[str, int]]:
    """The plan-mode links (u, v, length, detour, geometry, saved) in order of the detour saved,
    and how many node pairs each rule left out."""
    why: dict[str, int] = {}
    links = net.new_links(radius, why).reset_index(drop=True)
    if not len(links):
        return links.assign(saved=[]), why
    segs = links["geometry"].to_numpy()
    masks = getattr(city, "masks", None)
    hard = masks[masks["kind"] == "non_buildable"].geometry.to_numpy() if masks is not None and len(masks) else []
    bad = np.zeros(len(segs), dtype=bool)
    if len(hard):
        hit, _ = shapely.STRtree(hard).query(segs, predicate="intersects")
        bad[hit] = True
    why["non_buildable"] = int(bad.sum())
    inside = block_length(segs, city)
    ext = extends_dead_end(net, links)
    has_buildings = city.buildings is not None and len(city.buildings) > 0
    allowed = np.where(ext, np.inf if has_buildings else EXTEND_BLOCK_M, BLOCK_TOL_M)
    blocked = ~bad & (inside > allowed)
    why["block"] = int(blocked.sum())
    links = links[~(bad | blocked)].copy()
    links["saved"] = (links["detour"] - 1.0) * links["length"]
    links = links.sort_values(["saved", "u", "v"], ascending=[False, True, True], kind="stable")
    keep = non_crossing(links["geometry"].to_numpy())
    why["crossing"] = int((~keep).sum())
    return links[keep], why


def block_length(segs: np.ndarray, city) -> np.ndarray:
    """Length (m) of each segment inside blocks: every face without a building layer, else the
    faces at least BUILT_COVERAGE covered by buildings."""
    faces = city.faces
    if faces is None or not len(faces):
        return np.zeros(len(segs))
    if city.buildings is not None and len(city.buildings):
        faces = faces[faces["coverage"].to_numpy(dtype=float) >= BUILT_COVERAGE]
    geoms = faces.geometry.to_numpy()
    out = np.zeros(len(segs))
    if len(geoms):
        si, fi = shapely.STRtree(geoms).query(segs, predicate="intersects")
        np.add.at(out, si, shapely.length(shapely.intersection(segs[si], geoms[fi])))
    return out


def extends_dead_end(net: _Network, links: pd.DataFrame) -> np.ndarray:
    """True where a link leaves a dead end (degree 1) within EXTEND_ANGLE_DEG of its stub's direction."""
    e = net.edges
    ends = pd.concat([e["u"], e["v"]])
    deg = ends.value_counts()
    dead = set(deg.index[deg.to_numpy() == 1].tolist())
    heading: dict[int, np.ndarray] = {}
    for r in e.itertuples():
        c = shapely.get_coordinates(r.geometry)
        if len(c) < 2:
            continue
        for node, tip, prev in ((r.u, c[0], c[1]), (r.v, c[-1], c[-2])):
            if int(node) in dead:
                d = tip - prev
                heading[int(node)] = d / max(np.hypot(*d), 1e-9)
    xy = net.nodes[["x", "y"]]
    cos_max = np.cos(np.radians(EXTEND_ANGLE_DEG))
    out = np.zeros(len(links), dtype=bool)
    for k, (u, v) in enumerate(zip(links["u"].to_numpy(), links["v"].to_numpy(), strict=False)):
        for a, b in ((int(u), int(v)), (int(v), int(u))):
            h = heading.get(a)
            if h is None:
                continue
            d = xy.loc[b].to_numpy(dtype=float) - xy.loc[a].to_numpy(dtype=float)
            if float(d @ h) / max(np.hypot(*d), 1e-9) >= cos_max:
                out[k] = True
    return out


def non_crossing(geoms: np.ndarray) -> np.ndarray:
    """Greedy in the given order: keep a segment unless it crosses a kept one away from their ends."""
    keep = np.zeros(len(geoms), dtype=bool)
    if not len(geoms):
        return keep
    tree = shapely.STRtree(geoms)
    for i, g in enumerate(geoms):
        others = [j for j in tree.query(g, predicate="intersects") if keep[j] and j != i]
        ok = True
        for j in others:
            ends = shapely.buffer(shapely.MultiPoint([*shapely.get_coordinates(g)[[0, -1]],
                                                      *shapely.get_coordinates(geoms[j])[[0, -1]]]), 0.05)
            if not shapely.is_empty(shapely.difference(shapely.intersection(g, geoms[j]), ends)):
                ok = False
                break
        keep[i] = ok
    return keep
