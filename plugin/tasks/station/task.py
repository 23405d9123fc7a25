"""Station placement (SP): EV charging sites and their charger configurations.

Paper (docs/reference.md#station-placement): a candidate is a site plus a charger configuration; supply
q = n_slow + 3·n_medium + 8·n_fast; demand is assigned to selected sites by a generalized
distance mixing physical distance and queue pressure; S = 0.50·A + 0.25·D + 0.15·T − 0.20·ρ − V.
Origin: PCRL (von Wahl et al., KDD 2022): coverage radius growing with capacity, M/D/1
waiting time ρτ/(2(1−ρ)), chargers of 7 / 22 / 50 kW. The exact formula is the docstring of
``StationPlacement``; it is built so that an exact MILP exists (plugin/solvers/milp/station.py).

Building an instance lives next to this module, one way per module: ``sampler`` (the paper's
sized samples of a City), ``area`` (every place of the area), ``layers`` (the planner's own
sites); ``assemble`` is their shared tail.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import InputError
from ..base import BUILD_SIZES, Instance, check_mode
from .area import whole_area
from .constants import DEFAULT_PARAMS, SIZE_PARAMS, W_A, W_D, W_RHO, W_T
from .layers import from_sites
from .sampler import sample_city
from .search import StationState, _best_among
from .service import service_value


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
    for information; the score reads c_i and r_i per candidate); cost = site cost + 6 / 15 / 45 k€ per slow / medium
    / fast charger.

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

    def state(self, mask: np.ndarray | None = None) -> StationState:
        return StationState(self, mask)

    def group_label(self, g: int) -> str:
        return f"site {self.data['site_ids'][g]}" if "site_ids" in self.data else f"site {g}"

    # ------------------------------------------------------------------ building
    @classmethod
    def build(cls, city, size: str = "small", seed: int = 0, budget: float | None = None,
              mode: str = "benchmark", **params: Any) -> StationPlacement:
        """From a City: sampled sites and configurations (``sampler.sample_city``), or with
        ``size="all"`` every place of the area (``area.whole_area``); demand regions from the
        City's residents. Plan mode puts kerbside sites on the curb, off junctions."""
        check_mode(mode)
        if size == "all":
            return whole_area(cls, city, seed, budget, mode=mode, **params)
        if size not in SIZE_PARAMS:
            raise InputError(f"unknown size '{size}' (choose {', '.join(BUILD_SIZES)})")
        return sample_city(cls, city, size, seed, budget, mode=mode, **params)

    from_sites = classmethod(from_sites)
