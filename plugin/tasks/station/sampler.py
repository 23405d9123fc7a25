"""Station placement from a City, sampled to the paper's sizes: sites spread over the city by
kind priority and demand, a few charger configurations per site."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import networkx as nx
import numpy as np
import pandas as pd
import shapely
from scipy.spatial import cKDTree

from ...errors import InputError
from ..base import SIZES
from .assemble import assemble
from .constants import (
    CHARGER_COST,
    CONFIGS,
    CURB_MAX_M,
    CURB_STEP_M,
    FACE_SITE_MIN_AREA,
    JUNCTION_CLEAR_M,
    MIN_SPACING_M,
    PARAMS,
    PLACE_KINDS,
    SITE_KINDS,
    SITE_REACH_M,
    SITE_ROAD_M,
    SIZE_PARAMS,
    SUPPLY,
)
from .demand import demand_regions, road_distances

if TYPE_CHECKING:
    from .task import StationPlacement


def sample_city(cls: type[StationPlacement], city, size: str, seed: int, budget: float | None,
                mode: str = "benchmark", **params: Any) -> StationPlacement:
    """params: n_sites, n_configs, cell_m, max_select, budget_factor (override the size's).
    Plan mode: the places of ``_sites`` are on the curb (``curb_places``)."""
    unknown = sorted(set(params) - set(PARAMS))
    if unknown:
        raise InputError(f"station: unknown parameter(s) {', '.join(unknown)} (known: {', '.join(PARAMS)})")
    n_sites, n_cfg, cell, max_select, bfac = SIZE_PARAMS[size]
    n_sites = int(params.get("n_sites", n_sites))
    n_cfg = min(int(params.get("n_configs", n_cfg)), len(CONFIGS))
    cell = float(params.get("cell_m", cell))
    max_select = int(params.get("max_select", max_select))
    rng = np.random.default_rng([int(seed), SIZES.index(size)])

    demand = demand_regions(city, cell)
    if not len(demand):
        raise InputError(f"{city.name}: no residential demand to serve (no residential buildings); "
                         "give a demand layer (--demand PATH[:LAYER] --demand-field F, or DEMAND_LAYER in QGIS)")
    sites = _sites(city, n_sites, demand, rng, mode)
    if not len(sites):
        raise InputError(f"{city.name}: no place for a charging site (no parking/fuel/business POI or large block)")
    dist = road_distances(city, sites[["x", "y"]].to_numpy(), demand[["x", "y"]].to_numpy())

    target = n_sites * n_cfg
    # a window short of places offers more configurations per site to stay near the target
    per_site = np.full(len(sites), n_cfg)
    if len(sites) < n_sites:
        per_site = np.minimum(len(CONFIGS), target // len(sites) + (np.arange(len(sites)) < target % len(sites)))
    cands = _configurations(sites, per_site, rng)
    meta = {"region": city.name, "size": size, "seed": int(seed), "sites_target": n_sites,
            "configs_per_site": int(per_site.max()), "candidates_target": target,
            "short_of_target": len(cands) < target, "demand_cell_m": cell, **plan_meta(mode)}
    name = f"{city.name}-station-{'plan-' if mode == 'plan' else ''}{size}-s{seed}"
    return assemble(cls, name, sites, demand, dist, cands, budget, max_select,
                    float(params.get("budget_factor", bfac)), rng, city.bounds, city.crs, meta)


def plan_meta(mode: str) -> dict[str, Any]:
    """What plan mode adds to the meta (nothing in benchmark mode: its export stays as it was)."""
    return {"mode": "plan", "junction_clear_m": JUNCTION_CLEAR_M, "curb_max_m": CURB_MAX_M} if mode == "plan" else {}


def _sites(city, n_sites: int, demand: pd.DataFrame, rng: np.random.Generator,
           mode: str = "benchmark") -> pd.DataFrame:
    """Up to ``n_sites`` places spread over the city, sampled by kind priority and demand.

    Places: POIs of kind charging / fuel / parking / business, blocks that are large or have
    parking (at their point nearest to the network), and street junctions (kerbside, lowest
    priority); only places inside the study area, off water and within SITE_ROAD_M of the
    network's main component. Weight = kind priority × (0.2 + residents within SITE_REACH_M / the
    largest such number). Sampling order: Efraimidis–Spirakis keys u^(1/weight) (seeded); a place
    is accepted if it is at least ``spacing`` from the accepted ones; the spacing starts at
    half the mean distance between n_sites evenly spread sites and halves until enough are
    found or it reaches MIN_SPACING_M. Plan mode: the places are ``curb_places``."""
    pois = city.pois
    pois = pois[pois["category"].isin(list(SITE_KINDS))] if pois is not None and len(pois) else pois
    rows = []
    if pois is not None and len(pois):
        rows.append(pd.DataFrame({"kind": pois["category"].to_numpy(), "x": pois.geometry.x.to_numpy(),
                                  "y": pois.geometry.y.to_numpy(),
                                  "name": pois["name"].fillna("").astype(str).to_numpy()}))
    roads = _main_roads(city)
    if mode == "plan":
        rows = [curb_places(city, roads, pd.concat(rows, ignore_index=True) if rows else None)]
    f = city.faces
    if mode != "plan" and f is not None and len(f) and len(roads):
        big = f[(f["area"] >= FACE_SITE_MIN_AREA) | (f["parking_area"] > 0)]
        # the block's site is its point nearest to the network: where the driveway would be
        gate = shapely.get_coordinates(shapely.get_point(shapely.shortest_line(
            big.geometry.to_numpy(), shapely.union_all(roads)), 0))
        rows.append(pd.DataFrame({"kind": "face", "x": gate[:, 0], "y": gate[:, 1],
                                  "name": [f"block {i}" for i in big.index]}))
    nodes = city.nodes
    if mode != "plan" and nodes is not None and len(nodes):
        junc = nodes[nodes["degree"] >= 3]
        rows.append(pd.DataFrame({"kind": "curb", "x": junc["x"].to_numpy(dtype=float),
                                  "y": junc["y"].to_numpy(dtype=float),
                                  "name": [f"junction {i}" for i in junc.index]}))
    places = pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(columns=["kind", "x", "y", "name"])
    places = places[_placeable(city, roads, places[["x", "y"]].to_numpy(dtype=float))].reset_index(drop=True)
    if not len(places):
        return places.assign(site=[])
    xy = places[["x", "y"]].to_numpy(dtype=float)
    dxy = demand[["x", "y"]].to_numpy(dtype=float)
    near = (np.hypot(xy[:, None, 0] - dxy[None, :, 0], xy[:, None, 1] - dxy[None, :, 1]) <= SITE_REACH_M) \
        @ demand["residents"].to_numpy(dtype=float)
    prio = places["kind"].map(lambda k: SITE_KINDS[k][0]).to_numpy(dtype=float) * (0.2 + near / max(near.max(), 1e-9))
    order = np.argsort(-rng.random(len(places)) ** (1.0 / prio), kind="stable")
    minx, miny, maxx, maxy = city.bounds
    spacing = max(MIN_SPACING_M, 0.5 * np.sqrt((maxx - minx) * (maxy - miny) / max(n_sites, 1)))
    chosen: list[int] = []
    while True:
        for k in order:
            if len(chosen) >= n_sites:
                break
            if k in chosen:
                continue
            if not chosen or np.hypot(*(xy[chosen] - xy[k]).T).min() >= spacing:
                chosen.append(int(k))
        if len(chosen) >= n_sites or spacing <= MIN_SPACING_M:
            break
        spacing = max(MIN_SPACING_M, spacing / 2)
    s = places.iloc[chosen].reset_index(drop=True)
    s["site"] = [f"s{i:02d}" for i in range(len(s))]
    return s


def junction_points(city) -> np.ndarray:
    """(n, 2) coordinates of the nodes where three or more street segments meet."""
    nodes = city.nodes
    if nodes is None or not len(nodes):
        return np.empty((0, 2))
    return nodes.loc[nodes["degree"] >= 3, ["x", "y"]].to_numpy(dtype=float)


def curb_places(city, roads: np.ndarray, pois: pd.DataFrame | None) -> pd.DataFrame:
    """Plan-mode places (kind, x, y, name): charging / fuel / parking POIs where they are unless
    on a junction node; every other place (a business POI, a large block's gate) moved to the
    nearest point of a street line; kerbside places along every street (its middle, and every
    CURB_STEP_M on long ones). A moved or kerbside place is kept only at least JUNCTION_CLEAR_M
    from every junction of three or more street segments."""
    cols = ["kind", "x", "y", "name"]
    junc = junction_points(city)
    out = []
    if pois is not None and len(pois):
        own = pois[pois["kind"].isin(PLACE_KINDS)]
        out.append((own[cols], CURB_MAX_M))
        rest = pois[~pois["kind"].isin(PLACE_KINDS)]
        if len(rest) and len(roads):
            out.append((_to_curb(rest, roads), JUNCTION_CLEAR_M))
    f = city.faces
    if f is not None and len(f) and len(roads):
        big = f[(f["area"] >= FACE_SITE_MIN_AREA) | (f["parking_area"] > 0)]
        gate = shapely.get_coordinates(shapely.get_point(shapely.shortest_line(
            big.geometry.to_numpy(), shapely.union_all(roads)), 1))   # the street end of the driveway
        out.append((pd.DataFrame({"kind": "face", "x": gate[:, 0], "y": gate[:, 1],
                                  "name": [f"block {i}" for i in big.index]}), JUNCTION_CLEAR_M))
    if len(roads):
        pts, names = [], []
        for k, line in enumerate(roads):
            length = float(shapely.length(line))
            at = np.arange(CURB_STEP_M, length - JUNCTION_CLEAR_M, CURB_STEP_M) \
                if length > 2 * CURB_STEP_M else np.array([length / 2])
            xy = shapely.get_coordinates(shapely.line_interpolate_point(line, at))
            pts += list(xy)
            names += [f"kerb {k}@{int(d)}m" for d in at]
        if pts:
            xy = np.array(pts)
            out.append((pd.DataFrame({"kind": "curb", "x": xy[:, 0], "y": xy[:, 1], "name": names}),
                        JUNCTION_CLEAR_M))
    frames = []
    for frame, clear in out:
        if not len(frame):
            continue
        if len(junc):
            d, _ = cKDTree(junc).query(frame[["x", "y"]].to_numpy(dtype=float))
            frame = frame[d >= clear]
        frames.append(frame)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=cols)


def _to_curb(places: pd.DataFrame, roads: np.ndarray) -> pd.DataFrame:
    """``places`` moved to the nearest point of the nearest street line."""
    pts = shapely.points(places[["x", "y"]].to_numpy(dtype=float))
    _, ri = shapely.STRtree(roads).query_nearest(pts, all_matches=False)
    near = shapely.get_coordinates(shapely.line_interpolate_point(roads[ri], shapely.line_locate_point(roads[ri], pts)))
    return places.assign(x=near[:, 0], y=near[:, 1])[["kind", "x", "y", "name"]]


def _main_roads(city) -> np.ndarray:
    """Road geometries of the network's largest connected component."""
    e = city.edges
    if e is None or not len(e):
        return np.empty(0, dtype=object)
    main = max(nx.connected_components(city.graph), key=len)
    return e.geometry.to_numpy()[(e["u"].isin(main) & e["v"].isin(main)).to_numpy()]


def _placeable(city, roads: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """Places inside the study area, not in water, within SITE_ROAD_M of the main network."""
    pts = shapely.points(xy)
    ok = np.full(len(pts), len(roads) > 0)
    if len(roads) and len(pts):
        _, dist = shapely.STRtree(roads).query_nearest(pts, return_distance=True, all_matches=False)
        ok &= dist <= SITE_ROAD_M
    extent = getattr(city, "extent", None)
    if extent is not None:
        shapely.prepare(extent)   # unprepared, covers() on a city-sized extent took 22 s for 15,000 points
        ok &= shapely.covers(extent, pts)
    masks = getattr(city, "masks", None)
    if masks is not None and len(masks):
        water = masks[masks["kind"] == "water"].geometry.to_numpy()
        if len(water):   # a tree query, not one union of every water body (16 s at that size)
            wet = np.zeros(len(pts), dtype=bool)
            wet[shapely.STRtree(water).query(pts, predicate="intersects")[0]] = True
            ok &= ~wet
    return ok


def _configurations(sites: pd.DataFrame, per_site: np.ndarray, rng: np.random.Generator) -> pd.DataFrame:
    """per_site[g] configurations at site g, one from each of as many equal slices of CONFIGS (by q)."""
    rows = []
    for g, s in sites.iterrows():
        site_cost = SITE_KINDS[s["kind"]][1] * rng.uniform(0.8, 1.2)
        for c, b in enumerate(np.array_split(np.arange(len(CONFIGS)), int(per_site[g]))):
            n = np.array(CONFIGS[int(rng.choice(b))])
            rows.append({"id": f"{s['site']}c{c}", "cost": round(site_cost + float(n @ CHARGER_COST), 1),
                         "group": int(g), "site": s["site"], "site_kind": s["kind"],
                         "n_slow": int(n[0]), "n_medium": int(n[1]), "n_fast": int(n[2]),
                         "supply_q": float(n @ SUPPLY), "wkt": f"POINT ({s['x']:.2f} {s['y']:.2f})"})
    return pd.DataFrame(rows)
