"""Demand regions from residential buildings, and road distances from sites to them."""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra
from scipy.spatial import cKDTree

from .constants import DETOUR


def demand_regions(city, cell: float, by_block: bool = True) -> pd.DataFrame:
    """Residents (``City.resident_points``: residential buildings, or the planner's demand
    layer) grouped by (block, grid cell), or by grid cell only (``by_block=False``: the whole
    area's coarse cells, where blocks would multiply the regions): residents and centroid."""
    df = city.resident_points()
    if not len(df):
        return pd.DataFrame(columns=["x", "y", "residents"])
    df["gx"] = np.floor(df["x"] / cell).astype(np.int64)
    df["gy"] = np.floor(df["y"] / cell).astype(np.int64)
    df["wx"], df["wy"] = df["x"] * df["residents"], df["y"] * df["residents"]
    keys = ["face", "gx", "gy"] if by_block else ["gx", "gy"]
    g = df.groupby(keys, sort=True)[["wx", "wy", "residents"]].sum().reset_index()
    return pd.DataFrame({"x": g["wx"] / g["residents"], "y": g["wy"] / g["residents"],
                         "residents": g["residents"]})


def road_distances(city, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """Road distance (m) from each source point to each destination point: snap both to the
    nearest road node, add the snap lengths; DETOUR × straight line where not connected."""
    euclid = np.hypot(src[:, None, 0] - dst[None, :, 0], src[:, None, 1] - dst[None, :, 1])
    nodes, edges = city.nodes, city.edges
    if nodes is None or not len(nodes) or edges is None or not len(edges):
        return DETOUR * euclid
    ids = nodes.index.to_numpy()
    pos = {int(v): k for k, v in enumerate(ids)}
    # parallel edges: keep the shortest (a sparse matrix would add them up)
    e = pd.DataFrame({"u": [pos[int(a)] for a in edges["u"]], "v": [pos[int(a)] for a in edges["v"]],
                      "length": edges["length"].to_numpy(dtype=float)})
    e = e[e["u"] != e["v"]]
    e[["u", "v"]] = np.sort(e[["u", "v"]].to_numpy(), axis=1)
    e = e.groupby(["u", "v"], as_index=False)["length"].min()
    n = len(ids)
    graph = coo_matrix((e["length"].to_numpy(), (e["u"].to_numpy(), e["v"].to_numpy())), shape=(n, n)).tocsr()
    tree = cKDTree(nodes[["x", "y"]].to_numpy(dtype=float))
    ds, ns = tree.query(src)
    dd, nd = tree.query(dst)
    net = dijkstra(graph, directed=False, indices=ns)[:, nd]
    out = ds[:, None] + net + dd[None, :]
    return np.where(np.isfinite(out), np.maximum(out, euclid), DETOUR * euclid)
