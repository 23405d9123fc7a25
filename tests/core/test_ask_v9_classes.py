"""Classes of the ask ninth half (issue 29, round 8), each with phrasings of our own, answered end to
end by the rules (no model): "of it" after a nearest-search joined by a bare "plus" counts around the
named place (and says so); "between the two" is the route between the two places a search found, or
said not to be two; Finnish -nen / -as names inflected are the data's names. Expected values come from
the independent judge's own reading of the city (its POIs with their OSM tags, networkx road distances),
not from the tools under test."""
from __future__ import annotations

import numpy as np
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


@pytest.mark.parametrize("region, request_text, centre, radius, category, tag", [
    ("helsinki", "closest library to Kiasma, plus how many cafés within 300 m of it?", "Kiasma", 300.0,
     "business", "amenity=cafe"),
    ("kotka", "nearest fuel station to Otsonkallio and also the schools within 1 km of it", "Otsonkallio", 1000.0,
     "school", None),
])
def test_of_it_after_a_bare_plus_or_and_counts_around_the_named_place(registry, region, request_text, centre,
                                                                       radius, category, tag):
    out = answer_request(request_text, registry, None, region=region)
    c = _feature(region, centre)
    n = sum(1 for p in judge.pois(region, category, tag) if p[0] != c.id and np.hypot(p[2] - c.x, p[3] - c.y) <= radius)
    reply = _reply(out)
    assert f"within {radius:g} m of {centre}" in reply, reply
    line = next(s for s in reply.splitlines() if f"of {centre}" in s and "within" in s)
    assert (f"There are {n} " in line) or (n == 0 and "no " in line.lower()) or (n == 1 and "There is 1 " in line), line


def test_between_the_two_is_the_route_between_the_two_found(registry):
    out = answer_request("Should Kotka have fewer than two fuel stations, plan chargers with 300k; otherwise "
                         "how far apart are they by road, between the two?", registry, None, region="kotka")
    fuel = [f for f in name_index("kotka").features if f.kind == "poi" and f.category == "fuel"]
    reply = _reply(out)
    if len(fuel) != 2:
        pytest.skip(f"the bundled Kotka extract has {len(fuel)} fuel stations")
    d = judge.road_m("kotka", (fuel[0].x, fuel[0].y), (fuel[1].x, fuel[1].y))
    assert "which is not < 2" in reply and f"{d:.1f} m" in reply, (reply, d)
    assert not any(c["tool"] == "build_instance" for c in out["tool_calls"])


def test_between_the_two_when_the_search_found_another_number_is_said(registry):
    cinemas = [f for f in name_index("helsinki").features if f.kind == "poi" and f.category == "recreation"
               and dict(f.tags).get("amenity") == "cinema"]
    out = answer_request("list the cinemas in Helsinki, then the road distance between the two", registry, None,
                         region="helsinki")
    reply = _reply(out)
    assert len(cinemas) != 2 and f"'the two' are not two places: that search found {len(cinemas)}" in reply, reply
    assert not any(c["tool"] == "route" for c in out["tool_calls"])


@pytest.mark.parametrize("request_text, origin", [
    ("Väinämöiseltä lähin apteekki", "Väinämöinen"),
    ("lähin kahvila Kolera-altaalta", "Kolera-allas"),
])
def test_an_inflected_finnish_name_is_searched_from(registry, request_text, origin):
    out = answer_request(request_text, registry, None, region="helsinki")
    reply = _reply(out)
    assert f"to {origin} is " in reply and "not in the" not in reply, reply
