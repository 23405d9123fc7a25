"""Land allocation in plan mode: vacancy is measured, never assumed (docs/modes.md).

A face (a street-enclosed block's buildable land) is offered only with evidence that it is free:

* with buildings: building coverage below ``LOW_COVERAGE`` ("vacant" / "low_coverage"), or a
  redevelopable land use (``REDEV_LANDUSE``), or large and underused; and never a face more than
  ``HALF_BUILT`` covered by buildings, whatever its land use;
* without buildings: only a redevelopable land use; ``--assume-vacant`` offers every face, saying so;
* never a face holding an existing facility (a school, clinic, hospital, shop, office or
  recreation place, or a park of at least GREEN_MIN_AREA): those count toward service as they
  are (``sampler``'s ``existing``) and are never redeveloped.

With neither buildings nor a land use on any face, and no ``--assume-vacant``, the build stops
with one line asking for one of them. The candidate's geometry is the developed area (the plot
a type uses, ``MAX_AREA``), not the whole face: ``developed_polygon``.
"""
from __future__ import annotations

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from ...errors import InputError
from ..site_rules import fits, site_width
from .constants import (
    EXISTING_COLUMNS,
    GREEN_MIN_AREA,
    HIGH_DEMAND,
    LOW_COVERAGE,
    REDEV_LANDUSE,
    TYPES,
    UNDERUSED_AREA,
    UNDERUSED_FAR,
)

HALF_BUILT = 0.5   # a face or parcel more than this covered by buildings is never offered as vacant
ASK = ("land use cannot be measured here: give a building layer (--buildings), a land-use field "
       "(--parcels with --landuse-field), or say every block may be built on with --assume-vacant")


def has_buildings(city) -> bool:
    return city.buildings is not None and len(city.buildings) > 0


def check_measurable(city, assume_vacant: bool) -> None:
    """One-line InputError when vacancy cannot be measured and was not assumed."""
    landuse = city.faces["landuse"].fillna("").astype(str) if "landuse" in city.faces else pd.Series(dtype=str)
    if not assume_vacant and not has_buildings(city) and not (landuse != "").any():
        raise InputError(f"{city.name}: {ASK}")


def plan_pool(faces: gpd.GeoDataFrame, built_known: bool, assume_vacant: bool
              ) -> tuple[pd.DataFrame, dict[int, str], dict[str, int]]:
    """(face_id, type) pairs on the faces of the module docstring, why each face is eligible,
    and how many faces each rule left out."""
    area = faces["area"].to_numpy(dtype=float)
    width = faces["width"].to_numpy(dtype=float) if "width" in faces else site_width(faces.geometry)
    fit = fits(TYPES, area, width)
    cov = faces["coverage"].to_numpy(dtype=float)
    far = faces["floor_area"].to_numpy(dtype=float) / np.maximum(area, 1e-9)
    redev = faces["landuse"].isin(REDEV_LANDUSE).to_numpy()
    facility = np.zeros(len(faces), dtype=bool)
    for cols in EXISTING_COLUMNS.values():
        facility |= (faces[list(cols)].sum(axis=1) > 0).to_numpy()
    facility |= (faces["green_area"] >= GREEN_MIN_AREA).to_numpy()
    half_built = cov > HALF_BUILT
    if built_known:
        reason = np.select([cov < 0.05, cov < LOW_COVERAGE, redev, (area >= UNDERUSED_AREA) & (far < UNDERUSED_FAR)],
                           ["vacant", "low_coverage", "landuse", "underused"], "")
        busy = (faces["demand"].to_numpy() >= HIGH_DEMAND) & (cov >= LOW_COVERAGE)
    else:
        reason = np.where(redev, "landuse", "assumed_vacant" if assume_vacant else "")
        busy = np.zeros(len(faces), dtype=bool)
    ok = fit.any(axis=1) & (reason != "") & ~half_built & ~facility & ~busy
    left = {"faces": len(faces), "no_type_fits": int((~fit.any(axis=1)).sum()),
            "half_built": int((fit.any(axis=1) & half_built).sum()),
            "existing_facility": int((fit.any(axis=1) & ~half_built & facility).sum()),
            "no_vacancy_evidence": int((fit.any(axis=1) & ~half_built & ~facility & ((reason == "") | busy)).sum())}
    rows = [(int(faces.index[i]), t) for i in np.flatnonzero(ok) for j, t in enumerate(TYPES) if fit[i, j]]
    return (pd.DataFrame(rows, columns=["face_id", "type"]),
            {int(faces.index[i]): str(reason[i]) for i in np.flatnonzero(ok)}, left)


def developed_polygon(face, dev_area: float):
    """The developed plot of ``dev_area`` m² inside ``face``: the face itself when the plot takes
    (nearly) all of it, else a strip across the face's long axis (from one end of its minimum
    rotated rectangle), its length found by bisection to within 1 % of the area: the block cut
    the way a plot is subdivided, the full block depth wide, fronting the streets on both sides."""
    a = float(shapely.area(face))
    if dev_area >= 0.99 * a:
        return face
    box = np.asarray(shapely.get_coordinates(shapely.minimum_rotated_rectangle(face))[:4])
    e1, e2 = box[1] - box[0], box[3] - box[0]
    long, short = (e1, e2) if np.hypot(*e1) >= np.hypot(*e2) else (e2, e1)

    def strip(t: float):
        corner = box[0]
        return shapely.intersection(face, shapely.Polygon([corner, corner + t * long, corner + t * long + short,
                                                           corner + short]))
    lo, hi, best = 0.0, 1.0, face
    for _ in range(40):
        t = (lo + hi) / 2
        g = strip(t)
        ga = float(shapely.area(g))
        if ga < dev_area:
            lo = t
        else:
            hi, best = t, g
        if abs(ga - dev_area) <= 0.01 * dev_area:
            best = g
            break
    return best
