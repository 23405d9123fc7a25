"""The planner's own candidate layers: station sites (points, ``--sites``) and proposed road
links (lines, ``--links``), read from ``PATH[:LAYER]`` and built into an instance on a City.
(Land parcels have their own reader: ``plugin.parcels``.)"""
from __future__ import annotations

import geopandas as gpd

from ..errors import InputError

from . import task_class
from .base import Instance

#: task -> (flag, geometry kind, the task's builder from a frame)
OWN_LAYERS = {"station": ("--sites", "point", "from_sites"), "road": ("--links", "line", "from_links")}


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
    if task not in OWN_LAYERS:
        raise InputError(f"own candidate layers exist for {', '.join(OWN_LAYERS)} (land: --parcels), not {task}")
    frame = to_city_crs(frame.explode(index_parts=False).reset_index(drop=True), city.crs, label)
    _check_near_city(frame, city, label, warnings if warnings is not None else city.warnings)
    return getattr(task_class(task), OWN_LAYERS[task][2])(city, frame, seed=seed, budget=budget, label=label)


def instance_from_layer(task: str, city, spec_text: str, seed: int, budget: float | None,
                        warnings: list[str]) -> Instance:
    """Read ``spec_text`` (``PATH[:LAYER]``) with the checks of the own city layers, then build."""
    from ..city.sources import parse_layer_spec, read_layer

    if task not in OWN_LAYERS:
        raise InputError(f"own candidate layers exist for {', '.join(OWN_LAYERS)} (land: --parcels), not {task}")
    flag, geometry, _ = OWN_LAYERS[task]
    spec = parse_layer_spec(spec_text, flag)
    return instance_from_frame(task, city, read_layer(spec, geometry, warnings=warnings), seed, budget,
                               f"{flag} {spec}", warnings)
