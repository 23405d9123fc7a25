"""Exact MILP for road construction (plugin.tasks.road.RoadConstruction): a flow model.

The network is reduced exactly for the distances that matter (nodes that are neither entry
nodes nor candidate endpoints are pruned when they are dead ends and contracted when they
have degree 2). Per source group a, one aggregated flow commodity sends y_ab ∈ [0, 1] from
a super-source s_a (0-length arcs to a's entry nodes) to a super-sink t_b (0-length arcs from
b's entry nodes) for every pair (a, b) ∈ Π with b > a. Existing arcs are uncapacitated; the
two arcs of candidate i carry at most K_a·x_i (K_a = number of sinks of a).

  max  Γ − 1 + p − 0.1·Σ cost_i x_i / budget − 0.05·Σ_{crossing i<j} v_ij
  Γ = Σ y_ab / |Π|;  z ≤ y_ab ∀ (a, b) ∈ Π          (z = 1 ⇔ Γ = 1)
  L = Σ_a Σ_arcs length·f / (|Π|·D_ideal)          (= D_P / D_ideal at z = 1, shortest flows)
  p ≤ z,  p ≤ 1 − c,  p ≤ 2z − L + M·c             (p = z·max(0, 2 − D_P/D_ideal); c = clip)
  v_ij ≥ x_i + x_j − 1;  budget, step limit, one per group;  x, z, c binary.
Since Q = Γ − 1 if Γ < 1 and Δ otherwise, Q = Γ − 1 + z·Δ; the optimiser routes flows on
shortest paths because that maximises p, so the model is EXACT for the evaluator's S
(``exact=True``). M = total arc length / D_ideal + 2 is valid for shortest-path flows.

Warm start: scipy's ``milp`` takes none, so it is only a fallback — the returned plan is the
better (by the true evaluator) of the HiGHS plan and the valid warm start.
"""
from __future__ import annotations

import time
from typing import Callable

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import coo_matrix

from plugin.errors import Cancelled
from plugin.solvers.milp import MilpResult
from plugin.tasks.road import W_CROSS, W_RHO, RoadConstruction


def reduced_graph(inst: RoadConstruction) -> tuple[np.ndarray, np.ndarray]:
    """(kept graph-node indices, edges [[i, j, length]] over positions in that array): the
    existing network with distances among entry nodes and candidate endpoints preserved."""
    keep = set(inst.key_nodes.tolist()) | {int(e) for ent in inst.entries for e in ent}
    adj: dict[int, dict[int, float]] = {}
    for a, b, w in inst.edge_arr:
        a, b = int(a), int(b)
        if a != b and w < adj.get(a, {}).get(b, np.inf):
            adj.setdefault(a, {})[b] = w
            adj.setdefault(b, {})[a] = w
    work = [x for x in adj if x not in keep]
    while work:
        x = work.pop()
        nb = adj.get(x)
        if nb is None or len(nb) > 2:
            continue
        if len(nb) == 2:
            (p, wp), (q, wq) = nb.items()
            if wp + wq < adj[p].get(q, np.inf):
                adj[p][q] = adj[q][p] = wp + wq
        for y in nb:
            del adj[y][x]
            if y not in keep:
                work.append(y)
        del adj[x]
    nodes = np.array(sorted(set(adj) | keep), dtype=np.int64)
    pos = {int(x): k for k, x in enumerate(nodes)}
    edges = [(pos[a], pos[b], w) for a, nb in adj.items() for b, w in nb.items() if a < b]
    return nodes, np.array(edges, dtype=float).reshape(-1, 3)


class _Model:
    """Sparse constraint rows built column by column."""

    def __init__(self):
        self.n_var = 0
        self.rows: list[int] = []
        self.cols: list[int] = []
        self.vals: list[float] = []
        self.lo: list[float] = []
        self.hi: list[float] = []

    def var(self, k: int) -> np.ndarray:
        out = np.arange(self.n_var, self.n_var + k)
        self.n_var += k
        return out

    def row(self, cols, vals, lo: float, hi: float) -> None:
        r = len(self.lo)
        cols = np.atleast_1d(cols)
        self.rows += [r] * len(cols)
        self.cols += [int(c) for c in cols]
        self.vals += [float(v) for v in np.broadcast_to(vals, cols.shape)]
        self.lo.append(lo)
        self.hi.append(hi)

    def constraint(self) -> LinearConstraint:
        a = coo_matrix((self.vals, (self.rows, self.cols)), shape=(len(self.lo), self.n_var)).tocsr()
        return LinearConstraint(a, self.lo, self.hi)


def _model(inst: RoadConstruction):
    n, g = inst.n, len(inst.entries)
    nodes, edges = reduced_graph(inst)
    pos = {int(x): k for k, x in enumerate(nodes)}
    nn = len(nodes)
    su, sv = (np.array([pos[int(x)] for x in s], dtype=np.int64) for s in inst.seg_nodes)
    pairs = [(int(f) // g, int(f) % g) for f in inst.pair_flat]
    n_pairs = max(len(pairs), 1)
    d_ideal = inst.d_ideal if inst.d_ideal > 0 else 1.0
    big_m = (float(edges[:, 2].sum()) + float(inst.w.sum())) / d_ideal + 2.0

    m = _Model()
    x, z, c, p = m.var(n), m.var(1)[0], m.var(1)[0], m.var(1)[0]
    ci, cj = np.nonzero(np.triu(inst.cross, 1))
    v = m.var(len(ci))
    obj: dict[int, float] = {int(x[i]): W_RHO * inst.cost[i] / inst.budget for i in range(n)}
    obj[int(p)] = -1.0
    for k in range(len(ci)):
        obj[int(v[k])] = W_CROSS
        m.row([v[k], x[ci[k]], x[cj[k]]], [1.0, -1.0, -1.0], -1.0, np.inf)
    # arcs shared by every commodity: existing both ways, then candidates both ways
    tail = np.r_[edges[:, 0], edges[:, 1], su, sv].astype(np.int64)
    head = np.r_[edges[:, 1], edges[:, 0], sv, su].astype(np.int64)
    length = np.r_[edges[:, 2], edges[:, 2], inst.w, inst.w]
    n_e = len(edges)
    ent = [np.array([pos[int(e)] for e in es], dtype=np.int64) for es in inst.entries]
    ys: list[np.ndarray] = []
    dist_row_cols: list[np.ndarray] = []
    dist_row_vals: list[np.ndarray] = []
    for a in range(g):
        sinks = [b for (aa, b) in pairs if aa == a]
        if not sinks:
            continue
        f = m.var(len(tail))
        src = m.var(len(ent[a]))
        y = m.var(len(sinks))
        snk = [m.var(len(ent[b])) for b in sinks]
        ys.append(y)
        for k, b in enumerate(sinks):
            obj[int(y[k])] = obj.get(int(y[k]), 0.0) - 1.0 / n_pairs
            m.row([z, y[k]], [1.0, -1.0], -np.inf, 0.0)
            m.row(np.r_[snk[k], y[k]], np.r_[np.ones(len(snk[k])), -1.0], 0.0, 0.0)
        # conservation at every graph node: in − out = 0
        r_cols = [f, f, src] + snk
        r_node = [head, tail, ent[a]] + [ent[b] for b in sinks]
        r_sign = [np.ones(len(f)), -np.ones(len(f)), np.ones(len(src))] + [-np.ones(len(s)) for s in snk]
        cols_all, node_all, sign_all = np.concatenate(r_cols), np.concatenate(r_node), np.concatenate(r_sign)
        order = np.argsort(node_all, kind="stable")
        cuts = np.searchsorted(node_all[order], np.arange(nn + 1))
        for k in range(nn):
            sl = order[cuts[k]:cuts[k + 1]]
            if len(sl):
                m.row(cols_all[sl], sign_all[sl], 0.0, 0.0)
        cap = float(len(sinks))
        for i in range(n):
            m.row([f[2 * n_e + i], f[2 * n_e + n + i], x[i]], [1.0, 1.0, -cap], -np.inf, 0.0)
        dist_row_cols.append(f)
        dist_row_vals.append(length / (n_pairs * d_ideal))
    # p ≤ 2z − L + M·c
    m.row(np.r_[p, z, c, np.concatenate(dist_row_cols) if dist_row_cols else []],
          np.r_[1.0, -2.0, -big_m, np.concatenate(dist_row_vals) if dist_row_vals else []], -np.inf, 0.0)
    m.row([p, z], [1.0, -1.0], -np.inf, 0.0)
    m.row([p, c], [1.0, 1.0], -np.inf, 1.0)
    m.row(x, inst.cost, -np.inf, inst.budget)
    m.row(x, 1.0, -np.inf, inst.max_select)
    for gr in range(inst.n_groups):
        members = np.flatnonzero(inst.group == gr)
        if len(members) > 1:
            m.row(x[members], 1.0, -np.inf, 1.0)
    cvec = np.zeros(m.n_var)
    cvec[list(obj)] = list(obj.values())
    integrality = np.zeros(m.n_var)
    integrality[np.r_[x, z, c]] = 1
    ub = np.full(m.n_var, np.inf)
    ub[np.r_[x, z, c, p, v, np.concatenate(ys) if ys else []].astype(np.int64)] = 1.0
    # S = Γ − 1 + p − … = −cvec·x − 1
    return cvec, -1.0, m.constraint(), integrality, Bounds(np.zeros(m.n_var), ub)


def solve(inst: RoadConstruction, time_limit: float, warm_start: np.ndarray | None = None,
          cancel: Callable[[], bool] | None = None) -> MilpResult:
    """Solve exactly (within ``time_limit`` seconds); see the module docstring."""
    if cancel is not None and cancel():
        raise Cancelled("cancelled before the road-construction MILP started")
    t0 = time.perf_counter()
    cvec, const, cons, integrality, bounds = _model(inst)
    res = milp(cvec, constraints=cons, integrality=integrality, bounds=bounds,
               options={"time_limit": max(float(time_limit), 0.1), "mip_rel_gap": 1e-6, "disp": False})
    best = _fallback(inst, warm_start)
    best_s = inst.score_mask(best)[0]
    if res.x is not None:
        mask = res.x[: inst.n] > 0.5
        if not inst.hard_errors(mask) and inst.score_mask(mask)[0] >= best_s:
            best, best_s = mask, inst.score_mask(mask)[0]
    dual = getattr(res, "mip_dual_bound", None)
    if dual is not None and np.isfinite(dual) and res.status in (0, 1):
        bound = min(max(const - float(dual), best_s), 1.0)
    else:  # no proven bound from HiGHS: Q ≤ 1, ρ and V ≥ 0
        bound = 1.0
    status = {0: "optimal", 1: "time_limit", 2: "infeasible"}.get(res.status, "error")
    return MilpResult(best, float(bound), status, True, time.perf_counter() - t0)


def _fallback(inst: RoadConstruction, warm_start: np.ndarray | None) -> np.ndarray:
    """The warm start if it is a valid plan, else the empty plan (always valid)."""
    if warm_start is not None:
        w = np.asarray(warm_start, dtype=bool)
        if len(w) == inst.n and not inst.hard_errors(w):
            return w.copy()
    return np.zeros(inst.n, dtype=bool)
