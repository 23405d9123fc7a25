"""Road construction (RC): close gaps in a drivable network under a budget.

Instances come from a real network in which a seeded set of links was removed (whole
demand faces cut off, plus a few through links whose loss causes detours). Candidates are
those removed links (rebuild at their length and class) and new straight links between
nearby nodes that cross neither buildings nor roads (except at their two endpoints).

Distances (``RoadConstruction.distances``): the key nodes M are the candidate endpoints.
Shortest paths in the existing network are computed once (scipy dijkstra) as G0 (group ×
group, minimum over entry nodes), Dg0 (group × M) and D0 (M × M). For a plan P with
endpoint set X, the closure among X is built by inserting the segments one by one,
d'(x, y) = min(d(x, y), d(x, u) + w + d(v, y), d(x, v) + w + d(u, y)); every other distance
follows from "the first (or last) selected segment on the path", e.g.
G(a, b) = min(G0(a, b), min_{(u,v) ∈ P} Dg(a, u) + w + Dg0(b, v)), in one numpy reduction.

Building an instance lives next to this module, one way per module: ``sampler`` (the paper's
sized samples of a City, or with every link of the area), ``layers`` (the planner's own
proposed links); ``assemble`` is their shared tail.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components, dijkstra

from ...errors import InputError
from ..base import BUILD_SIZES, Instance, check_mode
from .constants import W_CROSS, W_RHO
from .graph import _csr, distance_rows
from .layers import from_links
from .sampler import sample_city
from .search import RoadState


class RoadConstruction(Instance):
    """Road construction: choose road segments to build so that demand faces are connected
    and travel between them is short.

    Data. Demand groups a = 1..g are faces with residents; each has entry nodes (its boundary
    nodes on the drivable network). Candidates are segments u–v of length w: links removed
    from the network ("rebuild") and new straight links ("new").

    Distance. d_P(a, b) = min over entry nodes e of a and f of b of the shortest-path length
    (m) from e to f in the existing network plus the selected segments P (∞ if none).
    Π = the group pairs {a, b} (a < b) connected in the ideal network (existing + every
    candidate); every pair in Π counts equally.

    Score.
      Γ = |{(a, b) ∈ Π : d_P(a, b) < ∞}| / |Π|           (share of pairs connected)
      D_P = mean over Π of d_P(a, b);  D_ideal = the same with every candidate built
      Δ = max(0, 2 − D_P / D_ideal) when Γ = 1          (1 = as short as the ideal network)
          i.e. Zheng et al.'s (d_before − d_now) / (d_before − d_min) with d_before = 2·d_min,
          since the existing network is disconnected (d_before = ∞)
      Q = Γ − 1 if Γ < 1, else Δ
      ρ = Σ_{i∈P} cost_i / budget
      V = 0.05 × number of pairs of selected new links that cross each other (an at-grade
          crossing the plan does not model)
      S = Q − 0.1·ρ − V
    Components reported: Gamma, Delta, Q, rho, V, crossings, distance_ratio (D_P / D_ideal,
    0 while Γ < 1), connected_pairs, pairs.

    Hard rules Ψ: total cost ≤ budget, |P| ≤ max_select, at most one candidate per group
    (generated instances have no exclusive groups: group = −1); unknown ids are invalid,
    duplicate ids are dropped with a warning.
    """

    task = "road"
    components = ("Gamma", "Delta", "Q", "rho", "V", "crossings", "distance_ratio", "connected_pairs",
                  "pairs")

    # ------------------------------------------------------------------ preparation
    def _prepare(self) -> None:
        d = self.data
        seg = np.array([d["segments"][cid] for cid in self.ids], dtype=float).reshape(-1, 3)
        groups = d["groups"]
        node_ids = sorted({int(x) for e in d["edges"] for x in e[:2]} | {int(x) for x in seg[:, :2].ravel()}
                          | {int(x) for g in groups for x in g["entry_nodes"]})
        pos = {nid: k for k, nid in enumerate(node_ids)}
        n_nodes = len(node_ids)
        self.edge_arr = np.array([[pos[int(u)], pos[int(v)], float(w)] for u, v, w in d["edges"]
                                  if int(u) != int(v)], dtype=float).reshape(-1, 3)
        self.csr = _csr(self.edge_arr, n_nodes)
        su = np.array([pos[int(x)] for x in seg[:, 0]], dtype=np.int64)
        sv = np.array([pos[int(x)] for x in seg[:, 1]], dtype=np.int64)
        self.key_nodes, inv = np.unique(np.r_[su, sv], return_inverse=True)  # M, as graph nodes
        self.cu, self.cv = inv[:self.n], inv[self.n:]
        self.w = seg[:, 2]
        self.seg_nodes = (su, sv)
        self.entries = [np.array(sorted({pos[int(x)] for x in g["entry_nodes"]}), dtype=np.int64) for g in groups]
        g, m = len(groups), len(self.key_nodes)
        self.G0 = np.full((g, g), np.inf)
        self.Dg0 = np.full((g, m), np.inf)
        for a, ent in enumerate(self.entries):
            if len(ent):
                dist = dijkstra(self.csr, directed=False, indices=ent, min_only=True)
                self.Dg0[a] = dist[self.key_nodes]
                self.G0[a] = [dist[e].min() if len(e) else np.inf for e in self.entries]
        self.G0 = np.minimum(self.G0, self.G0.T)  # equal up to rounding; keep it exactly symmetric
        self.D0 = distance_rows(self.csr, self.key_nodes, self.key_nodes) if m else \
            np.zeros((0, 0))
        self.D0 = np.minimum(self.D0, self.D0.T)
        self.cross = crossing_matrix([(self.index[a], self.index[b]) for a, b in d.get("crossings", [])], self.n)
        ind, ptr = self.cross.indices, self.cross.indptr
        self.cross_idx = [ind[ptr[i]:ptr[i + 1]] for i in range(self.n)]   # views, no copy
        (G_ideal,) = self.distances(np.arange(self.n))
        iu = np.triu_indices(g, 1)
        keep = np.isfinite(G_ideal[iu])
        self.pair_flat = (iu[0] * g + iu[1])[keep]
        self.n_pairs = int(keep.sum())
        self.d_ideal = float(G_ideal.ravel()[self.pair_flat].mean()) if self.n_pairs else 0.0

    # ------------------------------------------------------------------ distances
    def distances(self, sel: np.ndarray, level: int = 0, rows: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
        """Shortest distances with the segments ``sel`` (indices) built: (G,) for level 0,
        (G, Dg over M) for level 1, (G, Dg, D over M) for level 2; with ``rows`` (key-node
        positions), level 2 gives only those rows of D (what a removal needs to redo)."""
        sel = np.asarray(sel, dtype=np.int64)
        k = len(sel)
        R = slice(None) if rows is None else np.asarray(rows, dtype=np.int64)
        if not k:
            return (self.G0.copy(), self.Dg0.copy(), self.D0[R].copy())[:level + 1]
        cu, cv, w = self.cu[sel], self.cv[sel], self.w[sel]
        X, inv = np.unique(np.r_[cu, cv], return_inverse=True)
        lu, lv = inv[:k], inv[k:]
        DX = self.D0[np.ix_(X, X)]
        for j in range(k):
            a = np.add.outer(DX[lu[j]] + w[j], DX[lv[j]])
            np.minimum(DX, a, out=DX)
            np.minimum(DX, a.T, out=DX)
        Dg0X = self.Dg0[:, X]
        # group -> X: the first selected segment on the path
        DgX = np.minimum(Dg0X, np.minimum(_via(Dg0X, lu, w, DX, lv), _via(Dg0X, lv, w, DX, lu)))
        # group -> group: the last selected segment on the path
        G = np.minimum(self.G0, np.minimum((DgX[:, None, lu] + w + Dg0X[None, :, lv]).min(axis=2),
                                           (DgX[:, None, lv] + w + Dg0X[None, :, lu]).min(axis=2)))
        if level == 0:
            return (G,)
        D0u, D0v = self.D0[cu], self.D0[cv]   # X -> M without selected segments
        Dg = np.minimum(self.Dg0, np.minimum(_via(DgX, lu, w, D0v), _via(DgX, lv, w, D0u)))
        if level == 1:
            return G, Dg
        D0R = self.D0[R]
        DMX = np.minimum(D0R[:, X], np.minimum(_via(D0R, cu, w, DX, lv), _via(D0R, cv, w, DX, lu)))
        # one m × m update per segment end: the same sums as a (rows × k × m) reduction
        # without its large temporaries, which made this the slowest step of a removal
        D = D0R.copy()
        for j in range(k):
            np.minimum(D, np.add.outer(DMX[:, lu[j]] + w[j], D0v[j]), out=D)
            np.minimum(D, np.add.outer(DMX[:, lv[j]] + w[j], D0u[j]), out=D)
        return G, Dg, D

    def quality(self, G: np.ndarray) -> tuple[float, float, float, float, int]:
        """(Γ, Δ, Q, D_P / D_ideal, connected pairs) of a group distance matrix."""
        if not self.n_pairs:
            return 1.0, 1.0, 1.0, 1.0, 0
        vals = G.ravel()[self.pair_flat]
        conn = int(np.isfinite(vals).sum())
        if conn < self.n_pairs:
            gamma = conn / self.n_pairs
            return gamma, 0.0, gamma - 1.0, 0.0, conn
        ratio = float(vals.mean()) / self.d_ideal if self.d_ideal > 0 else 1.0
        delta = max(0.0, 2.0 - ratio)
        return 1.0, delta, delta, ratio, conn

    def _score(self, G: np.ndarray, cost: float, crossings: float) -> float:
        return self.quality(G)[2] - W_RHO * cost / self.budget - W_CROSS * crossings

    # ------------------------------------------------------------------ interface
    def score_mask(self, mask: np.ndarray) -> tuple[float, dict[str, float], list[str]]:
        mask = np.asarray(mask, dtype=bool)
        gamma, delta, q, ratio, conn = self.quality(self.distances(np.flatnonzero(mask))[0])
        rho = float(self.cost[mask].sum()) / self.budget
        sel = np.flatnonzero(mask)
        crossings = int(self.cross[sel][:, sel].nnz) // 2
        v = W_CROSS * crossings
        s = q - W_RHO * rho - v
        warnings = []
        if crossings:
            warnings.append(f"{crossings} pair(s) of selected new links cross without a junction (V = {v:.2f})")
        if gamma < 1:
            warnings.append(f"{self.n_pairs - conn} of {self.n_pairs} demand-group pairs still disconnected")
        comps = {"Gamma": gamma, "Delta": delta, "Q": q, "rho": rho, "V": v, "crossings": float(crossings),
                 "distance_ratio": ratio, "connected_pairs": float(conn), "pairs": float(self.n_pairs)}
        return s, comps, warnings

    def state(self, mask: np.ndarray | None = None) -> RoadState:
        return RoadState(self, mask)

    # ------------------------------------------------------------------ generation
    @classmethod
    def build(cls, city, size: str = "small", seed: int = 0, budget: float | None = None,
              mode: str = "benchmark", **params: Any) -> RoadConstruction:
        """From a City (``sampler.sample_city``). Benchmark mode: cut some demand faces off,
        remove some through links, offer those links and new straight links as candidates.
        Plan mode: the network stays; candidates are new links only."""
        if size not in BUILD_SIZES:
            raise InputError(f"unknown size '{size}' (choose {', '.join(BUILD_SIZES)})")
        return sample_city(cls, city, size, seed, budget, mode=check_mode(mode), **params)

    from_links = classmethod(from_links)

    def cheap_connecting_plan(self) -> np.ndarray:
        """A plan with Γ = 1: all candidates, then drop the most expensive ones while Γ stays 1
        (graph connectivity only; used to size the budget)."""
        mask = np.ones(self.n, dtype=bool)
        n_nodes = self.csr.shape[0]
        for i in np.argsort(-self.cost, kind="stable"):
            mask[i] = False
            if not self._connects(mask, n_nodes):
                mask[i] = True
        return mask

    def _connects(self, mask: np.ndarray, n_nodes: int) -> bool:
        su, sv = self.seg_nodes
        # connectivity only: a plain sparse pattern (no shortest-parallel-edge pass of ``_csr``),
        # since this runs once per candidate (20,000 own links: minutes through ``_csr``)
        r = np.r_[self.edge_arr[:, 0].astype(np.int64), su[mask]]
        c = np.r_[self.edge_arr[:, 1].astype(np.int64), sv[mask]]
        graph = coo_matrix((np.ones(len(r), dtype=bool), (r, c)), shape=(n_nodes, n_nodes)).tocsr()
        _, lab = connected_components(graph, directed=False)
        comp = [set(lab[e].tolist()) for e in self.entries]
        g = len(comp)
        iu = np.triu_indices(g, 1)
        ok = np.array([bool(comp[a] & comp[b]) for a, b in zip(*iu, strict=False)], dtype=bool)
        return bool(ok[np.isin(iu[0] * g + iu[1], self.pair_flat)].all())


def crossing_matrix(pairs: list[tuple[int, int]], n: int):
    """(n, n) symmetric CSR int8 (1 where two candidates cross, sorted indices): memory grows
    with the crossings, not n² (20,000 own links: 400 MB dense)."""
    from scipy.sparse import coo_matrix

    p = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    r, c = np.r_[p[:, 0], p[:, 1]], np.r_[p[:, 1], p[:, 0]]
    m = coo_matrix((np.ones(len(r), dtype=np.int8), (r, c)), shape=(n, n)).tocsr()
    m.sum_duplicates()
    m.data[:] = 1      # a pair listed twice is still one crossing
    return m


def upper_crossings(cross) -> tuple[np.ndarray, np.ndarray]:
    """(i, j) with i < j of every crossing, row-major: the order of ``np.nonzero(np.triu(dense, 1))``."""
    from scipy.sparse import triu

    t = triu(cross, 1, format="csr")
    t.sort_indices()
    return t.nonzero()


#: cells of one (rows × segments × columns) block in ``_via``: 4 M float64 = 32 MB
VIA_CELLS = 4_000_000


def _via(left: np.ndarray, a: np.ndarray, w: np.ndarray, right: np.ndarray, b: np.ndarray | None = None) -> np.ndarray:
    """min over segments j of left[:, a[j]] + w[j] + right[b[j]] (``b`` None: right[j]), a block of
    segments at a time: the same sums and minimum as one (rows × segments × columns) array,
    which took GBs when every one of 20,000 own links was built (the ideal network)."""
    out = np.full((left.shape[0], right.shape[1]), np.inf)
    step = max(1, VIA_CELLS // max(1, left.shape[0] * right.shape[1]))
    for s in range(0, len(a), step):
        r = right[s:s + step] if b is None else right[b[s:s + step]]
        np.minimum(out, (left[:, a[s:s + step], None] + w[None, s:s + step, None] + r[None]).min(axis=1), out=out)
    return out
