"""The four participation metrics of one plan (docs/reference.md#participatory-urban-planning, #service-and-ecology),
and Satisfaction / Inclusion split by who spoke."""
from __future__ import annotations

import numpy as np

from .population import Population
from .region import Region

METRICS = ("service", "ecology", "satisfaction", "inclusion")


def _sat_inc(sat: np.ndarray, vulnerable: np.ndarray) -> dict[str, float]:
    return {"satisfaction": round(float(sat.mean()), 4) if len(sat) else 0.0,
            "inclusion": round(float(sat[vulnerable].mean()), 4) if vulnerable.any() else 0.0,
            "residents": int(len(sat))}


def plan_metrics(region: Region, pop: Population, plan: np.ndarray) -> dict[str, float]:
    """Service and Ecology (docs/reference.md#service-and-ecology, per residential parcel), Satisfaction and Inclusion
    (per resident against every resident's fixed needs; Inclusion over vulnerable residents)."""
    sat_inc = _sat_inc(pop.satisfaction(plan), pop.vulnerable)
    return {"service": round(region.service(plan), 4), "ecology": round(region.ecology(plan), 4),
            "satisfaction": sat_inc["satisfaction"], "inclusion": sat_inc["inclusion"]}


def voice_metrics(pop: Population, plan: np.ndarray, spoke: np.ndarray) -> dict[str, dict[str, float]]:
    """Satisfaction and Inclusion of the residents who spoke and of those who only listened
    or were never in the circle (``spoke``: resident indices)."""
    sat, vul = pop.satisfaction(plan), pop.vulnerable
    who = np.zeros(pop.n, dtype=bool)
    who[np.asarray(spoke, dtype=int)] = True
    return {"speakers": _sat_inc(sat[who], vul[who]), "non_speakers": _sat_inc(sat[~who], vul[~who])}
