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


def instance_from_frame(task: str, city, frame: gpd.GeoDataFrame, seed: int, budget: float | None,
                        label: str) -> Instance:
    """The ``task`` instance whose candidates are the features of ``frame`` (in any CRS)."""
    builder = own_layer(task).builder
    frame = to_city_crs(frame.explode(index_parts=False).reset_index(drop=True), city.crs, label)
    return getattr(task_class(task), builder)(city, frame, seed=seed, budget=budget, label=label)
