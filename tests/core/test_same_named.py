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
