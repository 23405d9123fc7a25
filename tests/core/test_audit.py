"""Audit: planted bad sites and links are flagged from the city's geometry, good plans are not."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from shapely.geometry import LineString, box

from cityplanner.plugin.audit import AuditContext, audit_plan
from cityplanner.plugin.city import build_city
from cityplanner.plugin.tasks import instance_from_export, task_class
from cityplanner.plugin.tasks.site_rules import SITE_RULES, fits, violations

from .test_units import POND, _town

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def town():
    return build_city(_town(), "town")


def _planted(inst, rows: dict[int, str]):
    """The instance with the geometry of some candidates replaced (a filter bug, simulated)."""
    d = inst.to_export()
    cands = d["candidates"]
    for k, wkt in rows.items():
        cands[k]["wkt"] = wkt
    return instance_from_export(d)


def test_clean_land_plan_has_no_flags(town):
    inst = task_class("land").build(town, size="small", seed=0)
    res = audit_plan(inst, inst.ids, AuditContext.from_city(town))
    assert res == {"flags": [], "checked": inst.n}


def test_sliver_water_and_building_link_are_flagged(town):
    inst = task_class("land").build(town, size="small", seed=0)
    sliver = box(100, 40, 108, 140).wkt          # 8 m wide along the x=100 street: on the reserve and too narrow
    wet = POND.buffer(-5).wkt
    planted = _planted(inst, {0: sliver, 1: wet})
    ctx = AuditContext.from_city(town)
    res = audit_plan(planted, planted.ids[:3], ctx)
    assert res["checked"] == 3
    got = {(f["id"], f["reason"]) for f in res["flags"]}
    a, b, c = planted.ids[:3]
    assert {(a, "on_road_reserve"), (a, "too_narrow"), (b, "in_water")} <= got
    assert not any(i == c for i, _ in got)
    narrow = next(f for f in res["flags"] if f["id"] == a and f["reason"] == "too_narrow")
    assert narrow["value"] == pytest.approx(8.0, abs=0.5)
    assert narrow["limit"] == SITE_RULES[planted.candidates["type"][0]].min_width


def test_link_through_a_building_and_outside_the_area(town):
    inst = task_class("road").build(town, size="small", seed=0)
    kind = inst.candidates["kind"].to_numpy()
    new = [k for k in range(inst.n) if kind[k] == "new"][:3]
    old = [k for k in range(inst.n) if kind[k] == "rebuild"][0]
    through = LineString([(10, 30), (60, 30)]).wkt       # through the house at 20..40
    planted = _planted(inst, {new[0]: through, new[1]: LineString([(50, 310), (50, 390)]).wkt,  # in the open margin
                              old: through})             # an existing road is not a new link: not checked
    ids = [planted.ids[k] for k in (*new, old)]
    res = audit_plan(planted, ids, AuditContext.from_city(town))
    assert res["checked"] == 4
    got = {(f["id"], f["reason"]) for f in res["flags"]}
    assert got == {(ids[0], "crosses_building"), (ids[1], "outside_study_area")}
    assert next(f for f in res["flags"] if f["reason"] == "crosses_building")["value"] == pytest.approx(20.0)


@pytest.mark.parametrize("t,area,width,expected", [
    ("school", 2500.0, 40.0, []),
    ("school", 2499.0, 50.0, [("too_small", 2499.0, 2500.0)]),
    ("hospital_s", 3000.0, 10.0, [("too_narrow", 10.0, 25.0)]),
    ("green_s", 200.0, 8.0, [("too_small", 200.0, 300.0), ("too_narrow", 8.0, 10.0)]),
])
def test_site_rules_hand_computed(t, area, width, expected):
    assert violations(t, area, width) == expected


def test_fits_matrix():
    # a 20 × 100 m strip (2000 m², 20 m wide) holds business, office, green_s, hospital? no (25 m), recreation
    m = fits(list(SITE_RULES), [2000.0], [20.0])[0]
    assert dict(zip(SITE_RULES, m)) == {"business": True, "office": True, "green_l": False, "green_s": True,
                                        "school": False, "hospital_l": False, "hospital_s": False,
                                        "recreation": True}


def test_audit_cli_on_a_workspace(tmp_path, town):
    from cityplanner.plugin.sandbox import write_workspace

    inst = task_class("land").build(town, size="small", seed=0)
    ws = write_workspace(inst, tmp_path / "ws", city=town)
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"candidate_ids": inst.ids[:2]}))
    p = subprocess.run([sys.executable, "-m", "plugin", "audit", str(ws), str(plan)], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == {"flags": [], "checked": 2}
    bad = subprocess.run([sys.executable, "-m", "plugin", "audit", str(tmp_path / "nope")], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.strip().splitlines()[-1].startswith("error: ")  # one line, no traceback
    assert "Traceback" not in bad.stderr


def test_evaluate_warns_with_the_audit(tmp_path, town):
    from cityplanner.plugin.sandbox import write_workspace
    from cityplanner.plugin.sandbox.evaluator import evaluate_plan_file

    inst = task_class("land").build(town, size="small", seed=0)
    planted = _planted(inst, {0: box(100, 40, 108, 140).wkt})
    ws = write_workspace(planted, tmp_path / "ws", city=town)
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"candidate_ids": planted.ids[:2]}))
    res = evaluate_plan_file(ws, plan)
    audit = [w for w in res["warnings"] if w.startswith("audit: ")]
    assert any(w.startswith(f"audit: {planted.ids[0]} too_narrow") for w in audit)
    assert not any(planted.ids[1] in w for w in audit)


def test_parcel_that_fits_no_type_is_no_candidate(tmp_path):
    import geopandas as gpd

    from cityplanner.plugin.tasks.land import LandAllocation

    parcels = gpd.GeoDataFrame({"id": ["sliver", "plot", "homes"], "type": ["feasible", "feasible", "residential"]},
                               geometry=[box(0, 0, 8, 200), box(100, 0, 150, 60), box(200, 0, 260, 60)],
                               crs="EPSG:3067")
    inst = LandAllocation.from_parcels(parcels, {"school": 1})
    assert set(inst.candidates["face_id"]) == {"plot"}
    # 50 × 60 m: 3,000 m², 50 m wide → every type but green_l (5,000 m²) and hospital_l
    assert set(inst.candidates["type"]) == set(SITE_RULES) - {"green_l", "hospital_l"}
    assert any("1 of 2 candidate parcels fit no land-use type" in w for w in inst.meta["warnings"])
    # a parcel workspace has no city model: the audit still checks each site's own rules
    from cityplanner.plugin.audit import audit_workspace
    from cityplanner.plugin.sandbox import write_workspace

    planted = _planted(inst, {0: box(0, 0, 8, 200).wkt})
    ws = write_workspace(planted, tmp_path / "ws")
    res = audit_workspace(ws, planted, planted.ids[:2])
    assert {(f["id"], f["reason"]) for f in res["flags"] if f.get("kind") != "not_checked"} == \
        {(planted.ids[0], "too_narrow")}
    # a parcel workspace has no city: what could not be checked is said, flag by flag
    assert {f["rule"] for f in res["flags"] if f.get("kind") == "not_checked"} == \
        {"outside_study_area", "on_road_reserve", "in_water", "on_non_buildable"}
