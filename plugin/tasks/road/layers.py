"""Road construction from the planner's own proposed links (a lines layer).

Each line is a candidate segment between the network nodes nearest to its two ends (each
within ``SNAP_M``; lines that do not reach the network at both ends are left out and
counted in ``meta['dropped_links']``). Optional field ``cost`` (k€; missing or empty → the
length × the new-link unit cost, as for generated links). Nothing is removed from the
network; the demand faces to connect are sampled as for the large size (seeded).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely
from scipy.spatial import cKDTree

from ...errors import InputError
from .assemble import assemble
from .constants import BUDGET_FACTOR, N_GROUPS
from .graph import pair_distances
from .sampler import _candidate_table, _Network

if TYPE_CHECKING:
    from .task import RoadConstruction

SNAP_M = 30.0   # a proposed link's end this close to a network node joins it there


def from_links(cls: type[RoadConstruction], city, links: gpd.GeoDataFrame, seed: int = 0,
               budget: float | None = None, n_groups: int | None = None,
               label: str = "links") -> RoadConstruction:
    """An instance whose candidates are the proposed ``links`` (lines in the City's CRS)."""
    if not len(links):
        raise InputError(f"{label}: no proposed links")
    if not set(links.geom_type.unique()) <= {"LineString"}:
        raise InputError(f"{label}: proposed links must be single lines, found "
                         f"{', '.join(sorted(set(links.geom_type)))}")
    rng = np.random.default_rng(seed)
    net = _Network(city)
    geoms = links.geometry.to_numpy()
    ends = np.stack([shapely.get_coordinates(shapely.get_point(geoms, 0)),
                     shapely.get_coordinates(shapely.get_point(geoms, -1))], axis=1)
    d, k = cKDTree(net.nodes[["x", "y"]].to_numpy(dtype=float)).query(ends.reshape(-1, 2))
    d, k = d.reshape(-1, 2), k.reshape(-1, 2)
    ok = (d <= SNAP_M).all(axis=1) & (k[:, 0] != k[:, 1])
    if not ok.any():
        raise InputError(f"{label}: no proposed link reaches the road network at both ends "
                         f"(within {SNAP_M:.0f} m of a node, two different nodes)")
    net_dist = pair_distances(net._graph(net.kept), k[ok, 0], k[ok, 1])
    length = np.maximum(shapely.length(geoms[ok]), 1.0)
    nid = net.nodes.index.to_numpy()
    table = pd.DataFrame({"u": nid[k[ok, 0]], "v": nid[k[ok, 1]], "length": length, "detour": net_dist / length,
                          "geometry": geoms[ok]})
    cands = _candidate_table(net, net.edges.iloc[:0].assign(reason=[]), table, city)
    cands["reason"] = "proposed"
    if "cost" in links:
        given = pd.to_numeric(links["cost"], errors="coerce").to_numpy(dtype=float)[ok]
        cands["cost"] = np.where(np.isfinite(given) & (given > 0), given, cands["cost"].to_numpy())
    groups = net.sample_groups(rng, int(n_groups or N_GROUPS["large"]))
    meta = {"region": city.name, "size": "own links", "seed": int(seed), "source": label,
            "dropped_links": int((~ok).sum())}
    return assemble(cls, f"{city.name}-road-links-s{seed}", cands, net.nodes, net.kept, groups, city.crs, meta,
                    budget, float(rng.uniform(*BUDGET_FACTOR)))
