"""Baselines of the participation paper, all keeping the plan's program (type counts):

* Random: the plannable parcels' types shuffled (mean metrics over ``RANDOM_SEEDS`` seeds).
* Centralized: one planner, region-wide, no residents: LandAllocation (README Service and
  Ecology in its score) solved by ALNS over all plannable parcels.
* GSCA: greedy set-coverage — the greedy solver on the same instance (each step adds the
  (parcel, type) that newly serves the most).
* Decentralized: each parcel goes by residents' vote: (parcel, type) pairs ranked by how many
  residents within 500 m need that type, assigned greedily while the type's count lasts.
* DRL: the initial plan of the data files (reported as ``before``).
"""
from __future__ import annotations

import numpy as np

from plugin.solvers import solve
from plugin.tasks.land import TYPES

from .metrics import METRICS, plan_metrics
from .planner import SOLVER, SOLVER_SETTINGS, SOLVER_TIME, need_instance, plan_from_mask
from .population import Population
from .region import Region

RANDOM_SEEDS = 5
BASELINES = ("random", "centralized", "decentralized", "gsca")


def random_plan(region: Region, plan: np.ndarray, seed: int) -> np.ndarray:
    out = plan.copy()
    idx = np.flatnonzero(region.plannable)
    out[idx] = np.random.default_rng(seed).permutation(plan[idx])
    return out


def solver_plan(region: Region, plan: np.ndarray, method: str, seed: int) -> np.ndarray:
    """Region-wide re-allocation without residents (no demand points)."""
    inst = need_instance(region, plan, np.ones(len(plan), dtype=bool), {"xy": [], "type": [], "w": []}, 0.0)
    res = solve(inst, method, time_limit=SOLVER_TIME, seed=seed, settings=SOLVER_SETTINGS)
    return plan_from_mask(region, inst, res.mask, plan)


def decentralized_plan(region: Region, pop: Population, plan: np.ndarray) -> np.ndarray:
    idx = np.flatnonzero(region.plannable)
    votes = (pop.near[:, idx].T.astype(int) @ pop.needs.astype(int))   # (plannable, 8)
    left = {t: int((plan[idx] == t).sum()) for t in TYPES}
    out = plan.copy()
    done = np.zeros(len(idx), dtype=bool)
    for flat in np.argsort(-votes, axis=None, kind="stable"):
        j, t = divmod(int(flat), len(TYPES))
        if not done[j] and left[TYPES[t]] > 0:
            out[idx[j]], done[j] = TYPES[t], True
            left[TYPES[t]] -= 1
    return out


def baseline_metrics(region: Region, pop: Population, plan: np.ndarray, seed: int) -> dict[str, dict[str, float]]:
    rnd = [plan_metrics(region, pop, random_plan(region, plan, seed + k)) for k in range(RANDOM_SEEDS)]
    return {
        "random": {m: round(float(np.mean([r[m] for r in rnd])), 4) for m in METRICS},
        "centralized": plan_metrics(region, pop, solver_plan(region, plan, SOLVER, seed)),
        "decentralized": plan_metrics(region, pop, decentralized_plan(region, pop, plan)),
        "gsca": plan_metrics(region, pop, solver_plan(region, plan, "greedy", seed)),
    }
