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
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
import shapely
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components, dijkstra
from scipy.spatial import cKDTree

from ..errors import InputError

from .base import SIZES, Instance, SearchState

# ---------------------------------------------------------------- score weights
W_RHO = 0.1          # paper: S = Q − 0.1·ρ − V
W_CROSS = 0.05       # V per pair of selected new links that cross without a junction

# ---------------------------------------------------------------- instance generation
TARGET = {"small": 63, "medium": 102, "large": 143}   # paper's mean candidate counts
N_GROUPS = {"small": 10, "medium": 14, "large": 18}   # demand faces sampled ∝ demand
N_CUT = {"small": 2, "medium": 3, "large": 4}         # demand faces cut off from the network
N_DETOUR = {"small": 4, "medium": 6, "large": 8}      # extra removed through links
CUT_MARGIN = (10.0, 60.0)    # m beyond a cut face's entry nodes where its links are removed
LINK_RADIUS = 150.0          # m, longest new link
MIN_LINK = 10.0              # m, shortest new link
MIN_DETOUR = 1.6             # a new link must shorten the network path by this factor
UNIT_COST = {"new": 1.5, "rebuild": 1.0}   # k€ per m before the class factor
CLASS_FACTOR = {"motorway": 2.0, "trunk": 1.8, "primary": 1.6, "secondary": 1.4, "tertiary": 1.2,
                "service": 0.7}            # other classes 1.0; *_link as their parent class
NEW_CLASS = "residential"
BUDGET_FACTOR = (0.06, 0.10)  # budget = factor × total candidate cost, at least CONNECT_SLACK ×
CONNECT_SLACK = 1.2           # the cost of a cheap plan that connects every pair
STEP_SHARE = 0.5              # max_select = ceil(share × n), at least that plan's size + 2
TOL = 1e-9


def class_factor(highway: str) -> float:
    return CLASS_FACTOR.get(str(highway).removesuffix("_link"), 1.0)


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
        self.D0 = dijkstra(self.csr, directed=False, indices=self.key_nodes)[:, self.key_nodes] if m else \
            np.zeros((0, 0))
        self.D0 = np.minimum(self.D0, self.D0.T)
        self.cross = np.zeros((self.n, self.n), dtype=bool)
        for a, b in d.get("crossings", []):
            i, j = self.index[a], self.index[b]
            self.cross[i, j] = self.cross[j, i] = True
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
        wk = w[None, :, None]
        # group -> X: the first selected segment on the path
        DgX = np.minimum(Dg0X, np.minimum((Dg0X[:, lu, None] + wk + DX[lv][None]).min(axis=1),
                                          (Dg0X[:, lv, None] + wk + DX[lu][None]).min(axis=1)))
        # group -> group: the last selected segment on the path
        G = np.minimum(self.G0, np.minimum((DgX[:, None, lu] + w + Dg0X[None, :, lv]).min(axis=2),
                                           (DgX[:, None, lv] + w + Dg0X[None, :, lu]).min(axis=2)))
        if level == 0:
            return (G,)
        D0u, D0v = self.D0[cu], self.D0[cv]   # X -> M without selected segments
        Dg = np.minimum(self.Dg0, np.minimum((DgX[:, lu, None] + wk + D0v[None]).min(axis=1),
                                             (DgX[:, lv, None] + wk + D0u[None]).min(axis=1)))
        if level == 1:
            return G, Dg
        D0R = self.D0[R]
        DMX = np.minimum(D0R[:, X], np.minimum((D0R[:, cu, None] + wk + DX[lv][None]).min(axis=1),
                                               (D0R[:, cv, None] + wk + DX[lu][None]).min(axis=1)))
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
        crossings = int(self.cross[np.ix_(sel, sel)].sum()) // 2
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

    def state(self, mask: np.ndarray | None = None) -> "RoadState":
        return RoadState(self, mask)

    # ------------------------------------------------------------------ generation
    @classmethod
    def build(cls, city, size: str = "small", seed: int = 0, budget: float | None = None,
              **params: Any) -> "RoadConstruction":
        """From a City: cut some demand faces off, remove some through links, offer those links
        and new straight links as candidates.

        params: n_candidates (override the size's target), n_groups, budget_factor, link_radius."""
        if size not in SIZES:
            raise InputError(f"unknown size '{size}' (choose {', '.join(SIZES)})")
        rng = np.random.default_rng(seed)
        target = int(params.get("n_candidates") or TARGET[size])
        net = _Network(city)
        groups = net.sample_groups(rng, int(params.get("n_groups") or N_GROUPS[size]))
        removed = net.remove_links(rng, groups, N_CUT[size], N_DETOUR[size])
        n_new = max(0, target - len(removed))
        radius = float(params.get("link_radius") or LINK_RADIUS)
        for radius in radius * np.array([1.0, 1.5, 2.0]):  # sparse networks need longer links
            links = net.new_links(radius)
            if len(links) >= n_new:
                break
        if len(links) > n_new:
            links = links.iloc[np.sort(rng.choice(len(links), n_new, replace=False))]
        cands = _candidate_table(net, removed, links, city)
        if not len(cands):
            raise InputError(f"{city.name}: no road segment to build (network has no gaps to close)")
        data = {
            "nodes": {"id": [int(i) for i in net.nodes.index], "x": net.nodes["x"].round(2).tolist(),
                      "y": net.nodes["y"].round(2).tolist()},
            "edges": [[int(u), int(v), round(float(w), 3)] for u, v, w in
                      net.kept[["u", "v", "length"]].itertuples(index=False)],
            "groups": groups,
            "segments": {r.id: [int(r.u), int(r.v), float(r.length_m)] for r in cands.itertuples()},
            "crossings": _crossings(cands),
        }
        cands["crosses"] = _crosses_column(cands["id"].tolist(), data["crossings"])
        cands = cands.drop(columns="geometry")
        inst_id = f"{city.name}-road-{size}-{seed}"
        meta = {"region": city.name, "size": size, "seed": seed, "target": target, "candidates": len(cands),
                "short_of_target": len(cands) < target, "groups": len(groups),
                "rebuild": int((cands["kind"] == "rebuild").sum()), "new": int((cands["kind"] == "new").sum()),
                "link_radius_m": float(radius)}
        probe = cls(inst_id, cands, 1e18, len(cands), city.crs, meta, data)
        if probe.n_pairs == 0:
            raise InputError(f"{city.name}: no two demand faces can be connected, nothing to plan")
        conn = probe.cheap_connecting_plan()
        conn_cost = float(probe.cost[conn].sum())
        factor = float(params.get("budget_factor", rng.uniform(*BUDGET_FACTOR)))
        b = float(budget) if budget is not None else round(max(factor * probe.cost.sum(), CONNECT_SLACK * conn_cost), 1)
        max_select = max(math.ceil(STEP_SHARE * len(cands)), int(conn.sum()) + 2)
        gamma0 = probe.quality(probe.G0)[0]
        meta.update({"budget_factor": round(factor, 4), "connect_cost": round(conn_cost, 1),
                     "connect_size": int(conn.sum()), "gamma_existing": round(gamma0, 4),
                     "d_ideal_m": round(probe.d_ideal, 1), "pairs": probe.n_pairs})
        return cls(inst_id, cands, b, min(max_select, len(cands)), city.crs, meta, data)

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
        extra = np.c_[su[mask], sv[mask], np.ones(int(mask.sum()))]
        _, lab = connected_components(_csr(np.r_[self.edge_arr, extra], n_nodes), directed=False)
        comp = [set(lab[e].tolist()) for e in self.entries]
        g = len(comp)
        iu = np.triu_indices(g, 1)
        ok = np.array([bool(comp[a] & comp[b]) for a, b in zip(*iu)], dtype=bool)
        return bool(ok[np.isin(iu[0] * g + iu[1], self.pair_flat)].all())


class RoadState(SearchState):
    """Incremental state: exact G, Dg, D over the key nodes for the current plan.

    add: one exact edge insertion (O(m²)). remove: G and Dg are recomputed, and of D only the
    rows of key nodes with a shortest path that may run over the segment (none when it lies on
    no shortest path: then nothing is recomputed). Gains of removals and swaps share a
    per-plan cache of the distances without each selected segment."""

    def __init__(self, inst: RoadConstruction, mask: np.ndarray | None = None):
        super().__init__(inst, mask)
        self._rebuild()

    def _rebuild(self) -> None:
        inst: RoadConstruction = self.inst
        self.G, self.Dg, self.D = inst.distances(np.flatnonzero(self.mask), 2)
        self.xcnt = inst.cross[self.mask].sum(axis=0).astype(np.int64)
        self.n_cross = int(self.xcnt[self.mask].sum()) // 2
        self._cache: dict[int, tuple[np.ndarray, np.ndarray | None]] = {}

    @property
    def score(self) -> float:
        return self.inst._score(self.G, self.cost, self.n_cross)

    # ---- distances after a change (not applied)
    def _g_with(self, i: int, G: np.ndarray, Dg: np.ndarray) -> np.ndarray:
        inst = self.inst
        a = np.add.outer(Dg[:, inst.cu[i]] + inst.w[i], Dg[:, inst.cv[i]])
        return np.minimum(G, np.minimum(a, a.T))

    @staticmethod
    def _tight(cur: np.ndarray, via: np.ndarray) -> bool:
        """Whether some shortest distance in ``cur`` may run over segment i."""
        return bool((via <= cur + TOL * np.maximum(1.0, cur)).any())

    def _without(self, i: int, need_dg: bool) -> tuple[np.ndarray, np.ndarray | None]:
        """(G, Dg) of the plan without selected segment i; Dg only if ``need_dg``."""
        hit = self._cache.get(i)
        if hit is not None and (hit[1] is not None or not need_dg):
            return hit
        inst = self.inst
        u, v, w = inst.cu[i], inst.cv[i], inst.w[i]
        via_dg = np.minimum(np.add.outer(self.Dg[:, u] + w, self.D[v]), np.add.outer(self.Dg[:, v] + w, self.D[u]))
        if not self._tight(self.Dg, via_dg):
            out = (self.G, self.Dg)
        elif not need_dg and not self._tight(self.G, self._g_with(i, np.full_like(self.G, np.inf), self.Dg)):
            out = (self.G, None)
        else:
            rest = np.flatnonzero(self.mask)
            res = inst.distances(rest[rest != i], int(need_dg))
            out = (res[0], res[1] if need_dg else None)
        self._cache[i] = out
        return out

    # ---- gains
    def gain_add(self, i: int) -> float:
        inst = self.inst
        after = inst._score(self._g_with(i, self.G, self.Dg), self.cost + inst.cost[i], self.n_cross + self.xcnt[i])
        return after - self.score

    def gain_remove(self, i: int) -> float:
        inst = self.inst
        G, _ = self._without(i, need_dg=False)
        after = inst._score(G, self.cost - inst.cost[i], self.n_cross - self.xcnt[i])
        return after - self.score

    def gain_swap(self, out: int, inn: int) -> float:
        inst = self.inst
        G, Dg = self._without(out, need_dg=True)
        crossings = self.n_cross - self.xcnt[out] + self.xcnt[inn] - int(inst.cross[out, inn])
        after = inst._score(self._g_with(inn, G, Dg), self.cost - inst.cost[out] + inst.cost[inn], crossings)
        return after - self.score

    # ---- moves
    def add(self, i: int) -> None:
        super().add(i)
        inst = self.inst
        _insert(self.G, self.Dg, self.D, inst.cu[i], inst.cv[i], inst.w[i])
        self.n_cross += int(self.xcnt[i])
        self.xcnt += inst.cross[i]
        self._cache = {}

    def remove(self, i: int) -> None:
        inst = self.inst
        u, v, w = inst.cu[i], inst.cv[i], inst.w[i]
        via = np.minimum(np.add.outer(self.D[u] + w, self.D[v]), np.add.outer(self.D[v] + w, self.D[u]))
        via_dg = np.minimum(np.add.outer(self.Dg[:, u] + w, self.D[v]), np.add.outer(self.Dg[:, v] + w, self.D[u]))
        # only key nodes with a shortest path that may run over i get new rows (D is symmetric)
        rows = np.flatnonzero((via <= self.D + TOL * np.maximum(1.0, self.D)).any(axis=1))
        super().remove(i)
        if len(rows) or self._tight(self.Dg, via_dg):
            self.G, self.Dg, d_rows = inst.distances(np.flatnonzero(self.mask), 2, rows)
            self.D[rows] = d_rows
            self.D[:, rows] = d_rows.T
        self.xcnt -= inst.cross[i]
        self.n_cross -= int(self.xcnt[i])
        self._cache = {}


# ---------------------------------------------------------------- helpers
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

    def new_links(self, radius: float) -> pd.DataFrame:
        """Straight links between nodes ≤ radius apart that touch no building, cross no road
        except at their endpoints, and shorten the (gapped) network path by MIN_DETOUR."""
        xy = self.nodes[["x", "y"]].to_numpy()
        pairs = np.array(sorted(cKDTree(xy).query_pairs(radius)), dtype=np.int64).reshape(-1, 2)
        eu = np.hypot(*(xy[pairs[:, 0]] - xy[pairs[:, 1]]).T)
        adjacent = set(zip(self.pos[self.edges["a"]], self.pos[self.edges["b"]]))
        keep = (eu >= MIN_LINK) & np.array([(a, b) not in adjacent for a, b in pairs], dtype=bool)
        pairs, eu = pairs[keep], eu[keep]
        dist = dijkstra(self._graph(self.kept), directed=False)
        keep = dist[pairs[:, 0], pairs[:, 1]] >= MIN_DETOUR * eu
        pairs, eu = pairs[keep], eu[keep]
        segs = shapely.linestrings(np.stack([xy[pairs[:, 0]], xy[pairs[:, 1]]], axis=1))
        bad = np.zeros(len(segs), dtype=bool)
        b = self.city.buildings
        if len(b):
            hit, _ = shapely.STRtree(b.geometry.to_numpy()).query(segs, predicate="intersects")
            bad[hit] = True
        roads = self.edges.geometry.to_numpy()
        si, ri = shapely.STRtree(roads).query(segs, predicate="intersects")
        ends = shapely.buffer(shapely.multipoints(np.stack([xy[pairs[si, 0]], xy[pairs[si, 1]]], axis=1)), 0.05)
        bad[si[~shapely.is_empty(shapely.difference(shapely.intersection(segs[si], roads[ri]), ends))]] = True
        nid = self.nodes.index.to_numpy()
        return pd.DataFrame({"u": nid[pairs[~bad, 0]], "v": nid[pairs[~bad, 1]], "length": eu[~bad],
                             "detour": dist[pairs[~bad, 0], pairs[~bad, 1]] / eu[~bad],
                             "geometry": segs[~bad]})


def _candidate_table(net: _Network, removed: pd.DataFrame, links: pd.DataFrame, city) -> pd.DataFrame:
    dist = dijkstra(net._graph(net.kept), directed=False, indices=net.pos[removed["u"]].to_numpy()) \
        if len(removed) else np.zeros((0, len(net.nodes)))
    gap = dist[np.arange(len(removed)), net.pos[removed["v"]].to_numpy()] if len(removed) else np.zeros(0)
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


def _crossings(cands: pd.DataFrame) -> list[list[str]]:
    """Pairs of candidates that cross away from their endpoints (an unmodelled junction)."""
    geoms = cands["geometry"].to_numpy()
    a, b = shapely.STRtree(geoms).query(geoms, predicate="intersects")
    keep = a < b
    a, b = a[keep], b[keep]
    pts = np.stack([shapely.get_point(geoms[a], 0), shapely.get_point(geoms[a], -1),
                    shapely.get_point(geoms[b], 0), shapely.get_point(geoms[b], -1)], axis=1)
    ends = shapely.buffer(shapely.multipoints(shapely.get_coordinates(pts.ravel()).reshape(-1, 4, 2)), 0.05)
    cross = ~shapely.is_empty(shapely.difference(shapely.intersection(geoms[a], geoms[b]), ends))
    ids = cands["id"].to_numpy()
    return [[str(ids[i]), str(ids[j])] for i, j in zip(a[cross], b[cross])]


def _crosses_column(ids: list[str], crossings: list[list[str]]) -> list[str]:
    other: dict[str, list[str]] = {i: [] for i in ids}
    for a, b in crossings:
        other[a].append(b)
        other[b].append(a)
    return [";".join(other[i]) for i in ids]
