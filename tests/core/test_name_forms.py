"""Names and amounts as planners say them, below the rule table: money written "1½ million" or
"two-million-euro", a share of a budget, an English landmark name the data has with the city's
name before it, a district the data lacks said in a Finnish local case. The values expected are
the arithmetic of what was said (a fifth of 2 000 k€ is 400 k€), not the code's output."""
from __future__ import annotations

import pytest

from cityplanner.plugin.agent.ask.amounts import budget_shares
from cityplanner.plugin.agent.ask.cognition import extract
from cityplanner.plugin.agent.ask.name_forms import locative
from cityplanner.plugin.city.names import name_index
from cityplanner.plugin.city.vocabulary import money_amounts

REGIONS = ("helsinki", "kotka")


@pytest.mark.parametrize("text, keur", [
    ("Plan stations with 1½ million", 1.5 * 1000),
    ("¾ million euros for roads", 0.75 * 1000),
    ("1 ½ M€", 1.5 * 1000),
    ("our two-million-euro budget", 2 * 1000),
    ("a three-million budget", 3 * 1000),
])
def test_money_with_a_fraction_sign_or_hyphens(text, keur):
    assert [m.keur for m in money_amounts(text)] == [keur]


@pytest.mark.parametrize("text, keur", [
    ("take a fifth of our two-million-euro budget", 2000 / 5),
    ("30 % of a 1.5 million euro budget", 1500 * 0.30),
    ("half of our 800k budget", 800 / 2),
    ("two-thirds of 900k on chargers", 900 * 2 / 3),
    ("keep a fifth of our 500k in reserve and plan roads", 500 * 4 / 5),   # the part spent is the rest
    ("plan roads with 500k", 500),                                        # no share: the amount said
])
def test_a_share_of_a_budget_is_that_share(text, keur):
    got = budget_shares(text, money_amounts(text))
    assert [round(m.keur, 3) for m in got] == [round(keur, 3)]


def test_the_share_is_the_ask_readers_own_and_money_amounts_keeps_the_amount_written():
    assert [m.keur for m in money_amounts("a fifth of our 2 M€")] == [2000.0]


def test_an_english_name_the_data_has_after_the_citys_name():
    idx = name_index("helsinki")
    top = idx.lookup("Senate Square", limit=1)[0]   # the data: "Helsinki Senate Square", an alias of Senaatintori
    assert (top.feature.name, top.how) == ("Senaatintori", "alias")
    assert not idx.is_name("Senate Square")         # not claimed as a name the data has as written
    assert idx.resolve("Music Centre").feature.name == "Musiikkitalo"   # "Helsinki Music centre"


def test_a_name_with_no_such_alias_is_not_in_the_data_and_suggests_the_name_inside():
    task = extract("How far is Ateneum Art Museum from Kiasma?", name_index, REGIONS, "helsinki")
    assert task.absent and task.absent[0].startswith("'Ateneum Art Museum' is not in the helsinki data")
    assert "did you mean Ateneum" in task.absent[0]


@pytest.mark.parametrize("word, yes", [("Kalliossa", True), ("Töölöstä", True), ("Vantaalla", True),
                                       ("Haminaan", True), ("Kallio", False), ("Stockmann", False),
                                       ("kalliossa", False)])
def test_a_finnish_local_case(word, yes):
    assert locative(word) is yes


@pytest.mark.parametrize("request_, region", [("montako apteekkia Kalliossa on?", "helsinki"),
                                              ("kouluja Haminassa?", "kotka")])
def test_a_district_the_data_lacks_in_a_local_case_lies_outside(request_, region):
    task = extract(request_, name_index, REGIONS, region)
    assert any("lies outside the loaded regions" in a for a in task.absent), task.absent
    assert not task.missing


def test_a_genitive_district_before_a_facility_noun_is_never_the_district():
    task = extract("Vallilan kirjasto: nearest pharmacy?", name_index, REGIONS, "helsinki")
    assert task.goals[0].slots["place"] == "Vallilan kirjasto"
    assert task.absent and all(a.startswith("'Vallilan kirjasto' is not in the helsinki data") for a in task.absent)
    assert "Vallila " not in " ".join(task.notes)   # never "read as Vallila"


def test_a_genitive_district_before_a_plural_noun_is_the_kind_in_the_district():
    task = extract("Kluuvin koulut: montako?", name_index, REGIONS, "helsinki")
    assert [(g.intent, g.slots.get("area"), g.slots.get("category")) for g in task.goals] == [("count", "Kluuvi", "school")]
