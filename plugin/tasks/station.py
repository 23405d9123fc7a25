"""Station placement (SP): EV charging sites and their charger configurations.

Paper (REFERENCE.md §1): a candidate is a site plus a charger configuration; supply
q = n_slow + 3·n_medium + 8·n_fast; demand is assigned to selected sites by a generalized
distance mixing physical distance and queue pressure; S = 0.50·A + 0.25·D + 0.15·T − 0.20·ρ − V.
Origin: PCRL (von Wahl et al., KDD 2022): coverage radius growing with capacity, M/D/1
waiting time ρτ/(2(1−ρ)), chargers of 7 / 22 / 50 kW. The exact formula is the docstring of
``StationPlacement``; it is built so that an exact MILP exists (plugin/solvers/milp/station.py).
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra
from scipy.spatial import cKDTree

from ..errors import InputError

from .base import SIZES, Instance, SearchState

W_A, W_D, W_T, W_RHO = 0.50, 0.25, 0.15, 0.20  # the paper's weights
SUPPLY = np.array([1.0, 3.0, 8.0])              # q per slow / medium / fast charger (7 / 22 / 50 kW)
CHARGER_COST = np.array([6.0, 15.0, 45.0])      # k€ per installed slow / medium / fast charger
#: (slow, medium, fast) configurations offered, in increasing supply q
CONFIGS = ((4, 0, 0), (2, 2, 0), (0, 4, 0), (4, 2, 1), (2, 4, 1), (0, 4, 2), (2, 2, 4), (0, 4, 5), (0, 2, 7))
#: site kind -> (sampling priority, site cost k€): a POI kind, "face" (a large block or one with
#: parking) or "curb" (a street junction: kerbside chargers, the fallback where places are few)
SITE_KINDS = {"charging": (4.0, 10.0), "fuel": (3.0, 15.0), "parking": (3.0, 20.0),
              "face": (2.0, 25.0), "business": (1.0, 30.0), "curb": (0.5, 12.0)}
#: size -> (sites, configurations per site, demand grid cell m, step limit, budget factor)
SIZE_PARAMS = {"small": (20, 4, 200.0, 6, 0.70), "medium": (16, 5, 100.0, 5, 0.55),
               "large": (36, 5, 120.0, 10, 0.60)}
#: the score's parameters (data.params may override them)
DEFAULT_PARAMS = {
    "beta": 0.5,            # queue-pressure weight in the generalized distance
    "lambda_over": 0.5,     # V weight of overload (share of demand beyond capacity)
    "lambda_unserved": 0.1,  # V weight of unserved (uncovered) demand share
    "lambda_rule": 1.0,     # V weight per duplicate-site configuration and per plan slot over the limit
}
MU = 2.0                    # charging sessions per day per supply unit (a 7 kW charger ≈ 2)
DEMAND_RATIO = 0.8          # total EV demand = this × the capacity the budget buys at the median price
#: r0, r1 as multiples of r_ref = DETOUR·sqrt(region area / (π·max_select)), the radius at which
#: max_select stations could cover the region; a median configuration (q ≈ 18) gets ≈ r_ref
RADIUS_SHAPE = (0.6, 0.1)
SITE_REACH_M = 400.0        # sites are sampled more often where residents live within this distance
MIN_SPACING_M = 20.0        # two places closer than this are one site
DETOUR = 1.4                # distance factor where the road network does not connect two points
FACE_SITE_MIN_AREA = 5000.0  # a block this large (m²) or with parking area can host a site
PARAMS = ("n_sites", "n_configs", "cell_m", "max_select", "budget_factor")


def _waiting_lines() -> tuple[np.ndarray, np.ndarray]:
    """Lines (a_k, b_k) whose minimum is φ̂(u) = min_k (a_k + b_k·u).

    φ(u) = u·h(u), h(u) = 1 / (1 + u / (2(1 − u))) = τ / (τ + W_q): the share of a driver's
    time at the station spent charging, M/D/1 waiting W_q = uτ/(2(1−u)) (PCRL). φ is concave
    on [0, 1]; φ̂ interpolates it at u = 0, 0.05, …, 1 and continues for u > 1 with slope −2
    (= φ'(1)), so φ̂ stays concave: this is what makes the MILP exact."""
    u = np.linspace(0.0, 1.0, 21)
    phi = 2.0 * u * (1.0 - u) / (2.0 - u)
    b = np.diff(phi) / np.diff(u)
    a = phi[:-1] - b * u[:-1]
    return np.append(a, 2.0), np.append(b, -2.0)


WAIT_A, WAIT_B = _waiting_lines()


def service_value(load: np.ndarray, cap: np.ndarray) -> np.ndarray:
    """cap·φ̂(load / cap) = min_k (a_k·cap + b_k·load): served demand × charging-time share."""
    return (np.asarray(cap)[..., None] * WAIT_A + np.asarray(load)[..., None] * WAIT_B).min(axis=-1)


class StationPlacement(Instance):
    """Station placement: choose charging sites and one charger configuration per site.

    Candidates are (site, configuration) pairs; ``group`` = site, so at most one configuration
    per site (a hard rule). Configuration i has n_slow, n_medium, n_fast chargers, supply
    q_i = n_slow + 3·n_medium + 8·n_fast, capacity c_i = mu·q_i charging sessions per day and
    coverage radius r_i = r0 + r1·sqrt(q_i) (m; PCRL: the radius grows with capacity; r0, r1 are
    0.6 and 0.1 × r_ref = 1.4·sqrt(region area / (π·max_select)), so that max_select median
    stations could cover the region). Demand regions j (residential buildings of a
    block grouped on a grid) have EV demand w_j (sessions per day, ∝ residents), W = Σ_j w_j;
    d_ij is the road distance from region j to the site of i.

    Assignment. j can use i when d_ij ≤ r_i. Each covered region uses exactly one selected
    candidate: the one with the smallest generalized distance g_ij = d_ij·(1 + beta·π_i), where
    π_i = (Σ of w_j within r_i) / c_i is the queue pressure of the configuration (its catchment
    demand per unit of capacity, a fixed number per candidate); ties go to the lower row.
    L_i = Σ of w_j assigned to i (the load), u_i = L_i / c_i (the utilisation).

    Score, with P the selected candidates:
      A = Σ_{j covered} w_j / W                                  (service coverage)
      D = Σ_{j covered} w_j·(1 − d_{j,i(j)} / d_max) / W          (access distance; d_max = max r_i)
      T = Σ_{i∈P} c_i·φ̂(u_i) / W                                (service time)
          φ̂ = the piecewise-linear interpolation at u = 0, 0.05, …, 1 of φ(u) = u·τ/(τ + W_q(u)),
          W_q = uτ/(2(1−u)) (M/D/1 wait, PCRL), continued with slope −2 for u > 1; so c·φ̂(u)
          is the served load times the share of time spent charging rather than queueing:
          T ≤ A, T = A only without queues, and an overloaded site lowers T
      ρ = Σ_{i∈P} cost_i / budget                                (cost ratio)
      V = lambda_over·Σ_{i∈P} max(0, L_i − c_i)/W + lambda_unserved·(1 − A)
          + lambda_rule·(extra configurations at one site + plan slots over the step limit)
      S = 0.50·A + 0.25·D + 0.15·T − 0.20·ρ − V
    Hard rules Ψ: cost ≤ budget, |P| ≤ max_select, one configuration per site; the V rule
    terms are 0 for every valid plan. beta and lambda_* are in data.params (with r0, r1, mu
    for information; the score reads c_i and r_i per candidate); cost = site cost + 6 / 15 / 45 k€ per slow / medium / fast charger.

    Choices where the paper is vague, made so that S is a deterministic function of the plan
    and an exact MILP exists: the queue pressure in g is the candidate's own catchment
    pressure (fixed), not the load of the current plan, so the assignment does not depend on
    the order of choices; the only nonlinear terms are the overload max(0, ·) (convex, it
    lowers S) and φ̂ (concave, it raises S), both exact as linear constraints in a
    maximisation; φ̂ differs from the smooth φ by at most 0.0024 (near u = 0.975).
    """

    task = "station"
    components = ("coverage", "access", "service_time", "cost_ratio", "overload", "unserved",
                  "duplicate_sites", "count_excess", "penalty")

    # ------------------------------------------------------------------ arrays
    def _prepare(self) -> None:
        d = self.data
        p = {**DEFAULT_PARAMS, **d.get("params", {})}
        self.params = p
        self.w = np.asarray(d["demand"]["w"], dtype=float)
        self.m = len(self.w)
        self.W = float(self.w.sum()) if self.m and self.w.sum() > 0 else 1.0
        site = np.asarray(d["cand"]["site"], dtype=np.int64)
        self.cap = np.asarray(d["cand"]["cap"], dtype=float)
        radius = np.asarray(d["cand"]["radius"], dtype=float)
        dist = np.asarray(d["dist"], dtype=float).reshape(-1, self.m)[site]      # n × m
        cover = dist <= radius[:, None]
        self.cover = cover
        pressure = (cover @ self.w) / self.cap
        g = np.where(cover, dist * (1.0 + p["beta"] * pressure[:, None]), np.inf)
        n, self.BIG = self.n, self.n
        # rank[i, j]: position of i in j's preference order (BIG if i does not cover j); row n
        # is "no site", so best = n means uncovered and every array can be indexed by it
        self.rank = np.full((n + 1, self.m), n, dtype=np.int64)
        order = np.argsort(g, axis=0, kind="stable")
        np.put_along_axis(self.rank, order, np.arange(n)[:, None].repeat(self.m, axis=1), axis=0)
        self.rank[:n][~cover] = n
        d_max = float(radius.max()) if n else 1.0
        self.access = np.zeros((n + 1, self.m))
        self.access[:n] = np.where(cover, 1.0 - dist / d_max, 0.0)
        self.cols = np.arange(self.m)

    # ------------------------------------------------------------------ scoring
    def assign(self, mask: np.ndarray) -> np.ndarray:
        """best[j]: the candidate region j uses (n = uncovered)."""
        sel = np.flatnonzero(mask)
        return _best_among(self, sel, self.cols)

    def terms(self, best: np.ndarray) -> dict[str, float]:
        """Coverage, access, load-dependent service value and overload of an assignment."""
        load = np.bincount(best, weights=self.w, minlength=self.n + 1)[: self.n]
        cov = float(self.w[best < self.n].sum())
        return {"cov": cov, "acc": float((self.w * self.access[best, self.cols]).sum()),
                "svc": float(service_value(load, self.cap).sum()),
                "over": float(np.maximum(load - self.cap, 0.0).sum())}

    def combine(self, cov: float, acc: float, svc: float, over: float, cost: float,
                rule: float) -> tuple[float, dict[str, float]]:
        """S and its named components from the aggregates (shared by full and incremental)."""
        p, W = self.params, self.W
        A, D, T, O = cov / W, acc / W, svc / W, over / W
        U = 1.0 - A if self.m else 0.0
        rho = cost / self.budget if self.budget > 0 else 0.0
        V = p["lambda_over"] * O + p["lambda_unserved"] * U + p["lambda_rule"] * rule
        S = W_A * A + W_D * D + W_T * T - W_RHO * rho - V
        return S, {"coverage": A, "access": D, "service_time": T, "cost_ratio": rho,
                   "overload": O, "unserved": U, "penalty": V}

    def rule_excess(self, mask: np.ndarray) -> tuple[int, int]:
        """(extra configurations at already used sites, plan slots over the step limit)."""
        g = self.group[mask & (self.group >= 0)]
        dup = int(len(g) - len(np.unique(g)))
        return dup, max(0, int(mask.sum()) - self.max_select)

    def score_mask(self, mask: np.ndarray) -> tuple[float, dict[str, float], list[str]]:
        mask = np.asarray(mask, dtype=bool)
        t = self.terms(self.assign(mask))
        dup, over_k = self.rule_excess(mask)
        S, comp = self.combine(t["cov"], t["acc"], t["svc"], t["over"], float(self.cost[mask].sum()),
                               dup + over_k)
        comp["duplicate_sites"], comp["count_excess"] = float(dup), float(over_k)
        warnings = []
        if comp["overload"] > 0:
            warnings.append(f"overloaded stations: demand beyond capacity = {comp['overload']:.1%} of all demand")
        return float(S), comp, warnings

    def state(self, mask: np.ndarray | None = None) -> "StationState":
        return StationState(self, mask)

    def group_label(self, g: int) -> str:
        return f"site {self.data['site_ids'][g]}" if "site_ids" in self.data else f"site {g}"

    # ------------------------------------------------------------------ building
    @classmethod
    def build(cls, city, size: str = "small", seed: int = 0, budget: float | None = None,
              **params: Any) -> "StationPlacement":
        if size not in SIZE_PARAMS:
            raise InputError(f"unknown size '{size}' (choose {', '.join(SIZES)})")
        unknown = sorted(set(params) - set(PARAMS))
        if unknown:
            raise InputError(f"station: unknown parameter(s) {', '.join(unknown)} (known: {', '.join(PARAMS)})")
        n_sites, n_cfg, cell, max_select, bfac = SIZE_PARAMS[size]
        n_sites = int(params.get("n_sites", n_sites))
        n_cfg = min(int(params.get("n_configs", n_cfg)), len(CONFIGS))
        cell = float(params.get("cell_m", cell))
        max_select = int(params.get("max_select", max_select))
        rng = np.random.default_rng([int(seed), SIZES.index(size)])

        demand = _demand_regions(city, cell)
        if not len(demand):
            raise InputError(f"{city.name}: no residential demand to serve (no residential buildings)")
        sites = _sites(city, n_sites, demand, rng)
        if not len(sites):
            raise InputError(f"{city.name}: no place for a charging site (no parking/fuel/business POI or large block)")
        dist = _road_distances(city, sites[["x", "y"]].to_numpy(), demand[["x", "y"]].to_numpy())

        target = n_sites * n_cfg
        # a window short of places offers more configurations per site to stay near the target
        per_site = np.full(len(sites), n_cfg)
        if len(sites) < n_sites:
            per_site = np.minimum(len(CONFIGS), target // len(sites) + (np.arange(len(sites)) < target % len(sites)))
        cands = _configurations(sites, per_site, rng)
        p = dict(DEFAULT_PARAMS)
        q = cands["supply_q"].to_numpy(dtype=float)
        # EV demand is scaled so that capacity is scarce whatever the city's population
        w = demand["residents"].to_numpy() * rng.lognormal(0.0, 0.2, len(demand))
        if budget is None:
            factor = float(params.get("budget_factor", bfac)) * rng.uniform(0.9, 1.1)
            budget = round(factor * max_select * float(np.median(cands["cost"])), 1)
        w *= DEMAND_RATIO * MU * float(budget) * float(np.median(q / cands["cost"])) / w.sum()
        minx, miny, maxx, maxy = city.bounds
        r_ref = DETOUR * np.sqrt((maxx - minx) * (maxy - miny) / (np.pi * max_select))
        # recorded for the reader; the score reads each candidate's radius and capacity
        p.update(r0=round(RADIUS_SHAPE[0] * r_ref, 1), r1=round(RADIUS_SHAPE[1] * r_ref, 1), mu=MU)
        cap = MU * q
        radius = p["r0"] + p["r1"] * np.sqrt(q)
        cands["capacity"] = cap
        cands["radius_m"] = np.round(radius, 1)
        data = {
            "params": p,
            "site_ids": sites["site"].tolist(),
            "demand": {"w": np.round(w, 4).tolist(), "x": demand["x"].round(1).tolist(),
                       "y": demand["y"].round(1).tolist(), "residents": demand["residents"].round(1).tolist()},
            "cand": {"site": cands["group"].tolist(), "q": q.tolist(), "cap": cap.tolist(),
                     "radius": radius.tolist()},
            "dist": np.round(dist, 1).tolist(),
        }
        cands = cands[["id", "cost", "group", "site", "site_kind", "n_slow", "n_medium", "n_fast",
                       "supply_q", "capacity", "radius_m", "wkt"]]
        meta = {"region": city.name, "size": size, "seed": int(seed),
                "sites": len(sites), "sites_target": n_sites, "configs_per_site": int(per_site.max()),
                "candidates_target": target, "short_of_target": len(cands) < target,
                "demand_regions": len(demand), "demand_cell_m": cell}
        inst = cls(f"{city.name}-station-{size}-s{seed}", cands, float(budget), max_select, city.crs, meta, data)
        inst.candidates["demand_in_radius"] = np.round(inst.cover @ inst.w, 2)
        inst.meta["total_demand"] = round(inst.W, 2)
        return inst


# ---------------------------------------------------------------------- assignment helpers
def _best_among(inst: StationPlacement, rows: np.ndarray, cols: np.ndarray,
                exclude: np.ndarray | None = None) -> np.ndarray:
    """For regions ``cols``, the candidate among ``rows`` they use (n where none covers them);
    with ``exclude`` (one candidate per region), the best other than that one."""
    if not len(rows) or not len(cols):
        return np.full(len(cols), inst.n, dtype=np.int64)
    sub = inst.rank[np.ix_(rows, cols)]
    if exclude is not None:
        sub = np.where(rows[:, None] == exclude[None, :], inst.BIG, sub)
    k = sub.argmin(axis=0)
    return np.where(sub[k, np.arange(len(cols))] < inst.BIG, rows[k], inst.n)


class StationState(SearchState):
    """Keeps each region's best and second-best selected candidate, the loads and the score
    aggregates.

    A gain never searches the plan: adding i moves the regions that rank i above their best
    to i; removing o moves o's regions to their second best; a swap does both (a region that
    loses o takes the better of its second best and the new candidate). Only the loads of the
    candidates that gain or lose regions change, so T and the overload are updated there.
    Applying a move also refreshes the second bests it invalidates (a search over the plan
    for those regions only)."""

    inst: StationPlacement

    def __init__(self, inst: StationPlacement, mask: np.ndarray | None = None):
        super().__init__(inst, mask)
        self.best = inst.assign(self.mask)
        self.brank = inst.rank[self.best, inst.cols]
        self.second = _best_among(inst, self.selected(), inst.cols, exclude=self.best)
        self.srank = inst.rank[self.second, inst.cols]
        self.load = np.bincount(self.best, weights=inst.w, minlength=inst.n + 1)
        t = inst.terms(self.best)
        self.agg = np.array([t["cov"], t["acc"], t["svc"], t["over"]])
        self.rule = float(sum(inst.rule_excess(self.mask)))

    @property
    def score(self) -> float:
        return self.inst.combine(*self.agg, self.cost, self.rule)[0]

    # ---- the one delta computation behind every move
    def _reassign(self, out: int | None, inn: int | None) -> tuple[np.ndarray, np.ndarray]:
        """(regions whose candidate changes, their new candidates) if ``out`` leaves and/or
        ``inn`` joins the plan."""
        inst = self.inst
        if out is None:
            aff = np.flatnonzero(inst.rank[inn] < self.brank)
            return aff, np.full(len(aff), inn, dtype=np.int64)
        lost = self.best == out
        if inn is None:
            aff = np.flatnonzero(lost)
            return aff, self.second[aff]
        aff = np.flatnonzero(lost | (inst.rank[inn] < self.brank))
        sec = self.second[aff]
        keep_sec = lost[aff] & (self.srank[aff] <= inst.rank[inn, aff])
        return aff, np.where(keep_sec, sec, inn)

    def _delta(self, out: int | None, inn: int | None):
        """(regions, their new candidates, touched candidates, their load change, aggregate change).

        Few numpy calls on short arrays: at this size their overhead, not the arithmetic, is
        the cost, so old and new values go through each formula together."""
        inst, n = self.inst, self.inst.n
        aff, nb = self._reassign(out, inn)
        w = inst.w[aff]
        moved = np.concatenate([nb, self.best[aff]])        # new, then old candidate per region
        signed = np.concatenate([w, -w])
        dload = np.bincount(moved, weights=signed, minlength=n + 1)
        touched = np.flatnonzero(dload[:n])
        k = len(touched)
        old_l = self.load[touched]
        cap = np.concatenate([inst.cap[touched]] * 2)
        loads = np.concatenate([old_l, old_l + dload[touched]])
        svc = service_value(loads, cap)
        over = np.maximum(loads - cap, 0.0)
        d_agg = np.array([
            signed @ (moved < n),
            signed @ inst.access[moved, np.concatenate([aff, aff])],
            svc[k:].sum() - svc[:k].sum(),
            over[k:].sum() - over[:k].sum(),
        ])
        return aff, nb, touched, dload[touched], d_agg

    def _rule_delta(self, out: int | None, inn: int | None) -> int:
        """Change of (extra configurations at used sites + slots over the step limit)."""
        inst, used = self.inst, self._group_used
        g_out = inst.group[out] if out is not None else -1
        d = -1 if g_out >= 0 and used[g_out] >= 2 else 0
        if inn is not None and inst.group[inn] >= 0:
            g = inst.group[inn]
            d += int(used[g] - (g == g_out) >= 1)
        k = self.count - (out is not None) + (inn is not None)
        return d + max(0, k - inst.max_select) - max(0, self.count - inst.max_select)

    def _gain(self, out: int | None, inn: int | None) -> float:
        inst = self.inst
        d_agg = self._delta(out, inn)[4]
        dcost = (inst.cost[inn] if inn is not None else 0.0) - (inst.cost[out] if out is not None else 0.0)
        new = inst.combine(*(self.agg + d_agg), self.cost + dcost, self.rule + self._rule_delta(out, inn))[0]
        return new - self.score

    def _apply(self, out: int | None, inn: int | None) -> None:
        """Update loads and aggregates, then best / second best (before the mask changes)."""
        inst = self.inst
        aff, nb, touched, dl, d_agg = self._delta(out, inn)
        self.rule += self._rule_delta(out, inn)
        self.load[touched] += dl
        self.agg += d_agg
        if inn is not None:
            # regions that now prefer inn: the old best becomes the second best
            self.second[aff], self.srank[aff] = self.best[aff], self.brank[aff]
            self.best[aff], self.brank[aff] = inn, inst.rank[inn, aff]
            between = np.flatnonzero(inst.rank[inn] < self.srank)
            between = between[self.best[between] != inn]
            self.second[between], self.srank[between] = inn, inst.rank[inn, between]
        else:
            self.best[aff], self.brank[aff] = nb, inst.rank[nb, aff]
            stale = np.flatnonzero((self.second == out) | (self.second == self.best))
            stale = stale[self.second[stale] < inst.n]
            rows = self.selected()
            rows = rows[rows != out]
            sec = _best_among(inst, rows, stale, exclude=self.best[stale])
            self.second[stale], self.srank[stale] = sec, inst.rank[sec, stale]

    def gain_add(self, i: int) -> float:
        return self._gain(None, i)

    def gain_remove(self, i: int) -> float:
        return self._gain(i, None)

    def gain_swap(self, out: int, inn: int) -> float:
        return self._gain(out, inn)

    def add(self, i: int) -> None:
        self._apply(None, i)
        super().add(i)

    def remove(self, i: int) -> None:
        self._apply(i, None)
        super().remove(i)


# ---------------------------------------------------------------------- instance generation
def _demand_regions(city, cell: float) -> pd.DataFrame:
    """Residential buildings grouped by (block, grid cell): residents and their centroid."""
    b = city.buildings
    if b is None or not len(b):
        return pd.DataFrame(columns=["x", "y", "residents"])
    from ..city.model import M2_PER_RESIDENT

    res = (b["floor_area"].to_numpy(dtype=float) * b["residential_share"].to_numpy(dtype=float)) / M2_PER_RESIDENT
    c = b.geometry.centroid
    df = pd.DataFrame({"x": c.x.to_numpy(), "y": c.y.to_numpy(), "residents": res,
                       "face": b["face_id"].fillna(-1).to_numpy(dtype=np.int64)})
    df = df[np.isfinite(df["residents"]) & (df["residents"] > 0)]
    if not len(df):
        return pd.DataFrame(columns=["x", "y", "residents"])
    df["gx"] = np.floor(df["x"] / cell).astype(np.int64)
    df["gy"] = np.floor(df["y"] / cell).astype(np.int64)
    df["wx"], df["wy"] = df["x"] * df["residents"], df["y"] * df["residents"]
    g = df.groupby(["face", "gx", "gy"], sort=True)[["wx", "wy", "residents"]].sum().reset_index()
    return pd.DataFrame({"x": g["wx"] / g["residents"], "y": g["wy"] / g["residents"],
                         "residents": g["residents"]})


def _sites(city, n_sites: int, demand: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """Up to ``n_sites`` places spread over the city, sampled by kind priority and demand.

    Places: POIs of kind charging / fuel / parking / business, blocks that are large or have
    parking, and street junctions (kerbside, lowest priority). Weight = kind priority × (0.2 + residents within SITE_REACH_M / the
    largest such number). Sampling order: Efraimidis–Spirakis keys u^(1/weight) (seeded); a place
    is accepted if it is at least ``spacing`` from the accepted ones; the spacing starts at
    half the mean distance between n_sites evenly spread sites and halves until enough are
    found or it reaches MIN_SPACING_M."""
    pois = city.pois
    pois = pois[pois["category"].isin(list(SITE_KINDS))] if pois is not None and len(pois) else pois
    rows = []
    if pois is not None and len(pois):
        rows.append(pd.DataFrame({"kind": pois["category"].to_numpy(), "x": pois.geometry.x.to_numpy(),
                                  "y": pois.geometry.y.to_numpy(),
                                  "name": pois["name"].fillna("").astype(str).to_numpy()}))
    f = city.faces
    if f is not None and len(f):
        big = f[(f["area"] >= FACE_SITE_MIN_AREA) | (f["parking_area"] > 0)]
        rows.append(pd.DataFrame({"kind": "face", "x": big["cx"].to_numpy(dtype=float),
                                  "y": big["cy"].to_numpy(dtype=float),
                                  "name": [f"block {i}" for i in big.index]}))
    nodes = city.nodes
    if nodes is not None and len(nodes):
        junc = nodes[nodes["degree"] >= 3]
        rows.append(pd.DataFrame({"kind": "curb", "x": junc["x"].to_numpy(dtype=float),
                                  "y": junc["y"].to_numpy(dtype=float),
                                  "name": [f"junction {i}" for i in junc.index]}))
    places = pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(columns=["kind", "x", "y", "name"])
    if not len(places):
        return places.assign(site=[])
    xy = places[["x", "y"]].to_numpy(dtype=float)
    dxy = demand[["x", "y"]].to_numpy(dtype=float)
    near = (np.hypot(xy[:, None, 0] - dxy[None, :, 0], xy[:, None, 1] - dxy[None, :, 1]) <= SITE_REACH_M) \
        @ demand["residents"].to_numpy(dtype=float)
    prio = places["kind"].map(lambda k: SITE_KINDS[k][0]).to_numpy(dtype=float) * (0.2 + near / max(near.max(), 1e-9))
    order = np.argsort(-rng.random(len(places)) ** (1.0 / prio), kind="stable")
    minx, miny, maxx, maxy = city.bounds
    spacing = max(MIN_SPACING_M, 0.5 * np.sqrt((maxx - minx) * (maxy - miny) / max(n_sites, 1)))
    chosen: list[int] = []
    while True:
        for k in order:
            if len(chosen) >= n_sites:
                break
            if k in chosen:
                continue
            if not chosen or np.hypot(*(xy[chosen] - xy[k]).T).min() >= spacing:
                chosen.append(int(k))
        if len(chosen) >= n_sites or spacing <= MIN_SPACING_M:
            break
        spacing = max(MIN_SPACING_M, spacing / 2)
    s = places.iloc[chosen].reset_index(drop=True)
    s["site"] = [f"s{i:02d}" for i in range(len(s))]
    return s


def _configurations(sites: pd.DataFrame, per_site: np.ndarray, rng: np.random.Generator) -> pd.DataFrame:
    """per_site[g] configurations at site g, one from each of as many equal slices of CONFIGS (by q)."""
    rows = []
    for g, s in sites.iterrows():
        site_cost = SITE_KINDS[s["kind"]][1] * rng.uniform(0.8, 1.2)
        for c, b in enumerate(np.array_split(np.arange(len(CONFIGS)), int(per_site[g]))):
            n = np.array(CONFIGS[int(rng.choice(b))])
            rows.append({"id": f"{s['site']}c{c}", "cost": round(site_cost + float(n @ CHARGER_COST), 1),
                         "group": int(g), "site": s["site"], "site_kind": s["kind"],
                         "n_slow": int(n[0]), "n_medium": int(n[1]), "n_fast": int(n[2]),
                         "supply_q": float(n @ SUPPLY), "wkt": f"POINT ({s['x']:.2f} {s['y']:.2f})"})
    return pd.DataFrame(rows)


def _road_distances(city, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
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
