"""A name the data gives to several features (a square, its stops and its building; a building and
the POIs inside it) in a comparison "which is closer to X: A or B?" is measured between the nearest
of the features so named (issue 29, the fifth half's class of names with several features). The
expected distances come from the judge's own Dijkstra (``judge.road_m``, its own KD-tree on the
City graph), not from the route tool."""
from __future__ import annotations

import pytest

from cityplanner.plugin.agent.ask.agent import answer_request
from cityplanner.plugin.agent.ask.judge import judge, place_points, road_m
from cityplanner.plugin.agent.tools import default_registry


def _shortest(region: str, a: str, b: str) -> float:
    return min(road_m(region, (p[2], p[3]), (q[2], q[3])) for p in place_points(region, a) for q in place_points(region, b))


def test_route_between_every_feature_so_named_keeps_the_shortest(tmp_path):
    reg = default_registry(tmp_path / "ws")
    assert len(place_points("helsinki", "Lasipalatsi")) > 1 and len(place_points("helsinki", "Kansallisarkisto")) > 1
    obs = reg.call("route", {"region": "helsinki", "origin": "Kansallisarkisto", "destination": "Lasipalatsi",
                             "every_named": True})
    assert obs.ok, obs.error
    assert obs.result["network_distance_m"] == pytest.approx(_shortest("helsinki", "Kansallisarkisto", "Lasipalatsi"),
                                                             abs=1.0)
    assert obs.result["features_so_named"]["destination"] == len(place_points("helsinki", "Lasipalatsi"))
    plain = reg.call("route", {"region": "helsinki", "origin": "Kansallisarkisto", "destination": "Lasipalatsi"})
    assert "features_so_named" not in plain.result   # the plain route is unchanged


@pytest.mark.parametrize("region, request_, options, target", [
    ("helsinki", "Which is nearer by road to Lasipalatsi: Kansallisarkisto or Ateneum?",
     ["Kansallisarkisto", "Ateneum"], "Lasipalatsi"),
    ("helsinki", "Bockin talo or Kansallisarkisto - which one is closer to Rautatientori by road?",
     ["Bockin talo", "Kansallisarkisto"], "Rautatientori"),
    ("helsinki", "Is Lasipalatsi or Kansallisarkisto closer by road to Rautatientori?",
     ["Lasipalatsi", "Kansallisarkisto"], "Rautatientori"),
])
def test_which_is_closer_agrees_with_the_shortest_between_features_so_named(tmp_path, region, request_, options,
                                                                            target):
    out = answer_request(request_, default_registry(tmp_path / "ws"), None, region)
    dists = sorted((_shortest(region, o, target), o) for o in options)
    assert dists[1][0] - dists[0][0] > 20.0   # a clear winner, so the test is about which, not rounding
    item = {"region": region, "request": request_,
            "expect": {"kind": "compare_nearer", "to": target, "options": options}}
    verdict = judge(item, out)
    assert verdict["success"], (out.get("answer"), verdict)
    assert verdict["contradictions"] == []


def test_the_judge_counts_around_any_feature_of_a_name_as_it_routes_from_any():
    """The judge's rule for a name with several features ("any of them is right", as for nearest and
    route) holds for counts within a radius too: it took only the first feature so named before."""
    import numpy as np

    from cityplanner.plugin.agent.ask.judge import pois

    cafes = pois("helsinki", "business", "amenity=cafe")
    counts = [sum(1 for p in cafes if p[0] != c[0] and np.hypot(p[2] - c[2], p[3] - c[3]) <= 300.0)
              for c in place_points("helsinki", "Lasipalatsi")]
    assert len(set(counts)) > 1   # the features so named do differ in what lies around them
    item = {"region": "helsinki", "expect": {"kind": "count_within", "of": "Lasipalatsi", "category": "business",
                                             "radius_m": 300, "osm_tag": "amenity=cafe"}}

    def said(n: int) -> dict:
        return {"answer": f"There are {n} cafés within 300 m of Lasipalatsi.", "tool_calls": [], "request": ""}

    assert all(judge(item, said(n))["success"] for n in counts)
    assert not judge(item, said(max(counts) + 7))["success"]


@pytest.mark.parametrize("region, request_, present, absent, target", [
    ("helsinki", "Is the Ateneum or the Design Museum closer to Kiasma?", "Ateneum", "Design Museum", "Kiasma"),
    ("kotka", "Which is nearer to Kumparepuisto by road: Otsonkallio or Kotka Maritime Centre?", "Otsonkallio",
     "Kotka Maritime Centre", "Kumparepuisto"),
])
def test_a_comparison_with_an_option_the_data_lacks_measures_the_one_it_has(tmp_path, region, request_, present,
                                                                             absent, target):
    """A name absent from the data inside a compound: the part that can be answered is answered (the
    option the data has, measured by road) and the absent name is said to be missing — no winner."""
    out = answer_request(request_, default_registry(tmp_path / "ws"), None, region)
    reply = out.get("answer") or ""
    assert f"'{absent}' is not in the {region} data" in reply
    item = {"region": region, "expect": {"kind": "route", "from": present, "to": target}}
    assert judge(item, out)["success"], reply
    assert "Closer" not in reply and judge(item, out)["contradictions"] == []
