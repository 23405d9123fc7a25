"""Classes of the ask tenth half (issue 29, round 9a), each with phrasings of our own, answered end to
end by the rules (no model): a name with a slash is the data's one name; a route from a place to itself
is never a distance. Expected values come from the independent judge's own reading of the city (networkx
road distances over its graph), not from the tools under test."""
from __future__ import annotations

import pytest

from cityplanner.plugin.agent.ask import judge
from cityplanner.plugin.agent.ask.agent import answer_request
from cityplanner.plugin.agent.tools import default_registry
from cityplanner.plugin.city.names import name_index


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    return default_registry(tmp_path_factory.mktemp("ws"))


def _reply(out: dict) -> str:
    return out.get("answer") or out.get("clarification") or ""


def _feature(region: str, name: str):
    return next(f for f in name_index(region).features if f.name == name)


@pytest.mark.parametrize("region, request_text, a, b", [
    ("kotka", "Road distance from Otsonkallio to Reijon Diesel/Bosch Car service, please.", "Otsonkallio",
     "Reijon Diesel/Bosch Car service"),
    ("helsinki", "road distance between Waltzer Art/Doomwatch OY and Ateneum", "Waltzer Art/Doomwatch OY", "Ateneum"),
    ("helsinki", "How far by road is Hiv-säätiö / Aids-tukikeskus from Kiasma?", "Kiasma",
     "Hiv-säätiö / Aids-tukikeskus"),
])
def test_a_name_with_a_slash_is_one_name_and_the_other_end_stays(registry, region, request_text, a, b):
    out = answer_request(request_text, registry, None, region=region)
    fa, fb = _feature(region, a), _feature(region, b)
    d = judge.road_m(region, (fa.x, fa.y), (fb.x, fb.y))
    reply = _reply(out)
    assert a in reply and b in reply and judge.says_distance(reply, d), (reply, d)


@pytest.mark.parametrize("region, request_text", [
    ("helsinki", "Route from Stockmann to Stockmann department store"),
    ("helsinki", "road distance between Oodi and Helsinki Central Library Oodi"),
])
def test_a_route_from_a_place_to_itself_is_no_distance(registry, region, request_text):
    reply = _reply(answer_request(request_text, registry, None, region=region))
    assert "same place" in reply and " 0 m" not in reply, reply
