"""Exact MILP for road construction (plugin.tasks.road.RoadConstruction), ``exact=True``.

Two flow models over the network reduced exactly for the distances that matter (nodes that
are neither entry nodes nor candidate endpoints are pruned when they are dead ends and
contracted when they have degree 2).

**Pair model** (used when a valid incumbent with S_inc ≥ 0 is known, e.g. the warm start):
one unit of flow per demand pair (a, b) ∈ Π from a's entry nodes to b's, each candidate arc
pair carrying at most x_i of it (disaggregated: a much tighter LP than a shared capacity):

  max  2 − Σ_(a,b) Σ_arcs length·f_ab / (|Π|·D_ideal) − 0.1·Σ cost_i x_i / budget − 0.05·Σ v_ij
  f_ab: unit a→b flow;  f_ab(u→v) + f_ab(v→u) ≤ x_i on candidate i;  v_ij ≥ x_i + x_j − 1
  budget, step limit, one per group;  x binary.
Why it is exact: a plan beating S_inc ≥ 0 connects every pair (else Q = Γ − 1 < 0) and has
D_P/D_ideal < 2 (else Δ = 0 and S ≤ 0), so on such plans S is the objective above, whose
optimum routes every pair on its shortest path. The same argument prunes the model: a plan
beating S_inc has d_P(a, b) < (1 − S_inc)·|Π|·D_ideal + d_ideal(a, b), and ≤ G0(a, b) when
the existing network already connects a and b, so each commodity keeps only the arcs
(u→v) with d_ideal(a, u) + length + d_ideal(v, b) within that cap, and a pair whose kept
arcs hold no candidate has the constant distance G0(a, b). If no plan beats S_inc the model
is infeasible or ends at S_inc: the incumbent is optimal.

**General model** (no incumbent with S ≥ 0): per source group a, one aggregated commodity
sends y_ab ∈ [0, 1] to every b > a; candidate arcs carry at most K_a·x_i (K_a = sinks of a).

  max  Γ − 1 + p − 0.1·Σ cost_i x_i / budget − 0.05·Σ_{crossing i<j} v_ij
  Γ = Σ y_ab / |Π|;  z ≤ y_ab ∀ (a, b) ∈ Π          (z = 1 ⇔ Γ = 1)
  L = Σ_a Σ_arcs length·f / (|Π|·D_ideal)          (= D_P / D_ideal at z = 1, shortest flows)
  p ≤ z,  p ≤ 1 − c,  p ≤ 2z − L + M·c             (p = z·max(0, 2 − D_P/D_ideal); c = clip)
Since Q = Γ − 1 if Γ < 1 and Δ otherwise, Q = Γ − 1 + z·Δ; M = total arc length / D_ideal
+ 2 is valid for shortest-path flows, so this model is exact too, but its LP bound is weak.

Warm start: scipy's ``milp`` takes none; the valid warm start is the fallback plan and the
pair model's incumbent. Early bound: on large models the LP relaxation is solved first
(``relaxation.lp_bound``; for the pair model max(LP, S_inc)), so a bound exists even when the
MIP's root node outlasts the time limit.
"""
from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from scipy.optimize import Bounds, LinearConstraint
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

from ...tasks.road import W_CROSS, W_RHO, RoadConstruction, _csr
from ...tasks.road.task import upper_crossings
from . import MilpResult, check_cancel, result_from_highs, run_highs, valid_warm_start
from .relaxation import LP_SHARE, lp_bound
from .road_scale import solve_at_scale

#: the flow models are large even for the paper's sizes (20,000 variables at 132 candidates),
#: whose MIPs finish in time: only far larger ones spend time on the early LP
ROAD_LP_MIN_VARS = 100_000


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

    def rows_grouped(self, keys: np.ndarray, cols: np.ndarray, vals: np.ndarray, lo: float, hi: float) -> None:
        """One row per distinct key, summing vals·cols over the entries with that key."""
        uniq, inv = np.unique(keys, return_inverse=True)
        r0 = len(self.lo)
        self.rows += (inv + r0).tolist()
        self.cols += np.asarray(cols, dtype=np.int64).tolist()
        self.vals += np.asarray(vals, dtype=float).tolist()
        self.lo += [lo] * len(uniq)
        self.hi += [hi] * len(uniq)

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
    ci, cj = upper_crossings(inst.cross)
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
        for k, _b in enumerate(sinks):
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
    _plan_rows(m, inst, x)
    cvec = np.zeros(m.n_var)
    cvec[list(obj)] = list(obj.values())
    integrality = np.zeros(m.n_var)
    integrality[np.r_[x, z, c]] = 1
    ub = np.full(m.n_var, np.inf)
    ub[np.r_[x, z, c, p, v, np.concatenate(ys) if ys else []].astype(np.int64)] = 1.0
    # S = Γ − 1 + p − … = −cvec·x − 1
    return cvec, -1.0, m.constraint(), integrality, Bounds(np.zeros(m.n_var), ub)


def _arcs(inst: RoadConstruction, edges: np.ndarray, pos: dict[int, int]):
    """(tail, head, length, candidate or −1) of every arc: existing edges and candidates, both ways."""
    su, sv = (np.array([pos[int(x)] for x in s], dtype=np.int64) for s in inst.seg_nodes)
    e0, e1 = edges[:, 0].astype(np.int64), edges[:, 1].astype(np.int64)
    tail, head = np.r_[e0, e1, su, sv], np.r_[e1, e0, sv, su]
    length = np.r_[edges[:, 2], edges[:, 2], inst.w, inst.w]
    cand = np.r_[np.full(2 * len(edges), -1), np.arange(inst.n), np.arange(inst.n)]
    return tail, head, length, cand


def _pair_model(inst: RoadConstruction, s_inc: float):
    """The pair model (see the module docstring): (c, const, constraint, integrality, bounds)."""
    n, g = inst.n, len(inst.entries)
    nodes, edges = reduced_graph(inst)
    pos = {int(x): k for k, x in enumerate(nodes)}
    nn = len(nodes)
    tail, head, length, cand = _arcs(inst, edges, pos)
    ideal = _csr(np.c_[tail, head, length].astype(float), nn)
    ent = [np.array([pos[int(e)] for e in es], dtype=np.int64) for es in inst.entries]
    d_from = np.full((g, nn), np.inf)
    for a in range(g):
        if len(ent[a]):
            d_from[a] = dijkstra(ideal, directed=False, indices=ent[a], min_only=True)
    n_pairs, d_ideal = max(inst.n_pairs, 1), inst.d_ideal if inst.d_ideal > 0 else 1.0
    scale = 1.0 / (n_pairs * d_ideal)

    m = _Model()
    x = m.var(n)
    ci, cj = upper_crossings(inst.cross)
    v = m.var(len(ci))
    cvec: dict[int, float] = {int(x[i]): W_RHO * inst.cost[i] / inst.budget for i in range(n)}
    for k in range(len(ci)):
        cvec[int(v[k])] = W_CROSS
        m.row([v[k], x[ci[k]], x[cj[k]]], [1.0, -1.0, -1.0], -1.0, np.inf)
    const = 2.0
    flow_cols, flow_len = [], []
    for flat in inst.pair_flat:
        a, b = int(flat) // g, int(flat) % g
        g0 = inst.G0[a, b]
        cap = (1.0 - s_inc) * n_pairs * d_ideal + float(d_from[a][ent[b]].min())
        cap = min(cap, g0) * (1 + 1e-9) + 1e-6
        keep = d_from[a][tail] + length + d_from[b][head] <= cap
        if not (cand[keep] >= 0).any():
            if not np.isfinite(g0):
                return None     # the pair cannot be connected by a plan beating S_inc
            const -= g0 * scale
            continue
        t, h, ln, cd = tail[keep], head[keep], length[keep], cand[keep]
        f = m.var(len(t))
        src_nodes = ent[a][d_from[b][ent[a]] <= cap]
        snk_nodes = ent[b][d_from[a][ent[b]] <= cap]
        src, snk = m.var(len(src_nodes)), m.var(len(snk_nodes))
        m.row(src, 1.0, 1.0, 1.0)
        # conservation (in − out + supply − demand = 0) at every node the pair's arcs touch
        node = np.r_[h, t, src_nodes, snk_nodes]
        col = np.r_[f, f, src, snk]
        sign = np.r_[np.ones(len(f)), -np.ones(len(f)), np.ones(len(src)), -np.ones(len(snk))]
        m.rows_grouped(node, col, sign, 0.0, 0.0)
        # candidate capacity: both directions together carry at most x_i
        on = cd >= 0
        m.rows_grouped(np.r_[cd[on], np.unique(cd[on])], np.r_[f[on], x[np.unique(cd[on])]],
                       np.r_[np.ones(int(on.sum())), -np.ones(len(np.unique(cd[on])))], -np.inf, 0.0)
        flow_cols.append(f)
        flow_len.append(ln * scale)
    if flow_cols:
        for col, val in zip(np.concatenate(flow_cols), np.concatenate(flow_len), strict=False):
            cvec[int(col)] = float(val)
    _plan_rows(m, inst, x)
    c = np.zeros(m.n_var)
    c[list(cvec)] = list(cvec.values())
    integrality = np.zeros(m.n_var)
    integrality[x] = 1
    ub = np.full(m.n_var, np.inf)
    ub[np.r_[x, v].astype(np.int64)] = 1.0
    return c, const, m.constraint(), integrality, Bounds(np.zeros(m.n_var), ub)


def _plan_rows(m: _Model, inst: RoadConstruction, x: np.ndarray) -> None:
    """Ψ: budget, step limit, at most one candidate per group."""
    m.row(x, inst.cost, -np.inf, inst.budget)
    m.row(x, 1.0, -np.inf, inst.max_select)
    for gr in range(inst.n_groups):
        members = np.flatnonzero(inst.group == gr)
        if len(members) > 1:
            m.row(x[members], 1.0, -np.inf, 1.0)


def solve(inst: RoadConstruction, time_limit: float, warm_start: np.ndarray | None = None,
          cancel: Callable[[], bool] | None = None, at_scale: bool = False) -> MilpResult:
    """Solve exactly (within ``time_limit`` seconds); see the module docstring. ``at_scale``:
    only the connection-cost bound (``road_scale``) for networks too large for the flow models."""
    check_cancel(cancel, "road-construction")
    t0 = time.perf_counter()
    fallback = valid_warm_start(inst, warm_start)
    if at_scale:
        return solve_at_scale(inst, time_limit, fallback, cancel, t0)
    s_inc = inst.score_mask(fallback)[0]
    if s_inc >= 0:
        model = _pair_model(inst, s_inc)
        if model is None:  # no plan can beat the incumbent
            return MilpResult(fallback, float(s_inc), "optimal", True, time.perf_counter() - t0)
    else:
        model = _model(inst)
    cvec, const, cons, integrality, bounds = model
    # the pair model is exact only for plans beating the incumbent: its LP bounds those, and
    # the incumbent bounds the rest
    lp, _ = lp_bound(cvec, const, cons, bounds, LP_SHARE * time_limit, t0, cancel, ROAD_LP_MIN_VARS)
    res = run_highs(cvec, cons, integrality, bounds, time_limit, t0, cancel=cancel)
    early = max(lp, float(s_inc)) if s_inc >= 0 else lp
    out = result_from_highs(inst, res, const, min(1.0, early), fallback, t0)   # Q ≤ 1, ρ and V ≥ 0
    if s_inc >= 0 and res.status == 2:  # infeasible: nothing beats the incumbent
        out.status, out.bound = "optimal", max(float(s_inc), inst.score_mask(out.mask)[0])
    return out
