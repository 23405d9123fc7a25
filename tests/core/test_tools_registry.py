"""The tool registry: schema validation, structured results, failed observations, confinement."""
import pytest

from cityplanner.plugin.agent.tools import default_registry


@pytest.fixture(scope="module")
def reg(tmp_path_factory):
    return default_registry(tmp_path_factory.mktemp("ws"))


def test_every_tool_has_a_schema_and_source(reg):
    for spec in reg.specs():
        assert spec["input_schema"]["type"] == "object" and spec["source"] == "cityplanner"


def test_nearest_and_route_share_ids(reg):
    near = reg.call("nearest_facility", {"region": "helsinki", "place": "Stockmann", "category": "school"})
    assert near.ok and near.result["nearest"]["name"] == "Ressun lukio"
    r = reg.call("route", {"region": "helsinki", "origin": "Stockmann", "destination": near.result["nearest"]["id"]})
    assert r.ok and r.result["network_distance_m"] == near.result["nearest"]["network_distance_m"]
    assert r.result["geometry"]["type"] == "LineString"


@pytest.mark.parametrize("name,args,words", [
    ("find_features", {"region": "kotka", "name": "x", "bogus": 1}, "bad arguments"),
    ("nearest_facility", {"region": "kotka", "place": "Stockmann", "category": "school"}, "no feature named"),
    ("route", {"region": "kotka", "origin": "60.17,24.94", "destination": "Kumparepuisto"}, "outside the region"),
    ("within_distance", {"region": "helsinki", "place": "Musiikkitalo", "radius_m": 1, "category": "fuel"}, "no fuel"),
    ("evaluate_plan", {"workspace": "../x"}, "outside the workspace root"),
    ("participation_metrics", {"parcels": "/etc/passwd"}, "outside the folders"),
    ("no_such_tool", {}, "unknown tool"),
])
def test_failures_are_observations(reg, name, args, words):
    obs = reg.call(name, args)
    assert obs.status == "failed" and words in obs.error


def test_build_solve_evaluate_stay_in_root(reg):
    b = reg.call("build_instance", {"region": "kotka", "task": "station", "budget": 200})
    assert b.ok and b.result["budget"] == 200.0
    s = reg.call("solve_plan", {"workspace": b.result["workspace"], "method": "greedy", "time_limit": 2})
    assert s.ok and s.result["valid"]
    e = reg.call("evaluate_plan", {"workspace": b.result["workspace"]})
    assert e.ok and e.result["score"] == s.result["score"]
    assert (reg.ctx.root / b.result["workspace"] / "outputs" / "eval_history.jsonl").is_file()
