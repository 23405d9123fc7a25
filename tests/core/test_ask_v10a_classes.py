"""Classes of the ask tenth half (issue 29, round 9a), each with phrasings of our own, answered end to
end by the rules (no model): a name with a slash is the data's one name; a route from a place to itself
is never a distance. Expected values come from the independent judge's own reading of the city (networkx
road distances over its graph), not from the tools under test."""
from __future__ import annotations

import pytest

from cityplanner.plugin.agent.ask import judge
from cityplanner.plugin.agent.ask.agent import answer_request
from cityplanner.plugin.agent.tools import default_registry

from .test_ask_v9_classes import _feature, _reply


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    return default_registry(tmp_path_factory.mktemp("ws"))


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


@pytest.mark.parametrize("written, long", [
    ("then dist. to Think Corner", "then distance to Think Corner"),
    ("car parks w/in 450 m", "car parks within 450 m"),
    ("no. of cafés, approx. 2 km's", "number of cafés, approximately 2 km"),
    ("Nr of schools pls", "number of schools please"),
    ("no. 5 and no more", "no. 5 and no more"),   # "no." is "number" only before "of"
    ("District 9 distance", "District 9 distance"),   # whole words only
])
def test_short_forms_are_read_long(written, long):
    from cityplanner.plugin.city.lexicon import expand_short_forms
    assert expand_short_forms(written).casefold() == long.casefold()


@pytest.mark.parametrize("region, request_text, origin, kind_tag, dest", [
    ("kotka", "Otsonkallio: nearest fuel station, then dist. to Kumparepuisto pls", "Otsonkallio", ("fuel", None),
     "Kumparepuisto"),
    ("helsinki", "Stockmann: closest bank, then approx. dist. to Ateneum", "Stockmann", ("business", "amenity=bank"),
     "Ateneum"),
])
def test_an_abbreviation_ends_no_part(registry, region, request_text, origin, kind_tag, dest):
    """The route after "dist." is answered: from the facility the search found (the judge's nearest by
    road among the data's POIs of that kind) to the destination, by road."""
    out = answer_request(request_text, registry, None, region=region)
    o, d = _feature(region, origin), _feature(region, dest)
    cands = [p for p in judge.pois(region, *kind_tag) if p[0] != o.id]
    near = min(cands, key=lambda p: judge.road_m(region, (o.x, o.y), (p[2], p[3])))
    dist = judge.road_m(region, (near[2], near[3]), (d.x, d.y))
    reply = _reply(out)
    assert dest in reply and judge.says_distance(reply, dist), (reply, dist)


def test_a_part_no_rule_reads_is_asked_not_dropped(registry):
    out = answer_request("nearest school to Otsonkallio, then lngth to Kumparepuisto", registry, None, region="kotka")
    assert "clarification" in out and "lngth to Kumparepuisto" in out["clarification"], out


@pytest.mark.parametrize("region, request_text, centre, radius, category, tag", [
    ("kotka", "If there is a fuel station within 3 km of Otsonkallio, name the nearest one; else nothing.", "Otsonkallio",
     3000.0, "fuel", None),
    ("helsinki", "if there's a bank within 300 m of Stockmann, how far is it by road? if not, no worries", "Stockmann",
     300.0, "business", "amenity=bank"),
    ("helsinki", "Jos Kiasmasta on kahvila 200 m säteellä, kerro lähin; muuten ei mitään.", "Kiasma", 200.0,
     "business", "amenity=cafe"),
])
def test_an_empty_branch_asks_nothing(registry, region, request_text, centre, radius, category, tag):
    """The condition is answered with the judge's count, the else-branch is said to ask nothing, and
    nothing is asked back."""
    out = answer_request(request_text, registry, None, region=region)
    c = _feature(region, centre)
    n = sum(1 for p in judge.pois(region, category, tag)
            if p[0] != c.id and ((p[2] - c.x) ** 2 + (p[3] - c.y) ** 2) ** 0.5 <= radius)
    reply = _reply(out)
    assert "clarification" not in out and "asks for nothing" in reply, reply
    assert f"the count is {n}," in reply, (reply, n)
