"""The after-plan check (plugin.constraints.verify): each constraint judged on a plan from its
meaning, apart from the compiler; the round trip never applies a plan it finds broken. Plans
are built by hand on the real small Helsinki station instance, and what each should give is
worked out from the candidates' own coordinates and costs."""
from __future__ import annotations

import numpy as np
import pytest
import shapely

from cityplanner.plugin.city import load_city
from cityplanner.plugin.constraints import store
from cityplanner.plugin.constraints.roundtrip import instruct
from cityplanner.plugin.constraints.verify import broken, check
from cityplanner.plugin.sandbox.workspace import write_workspace
from cityplanner.plugin.tasks import task_class


@pytest.fixture(scope="module")
def station():
    return task_class("station").build(load_city("helsinki"), "small", seed=0)


@pytest.fixture(scope="module")
def pair(station):
    """Two candidates at different sites, as far apart as the instance allows, and their distance."""
    c = station.candidates
    xy = np.array([shapely.from_wkt(w).centroid.coords[0] for w in c["wkt"]]) if "wkt" in c \
        else c[["x", "y"]].to_numpy(float)
    d = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1))
    d[station.group[:, None] == station.group[None, :]] = -1
    i, j = np.unravel_index(np.argmax(d), d.shape)
    return station.ids[i], station.ids[j], float(d[i, j]), xy[i]


def _status(inst, ids, c, before=None):
    (row,) = check(inst, ids, [c], before)
    return row["status"]


def test_counts_budget_and_spacing_from_their_meaning(station, pair):
    a, b, dist, _ = pair
    assert _status(station, [a, b], {"kind": "count_max", "count": 1}) == "broken"
    assert _status(station, [a], {"kind": "count_max", "count": 1}) == "ok"
    assert _status(station, [a], {"kind": "count_min", "count": 2}) == "broken"
    cost_a = float(station.cost[station.index[a]])
    assert _status(station, [a], {"kind": "budget_share_max", "share": 0.5 * cost_a / station.budget}) == "broken"
    assert _status(station, [a], {"kind": "budget_share_max", "share": 2 * cost_a / station.budget}) == "ok"
    assert _status(station, [a, b], {"kind": "spacing_min", "distance_m": dist + 5}) == "broken"
    assert _status(station, [a, b], {"kind": "spacing_min", "distance_m": max(dist - 5, 1)}) == "ok"


def test_places_ids_and_areas(station, pair):
    a, b, dist, xy_a = pair
    near_a = {"kind": "exclude_near", "distance_m": 50.0, "target": {"name": "a point", "category": None, "id": None},
              "geometry": shapely.Point(*xy_a).wkt}
    assert _status(station, [a], near_a) == "broken" and _status(station, [b], near_a) == "ok"   # b is dist m away
    area = {"kind": "inside_area", "target": {"name": "a disc", "category": None, "id": None},
            "geometry": shapely.Point(*xy_a).buffer(dist / 4).wkt}
    assert _status(station, [a], area) == "ok" and _status(station, [a, b], area) == "broken"
    lock = {"kind": "lock_in", "target": {"name": None, "category": None, "id": a}}
    assert _status(station, [b], lock) == "broken" and _status(station, [a], lock) == "ok"
    # a named target that was never resolved to a geometry cannot be judged: said, not guessed
    assert _status(station, [a], {"kind": "exclude_near", "distance_m": 100.0,
                                  "target": {"name": "Nowhere", "category": None, "id": None}}) == "unchecked"


def test_emphasis_is_checked_against_the_plan_before(station, pair):
    a, b, _, _ = pair
    emph = {"kind": "emphasis", "term": "coverage"}
    assert _status(station, [a, b], emph, before=[a, b]) == "unmoved"      # the same plan: nothing moved
    assert _status(station, [a, b], emph, before=[a]) == "ok"              # one more site covers more demand


def test_instruct_checks_every_stored_constraint_before_applying(station, tmp_path):
    ws = write_workspace(station, tmp_path / "ws")
    store.add(ws, [{"kind": "count_max", "count": 3, "text": "at most 3", "source": "manual"}])
    reply = instruct(ws, "no site 3", station, apply=True, time_limit=120.0)
    assert reply["applied"] and [r["status"] for r in reply["checks"]] == ["ok", "ok"]
    assert not broken(reply["checks"]) and len(reply["plan"]["candidate_ids"]) <= 3
    # the same judge on a plan that breaks the stored count: found and named
    too_many = station.ids[:4]
    assert [r["summary"] for r in broken(check(station, too_many, store.load(ws)))] == ["at most 3 selected"]


def test_distances_are_measured_from_the_outline(station):
    """Stockmann is a POI point in the City; the data maps its building: "within 100 m of
    Stockmann" is measured from the building's outline, which holds the point."""
    from cityplanner.plugin.city.names import name_index
    from cityplanner.plugin.constraints.interpret import interpret

    (c,) = interpret("no chargers within 100 m of Stockmann", station).constraints
    shape = shapely.from_wkt(c["geometry"])
    poi = next(f for f in name_index("helsinki").features if f.name == "Stockmann" and f.kind == "poi")
    assert shape.geom_type in ("Polygon", "MultiPolygon") and shape.area > 1000.0
    assert shapely.distance(shape, shapely.Point(poi.x, poi.y)) < 1.0
