"""The planner's revision of one community, as a bounded exact re-plan (and the initial plan
of vacant land).

Variables: x[p,t] = 1 when plannable parcel p of the community takes type t (one type each,
from its current type and the types whose site rule it meets, ``Program.fits``);
z[r] ∈ [0, 1] when heard request r (a summary's ``(type, block)``) is served, i.e. a parcel of
its type lies within 500 m of its block's centroid; y[k,u] ∈ [0, 1] when residential parcel u
is served for service kind k (Service rule, docs/reference.md; centroids, 500 m).

    maximise   Σ_r w_r z_r / Σ_r w_r  +  SERVICE_WEIGHT · Service  −  CHANGE_COST · changes
    subject to one type per parcel; the Program's quota band per type (region-wide counts);
               changes ≤ K (``max_changes``); Service ≥ the floor (the initial plan's);
               green parcels stay green (so Ecology and the green area cannot fall) unless
               the planner allows an Ecology loss, which is then checked after the solve.

w_r = voices + (VULNERABLE_WEIGHT − 1) · vulnerable voices: the planner listens to vulnerable
residents more, as the paper's planner is told to. The objective sees only what was said in
the summaries; Satisfaction and Inclusion (the residents' full needs) are never in it.
The current plan is always feasible (no change), so a revision never serves fewer heard
requests than the plan it starts from. ``check`` re-tests every rule independently of the
MILP; a plan that fails it is never returned.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.optimize import Bounds, LinearConstraint
from scipy.sparse import coo_matrix, vstack

from ..solvers.milp import run_highs
from ..tasks.land import GREEN_TYPES, KINDS, SERVICE_KIND, SERVICE_RADIUS, within
from .fishbowl import Request, block_view, parcel_id
from .program import PLANNED, Program, counts
from .region import Region

SERVICE_WEIGHT = 0.25     # Service next to the heard requests (which lead)
CHANGE_COST = 1e-3        # no change without a reason
VULNERABLE_WEIGHT = 2.0   # a vulnerable voice counts this many times
MAX_CHANGES = 3           # default K: parcel changes per community revision
MILP_TIME = 20.0          # seconds; a community's MILP solves in well under a second


@dataclass
class Revision:
    plan: np.ndarray
    status: str
    objective: tuple[float, float]          # (before, after) of the revision objective
    served: tuple[float, float]             # heard request weight served (before, after), share
    changes: list[dict]


def request_weight(r: Request) -> float:
    return r.support + (VULNERABLE_WEIGHT - 1.0) * r.vulnerable


def _served(region: Region, plan: np.ndarray, requests: list[Request], view: np.ndarray) -> np.ndarray:
    pos = {pid: k for k, pid in enumerate(region.ids.tolist())}
    return np.array([bool((view[pos[r.block]] & (plan == r.type)).any()) if r.block in pos else False
                     for r in requests], dtype=bool)


def objective(region: Region, plan: np.ndarray, start: np.ndarray, requests: list[Request],
              view: np.ndarray | None = None) -> tuple[float, float]:
    """(revision objective, share of heard weight served) of ``plan`` revised from ``start``."""
    view = block_view(region) if view is None else view
    w = np.array([request_weight(r) for r in requests])
    share = float(w @ _served(region, plan, requests, view) / w.sum()) if w.sum() > 0 else 0.0
    return share + SERVICE_WEIGHT * region.service(plan) - CHANGE_COST * int((plan != start).sum()), share


def check(region: Region, before: np.ndarray, after: np.ndarray, program: Program, parcels: np.ndarray,
          max_changes: int | None, service_floor: float | None, ecology_loss: float = 0.0) -> list[str]:
    """Every rule a revision must keep, tested on the plans themselves (empty list = ok)."""
    errs = []
    changed = np.flatnonzero(before != after)
    if (~(parcels & region.plannable))[changed].any():
        errs.append("a parcel outside the community's plannable parcels changed")
    if max_changes is not None and len(changed) > max_changes:
        errs.append(f"{len(changed)} parcel changes > limit {max_changes}")
    fits = program.fits(region)
    for j in changed:
        t = after[j]
        if t not in PLANNED:
            errs.append(f"parcel {region.ids[j]}: unknown type {t}")
        elif not fits[j, PLANNED.index(t)]:
            errs.append(f"parcel {region.ids[j]}: too small or narrow for {t} (≥ {program.min_area.get(t, 0):.0f} m², "
                        f"≥ {program.min_width.get(t, 0):.0f} m wide)")
    band = program.band(counts(before, region.plannable))
    now = counts(after, region.plannable)
    for t, (lo, hi) in band.items():
        if not lo <= now[t] <= hi:
            errs.append(f"{t}: {now[t]} parcels outside the quota band [{lo}, {hi}]")
    if service_floor is not None and region.service(after) < service_floor - 1e-9:
        errs.append(f"Service {region.service(after):.4f} < floor {service_floor:.4f}")
    if len(changed):
        eco0, eco1 = region.ecology(before), region.ecology(after)
        if eco1 < eco0 - ecology_loss - 1e-9:
            errs.append(f"Ecology {eco1:.4f} < {eco0:.4f} − allowed loss {ecology_loss}")
    return errs


def _cover_rows(x_idx: dict[tuple[int, str], int], targets: list[tuple[np.ndarray, tuple[str, ...]]],
                var0: int, n_var: int) -> coo_matrix:
    """Rows  v_i − Σ_{p in reach_i, t in types_i} x[p,t] ≤ 0, variable v_i = var0 + i."""
    rr, cc, vv = [], [], []
    for i, (reach, types) in enumerate(targets):
        rr.append(i), cc.append(var0 + i), vv.append(1.0)
        for (p, t), k in x_idx.items():
            if t in types and reach[p]:
                rr.append(i), cc.append(k), vv.append(-1.0)
    return coo_matrix((vv, (rr, cc)), shape=(len(targets), n_var))


def replan(region: Region, plan: np.ndarray, parcels: np.ndarray, program: Program, requests: list[Request],
           max_changes: int | None = MAX_CHANGES, service_floor: float | None = None, ecology_loss: float = 0.0,
           exact_quota: bool = False, cancel: Callable[[], bool] | None = None,
           time_limit: float = MILP_TIME) -> Revision:
    """The best plan under the rules (module docstring). ``exact_quota`` asks for the quotas
    themselves instead of the band (the initial plan of vacant land)."""
    t0 = time.perf_counter()
    view = block_view(region)
    start_obj = objective(region, plan, plan, requests, view)
    cand = np.flatnonzero(parcels & region.plannable)
    fits = program.fits(region)
    protect = ecology_loss <= 0
    allowed: dict[int, list[str]] = {}
    for p in cand:
        ts = [t for k, t in enumerate(PLANNED) if fits[p, k] and t != "feasible"]
        if protect and plan[p] in GREEN_TYPES:
            ts = [t for t in ts if t in GREEN_TYPES]
        allowed[int(p)] = sorted(set(ts) | {str(plan[p])}, key=PLANNED.index)
    x_idx = {(p, t): k for k, (p, t) in enumerate((p, t) for p in allowed for t in allowed[p])}
    nx = len(x_idx)
    pos = {pid: k for k, pid in enumerate(region.ids.tolist())}
    fixed = np.ones(len(plan), dtype=bool)
    fixed[cand] = False
    # heard requests not already served by a parcel outside the revision
    w = np.array([request_weight(r) for r in requests])
    wsum = w.sum() if w.sum() > 0 else 1.0
    blocks = np.array([pos.get(r.block, -1) for r in requests], dtype=int)
    req_free = [i for i, r in enumerate(requests) if blocks[i] >= 0
                and not (view[blocks[i]] & fixed & (plan == r.type)).any()]
    # service kinds of residential parcels not served by fixed parcels
    res = np.flatnonzero(region.residential)
    near = within(region.xy[res], region.xy, SERVICE_RADIUS)          # (res, parcels)
    kind_types = {k: tuple(t for t, kk in SERVICE_KIND.items() if kk == k) for k in KINDS}
    svc_pairs = [(k, u) for k in KINDS for u in range(len(res))
                 if not (near[u] & fixed & np.isin(plan, kind_types[k])).any()]
    svc_const = (len(KINDS) * len(res) - len(svc_pairs)) / (len(KINDS) * len(res))
    nz, ny = len(req_free), len(svc_pairs)
    n_var = nx + nz + ny
    c = np.zeros(n_var)
    for (p, t), k in x_idx.items():
        c[k] = CHANGE_COST if t != plan[p] else 0.0          # minimised: changes cost
    c[nx:nx + nz] = -w[req_free] / wsum
    c[nx + nz:] = -SERVICE_WEIGHT / (len(KINDS) * len(res))
    rows, lo, hi = [], [], []
    # one type per parcel
    rr, cc = zip(*[(i, x_idx[(p, t)]) for i, p in enumerate(allowed) for t in allowed[p]], strict=False) if nx else ((), ())
    rows.append(coo_matrix((np.ones(len(rr)), (rr, cc)), shape=(len(allowed), n_var)))
    lo.append(np.ones(len(allowed))), hi.append(np.ones(len(allowed)))
    # quota band (region-wide counts: fixed parcels + chosen types)
    band = program.band(counts(plan, region.plannable))
    fixed_counts = counts(plan, fixed & region.plannable)
    for t in PLANNED:
        ks = [k for (p, tt), k in x_idx.items() if tt == t]
        q = program.quota.get(t, 0)
        lo_t, hi_t = (q, q) if exact_quota else band[t]
        rows.append(coo_matrix((np.ones(len(ks)), (np.zeros(len(ks)), ks)), shape=(1, n_var)))
        lo.append(np.array([lo_t - fixed_counts[t]])), hi.append(np.array([hi_t - fixed_counts[t]]))
    # changes ≤ K
    if max_changes is not None:
        ks = [k for (p, t), k in x_idx.items() if t != plan[p]]
        rows.append(coo_matrix((np.ones(len(ks)), (np.zeros(len(ks)), ks)), shape=(1, n_var)))
        lo.append(np.array([-np.inf])), hi.append(np.array([float(max_changes)]))
    # z_r ≤ Σ x over the request's view and type
    if nz:
        rows.append(_cover_rows(x_idx, [(view[blocks[i]], (requests[i].type,)) for i in req_free], nx, n_var))
        lo.append(np.full(nz, -np.inf)), hi.append(np.zeros(nz))
    # y[k,u] ≤ Σ x of kind k within 500 m of u; Service ≥ floor
    if ny:
        rows.append(_cover_rows(x_idx, [(near[u], kind_types[k]) for k, u in svc_pairs], nx + nz, n_var))
        lo.append(np.full(ny, -np.inf)), hi.append(np.zeros(ny))
    if service_floor is not None and ny:
        row = np.zeros((1, n_var))
        row[0, nx + nz:] = 1.0 / (len(KINDS) * len(res))
        rows.append(coo_matrix(row))
        lo.append(np.array([service_floor - svc_const - 1e-9])), hi.append(np.array([np.inf]))
    A = vstack(rows).tocsr()
    integrality = np.r_[np.ones(nx), np.zeros(nz + ny)]
    out = run_highs(c, LinearConstraint(A, np.concatenate(lo), np.concatenate(hi)), integrality,
                    Bounds(np.zeros(n_var), np.ones(n_var)), time_limit, t0, cancel)
    new = plan.copy()
    status = {0: "optimal", 1: "time_limit", 2: "infeasible"}.get(getattr(out, "status", 4), "error")
    if out.x is not None:
        for (p, t), k in x_idx.items():
            if out.x[k] > 0.5:
                new[p] = t
    rules = check(region, plan, new, program, parcels, max_changes, service_floor, ecology_loss) if not exact_quota \
        else []
    end_obj = objective(region, new, plan, requests, view)
    if out.x is None or rules or (not exact_quota and end_obj[0] < start_obj[0] - 1e-9):
        reason = "; ".join(rules) if rules else f"HiGHS {status}"
        return Revision(plan.copy(), f"kept the plan ({reason})", (start_obj[0], start_obj[0]),
                        (start_obj[1], start_obj[1]), [])
    return Revision(new, status, (start_obj[0], end_obj[0]), (start_obj[1], end_obj[1]),
                    trace_changes(region, plan, new, requests, view))


def trace_changes(region: Region, before: np.ndarray, after: np.ndarray, requests: list[Request],
                  view: np.ndarray) -> list[dict]:
    """One row per changed parcel: old → new type, the heard requests it answers, and its
    score effect (the revision objective with and without that one change)."""
    pos = {pid: k for k, pid in enumerate(region.ids.tolist())}
    full = objective(region, after, before, requests, view)[0]
    rows = []
    for j in np.flatnonzero(before != after):
        answers = [f"{r.type} for block {r.block} ({r.support} voices)" for r in requests
                   if r.type == after[j] and r.block in pos and view[pos[r.block], j]]
        undone = after.copy()
        undone[j] = before[j]
        rows.append({"parcel": parcel_id(region, j), "from": str(before[j]), "to": str(after[j]),
                     "answers": answers, "effect": round(full - objective(region, undone, before, requests, view)[0], 4)})
    return rows


def initial_plan(region: Region, program: Program, cancel: Callable[[], bool] | None = None) -> Revision:
    """A vacant layer's first plan: the quotas exactly, placed to maximise Service — the
    planner's proposal before any resident speaks (no request has been heard yet)."""
    return replan(region, region.plan0, np.ones(len(region.plan0), dtype=bool), program, [], max_changes=None,
                  exact_quota=True, cancel=cancel)
