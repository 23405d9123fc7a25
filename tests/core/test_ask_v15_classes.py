"""Classes of the ask fifteenth half (issue 29, round 14), each with phrasings of our own, answered end to
end by the rules (no model) and checked by the independent judge (``judge.py``: its own reading of the city,
networkx road distances, shapely areas), not by the tools under test: "it" after an ended question that opens
by adding to it ("also …") is the place both questions are about."""
from __future__ import annotations

import pytest

from cityplanner.plugin.agent.ask import judge
from cityplanner.plugin.agent.ask.agent import answer_request
from cityplanner.plugin.agent.tools import default_registry

from .test_ask_v9_classes import _reply


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    return default_registry(tmp_path_factory.mktemp("ws"))


def _judged(registry, region: str | None, request: str, expect: dict) -> tuple[bool, str, dict]:
    out = {**answer_request(request, registry, None, region=region), "workspace_root": str(registry.ctx.root)}
    verdict = judge.judge({"id": "own", "region": region, "request": request, "expect": expect}, out)
    return verdict["success"], _reply(out), out


@pytest.mark.parametrize("region, request_text, search, count, of", [
    # a question that opens by adding to the one before ("also", "plus", "lisäksi"): "it" is the place both ask about
    ("helsinki", "Kiasma: closest pharmacy from there? also how many cafés within 300 m of it",
     {"kind": "nearest", "from": "Kiasma", "category": "clinic", "measure": "road_m", "osm_tag": "amenity=pharmacy"},
     {"kind": "count_within", "category": "business", "radius_m": 300, "osm_tag": "amenity=cafe"}, "Kiasma"),
    ("kotka", "nearest school to Otsonkallio? Plus the number of car parks within 800 m of it",
     {"kind": "nearest", "from": "Otsonkallio", "category": "school", "measure": "road_m"},
     {"kind": "count_within", "category": "parking", "radius_m": 800}, "Otsonkallio"),
    ("helsinki", "lähin apteekki Ateneumista? lisäksi montako kahvilaa 200 metrin päässä siitä",
     {"kind": "nearest", "from": "Ateneum", "category": "clinic", "measure": "road_m", "osm_tag": "amenity=pharmacy"},
     {"kind": "count_within", "category": "business", "radius_m": 200, "osm_tag": "amenity=cafe"}, "Ateneum"),
    # "and" after the question goes on from what it found (the thirteenth half's reading, kept)
    ("helsinki", "closest pharmacy to Kiasma? and how many cafés within 300 m of it",
     {"kind": "nearest", "from": "Kiasma", "category": "clinic", "measure": "road_m", "osm_tag": "amenity=pharmacy"},
     {"kind": "count_within", "category": "business", "radius_m": 300, "osm_tag": "amenity=cafe"},
     "<result of part 1>"),
])
def test_it_after_an_ended_question_follows_also_or_and(registry, region, request_text, search, count, of):
    ok, reply, _ = _judged(registry, region, request_text, {"kind": "all", "parts": [search, {**count, "of": of}]})
    assert ok, reply


@pytest.mark.parametrize("region, request_text, missing, option, target", [
    # the first option of a list after a colon is a name, not a sentence's first word: one the data lacks is said
    # to be missing and the option the data has is still measured (no winner claimed)
    ("helsinki", "Which one is nearer to Kiasma by road: Espoo or Ateneum?", "Espoo", "Ateneum", "Kiasma"),
    ("kotka", "Which is closer to Otsonkallio: Hamina, Kumparepuisto or Karhulan kirkko?", "Hamina", "Kumparepuisto",
     "Otsonkallio"),
    ("helsinki", "Kumpi on lähempänä Kiasmaa: Porvoo vai Ateneum?", "Porvoo", "Ateneum", "Kiasma"),
])
def test_an_option_outside_the_data_is_said_and_the_other_still_measured(registry, region, request_text, missing,
                                                                          option, target):
    ok, reply, _ = _judged(registry, region, request_text, {"kind": "absent_name", "name": missing})
    a, b = judge.place_points(region, option)[0], judge.place_points(region, target)[0]
    assert ok and judge.says_distance(reply, judge.road_m(region, (a[2], a[3]), (b[2], b[3]))), reply
    assert "Closer by road" not in reply, reply


@pytest.mark.parametrize("region, request_text, parts", [
    # money said as background after a few words of lead, or written with a decimal point: the questions are
    # answered and no plan is made or asked for
    ("kotka", "A couple of checks before we commit 1.5M to roads: how many schools are there, and the nearest fuel "
              "station to Otsonkallio?",
     [{"kind": "count", "category": "school"}, {"kind": "nearest", "from": "Otsonkallio", "category": "fuel",
                                                "measure": "road_m"}]),
    ("kotka", "Kaksi asiaa ennen kuin käytämme 0,3 M€: montako koulua on, ja lähin huoltoasema Otsonkalliosta?",
     [{"kind": "count", "category": "school"}, {"kind": "nearest", "from": "Otsonkallio", "category": "fuel",
                                                "measure": "road_m"}]),
    ("helsinki", "Budget is 1.5 M€ but first: how many cafés are in Kluuvi?",
     [{"kind": "count", "category": "business", "osm_tag": "amenity=cafe", "area": "Kluuvi"}]),
])
def test_money_said_as_background_leaves_the_questions(registry, region, request_text, parts):
    ok, reply, out = _judged(registry, region, request_text, {"kind": "all", "parts": parts})
    assert ok and "kind of plan" not in reply, reply
    assert not any(c["tool"] == "build_instance" for c in out["tool_calls"]), out["tool_calls"]


@pytest.mark.parametrize("region, request_text, expect", [
    # a region's centre said in a plan request is the plan's area (the region), not a name to look up: the kind of
    # plan is asked with the budget read back, or the plan is made
    ("helsinki", "Could we get a plan for Helsinki City Center, 1 M€?",
     {"kind": "clarify", "missing": ["task"], "budget_keur": 1000}),
    ("kotka", "A plan for the Kotka town centre with 400k, please.",
     {"kind": "clarify", "missing": ["task"], "budget_keur": 400}),
    ("helsinki", "a road plan for the Helsinki city centre, 300k", {"kind": "plan", "task": "road", "budget_keur": 300}),
])
def test_a_plan_for_a_region_centre_is_a_plan_of_the_region(registry, region, request_text, expect):
    ok, reply, _ = _judged(registry, region, request_text, expect)
    assert ok and "not in the" not in reply, reply


def test_a_region_centre_outside_a_plan_stays_a_name(registry):
    # no plan asked: the phrase is looked up as written (the data's Keskusta is suggested), never the whole region
    ok, reply, _ = _judged(registry, "helsinki", "how many cafés in the Helsinki city centre?",
                           {"kind": "absent_name", "name": "Helsinki city centre"})
    assert ok, reply
