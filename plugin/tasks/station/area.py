"""Station placement over the whole area: every place a site can go (the sampler's places —
charging / fuel / parking / business POIs, large or parking blocks, junctions — inside the
study area, ``MIN_SPACING_M`` apart) × ``AREA_CONFIGS`` charger configurations."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import InputError
from .assemble import area_cell, area_max_select, assemble
from .constants import AREA_CONFIGS, CONFIGS, PARAMS, SIZE_PARAMS
from .demand import demand_regions, road_distances
from .sampler import _configurations, _sites, plan_meta

if TYPE_CHECKING:
    from .task import StationPlacement

ALL_PLACES = 10**9   # "as many sites as there are places": the spacing starts at MIN_SPACING_M


def whole_area(cls: type[StationPlacement], city, seed: int, budget: float | None,
               mode: str = "benchmark", **params: Any) -> StationPlacement:
    """params: n_configs (default AREA_CONFIGS), cell_m (default ``area_cell``), max_select
    (default ``area_max_select``), budget_factor; n_sites caps the sites (seeded priority order)."""
    unknown = sorted(set(params) - set(PARAMS))
    if unknown:
        raise InputError(f"station: unknown parameter(s) {', '.join(unknown)} (known: {', '.join(PARAMS)})")
    rng = np.random.default_rng([int(seed), len(SIZE_PARAMS)])
    cell = float(params.get("cell_m") or area_cell(city))
    demand = demand_regions(city, cell, by_block=False)
    if not len(demand):
        raise InputError(f"{city.name}: no residential demand to serve (no residential buildings); "
                         "give a demand layer (--demand PATH[:LAYER] --demand-field F, or DEMAND_LAYER in QGIS)")
    sites = _sites(city, int(params.get("n_sites") or ALL_PLACES), demand, rng, mode)
    if not len(sites):
        raise InputError(f"{city.name}: no place for a charging site (no parking/fuel/business POI or large block)")
    dist = road_distances(city, sites[["x", "y"]].to_numpy(), demand[["x", "y"]].to_numpy())
    n_cfg = min(int(params.get("n_configs") or AREA_CONFIGS), len(CONFIGS))
    cands = _configurations(sites, np.full(len(sites), n_cfg), rng)
    max_select = int(params.get("max_select") or area_max_select(len(sites)))
    meta = {"region": city.name, "size": "all", "seed": int(seed), "configs_per_site": n_cfg,
            "demand_cell_m": cell, **plan_meta(mode)}
    name = f"{city.name}-station-{'plan-' if mode == 'plan' else ''}all-s{seed}"
    return assemble(cls, name, sites, demand, dist, cands, budget, max_select,
                    float(params.get("budget_factor") or SIZE_PARAMS["large"][4]), rng, city.bounds, city.crs, meta)
