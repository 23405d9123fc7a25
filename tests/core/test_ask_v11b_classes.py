"""Classes of the ask eleventh half (issue 29, round 10b), each with phrasings of our own, answered end to
end by the rules (no model) and checked by the independent judge (``judge.py``: its own reading of the city,
networkx road distances, shapely areas), not by the tools under test: an area named in an exists / count /
list question is where it looks; "is A or B closer to C" compares; lists and counts within a distance of a
place (also in a condition's branch); two kinds of one category counted together get their total; two
places that join the road network at one point are said so."""
from __future__ import annotations

import re

import pytest

from cityplanner.plugin.agent.ask import judge
from cityplanner.plugin.agent.ask.agent import answer_request
from cityplanner.plugin.agent.tools import default_registry
from cityplanner.plugin.city.names import name_index

from .test_ask_v9_classes import _reply


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    return default_registry(tmp_path_factory.mktemp("ws"))


def _judged(registry, region: str, request: str, expect: dict) -> tuple[bool, str]:
    out = answer_request(request, registry, None, region=region)
    verdict = judge.judge({"id": "own", "region": region, "request": request, "expect": expect}, out)
    return verdict["success"], _reply(out)


@pytest.mark.parametrize("region, request_text, expect", [
    ("helsinki", "Is there any café inside the Kirahvi block?",
     {"kind": "exists", "category": "business", "osm_tag": "amenity=cafe", "area": "Kirahvi"}),
    ("helsinki", "Any bank within the Leijona block?",
     {"kind": "exists", "category": "business", "osm_tag": "amenity=bank", "area": "Leijona"}),
    ("helsinki", "How many cafés are there inside the Seepra block?",
     {"kind": "count", "category": "business", "osm_tag": "amenity=cafe", "area": "Seepra"}),
    ("helsinki", "is there a charging point inside the Keltanokka block at all?",
     {"kind": "exists", "category": "charging", "area": "Keltanokka"}),
    ("kotka", "Is there a school inside Helilä?", {"kind": "exists", "category": "school", "area": "Helilä"}),
    ("kotka", "How many car parks are there inside Malminki?", {"kind": "count", "category": "parking", "area": "Malminki"}),
])
def test_an_area_named_is_where_the_question_looks(registry, region, request_text, expect):
    ok, reply = _judged(registry, region, request_text, expect)
    assert ok, reply
    assert f"in {expect['area']}" in reply and "data's CRS" in reply, reply   # the area and its bounds are said


def test_places_that_are_neither_area_nor_centre_are_asked_about_never_the_whole_region(registry):
    reply = _reply(answer_request("how many cafés between Kiasma and Oodi?", registry, None, region="helsinki"))
    assert "where to look" in reply and "Kiasma" in reply, reply
    assert not any(ch.isdigit() for ch in reply.split("where to look")[0]), reply   # no count over the region


@pytest.mark.parametrize("region, request_text, expect", [
    ("helsinki", "is Stadium or Zara closer to Ooster? by road",
     {"kind": "compare_nearer", "to": "Ooster", "options": ["Stadium", "Zara"]}),
    ("helsinki", "I'd like to know whether Ateneum or Stockmann is nearer to Kiasma by road — which one, and how far?",
     {"kind": "compare_nearer", "to": "Kiasma", "options": ["Ateneum", "Stockmann"]}),
    ("helsinki", "is Ateneum nearer to Kiasma than Stockmann?",
     {"kind": "compare_nearer", "to": "Kiasma", "options": ["Ateneum", "Stockmann"]}),
    ("helsinki", "Ateneum vai Stockmann, kumpi on lähempänä Kiasmaa?",
     {"kind": "compare_nearer", "to": "Kiasma", "options": ["Ateneum", "Stockmann"]}),
    ("kotka", "Is Otsonkallio or Neste Huttunen closer to Malminki? by road, which one and how far",
     {"kind": "compare_nearer", "to": "Malminki", "options": ["Otsonkallio", "Neste Huttunen"]}),
])
def test_a_comparison_of_two_places_to_a_third(registry, region, request_text, expect):
    ok, reply = _judged(registry, region, request_text, expect)
    assert ok, reply
    assert "need" not in reply, reply   # nothing asked: both distances are stated


@pytest.mark.parametrize("region, request_text, expect", [
    ("helsinki", "Please list the theatres within half a kilometre of Stadium.",
     {"kind": "list", "category": "recreation", "osm_tag": "amenity=theatre", "area": None,
      "within": {"of": "Stadium", "radius_m": 500}}),
    ("kotka", "show me the fuel stations within 2 km of Otsonkallio",
     {"kind": "list", "category": "fuel", "area": None, "within": {"of": "Otsonkallio", "radius_m": 2000}}),
    ("helsinki", "Onko Kiasman lähellä apteekkia?",
     {"kind": "count_within", "of": "Kiasma", "category": "clinic", "osm_tag": "amenity=pharmacy", "radius_m": 500}),
    ("kotka", "any school near Malminginkatu (within 800 m)? if so, how far is the nearest by road; if not, how "
              "many fuel stations are within 800 m",
     {"kind": "conditional",
      "if": {"kind": "count_within", "of": "Malminginkatu", "category": "school", "radius_m": 800},
      "then": {"kind": "nearest", "from": "Malminginkatu", "category": "school", "measure": "road_m"},
      "else": {"kind": "count_within", "of": "Malminginkatu", "category": "fuel", "radius_m": 800}}),
    ("helsinki", "is there a pharmacy near Stadium, say within 150 m? if yes the nearest one by road, if not how "
                 "many banks are within 150 m",
     {"kind": "conditional",
      "if": {"kind": "count_within", "of": "Stadium", "category": "clinic", "osm_tag": "amenity=pharmacy",
             "radius_m": 150},
      "then": {"kind": "nearest", "from": "Stadium", "category": "clinic", "osm_tag": "amenity=pharmacy",
               "measure": "road_m"},
      "else": {"kind": "count_within", "of": "Stadium", "category": "business", "osm_tag": "amenity=bank",
               "radius_m": 150}}),
    ("kotka", "onko Otsonkallion lähellä parkkipaikkaa 600 metrin säteellä? jos on, lähin tietä pitkin; jos ei, "
              "montako koulua on 600 m säteellä",
     {"kind": "conditional",
      "if": {"kind": "count_within", "of": "Otsonkallio", "category": "parking", "radius_m": 600},
      "then": {"kind": "nearest", "from": "Otsonkallio", "category": "parking", "measure": "road_m"},
      "else": {"kind": "count_within", "of": "Otsonkallio", "category": "school", "radius_m": 600}}),
])
def test_lists_and_counts_within_a_distance_of_a_place(registry, region, request_text, expect):
    ok, reply = _judged(registry, region, request_text, expect)
    assert ok, reply


@pytest.mark.parametrize("region, request_text, kinds, area", [
    ("helsinki", "How many shops and cafés are on Rikhardinkatu?", (("business", "shop=*"), ("business", "amenity=cafe")),
     "Rikhardinkatu"),
    ("helsinki", "cafés and bars on Yrjönkatu: how many?", (("business", "amenity=cafe"), ("business", "amenity=bar")),
     "Yrjönkatu"),
    ("kotka", "montako kahvilaa ja ravintolaa Malmingissa?",
     (("business", "amenity=cafe"), ("business", "amenity=restaurant")), "Malminki"),
])
def test_kinds_of_one_category_counted_together_each_with_its_count_and_no_number_of_our_own(
        registry, region, request_text, kinds, area):
    """Each kind's count is said in a sentence of its own, and every number in the reply is one a tool returned:
    the kinds' total (round 14) is the count of one call for all the kinds, never a sum of ours."""
    tags = name_index(region).poi_tags

    def of_kind(category: str, tag: str) -> list:   # "shop=*": any value of the key (the judge's filter has no '*')
        key, value = tag.split("=")
        return [p for p in judge.pois(region, category) if tags.get(p[0], {}).get(key) and value in ("*", tags[p[0]][key])]

    each = [{p[0] for p in judge.in_area(region, area, of_kind(c, t))} for c, t in kinds]
    record = answer_request(request_text, registry, None, region=region)
    reply = _reply(record)
    for (_, tag), e in zip(kinds, each, strict=True):   # the count stated in the sentence of its own kind, not anywhere
        said = re.findall(rf"There (?:is|are) (\d+|no) [^(\n]*\([^)\n]*{re.escape(tag)}\)", reply)
        assert said == [str(len(e)) if e else "no"], (tag, said, reply)
    assert not judge.contradictions(record), judge.contradictions(record)


@pytest.mark.parametrize("region, request_text, expect", [
    ("helsinki", "nearest doctor to Aikatalo", {"kind": "nearest", "from": "Aikatalo", "category": "clinic",
                                                 "osm_tag": "amenity=doctors|clinic", "measure": "road_m"}),
    ("helsinki", "road distance from Aikatalo to Vita Lääkäriasema", {"kind": "route", "from": "Aikatalo",
                                                                      "to": "Vita Lääkäriasema"}),
])
def test_two_places_joining_the_road_at_one_point_are_said_so(registry, region, request_text, expect):
    ok, reply = _judged(registry, region, request_text, expect)
    assert ok, reply   # the road distance (0 m) is still stated, with the straight one
    assert "join the road network at the same point" in reply and "0 m by road" not in reply, reply
