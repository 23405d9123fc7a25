"""The planner's own candidate layers: station sites (points, ``--sites``) and proposed road
links (lines, ``--links``), as each task's spec names them, built into an instance on a City
(the ``instance`` command reads the layer with its other inputs; land parcels have their own
reader: ``plugin.parcels``)."""
from __future__ import annotations

import geopandas as gpd

from ..errors import InputError
from . import task_class
from .base import Instance
from .registry import REGISTRY, spec
from .spec import OwnLayer


def own_layer(task: str) -> OwnLayer:
    """The spec's own candidate layer of ``task``; one-line error for a task without one."""
    layer = spec(task).own_layer
    if layer is None:
        have = ", ".join(t for t in REGISTRY if spec(t).own_layer is not None)
        raise InputError(f"own candidate layers exist for {have} (land: --parcels), not {task}")
    return layer


def to_city_crs(frame: gpd.GeoDataFrame, city_crs: str, label: str) -> gpd.GeoDataFrame:
    """``frame`` in the City's CRS (a layer without CRS is taken to be in it already)."""
    if frame.crs is None:
        return frame.set_crs(city_crs, allow_override=True)
    try:
        return frame.to_crs(city_crs)
    except Exception as e:  # noqa: BLE001 - pyproj's errors vary; the user needs one line
        raise InputError(f"{label}: cannot reproject to {city_crs}: {str(e).splitlines()[0] if str(e) else e}") from None


#: metres outside the city's extent beyond which an own candidate is surely misplaced (a wrong
#: CRS, a layer of another city): sites 10,000 km away were accepted without a word
FAR_M = 5_000.0


def _check_near_city(frame: gpd.GeoDataFrame, city, label: str, warnings: list[str]) -> None:
    """One line when no feature lies within ``FAR_M`` of the city's extent; a warning naming how
    many do not otherwise."""
    import numpy as np
    import shapely

    x0, y0, x1, y1 = city.bounds
    box = shapely.box(x0 - FAR_M, y0 - FAR_M, x1 + FAR_M, y1 + FAR_M)
    near = np.asarray(shapely.intersects(frame.geometry.values, box), dtype=bool)
    if len(near) and not near.any():
        raise InputError(f"{label}: no feature lies within {FAR_M / 1000:g} km of the city's area "
                         "(check the layer's CRS, or the layer belongs to another place)")
    if (~near).any():
        warnings.append(f"{label}: {int((~near).sum())} feature(s) more than {FAR_M / 1000:g} km outside "
                             "the city's area")


def instance_from_frame(task: str, city, frame: gpd.GeoDataFrame, seed: int, budget: float | None,
                        label: str, warnings: list[str] | None = None) -> Instance:
    """The ``task`` instance whose candidates are the features of ``frame`` (in any CRS)."""
    builder = own_layer(task).builder
    frame = to_city_crs(frame.explode(index_parts=False).reset_index(drop=True), city.crs, label)
    _check_near_city(frame, city, label, warnings if warnings is not None else city.warnings)
    return getattr(task_class(task), builder)(city, frame, seed=seed, budget=budget, label=label)
