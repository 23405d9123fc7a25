"""Classes of the ask twelfth half (issue 29, round 11b), each with phrasings of our own, answered end to
end by the rules (no model) and checked by the independent judge (``judge.py``: its own reading of the city,
networkx road distances, shapely areas), not by the tools under test: a data name that holds a parenthesis
or an "@" is that place, whole (never a look-alike's alias); a sentence is said once."""
from __future__ import annotations

import pytest

from cityplanner.plugin.agent.ask import judge
from cityplanner.plugin.agent.ask.agent import answer_request
from cityplanner.plugin.agent.tools import default_registry

from .test_ask_v9_classes import _reply


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    return default_registry(tmp_path_factory.mktemp("ws"))


def _judged(registry, region: str | None, request: str, expect: dict) -> tuple[bool, str]:
    out = answer_request(request, registry, None, region=region)
    verdict = judge.judge({"id": "own", "region": region, "request": request, "expect": expect}, out)
    return verdict["success"], _reply(out)


@pytest.mark.parametrize("region, request_text, expect, wrong", [
    ("helsinki", "1) how far is Kiasma from Ravintola Aino (Finnish cuisine)? 2) any pharmacies on Mannerheimintie?",
     {"kind": "route", "from": "Kiasma", "to": "Ravintola Aino (Finnish cuisine)"}, "read as"),
    # the part before the parenthesis: that restaurant, not Himshikhar, whose alias is "Basecamp"
    ("helsinki", "road distance from Base Camp to Kiasma", {"kind": "route", "from": "Base Camp (Nepalese cuisine)",
                                                            "to": "Kiasma"}, "Himshikhar"),
    ("helsinki", "Kuinka pitkä matka on Rivoli (Jardin) ja Kiasma välillä tietä pitkin?",
     {"kind": "route", "from": "Rivoli (Jardin)", "to": "Kiasma"}, "same place"),
    ("helsinki", "distance from Stop@Station to Frankly My Dear (Preloved clothes)",
     {"kind": "route", "from": "Stop@Station", "to": "Frankly My Dear (Preloved clothes)"}, "Before I act"),
])
def test_a_data_name_with_a_parenthesis_is_that_place_whole(registry, region, request_text, expect, wrong):
    ok, reply = _judged(registry, region, request_text, expect)
    assert ok and wrong not in reply, reply


@pytest.mark.parametrize("region, request_text, pair", [
    ("helsinki", "Please give me (1) the nearest café to Codento Oy by road and (2) the number of banks within 350 m "
                 "of Planera.", ("Codento Oy", "Café Metro")),
    ("helsinki", "closest café to Codento Oy by road, and how far is it?", ("Codento Oy", "Café Metro")),
    ("helsinki", "nearest doctor to Aikatalo by road", ("Aikatalo", "Vita Lääkäriasema")),
])
def test_two_places_joined_at_one_point_are_said_so_once(registry, region, request_text, pair):
    out = answer_request(request_text, registry, None, region=region)
    reply = _reply(out)
    # the judge's own road distance between the two: 0 m, so the sentence is due — once
    a, b = (judge.place_points(region, n)[0] for n in pair)
    assert judge.road_m(region, (a[2], a[3]), (b[2], b[3])) == 0, reply
    assert reply.count("both join the road network at the same point") == 1, reply


@pytest.mark.parametrize("region, request_text, name", [
    # a building the data lacks, said in a Finnish local case: its name with the noun in its base form
    ("kotka", "montako kahvilaa on Karhulan kirjastolla 500 m säteellä?", "Karhulan kirjasto"),
    ("helsinki", "Onko Töölön kirjastolla lähellä apteekkia?", "Töölön kirjasto"),
    ("kotka", "lähin apteekki Langinkosken asemalta", "Langinkosken asema"),
    # never a look-alike's route ("Kampin kappeli" for "Kampin koululta")
    ("helsinki", "Kuinka kaukana Kampin koululta on Kiasma?", "Kampin koulu"),
    # no region: a building no loaded region has is outside the data, not a question for the region
    (None, "nearest pharmacy to Porvoon sairaala by road", "Porvoon sairaala"),
    (None, "how far is Loviisa harbour from the closest school?", "Loviisa harbour"),
    (None, "Kuinka kaukana on Haminan lukiosta lähin kahvila?", "Haminan lukio"),
])
def test_a_building_the_data_lacks_is_said_absent_by_its_base_name(registry, region, request_text, name):
    ok, reply = _judged(registry, region, request_text, {"kind": "absent_name", "name": name})
    assert ok and "By road" not in reply and "Before I act" not in reply, reply


@pytest.mark.parametrize("region, request_text, centre, radius, listed", [
    ("helsinki", "how many parks are there within 400 m of Kiasma?", "Kiasma", 400, False),
    ("helsinki", "montako puistoa on 300 metrin säteellä Ateneumista?", "Ateneum", 300, False),
    ("kotka", "list the parks within 800 m of Otsonkallio", "Otsonkallio", 800, True),
    ("kotka", "how many parks within 1 km of Helilän koulu", "Helilän koulu", 1000, False),
])
def test_parks_within_a_distance_give_the_parks_and_every_green_area(registry, region, request_text, centre, radius,
                                                                     listed):
    # both meanings of "park", each counted by the judge itself: mapped parks (leisure=park) and every green area
    kind = "list" if listed else "count_within"
    for tag in ("leisure=park", None):
        expect = {"kind": kind, "category": "green", "osm_tag": tag}
        expect.update({"area": None, "within": {"of": centre, "radius_m": radius}} if listed
                      else {"of": centre, "radius_m": radius})
        ok, reply = _judged(registry, region, request_text, expect)
        assert ok, (tag, reply)
    out = answer_request(request_text, registry, None, region=region)
    assert not judge.contradictions(out), judge.contradictions(out)
