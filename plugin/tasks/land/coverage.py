"""Service and ecology coverage as plain functions, reusable outside the task (participation)."""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

import numpy as np
from shapely import unary_union

from .constants import ECOLOGY_RADIUS, GREEN_MIN_AREA, KINDS, SERVICE_KIND, SERVICE_RADIUS


def within(a_xy: np.ndarray, b_xy: np.ndarray, radius: float) -> np.ndarray:
    """(len a, len b) bool: centroid-to-centroid Euclidean distance ≤ radius."""
    a = np.asarray(a_xy, dtype=float).reshape(-1, 2)
    b = np.asarray(b_xy, dtype=float).reshape(-1, 2)
    d2 = ((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=2)
    return d2 <= radius * radius


def facilities_by_kind(types: Iterable[str], xy: np.ndarray) -> dict[str, np.ndarray]:
    """Facility centroids grouped by service kind (types without a kind are dropped)."""
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    kinds = np.array([SERVICE_KIND.get(t, "") for t in types])
    return {k: xy[kinds == k] for k in KINDS}


def service_coverage(unit_xy: np.ndarray, facilities: Mapping[str, np.ndarray],
                     radius: float = SERVICE_RADIUS) -> np.ndarray:
    """(units, 5) bool: unit served for kind k when a facility of kind k is within ``radius``."""
    u = np.asarray(unit_xy, dtype=float).reshape(-1, 2)
    cols = [within(u, facilities.get(k, np.empty((0, 2))), radius).any(axis=1) for k in KINDS]
    return np.stack(cols, axis=1) if len(u) else np.zeros((0, len(KINDS)), dtype=bool)


def service_score(unit_xy: np.ndarray, facilities: Mapping[str, np.ndarray],
                  weights: np.ndarray | None = None, radius: float = SERVICE_RADIUS) -> float:
    """Service (docs/reference.md#service-and-ecology): (weighted) mean over residential units of served kinds / 5."""
    cov = service_coverage(unit_xy, facilities, radius)
    w = np.ones(len(cov)) if weights is None else np.asarray(weights, dtype=float)
    return float(w @ cov.mean(axis=1) / w.sum()) if w.sum() > 0 else 0.0


def ecology_served(unit_xy: np.ndarray, green_xy: np.ndarray, green_area: np.ndarray,
                   radius: float = ECOLOGY_RADIUS, min_area: float = GREEN_MIN_AREA) -> np.ndarray:
    """(units,) bool, centroid approximation of the Ecology rule (docs/reference.md): a unit counts as
    green-served (all of its area) when the centroid of a green of area ≥ ``min_area`` lies
    within ``radius`` of its centroid."""
    big = np.asarray(green_area, dtype=float) >= min_area
    return within(unit_xy, np.asarray(green_xy, dtype=float).reshape(-1, 2)[big], radius).any(axis=1)


def ecology_score(unit_xy: np.ndarray, unit_area: np.ndarray, green_xy: np.ndarray, green_area: np.ndarray,
                  radius: float = ECOLOGY_RADIUS, min_area: float = GREEN_MIN_AREA) -> float:
    """Area share of residential units that are green-served (centroid approximation)."""
    a = np.asarray(unit_area, dtype=float)
    return float(a @ ecology_served(unit_xy, green_xy, green_area, radius, min_area) / a.sum()) if a.sum() > 0 else 0.0


def ecology_polygons(residential: Sequence[Any], green: Sequence[Any], radius: float = ECOLOGY_RADIUS,
                     min_area: float = GREEN_MIN_AREA) -> float:
    """Ecology (docs/reference.md#service-and-ecology) exactly: area of (union of ``radius`` buffers around green polygons of
    area ≥ ``min_area``) ∩ (union of residential polygons), divided by the residential area."""
    res = unary_union(list(residential))
    if res.is_empty or res.area == 0:
        return 0.0
    buf = unary_union([g.buffer(radius) for g in green if g.area >= min_area])
    return float(res.intersection(buf).area / res.area) if not buf.is_empty else 0.0
