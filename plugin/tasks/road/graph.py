"""Sparse road graphs and exact shortest-distance updates when one edge is added."""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

#: sources per dijkstra call: each returns a dense (sources × nodes) block, so a block of
#: 256 rows over the 9 × 9 synthetic city's nodes stays in the tens of MB, where one call
#: from every node took more than 6 GB
CHUNK = 256


def _csr(edges: np.ndarray, n_nodes: int):
    """Symmetric sparse graph; parallel edges keep the shortest (coo would sum them)."""
    if not len(edges):
        return coo_matrix((n_nodes, n_nodes)).tocsr()
    e = pd.DataFrame({"a": np.minimum(edges[:, 0], edges[:, 1]).astype(np.int64),
                      "b": np.maximum(edges[:, 0], edges[:, 1]).astype(np.int64), "w": edges[:, 2]})
    e = e[e["a"] != e["b"]].groupby(["a", "b"], as_index=False)["w"].min()
    # a zero-length edge would vanish from the sparse matrix: keep it as a tiny positive one
    w = np.maximum(e["w"].to_numpy(), 1e-6)
    return coo_matrix((w, (e["a"], e["b"])), shape=(n_nodes, n_nodes)).tocsr()


def _insert(G: np.ndarray, Dg: np.ndarray, D: np.ndarray, u: int, v: int, w: float) -> None:
    """Add an undirected edge u–v (key nodes) of length w to exact G, Dg, D (over M), in place."""
    gu, gv = Dg[:, u] + w, Dg[:, v] + w
    du, dv = D[u].copy(), D[v].copy()
    a = np.add.outer(gu, Dg[:, v])
    np.minimum(G, a, out=G)
    np.minimum(G, a.T, out=G)
    np.minimum(Dg, np.minimum(np.add.outer(gu, dv), np.add.outer(gv, du)), out=Dg)
    a = np.add.outer(du + w, dv)
    np.minimum(D, a, out=D)
    np.minimum(D, a.T, out=D)


def distance_rows(csr, rows: np.ndarray, cols: np.ndarray | None = None) -> np.ndarray:
    """Shortest distances (undirected) from the nodes ``rows`` to the nodes ``cols`` (default
    every node), one dense (len(rows) × len(cols)) matrix computed CHUNK sources at a time."""
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.arange(csr.shape[0]) if cols is None else np.asarray(cols, dtype=np.int64)
    out = np.empty((len(rows), len(cols)))
    for k in range(0, len(rows), CHUNK):
        out[k:k + CHUNK] = dijkstra(csr, directed=False, indices=rows[k:k + CHUNK])[:, cols]
    return out


def pair_distances(csr, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """Shortest distance (undirected) of each pair (src[k], dst[k]), CHUNK sources at a time."""
    src, dst = np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64)
    out = np.empty(len(src))
    uniq, inv = np.unique(src, return_inverse=True)
    for k in range(0, len(uniq), CHUNK):
        sel = np.flatnonzero((inv >= k) & (inv < k + CHUNK))
        block = dijkstra(csr, directed=False, indices=uniq[k:k + CHUNK])
        out[sel] = block[inv[sel] - k, dst[sel]]
    return out
