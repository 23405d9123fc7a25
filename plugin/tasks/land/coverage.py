"""Service and ecology coverage as plain functions, reusable outside the task (participation)."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from shapely import unary_union

from .constants import ECOLOGY_RADIUS, GREEN_MIN_AREA, KINDS, SERVICE_KIND, SERVICE_RADIUS

#: float64 distances computed at once: rows of a per block × len(b) stay under this many cells
#: (16 MB), so memory is the answer's own size, never a (len a, len b, 2) float array
BLOCK_CELLS = 2_000_000


def _blocks(a: np.ndarray, b: np.ndarray, radius: float):
    """(start, stop, (rows, len b) bool) per block of ``a``: centroid distance ≤ radius, computed
    exactly as d² ≤ r² with dx² + dy² (no 3-D intermediate). Non-finite points match nothing."""
    r2 = float(radius) * float(radius)
    step = max(1, BLOCK_CELLS // max(len(b), 1))
    bx, by = b[:, 0], b[:, 1]
    with np.errstate(over="ignore", invalid="ignore"):   # 1e300 squares to inf: simply far away
        for start in range(0, len(a), step):
            blk = a[start:start + step]
            d2 = (blk[:, :1] - bx[None, :]) ** 2
            d2 += (blk[:, 1:2] - by[None, :]) ** 2
            yield start, start + len(blk), d2 <= r2


def _points(xy: np.ndarray) -> np.ndarray:
    return np.asarray(xy, dtype=float).reshape(-1, 2)


def within(a_xy: np.ndarray, b_xy: np.ndarray, radius: float) -> np.ndarray:
    """(len a, len b) bool: centroid-to-centroid Euclidean distance ≤ radius (built in blocks:
    peak memory is the answer plus one block; use ``within_any`` / ``within_count`` when only
    a per-row reduction is needed)."""
    a, b = _points(a_xy), _points(b_xy)
    out = np.zeros((len(a), len(b)), dtype=bool)
    if len(a) and len(b):
        for start, stop, hit in _blocks(a, b, radius):
            out[start:stop] = hit
    return out


def within_any(a_xy: np.ndarray, b_xy: np.ndarray, radius: float) -> np.ndarray:
    """(len a,) bool: some point of b within ``radius`` — ``within(…).any(axis=1)`` without the matrix."""
    a, b = _points(a_xy), _points(b_xy)
    out = np.zeros(len(a), dtype=bool)
    if len(a) and len(b):
        for start, stop, hit in _blocks(a, b, radius):
            out[start:stop] = hit.any(axis=1)
    return out


def within_count(a_xy: np.ndarray, b_xy: np.ndarray, radius: float) -> np.ndarray:
    """(len a,) int: points of b within ``radius`` — ``within(…).sum(axis=1)`` without the matrix."""
    a, b = _points(a_xy), _points(b_xy)
    out = np.zeros(len(a), dtype=np.int64)
    if len(a) and len(b):
        for start, stop, hit in _blocks(a, b, radius):
            out[start:stop] = hit.sum(axis=1)
    return out


#: coordinates at most this large go into the k-d tree (their squares stay finite); points
#: farther out (1e300 in hostile input) are compared one block at a time like ``within``
TREE_MAX = 1e150


def within_sparse(a_xy: np.ndarray, b_xy: np.ndarray, radius: float):
    """``within`` as a scipy CSR bool matrix (sorted column indices, only True stored): memory
    grows with the pairs in range, not len a × len b (residents × parcels: 200,000 × 20,000
    would be 4 GB dense). A k-d tree over b proposes the pairs within a hair more than
    ``radius`` (one block of a at a time); each is then kept by the same d² ≤ r² arithmetic as
    ``within``, so the relation is identical."""
    from scipy.sparse import csr_matrix
    from scipy.spatial import cKDTree

    a, b = _points(a_xy), _points(b_xy)
    if not len(a) or not len(b):
        return csr_matrix((len(a), len(b)), dtype=bool)
    with np.errstate(invalid="ignore"):
        in_a, in_b = (np.abs(a) <= TREE_MAX).all(axis=1), (np.abs(b) <= TREE_MAX).all(axis=1)
    ai_all, bi = np.flatnonzero(in_a), np.flatnonzero(in_b)
    rows, cols = [], []
    r2 = float(radius) * float(radius)
    if len(ai_all) and len(bi):
        tree = cKDTree(b[bi])
        reach = float(radius) * (1 + 1e-9) + 1e-9
        step = max(1, BLOCK_CELLS // 64)
        for start in range(0, len(ai_all), step):
            ai = ai_all[start:start + step]
            near = tree.query_ball_point(a[ai], reach)
            n = np.fromiter(map(len, near), dtype=np.int64, count=len(near))
            r = np.repeat(ai, n)
            c = bi[np.fromiter((j for js in near for j in js), dtype=np.int64, count=int(n.sum()))]
            d2 = (a[r, 0] - b[c, 0]) ** 2
            d2 += (a[r, 1] - b[c, 1]) ** 2
            hit = d2 <= r2
            rows.append(r[hit])
            cols.append(c[hit])
    # the rare points outside the tree: against everything, as ``within`` does
    for ar, bc in ((np.flatnonzero(~in_a), np.arange(len(b))), (ai_all, np.flatnonzero(~in_b))):
        if len(ar) and len(bc):
            for start, _stop, hit in _blocks(a[ar], b[bc], radius):
                r, c = np.nonzero(hit)
                rows.append(ar[start + r])
                cols.append(bc[c])
    r = np.concatenate(rows).astype(np.int32) if rows else np.empty(0, dtype=np.int32)
    c = np.concatenate(cols).astype(np.int32) if cols else np.empty(0, dtype=np.int32)
    out = csr_matrix((np.ones(len(r), dtype=bool), (r, c)), shape=(len(a), len(b)))
    out.sum_duplicates()
    return out


def facilities_by_kind(types: Iterable[str], xy: np.ndarray) -> dict[str, np.ndarray]:
    """Facility centroids grouped by service kind (types without a kind are dropped)."""
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    kinds = np.array([SERVICE_KIND.get(t, "") for t in types])
    return {k: xy[kinds == k] for k in KINDS}


def service_coverage(unit_xy: np.ndarray, facilities: Mapping[str, np.ndarray],
                     radius: float = SERVICE_RADIUS) -> np.ndarray:
    """(units, 5) bool: unit served for kind k when a facility of kind k is within ``radius``."""
    u = np.asarray(unit_xy, dtype=float).reshape(-1, 2)
    cols = [within_any(u, facilities.get(k, np.empty((0, 2))), radius) for k in KINDS]
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
    return within_any(unit_xy, np.asarray(green_xy, dtype=float).reshape(-1, 2)[big], radius)


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
