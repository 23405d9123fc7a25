"""Study-area scale: early LP bounds are true bounds, the whole area holds every eligible
candidate, own candidate layers round-trip through the CLI, the synthetic city is connected."""
from __future__ import annotations

import json

import geopandas as gpd
import numpy as np
import pytest
import shapely

from cityplanner.plugin.cli import main
from cityplanner.plugin.city import load_city
from cityplanner.plugin.solvers.milp import station as milp_station
from cityplanner.plugin.solvers.milp.relaxation import round_lp
from cityplanner.plugin.tasks import task_class
from cityplanner.plugin.tasks.road.constants import LINK_RADIUS
from cityplanner.plugin.tasks.station.constants import AREA_CONFIGS
from tests.core.test_solvers import brute_force
from tests.core.test_task_station import random_station


def _lp(inst, lines=None):
    """The LP relaxation of the station model (any size: the size gate of lp_bound is skipped)."""
    from scipy.optimize import milp

    c, const, cons, integ, bounds = milp_station.station_model(inst, lines)
    r = milp(c, constraints=cons, integrality=np.zeros_like(integ), bounds=bounds)
    assert r.status == 0
    return const - r.fun, r.x


@pytest.mark.parametrize("seed", range(8))
def test_station_lp_bounds_hold_over_the_exact_optimum(seed):
    """Both LP relaxations (all φ̂ lines, and the early bound's subset) are ≥ the brute-force
    optimum, the subset's ≥ the full one's; rounding the LP gives a valid plan."""
    inst = random_station(100 + seed, n_sites=2 + seed % 3, n_cfg=1 + seed % 3, m=2 + seed % 7)
    opt = brute_force(inst)
    full, x = _lp(inst)
    early, _ = _lp(inst, milp_station.LP_LINES)
    assert full >= opt - 1e-7 and early >= full - 1e-7
    plan = round_lp(inst, x)
    assert inst.hard_errors(plan) == [] and inst.score_mask(plan)[0] <= opt + 1e-9


@pytest.fixture(scope="module")
def helsinki():
    return load_city("helsinki")


def test_whole_area_holds_every_eligible_candidate(helsinki):
    """Land and road: the whole area ⊇ the sampled large instance's (non-extension) candidates;
    station: every site of the area with AREA_CONFIGS configurations, more sites than large."""
    land_all, land_l = (task_class("land").build(helsinki, s, 0) for s in ("all", "large"))
    core = land_l.candidates[land_l.candidates["reason"] != "extension"]
    assert set(core["face_id"].astype(str) + core["type"]) <= set(land_all.candidates["face_id"].astype(str)
                                                               + land_all.candidates["type"])
    road_all, road_l = (task_class("road").build(helsinki, s, 0) for s in ("all", "large"))
    key = lambda c: set(zip(c["u"], c["v"]))  # noqa: E731
    # the sampler widens the link radius when short of its target; the whole area keeps LINK_RADIUS
    short = road_l.candidates[road_l.candidates["length_m"] <= LINK_RADIUS]
    assert key(short) <= key(road_all.candidates)
    st_all, st_l = (task_class("station").build(helsinki, s, 0) for s in ("all", "large"))
    per_site = st_all.candidates.groupby("site").size()
    assert (per_site == AREA_CONFIGS).all() and len(per_site) > st_l.candidates["site"].nunique()
    assert st_all.meta["size"] == "all"


def _cli_instance(tmp_path, capsys, *argv) -> dict:
    assert main(["instance", "--region", "helsinki", *argv, "--out", str(tmp_path / "ws")]) == 0
    capsys.readouterr()
    return json.loads((tmp_path / "ws" / "input" / "export.json").read_text())


def test_own_sites_round_trip(tmp_path, capsys, helsinki):
    """Sites written in WGS 84 come back as the instance's sites in the working CRS, with only
    the allowed configurations, the given cost and the capacity limit."""
    x0, y0 = helsinki.bounds[:2]
    pts = gpd.GeoSeries(shapely.points([[x0 + 300, y0 + 400], [x0 + 700, y0 + 900]]), crs=helsinki.crs)
    gpd.GeoDataFrame({"configs": ["4/0/0;0/4/2", None], "cost": [5.0, None], "capacity": [None, 4]},
                     geometry=pts.to_crs("EPSG:4326")).to_file(tmp_path / "sites.gpkg", layer="mine")
    d = _cli_instance(tmp_path, capsys, "--task", "station", "--sites", f"{tmp_path / 'sites.gpkg'}:mine")
    cands = d["candidates"]
    ids = [c["id"] for c in cands]
    assert ids == ["s00c0", "s00c1", "s01c0", "s01c1", "s01c2"]
    assert [c["cost"] for c in cands[:2]] == [5.0 + 24.0, 5.0 + 60.0 + 90.0]   # 4 slow; 4 medium + 2 fast
    back = shapely.from_wkt([cands[0]["wkt"], cands[2]["wkt"]])
    assert shapely.get_coordinates(back) == pytest.approx(shapely.get_coordinates(pts.values), abs=0.05)


def test_own_links_round_trip(tmp_path, capsys, helsinki):
    """Proposed lines become candidates between the nodes nearest their ends; the cost field
    wins where given; a line that does not reach the network is left out."""
    n = helsinki.nodes[["x", "y"]].to_numpy()
    lines = [shapely.LineString([n[0], n[40]]), shapely.LineString([n[5], n[60]]),
             shapely.LineString([[0.0, 0.0], [10.0, 10.0]])]
    gpd.GeoDataFrame({"cost": [77.0, None, 1.0]}, geometry=lines, crs=helsinki.crs).to_file(tmp_path / "links.gpkg")
    d = _cli_instance(tmp_path, capsys, "--task", "road", "--links", str(tmp_path / "links.gpkg"))
    cands = d["candidates"]
    ids = helsinki.nodes.index.to_numpy()
    assert [(c["u"], c["v"]) for c in cands] == [(ids[0], ids[40]), (ids[5], ids[60])]
    assert cands[0]["cost"] == 77.0 and cands[1]["cost"] > 0 and d["meta"]["dropped_links"] == 1


def test_own_layer_for_the_wrong_task_is_one_line(tmp_path, capsys):
    assert main(["instance", "--region", "helsinki", "--task", "land", "--sites", "x.gpkg",
                 "--out", str(tmp_path / "ws")]) == 2
    assert "--sites is for --task station" in capsys.readouterr().err


def test_early_lp_bound_through_the_worker(monkeypatch):
    """The early bound as the MILP computes it (interior point in a spawned worker) holds
    over the exact optimum, and the MILP that follows still ends optimal."""
    from cityplanner.plugin.solvers.milp import relaxation, solve_milp

    monkeypatch.setattr(relaxation, "LP_MIN_VARS", 0)
    inst = random_station(7, n_sites=3, n_cfg=2, m=5)
    opt = brute_force(inst)
    c, const, cons, _, bounds = milp_station.station_model(inst, milp_station.LP_LINES)
    lp, x = relaxation.lp_bound(c, const, cons, bounds, 60)
    assert x is not None and lp >= opt - 1e-7
    res = solve_milp(inst, 60)
    assert res.status == "optimal" and res.bound == pytest.approx(opt, abs=1e-7)


@pytest.mark.slow  # the at-scale LP and MIP of a large instance
def test_default_at_scale_certifies_with_the_lp(monkeypatch):
    """The scale path of ``default`` (LP bound, support MIP, heuristics; no full MIP), forced on
    a tiny instance: a valid plan, and a bound at or above the brute-force optimum."""
    from cityplanner.plugin.solvers import solve
    from cityplanner.plugin.solvers.milp import relaxation

    import dataclasses

    from cityplanner.plugin.tasks.station import spec as station_spec

    monkeypatch.setattr(station_spec, "SPEC", dataclasses.replace(station_spec.SPEC, at_scale_n=1))
    monkeypatch.setattr(relaxation, "LP_MIN_VARS", 0)
    inst = random_station(11, n_sites=4, n_cfg=2, m=6)
    opt = brute_force(inst)
    res = solve(inst, "default", time_limit=20)
    assert res.valid and res.score <= opt + 1e-6   # SolveResult rounds to 6 decimals
    assert res.upper_bound >= opt - 1e-6 and any("milp" in n for n in res.notes)


@pytest.mark.slow  # six large LPs and support MIPs
@pytest.mark.parametrize("seed", range(6))
def test_at_scale_milp_bound_holds_and_support_covers_the_lp(seed):
    """The at-scale MILP (full-lines LP bound, then the exact MIP over the LP's support) on
    instances small enough to enumerate: its bound is ≥ the optimum, its plan valid and ≤ it;
    the support holds every site the LP uses with all of that site's configurations."""
    from cityplanner.plugin.solvers.milp import solve_milp

    inst = random_station(200 + seed, n_sites=3 + seed % 3, n_cfg=1 + seed % 3, m=3 + seed % 6)
    opt = brute_force(inst)
    full, x = _lp(inst)
    res = solve_milp(inst, 30, at_scale=True)
    assert res.bound == pytest.approx(max(full, inst.score_mask(res.mask)[0]), abs=1e-6) and res.bound >= opt - 1e-7
    assert inst.hard_errors(res.mask) == [] and inst.score_mask(res.mask)[0] <= opt + 1e-9
    keep = milp_station.support(inst, x, np.zeros(inst.n, dtype=bool))
    used = x[: inst.n] > milp_station.SUPPORT_EPS
    assert keep[used].all()
    sites = inst.group[keep & (inst.group >= 0)]
    assert keep[np.isin(inst.group, sites) & (inst.group >= 0)].all()


def test_time_to_gap_is_the_first_crossing():
    """The plan reaches 0.99 at 5 s, but the bound 1.0 is known only at 8 s: 8 s, not the end."""
    from cityplanner.plugin.solvers import time_to_gap

    trace = [(0.5, 0.5), (5.0, 0.99), (9.0, 0.995)]
    assert time_to_gap(trace, [(8.0, 1.0)], 0.01) == 8.0
    assert time_to_gap(trace, [(1.0, 1.2), (2.0, 1.0)], 0.01) == 5.0
    assert time_to_gap(trace, [(1.0, 1.2)], 0.01) is None


def test_scale_table_pieces(tmp_path):
    """The exponent of time ∝ n² is 2; a cell takes its time to 1 % from the 60 s run, else the
    120 s one; re-running some cells keeps the other rows of the folder."""
    from cityplanner.plugin.bench import scale

    cells = [{"task": "land", "n": n, "time_to_1pct": n * n / 1000.0} for n in (100, 200, 400)]
    assert scale.fit_exponent(cells) == pytest.approx(2.0)
    assert scale.fit_exponent(cells[:1]) is None
    first, second = {"n": 50, "gap": 0.02, "time_to_1pct": None}, {"n": 50, "gap": 0.0, "time_to_1pct": 80.0}
    cell = scale._cell("road", 50, first, second)
    assert cell["time_to_1pct"] == 80.0 and (cell["gap_60"], cell["gap_120"]) == (0.02, 0.0)
    rows = [{"task": "land", "n_target": 100}, {"task": "land", "n_target": 200}, {"task": "road", "n_target": 100}]
    (tmp_path / "scale.json").write_text(json.dumps({"cells": rows, "runs": rows}))
    runs, kept = scale._kept(tmp_path / "scale.json", {("land", 200)})
    assert kept == [rows[0], rows[2]] == runs
