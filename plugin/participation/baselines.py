"""Baselines of the participation paper, all keeping the plan's program (type counts):

* Random: the plannable parcels' types shuffled (mean metrics over ``RANDOM_SEEDS`` seeds).
* Centralized: one planner, region-wide, no residents: LandAllocation (README Service and
  Ecology in its score) solved exactly (the MILP) over all plannable parcels.
* GSCA: greedy set-coverage — the greedy solver on the same instance (each step adds the
  (parcel, type) that newly serves the most).
* Decentralized: each parcel goes by residents' vote: (parcel, type) pairs ranked by how many
  residents within 500 m need that type, assigned greedily while the type's count lasts.
* DRL: the initial plan of the data files (reported as ``before``).
"""
from __future__ import annotations

import numpy as np

from ..solvers import solve
from ..tasks.land import TYPES

from .metrics import METRICS, plan_metrics
from .planner import MILP_TIME, NO_DEMAND, need_instance, need_milp, plan_from_mask, plan_mask
from .population import Population
from .region import Region

RANDOM_SEEDS = 5
BASELINES = ("random", "centralized", "decentralized", "gsca")


def random_plan(region: Region, plan: np.ndarray, seed: int) -> np.ndarray:
    out = plan.copy()
    idx = np.flatnonzero(region.plannable)
    out[idx] = np.random.default_rng(seed).permutation(plan[idx])
    return out


def region_instance(region: Region, plan: np.ndarray):
    """Region-wide re-allocation without residents (no demand points)."""
    return need_instance(region, plan, np.ones(len(plan), dtype=bool), NO_DEMAND, 0.0)


def centralized_plan(region: Region, plan: np.ndarray) -> np.ndarray:
    inst = region_instance(region, plan)
    return plan_from_mask(region, inst, need_milp(inst, warm_start=plan_mask(region, inst, plan)).mask, plan)


def gsca_plan(region: Region, plan: np.ndarray, seed: int) -> np.ndarray:
    inst = region_instance(region, plan)
    return plan_from_mask(region, inst, solve(inst, "greedy", time_limit=MILP_TIME, seed=seed).mask, plan)


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
        "centralized": plan_metrics(region, pop, centralized_plan(region, plan)),
        "decentralized": plan_metrics(region, pop, decentralized_plan(region, pop, plan)),
        "gsca": plan_metrics(region, pop, gsca_plan(region, plan, seed)),
    }
