"""The deterministic instruction rules on phrasings of our own (not from the held-out sets):
a distance is never read as a count, a count word never as a place, distances in words,
"closer than … to", "a … radius of", lists of ids, "only within <area>", coverage with "have a
… within", "prefer" as an emphasis. Parse level only: no data, no solver."""
from __future__ import annotations

import re

import pytest

from cityplanner.plugin.city import lexicon
from cityplanner.plugin.constraints.rules import Ambiguous, NoRule, parse


def brief(cons: list[dict]) -> list[tuple]:
    out = []
    for c in cons:
        t = c.get("target") or {}
        out.append((c["kind"], t.get("name") or t.get("category") or t.get("id"), c.get("distance_m"),
                    c.get("count"), c.get("share"), c.get("term")))
    return out


OUR_PHRASINGS = [  # (text, task, expected readings) at a budget of 500 k€
    # a distance after "at least" is a distance, not a count of 300 chargers
    ("keep chargers at least 300 m away from Kaisaniemen puisto", "station",
     [("exclude_near", "Kaisaniemen puisto", 300.0, None, None, None)]),
    ("Don't put any chargers closer than 200 metres to Kiasma.", "station",
     [("exclude_near", "Kiasma", 200.0, None, None, None)]),
    ("No EV charging within a 250m radius of Ateneum please", "station",
     [("exclude_near", "Ateneum", 250.0, None, None, None)]),
    # "a minimum of two chargers": two, and the place is Stockmann, not "two chargers"
    ("We need a minimum of two chargers within 400 metres of Stockmann.", "station",
     [("count_min", "Stockmann", 400.0, 2, None, None)]),
    # a distance in words keeps its place: never a bare "at most one" in total
    ("Put at most one station within half a kilometre of Kiasma.", "station",
     [("count_max", "Kiasma", 500.0, 1, None, None)]),
    ("at least one charger within a kilometre of Ateneum", "station",
     [("count_min", "Ateneum", 1000.0, 1, None, None)]),
    ("Exclude sites 2 and 5.", "station", [("lock_out", "2", None, None, None, None),
                                           ("lock_out", "5", None, None, None, None)]),
    ("parcels 3, 4 and 9 in", "land", [("lock_in", "3", None, None, None, None), ("lock_in", "4", None, None, None, None),
                                       ("lock_in", "9", None, None, None, None)]),
    ("Chargers only within Kluuvi.", "station", [("inside_area", "Kluuvi", None, None, None, None)]),
    ("All residential blocks should have a charger within 700 m.", "station",
     [("coverage", "charging", 700.0, None, None, None)]),
    ("Prefer connectivity over travel time.", "road", [("emphasis", None, None, None, None, "connectivity")]),
    ("Chargers must stay 250 m clear of Ateneum.", "station", [("exclude_near", "Ateneum", 250.0, None, None, None)]),
    ("Stations no closer than 350 m to one another.", "station", [("spacing_min", None, 350.0, None, None, None)]),
    ("Use at most 2/3 of the budget", "station", [("budget_share_max", None, None, None, 0.6667, None)]),
    ("Shorter walks to chargers matter most.", "station", [("emphasis", None, None, None, None, "access")]),
    # each id its own words; a shared verb for a list
    ("site 3 in and site 6 out", "station", [("lock_in", "3", None, None, None, None),
                                             ("lock_out", "6", None, None, None, None)]),
    ("We don't want site 3 or site 6.", "station", [("lock_out", "3", None, None, None, None),
                                                    ("lock_out", "6", None, None, None, None)]),
    ("Links 4 and 8 are off the table.", "road", [("lock_out", "4", None, None, None, None),
                                                  ("lock_out", "8", None, None, None, None)]),
    ("No offices at all.", "land", [("count_max", None, None, 0, None, None)]),
    ("Every household should be within 500 m of green space.", "land", [("coverage", "green", 500.0, None, None, None)]),
    # a sign before a distance is its words (v15-in-38 "no block > 800 m from a school" was stored as no school within
    # 800 m: the opposite)
    ("no block > 800 m from a school", "land", [("coverage", "school", 800.0, None, None, None)]),
    ("no block >1 km from a charger", "station", [("coverage", "charging", 1000.0, None, None, None)]),
    ("no charger < 200 m from Kiasma", "station", [("exclude_near", "Kiasma", 200.0, None, None, None)]),
    ("keep chargers >= 300 m apart", "station", [("spacing_min", None, 300.0, None, None, None)]),
    ("Every residential block needs a school within 600 metres.", "land",
     [("coverage", "school", 600.0, None, None, None)]),
    # two instructions joined by "and"; a target phrase ends at its verb
    ("No charger within 200 m of Kiasma and at least 2 within 500 m of Stockmann.", "station",
     [("exclude_near", "Kiasma", 200.0, None, None, None), ("count_min", "Stockmann", 500.0, 2, None, None)]),
    ("Don't exceed 75 % of the budget and keep 300 m between stations.", "station",
     [("budget_share_max", None, None, None, 0.75, None), ("spacing_min", None, 300.0, None, None, None)]),
    # "fewer than 3" is at most 2, never at least 3; "limit … to N"; "shouldn't" is a negation
    ("less than 3 chargers within 400 m of Stockmann", "station", [("count_max", "Stockmann", 400.0, 2, None, None)]),
    ("fewer than 4 stations", "station", [("count_max", None, None, 3, None, None)]),
    ("more than two stations in total", "station", [("count_min", None, None, 3, None, None)]),
    ("Limit business parcels to 3.", "land", [("count_max", None, None, 3, None, None)]),
    ("Link 12 shouldn't be built.", "road", [("lock_out", "12", None, None, None, None)]),
    ("Cap spending at €300,000 of the €400,000.", "road", [("budget_share_max", None, None, None, 0.75, None)]),
    # unchanged forms still read as before
    ("at least 2 chargers within 300 m of Q-Park Erottaja", "station",
     [("count_min", "Q-Park Erottaja", 300.0, 2, None, None)]),
    ("Leave 30% of the budget unspent.", "station", [("budget_share_max", None, None, None, 0.7, None)]),
    # a share kept free is the part NOT spent (v14-in-32 "Keep a fifth of the budget free." was stored as spend
    # at most a fifth: the opposite)
    ("Keep a fifth of the budget free.", "land", [("budget_share_max", None, None, None, 0.8, None)]),
    ("keep 25 % of the money free", "station", [("budget_share_max", None, None, None, 0.75, None)]),
    ("Leave a third of the budget unallocated", "road", [("budget_share_max", None, None, None, 0.6667, None)]),
    ("Pidä viidennes budjetista vapaana", "land", [("budget_share_max", None, None, None, 0.8, None)]),
    ("keep 10 % of the budget as contingency", "road", [("budget_share_max", None, None, None, 0.9, None)]),
    ("a fifth of the budget stays uncommitted", "station", [("budget_share_max", None, None, None, 0.8, None)]),
    ("site 5 in", "station", [("lock_in", "5", None, None, None, None)]),
]


@pytest.mark.parametrize("text, kind, count", [
    ("no more than 2 chargers in Kluuvi", "count_max", 2),          # a count in an area, not "none in it"
    ("at least one station inside Kaisaniemen puisto", "count_min", 1),
    ("Nothing on Mannerheimintie.", "outside_area", None),
])
def test_counts_and_areas(text, kind, count):
    (c,) = parse(text, "station", 500.0)
    assert (c["kind"], c.get("count")) == (kind, count)
    assert c["target"]["name"] in ("Kluuvi", "Kaisaniemen puisto", "Mannerheimintie")
    assert c.get("area") is (True if kind.startswith("count") else None)


def test_nothing_but_is_asked_never_stored_as_its_opposite():
    from cityplanner.plugin.constraints.rules import Ambiguous

    with pytest.raises(Ambiguous, match="'nothing but …'"):
        parse("nothing but parks inside Kluuvi", "land", 500.0)


@pytest.mark.parametrize("text", ["make it better", "Put chargers somewhere nice."])
def test_no_measurable_target_is_a_question(text):
    from cityplanner.plugin.constraints.rules import Ambiguous

    with pytest.raises(Ambiguous, match="no measurable target"):
        parse(text, "station", 500.0)


@pytest.mark.parametrize("text", ["€ 300,000. 0.5 less than € parcel 200 m less than", "300,000. 400k€ keep",
                                  "€. 300,000. 0,4 M€", "1/0 of the budget", "spend 0/0"])
def test_garbled_money_and_fractions_never_crash(text):
    from cityplanner.plugin.constraints.rules import Ambiguous, NoRule

    try:
        out = parse(text, "station", 500.0)
    except (NoRule, Ambiguous):
        return
    assert all(0 < c["share"] <= 1 for c in out if c["kind"] == "budget_share_max")


@pytest.mark.parametrize("text, place", [
    ("a charger by the Ateneum would be good", "Ateneum"),
    ("less than 3 chargers near Stockmann", "Stockmann"),
    ("keep the stations close to Kiasma", "Kiasma"),
    ("Keep chargers away from Kiasma.", "Kiasma"),
])
def test_near_without_a_distance_asks_for_one(text, place):
    from cityplanner.plugin.constraints.rules import NeedsDistance

    with pytest.raises(NeedsDistance, match="give one") as e:
        parse(text, "station", 500.0)
    assert e.value.place == place


# Issue 29, the classes the third held-out half showed (each in phrasings of our own, not its items)
THIRD_HALF_CLASSES = [  # (text, task, expected readings) at a budget of 500 k€
    # compound: sentences, "; ", ", and <a clause of its own>" — each part read on its own
    ("No chargers within 200 m of Kiasma. Keep 300 m between stations.", "station",
     [("exclude_near", "Kiasma", 200.0, None, None, None), ("spacing_min", None, 300.0, None, None, None)]),
    ("Use at most 70 % of the money, and the plan should favour coverage.", "station",
     [("budget_share_max", None, None, None, 0.7, None), ("emphasis", None, None, None, None, "coverage")]),
    ("Emphasis: travel time. Link 3 out.", "road",
     [("emphasis", None, None, None, None, "travel_time"), ("lock_out", "3", None, None, None, None)]),
    ("Parcel 2: school. Parcel 9 out.", "land",
     [("lock_in", "2", None, None, None, None), ("lock_out", "9", None, None, None, None)]),
    # one id's in / out from its own clause: a "don't" after "but" is about something else
    ("site 4 must stay in the plan, but don't add anything next to it", "station",
     [("lock_in", "4", None, None, None, None)]),
    ("keep site 3 but drop site 9", "station", [("lock_in", "3", None, None, None, None),
                                                ("lock_out", "9", None, None, None, None)]),
    # comparison signs and Finnish comparison words are counts' bounds
    ("≤ 2 chargers within 250 m of Ateneum", "station", [("count_max", "Ateneum", 250.0, 2, None, None)]),
    (">= 3 new links within 500 m of Kiasma", "road", [("count_min", "Kiasma", 500.0, 3, None, None)]),
    ("vähintään kaksi chargers within 400 m of Stockmann", "station", [("count_min", "Stockmann", 400.0, 2, None, None)]),
    # budget shares in words: amounts either way round, reserve words, a fraction inside an amount is money
    ("Hold back €200k of the €800k.", "station", [("budget_share_max", None, None, None, 0.75, None)]),
    ("Of the 2 million euros, set aside half a million.", "road", [("budget_share_max", None, None, None, 0.75, None)]),
    ("Spend a quarter of a million of the €1 million budget.", "land",
     [("budget_share_max", None, None, None, 0.25, None)]),
    ("keep a third of the budget in reserve", "station", [("budget_share_max", None, None, None, 0.6667, None)]),
    # inside / outside said from either side; "off" a place is outside it
    ("every station inside Kluuvi and none outside it", "station", [("inside_area", "Kluuvi", None, None, None, None)]),
    ("No chargers outside Kaartinkaupunki.", "station", [("inside_area", "Kaartinkaupunki", None, None, None, None)]),
    ("chargers outside Kluuvi only", "station", [("outside_area", "Kluuvi", None, None, None, None)]),
    ("keep the chargers off the Stockmann building", "station",
     [("outside_area", "Stockmann building", None, None, None, None)]),
    ("Keep every station out of Kaisaniemen puisto", "station",
     [("outside_area", "Kaisaniemen puisto", None, None, None, None)]),
    # "no further than D from X" is within D of X; "at least D from X" keeps away from X
    ("Place two chargers no further than 300 m from Kiasma", "station", [("count_min", "Kiasma", 300.0, 2, None, None)]),
    ("Keep the chargers at least 150 m from Senaatintori", "station",
     [("exclude_near", "Senaatintori", 150.0, None, None, None)]),
    ("Exactly two stations within 500 m of Stockmann", "station", [("count_min", "Stockmann", 500.0, 2, None, None),
                                                                   ("count_max", "Stockmann", 500.0, 2, None, None)]),
    # "and" before a clause of its own; reserve words with a share alone; Finnish id nouns
    ("Emphasise coverage and use at most 90 % of the budget", "station",
     [("emphasis", None, None, None, None, "coverage"), ("budget_share_max", None, None, None, 0.9, None)]),
    ("Keep twenty percent in reserve", "land", [("budget_share_max", None, None, None, 0.8, None)]),
    ("Keep €0.2M of the €1M aside.", "station", [("budget_share_max", None, None, None, 0.8, None)]),
    ("tontti 5 pois", "land", [("lock_out", "5", None, None, None, None)]),
    ("Tontti 3: koulu", "land", [("lock_in", "3", None, None, None, None)]),
    ("cut travel times wherever possible", "road", [("emphasis", None, None, None, None, "travel_time")]),
    ("homes must have a school within 700 m", "land", [("coverage", "school", 700.0, None, None, None)]),
    ("at lest 2 stations within 400m of Ateneum", "station", [("count_min", "Ateneum", 400.0, 2, None, None)]),
    ("Rebuild links 3 and 4 but not link 5.", "road", [("lock_in", "3", None, None, None, None),
                                                       ("lock_in", "4", None, None, None, None),
                                                       ("lock_out", "5", None, None, None, None)]),
    ("Site 6 stays; site 8 goes.", "station", [("lock_in", "6", None, None, None, None),
                                              ("lock_out", "8", None, None, None, None)]),
    ("s5 in", "station", [("lock_in", "s5", None, None, None, None)]),
    # "no fewer than N" / "N or more" is at least N (it was read as at most N - 1); ranges of ids; "site no. 4"
    ("There should be no fewer than two chargers within 300 m of Kiasma.", "station",
     [("count_min", "Kiasma", 300.0, 2, None, None)]),
    ("Three or more schools.", "land", [("count_min", None, None, 3, None, None)]),
    ("two or fewer offices", "land", [("count_max", None, None, 2, None, None)]),
    ("Sites 1-3 out.", "station", [("lock_out", "1", None, None, None, None), ("lock_out", "2", None, None, None, None),
                                   ("lock_out", "3", None, None, None, None)]),
    ("Site no. 4 in.", "station", [("lock_in", "4", None, None, None, None)]),
    ("Charging stations should not be closer together than 250 metres.", "station",
     [("spacing_min", None, 250.0, None, None, None)]),
    ("Travel time matters more than connectivity.", "road", [("emphasis", None, None, None, None, "travel_time")]),
    ("Residents within 400 m of green space, all of them.", "land", [("coverage", "green", 400.0, None, None, None)]),
    ("Ecology over everything else.", "land", [("emphasis", None, None, None, None, "ecology")]),
    # a list of names stays one phrase (the interpreter makes one keep-away per name), never the first alone
    ("no station within 200 m of Kiasma, Ateneum and Stockmann", "station",
     [("exclude_near", "Kiasma and Ateneum and Stockmann", 200.0, None, None, None)]),
    ("kortteli 12: school", "land", [("lock_in", "12", None, None, None, None)]),
]


@pytest.mark.parametrize("text, task, category, metres", [
    ("nobody should have to walk more than 400 m to reach a school", "land", "school", 400.0),
    ("no one may live more than 700 m away from a clinic", "land", "clinic", 700.0),
    ("no resident should be more than half a kilometre from a charger", "station", "charging", 500.0),
    ("not a single home more than 300 metres from green space", "land", "green", 300.0),
])
def test_coverage_from_the_residents_side(text, task, category, metres):
    assert brief(parse(text, task, 500.0)) == [("coverage", category, metres, None, None, None)]


@pytest.mark.parametrize("text, task, kind", [
    ("no new links within 200 m of Kiasma", "road", "new"),
    ("at most one brand-new road inside Kluuvi", "road", "new"),
    ("≥ 2 upgrades within 300 m of Ateneum", "road", "rebuild"),
    ("link 5 only as a rebuild", "road", "rebuild"),
])
def test_road_kinds_stay_on_the_constraint(text, task, kind):
    assert {c["type"] for c in parse(text, task, 500.0)} == {kind}


def test_every_rule_reads_its_own_example_and_names_itself():
    from cityplanner.plugin.constraints.rules import RULES, Ambiguous, parse_one

    assert len({r.id for r in RULES}) == len(RULES)
    for rule in RULES:
        if not rule.kinds:   # a rule that only asks
            with pytest.raises(Ambiguous):
                parse_one(rule.example, rule.task, 500.0)
            continue
        got = parse_one(rule.example, rule.task, 500.0)
        assert {c["rule"] for c in got} == {rule.id}, (rule.id, got)
        assert {c["kind"] for c in got} == set(rule.kinds), (rule.id, got)


# Issue 29, the classes the fourth held-out half showed (retired to dev after its one run; each
# class in phrasings, places and tasks of our own, not its items)
FOURTH_HALF_CLASSES = [  # (text, task, expected readings) at a budget of 700 k€
    # coverage from the residents' side with a word before the homes, and a Finnish category
    ("make sure no housing block ends up more than 400 m from a charger", "station",
     [("coverage", "charging", 400.0, None, None, None)]),
    ("no apartment block should sit further than 600 metres from a koulu", "land",
     [("coverage", "school", 600.0, None, None, None)]),
    ("No city block may end up farther than 700 m from a latausasema.", "station",
     [("coverage", "charging", 700.0, None, None, None)]),
    # an aside in brackets without a number says nothing a rule reads; the name before it stays whole
    ("no home should be further than 300 m from a school (koulu or similar)", "land",
     [("coverage", "school", 300.0, None, None, None)]),
    ("At most two chargers inside Kluuvi (the district, by its outline).", "station",
     [("count_max", "Kluuvi", None, 2, None, None)]),
    ("No charger within 200 m of Kiasma (the museum building).", "station",
     [("exclude_near", "Kiasma", 200.0, None, None, None)]),
    # "build no more than two": the "no" starts a bound, it is no count of zero; the area fronted
    ("Within Kluuvi, place no more than one charger.", "station", [("count_max", "Kluuvi", None, 1, None, None)]),
    ("build no more than three offices", "land", [("count_max", None, None, 3, None, None)]),
    ("Inside Kaartinkaupunki, build no fewer than two new links.", "road",
     [("count_min", "Kaartinkaupunki", None, 2, None, None)]),
    # a bare number as a part of an amount of money takes its currency; "more than 420 000" is money
    ("Spend no more than 300 000 out of the 1 200 000 euros.", "station",
     [("budget_share_max", None, None, None, 0.25, None)]),
    ("Spend at most 600 000 of the 900 000 euros.", "station", [("budget_share_max", None, None, None, 0.6667, None)]),
    ("Spend fewer than 250 000 of our 500 000 euros", "road", [("budget_share_max", None, None, None, 0.5, None)]),
    # a name ends at a modal verb ("may", "can't", "cannot", "shall"), and "cannot" is a negation
    ("Parcels inside Kluuvi may not be used for offices.", "land", [("outside_area", "Kluuvi", None, None, None, None)]),
    ("Sites inside Kaartinkaupunki can't host chargers.", "station",
     [("outside_area", "Kaartinkaupunki", None, None, None, None)]),
    ("Blocks in Kluuvi cannot be used as business.", "land", [("outside_area", "Kluuvi", None, None, None, None)]),
    ("No charger within 200 m of Senaatintori shall be built.", "station",
     [("exclude_near", "Senaatintori", 200.0, None, None, None)]),
]


FOURTH_HALF_FURTHER = [  # (text, task, expected readings) at a budget of 700 k€
    # coverage with the negation before its verb ("must not be a single home"), "beyond D of"
    ("There must not be a single home farther than 800 m from a school.", "land",
     [("coverage", "school", 800.0, None, None, None)]),
    ("No dwelling should be located beyond 500 m of a park.", "land", [("coverage", "green", 500.0, None, None, None)]),
    ("Ensure that no residential block is more than 450 m away from the nearest charger.", "station",
     [("coverage", "charging", 450.0, None, None, None)]),
    # a place fronted with a colon; never an id, a score term or a keyword before the colon
    ("Kluuvi: max two chargers.", "station", [("count_max", "Kluuvi", None, 2, None, None)]),
    ("Kiasma: no charger within 200 m.", "station", [("exclude_near", "Kiasma", 200.0, None, None, None)]),
    ("Kaartinkaupunki: no chargers.", "station", [("outside_area", "Kaartinkaupunki", None, None, None, None)]),
    ("Emphasis: ecology.", "land", [("emphasis", None, None, None, None, "ecology")]),
    ("Budget: at most 80 %.", "road", [("budget_share_max", None, None, None, 0.8, None)]),
    # Finnish sentences: the place in a case ending ("Kiasmasta" from, "Kluuvissa" in), "ei" a negation
    ("ei latausasemia 200 metrin säteellä Kiasmasta", "station", [("exclude_near", "Kiasma", 200.0, None, None, None)]),
    ("Kiasmasta 300 metrin säteellä ei latausasemia", "station",
     [("exclude_near", "Kiasma", 300.0, None, None, None)]),
    ("enintään kaksi latausasemaa Kluuvissa", "station", [("count_max", "Kluuvi", None, 2, None, None)]),
    ("vähintään kolme latausasemaa 500 m säteellä Ateneumista", "station",
     [("count_min", "Ateneumi", 500.0, 3, None, None)]),
    # digit fractions: vulgar fraction signs, a decimal comma
    ("Spend at most ¾ of the budget.", "station", [("budget_share_max", None, None, None, 0.75, None)]),
    ("Leave ⅕ of the budget unspent.", "land", [("budget_share_max", None, None, None, 0.8, None)]),
    ("Use at most 0,6 of the budget.", "road", [("budget_share_max", None, None, None, 0.6, None)]),
    ("Use no more than ⅔ of the budget.", "road", [("budget_share_max", None, None, None, 0.6667, None)]),
]


# Issue 29, the classes the fifth held-out half showed (retired to dev after its one run; each class
# in phrasings, places, tasks and regions of our own, not its items). Misspelt names and place nouns
# after a name need the data: tests/core/test_constraints.py.
FIFTH_HALF_CLASSES = [  # (text, task, expected readings) at a budget of 700 k€
    # a share given as an amount of an explicitly stated total: of that total, not of the budget
    ("Spend at most 300 000 euros of the 500 000 available.", "station",
     [("budget_share_max", None, None, None, 0.6, None)]),
    ("Use no more than €240k of a total of 400 000.", "road", [("budget_share_max", None, None, None, 0.6, None)]),
    ("Keep costs to 1.5 million euros out of the 2 million we have.", "land",
     [("budget_share_max", None, None, None, 0.75, None)]),
    ("spend 90 000 € of our 120 000", "station", [("budget_share_max", None, None, None, 0.75, None)]),
    # a lead-in that puts the plan under the bound that follows
    ("Limit the plan to at most two chargers within 400 m of Stockmann.", "station",
     [("count_max", "Stockmann", 400.0, 2, None, None)]),
    ("Restrict the design to no more than one new link inside Kaartinkaupunki.", "road",
     [("count_max", "Kaartinkaupunki", None, 1, None, None)]),
    ("Hold the layout to a maximum of three offices.", "land", [("count_max", None, None, 3, None, None)]),
    ("Keep the plan to at least two schools.", "land", [("count_min", None, None, 2, None, None)]),
    ("limit the proposal to ≤ 2 chargers within 300 m of Marttilankatu", "station",
     [("count_max", "Marttilankatu", 300.0, 2, None, None)]),
    ("Cap new links at two.", "road", [("count_max", None, None, 2, None, None)]),
    # arrow notation after an id: the id is locked in as the type after the arrow
    ("parcel 5 → green", "land", [("lock_in", "5", None, None, None, None)]),
    ("block 12 -> office", "land", [("lock_in", "12", None, None, None, None)]),
    ("kortteli 10 → koulu", "land", [("lock_in", "10", None, None, None, None)]),
    ("parcel 5 → green, parcel 10 → school", "land",
     [("lock_in", "5", None, None, None, None), ("lock_in", "10", None, None, None, None)]),
    ("link 7 → out", "road", [("lock_out", "7", None, None, None, None)]),
]


STRANGER_PHRASINGS = [  # (text, task, expected readings) at a budget of 700 k€: forms no set of ours has
    # the place as the sentence's subject, or said off-limits
    ("Kiasma needs at least two chargers within 400 m.", "station", [("count_min", "Kiasma", 400.0, 2, None, None)]),
    ("Kluuvi gets at most one new link.", "road", [("count_max", "Kluuvi", None, 1, None, None)]),
    ("Kluuvi is off-limits for chargers.", "station", [("outside_area", "Kluuvi", None, None, None, None)]),
    ("Suurniitty should stay a no-go zone for offices.", "land", [("outside_area", "Suurniitty", None, None, None, None)]),
    # a keep-away said as a buffer kept free, "nowhere", "with all …" after the name
    ("Keep a 200 m buffer around Senaatintori free of chargers.", "station",
     [("exclude_near", "Senaatintori", 200.0, None, None, None)]),
    ("Nowhere within 300 m of Kiasma should get a charger.", "station",
     [("exclude_near", "Kiasma", 300.0, None, None, None)]),
    ("Stay 250 m away from Ateneum with all chargers.", "station", [("exclude_near", "Ateneum", 250.0, None, None, None)]),
    # spacing "between any two", coverage "for a charger"
    ("Leave at least 350 m between any two chargers.", "station", [("spacing_min", None, 350.0, None, None, None)]),
    ("No resident should need to go beyond 600 m for a charger.", "station",
     [("coverage", "charging", 600.0, None, None, None)]),
    # counts with the bound after the noun, budgets said loosely, ids said as a must
    ("Two chargers at most within 400 m of Ateneum.", "station", [("count_max", "Ateneum", 400.0, 2, None, None)]),
    ("The plan may cost no more than three quarters of the budget.", "land",
     [("budget_share_max", None, None, None, 0.75, None)]),
    ("Spend under 70 percent of the budget.", "road", [("budget_share_max", None, None, None, 0.7, None)]),
    ("site 7 is a must", "station", [("lock_in", "7", None, None, None, None)]),
    ("Scrap link 3.", "road", [("lock_out", "3", None, None, None, None)]),
    # a hyphenated distance, "inside a D radius of X" (within D of X, not inside X), a verb after "avoid"
    ("There should be no charging points inside a 250-metre radius of Kiasma.", "station",
     [("exclude_near", "Kiasma", 250.0, None, None, None)]),
    ("Avoid putting chargers anywhere within 200 m of Senaatintori.", "station",
     [("exclude_near", "Senaatintori", 200.0, None, None, None)]),
    # the place as the object of "ensure that X has", "give X", "X must not get"
    ("Ensure that Stockmann has at least two chargers within 300 m.", "station",
     [("count_min", "Stockmann", 300.0, 2, None, None)]),
    ("Give Kiasma at least one charger within 250 m.", "station", [("count_min", "Kiasma", 250.0, 1, None, None)]),
    ("The Kirahvi kortteli must not get offices.", "land", [("outside_area", "Kirahvi kortteli", None, None, None, None)]),
    ("Make sure Kaartinkaupunki has no more than two chargers.", "station",
     [("count_max", "Kaartinkaupunki", None, 2, None, None)]),
    # "2+", "at the most", a fraction is no count ("more than 2/3" is no "at least 3/3"), "unused", "everything"
    ("I'd want 2+ chargers within 400 m of Rautatientori.", "station",
     [("count_min", "Rautatientori", 400.0, 2, None, None)]),
    ("At the most 2 chargers within 300 m of Kiasma.", "station", [("count_max", "Kiasma", 300.0, 2, None, None)]),
    ("Don't spend more than 2/3 of what we have.", "road", [("budget_share_max", None, None, None, 0.6667, None)]),
    ("Keep a quarter of the budget unused.", "road", [("budget_share_max", None, None, None, 0.75, None)]),
    ("Everything must be in Kaartinkaupunki.", "station", [("inside_area", "Kaartinkaupunki", None, None, None, None)]),
]


# Issue 29, the classes the sixth held-out half showed (retired to dev after its one run; each class in
# phrasings, places, tasks and regions of our own, not its items). The names' resolution (edge nouns, a
# place noun and an adverb after a name, "hospital" against the instance's types): test_instruction_names.py.
SIXTH_HALF_CLASSES = [  # (text, task, expected readings) at a budget of 700 k€
    # a name followed by "?" or "!" and more words: the place ends at the sign
    ("any chance of at most one charger within 300 m of Kiasma? it's busy there", "station",
     [("count_max", "Kiasma", 300.0, 1, None, None)]),
    ("no new links within 250 m of Kluuvi? the streets are narrow", "road",
     [("exclude_near", "Kluuvi", 250.0, None, None, None)]),
    ("keep offices 200 m away from Stockmann! shoppers need room", "land",
     [("exclude_near", "Stockmann", 200.0, None, None, None)]),
    ("at least one charger within 400 m of Lasipalatsi?! it is a meeting point", "station",
     [("count_min", "Lasipalatsi", 400.0, 1, None, None)]),
    # a place (noun) followed by an adverb: the adverb says how, not which place
    ("No chargers in the Lohi block at all.", "station", [("outside_area", "Lohi block", None, None, None, None)]),
    ("Keep new links off the Kirahvi kortteli completely", "road",
     [("outside_area", "Kirahvi kortteli", None, None, None, None)]),
    ("offices out of the Leijona city block altogether", "land",
     [("outside_area", "Leijona city block", None, None, None, None)]),
    ("Chargers only inside Kluuvi, strictly", "station", [("inside_area", "Kluuvi", None, None, None, None)]),
    # a name, a kind noun and "boundary" / "edge" / "reuna": the phrase as said (the resolver reads past them)
    ("no chargers within 150 m of the Lohi block edge", "station",
     [("exclude_near", "Lohi block edge", 150.0, None, None, None)]),
    ("at most one new link within 300 m of the Kumparepuisto park boundary", "road",
     [("count_max", "Kumparepuisto park boundary", 300.0, 1, None, None)]),
    ("no schools within 250 m of Kumparepuiston reuna", "land",
     [("exclude_near", "Kumparepuiston reuna", 250.0, None, None, None)]),
    # a place fronted (dash, colon, comma, "as for"), then "it" where the place stands
    ("Kiasma — no chargers within 200 m of it", "station", [("exclude_near", "Kiasma", 200.0, None, None, None)]),
    ("As for Stockmann, at most two chargers within 300 m of it.", "station",
     [("count_max", "Stockmann", 300.0, 2, None, None)]),
    ("Kluuvi: we want no new links in it", "road", [("outside_area", "Kluuvi", None, None, None, None)]),
    ("Suurniitty, at least one school within 400 m of it please", "land",
     [("count_min", "Suurniitty", 400.0, 1, None, None)]),
    ("Marttilankatu - keep rebuilds at least 300 m away from it", "road",
     [("exclude_near", "Marttilankatu", 300.0, None, None, None)]),
    # a fronted place with a dash and a bound, as with a colon
    ("Kluuvi — max two chargers", "station", [("count_max", "Kluuvi", None, 2, None, None)]),
    # a Finnish genitive name and its noun are one name ("Kaisaniemen puisto"), never a type and a name
    ("Kaisaniemen puisto max one station", "station", [("count_max", "Kaisaniemen puisto", None, 1, None, None)]),
    ("no more than 2 parcels in Kaisaniemen puisto", "land",
     [("count_max", "Kaisaniemen puisto", None, 2, None, None)]),
    ("Tähtitorninvuoren puisto at most two chargers", "station",
     [("count_max", "Tähtitorninvuoren puisto", None, 2, None, None)]),
    ("Vanhan kirkon puisto: no offices", "land", [("outside_area", "Vanhan kirkon puisto", None, None, None, None)]),
]


#: stranger instructions of our own after the sixth half (all three tasks, both regions), as they read
SIXTH_HALF_STRANGER = [  # (text, task, expected readings) at a budget of 700 k€
    # "the rest" kept in reserve is no unspent share: the share said is what may be spent
    ("We can't afford more than 60 % of the budget, and the rest stays in reserve", "road",
     [("budget_share_max", None, None, None, 0.6, None)]),
    ("Spend at most 70 % and keep the rest in reserve", "station", [("budget_share_max", None, None, None, 0.7, None)]),
    ("Use at most 3/4 of the budget; the remainder stays unspent", "land",
     [("budget_share_max", None, None, None, 0.75, None)]),
    ("keep a fifth of the money in reserve, spend the rest", "road", [("budget_share_max", None, None, None, 0.8, None)]),
    # a question word before the instruction, a fronted topic with "regarding", a trailing "no more"
    ("Chargers? Not within 250 m of Kiasma, thanks.", "station", [("exclude_near", "Kiasma", 250.0, None, None, None)]),
    ("Regarding Ateneum: keep every charger at least 150 m away from it.", "station",
     [("exclude_near", "Ateneum", 150.0, None, None, None)]),
    ("at most two chargers within 500 m of Suurniitty please, no more", "station",
     [("count_max", "Suurniitty", 500.0, 2, None, None)]),
    ("Heliän hautausmaa: no new links within 300 m of it", "road",
     [("exclude_near", "Heliän hautausmaa", 300.0, None, None, None)]),
    ("at least one rebuild within 400 m of Majavankatu? it floods often", "road",
     [("count_min", "Majavankatu", 400.0, 1, None, None)]),
    # the bound after a bare count ("two at most"); a negated "more than" is a bound, never "at least N+1"
    ("Stations: two at most around Rautatientori, say within 350 m", "station",
     [("count_max", "Rautatientori", 350.0, 2, None, None)]),
    ("three max within 250 m of Kiasma", "station", [("count_max", "Kiasma", 250.0, 3, None, None)]),
    ("Don't let more than one charger land within 200 m of Kiasma; it's a museum!", "station",
     [("count_max", "Kiasma", 200.0, 1, None, None)]),
    ("never more than two new links within 300 m of Majavankatu", "road",
     [("count_max", "Majavankatu", 300.0, 2, None, None)]),
    ("We shouldn't put more than 2 schools within 500 m of Stockmann.", "land",
     [("count_max", "Stockmann", 500.0, 2, None, None)]),
    # "at all" is emphasis, never a place "all"; coverage ends at "!"
    ("Kluuvi shouldn't get any new links at all", "road", [("outside_area", "Kluuvi", None, None, None, None)]),
    ("Every dwelling should be within 800 m of a clinic!", "land", [("coverage", "clinic", 800.0, None, None, None)]),
    # a place fronted with "within D of X", then the clause's subject
    ("Within 300 m of Stockmann we want exactly two chargers.", "station",
     [("count_min", "Stockmann", 300.0, 2, None, None), ("count_max", "Stockmann", 300.0, 2, None, None)]),
    ("Near Kiasma, within 200 m, I want no chargers.", "station", [("exclude_near", "Kiasma", 200.0, None, None, None)]),
]


@pytest.mark.parametrize("text, task", [
    # "all … except …" keeps one out and the rest in: asked (the later rules read it as its opposite, a lock-in)
    ("All links except link 5", "road"),
    ("every site but not site 3", "station"),
    ("Use all parcels apart from parcel 10.", "land"),
])
def test_all_except_is_asked_never_its_opposite(text, task):
    with pytest.raises(Ambiguous, match="all … except"):
        parse(text, task, 700.0)


@pytest.mark.parametrize("text, task", [
    # a question the text answers itself the other way: asked (read whole, the first words won: "link 2 out")
    ("link 2 is out? no — keep it in", "road"),
    ("Site 5 in? Actually, leave it out.", "station"),
    ("parcel 10 as a school? wait, no, an office", "land"),
])
def test_an_instruction_that_takes_itself_back_is_asked(text, task):
    with pytest.raises(Ambiguous, match="takes back what it said first"):
        parse(text, task, 700.0)


@pytest.mark.parametrize("text", ["at most chargers within 300 m of Kiasma", "Max stations within 200 m of Ateneum."])
def test_a_bound_with_no_count_near_a_place_is_asked_never_at_least_one(text):
    with pytest.raises(Ambiguous, match="at most how many"):
        parse(text, "station", 700.0)


@pytest.mark.parametrize("text, task, typ", [
    # a word that fits several types the instance distinguishes: the types' prefix (all of them)
    ("No hospitals inside Punavuori.", "land", "hospital"),
    ("at most one hospital", "land", "hospital"),
    ("ei sairaaloita 300 m säteellä Kiasmasta", "land", "hospital"),
    ("no hospital parcels within 250 m of Ateneum", "land", "hospital"),
    # a word of one type stays that type
    ("at least one large hospital", "land", "hospital_l"),
    ("at least two clinics", "land", "hospital_s"),
    ("no small hospitals inside Kluuvi", "land", "hospital_s"),
    # a genitive name's noun is no type: no green in "Kaisaniemen puisto"
    ("no more than 2 parcels in Kaisaniemen puisto", "land", None),
    # a word of ours in -n at the start is no genitive name: "Green" keeps its type
    ("Green spaces: at least two", "land", "green_s"),
    ("Green areas at least 2 within 500 m of Kiasma", "land", "green_s"),
])
def test_a_type_word_of_several_types_is_their_prefix(text, task, typ):
    assert {c.get("type") for c in parse(text, task, 700.0)} == {typ}


@pytest.mark.parametrize("text, task, unread", [
    # a count after "and" is no id: "site 3 and 12 chargers" is no "sites 3 and 12"
    ("Keep site 3 and 12 chargers", "station", "12"),
    ("Drop link 4 and 3 new links at most", "road", "3"),
    ("parcel 5 in and 2 schools", "land", "2"),
])
def test_a_count_after_and_is_no_id(text, task, unread):
    with pytest.raises(Ambiguous, match=f"but not '{unread}'"):
        parse(text, task, 700.0)


@pytest.mark.parametrize("text", ["at least two chargers within 300 m", "Put at most one school within 500 m."])
def test_a_count_within_a_distance_of_nothing_named_is_asked_never_a_total(text):
    with pytest.raises(Ambiguous, match="of what"):
        parse(text, "land", 700.0)


@pytest.mark.parametrize("text, task, kind", [
    ("parcel 5 → green", "land", "green"), ("block 12 -> office", "land", "office"),
    ("kortteli 10 → koulu", "land", "school"), ("block 3 ⇒ business", "land", "business"),
])
def test_an_arrow_after_an_id_gives_its_type(text, task, kind):
    assert [c["type"].split("_")[0] for c in parse(text, task, 700.0)] == [kind]


@pytest.mark.parametrize("text", ["Every residential block needs a school within 600 metres.",
                                  "Chargers get at most two sites inside Kluuvi."])
def test_a_sentence_that_starts_with_a_word_of_ours_is_no_fronted_place(text):
    assert all(c["target"].get("name") in (None, "Kluuvi") for c in parse(text, "land", 700.0))


@pytest.mark.parametrize("text, kind", [
    ("enintään yksi uusi linkki Kluuvissa", "new"),
    ("ei uusia linkkejä 250 metrin säteellä Ateneumista", "new"),
    ("ei uusia teitä Kumparepuistossa", "new"),   # "tie" (road) is "tei-" in the plural
])
def test_finnish_road_kinds(text, kind):
    assert {c["type"] for c in parse(text, "road", 700.0)} == {kind}

#: classes of the seventh half's run (issue 29), in phrasings of our own
SEVENTH_HALF_CLASSES = [
    # "keep <several words> N m from X": kept that far off (was read as at least one within)
    ("keep all road works 250 m from Otsonkatu", "road", [("exclude_near", "Otsonkatu", 250.0, None, None, None)]),
    ("keep the new charging sites 300 m from Kiasma", "station", [("exclude_near", "Kiasma", 300.0, None, None, None)]),
    ("keep every single school parcel 400 m from Kumparepuisto", "land",
     [("exclude_near", "Kumparepuisto", 400.0, None, None, None)]),
    ("keep 2 chargers within 500 m from Kiasma", "station", [("count_min", "Kiasma", 500.0, 2, None, None)]),
    # Finnish "within" in the allative and illative ("säteelle", "päähän", "etäisyydelle")
    ("Vähintään kaksi latausasemaa 500 metrin säteelle Kiasmasta", "station",
     [("count_min", "Kiasma", 500.0, 2, None, None)]),
    ("Enintään yksi koulutontti 300 metrin päähän Kumparepuistosta", "land",
     [("count_max", "Kumparepuisto", 300.0, 1, None, None)]),
    ("Ei latausasemia 200 metrin etäisyydelle Ateneumista", "station", [("exclude_near", "Ateneumi", 200.0, None, None, None)]),
    # emphasis as "should weigh most" and an up arrow
    ("Travel time should weigh most in this road plan.", "road", [("emphasis", None, None, None, None, "travel_time")]),
    ("ecology ↑", "land", [("emphasis", None, None, None, None, "ecology")]),
    ("coverage should weigh the most", "station", [("emphasis", None, None, None, None, "coverage")]),
]

#: "<Name> at most N <things>" (a name, then a bound, no verb or colon): the bound is within the place
NAME_THEN_BOUND = [
    ("Kluuvi at most two chargers", "station", [("count_max", "Kluuvi", None, 2, None, None)]),
    ("Punavuori at least one school parcel.", "land", [("count_min", "Punavuori", None, 1, None, None)]),
    ("Kaartinkaupunki no more than 3 new links", "road", [("count_max", "Kaartinkaupunki", None, 3, None, None)]),
    ("Ateneum ≤ 1 charger within 250 m", "station", [("count_max", "Ateneum", 250.0, 1, None, None)]),
    ("Stockmann at least two chargers within 400 metres.", "station", [("count_min", "Stockmann", 400.0, 2, None, None)]),
]


@pytest.mark.parametrize("text, task, budget, expect",
                         [(t, k, 500.0, e) for t, k, e in OUR_PHRASINGS + THIRD_HALF_CLASSES]
                         + [(t, k, 700.0, e) for t, k, e in FOURTH_HALF_CLASSES + FOURTH_HALF_FURTHER
                            + FIFTH_HALF_CLASSES + STRANGER_PHRASINGS + NAME_THEN_BOUND + SIXTH_HALF_CLASSES
                            + SIXTH_HALF_STRANGER + SEVENTH_HALF_CLASSES])
def test_rules_read_each_class_of_phrasing(text, task, budget, expect):
    assert brief(parse(text, task, budget)) == expect



@pytest.mark.parametrize("text, task, unread", [
    # a name no reading uses: never a count over the whole plan
    ("Two chargers at most, Kluuvi", "station", "Kluuvi"),
    ("at most one school parcel please Marttila", "land", "Marttila"),
    # a kind the candidates have no type for: never dropped ("fast" is no site kind)
    ("Site 4 must get a fast charger", "station", "fast"),
    ("at least two rapid chargers within 300 m of Kiasma", "station", "rapid"),
    ("no more than three slow chargers", "station", "slow"),
    ("Keep site 7, with a 50 kW charger.", "station", "50 kw"),
    # a number no constraint of the reading uses (as a count, its bound, a distance, an id or a share)
    ("No charger within 300 m of Kiasma, 5 sites at most", "station", "5"),
    ("Keep 400 m between stations, 3 of them", "station", "3"),
    ("site 5 in, 250 m from Ateneum", "station", "5"),
    ("No more than 2 links, 4 new", "road", "4"),
    # a land or site type, or a road kind, that the constraint read cannot carry (a spacing, a budget share; a road
    # kind with a share is the share's since round 15)
    ("Spend at most half the budget on school parcels.", "land", "school"),
    ("Keep 200 m between new links.", "road", "new links"),
    ("Use no more than 60 % of the money for curb sites.", "station", "curb"),
])
def test_a_word_of_meaning_left_unread_is_asked_never_applied(text, task, unread):
    with pytest.raises(Ambiguous, match=f"but not .*'{unread}'.* say it as"):
        parse(text, task, 700.0)


@pytest.mark.parametrize("text, task", [
    # two words that are one kind here, one negated: the difference cannot be kept, so it is asked
    ("link 12 is fine but only as an upgrade, not a rebuild", "road"),
    ("widen link 3, but do not repair it", "road"),
    ("link 8 ok as an improvement of the existing road, never as a reconstruction", "road"),
])
def test_one_kind_said_two_ways_with_a_negation_is_asked(text, task):
    with pytest.raises(Ambiguous, match="are one kind here"):
        parse(text, task, 700.0)


@pytest.mark.parametrize("text, task, share", [
    # money words and budget compounds are no names in a budget share
    ("Road budget 3 M€, don't go over 2,4 M€.", "road", 0.8),
    ("Kokonaisbudjetti 800 000 €, käytä enintään 600 000 €.", "land", 0.75),
    ("Total budget 1.2 MEUR: spend no more than 0.9 MEUR.", "station", 0.75),
])
def test_money_words_are_no_names_in_a_budget_share(text, task, share):
    [c] = parse(text, task, 700.0)
    assert c["kind"] == "budget_share_max" and c["share"] == pytest.approx(share, abs=1e-3)


@pytest.mark.parametrize("text, task", [
    ("Prohibit charging stations within 250 m of Kiasma.", "station"),
    ("Spend at most €900k out of the €1.2M.", "road"),
    ("No business parcels inside Punavuori.", "land"),
    ("Keep 300 m between stations.", "station"),
    ("Every residential block must be within 600 metres of a school.", "land"),
    ("Parcels inside Suurniitty may not be used for offices.", "land"),
    ("at most 2 chargers within 1.5 km of Kiasma", "station"),   # 1.5 km is the 1500 m read
    ("fewer than 4 stations", "station"),                        # 4 bounds the count of 3
    ("parcels 3, 4 and 9 in", "land"),
])
def test_every_word_of_meaning_read_is_no_question(text, task):
    assert parse(text, task, 700.0)


#: stranger instructions of our own after the sixth half's tuning (round 6): each class that failed, as rows
@pytest.mark.parametrize("text, expect", [
    # "nothing new" / "no new ones" / "anything new" are new links: read as every link, a rebuild near the
    # place would have been kept out too — a stricter constraint than the one said
    ("link 3 must stay in the plan, and nothing new within 250 m of Tikankatu.",
     [("lock_in", None, None), ("exclude_near", "new", 250.0)]),
    ("no new ones within 300 m of Kaisa-talo", [("exclude_near", "new", 300.0)]),
    ("Keep anything new at least 200 m away from Marttilankatu", [("exclude_near", "new", 200.0)]),
    ("nothing new inside Kluuvi", [("outside_area", "new", None)]),
])
def test_a_road_kind_said_as_nothing_new_is_kept(text, expect):
    assert [(c["kind"], c.get("type"), c.get("distance_m")) for c in parse(text, "road", 700.0)] == expect


@pytest.mark.parametrize("text, task, term", [
    # a capitalised Finnish word of amount before a colon or comma is no name ("Enemmän vihreää: …")
    ("Enemmän vihreää: prioritise ecology.", "land", "ecology"),
    ("Vähemmän ajoaikaa: focus on travel time", "road", "travel_time"),
    ("Lisää saavutettavuutta, emphasise access", "station", "access"),
])
def test_finnish_amount_words_are_no_names(text, task, term):
    assert brief(parse(text, task, 700.0)) == [("emphasis", None, None, None, None, term)]


@pytest.mark.parametrize("text, task, expect", [
    # terse: a distance, then the place with no "of"
    ("min 2 chargers ≤ 300 m Vanha kirkko", "station", [("count_min", "Vanha kirkko", 300.0, 2, None, None)]),
    ("no chargers within 200 m Kiasma", "station", [("exclude_near", "Kiasma", 200.0, None, None, None)]),
    ("max 1 new link ≤ 250 m Marttilankatu", "road", [("count_max", "Marttilankatu", 250.0, 1, None, None)]),
    ("no offices 300 m Porthania", "land", [("exclude_near", "Porthania", 300.0, None, None, None)]),
    # a bound over the whole plan after a comma is its own clause: it was read as the bound near the place
    # before it, the "no" dropped ("no chargers within 200 m of Kiasma, at most 3 overall" → at most 3 near Kiasma)
    ("no chargers within 200 m of Kiasma, at most 3 overall", "station",
     [("exclude_near", "Kiasma", 200.0, None, None, None), ("count_max", None, None, 3, None, None)]),
    ("no new links inside Kluuvi, max 4 in total", "road",
     [("outside_area", "Kluuvi", None, None, None, None), ("count_max", None, None, 4, None, None)]),
    ("at least one school within 500 m of Stockmann, at most two schools altogether", "land",
     [("count_min", "Stockmann", 500.0, 1, None, None), ("count_max", None, None, 2, None, None)]),
])
def test_round_six_stranger_classes(text, task, expect):
    assert brief(parse(text, task, 700.0)) == expect


@pytest.mark.parametrize("text, task", [
    # "no …" and then a bare bound in one clause: one was read, the other dropped ("…, at least 2" was read as
    # at least 2 within 200 m of Kiasma: the opposite of "no chargers"); asked
    ("no chargers within 200 m of Kiasma, at least 2", "station"),
    ("no chargers within 200 m of Kiasma, at most 3", "station"),
    ("No new links near Tikankatu within 300 m, two at most", "road"),
    ("no schools inside Punavuori, max 2", "land"),
])
def test_none_then_a_bare_bound_is_asked(text, task):
    with pytest.raises(Ambiguous, match="says none and then"):
        parse(text, task, 700.0)


@pytest.mark.parametrize("text, task, share", [
    # a total said in money, then a bare part "of it": a share of that total (was asked, '900 000' unread)
    ("We have 1,2 million euros; spend at most 900 000 of it.", "road", 0.75),
    ("The budget is €800 000 and we may use only 600 000 of that.", "land", 0.75),
    ("€600 000 available, at most 450 000 of it on chargers", "station", 0.75),
    # the total in a sentence of its own: one share of the whole text (each sentence was read as a share of
    # the instance's budget, two caps, the first a wrong one)
    ("Our funds: 500 k€. Use no more than 400k of it.", "station", 0.8),
    ("Budget 1 M€. Spend at most 750 000 of that.", "road", 0.75),
    ("Total: €900k. Only €600k of it may be used.", "land", 0.6667),
])
def test_a_part_of_a_total_said_before_it(text, task, share):
    [c] = parse(text, task, 700.0)
    assert c["kind"] == "budget_share_max" and c["share"] == pytest.approx(share, abs=1e-3)


@pytest.mark.parametrize("text, task, expect", [
    # idioms with "no" that negate nothing ("… site 5 no matter what" was read as site 5 out)
    ("put a charger at site 5 no matter what", "station", [("lock_in", "5", None, None, None, None)]),
    ("Link 4 stays, no matter the cost.", "road", [("lock_in", "4", None, None, None, None)]),
    ("parcel 3 must be in, non-negotiable", "land", [("lock_in", "3", None, None, None, None)]),
    # "must not exceed N" is at most N (was read as none, the count dropped)
    ("Rebuilt links must not exceed three within 500 metres of Kaisaniemi.", "road",
     [("count_max", "Kaisaniemi", 500.0, 3, None, None)]),
    ("Chargers within 300 m of Kiasma may not exceed 2.", "station", [("count_max", "Kiasma", 300.0, 2, None, None)]),
    ("new links should not go over 4", "road", [("count_max", None, None, 4, None, None)]),
])
def test_no_that_negates_nothing_and_not_exceed(text, task, expect):
    assert brief(parse(text, task, 700.0)) == expect


@pytest.mark.parametrize("text, expect", [
    # "new stuff" / "new construction" are new links (read as every link: a rebuild near the place kept out too)
    ("keep new stuff at least 200 metres away from Vanha kirkko", [("exclude_near", "new", 200.0)]),
    ("no new construction inside Kluuvi", [("outside_area", "new", None)]),
    ("at most two new things near Tikankatu within 300 m", [("count_max", "new", 300.0)]),
])
def test_new_stuff_is_new_links(text, expect):
    assert [(c["kind"], c.get("type"), c.get("distance_m")) for c in parse(text, "road", 700.0)] == expect


@pytest.mark.parametrize("text", ["no link within 300 m of Kiasma should be new",
                                  "links within 250 m of Tikankatu: none of them new",
                                  "at most 2 links inside Kluuvi, whether new or not"])
def test_a_road_kind_word_no_constraint_carries_is_asked(text):
    with pytest.raises(Ambiguous, match="but not"):
        parse(text, "road", 700.0)


@pytest.mark.parametrize("text, task, expect", [
    # "stay / remain D from X" keeps that far off (was read as at least one within D of X)
    ("chargers should stay 200 metres from Ateneum", "station", [("exclude_near", "Ateneum", 200.0, None, None, None)]),
    ("the upgraded ones stay 250 m from Tikankatu", "road", [("exclude_near", "Tikankatu", 250.0, None, None, None)]),
    ("new links must remain 200 m from Kiasma", "road", [("exclude_near", "Kiasma", 200.0, None, None, None)]),
])
def test_stay_a_distance_from_is_a_keep_away(text, task, expect):
    assert brief(parse(text, task, 700.0)) == expect


@pytest.mark.parametrize("text, task", [
    # a rule with an exception: the exception was read as the kind the rule is about ("unless rebuilt" → rebuilds)
    ("no links within 250 m of Tikankatu unless rebuilt", "road"),
    ("no chargers within 250 m of Kiasma unless parking", "station"),
    ("no offices inside Punavuori except if small", "land"),
])
def test_a_rule_with_an_exception_is_asked(text, task):
    with pytest.raises(Ambiguous, match="keeps an exception"):
        parse(text, task, 700.0)


@pytest.mark.parametrize("text, task, expect", [
    # a bound split round its noun: "not more new links than three" was read as none inside Kluuvi
    ("not more new links than three inside Kluuvi", "road", [("count_max", "Kluuvi", None, 3, None, None)]),
    ("no more chargers than 2 around Porthania (300 m)", "station", [("count_max", "Porthania", 300.0, 2, None, None)]),
    ("no more school parcels than 1 within 500 m of Stockmann", "land",
     [("count_max", "Stockmann", 500.0, 1, None, None)]),
    ("fewer chargers than 3 within 400 m of Ateneum", "station", [("count_max", "Ateneum", 400.0, 2, None, None)]),
    # a distance after "closer than" stays a distance
    ("no more chargers closer than 200 m to Kiasma", "station", [("exclude_near", "Kiasma", 200.0, None, None, None)]),
])
def test_a_bound_split_round_its_noun(text, task, expect):
    assert brief(parse(text, task, 700.0)) == expect


@pytest.mark.parametrize("text, task", [("no more links than we need", "road"), ("no more chargers than necessary", "station"),
                                        ("no more parcels than needed", "land")])
def test_a_bound_with_nothing_to_count_is_asked(text, task):
    # never a constraint ("no more links than we need" was stored as at least 0 links): asked, or not read
    with pytest.raises((Ambiguous, NoRule)):
        parse(text, task, 700.0)


# Round 7: a stranger's phrasings of our own (the set itself stays out of the repository); each class
# with phrasings other than the ones that found it.
ROUND_SEVEN_STRANGER = [
    # a candidate left as it is is none of the plan (read as a lock-in: "must", "keep", "stay")
    ("leave parcel 5 as it is", "land", [("lock_out", "5", None, None, None, None)]),
    ("site 7 should stay untouched", "station", [("lock_out", "7", None, None, None, None)]),
    ("link 12 stays as is", "road", [("lock_out", "12", None, None, None, None)]),
    ("keep block 2 unchanged", "land", [("lock_out", "2", None, None, None, None)]),
    # "nothing on …" keeps the ids out (read as lock-ins: "put")
    ("nothing on parcel 5", "land", [("lock_out", "5", None, None, None, None)]),
    ("none at sites 3 and 8", "station", [("lock_out", "3", None, None, None, None),
                                           ("lock_out", "8", None, None, None, None)]),
    ("put nothing on link 4", "road", [("lock_out", "4", None, None, None, None)]),
    # ... while a plain keep or "in" stays a lock-in
    ("leave parcel 5 in", "land", [("lock_in", "5", None, None, None, None)]),
    ("keep block 2 as a school", "land", [("lock_in", "2", None, None, None, None)]),
    # "would rather not … more than N" is at most N (read as at least N + 1)
    ("we would rather not have more than two chargers in total", "station", [("count_max", None, None, 2, None, None)]),
    ("I'd rather not see more than 4 new links", "road", [("count_max", None, None, 4, None, None)]),
    ("we'd rather not allocate more than three parcels to offices", "land", [("count_max", None, None, 3, None, None)]),
    # "D off X" is kept that far off (read as at least one within D of X)
    ("keep chargers at least 300 m off Kiasma", "station", [("exclude_near", "Kiasma", 300.0, None, None, None)]),
    ("links should stay 200 m off Tikankatu", "road", [("exclude_near", "Tikankatu", 200.0, None, None, None)]),
    ("parcels a minimum of 150 m off Ateneum", "land", [("exclude_near", "Ateneum", 150.0, None, None, None)]),
    # emphasis said as what counts / is everything, and in Finnish (asked before)
    ("travel time is what counts", "road", [("emphasis", None, None, None, None, "travel_time")]),
    ("coverage counts most", "station", [("emphasis", None, None, None, None, "coverage")]),
    ("for us ecology is everything", "land", [("emphasis", None, None, None, None, "ecology")]),
    ("Saavutettavuus on tärkeintä", "station", [("emphasis", None, None, None, None, "access")]),
    ("Matka-ajat ensisijaisesti", "road", [("emphasis", None, None, None, None, "travel_time")]),
    ("Ekologiaa painotetaan", "land", [("emphasis", None, None, None, None, "ecology")]),
    # Finnish: a genitive name with its noun in the elative; a genitive before "sisällä" / "alueella"; spacing
    ("vähintään kaksi latausasemaa 300 metrin säteellä Kaisaniemen puistosta", "station",
     [("count_min", "Kaisaniemen puisto", 300.0, 2, None, None)]),
    ("enintään yksi uusi tie 200 metrin säteellä Helilän koulusta", "road",
     [("count_max", "Helilän koulu", 200.0, 1, None, None)]),
    ("ei latausasemia 250 metrin säteellä Vanhan kirkon puistosta", "station",
     [("exclude_near", "Vanhan kirkon puisto", 250.0, None, None, None)]),
    ("latausasemia vain Kluuvin alueelle", "station", [("inside_area", "Kluuvi", None, None, None, None)]),
    ("uusia teitä vain Ristinkallion sisälle", "road", [("inside_area", "Ristinkallio", None, None, None, None)]),
    ("ei toimistoja Kluuvin alueella", "land", [("outside_area", "Kluuvi", None, None, None, None)]),
    ("Latausasemien väli vähintään 300 metriä", "station", [("spacing_min", None, 300.0, None, None, None)]),
    ("asemat vähintään 400 metrin päähän toisistaan", "station", [("spacing_min", None, 400.0, None, None, None)]),
    ("Latauspisteiden välimatka vähintään 250 m", "station", [("spacing_min", None, 250.0, None, None, None)]),
]


@pytest.mark.parametrize("text, task, expect", ROUND_SEVEN_STRANGER)
def test_round_seven_stranger_classes(text, task, expect):
    assert brief(parse(text, task, 700.0)) == expect


@pytest.mark.parametrize("text, task, share", [
    # "Jos" (if) starts a Finnish sentence, no name (asked as one)
    ("Jos budjetti on 800 000 €, käytä enintään 600 000 €", "station", 0.75),
    ("Jos rahaa on 1 M€, käytä korkeintaan 700 000 €", "road", 0.7),
    ("Jos kokonaisbudjetti on 500 000 euroa, käytä siitä enintään 400 000 euroa", "land", 0.8),
])
def test_a_finnish_if_is_no_name(text, task, share):
    assert [(c["kind"], c["share"]) for c in parse(text, task, 700.0)] == [("budget_share_max", share)]


@pytest.mark.parametrize("text, task, said", [
    # a share of the plan's candidates: no constraint holds it (read as "at least one green parcel", the share dropped)
    ("at least 30 % of the parcels green", "land", "30 %"),
    ("no more than a quarter offices", "land", "a quarter"),
    ("at least 40 per cent parks", "land", "40 per cent"),
    ("puolet puistoiksi", "land", "puolet"),
    ("vähintään neljännes kouluille", "land", "neljännes"),
    ("two thirds of the new links inside Kluuvi", "road", "two thirds"),
])
def test_a_share_of_the_plan_is_asked(text, task, said):
    with pytest.raises(Ambiguous, match=f"'{said}' is a share of the plan"):
        parse(text, task, 700.0)


@pytest.mark.parametrize("text, word", [
    # land uses the land task has no type for: the constraint would hold for every type (applied to all)
    ("no housing within 300 m of Kiasma", "housing"),
    ("no industry inside Kluuvi", "industry"),
    ("at most two palvelu parcels", "palvelu"),
    ("ei teollisuutta 200 metrin säteellä Kiasmasta", "teollisuutta"),
])
def test_a_land_use_with_no_type_is_asked(text, word):
    with pytest.raises(Ambiguous, match=f"but not '{word}'"):
        parse(text, "land", 700.0)


@pytest.mark.parametrize("text", ["no housing block more than 500 m from a school",
                                  "every residential block within 600 m of a park"])
def test_housing_blocks_stay_coverage(text):
    assert [c["kind"] for c in parse(text, "land", 700.0)] == ["coverage"]


@pytest.mark.parametrize("text, task, own", [
    # a question quotes the planner's own words, never our rewrite of them ("must be at most three")
    ("Chargers must not exceed three fast ones within 300 m of Kiasma", "station", "must not exceed three"),
    ("no more than 2 rapid chargers, no matter what, within 400 m of Ateneum", "station", "no matter what"),
    ("not more fast chargers than two within 400 m of Ateneum", "station", "not more fast chargers than two"),
])
def test_a_question_quotes_the_planners_own_words(text, task, own):
    with pytest.raises(Ambiguous) as asked:
        parse(text, task, 700.0)
    assert own in str(asked.value)


@pytest.mark.parametrize("text, task, expect", [
    # Finnish fractions of the budget ("kaksi kolmasosaa", "puolet budjetista") and the budget in a case ending
    ("Budjetista saa käyttää enintään kolme neljäsosaa.", "station", [("budget_share_max", None, None, None, 0.75, None)]),
    ("Käytä korkeintaan puolet budjetista", "land", [("budget_share_max", None, None, None, 0.5, None)]),
    ("viidesosa budjetista käyttämättä", "road", [("budget_share_max", None, None, None, 0.8, None)]),
    # Finnish emphasis: "tärkeimpiä" (consonant gradation), connections as connectivity
    ("tieyhteydet ovat tärkeimpiä", "road", [("emphasis", None, None, None, None, "connectivity")]),
    ("Ekologia on meille tärkeää", "land", [("emphasis", None, None, None, None, "ecology")]),
    ("Kattavuus on tärkein tavoite", "station", [("emphasis", None, None, None, None, "coverage")]),
])
def test_round_seven_finnish_shares_and_emphasis(text, task, expect):
    assert brief(parse(text, task, 700.0)) == expect


@pytest.mark.parametrize("text, expect", [
    # a type said to be not needed / wanted is none of it (was not read)
    ("hospitals are not needed at all", [("count_max", 0, "hospital")]),
    ("offices aren't wanted", [("count_max", 0, "office")]),
    ("Schools are not required here", [("count_max", 0, "school")]),
])
def test_a_type_not_needed_is_none_of_it(text, expect):
    assert [(c["kind"], c["count"], c["type"]) for c in parse(text, "land", 700.0)] == expect


@pytest.mark.parametrize("text, task, expect", [
    # "let … alone" is out; "and nothing else" keeps the rest out, which no one constraint says: asked
    ("let link 4 alone", "road", [("lock_out", "4", None, None, None, None)]),
    ("site 3 alone", "station", [("lock_in", "3", None, None, None, None)]),
])
def test_left_alone_is_out_and_alone_is_only(text, task, expect):
    assert brief(parse(text, task, 700.0)) == expect


@pytest.mark.parametrize("text, task, said", [
    ("keep site 3 and nothing else", "station", "nothing else"),
    ("parcel 5 for a school, none other", "land", "none other"),
    ("link 7 in and nothing else", "road", "nothing else"),
])
def test_one_and_nothing_else_is_asked_in_the_planners_words(text, task, said):
    with pytest.raises(Ambiguous, match=f"'{said} …'"):
        parse(text, task, 700.0)


@pytest.mark.parametrize("text, task, said", [
    # a ratio of the plan's candidates is a share ("one in three" was read as a count of one)
    ("no more than one in three parcels may be offices", "land", "one in three"),
    ("at least 1 in 4 parcels green", "land", "1 in 4"),
    ("two out of every five new links rebuilt", "road", "two out of every five"),
])
def test_a_ratio_of_the_plan_is_asked(text, task, said):
    with pytest.raises(Ambiguous, match=f"'{said}' is a share of the plan"):
        parse(text, task, 700.0)


@pytest.mark.parametrize("text, task, ask", [
    # "anything except offices" was read as offices; "residential" is no land type (dropped from the lock-in)
    ("parcel 23 can be anything except offices", "land", "'anything except …'"),
    ("block 4: anything other than a school", "land", "'anything other than …'"),
    ("make parcel 29 residential", "land", "but not 'residential'"),
    ("residential use on block 10", "land", "but not 'residential'"),
])
def test_anything_except_and_residential_are_asked(text, task, ask):
    with pytest.raises(Ambiguous, match=ask):
        parse(text, task, 700.0)


@pytest.mark.parametrize("text", ["Tontti 12 pysyy ennallaan", "kortteli 16 jää ennalleen"])
def test_finnish_as_it_is_is_out(text):
    assert [(c["kind"], c["target"]["id"]) for c in parse(text, "land", 700.0)] == [("lock_out", text.split()[1])]


# Classes of the eighth half's run (issue 29, round 8), in phrasings of our own (other places, tasks and words)
EIGHTH_HALF_CLASSES = [
    # a Finnish task word in a case form is the plan itself: no unread name, no place "inside" it
    ("Latausasemasuunnitelmassa saa käyttää enintään 60 % budjetista.", "station",
     [("budget_share_max", None, None, None, 0.6, None)]),
    ("Maankäyttösuunnitelmaan käytetään korkeintaan kolme neljäsosaa budjetista.", "land",
     [("budget_share_max", None, None, None, 0.75, None)]),
    ("Tiesuunnitelmassa enintään kolme uutta tietä.", "road", [("count_max", None, None, 3, None, None)]),
    ("Maankäyttösuunnitelmassa enintään kaksi toimistoa.", "land", [("count_max", None, None, 2, None, None)]),
    ("Latausasemasuunnitelmaan vähintään kaksi latausasemaa 400 metrin säteellä Kiasmasta.", "station",
     [("count_min", "Kiasma", 400.0, 2, None, None)]),
    ("Tiesuunnitelmaan ei uusia teitä 200 metrin säteellä Kumparepuistosta", "road",
     [("exclude_near", "Kumparepuisto", 200.0, None, None, None)]),
    ("Maankäyttösuunnitelmassa ei toimistoja Ristinkallion alueella", "land",
     [("outside_area", "Ristinkallio", None, None, None, None)]),
    # emphasis said as "X weighted above Y and Z", "X before Y", "X over Y": the first term, Y no unread word
    ("Services should be weighted above ecology.", "land", [("emphasis", None, None, None, None, "service")]),
    ("Connectivity weighted above travel time and cost", "road",
     [("emphasis", None, None, None, None, "connectivity")]),
    ("coverage before cost", "station", [("emphasis", None, None, None, None, "coverage")]),
    ("Access over coverage, please", "station", [("emphasis", None, None, None, None, "access")]),
    ("travel time over connectivity", "road", [("emphasis", None, None, None, None, "travel_time")]),
    ("ecology ahead of housing and offices", "land", [("emphasis", None, None, None, None, "ecology")]),
    # a category and the land it stands on ("a school parcel", "a school site") is the category in a coverage
    ("every residential block within 400 m of a school site", "land", [("coverage", "school", 400.0, None, None, None)]),
    ("no housing block farther than 300 m from the nearest clinic parcel", "land",
     [("coverage", "clinic", 300.0, None, None, None)]),
    ("Every residential block needs a school plot within 600 metres.", "land",
     [("coverage", "school", 600.0, None, None, None)]),
    ("no home more than 800 m from a charging site", "station", [("coverage", "charging", 800.0, None, None, None)]),
    # Finnish emphasis: "painotetaan X", "X:ää painotetaan", "X edellä", "X Y:n edellä"; term words, no land use
    ("painotetaan palveluja", "land", [("emphasis", None, None, None, None, "service")]),
    ("Palveluita painotetaan enemmän kuin ekologiaa", "land", [("emphasis", None, None, None, None, "service")]),
    ("palvelut ekologian edellä", "land", [("emphasis", None, None, None, None, "service")]),
    ("Ekologian edellä palvelut", "land", [("emphasis", None, None, None, None, "service")]),
    ("ekologia edellä", "land", [("emphasis", None, None, None, None, "ecology")]),
    ("yhteydet edellä", "road", [("emphasis", None, None, None, None, "connectivity")]),
    ("kattavuus edellä", "station", [("emphasis", None, None, None, None, "coverage")]),
]


@pytest.mark.parametrize("text, task, expect", EIGHTH_HALF_CLASSES)
def test_eighth_half_classes(text, task, expect):
    assert brief(parse(text, task, 700.0)) == expect


@pytest.mark.parametrize("text, task", [
    # never a reading that means something else: no term first, or a name after "over"
    ("residential over ecology", "land"),
    ("offices over parks", "land"),
    ("ecology over Kluuvi", "land"),
    # a threshold or an extent after "over" / "above" is no order of terms
    ("costs over a million euros are too much", "road"),
    ("waiting times above ten minutes are not acceptable", "station"),
    ("coverage over the whole city", "station"),
])
def test_an_order_without_a_term_first_is_no_emphasis(text, task):
    with pytest.raises((Ambiguous, NoRule)):
        parse(text, task, 700.0)


@pytest.mark.parametrize("text, task, expect", [
    # outside an emphasis the Finnish term word is a land use the task has no type for: still asked
    ("at most two palvelu parcels", "land", "palvelu"),
    ("ei palveluja Kluuvissa", "land", "palveluja"),
])
def test_a_finnish_term_word_as_a_land_use_is_asked(text, task, expect):
    with pytest.raises(Ambiguous, match=f"but not '{expect}'"):
        parse(text, task, 700.0)


NINTH_HALF_CLASSES = [
    # a budget share said as what is left unspent, Finnish and English: a cap of the rest (numbers from the lexicon)
    ("jätä neljännes budjetista käyttämättä", "station", [("budget_share_max", None, None, None, 0.75, None)]),
    ("Säästäkää kolmasosa.", "land", [("budget_share_max", None, None, None, 0.6667, None)]),
    ("säästä kaksi viidennestä budjetista", "road", [("budget_share_max", None, None, None, 0.6, None)]),
    ("pidä 10 % budjetista varalla", "land", [("budget_share_max", None, None, None, 0.9, None)]),
    ("jätä kymmenennes rahoista käyttämättä", "station", [("budget_share_max", None, None, None, 0.9, None)]),
    ("leave a fifth of the money unspent", "road", [("budget_share_max", None, None, None, 0.8, None)]),
    ("keep 15 % in reserve", "station", [("budget_share_max", None, None, None, 0.85, None)]),
    # the rest kept back, either order: the share said is what is spent
    ("käytä 70 % ja säästä loput", "land", [("budget_share_max", None, None, None, 0.7, None)]),
    ("spend 60 % and save the rest", "road", [("budget_share_max", None, None, None, 0.6, None)]),
    # a place fronted (":", "→", "-", ",") and referred back to by its outline: that place's outline (the
    # resolver reads the name past the nouns, tests/core/test_instruction_names.py)
    ("Sanomatalo: at most two chargers within 300 m of its outline", "station",
     [("count_max", "Sanomatalo's outline", 300.0, 2, None, None)]),
    ("Kumparepuisto → no new links within 150 m of the park's edge", "road",
     [("exclude_near", "Kumparepuisto park's edge", 150.0, None, None, None)]),
    ("As for the Lohi block, no offices within 100 m of its boundary", "land",
     [("exclude_near", "Lohi block's boundary", 100.0, None, None, None)]),
    ("Kiasma -> at least one charger within 250 m of it", "station", [("count_min", "Kiasma", 250.0, 1, None, None)]),
    ("The Kirahvi building - no offices within 120 m of the building's footprint", "land",
     [("exclude_near", "Kirahvi building's footprint", 120.0, None, None, None)]),
    ("Kumparepuisto: ei toimistoja 200 metrin säteellä sen reunasta", "land",
     [("exclude_near", "Kumparepuisto's edge", 200.0, None, None, None)]),
    ("Heliä: vähintään yksi latausasema sen reunasta 300 metrin säteellä", "station",
     [("count_min", "Heliä's edge", 300.0, 1, None, None)]),
    # a name fronted with a comma and then a bound: within the place, as with a colon; a sentence adverb is no name
    ("Kluuvi, max two schools", "land", [("count_max", "Kluuvi", None, 2, None, None)]),
    ("Ristinkallio, at most one new link", "road", [("count_max", "Ristinkallio", None, 1, None, None)]),
    ("Kiasma, at most one charger within 200 m", "station", [("count_max", "Kiasma", 200.0, 1, None, None)]),
    ("Finally, at most two schools", "land", [("count_max", None, None, 2, None, None)]),
    ("Overall, no more than three chargers", "station", [("count_max", None, None, 3, None, None)]),
]


@pytest.mark.parametrize("text, task, expect", NINTH_HALF_CLASSES)
def test_ninth_half_classes(text, task, expect):
    assert brief(parse(text, task, 700.0)) == expect


@pytest.mark.parametrize("text, task, said", [
    # a share kept back "of the parcels" is a share of the plan, never money
    ("leave a quarter of the parcels unused", "land", "a quarter"),
    ("säästä kolmannes kortteleista puistoiksi", "land", "kolmannes"),
    ("vähintään viidennes viheralueeksi", "land", "viidennes"),
])
def test_a_share_of_the_plan_kept_back_is_no_budget(text, task, said):
    with pytest.raises(Ambiguous, match=f"'{said}' is a share of the plan"):
        parse(text, task, 700.0)


@pytest.mark.parametrize("text, task, said", [
    # a soft permission is never a hard bound: asked (it was applied as at least 4)
    ("it would not hurt to have more than 3 chargers", "station", "it would not hurt"),
    ("It wouldn't hurt to build more than two new links", "road", "It wouldn't hurt"),
    ("we wouldn't mind more than two schools", "land", "wouldn't mind"),
    ("Ei haittaisi, jos uusia teitä olisi enemmän kuin kaksi", "road", "Ei haittaisi"),
])
def test_a_soft_permission_is_asked_never_a_hard_bound(text, task, said):
    with pytest.raises(Ambiguous, match=f"'{said}' makes it a wish"):
        parse(text, task, 700.0)


@pytest.mark.parametrize("text, task, kind, count, typ, wish", [
    # a soft wish is the constraint it asks for, as the dev sets' independent authors expect (round 13, v13-in-30),
    # and the reply says it is held as a rule and how to drop it
    ("Ideally at least two schools", "land", "count_min", 2, "school", "Ideally"),
    ("preferably no more than one office within 300 m of Kiasma", "land", "count_max", 1, "office", "preferably"),
    ("olisi kiva jos latausasemia olisi vähintään kolme", "station", "count_min", 3, None, "olisi kiva"),
    ("Mieluiten enintään kaksi uutta tietä.", "road", "count_max", 2, "new", "Mieluiten"),
    ("at least one new link within 400 m of Kauppatori would be nice", "road", "count_min", 1, "new", "would be nice"),
    ("It would be good if there were at least two schools.", "land", "count_min", 2, "school", "It would be good"),
    ("at least two chargers within 300 m of Stockmann, if possible", "station", "count_min", 2, None, "if possible"),
])
def test_a_soft_wish_is_the_constraint_held_as_a_rule(text, task, kind, count, typ, wish):
    (c,) = parse(text, task, 700.0)
    assert (c["kind"], c.get("count"), c.get("type")) == (kind, count, typ)
    assert f"'{wish}' is held as a rule" in c["note"] and "remove" in c["note"]


@pytest.mark.parametrize("text, task, expect", [
    # a soft wish with a score term is an emphasis, itself soft
    ("it would be nice to prioritise coverage", "station", [("emphasis", None, None, None, None, "coverage")]),
    ("ideally, focus on connectivity", "road", [("emphasis", None, None, None, None, "connectivity")]),
    # Finnish coverage sentences: every block (the subject) within a distance of a kind of place
    ("jokainen asuinkortteli enintään 500 metrin päässä koulutontista", "land",
     [("coverage", "school", 500.0, None, None, None)]),
    ("kaikista kortteleista alle 400 m puistoon", "land", [("coverage", "green", 400.0, None, None, None)]),
    ("Jokaisesta asuinkorttelista enintään 600 metriä kouluun", "land", [("coverage", "school", 600.0, None, None, None)]),
    ("Jokaisella asuinkorttelilla pitää olla koulu 500 metrin säteellä", "land",
     [("coverage", "school", 500.0, None, None, None)]),
    ("Kaikilla kodeilla on apteekki alle 700 metrin päässä", "land", [("coverage", "clinic", 700.0, None, None, None)]),
    ("jokainen asuinkortteli enintään 800 metrin päässä latausasemasta", "station",
     [("coverage", "charging", 800.0, None, None, None)]),
    # a region's genitive and a task word: the region's plan, no name
    ("Kotkan tiesuunnitelmassa enintään kolme uutta tietä", "road", [("count_max", None, None, 3, None, None)]),
    ("Helsingin latausasemasuunnitelmaan vähintään kaksi latausasemaa 400 metrin säteellä Kiasmasta", "station",
     [("count_min", "Kiasma", 400.0, 2, None, None)]),
    ("Karhulan maankäyttösuunnitelmassa enintään kaksi toimistoa", "land", [("count_max", None, None, 2, None, None)]),
    ("In Kotka's road plan, at most two new links", "road", [("count_max", None, None, 2, None, None)]),
    # a bare count before a Finnish candidate noun is that count (it was read as at least one)
    ("jätä 2 latausasemaa 300 metrin säteelle Kiasmasta", "station", [("count_min", "Kiasma", 300.0, 2, None, None)]),
    ("sijoita kolme latausasemaa 400 metrin säteelle Kumparepuistosta", "station",
     [("count_min", "Kumparepuisto", 400.0, 3, None, None)]),
    ("rakenna kaksi uutta tietä 500 metrin säteelle Kiasmasta", "road", [("count_min", "Kiasma", 500.0, 2, None, None)]),
])
def test_ninth_half_left_alone_classes(text, task, expect):
    assert brief(parse(text, task, 700.0)) == expect


@pytest.mark.parametrize("text", [
    # Finnish sentences about every block that are no coverage: a lower bound, a name
    "jokaisesta korttelista vähintään 300 m puistoon",
    "Jokainen asuinkortteli korkeintaan 400 m päässä Kiasmasta",
])
def test_finnish_sentences_about_every_block_that_are_no_coverage(text):
    try:
        got = parse(text, "land", 700.0)
    except (Ambiguous, NoRule):
        return
    assert all(c["kind"] != "coverage" for c in got)


@pytest.mark.parametrize("text, task", [
    # a count for each block, parcel or district is no total: asked (it was applied as a bound on the whole plan)
    ("at most 2 offices per block", "land"),
    ("each block at most 2 offices", "land"),
    ("jokaisessa korttelissa enintään 2 toimistoa", "land"),
    ("at least one charger in every district", "station"),
    ("korkeintaan yksi uusi tie jokaiselle alueelle", "road"),
])
def test_a_count_per_unit_is_asked_never_a_total(text, task):
    with pytest.raises(Ambiguous, match="a count in each one"):
        parse(text, task, 700.0)


def typed(cons: list[dict]) -> list[tuple]:
    """``brief`` with each constraint's type (a count of a land type, a road kind)."""
    return [(*b, c.get("type")) for b, c in zip(brief(cons), cons, strict=True)]


TENTH_HALF_CLASSES = [
    # a bound run together or misspelt (numbers.json misspelt_bounds, exact forms): the bound, never a name, never lost
    # ("atmos 2" and "enintäin kaksi" were read as at least two; "Atleast" was asked as a name)
    ("Atmost two chargers within 300 m of Kiasma", "station", [("count_max", "Kiasma", 300.0, 2, None, None, None)]),
    ("At mos 2 chargers inside Kluuvi", "station", [("count_max", "Kluuvi", None, 2, None, None, None)]),
    ("atleast one new link within 500 m of Kumparepuisto", "road",
     [("count_min", "Kumparepuisto", 500.0, 1, None, None, "new")]),
    ("Atleas one school within 400 m of Ristinkallio", "land",
     [("count_min", "Ristinkallio", 400.0, 1, None, None, "school")]),
    ("no more then 2 offices", "land", [("count_max", None, None, 2, None, None, "office")]),
    ("Upto three new links", "road", [("count_max", None, None, 3, None, None, "new")]),
    ("enintäin kaksi latausasemaa 300 metrin säteellä Heliästä", "station",
     [("count_max", "Heliä", 300.0, 2, None, None, None)]),
    ("vähintäin yksi koulu", "land", [("count_min", None, None, 1, None, None, "school")]),
    ("korkeintaa kolme uutta tietä", "road", [("count_max", None, None, 3, None, None, "new")]),
    ("vahintaan kaksi uutta tietä", "road", [("count_min", None, None, 2, None, None, "new")]),
    # a Finnish sentence start (a pronoun, a passive verb) is no place; "siitä" is the total said; decimal commas
    ("Meillä on 0,8 M€, käytetään siitä enintään puolet", "road", [("budget_share_max", None, None, None, 0.5, None, None)]),
    ("Meidän budjetti on 1,2 milj. €; käytetään siitä korkeintaan 900 000", "station",
     [("budget_share_max", None, None, None, 0.75, None, None)]),
    ("Meillä on 0,5 M€. Käytetään siitä enintään 400 000.", "land",
     [("budget_share_max", None, None, None, 0.8, None, None)]),
    ("Meillä on 0,75 M€, käytetään siitä enintään 0,6 M€", "station",
     [("budget_share_max", None, None, None, 0.8, None, None)]),
    ("Meillä on 600 000 €, mutta käytetään siitä korkeintaan kolme neljäsosaa", "land",
     [("budget_share_max", None, None, None, 0.75, None, None)]),
    ("Käytetään korkeintaan 70 % budjetista", "land", [("budget_share_max", None, None, None, 0.7, None, None)]),
    ("Pidetään 20 % budjetista varalla", "road", [("budget_share_max", None, None, None, 0.8, None, None)]),
    ("Sijoitetaan vähintään kaksi latausasemaa 300 metrin säteelle Kiasmasta", "station",
     [("count_min", "Kiasma", 300.0, 2, None, None, None)]),
    ("Rakennetaan enintään kaksi uutta tietä", "road", [("count_max", None, None, 2, None, None, "new")]),
    ("Jätetään tontti 5 pois", "land", [("lock_out", "5", None, None, None, None, None)]),
    # a bare number in thousands after a total is money, no count ("spend at most 300 000 of it" was a count of 300
    # beside a cap of the total alone)
    ("We have 0,5 M€; spend at most 300 000 of it", "station", [("budget_share_max", None, None, None, 0.6, None, None)]),
    # an emphasis and a constraint joined by "but" / "yet" / "mutta": both, the count of a land type said as one
    ("prioritise green, but at most two offices", "land",
     [("emphasis", None, None, None, None, "ecology", None), ("count_max", None, None, 2, None, None, "office")]),
    ("at least two schools, but ecology above all", "land",
     [("count_min", None, None, 2, None, None, "school"), ("emphasis", None, None, None, None, "ecology", None)]),
    ("Ekologia on tärkeintä, mutta vähintään yksi koulu", "land",
     [("emphasis", None, None, None, None, "ecology", None), ("count_min", None, None, 1, None, None, "school")]),
    ("ecology above all, but no offices within 200 m of Piispan Puutarha", "land",
     [("emphasis", None, None, None, None, "ecology", None),
      ("exclude_near", "Piispan Puutarha", 200.0, None, None, None, "office")]),
    ("connectivity above all, but no more than two new links", "road",
     [("emphasis", None, None, None, None, "connectivity", None), ("count_max", None, None, 2, None, None, "new")]),
    ("travel time first, but link 4 out", "road",
     [("emphasis", None, None, None, None, "travel_time", None), ("lock_out", "4", None, None, None, None, None)]),
    ("coverage first, but at most 3 chargers", "station",
     [("emphasis", None, None, None, None, "coverage", None), ("count_max", None, None, 3, None, None, None)]),
    ("prioritise coverage, yet keep site 3", "station",
     [("emphasis", None, None, None, None, "coverage", None), ("lock_in", "3", None, None, None, None, None)]),
    # "in the plan" is the plan, no place named "plan"
    ("keep at least one charger in the plan", "station", [("count_min", None, None, 1, None, None, None)]),
    ("at most two offices in our plan", "land", [("count_max", None, None, 2, None, None, "office")]),
]


@pytest.mark.parametrize("text, task, expect", TENTH_HALF_CLASSES)
def test_tenth_half_classes(text, task, expect):
    assert typed(parse(text, task, 700.0)) == expect


@pytest.mark.parametrize("text, task, ask", [
    # a word one or two letters off a Finnish bound that is no listed form: asked (it was read as at least N)
    ("enintäan kaksi latausasemaa 300 metrin säteellä Kiasmasta", "station", "'enintäan' is no bound"),
    ("korkeintan kolme toimistoa 300 metrin säteellä Kiasmasta", "land", "'korkeintan' is no bound"),
    # an emphasis and a word no constraint reads, joined by "but": asked, never the emphasis alone
    ("ecology above all but schools are fine", "land", "but not 'schools'"),
    # two bounds, the last bare: asked (read as the first count, or the bare one over the whole plan)
    ("at least one school but at most three", "land", "gives two bounds"),
    ("at most two chargers within 300 m of Kiasma, but at least one", "station", "gives two bounds"),
    ("vähintään yksi uusi tie, mutta enintään kolme", "road", "gives two bounds"),
])
def test_tenth_half_classes_asked(text, task, ask):
    with pytest.raises(Ambiguous, match=ask):
        parse(text, task, 700.0)


@pytest.mark.parametrize("text, task", [
    # both bounds said in full, or a total said as one, still read
    ("at most 2 chargers within 300 m of Kiasma, at least 1 overall", "station"),
    ("at least 2 chargers within 300 m of Kiasma and at most 1 within 200 m of Stockmann", "station"),
    ("at least one school and at most two offices", "land"),
])
def test_two_bounds_said_in_full_are_read(text, task):
    got = parse(text, task, 700.0)
    assert {c["kind"] for c in got} == {"count_min", "count_max"}


def test_a_finnish_word_near_a_bound_that_is_another_word_is_no_bound():
    # "vähentää" (to reduce) is 0.82 alike to "vähintään": no bound, no question about a bound
    from cityplanner.plugin.constraints.rules import _near_bounds

    assert _near_bounds("halutaan vähentää odotusaikaa") == []
    assert _near_bounds("enintäan kaksi") == ["enintäan"]


@pytest.mark.parametrize("text, task, kind, count, typ, target", [
    # a count right before a type noun, with no bound word: that many of the type (was at least one)
    ("sijoita kolme koulua 300 metrin säteelle Kiasmasta", "land", "count_min", 3, "school", "Kiasma"),
    ("kolme toimistoa 300 metrin säteellä Kiasmasta", "land", "count_min", 3, "office", "Kiasma"),
    ("three offices within 300 m of Kiasma", "land", "count_min", 3, "office", "Kiasma"),
    ("two parking sites within 200 m of Oodi", "station", "count_min", 2, "parking", "Oodi"),
    ("kaksi puistoa Kluuvin alueelle", "land", "count_min", 2, "green_s", "Kluuvi"),
    ("four schools near Otsolan Koulu, within 500 m", "land", "count_min", 4, "school", "Otsolan Koulu"),
])
def test_a_count_before_a_type_noun_is_that_many(text, task, kind, count, typ, target):
    (c,) = parse(text, task)
    assert (c["kind"], c["count"], c["type"], c["target"]["name"]) == (kind, count, typ, target)


ELEVENTH_HALF_CLASSES = [
    # every site kept at least D away from a named place whose name ends in a homes word ("the Metso block"): that
    # place, never a coverage "from every home" (v11-in-01 was asked as such); English and Finnish, all three tasks
    ("Please keep every new charging site at least 250 metres away from the Lohi block, measured from its outline.",
     "station", [("exclude_near", "Lohi block", 250.0, None, None, None, None)]),
    ("Keep all chargers at least 300 m away from the Kirahvi block.", "station",
     [("exclude_near", "Kirahvi block", 300.0, None, None, None, None)]),
    ("Keep every business parcel at least 200 m from the Leijona block.", "land",
     [("exclude_near", "Leijona block", 200.0, None, None, None, "business")]),
    ("Keep every new link at least 200 metres away from Kumparepuisto, measured from its edge.", "road",
     [("exclude_near", "Kumparepuisto", 200.0, None, None, None, "new")]),
    ("New links no closer than 200 m to Ristinkallio.", "road",
     [("exclude_near", "Ristinkallio", 200.0, None, None, None, "new")]),
    # Finnish "vähintään / yli D:n päässä X:stä": at least that far away (was read as at least one within D — applied)
    ("Pidä latausasemat vähintään 250 metrin päässä Kiasmasta.", "station",
     [("exclude_near", "Kiasma", 250.0, None, None, None, None)]),
    ("Pidä kaikki latausasemat yli 300 metrin päässä Kumparepuistosta.", "station",
     [("exclude_near", "Kumparepuisto", 300.0, None, None, None, None)]),
    ("Pidä uudet tiet vähintään 200 metrin päässä Ristinkalliosta.", "road",
     [("exclude_near", "Ristinkallio", 200.0, None, None, None, "new")]),
    ("Pidä toimistot Kiasmasta vähintään 200 metrin etäisyydellä.", "land",
     [("exclude_near", "Kiasma", 200.0, None, None, None, "office")]),
    # an abbreviation's Finnish case after a colon ("EY:n rakennuksesta", "UPM:stä", "EY:ssä"): the name without it
    # (v11-in-11 was asked "within 600 m of what?")
    ("Sijoita vähintään kolme latausasemaa 600 metrin säteelle UPM:n rakennuksesta.", "station",
     [("count_min", "UPM rakennukse", 600.0, 3, None, None, None)]),
    ("Enintään kaksi latausasemaa 400 metrin säteellä EY:stä.", "station",
     [("count_max", "EY", 400.0, 2, None, None, None)]),
    ("Ei toimistoja 250 metrin säteellä KPMG:n talosta.", "land",
     [("exclude_near", "KPMG talo", 250.0, None, None, None, "office")]),
    ("Vähintään yksi uusi tie 500 metrin säteellä UPM:stä.", "road", [("count_min", "UPM", 500.0, 1, None, None, "new")]),
    ("Ei latausasemia EY:n alueella.", "station", [("outside_area", "EY", None, None, None, None, None)]),
    ("Ei latausasemia 300 metrin säteellä K-Market Erottajasta.", "station",
     [("exclude_near", "K-Market Erottaja", 300.0, None, None, None, None)]),
    # a region said first ("In Kotka,", "For Helsinki:", "Kotkassa,"): the region, never the place (v11-in-37 was read
    # as a distance from Kotka); a capitalised facility noun in a name is the name's ("Otsolan Koulu")
    ("In Kotka, place no business parcel within 250 metres of Helilän Koulu.", "land",
     [("exclude_near", "Helilän Koulu", 250.0, None, None, None, "business")]),
    ("Kotkassa, enintään kaksi latausasemaa 300 metrin säteellä Kumparepuistosta.", "station",
     [("count_max", "Kumparepuisto", 300.0, 2, None, None, None)]),
    ("For Helsinki: no chargers within 200 m of Kiasma.", "station",
     [("exclude_near", "Kiasma", 200.0, None, None, None, None)]),
    ("In Helsinki, at least one new link within 400 m of Stockmann.", "road",
     [("count_min", "Stockmann", 400.0, 1, None, None, "new")]),
    ("In Kotka: no new links within 300 m of Otsolan Koulu.", "road",
     [("exclude_near", "Otsolan Koulu", 300.0, None, None, None, "new")]),
]


@pytest.mark.parametrize("text, task, expect", ELEVENTH_HALF_CLASSES)
def test_eleventh_half_classes(text, task, expect):
    assert typed(parse(text, task, 700.0)) == expect


@pytest.mark.parametrize("text, task", [
    # the sites kept from homes or from every block (no place named) stay asked, as before
    ("keep all stations at least 200 m from homes", "station"),
    ("keep every station at least 200 m from every residential block", "station"),
])
def test_sites_kept_from_every_home_stay_asked(text, task):
    with pytest.raises(Ambiguous, match="a distance from every home"):
        parse(text, task, 700.0)


@pytest.mark.parametrize("text, region", [
    ("In Kotka, no chargers within 200 m of Kumparepuisto.", "kotka"), ("Helsingissä, ei latausasemia.", "helsinki"),
    ("For Helsinki: at most 2 chargers", "helsinki"), ("In the city of Kotka, at most 2 chargers", "kotka"),
    # a district said first is a place, no region
    ("In Karhula, no offices.", None), ("In Kluuvi, at most two chargers", None),
])
def test_a_region_said_first_is_the_instance_region(text, region):
    from cityplanner.plugin.constraints.rules import region_of_plan

    assert region_of_plan(text) == region


@pytest.mark.parametrize("text, expect", [
    # the noun of a Finnish name in a case form is the name's, no land type left unread ("koulusta" of "Otsolan koulu")
    ("Korkeintaan kaksi toimistoa 300 metrin säteellä Otsolan koulusta.",
     [("count_max", "Otsolan koulu", 300.0, 2, None, None, "office")]),
    ("Ei toimistoja 200 metrin säteellä Helilän koulusta.", [("exclude_near", "Helilän koulu", 200.0, None, None, None,
                                                              "office")]),
    ("Vähintään yksi koulu 500 metrin säteellä Kallion kirjastosta.",
     [("count_min", "Kallion kirjasto", 500.0, 1, None, None, "school")]),
])
def test_a_finnish_name_noun_in_a_case_is_the_names(text, expect):
    assert typed(parse(text, "land", 700.0)) == expect


ROUND_ELEVEN_STRANGER = [
    # items on lines of their own or after bullets are instructions of their own: a line break was read as a space, so
    # "- no chargers within 200 m of Kiasma / - at most 3 chargers in total" was applied as at most 3 within 200 m of
    # Kiasma (the "no" lost); a line wrapped at a joining word stays one sentence
    ("- no chargers within 200 m of Kiasma\n- at most 3 chargers in total", "station",
     [("exclude_near", "Kiasma", 200.0, None, None, None, None), ("count_max", None, None, 3, None, None, None)]),
    ("• no chargers within 250 m of Kumparepuisto\n• at most 3 chargers overall", "station",
     [("exclude_near", "Kumparepuisto", 250.0, None, None, None, None), ("count_max", None, None, 3, None, None, None)]),
    ("* at most two offices\n* no business within 300 m of Otsolan Koulu\n* spend at most 80 % of the budget", "land",
     [("count_max", None, None, 2, None, None, "office"), ("exclude_near", "Otsolan Koulu", 300.0, None, None, None,
                                                            "business"),
      ("budget_share_max", None, None, None, 0.8, None, None)]),
    ("1. link 4 out\n2. at most two new links within 500 m of Stockmann", "road",
     [("lock_out", "4", None, None, None, None, None), ("count_max", "Stockmann", 500.0, 2, None, None, "new")]),
    ("1) at most 2 offices 2) at least one school", "land",
     [("count_max", None, None, 2, None, None, "office"), ("count_min", None, None, 1, None, None, "school")]),
    ("no chargers within 200 m of Kiasma\nat most 3 chargers in total", "station",
     [("exclude_near", "Kiasma", 200.0, None, None, None, None), ("count_max", None, None, 3, None, None, None)]),
    ("- ei toimistoja 200 metrin säteellä Kiasmasta\n- vähintään yksi koulu", "land",
     [("exclude_near", "Kiasma", 200.0, None, None, None, "office"), ("count_min", None, None, 1, None, None, "school")]),
    ("no new links within 300 m of\nKumparepuisto", "road", [("exclude_near", "Kumparepuisto", 300.0, None, None, None,
                                                             "new")]),
    ("no chargers within 200 m\nof Kiasma", "station", [("exclude_near", "Kiasma", 200.0, None, None, None, None)]),
    ("keep chargers\n300 m apart", "station", [("spacing_min", None, 300.0, None, None, None, None)]),
    # two instructions in one Finnish sentence, joined by ", ja" / "ja" / "sekä" before an instruction's first word
    # ("Uusia teitä enintään kaksi, ja ei uusia teitä 200 metrin säteellä Stockmannista" was applied as at most two
    # within 200 m of Stockmann)
    ("Uusia teitä enintään kaksi, ja ei uusia teitä 200 metrin säteellä Stockmannista.", "road",
     [("count_max", None, None, 2, None, None, "new"), ("exclude_near", "Stockmanni", 200.0, None, None, None, "new")]),
    ("Ei latausasemia 200 metrin säteellä Kumparepuistosta ja enintään kolme latausasemaa yhteensä.", "station",
     [("exclude_near", "Kumparepuisto", 200.0, None, None, None, None), ("count_max", None, None, 3, None, None, None)]),
    ("Ei latausasemia Kluuvissa sekä vähintään 300 metriä latausasemien välillä.", "station",
     [("outside_area", "Kluuvi", None, None, None, None, None), ("spacing_min", None, 300.0, None, None, None, None)]),
    # "…, and keep D between them": the spacing of the candidates said (the whole was read as at least one within D of
    # the place before — applied)
    ("Keep new roads out of Kumparepuisto, and keep at least 400 m between them?", "road",
     [("outside_area", "Kumparepuisto", None, None, None, None, "new"), ("spacing_min", None, 400.0, None, None, None,
                                                                         None)]),
    ("No chargers inside Kluuvi, and keep 300 m between them.", "station",
     [("outside_area", "Kluuvi", None, None, None, None, None), ("spacing_min", None, 300.0, None, None, None, None)]),
    ("At most 2 offices, and keep 150 m between them.", "land",
     [("count_max", None, None, 2, None, None, "office"), ("spacing_min", None, 150.0, None, None, None, None)]),
    # "and build …" starts an instruction (a budget share and a count of new links were asked)
    ("Spend no more than two thirds of the budget and build at most three new links.", "road",
     [("budget_share_max", None, None, None, 0.6667, None, None), ("count_max", None, None, 3, None, None, "new")]),
    ("Use at most 70 % of the budget and build no more than one school.", "land",
     [("budget_share_max", None, None, None, 0.7, None, None), ("count_max", None, None, 1, None, None, "school")]),
]


@pytest.mark.parametrize("text, task, expect", ROUND_ELEVEN_STRANGER)
def test_round_eleven_stranger_classes(text, task, expect):
    assert typed(parse(text, task, 700.0)) == expect


@pytest.mark.parametrize("text, task, share", [
    # a second Finnish part that leans on the first ("the rest", "of it") is no instruction of its own
    ("käytä 70 % ja pidä loput varalla", "land", 0.7),
    ("käytä enintään 60 % ja jätä loput käyttämättä", "road", 0.6),
])
def test_a_finnish_second_part_about_the_rest_is_not_split(text, task, share):
    assert typed(parse(text, task, 700.0)) == [("budget_share_max", None, None, None, share, None, None)]


@pytest.mark.parametrize("text, task, expect", [
    # "budget: N %": the per cent is the share (the number after the budget cue was read as N k€ of the budget: "Budget:
    # 75 %" applied as 11 % at a budget of 700 k€)
    ("Budget: 75 %. Spacing: 300 m.", "station",
     [("budget_share_max", None, None, None, 0.75, None, None), ("spacing_min", None, 300.0, None, None, None, None)]),
    ("budget 60 % at most", "road", [("budget_share_max", None, None, None, 0.6, None, None)]),
    ("a budget of 80 per cent, no more", "land", [("budget_share_max", None, None, None, 0.8, None, None)]),
    # "min. D from X", "minimum D from X": kept that far off (was read as at least one within D of X)
    ("Stations: min. 250 m from Ateneum.", "station", [("exclude_near", "Ateneum", 250.0, None, None, None, None)]),
    ("New links minimum 300 m from Kumparepuisto", "road",
     [("exclude_near", "Kumparepuisto", 300.0, None, None, None, "new")]),
    ("Offices min 200 m from Otsolan Koulu", "land", [("exclude_near", "Otsolan Koulu", 200.0, None, None, None,
                                                       "office")]),
    # a count after "min" stays a count
    ("min 2 chargers within 300 m of Kiasma", "station", [("count_min", "Kiasma", 300.0, 2, None, None, None)]),
])
def test_a_per_cent_after_the_budget_and_a_minimum_distance(text, task, expect):
    assert typed(parse(text, task, 700.0)) == expect


@pytest.mark.parametrize("text, task, expect", [
    # how the distance is measured, said apart from the place ("Measured from its outline, …", "…, measured by its
    # outline"): the resolver measures from the outline anyway; it was asked ("by" read as near, "its outline" a place)
    ("Measured from its outline, no charger within 150 m of Stockmann.", "station",
     [("exclude_near", "Stockmann", 150.0, None, None, None, None)]),
    ("No offices in the Lohi block, measured by its outline.", "land",
     [("outside_area", "Lohi block", None, None, None, None, "office")]),
    ("Distances measured from the park's edge: no new links within 200 m of Kumparepuisto.", "road",
     [("exclude_near", "Kumparepuisto", 200.0, None, None, None, "new")]),
    ("At most one office within 300 m of Otsolan Koulu, measured from the building outline.", "land",
     [("count_max", "Otsolan Koulu", 300.0, 1, None, None, "office")]),
    ("No chargers within 250 m of Kiasma, measured from the edge of the building.", "station",
     [("exclude_near", "Kiasma", 250.0, None, None, None, None)]),
    # "measured from the outline" with more words after it is no aside: left to the rules as before
    ("No chargers within 250 m measured from the outline of Kiasma", "station",
     [("exclude_near", "outline of Kiasma", 250.0, None, None, None, None)]),
])
def test_how_a_distance_is_measured_said_apart(text, task, expect):
    assert typed(parse(text, task, 700.0)) == expect


#: the twelfth half's classes (round 12), phrasings of our own in both regions and all three tasks
ALL_WITHIN = [
    # every candidate obliged to lie within a distance of a place: only candidates within it (inside_area with a
    # radius). "every charger has to be w/in 600 m of Annankatu, no exceptions" was stored as none within (the "no" of
    # "no exceptions"), "all chargers must be within …" as at least one within
    ("every charger has to be w/in 600 m of Annankatu, no exceptions", "station",
     [("inside_area", "Annankatu", 600.0, None, None, None, None)]),
    ("All chargers must be within 400 m of Kiasma.", "station", [("inside_area", "Kiasma", 400.0, None, None, None, None)]),
    ("Chargers need to be within 500 m of Stockmann.", "station",
     [("inside_area", "Stockmann", 500.0, None, None, None, None)]),
    ("Every station should be within 300 m of Karhulan koulu, without exception.", "station",
     [("inside_area", "Karhulan koulu", 300.0, None, None, None, None)]),
    ("all offices must lie within 400 m of Otsolan Koulu", "land",
     [("inside_area", "Otsolan Koulu", 400.0, None, None, None, "office")]),
    ("each new link has to be within 500 m of Kumparepuisto", "road",
     [("inside_area", "Kumparepuisto", 500.0, None, None, None, "new")]),
    ("chargers within 600 m of Annankatu, no exceptions", "station",
     [("inside_area", "Annankatu", 600.0, None, None, None, None)]),
    # Finnish obligations ("on oltava", "täytyy sijaita", "pitää olla"); "600 m:n säteellä" is a radius
    ("kaikkien latausasemien on oltava 600 m:n säteellä Kiasmasta", "station",
     [("inside_area", "Kiasma", 600.0, None, None, None, None)]),
    ("kaikkien toimistojen pitää olla 400 m:n säteellä Kiasmasta", "land",
     [("inside_area", "Kiasma", 400.0, None, None, None, "office")]),
    ("kaikkien uusien teiden on oltava 500 metrin säteellä Kumparepuistosta", "road",
     [("inside_area", "Kumparepuisto", 500.0, None, None, None, "new")]),
    # "none farther than D from X" is every one within D (the "no" was read as none within: the meaning reversed)
    ("no charger further than 600 m from Annankatu", "station",
     [("inside_area", "Annankatu", 600.0, None, None, None, None)]),
    ("none of the chargers may be more than 600 m from Karhulan koulu", "station",
     [("inside_area", "Karhulan koulu", 600.0, None, None, None, None)]),
    ("not a single office beyond 400 m of Otsolan Koulu", "land",
     [("inside_area", "Otsolan Koulu", 400.0, None, None, None, "office")]),
    ("no new link more than 500 m from Kumparepuisto", "road",
     [("inside_area", "Kumparepuisto", 500.0, None, None, None, "new")]),
    ("ei yhtään latausasemaa yli 600 metrin päässä Kiasmasta", "station",
     [("inside_area", "Kiasma", 600.0, None, None, None, None)]),
    # what stays as it was: a count, a singular "a …", a negation, "no exceptions" after one, homes (coverage)
    ("a charger must be within 300 m of Kiasma", "station", [("count_min", "Kiasma", 300.0, 1, None, None, None)]),
    ("at least two chargers must be within 300 m of Kiasma, no exceptions", "station",
     [("count_min", "Kiasma", 300.0, 2, None, None, None)]),
    ("not more than two chargers within 300 m of Kiasma, no exceptions", "station",
     [("count_max", "Kiasma", 300.0, 2, None, None, None)]),
    ("no chargers within 200 m of Kiasma, no exceptions", "station",
     [("exclude_near", "Kiasma", 200.0, None, None, None, None)]),
    ("ei latausasemia 300 m:n säteellä Kiasmasta", "station", [("exclude_near", "Kiasma", 300.0, None, None, None, None)]),
    ("keep all chargers 200 m away from Kiasma", "station", [("exclude_near", "Kiasma", 200.0, None, None, None, None)]),
    ("site 5 in, no exceptions", "station", [("lock_in", "5", None, None, None, None, None)]),
    ("Every residential block must lie within 600 m of a school.", "land",
     [("coverage", "school", 600.0, None, None, None, None)]),
    ("no residential block more than 500 m from a charging station", "station",
     [("coverage", "charging", 500.0, None, None, None, None)]),
]


@pytest.mark.parametrize("text, task, expect", ALL_WITHIN)
def test_every_candidate_within_a_distance_is_never_none_within(text, task, expect):
    assert typed(parse(text, task, 700.0)) == expect


EMPHASIS_SAID = [
    # only the term said: "wait" (a verb too) is the service time, "served" after it no coverage (v12: "minimise how
    # long drivers wait to be served; service time matters most" was read as coverage and service time), and one
    # emphasis said twice is stored once
    ("The plan should above all minimise how long drivers wait to be served; service time matters most.", "station",
     [("emphasis", None, None, None, None, "service_time", None)]),
    ("minimise how long drivers have to wait", "station", [("emphasis", None, None, None, None, "service_time", None)]),
    ("nobody should wait for a charger for long, that matters most", "station",
     [("emphasis", None, None, None, None, "service_time", None)]),
    ("jonot mahdollisimman lyhyiksi, se on tärkeintä", "station",
     [("emphasis", None, None, None, None, "service_time", None)]),
    ("coverage first: serve as many homes as possible", "station",
     [("emphasis", None, None, None, None, "coverage", None)]),
    # terse emphasis: ">" / ">>" / "≫" between words, "first", "über alles", "ennen kaikkea" (v12: "service >
    # everything else" was not read)
    ("service > everything else", "land", [("emphasis", None, None, None, None, "service", None)]),
    ("ecology >> all", "land", [("emphasis", None, None, None, None, "ecology", None)]),
    ("services >> cost", "land", [("emphasis", None, None, None, None, "service", None)]),
    ("service time > coverage", "station", [("emphasis", None, None, None, None, "service_time", None)]),
    ("access ≫ everything else", "station", [("emphasis", None, None, None, None, "access", None)]),
    ("connectivity > everything else", "road", [("emphasis", None, None, None, None, "connectivity", None)]),
    ("travel time über alles", "road", [("emphasis", None, None, None, None, "travel_time", None)]),
    ("ekologia ennen kaikkea", "land", [("emphasis", None, None, None, None, "ecology", None)]),
    # a sign before a number stays a count's bound, never an emphasis
    ("≥ 2 chargers within 300 m of Kiasma", "station", [("count_min", "Kiasma", 300.0, 2, None, None, None)]),
]


@pytest.mark.parametrize("text, task, expect", EMPHASIS_SAID)
def test_an_emphasis_is_the_term_said_terse_or_twice(text, task, expect):
    assert typed(parse(text, task, 700.0)) == expect


ROUND_TWELVE_STRANGER = [
    # strangers' shapes of "every one within": "all of them", "X: all within", "every single", "must all be", "no ifs
    # or buts", Finnish "täytyy olla enintään … päässä", "jokaisen … pitää olla", "ilman poikkeuksia"
    ("all of them within 500 m of Kiasma please", "station", [("inside_area", "Kiasma", 500.0, None, None, None, None)]),
    ("chargers: all within 400 m of Stockmann", "station",
     [("inside_area", "Stockmann", 400.0, None, None, None, None)]),
    ("Every single charger needs to sit within 700 metres of Kiasma.", "station",
     [("inside_area", "Kiasma", 700.0, None, None, None, None)]),
    ("schools must all be within 500 m of Kaisaniemen puisto", "land",
     [("inside_area", "Kaisaniemen puisto", 500.0, None, None, None, "school")]),
    ("new links have to stay within 300 m of Kumparepuisto, no ifs or buts", "road",
     [("inside_area", "Kumparepuisto", 300.0, None, None, None, "new")]),
    ("latausasemien täytyy olla enintään 500 metrin päässä Kiasmasta", "station",
     [("inside_area", "Kiasma", 500.0, None, None, None, None)]),
    ("toimistojen on oltava 300 metrin säteellä Kiasmasta, ilman poikkeuksia", "land",
     [("inside_area", "Kiasma", 300.0, None, None, None, "office")]),
    ("no charger may be placed more than 800 m from Kiasma, no exceptions", "station",
     [("inside_area", "Kiasma", 800.0, None, None, None, None)]),
    # "no exceptions", "no matter what" beside other constraints: emphasis, the constraint as said
    ("no matter what, at least one charger within 300 m of Kiasma", "station",
     [("count_min", "Kiasma", 300.0, 1, None, None, None)]),
    ("not more than 3 chargers in total, no exceptions", "station", [("count_max", None, None, 3, None, None, None)]),
    ("no exceptions: at most two new links", "road", [("count_max", None, None, 2, None, None, "new")]),
    ("site 4 has to be in, no exceptions", "station", [("lock_in", "4", None, None, None, None, None)]),
    ("hospitals: none within 300 m of Kiasma, no exceptions", "land",
     [("exclude_near", "Kiasma", 300.0, None, None, None, "hospital")]),
    ("keep every charger at least 200 m from Kiasma", "station",
     [("exclude_near", "Kiasma", 200.0, None, None, None, None)]),
    # terse emphasis chains: the first term
    ("queues >> everything", "station", [("emphasis", None, None, None, None, "service_time", None)]),
    ("waiting time > coverage > cost", "station", [("emphasis", None, None, None, None, "service_time", None)]),
]


@pytest.mark.parametrize("text, task, expect", ROUND_TWELVE_STRANGER)
def test_round_twelve_stranger_classes(text, task, expect):
    assert typed(parse(text, task, 700.0)) == expect


THIRTEENTH_HALF_CLASSES = [
    # "<type> sites must lie / be / stay inside|within <area>", "kortteli X", "korttelin X sisällä", "in block X only":
    # only candidates of that type inside the area (v13-in-34 was not read)
    ("School sites must lie inside kortteli Käki.", "land", [("inside_area", "kortteli Käki", None, None, None, None,
                                                              "school")]),
    ("Office parcels must be inside the Lohi block.", "land",
     [("inside_area", "Lohi block", None, None, None, None, "office")]),
    ("Charging sites must stay within kortteli Kirahvi", "station",
     [("inside_area", "kortteli Kirahvi", None, None, None, None, None)]),
    ("New links must stay inside Ristinkallio.", "road", [("inside_area", "Ristinkallio", None, None, None, None, "new")]),
    ("Koulut vain korttelin Käki sisällä.", "land", [("inside_area", "kortteli Käki", None, None, None, None, "school")]),
    ("Koulujen pitää olla korttelin Leijona sisällä.", "land",
     [("inside_area", "kortteli Leijona", None, None, None, None, "school")]),
    ("Schools in block Kameeli only.", "land", [("inside_area", "block Kameeli", None, None, None, None, "school")]),
    # a negation stays one: none inside
    ("No school sites may lie inside kortteli Käki.", "land",
     [("outside_area", "kortteli Käki", None, None, None, None, "school")]),
    # a name in the illative ("into"), the last word of its clause: inside it
    ("Ei toimistoja Kluuviin.", "land", [("outside_area", "Kluuvi", None, None, None, None, "office")]),
    ("Ei uusia teitä Ristinkallioon.", "road", [("outside_area", "Ristinkallio", None, None, None, None, "new")]),
    ("Ei latausasemia Kaisaniemeen.", "station", [("outside_area", "Kaisaniemi", None, None, None, None, None)]),
]


@pytest.mark.parametrize("text, task, expect", THIRTEENTH_HALF_CLASSES)
def test_thirteenth_half_classes(text, task, expect):
    assert typed(parse(text, task, 700.0)) == expect


@pytest.mark.parametrize("text, task", [
    # a singular is no "every one" (at least one, or asked), and a bare plural with no verb of obligation asks
    ("Koulut korttelin Käki sisälle.", "land"),
    ("Keep the parcels in Kluuvi green.", "land"),
])
def test_an_area_said_without_only_or_must_is_not_every_one(text, task):
    try:
        got = parse(text, task, 700.0)
    except (Ambiguous, NoRule):
        return
    assert all(c["kind"] != "inside_area" for c in got)


#: round 14 audit: the direction of a budget share, in both languages. A share kept back ("free", "in hand", "don't
#: touch", "älä käytä", "jää käyttämättä") is the part NOT spent; a share used ("use only", "käytä korkeintaan") or a
#: negated verb with a bound ("don't use more than") is the part spent. The expected shares are 1 minus the share
#: said, or the share said, by hand. Before this round the ones marked * were stored the other way round.
BUDGET_SHARE_DIRECTION = [
    ("Keep a quarter of the budget aside.", "station", 0.75),
    ("keep a tenth of the budget in hand", "land", 0.9),                 # *
    ("Keep 15 % of the money back.", "station", 0.85),                   # * words between "keep" and "back"
    ("Hold 20 % back", "road", 0.8),                                     # *
    ("Leave 25 % in hand", "road", 0.75),                                # *
    ("Leave 40 % of the budget.", "road", 0.6),
    ("Don't touch 30 % of the budget.", "station", 0.7),                 # *
    ("don't touch a quarter of the money", "land", 0.75),                # *
    ("Never spend 25 % of the budget", "road", 0.75),                    # *
    ("keep 300 m between stations and don't touch 10 % of the budget", "station", 0.9),   # *
    ("Älä käytä 20 % budjetista.", "station", 0.8),                      # *
    ("Älä käytä viidennestä budjetista", "road", 0.8),                   # *
    ("Ei saa käyttää 30 % budjetista", "land", 0.7),                     # *
    ("Pidä 15 % budjetista sivussa", "land", 0.85),                      # *
    ("Pidä kymmenesosa budjetista koskematta", "road", 0.9),
    ("30 % budjetista jää käyttämättä", "land", 0.7),
    ("Jätä 10 % budjetista käyttämättä", "station", 0.9),
    # the share said is the share spent
    ("Use only 60 % of the budget.", "road", 0.6),
    ("use only a third of the budget", "land", 0.3333),
    ("Käytä korkeintaan 70 % budjetista.", "station", 0.7),
    ("käytä korkeintaan puolet budjetista", "road", 0.5),
    ("Don't use more than 60 % of the budget", "land", 0.6),
    ("Älä käytä yli 60 % budjetista", "road", 0.6),
    ("älä käytä budjetista enempää kuin 70 %", "land", 0.7),
    ("Don't spend over 80 % of the budget", "station", 0.8),
    ("Spend 70 %, don't touch the rest", "station", 0.7),               # the rest is kept, the share said spent
    ("Budjetista saa käyttää enintään 60 %", "road", 0.6),
]


@pytest.mark.parametrize("text, task, share", BUDGET_SHARE_DIRECTION)
def test_a_budget_share_kept_back_is_never_stored_as_spent(text, task, share):
    got = parse(text, task, 500.0)
    [c] = [c for c in got if c["kind"] == "budget_share_max"]
    assert c["share"] == pytest.approx(share, abs=1e-3)


#: round 14: Finnish terse emphasis ("X ensin", "painopiste X:ssä", "pääpaino …", "… etusijalla", "tärkeintä X") in all
#: three tasks, and a score term named by its code in brackets after the planner's word for it (v14-in-39 "tärkeintä
#: asuminen (R)": the land task's need term R); the expected terms are the task's own score names, by hand
FINNISH_TERSE_EMPHASIS = [
    ("asuminen (R) ensin", "land", "R"),
    ("Focus on housing (R)", "land", "R"),
    ("painopiste asumisessa (R)", "land", "R"),
    ("tarpeet (R) tärkeimpänä", "land", "R"),
    ("palvelut ensin", "land", "service"),
    ("painopiste ekologiassa", "land", "ecology"),
    ("pääpaino palveluissa", "land", "service"),
    ("kattavuus ensin", "station", "coverage"),
    ("painopiste odotusajoissa", "station", "service_time"),
    ("matka-ajat ensin", "road", "travel_time"),
    ("painopiste yhteyksissä", "road", "connectivity"),
    ("yhteydet etusijalla", "road", "connectivity"),
]


@pytest.mark.parametrize("text, task, term", FINNISH_TERSE_EMPHASIS)
def test_finnish_terse_emphasis_and_a_term_by_its_code(text, task, term):
    assert [(c["kind"], c["term"]) for c in parse(text, task, 500.0)] == [("emphasis", term)]


@pytest.mark.parametrize("text, task", [
    ("tärkeintä palvelut (R)", "land"),   # the word names service, the code R: which one is asked, never guessed
    ("Lohi (G) tärkeintä", "land"),       # no score term has the code G
])
def test_a_code_that_names_no_term_or_another_is_asked(text, task):
    with pytest.raises((Ambiguous, NoRule)):
        parse(text, task, 500.0)


def test_first_in_a_sentence_of_ids_stays_no_emphasis():
    # "rakenna ensin linkki 4" (build link 4 first): the link, no emphasis
    assert [(c["kind"], c["target"]["id"]) for c in parse("rakenna ensin linkki 4", "road", 500.0)] == [("lock_in", "4")]


@pytest.mark.parametrize("text, kept_back", [
    ("Don't touch 30 % of the budget", True),
    ("don't spend 100 000 € of it", True),
    ("Don't touch anything within 500 m of Kiasma", False),   # a distance after the verb: no share kept back
    ("never spend 1,5 km of road money", False),
    ("Don't use more than 60 % of the budget", False),       # a bound: the share spent
])
def test_a_negated_spending_verb_keeps_back_only_a_share(text, kept_back):
    # the lexicon's pattern is shared with the ask reader's amounts, where a clause is not split first
    assert bool(re.search(r"\b(?:" + lexicon.unspent_pattern() + r")\b", text, re.I)) is kept_back


#: round 15: the fifteenth half's classes, in phrasings of our own (both languages, all three tasks). An emphasis beside a
#: budget share or another constraint, joined by a comma, colon or dash, is stored with it (the share was stored and the
#: emphasis dropped without a word); a road kind after a budget share is the share's; a named place left alone is
#: nothing of the plan inside it; two instructions joined by a dash and "and", or by "and" before the candidates and a
#: bound of their own, are two. Expected readings by hand.
FIFTEENTH_HALF_CLASSES = [
    ("Saavutettavuus painotus, budjetista korkeintaan 60 %.", "station",
     [("emphasis", None, None, None, None, "access"), ("budget_share_max", None, None, None, 0.6, None)]),
    ("prioritise coverage, spend at most three quarters of the budget", "station",
     [("emphasis", None, None, None, None, "coverage"), ("budget_share_max", None, None, None, 0.75, None)]),
    ("travel time first – no more than 40 % of the money", "road",
     [("emphasis", None, None, None, None, "travel_time"), ("budget_share_max", None, None, None, 0.4, None)]),
    ("ekologia tärkeintä, budjetista enintään puolet", "land",
     [("emphasis", None, None, None, None, "ecology"), ("budget_share_max", None, None, None, 0.5, None)]),
    ("Reduce costs: at most 60 % of the budget", "land",
     [("emphasis", None, None, None, None, "cost"), ("budget_share_max", None, None, None, 0.6, None)]),
    ("Keep 300 m between stations, waiting times matter most", "station",
     [("spacing_min", None, 300.0, None, None, None), ("emphasis", None, None, None, None, "service_time")]),
    ("at most 2 offices, services first", "land",
     [("count_max", None, None, 2, None, None), ("emphasis", None, None, None, None, "service")]),
    # a named place left alone: nothing of the plan inside it (the resolver checks that it is an area)
    ("leave Kluuvi alone", "station", [("outside_area", "Kluuvi", None, None, None, None)]),
    ("Don't touch the Kaisaniemen puisto park, please", "land",
     [("outside_area", "Kaisaniemen puisto park", None, None, None, None)]),
    ("Ristinkallio stays untouched", "road", [("outside_area", "Ristinkallio", None, None, None, None)]),
    ("jätä Kluuvi rauhaan", "station", [("outside_area", "Kluuvi", None, None, None, None)]),
    ("Ristinkallio pitää jättää koskematta", "land", [("outside_area", "Ristinkallio", None, None, None, None)]),
    ("ecology first, and leave the Lohi block alone", "land",
     [("emphasis", None, None, None, None, "ecology"), ("outside_area", "Lohi block", None, None, None, None)]),
    ("leave parcel 12 alone", "land", [("lock_out", "12", None, None, None, None)]),   # an id stays the id's
    # two instructions, a dash and "and" (or "plus") or "and" before the candidates with a bound of their own
    ("no residential block more than 700 m from a charger — and chargers at least 300 m apart", "station",
     [("coverage", "charging", 700.0, None, None, None), ("spacing_min", None, 300.0, None, None, None)]),
    ("no block further than 800 m from a charger – plus stations no closer than 300 m to each other", "station",
     [("coverage", "charging", 800.0, None, None, None), ("spacing_min", None, 300.0, None, None, None)]),
    ("every home within 500 m of a charger and sites at least 200 m apart", "station",
     [("coverage", "charging", 500.0, None, None, None), ("spacing_min", None, 200.0, None, None, None)]),
    ("no new links within 200 m of Stockmann - and new links at most 3", "road",
     [("exclude_near", "Stockmann", 200.0, None, None, None), ("count_max", None, None, 3, None, None)]),
    ("jokainen kortteli enintään 500 m päässä latausasemasta ja asemien välillä vähintään 300 m", "station",
     [("coverage", "charging", 500.0, None, None, None), ("spacing_min", None, 300.0, None, None, None)]),
    ("kaikki korttelit enintään 600 metrin päässä latausasemasta – ja latausasemat vähintään 250 metrin välein", "station",
     [("coverage", "charging", 600.0, None, None, None), ("spacing_min", None, 250.0, None, None, None)]),
]


@pytest.mark.parametrize("text, task, expect", FIFTEENTH_HALF_CLASSES)
def test_fifteenth_half_classes(text, task, expect):
    assert brief(parse(text, task, 700.0)) == expect


#: the sixteenth half's class (its one held-out run): an emphasis said as "go for" / "aim for" after "and" was no
#: emphasis, so a budget share was stored and the emphasis dropped without a word. Both are stored now, in either
#: order; an "and" that joins two constraints or two terms stays one part. Expected readings by hand.
GO_FOR_EMPHASIS = [
    ("spend at most 70 % of the money and go for coverage", "station",
     [("budget_share_max", None, None, None, 0.7, None), ("emphasis", None, None, None, None, "coverage")]),
    ("aim for shorter travel times, and keep a quarter of the budget unspent", "road",
     [("emphasis", None, None, None, None, "travel_time"), ("budget_share_max", None, None, None, 0.75, None)]),
    ("go for ecology", "land", [("emphasis", None, None, None, None, "ecology")]),
    ("at most 2 stations within 400 m of Kiasma and at least 1 within 600 m of Kiasma", "station",
     [("count_max", "Kiasma", 400.0, 2, None, None), ("count_min", "Kiasma", 600.0, 1, None, None)]),
]


@pytest.mark.parametrize("text, task, expect", GO_FOR_EMPHASIS)
def test_an_emphasis_after_and_is_stored_beside_the_constraint(text, task, expect):
    assert brief(parse(text, task, 700.0)) == expect


@pytest.mark.parametrize("text, task, share, kind", [
    # round 15: a road kind said with a budget share is the share's (it was dropped: the cap held for every link)
    ("spend no more than a third of the budget on new links", "road", 0.3333, "new"),
    ("at most a fifth of the money may go to upgrades", "road", 0.2, "rebuild"),
    ("Of the 800 k€, at most 200 k€ for rebuilding links", "road", 0.25, "rebuild"),
    ("käytä enintään 40 % budjetista peruskorjauksiin", "road", 0.4, "rebuild"),
    ("budjetista korkeintaan puolet uusille teille", "road", 0.5, "new"),
    ("Tiebudjetti 600 000 €, siitä enintään 150 000 € uusiin katuyhteyksiin", "road", 0.25, "new"),
    ("Spend at most 60 % of the road budget", "road", 0.6, None),   # "road" is the task, no kind
])
def test_a_road_kind_after_a_budget_share_is_the_shares(text, task, share, kind):
    [c] = parse(text, task, 700.0)
    assert (c["kind"], c["type"]) == ("budget_share_max", kind) and c["share"] == pytest.approx(share, abs=1e-3)


@pytest.mark.parametrize("text, task, term", [
    # an emphasis that no split stores (a reason or a purpose beside the constraint) is never dropped: asked, named
    ("No new links within 300 m of Kiasma, to cut travel time", "road", "travel time"),
    ("spend at most 70 % of the budget so that coverage improves", "station", "coverage"),
    ("Spend at most half the money because ecology matters most", "land", "ecology"),
])
def test_an_emphasis_the_reading_leaves_out_is_asked(text, task, term):
    with pytest.raises(Ambiguous, match=f"but not '{term}' — say the emphasis as its own instruction"):
        parse(text, task, 700.0)


@pytest.mark.parametrize("text", ["Everything else stays as it is", "Leave the rest alone", "The plan stays as it is"])
def test_words_left_alone_that_name_no_place_are_no_area(text):
    try:
        got = parse(text, "land", 700.0)
    except (Ambiguous, NoRule):
        return
    assert all(c["kind"] != "outside_area" for c in got)
