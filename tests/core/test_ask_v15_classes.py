"""Classes of the ask fifteenth half (issue 29, round 14), each with phrasings of our own, answered end to
end by the rules (no model) and checked by the independent judge (``judge.py``: its own reading of the city,
networkx road distances, shapely areas), not by the tools under test: "it" after an ended question that opens
by adding to it ("also …") is the place both questions are about; an option outside the data in a comparison is
said missing and the other still measured; money said as background leaves the questions; a plan for a region's
centre is a plan of the region; kinds joined in one count are counted together first, then each."""
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


def _union(region: str, kinds: list[tuple[str, str | None]], area: str | None = None, around: str | None = None,
           radius: float = 0.0) -> int:
    """How many places of any of ``kinds`` the judge's own reading of the city finds in ``area`` (or within
    ``radius`` of ``around``), each place once."""
    import numpy as np

    ids = set()
    for category, tag in kinds:
        pts = judge.pois(region, category, tag)
        if around:
            c = judge.place_points(region, around)[0]
            pts = [p for p in pts if p[0] != c[0] and np.hypot(p[2] - c[2], p[3] - c[3]) <= radius]
        ids |= {p[0] for p in judge.in_area(region, area, pts)}
    return len(ids)


@pytest.mark.parametrize("region, request_text, kinds, area", [
    # kinds joined in one count: the total first (each place once), the whole category where it holds more, then
    # each kind's count
    ("helsinki", "How many cafés, bars and restaurants are on Bulevardi?",
     [("business", "amenity=cafe"), ("business", "amenity=bar"), ("business", "amenity=restaurant")], "Bulevardi"),
    ("helsinki", "pubs + cafés in Kaisaniemi: how many?", [("business", "amenity=pub"), ("business", "amenity=cafe")],
     "Kaisaniemi"),
    ("helsinki", "montako kahvilaa ja ravintolaa on Kluuvissa?",
     [("business", "amenity=cafe"), ("business", "amenity=restaurant")], "Kluuvi"),
])
def test_kinds_joined_in_one_count_give_the_total_first_then_each(registry, region, request_text, kinds, area):
    parts = [{"kind": "count", "category": c, "osm_tag": t, "area": area} for c, t in kinds]
    ok, reply, _ = _judged(registry, region, request_text,
                           {"kind": "all", "parts": [{"kind": "count", "category": kinds[0][0], "area": area}, *parts]})
    first = reply.splitlines()[0]
    assert ok and "together" in first and judge.has_count(first, _union(region, kinds, area)), reply


def test_kinds_joined_around_a_place_are_counted_together(registry):
    kinds = [("clinic", "amenity=pharmacy"), ("clinic", "amenity=dentist")]
    ok, reply, _ = _judged(registry, "helsinki", "how many pharmacies & dentists within 300 m of Ateneum?",
                           {"kind": "all", "parts": [{"kind": "count_within", "of": "Ateneum", "category": c,
                                                      "osm_tag": t, "radius_m": 300} for c, t in kinds]})
    line = next(s for s in reply.splitlines() if "together" in s)
    assert ok and judge.has_count(line, _union("helsinki", kinds, around="Ateneum", radius=300)), reply


@pytest.mark.parametrize("request_text", [
    "more cafés or restaurants on Bulevardi?",
    "cafés and restaurants on Bulevardi: how many of each?",
    "kahvilat ja ravintolat Bulevardilla – montako kumpaakin?",
])
def test_kinds_counted_apart_or_compared_get_no_total(registry, request_text):
    out = answer_request(request_text, registry, None, region="helsinki")
    assert "together" not in _reply(out) and "count.kinds-total" not in out["task"]["trace"], _reply(out)
