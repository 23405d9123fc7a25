"""The four participation metrics of one plan (REFERENCE.md §2, data/participation/README.md)."""
from __future__ import annotations

import numpy as np

from .population import Population
from .region import Region

METRICS = ("service", "ecology", "satisfaction", "inclusion")


def plan_metrics(region: Region, pop: Population, plan: np.ndarray) -> dict[str, float]:
    """Service and Ecology (README rules, per residential parcel), Satisfaction and Inclusion
    (per resident against the fixed needs; Inclusion over vulnerable residents only)."""
    sat = pop.satisfaction(plan)
    vul = pop.vulnerable
    return {"service": round(region.service(plan), 4), "ecology": round(region.ecology(plan), 4),
            "satisfaction": round(float(sat.mean()), 4),
            "inclusion": round(float(sat[vul].mean()), 4) if vul.any() else 0.0}
