"""Names in instructions, read against the bundled data (issue 29, the classes of the fifth held-out
half, in names and places of our own): a misspelt name one slip from exactly one data name is read
as it and the reply says so; two names equally close stay a did-you-mean; a name the data lacks is
never read as a look-alike (every absent name of the judged dev sets, both regions); place nouns after
a name ("the Lohi city block", "the Sanomatalo building outline") are read past; an id the instance
lacks is asked with the numbers it has."""
from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from cityplanner.plugin import RESOURCES
from cityplanner.plugin.city import load_city
from cityplanner.plugin.city.names import name_index
from cityplanner.plugin.constraints.interpret import interpret
from cityplanner.plugin.constraints.resolve import (
    Clarify,
    _named,
    clearly_misspelt,
    one_closest_spelling,
    spelling_distance,
)
from cityplanner.plugin.tasks import task_class


@cache
def small(task: str):
    """The small helsinki instance of ``task`` (seed 0), built once per run."""
    return task_class(task).build(load_city("helsinki"), "small", seed=0)


@pytest.mark.parametrize("a, b, d", [
    ("kitten", "sitting", 3),               # the textbook pair
    ("kiasma", "kiasam", 1),                # two neighbours swapped: one slip
    ("martilankatu", "marttilankatu", 1),   # a letter dropped
    ("senaatintori", "senaatintori", 0),
    ("abc", "", 3),
])
def test_spelling_distance_counts_slips(a, b, d):
    assert spelling_distance(a, b) == d == spelling_distance(b, a)


@pytest.mark.parametrize("text, name", [
    ("no chargers within 200 m of Senaatintroi", "Senaatintori"),         # two letters swapped
    ("at least one charger within 300 m of Lasipalatsii", "Lasipalatsi"),  # a letter doubled
    ("at most two chargers within 250 m of Kaartinkaupunkki", "Kaartinkaupunki"),
])
def test_a_name_one_slip_from_one_data_name_is_read_as_it(text, name):
    it = interpret(text, small("station"))
    assert it.clarification is None
    (c,) = it.constraints
    said = re.search(r"of (\w+)$", text).group(1)
    assert c["target"]["name"] == name and f"read '{said}' as '{name}'" in c["note"]


@pytest.mark.parametrize("said, name", [("Suurniityy", "Suurniitty"), ("Heliän hautausmaa", "Helilän hautausmaa")])
def test_kotka_names_one_slip_off(said, name):
    f = one_closest_spelling(name_index("kotka"), said)
    assert f is not None and f.name == name


@pytest.mark.parametrize("said, name, kind", [
    # the one name one slip away is also another feature's alias (the station point "Helsinki" has the
    # alias "Helsingin päärautatieasema", the metro station the old name "Kaisaniemi", the street
    # Yliopistonkatu the alias "Hallituskatu"): one name, read as the feature whose own name it is
    ("Helsingin päärautatiasema", "Helsingin päärautatieasema", "building"),
    ("Kaisaniemmi", "Kaisaniemi", "place"),
    ("Hallitukatu", "Hallituskatu", "street"),
])
def test_a_slip_from_a_name_that_is_also_an_alias_is_that_name(said, name, kind):
    f = one_closest_spelling(name_index("helsinki"), said)
    assert f is not None and (f.name, f.kind) == (name, kind)


def test_two_names_equally_close_stay_a_question():
    # "Kapeeli" is one letter from both Kappeli and Kameeli: which one is the planner's to say
    it = interpret("no chargers within 200 m of Kapeeli", small("station"))
    assert not it.constraints
    assert "'Kapeeli' is not in the helsinki data" in it.clarification
    assert "Kappeli" in it.clarification and "Kameeli" in it.clarification


def _absent_names() -> list[str]:
    """Every name the judged dev sets (ask and instructions; never a half still held out) say is
    absent from the data."""
    from cityplanner.plugin.agent.ask.bench import load_heldout

    # the judged sets are the ones with a recorded line (a half still held out has none)
    record = json.loads((Path(__file__).parent / "data" / "judged_scores.json").read_text(encoding="utf-8"))
    names: set[str] = set()
    for split in sorted(set(record["ask"]) - {"tuning", "_about"}):
        text = json.dumps(load_heldout(split), ensure_ascii=False)
        names |= set(re.findall(r'"kind": "absent_name",\s*"name": "([^"]+)"', text))
    for split in ("dev", "v3_test", "v4_test", "v5_test"):
        items = json.loads((RESOURCES / "heldout" / f"instructions_{split}.json").read_text(encoding="utf-8"))["items"]
        for it in items:
            said = str(it["expect"].get("clarify", "")) if isinstance(it["expect"], dict) else ""
            m = re.match(r"'?(.+?)'? (?:is )?not in the", said)
            if m:
                names.add(m.group(1))
    return sorted(names)


def test_no_absent_name_of_the_judged_sets_is_read_as_a_look_alike():
    names = _absent_names()
    assert len(names) >= 40 and "Kamppi" in names   # the sets were read (a district one slip from "Komppi")
    read = []
    for n in names:
        for region in ("helsinki", "kotka"):
            if name_index(region).is_name(n):
                continue
            try:
                got = _named(region, n, None, False)
            except Clarify:
                continue
            read.append((region, n, got.label))
    assert read == []


@pytest.mark.parametrize("text, kind, name", [
    ("No business parcels may go inside the Lohi city block.", "outside_area", "Lohi"),
    ("keep offices out of the Sanomatalo building outline", "outside_area", "Sanomatalo"),
    ("At most one school inside the Kluuvi district area.", "count_max", "Kluuvi"),
])
def test_place_nouns_after_a_name_are_read_past(text, kind, name):
    (c,) = interpret(text, small("land")).constraints
    assert (c["kind"], c["target"]["name"]) == (kind, name)


def test_a_name_before_a_place_noun_is_a_name_not_part_of_one():
    # "Esplanadi" is only a part of "K-Market Esplanadi": "the Esplanadi park" is not that shop
    it = interpret("no chargers within 100 m of the Esplanadi park", small("station"))
    assert not it.constraints and "'Esplanadi park' is not in the helsinki data" in it.clarification


def test_an_id_the_instance_lacks_is_asked_with_the_numbers_it_has():
    land = small("land")
    faces = sorted({int(f) for f in land.candidates["face_id"]})
    lacking = next(k for k in range(1, 100) if k not in faces)
    it = interpret(f"block {lacking} → school", land)
    assert not it.constraints
    assert ", ".join(map(str, faces)) in it.clarification
    have = faces[0]
    (c,) = interpret(f"block {have} → school", land).constraints
    assert (c["kind"], c["target"]["id"], c["type"]) == ("lock_in", str(have), "school")


@cache
def kotka(task: str):
    """The small kotka instance of ``task`` (seed 0), built once per run."""
    return task_class(task).build(load_city("kotka"), "small", seed=0)


@pytest.mark.parametrize("region, task, text, name", [
    # a name, a kind noun and "boundary" / "edge" / "reuna": the name's outline (issue 29, sixth half)
    ("helsinki", "station", "no chargers within 150 m of the Lohi block edge", "Lohi"),
    ("helsinki", "land", "no offices within 100 m of the Leijona block's outer edge", "Leijona"),
    ("helsinki", "station", "at most one charger within 200 m of the Kirahvi kortteli boundary", "Kirahvi"),
    ("kotka", "road", "at most one new link within 300 m of the Kumparepuisto park boundary", "Kumparepuisto"),
    ("kotka", "land", "no schools within 250 m of Kumparepuiston reuna", "Kumparepuisto"),
    # a place noun and an adverb after the name, misspelt or not
    ("helsinki", "station", "No chargers in the Lohi block at all.", "Lohi"),
    ("helsinki", "road", "Keep new links off the Kirahvi kortteli completely", "Kirahvi"),
    ("helsinki", "land", "offices out of the Leijonna city block altogether", "Leijona"),
    # the edge noun before the name, with or without the name's kind word (issue 29, seventh half)
    ("kotka", "land", "please keep new parcels at least 100 m from the edge of Kumparepuisto park", "Kumparepuisto"),
    ("kotka", "station", "no chargers within 150 m of the edge of Kumparepuisto", "Kumparepuisto"),
    ("helsinki", "land", "no parcels within 100 m of the outline of the Kiasma building", "Kiasma"),
    ("helsinki", "station", "at least one charger within 300 m of the perimeter of Kaisaniemen puisto",
     "Kaisaniemen puisto"),
])
def test_edge_nouns_and_adverbs_after_a_name_are_read_past(region, task, text, name):
    inst = small(task) if region == "helsinki" else kotka(task)
    (c,) = interpret(text, inst).constraints
    assert c["target"]["name"] == name


def test_a_park_boundary_is_measured_from_the_park_outline():
    # the distance from "the Kumparepuisto park boundary" is the distance from the park's polygon, the
    # same as from "Kumparepuisto" itself (a polygon, not its point)
    road = kotka("road")
    (edge,) = interpret("no new links within 200 m of the Kumparepuisto park boundary", road).constraints
    (park,) = interpret("no new links within 200 m of Kumparepuisto", road).constraints
    assert edge["geometry"] == park["geometry"] and edge["geometry"].startswith(("POLYGON", "MULTIPOLYGON"))


@pytest.mark.parametrize("text", ["no chargers within 100 m of the Esplanadi park edge",
                                  "no chargers within 150 m of the edge of Esplanadi park",
                                  "no chargers within 150 m of Esplanadi park"])
def test_an_edge_noun_never_makes_a_part_of_a_longer_name_a_name(text):
    it = interpret(text, small("station"))
    assert not it.constraints and "not in the helsinki data" in it.clarification


@pytest.mark.parametrize("text, kind", [
    # the kind word after a park's name is the place's, no type of the instruction: every parcel kept off
    ("please keep new parcels at least 100 m from the edge of Kumparepuisto park", None),
    ("no parcels within 150 m of Kumparepuisto park", None),
    # a type said before the place stays that type
    ("no green parcels within 100 m of Kumparepuisto park", "green_s"),
])
def test_the_kind_word_of_a_named_park_is_no_type(text, kind):
    (c,) = interpret(text, kotka("land")).constraints
    assert c["target"]["name"] == "Kumparepuisto" and c.get("type") == kind


@pytest.mark.parametrize("text, want", [
    # "hospital" fits the two hospital types the land instance has: a constraint over both, said so
    ("No hospital parcels within 300 m of Ateneum.", "hospital"),
    ("at most one hospital", "hospital"),
    ("ei sairaaloita 300 m säteellä Kiasmasta", "hospital"),
    # a word of one type stays that type
    ("at least one large hospital", "hospital_l"),
])
def test_hospital_is_every_hospital_type_the_instance_offers(text, want):
    land = small("land")
    offered = sorted(t for t in set(land.candidates["type"]) if t.startswith("hospital"))
    assert offered == ["hospital_l", "hospital_s"]   # the instance distinguishes them
    (c,) = interpret(text, land).constraints
    assert c["type"] == want
    if want == "hospital":
        assert "covers hospital_l and hospital_s" in c["note"]


@pytest.mark.parametrize("region, written, linking, stem", [
    # one reading of Finnish stems (the name index's), for lookup and the instruction resolver alike
    ("helsinki", "Kiasmasta", False, "kiasma"),
    ("helsinki", "Kluuvissa", False, "kluuvi"),
    ("helsinki", "Stockmannista", False, "stockmann"),
    ("helsinki", "Stockmanni", True, "stockmann"),   # the linking vowel the rules leave
    ("helsinki", "Stockmanni", False, None),
    ("kotka", "Kumparepuiston", False, "kumparepuisto"),
    ("helsinki", "Kamppi", True, None),               # a name of its own, no "Kämp" with a vowel
    # consonant gradation: a case ending weakens the street word's t to d (issue 29, seventh half)
    ("kotka", "Urpukadulta", False, "urpukatu"),
    ("kotka", "Tervaskadusta", False, "tervaskatu"),
    ("kotka", "Otsonkadun", False, "otsonkatu"),
    ("kotka", "Otsonkedun", False, None),              # only a form the data has is taken
])
def test_one_reading_of_finnish_stems(region, written, linking, stem):
    assert name_index(region).case_stem(written, linking_vowel=linking) == stem


def _instance(region: str, task: str):
    """The small instance (seed 0) of ``region`` and ``task``."""
    return small(task) if region == "helsinki" else kotka(task)


def _read_as_one(region: str, task: str, text: str) -> dict:
    """The one constraint ``text`` is read as on the small instance of ``region`` and ``task`` (no question)."""
    it = interpret(text, _instance(region, task))
    assert it.clarification is None, it.clarification
    (c,) = it.constraints
    return c


@pytest.mark.parametrize("region, task, text, name", [
    # a place fronted (":", "→", "-", ",") and referred back to by its outline: that place, measured from its
    # outline, and the reply says so (issue 29, ninth half)
    ("helsinki", "land", "UPM building: no offices within 150 m of its outline", "UPM"),
    ("helsinki", "road", "The Kiasma building → at most one new link within 300 m of the building's footprint", "Kiasma"),
    ("helsinki", "station", "Sanomatalo - at most two chargers within 250 m of its edge", "Sanomatalo"),
    ("kotka", "land", "Kumparepuisto, no schools within 200 m of its boundary", "Kumparepuisto"),
    ("kotka", "road", "Kumparepuisto: ei uusia teitä 200 metrin säteellä sen reunasta", "Kumparepuisto"),
    ("kotka", "station", "Otsolan Koulu -> at most one charger within 250 m of its outline", "Otsolan Koulu"),
])
def test_a_fronted_place_referred_back_to_by_its_outline_is_that_place(region, task, text, name):
    c = _read_as_one(region, task, text)
    (alone,) = interpret(f"no candidates within 100 m of {name}", _instance(region, task)).constraints
    assert c["target"]["name"] == name and c["geometry"] == alone["geometry"]
    assert c["geometry"].startswith(("POLYGON", "MULTIPOLYGON"))   # the outline, not a point
    assert f"measured from the outline of {name}" in c["note"]


@pytest.mark.parametrize("region, task, text, name", [
    # a data name and a kind noun it lacks, when the kind agrees with the feature's tags (issue 29, ninth half)
    ("helsinki", "station", "no chargers within 200 m of the Havis Amanda statue", "Havis Amanda"),
    ("helsinki", "land", "no offices within 150 m of the Aleksis Kivi monument", "Aleksis Kiven muistopatsas"),
    ("helsinki", "road", "at most one new link within 200 m of the Stockmann building", "Stockmann"),
    ("helsinki", "station", "ei latausasemia 200 metrin säteellä Kiasman rakennuksesta", "Kiasma"),
    ("helsinki", "land", "no offices within 100 m of the Vanha kirkko church", "Vanha kirkko"),
    ("kotka", "station", "at least one charger within 300 m of the Otsolan Koulu building", "Otsolan Koulu"),
    ("kotka", "road", "no new links within 150 m of the Kumparepuisto park", "Kumparepuisto"),
    ("kotka", "land", "no offices within 150 m of the Kumparepuisto place", "Kumparepuisto"),   # a generic noun
    ("helsinki", "station", "Senaatintori, no chargers within 100 m of the square's edge", "Senaatintori"),
])
def test_a_name_and_a_kind_noun_that_agrees_is_that_name(region, task, text, name):
    c = _read_as_one(region, task, text)
    assert c["target"]["name"] == name


@pytest.mark.parametrize("region, task, text, said", [
    # the kind noun disagrees with what the data says the feature is: asked, never that feature
    ("helsinki", "station", "no chargers within 200 m of the Havis Amanda building", "an artwork, not a building"),
    ("helsinki", "land", "no offices within 200 m of the Kiasma park", "a public building, not a park"),
    ("helsinki", "road", "no new links within 100 m of the Albert Edelfelt church", "an artwork, not a church"),
    ("kotka", "road", "no new links within 200 m of the Kumparepuisto building", "a park, not a building"),
    ("kotka", "station", "at most one charger within 200 m of the Otsolan Koulu statue", "a public building, not a statue"),
    # a kind of two words (round 12) that disagrees with the feature's tags
    ("helsinki", "station", "at least one charger within 300 m of the Kiasma car park", "a public building, not a car park"),
    ("helsinki", "land", "no offices within 200 m of the Ressun lukio car park", "a school, not a car park"),
    ("kotka", "road", "no new links within 200 m of the Otsolan Koulu car park", "not a car park"),
])
def test_a_name_and_a_kind_noun_that_disagrees_is_asked(region, task, text, said):
    it = interpret(text, _instance(region, task))
    assert not it.constraints and said in it.clarification


@pytest.mark.parametrize("text", ["no chargers within 200 m of the Edelfelt statue",     # a part of a longer name
                                  "no chargers within 200 m of the Finlandia monument"])  # a part of a shop's name
def test_a_kind_noun_never_makes_a_part_or_look_alike_of_another_name_a_name(text):
    it = interpret(text, small("station"))
    assert not it.constraints and "not in the helsinki data" in it.clarification


def test_a_region_plan_is_the_instance_region_or_asked():
    # "Kotkan tiesuunnitelmassa": the plan of Kotka, no name "Kotkan"; said of a Helsinki instance, asked
    (c,) = interpret("Kotkan tiesuunnitelmassa enintään kolme uutta tietä", kotka("road")).constraints
    assert c["kind"] == "count_max" and c["count"] == 3 and c["type"] == "new" and "target" not in c
    it = interpret("Kotkan tiesuunnitelmassa enintään kolme uutta tietä", small("road"))
    assert not it.constraints and "about the kotka plan" in it.clarification


@pytest.mark.parametrize("region, task, text, kind, count, said, name", [
    # a bound run together or misspelt and a name one slip off: the bound as it stands for, the name read as the data
    # spells it and said so (issue 29, tenth half: "Atleast" was asked as a name)
    ("kotka", "station", "Atleast one charger within 300 m of Suurniityy", "count_min", 1, "Suurniityy", "Suurniitty"),
    ("kotka", "land", "atmost two offices within 400 m of Heliän hautausmaa", "count_max", 2, "Heliän hautausmaa",
     "Helilän hautausmaa"),
    ("helsinki", "road", "Atmost one new link within 300 m of Senaatintroi", "count_max", 1, "Senaatintroi",
     "Senaatintori"),
    ("helsinki", "station", "no more then 2 chargers within 250 m of Lasipalatsii", "count_max", 2, "Lasipalatsii",
     "Lasipalatsi"),
])
def test_a_misspelt_bound_and_a_misspelt_name(region, task, text, kind, count, said, name):
    c = _read_as_one(region, task, text)
    assert (c["kind"], c["count"], c["target"]["name"]) == (kind, count, name)
    assert f"read '{said}' as '{name}'" in c["note"]


@pytest.mark.parametrize("region, text", [
    # an emphasis and a count of a land type joined by "but": both stored, the count said in the reply (issue 29,
    # tenth half: read whole, "school" was left unread and the instruction asked)
    ("kotka", "ecology above all, but keep at least one school in the plan"),
    ("helsinki", "Ekologia on tärkeintä, mutta vähintään yksi koulu"),
])
def test_an_emphasis_and_a_count_of_a_land_type_are_both_said(region, text):
    from cityplanner.plugin.constraints.schema import summary

    it = interpret(text, _instance(region, "land"))
    assert it.clarification is None
    assert [summary(c) for c in it.constraints] == ["emphasise ecology (weight 0.5)", "at least 1 school"]


@pytest.mark.parametrize("region, task, text, kind, name", [
    # an abbreviation's Finnish case after a colon and a kind noun ("EY:n rakennuksesta", "KPMG:n talosta"): the data
    # name the abbreviation is (issue 29, eleventh half: "within 600 m of what?")
    ("helsinki", "station", "Sijoita vähintään kolme latausasemaa 600 metrin säteelle UPM:n rakennuksesta.", "count_min",
     "UPM"),
    ("helsinki", "land", "Ei toimistoja 250 metrin säteellä KPMG:n talosta.", "exclude_near", "KPMG"),
    ("helsinki", "road", "Vähintään yksi uusi tie 500 metrin säteellä EY:stä.", "count_min", "EY"),
    # a region said first, then a name with a capitalised facility noun: the name, matched whatever its case
    ("kotka", "land", "In Kotka, place no business parcel within 250 metres of Helilän Koulu.", "exclude_near",
     "Helilän koulu"),
    ("kotka", "station", "Kotkassa, enintään kaksi latausasemaa 300 metrin säteellä Otsolan koulusta.", "count_max",
     "Otsolan Koulu"),
    # every site kept from a named block: that block's outline
    ("helsinki", "station", "Keep every new charging site at least 250 m away from the Lohi block.", "exclude_near",
     "Lohi"),
])
def test_eleventh_half_names(region, task, text, kind, name):
    c = _read_as_one(region, task, text)
    assert (c["kind"], c["target"]["name"]) == (kind, name)


def test_a_region_said_first_of_another_instance_is_asked():
    it = interpret("In Kotka, no chargers within 200 m of Kiasma.", small("station"))
    assert not it.constraints and "about the kotka plan" in it.clarification


@pytest.mark.parametrize("region, task, text, kinds", [
    # a list on lines of its own reaches the reader as a list: check_instruction made every line break a space, so
    # "- no chargers … of Kiasma / - at most 3 …" was applied as at most 3 within 200 m of Kiasma
    ("helsinki", "station", "- no chargers within 200 m of Kiasma\n- at most 3 chargers in total",
     ["exclude_near", "count_max"]),
    ("kotka", "station", "Kumparepuisto: none within 250 m\nKeep 300 m between chargers", ["exclude_near", "spacing_min"]),
])
def test_lines_are_items_through_interpret(region, task, text, kinds):
    it = interpret(text, _instance(region, task))
    assert it.clarification is None, it.clarification
    assert [c["kind"] for c in it.constraints] == kinds and it.constraints[0].get("count") is None


@pytest.mark.parametrize("region, task, text, name, typ", [
    # a data name followed by its own kind noun of two words (or one the rules took as a site type): that place when
    # the kind agrees with its tags, and no type of the instruction (round 12: "the @ Metallitalo car park" was asked
    # as not in the data, and "car park" read as 'only parking sites')
    ("helsinki", "station", "we'd like at least two chargers within 300 m of the @ Metallitalo car park",
     "@ Metallitalo", None),
    ("helsinki", "station", "at least 2 chargers within 300 m of Q-Park Erottaja parking garage", "Q-Park Erottaja",
     None),
    ("helsinki", "road", "no new links within 200 m of the Eliel car park", "Eliel", "new"),
    ("kotka", "station", "at most one charger within 200 m of Malminki car park", "Malminki", None),
    ("kotka", "road", "no new links within 200 m of the Malminki parking lot", "Malminki", "new"),
    ("kotka", "land", "no offices within 300 m of the Helilän koulu school", "Helilän koulu", "office"),
    ("helsinki", "land", "no offices within 300 m of the Ressun lukio school", "Ressun lukio", "office"),
])
def test_a_name_and_its_own_kind_noun_is_that_place(region, task, text, name, typ):
    c = _read_as_one(region, task, text)
    assert c["target"]["name"] == name and c.get("type") == typ



#: names built like real ones that neither region's data has (issue 29, round 13): a district or place in the
#: genitive and a facility noun, a data name with a word put in or its noun swapped for another, Swedish forms
ABSENT_BUILT_LIKE_REAL = [
    "Kaisaniemen uimaranta",      # the thirteenth half's: a beach, no misspelt Kaisaniemenranta (a quay street)
    "Kaisaniemenuimaranta",       # the same words run together
    "Kumparepuistikko",           # "puistikko" (a small park) for "puisto": three letters put in
    "Kumparepuiston uimaranta",
    "Erottajan terveysasema",     # a health station of Erottaja (an untagged point): another place
    "Rautatientorin kirjasto",    # a library of Rautatientori
    "Hakaniemen uimaranta",
    "Kajsaniemi strand",          # Swedish, two words for the data's one-word alias "Kajsaniemistranden"
    "Kronohagens bibliotek",
    "Helilän kirjasto",
    "Helilän uimahalli",
    "Otsolan päiväkoti",
    "Karhula kyrka",
    "Heliläns skola",
    "Ristinkallion koulu",
]


@pytest.mark.parametrize("region", ["helsinki", "kotka"])
def test_an_absent_name_built_like_a_real_one_is_never_applied_to_another_place(region):
    idx = name_index(region)
    names = [n for n in ABSENT_BUILT_LIKE_REAL if not idx.is_name(n)]
    assert len(names) == len(ABSENT_BUILT_LIKE_REAL)   # none is a name of either region as written
    read = []
    for n in names:
        try:
            got = _named(region, n, None, False)
        except Clarify:
            continue
        read.append((n, got.label))
    assert read == []


@pytest.mark.parametrize("region, task, text, said, meant", [
    ("helsinki", "land", "No new business within 300 m of Kaisaniemen uimaranta.", "Kaisaniemen uimaranta",
     "Kaisaniemenranta"),
    ("helsinki", "station", "at least one charger within 250 m of Kaisaniemenuimaranta", "Kaisaniemenuimaranta",
     "Kaisaniemenranta"),
    ("helsinki", "road", "no rebuilds within 150 m of Erottajan terveysasema", "Erottaja", None),
    ("kotka", "station", "no chargers within 200 m of Kumparepuistikko", "Kumparepuistikko", "Kumparepuisto"),
    ("kotka", "land", "keep offices 300 m from Kumparepuiston uimaranta", "Kumparepuiston uimaranta", None),
    ("kotka", "road", "no new links within 200 m of Helilän kirjasto", "Helilän kirjasto", None),
])
def test_an_absent_name_is_asked_with_did_you_mean(region, task, text, said, meant):
    it = interpret(text, _instance(region, task))
    assert not it.constraints
    assert f"is not in the {region} data" in it.clarification and said in it.clarification
    if meant:
        assert f"did you mean {meant}" in it.clarification


@pytest.mark.parametrize("said, name, clearly", [
    ("Kaisaniemen uimaranta", "Kaisaniemenranta", False),   # a word put in
    ("Kumparepuistikko", "Kumparepuisto", False),            # three letters put in
    ("Kaisaniemen ranta", "Kaisaniemenranta", True),         # a space only
    ("Helilän hautuumaa", "Helilän hautausmaa", True),      # two slips in seventeen letters
    ("Otsolan Kolu", "Otsolan Koulu", True),
    ("Piisamikadulta", "Piisaminkatu", True),                # misspelt in a case form: the stem compared
    ("Kaisaniemmen alueella", "Kaisaniemi", True),
    ("Kampi", "Kamppi", True),                               # one slip (shorter names have bars of their own)
    ("Kampin kirjasto", "Kampin kauppakeskus", False),      # the noun swapped
])
def test_clearly_misspelt_is_the_same_words_a_slip_or_two_off(said, name, clearly):
    assert clearly_misspelt(said, name) is clearly


@pytest.mark.parametrize("region, task, text, name", [
    # a misspelling is still read as the one name it misspells (both regions, all three tasks)
    ("helsinki", "station", "no chargers within 200 m of Kaisaniemen ranta", "Kaisaniemenranta"),
    ("helsinki", "land", "no offices within 200 m of Yrjönkadun uimahali", "Yrjönkadun uimahalli"),
    ("kotka", "road", "no new links within 250 m of Helilän hautuumaa", "Helilän hautausmaa"),
    ("kotka", "station", "atleast one charger within 200m of Martilankatu", "Marttilankatu"),
])
def test_a_misspelling_of_one_name_is_still_read_as_it(region, task, text, name):
    c = _read_as_one(region, task, text)
    assert c["target"]["name"] == name and "read '" in (c.get("note") or "")


@pytest.mark.parametrize("region, task, text, name, typ", [
    # a kind noun right after or before a name, or joined to it, that agrees with the place's tags names the place,
    # never the constrained type (round 13, v13-in-37: "inside the Kumparepuisto park" was read as 'no green parcels')
    ("kotka", "land", "Do not place any land-use site inside the Kumparepuisto park.", "Kumparepuisto", None),
    ("kotka", "land", "Nothing inside the park Kumparepuisto.", "Kumparepuisto", None),
    ("kotka", "land", "Ei tontteja Kumparepuisto-puistoon.", "Kumparepuisto", None),
    ("kotka", "station", "Ei latausasemia Kumparepuisto-puistossa.", "Kumparepuisto", None),
    ("kotka", "road", "No new links inside the Kumparepuisto park.", "Kumparepuisto", "new"),
    ("kotka", "land", "No new parcels within 200 m of the Otsolan Koulu school.", "Otsolan Koulu", None),
    ("kotka", "land", "No new parcels within 200 m of Otsolan Koulu.", "Otsolan Koulu", None),
    ("helsinki", "land", "Nothing inside the Tokoinranta park.", "Tokoinranta", None),
    ("helsinki", "land", "No parcels within 200 m of the Kiasma museum.", "Kiasma", None),
    ("helsinki", "station", "No chargers inside the Esplanadinpuisto park.", "Esplanadinpuisto", None),
    ("helsinki", "road", "no new links within 150 m of the museum Ateneum", "Ateneum", "new"),
    ("helsinki", "land", "No offices inside the Esplanadinpuisto park.", "Esplanadinpuisto", "office"),
])
def test_a_kind_noun_with_a_name_is_the_place_not_the_type(region, task, text, name, typ):
    c = _read_as_one(region, task, text)
    assert c["target"]["name"] == name and c.get("type") == typ


@pytest.mark.parametrize("region, task, text, said", [
    # and a kind noun the place's tags disagree with is asked, whichever side of the name it stands
    ("helsinki", "land", "No parcels inside the Kiasma park.", "a public building, not a park"),
    ("helsinki", "station", "no chargers inside the park Kiasma", "a public building, not a park"),
    ("kotka", "land", "no offices within 200 m of the Kumparepuisto school", "a park, not a school"),
])
def test_a_kind_noun_the_place_is_not_is_asked(region, task, text, said):
    it = interpret(text, _instance(region, task))
    assert not it.constraints and said in it.clarification


@pytest.mark.parametrize("region, task, text, name", [
    # round 15: a named area left alone is nothing of the plan inside it, its kind noun the place's (never a type)
    ("kotka", "land", "Please leave the Kumparepuisto park alone.", "Kumparepuisto"),
    ("kotka", "land", "jätä Kumparepuiston alue koskematta", "Kumparepuisto"),
    ("kotka", "road", "don't touch Ristinkallio", "Ristinkallio"),
    ("helsinki", "station", "Kluuvi must stay untouched", "Kluuvi"),
    ("helsinki", "land", "Kaisaniemen puisto pitää jättää rauhaan", "Kaisaniemen puisto"),
])
def test_a_named_area_left_alone_is_outside_it(region, task, text, name):
    c = _read_as_one(region, task, text)
    assert (c["kind"], c["target"]["name"], c.get("type")) == ("outside_area", name, None)


def test_a_point_left_alone_is_asked_as_a_point():
    it = interpret("leave Senaatintori alone", _instance("helsinki", "station"))
    assert not it.constraints and "is a point" in it.clarification
