"""Road construction from a City, sampled to the paper's sizes: a real network with a seeded
set of links removed; candidates are those links and new straight links."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import shapely
from scipy.sparse.csgraph import connected_components, dijkstra
from scipy.spatial import cKDTree

from ...errors import InputError
from .assemble import assemble
from .constants import (
    BUDGET_FACTOR,
    CUT_MARGIN,
    LINK_RADIUS,
    MIN_DETOUR,
    MIN_LINK,
    N_CUT,
    N_DETOUR,
    N_GROUPS,
    NEW_CLASS,
    TARGET,
    UNIT_COST,
    class_factor,
)
from .graph import _csr, pair_distances

if TYPE_CHECKING:
    from .task import RoadConstruction


def sample_city(cls: type[RoadConstruction], city, size: str, seed: int, budget: float | None,
                mode: str = "benchmark", **params: Any) -> RoadConstruction:
    """params: n_candidates (override the size's target), n_groups, budget_factor, link_radius.

    ``size="all"`` (the whole area): the large size's demand faces and removed links, and
    every new link within ``link_radius`` (no sampling). Plan mode: ``plan.plan_city``."""
    if mode == "plan":
        from .plan import plan_city

        return plan_city(cls, city, size, seed, budget, **params)
    rng = np.random.default_rng(seed)
    whole = size == "all"
    plan = "large" if whole else size
    target = int(params.get("n_candidates") or TARGET[plan])
    net = _Network(city)
    groups = net.sample_groups(rng, int(params.get("n_groups") or N_GROUPS[plan]))
    removed = net.remove_links(rng, groups, N_CUT[plan], N_DETOUR[plan])
    n_new = max(0, target - len(removed))
    radius = float(params.get("link_radius") or LINK_RADIUS)
    if whole:
        links = net.new_links(radius)
        target = len(removed) + len(links)
    else:
        for reach in radius * np.array([1.0, 1.5, 2.0]):  # sparse networks need longer links
            links = net.new_links(reach)
            if len(links) >= n_new:
                break
        radius = float(reach)   # the radius the links were drawn with is what meta records
        if len(links) > n_new:
            links = links.iloc[np.sort(rng.choice(len(links), n_new, replace=False))]
    cands = _candidate_table(net, removed, links, city)
    if not len(cands):
        raise InputError(f"{city.name}: no road segment to build (network has no gaps to close)")
    inst_id = f"{city.name}-road-{size}-{seed}"
    meta = {"region": city.name, "size": size, "seed": seed, "target": target,
            "short_of_target": len(cands) < target, "link_radius_m": float(radius)}
    factor = float(params.get("budget_factor", rng.uniform(*BUDGET_FACTOR)))
    return assemble(cls, inst_id, cands, net.nodes, net.kept, groups, city.crs, meta, budget, factor)


class _Network:
    """The drivable network of a City while an instance is generated."""

    def __init__(self, city):
        self.city = city
        e = city.edges[city.edges["u"] != city.edges["v"]].copy()
        if e.empty:
            raise InputError(f"{city.name}: no drivable roads, nothing to plan")
        e["a"], e["b"] = np.minimum(e["u"], e["v"]), np.maximum(e["u"], e["v"])
        self.edges = e.sort_values(["length", "edge_id"]).drop_duplicates(["a", "b"]).sort_values("edge_id")
        self.nodes = city.nodes.loc[sorted(set(self.edges["u"]) | set(self.edges["v"]))]
        self.pos = pd.Series(np.arange(len(self.nodes)), index=self.nodes.index)
        self.kept = self.edges
        self.removed: dict[int, str] = {}   # edge_id -> reason

    def _graph(self, edges: pd.DataFrame):
        arr = np.c_[self.pos[edges["u"]].to_numpy(), self.pos[edges["v"]].to_numpy(), edges["length"].to_numpy()]
        return _csr(arr.astype(float), len(self.nodes))

    def sample_groups(self, rng: np.random.Generator, k: int) -> list[dict]:
        """Demand faces (∝ demand, seeded) with their entry nodes in the main network component."""
        _, lab = connected_components(self._graph(self.edges), directed=False)
        main = np.bincount(lab).argmax()
        faces = self.city.faces
        entry = faces["entry_nodes"].map(lambda ns: [int(x) for x in ns if x in self.pos.index
                                                     and lab[self.pos[x]] == main])
        ok = entry.map(len) > 0
        demand = faces["demand"].to_numpy(dtype=float)
        pool = np.flatnonzero(ok.to_numpy() & (demand > 0))
        weights = demand[pool]
        if len(pool) < 2:  # no residents here: every face with an entry counts, equally
            pool = np.flatnonzero(ok.to_numpy())
            weights = np.ones(len(pool))
        if len(pool) < 2:
            raise InputError(f"{self.city.name}: fewer than two faces touch the road network, nothing to plan")
        take = rng.choice(pool, size=min(k, len(pool)), replace=False, p=weights / weights.sum())
        out = []
        for r in sorted(take.tolist()):
            f = faces.iloc[r]
            out.append({"face_id": int(faces.index[r]), "demand": round(float(max(f["demand"], 0.0)), 2),
                        "entry_nodes": entry.iloc[r], "x": round(float(f["cx"]), 2), "y": round(float(f["cy"]), 2)})
        return out

    def remove_links(self, rng: np.random.Generator, groups: list[dict], n_cut: int, n_detour: int) -> pd.DataFrame:
        """Cut ``n_cut`` demand faces off (remove every link leaving the network ball of a
        seeded margin around their entry nodes), then remove ``n_detour`` through links."""
        n_nodes = len(self.nodes)
        for gi in rng.permutation(len(groups))[:n_cut]:
            g = self._graph(self.kept)
            src = self.pos[groups[gi]["entry_nodes"]].to_numpy()
            dist = dijkstra(g, directed=False, indices=src, min_only=True)
            ball = dist <= rng.uniform(*CUT_MARGIN)
            if ball.sum() > n_nodes / 3:  # cutting off a third of the network is no gap
                continue
            iu, iv = ball[self.pos[self.kept["u"]].to_numpy()], ball[self.pos[self.kept["v"]].to_numpy()]
            for eid in self.kept["edge_id"][iu != iv]:
                self.removed[int(eid)] = "cut"
            self.kept = self.kept[~self.kept["edge_id"].isin(self.removed)]
        deg = np.bincount(np.r_[self.pos[self.kept["u"]], self.pos[self.kept["v"]]], minlength=n_nodes)
        through = self.kept[(deg[self.pos[self.kept["u"]]] >= 3) & (deg[self.pos[self.kept["v"]]] >= 3)]
        for eid in rng.permutation(through["edge_id"].to_numpy())[:n_detour]:
            self.removed[int(eid)] = "detour"
        self.kept = self.kept[~self.kept["edge_id"].isin(self.removed)]
        out = self.edges[self.edges["edge_id"].isin(self.removed)].copy()
        out["reason"] = out["edge_id"].map(self.removed)
        return out

    def new_links(self, radius: float, why: dict[str, int] | None = None) -> pd.DataFrame:
        """Straight links between nodes ≤ radius apart that touch no building or water, stay
        inside the study area (``City.extent``), cross no road except at their endpoints, and
        shorten the (gapped) network path by MIN_DETOUR. ``why`` (optional) receives how many
        node pairs each rule left out (a pair can fail several: each is counted)."""
        xy = self.nodes[["x", "y"]].to_numpy()
        pairs = np.array(sorted(cKDTree(xy).query_pairs(radius)), dtype=np.int64).reshape(-1, 2)
        eu = np.hypot(*(xy[pairs[:, 0]] - xy[pairs[:, 1]]).T)
        adjacent = set(zip(self.pos[self.edges["a"]], self.pos[self.edges["b"]], strict=False))
        keep = (eu >= MIN_LINK) & np.array([(a, b) not in adjacent for a, b in pairs], dtype=bool)
        if why is not None:
            why.update(pairs=len(pairs), too_short_or_existing=int((~keep).sum()))
        pairs, eu = pairs[keep], eu[keep]
        dist = pair_distances(self._graph(self.kept), pairs[:, 0], pairs[:, 1])
        keep = dist >= MIN_DETOUR * eu
        if why is not None:
            why["small_detour"] = int((~keep).sum())
        pairs, eu, dist = pairs[keep], eu[keep], dist[keep]
        segs = shapely.linestrings(np.stack([xy[pairs[:, 0]], xy[pairs[:, 1]]], axis=1))
        bad = np.zeros(len(segs), dtype=bool)
        b = self.city.buildings
        if len(b):
            hit, _ = shapely.STRtree(b.geometry.to_numpy()).query(segs, predicate="intersects")
            bad[hit] = True
        n_building = int(bad.sum())
        masks = getattr(self.city, "masks", None)
        water = masks[masks["kind"] == "water"].geometry.to_numpy() if masks is not None else []
        if len(water):
            hit, _ = shapely.STRtree(water).query(segs, predicate="intersects")
            bad[hit] = True
        extent = getattr(self.city, "extent", None)
        if extent is not None:
            shapely.prepare(extent)  # many segments against one polygon
            bad |= ~shapely.covers(extent, segs)
        roads = self.edges.geometry.to_numpy()
        si, ri = shapely.STRtree(roads).query(segs, predicate="intersects")
        ends = shapely.buffer(shapely.multipoints(np.stack([xy[pairs[si, 0]], xy[pairs[si, 1]]], axis=1)), 0.05)
        crossing = np.zeros(len(segs), dtype=bool)
        crossing[si[~shapely.is_empty(shapely.difference(shapely.intersection(segs[si], roads[ri]), ends))]] = True
        if why is not None:
            why.update(building=n_building, water_or_outside=int(bad.sum()) - n_building,
                       crossing_street=int((crossing & ~bad).sum()))
        bad |= crossing
        nid = self.nodes.index.to_numpy()
        return pd.DataFrame({"u": nid[pairs[~bad, 0]], "v": nid[pairs[~bad, 1]], "length": eu[~bad],
                             "detour": dist[~bad] / eu[~bad],
                             "geometry": segs[~bad]})


def _candidate_table(net: _Network, removed: pd.DataFrame, links: pd.DataFrame, city) -> pd.DataFrame:
    gap = pair_distances(net._graph(net.kept), net.pos[removed["u"]].to_numpy(), net.pos[removed["v"]].to_numpy())
    reb = pd.DataFrame({
        "id": [f"r{k:02d}" for k in range(len(removed))], "kind": "rebuild",
        "reason": removed["reason"].to_numpy(), "highway": removed["highway"].to_numpy(),
        "u": removed["u"].to_numpy(), "v": removed["v"].to_numpy(), "length_m": removed["length"].to_numpy(),
        "gap_m": gap, "geometry": removed.geometry.to_numpy()})
    new = pd.DataFrame({
        "id": [f"n{k:03d}" for k in range(len(links))], "kind": "new", "reason": "shortcut",
        "highway": NEW_CLASS, "u": links["u"].to_numpy(), "v": links["v"].to_numpy(),
        "length_m": links["length"].to_numpy(), "gap_m": links["detour"].to_numpy() * links["length"].to_numpy(),
        "geometry": links["geometry"].to_numpy()})
    c = pd.concat([reb, new], ignore_index=True)
    c["length_m"] = c["length_m"].astype(float).round(2)
    c["reconnects"] = ~np.isfinite(c["gap_m"].to_numpy(dtype=float))
    c["gap_m"] = np.where(c["reconnects"], -1.0, c["gap_m"].astype(float)).round(1)  # −1: no path
    unit = c["kind"].map(UNIT_COST).to_numpy(dtype=float)
    c["cost"] = (np.maximum(c["length_m"], 1.0) * unit * c["highway"].map(class_factor)).round(1)
    c["group"] = -1
    faces = city.faces
    if len(c):
        si, fi = shapely.STRtree(faces.geometry.to_numpy()).query(
            shapely.buffer(c["geometry"].to_numpy(), 1.0), predicate="intersects")
        fid = faces.index.to_numpy()
        parcels = pd.Series(fid[fi]).groupby(si).agg(lambda s: ";".join(str(x) for x in sorted(s)))
        c["parcels"] = [parcels.get(k, "") for k in range(len(c))]
    else:
        c["parcels"] = []
    c["wkt"] = shapely.to_wkt(c["geometry"].to_numpy(), rounding_precision=2)
    cols = ["id", "cost", "group", "kind", "reason", "highway", "u", "v", "length_m", "gap_m", "reconnects",
            "parcels", "wkt", "geometry"]
    return c[cols]
