"""The shared tail of every way to build a road construction instance: crossings, the
instance data, and a budget and step limit that a connecting plan fits in."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import shapely

from ...errors import InputError
from .constants import CONNECT_SLACK, STEP_SHARE

if TYPE_CHECKING:
    from .task import RoadConstruction


def assemble(cls: type[RoadConstruction], inst_id: str, cands: pd.DataFrame, nodes: pd.DataFrame,
             edges: pd.DataFrame, groups: list[dict], crs: str, meta: dict, budget: float | None,
             factor: float) -> RoadConstruction:
    """``cands``: id, cost, group, kind, u, v, length_m, geometry (+ informative columns);
    ``nodes`` (x, y by node id) and ``edges`` (u, v, length) are the existing network; the
    default budget is ``factor`` × total candidate cost, at least CONNECT_SLACK × the cost of a
    cheap plan that connects every pair."""
    data = {
        "nodes": {"id": [int(i) for i in nodes.index], "x": nodes["x"].round(2).tolist(),
                  "y": nodes["y"].round(2).tolist()},
        "edges": [[int(u), int(v), round(float(w), 3)] for u, v, w in
                  edges[["u", "v", "length"]].itertuples(index=False)],
        "groups": groups,
        "segments": {r.id: [int(r.u), int(r.v), float(r.length_m)] for r in cands.itertuples()},
        "crossings": _crossings(cands),
    }
    cands = cands.assign(crosses=_crosses_column(cands["id"].tolist(), data["crossings"])).drop(columns="geometry")
    meta = {**meta, "candidates": len(cands), "groups": len(groups),
            "rebuild": int((cands["kind"] == "rebuild").sum()), "new": int((cands["kind"] == "new").sum())}
    probe = cls(inst_id, cands, 1e18, len(cands), crs, meta, data)
    if probe.n_pairs == 0:
        raise InputError(f"{meta.get('region', inst_id)}: no two demand faces can be connected, nothing to plan")
    conn = probe.cheap_connecting_plan()
    conn_cost = float(probe.cost[conn].sum())
    b = float(budget) if budget is not None else round(max(factor * probe.cost.sum(), CONNECT_SLACK * conn_cost), 1)
    max_select = max(math.ceil(STEP_SHARE * len(cands)), int(conn.sum()) + 2)
    gamma0 = probe.quality(probe.G0)[0]
    meta.update({"budget_factor": round(factor, 4), "connect_cost": round(conn_cost, 1),
                 "connect_size": int(conn.sum()), "gamma_existing": round(gamma0, 4),
                 "d_ideal_m": round(probe.d_ideal, 1), "pairs": probe.n_pairs})
    return cls(inst_id, cands, b, min(max_select, len(cands)), crs, meta, data)


#: candidate pairs whose crossing is tested at once (their geometries are made per block)
PAIR_BLOCK = 20_000
END_TOL = 0.05                                    # m around a link's end where touching is a junction
#: a point this close to an end lies inside the end's buffer polygon (its 32-gon's apothem,
#: r·cos(π/32) = 0.04988 m), one farther than END_TOL outside it: only the thin band between
#: needs the polygons
SURE_IN, SURE_OUT = 0.0498, END_TOL * (1 + 1e-9)


def _crossings(cands: pd.DataFrame) -> list[list[str]]:
    """Pairs of candidates that cross away from their endpoints (an unmodelled junction): their
    intersection minus END_TOL buffers around the four ends is not empty."""
    geoms = cands["geometry"].to_numpy()
    a, b = shapely.STRtree(geoms).query(geoms, predicate="intersects")
    keep = a < b
    a, b = a[keep], b[keep]
    cross = np.zeros(len(a), dtype=bool)
    # a block of pairs at a time (every touching pair's end buffers at once took GBs on 20,000
    # own links); a single-point intersection is decided by its distance to the ends, the
    # buffers are made only for the rest (the same answer, without most of the polygons)
    for s in range(0, len(a), PAIR_BLOCK):
        ga, gb = geoms[a[s:s + PAIR_BLOCK]], geoms[b[s:s + PAIR_BLOCK]]
        inter = shapely.intersection(ga, gb)
        pts = np.stack([shapely.get_point(ga, 0), shapely.get_point(ga, -1),
                        shapely.get_point(gb, 0), shapely.get_point(gb, -1)], axis=1)
        ends = shapely.get_coordinates(pts.ravel()).reshape(-1, 4, 2)
        point = np.flatnonzero((shapely.get_type_id(inter) == 0) & ~shapely.is_empty(inter))
        d = np.hypot(*(ends[point] - shapely.get_coordinates(inter[point])[:, None, :]).transpose(2, 0, 1)).min(axis=1)
        res = ~shapely.is_empty(inter)
        res[point[d < SURE_IN]] = False
        rest = res.copy()
        rest[point[(d < SURE_IN) | (d > SURE_OUT)]] = False
        if rest.any():
            buf = shapely.buffer(shapely.multipoints(ends[rest]), END_TOL)
            res[rest] = ~shapely.is_empty(shapely.difference(inter[rest], buf))
        cross[s:s + PAIR_BLOCK] = res
    ids = cands["id"].to_numpy()
    return [[str(ids[i]), str(ids[j])] for i, j in zip(a[cross], b[cross], strict=False)]


def _crosses_column(ids: list[str], crossings: list[list[str]]) -> list[str]:
    other: dict[str, list[str]] = {i: [] for i in ids}
    for a, b in crossings:
        other[a].append(b)
        other[b].append(a)
    return [";".join(other[i]) for i in ids]
