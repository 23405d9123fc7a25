"""Station placement from the planner's own candidate sites (a points layer).

Optional fields (missing or empty → the default):

``configs``   allowed charger configurations, ``slow/medium/fast`` triples separated by ``;``
              (e.g. ``4/0/0;0/4/2``); default: every configuration of ``CONFIGS``
``cost``      site cost in k€ before chargers; default: that of ``kind`` (``SITE_KINDS``),
              else of a parking site
``capacity``  most chargers the site holds (slow + medium + fast); larger configurations are
              dropped; default: no limit
``kind``      a ``SITE_KINDS`` key; default ``parking``
``name``      shown in the site id column; default ``site <n>``

Demand comes from the City (its buildings, or the planner's demand layer) as for the whole
area (``assemble.area_cell``), and so do the default step limit and budget.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import geopandas as gpd
import numpy as np
import pandas as pd

from ...errors import InputError
from .assemble import area_cell, area_max_select, assemble
from .constants import CHARGER_COST, CONFIGS, SITE_KINDS, SIZE_PARAMS, SUPPLY
from .demand import demand_regions, road_distances

if TYPE_CHECKING:
    from .task import StationPlacement

DEFAULT_KIND = "parking"


def parse_configs(text: object, label: str) -> list[tuple[int, int, int]]:
    """``"4/0/0;0/4/2"`` → [(4, 0, 0), (0, 4, 2)]; empty → every configuration of CONFIGS."""
    if text is None or (isinstance(text, float) and np.isnan(text)) or not str(text).strip():
        return list(CONFIGS)
    out = []
    for part in filter(None, (p.strip() for p in str(text).split(";"))):
        nums = part.split("/")
        if len(nums) != 3 or not all(n.strip().isdigit() for n in nums) or not sum(int(n) for n in nums):
            raise InputError(f"{label}: configs '{part}' is not slow/medium/fast charger counts, e.g. 4/0/0")
        out.append(tuple(int(n) for n in nums))
    return out


def _field(sites: pd.DataFrame, name: str, default: object) -> list:
    if name not in sites:
        return [default] * len(sites)
    return [default if v is None or (isinstance(v, float) and np.isnan(v)) or v == "" else v for v in sites[name]]


def from_sites(cls: type[StationPlacement], city, sites: gpd.GeoDataFrame, seed: int = 0,
               budget: float | None = None, max_select: int | None = None, cell_m: float | None = None,
               label: str = "sites") -> StationPlacement:
    """An instance whose candidates are (own site × its allowed configurations); ``sites`` are
    points in the City's CRS."""
    if not len(sites):
        raise InputError(f"{label}: no candidate sites")
    if not set(sites.geom_type.unique()) <= {"Point"}:
        raise InputError(f"{label}: candidate sites must be points, found {', '.join(sorted(set(sites.geom_type)))}")
    kinds = [str(k) for k in _field(sites, "kind", DEFAULT_KIND)]
    bad = sorted(set(kinds) - set(SITE_KINDS))
    if bad:
        raise InputError(f"{label}: unknown kind {', '.join(bad)} (known: {', '.join(SITE_KINDS)})")
    site_cost = [float(c) if c is not None else SITE_KINDS[k][1]
                 for c, k in zip(_field(sites, "cost", None), kinds, strict=False)]
    cap = [float(c) for c in _field(sites, "capacity", np.inf)]
    names = [str(n) for n in _field(sites, "name", "")]
    xy = np.c_[sites.geometry.x.to_numpy(), sites.geometry.y.to_numpy()]
    table = pd.DataFrame({"site": [f"s{i:02d}" for i in range(len(sites))], "kind": kinds, "x": xy[:, 0],
                          "y": xy[:, 1], "name": [n or f"site {i}" for i, n in enumerate(names)]})
    rows = []
    for g, (cfg_text, cost, most) in enumerate(zip(_field(sites, "configs", None), site_cost, cap, strict=False)):
        for c, n in enumerate(cfg for cfg in parse_configs(cfg_text, f"{label} feature {g}") if sum(cfg) <= most):
            n = np.array(n)
            rows.append({"id": f"{table['site'][g]}c{c}", "cost": round(cost + float(n @ CHARGER_COST), 1),
                         "group": g, "site": table["site"][g], "site_kind": kinds[g],
                         "n_slow": int(n[0]), "n_medium": int(n[1]), "n_fast": int(n[2]),
                         "supply_q": float(n @ SUPPLY), "wkt": f"POINT ({xy[g, 0]:.2f} {xy[g, 1]:.2f})"})
    if not rows:
        raise InputError(f"{label}: no site allows any charger configuration within its capacity")
    cands = pd.DataFrame(rows)
    cell = float(cell_m or area_cell(city))
    demand = demand_regions(city, cell, by_block=False)
    if not len(demand):
        raise InputError(f"{city.name}: no residential demand to serve (no residential buildings); "
                         "give a demand layer (--demand PATH[:LAYER] --demand-field F, or DEMAND_LAYER in QGIS)")
    dist = road_distances(city, xy, demand[["x", "y"]].to_numpy())
    rng = np.random.default_rng([int(seed), len(SIZE_PARAMS) + 1])
    meta = {"region": city.name, "size": "own sites", "seed": int(seed), "source": label, "demand_cell_m": cell}
    return assemble(cls, f"{city.name}-station-sites-s{seed}", table, demand, dist, cands, budget,
                    int(max_select or area_max_select(len(table))), SIZE_PARAMS["large"][4], rng, city.bounds,
                    city.crs, meta)
