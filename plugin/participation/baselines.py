"""The paper's baselines, as the DRL urban-planning code's rule policies define them.

That code plans sequentially: the plannable land is vacant, the types are placed in its fixed
order (hospital_l, school, hospital_s, recreation, green_l, office, business, green_s), each
as many times as its quota asks, and a policy picks where each one goes among the vacant
places large enough for the type (its ``min_area``; here also the site rule's width); land
left over becomes small green.
The policies:

* **Random**: a uniformly random vacant place (mean over ``RANDOM_SEEDS`` seeds).
* **Centralized** (``RuleCentralizedPolicy``): the vacant place nearest the region's centre.
* **Decentralized** (``RuleDecentralizedPolicy``): the vacant place farthest, on average,
  from the parcels already of the same type; a random one while the type has none.
* **GSCA** (``GSCAPolicy``, greedy set coverage): the vacant place that newly serves the most
  residential parcels within 500 m — those with no facility of the type yet (hospital_l and
  hospital_s count as one kind); all residential parcels once every one is served.
* **DRL**: the initial plan of the data files (reported as ``before``).

Deviations, stated: the DRL code's places are edges between a vacant block and a road
junction and its centre is that of its normalised grid; here the places are the plannable
parcels (centroids) and the centre is that of the parcels' bounding box. Every baseline is
held to the same Program as our planner (quotas; site rule = minimum area), so all methods
produce the same number of parcels of each type. A type that finds no vacant parcel large
enough takes the largest vacant one (counted in ``relaxed``).
"""
from __future__ import annotations

import numpy as np

from ..tasks.land import SERVICE_KIND, SERVICE_RADIUS, within
from .metrics import METRICS, plan_metrics
from .population import Population
from .program import PLANNED, Program
from .region import Region

RANDOM_SEEDS = 5
BASELINES = ("random", "centralized", "decentralized", "gsca")
PLAN_ORDER = ("hospital_l", "school", "hospital_s", "recreation", "green_l", "office", "business", "green_s")


def _same_kind(plan: np.ndarray, t: str) -> np.ndarray:
    kind = SERVICE_KIND.get(t)
    return np.array([p == t or (kind == "medical" and SERVICE_KIND.get(p) == "medical") for p in plan])


def sequential_plan(region: Region, program: Program, policy: str, seed: int = 0) -> tuple[np.ndarray, int]:
    """(plan, relaxed placements) of one rule policy (module docstring)."""
    rng = np.random.default_rng(seed)
    plan = region.plan0.copy()
    vacant = region.plannable.copy()
    plan[vacant] = "feasible"
    fits = program.fits(region)
    centre = (region.xy.min(axis=0) + region.xy.max(axis=0)) / 2
    homes = np.flatnonzero(region.residential)
    reach = within(region.xy[homes], region.xy, SERVICE_RADIUS)          # (homes, parcels)
    relaxed = 0
    for t in PLAN_ORDER:
        for _ in range(program.quota.get(t, 0)):
            cand = np.flatnonzero(vacant & fits[:, PLANNED.index(t)])
            if not len(cand):
                cand = np.flatnonzero(vacant)
                if not len(cand):
                    break
                cand = cand[[int(np.argmax(region.area[cand]))]]
                relaxed += 1
            j = cand[_pick(policy, t, cand, plan, region, centre, homes, reach, rng)]
            plan[j], vacant[j] = t, False
    plan[vacant] = "green_s"   # the DRL code's fill_leftover
    return plan, relaxed


def _pick(policy: str, t: str, cand: np.ndarray, plan: np.ndarray, region: Region, centre: np.ndarray,
          homes: np.ndarray, reach: np.ndarray, rng: np.random.Generator) -> int:
    if policy == "random":
        return int(rng.integers(len(cand)))
    if policy == "centralized":
        return int(np.argmin(((region.xy[cand] - centre) ** 2).sum(axis=1)))
    same = np.flatnonzero(plan == t)
    if policy == "decentralized":
        if not len(same):
            return int(rng.integers(len(cand)))
        d = np.sqrt(((region.xy[cand][:, None] - region.xy[same][None]) ** 2).sum(axis=2)).mean(axis=1)
        return int(np.argmax(d))
    if policy == "gsca":
        served = reach[:, _same_kind(plan, t)].any(axis=1)
        target = ~served if (~served).any() else np.ones(len(homes), dtype=bool)
        return int(np.argmax(reach[target][:, cand].sum(axis=0)))
    raise ValueError(f"unknown baseline policy {policy}")


def baseline_metrics(region: Region, pop: Population, program: Program, seed: int) -> dict[str, dict[str, float]]:
    """Metrics of the four baselines under ``program`` (Random: mean over RANDOM_SEEDS)."""
    rnd = [plan_metrics(region, pop, sequential_plan(region, program, "random", seed + k)[0])
           for k in range(RANDOM_SEEDS)]
    out = {"random": {m: round(float(np.mean([r[m] for r in rnd])), 4) for m in METRICS}}
    for policy in BASELINES[1:]:
        plan, relaxed = sequential_plan(region, program, policy, seed)
        out[policy] = plan_metrics(region, pop, plan) | {"relaxed": relaxed}
    return out
