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
    ("nearest_facility", {"region": "kotka", "place": "Stockmann", "category": "school"}, "is not in the kotka data"),
    ("route", {"region": "kotka", "origin": "60.17,24.94", "destination": "Kumparepuisto"}, "outside the region"),
    ("find_features", {"region": "kotka", "category": "fuel", "tag": "amenity"}, "bad tag filter"),
    ("evaluate_plan", {"workspace": "../x"}, "outside the workspace root"),
    ("participation_metrics", {"parcels": "/etc/passwd"}, "outside the folders"),
    ("no_such_tool", {}, "unknown tool"),
])
def test_failures_are_observations(reg, name, args, words):
    obs = reg.call(name, args)
    assert obs.status == "failed" and words in obs.error


def test_none_is_an_answer_and_tags_narrow_a_category(reg):
    none = reg.call("within_distance", {"region": "helsinki", "place": "Musiikkitalo", "radius_m": 1, "category": "fuel"})
    assert none.ok and none.result["count"] == 0
    assert reg.call("nearest_facility", {"region": "kotka", "place": "Helilän koulu", "category": "hospital"}
                    ).result["nearest"] is None
    clinics = reg.call("find_features", {"region": "helsinki", "category": "clinic"}).result["count"]
    pharm = reg.call("nearest_facility", {"region": "helsinki", "place": "Stokman", "category": "clinic",
                                          "tag": "amenity=pharmacy"})
    assert pharm.ok and pharm.result["origin"]["name"] == "Stockmann" and 0 < pharm.result["in_region"] < clinics
    assert "apteekki" in pharm.result["nearest"]["name"].casefold()
    on = reg.call("find_features", {"region": "helsinki", "category": "clinic", "tag": "amenity=pharmacy",
                                    "area": "Bulevardi"})
    assert [f["name"] for f in on.result["features"]] == ["Apteekki Bulevardia"]


def test_build_solve_evaluate_stay_in_root(reg):
    b = reg.call("build_instance", {"region": "kotka", "task": "station", "budget": 200})
    assert b.ok and b.result["budget"] == 200.0
    s = reg.call("solve_plan", {"workspace": b.result["workspace"], "method": "greedy", "time_limit": 2})
    assert s.ok and s.result["valid"]
    e = reg.call("evaluate_plan", {"workspace": b.result["workspace"]})
    assert e.ok and e.result["score"] == s.result["score"]
    assert len(s.result["sites"]) == s.result["selected"] and all("x" in p for p in s.result["sites"])
    assert (reg.ctx.root / b.result["workspace"] / "outputs" / "eval_history.jsonl").is_file()


@pytest.mark.parametrize("tool, where", [("find_features", {"area": "Kluuvi"}),
                                         ("within_distance", {"place": "Kiasma", "radius_m": 400})])
def test_kinds_are_counted_once_each(reg, tool, where):
    def count(**args):
        return reg.call(tool, {"region": "helsinki", **where, **args}).result["count"]

    # a pub is both a pub and a "bar or pub": several kinds at once count each place once
    pubs, bars = count(category="business", tag="amenity=pub"), count(category="business", tag="amenity=bar|pub")
    both = count(kinds=[{"category": "business", "tag": "amenity=pub"}, {"category": "business", "tag": "amenity=bar|pub"}])
    assert 0 < pubs < bars == both, (pubs, bars, both)
    mixed = count(kinds=[{"category": "business", "tag": "amenity=cafe"}, {"category": "school"}])
    assert mixed == count(category="business", tag="amenity=cafe") + count(category="school")
