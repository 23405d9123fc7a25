"""Site rules: which land-use type a site can hold, by its area and its width.

Width = 2 × the radius of the largest circle inside the site (``shapely.maximum_inscribed_circle``):
a 10 m strip along a road is 10 m wide however long it is. A site fits a type when
area ≥ ``SITE_RULES[t].min_area`` and width ≥ ``SITE_RULES[t].min_width`` (the table with the
reasoning: docs/city_model.md#spatial-units-and-sites).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

import numpy as np

from ..city.units import inscribed_width


class SiteRule(NamedTuple):
    min_area: float    # m²
    min_width: float   # m
    why: str


SITE_RULES: dict[str, SiteRule] = {
    "business": SiteRule(500.0, 15.0, "a shop or small commercial building with its access (≈ 15 × 35 m)"),
    "office": SiteRule(800.0, 20.0, "an office building ≥ 12 m deep with a 4 m setback each side"),
    "green_l": SiteRule(5000.0, 40.0, "a park that counts for ecology: room for paths and tree groups"),
    "green_s": SiteRule(300.0, 10.0, "a pocket park or playground (≈ 10 × 30 m)"),
    "school": SiteRule(2500.0, 40.0, "a school building plus a schoolyard of ≈ 40 × 40 m"),
    "hospital_l": SiteRule(5000.0, 50.0, "a hospital block (wards around courtyards) with ambulance access"),
    "hospital_s": SiteRule(1000.0, 25.0, "a health centre: a 15 m deep building with parking and drop-off"),
    "recreation": SiteRule(500.0, 20.0, "a sports court (≈ 15 × 28 m basketball) or a youth centre"),
}


def site_width(geoms: Iterable) -> np.ndarray:
    """Width (m) of each site polygon: 2 × radius of its maximum inscribed circle."""
    return inscribed_width(np.asarray(list(geoms), dtype=object))


def fits(types: Iterable[str], area: np.ndarray, width: np.ndarray) -> np.ndarray:
    """(sites, types) bool: site i meets the area and width rule of type j."""
    a = np.asarray(area, dtype=float).reshape(-1, 1)
    w = np.asarray(width, dtype=float).reshape(-1, 1)
    rules = [SITE_RULES[t] for t in types]
    return (a >= np.array([r.min_area for r in rules])) & (w >= np.array([r.min_width for r in rules]))


def violations(site_type: str, area: float, width: float) -> list[tuple[str, float, float]]:
    """(reason, value, limit) for each rule of ``site_type`` the site breaks."""
    r = SITE_RULES[site_type]
    out = []
    if area < r.min_area:
        out.append(("too_small", round(float(area), 1), r.min_area))
    if width < r.min_width:
        out.append(("too_narrow", round(float(width), 1), r.min_width))
    return out
