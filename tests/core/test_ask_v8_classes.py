"""Classes of the ask eighth half (issue 29, round 7), each with phrasings of our own in both regions,
read by the rules (no model). The goals of each phrasing are in tests/core/data/readings.json; here
what the readings file does not hold: a conditional's test (op and value as the request says it) and
the question asked for a part of a conditional no rule reads (never dropped)."""
from __future__ import annotations

import pytest

from cityplanner.plugin.agent.ask.cognition import extract
from cityplanner.plugin.city.names import name_index

REGIONS = ("helsinki", "kotka")


def _read(request: str, region: str):
    return extract(request, name_index, REGIONS, region)


@pytest.mark.parametrize("request_, region, op, value", [
    # Finnish "A on alle <distance> päässä B:stä" (A is under <distance> from B): the distance in words too
    ("Jos Lohentie on alle kilometrin päässä Siiantiestä, kerro Lohentien lähin koulu; muuten tiematka "
     "Lohentie – Martankatu.", "kotka", "<", 1000.0),
    ("Jos Siiantie on alle puolen kilometrin päässä Martankadusta, kerro Siiantien lähin kauppa; muuten ajomatka "
     "Siiantie – Lohentie.", "kotka", "<", 500.0),
    ("Jos Kiasma on alle 800 metrin päässä Ateneumista, kerro Kiasman lähin apteekki; muuten tiematka Kiasma – Oodi.",
     "helsinki", "<", 800.0),
    ("If Kiasma is under a km from Ateneum, nearest pharmacy to Kiasma; otherwise the road distance Kiasma – Stockmann",
     "helsinki", "<", 1000.0),
])
def test_route_condition_test_and_every_branch(request_, region, op, value):
    task = _read(request_, region)
    assert task.test == {"op": op, "value": value}
    assert [g.branch for g in task.goals] == ["if", "then", "else"]
    assert task.missing == []


@pytest.mark.parametrize("request_, region, parts", [
    ("If Kiasma blorps Oodi, nearest pharmacy to Kiasma; otherwise frobnicate the thing", "helsinki",
     ["the condition 'Kiasma blorps Oodi'", "the otherwise branch 'frobnicate the thing'"]),
    ("Jos Lohentie on lähellä Siiantietä, kerro Lohentien lähin koulu; muuten jotain muuta.", "kotka",
     ["the condition 'Lohentie on lähellä Siiantietä'", "the otherwise branch 'jotain muuta'"]),
    ("Jos Kiasma hurlumhei, kerro Kiasman lähin apteekki", "helsinki", ["the condition 'Kiasma hurlumhei'"]),
])
def test_unread_part_of_a_condition_is_asked(request_, region, parts):
    """A part no rule reads is asked about by its words, so the answer is a question, never the other
    parts alone (nor read-back notes only)."""
    task = _read(request_, region)
    asked = [m for m in task.missing if m.startswith("what the ")]
    assert len(asked) == len(parts)
    for q, part in zip(asked, parts, strict=True):
        assert q.startswith(f"what {part} asks")


@pytest.mark.parametrize("request_, region, op, value", [
    ("≥ 2 schools within 1 km of Lohentie? → nearest school; else → Lohentie to Siiantie road m", "kotka", ">=", 2.0),
    ("<3 pharmacies within 300 m of Kiasma → nearest pharmacy; else → Kiasma to Oodi road m", "helsinki", "<", 3.0),
    (">1 fuel stations within 2 km of Siiantie? -> nearest fuel station; otherwise -> Siiantie to Martankatu road m",
     "kotka", ">", 1.0),
])
def test_terse_sign_before_the_kind_is_one_condition(request_, region, op, value):
    """A sign and count before the kind ("≥2 dentists … ? → …") is the count the condition tests (the
    radius stays the search's), read as one condition with two branches, not three goals."""
    task = _read(request_, region)
    assert task.trace[0] == "conditional.terse-sign-first"
    assert task.test == {"op": op, "value": value}
    assert [g.branch for g in task.goals] == ["if", "then", "else"]


@pytest.mark.parametrize("request_, region", [
    ("Tee Kluuviin suunnitelma, budjetti 200 000 €.", "helsinki"),
    ("Tehkää Kotkaan suunnitelma 250 000 eurolla", "kotka"),
    ("Laadi Kluuviin suunnitelma 300 000 eurolla", "helsinki"),
])
def test_a_verb_before_a_region_is_no_place_and_the_kind_is_asked(request_, region):
    """"Laadi / tee / tehkää … suunnitelma" with no kind of plan: the verb is never a place (no "'Tee
    Kluuviin' is not in the data"), and the question is the kind of plan."""
    task = _read(request_, region)
    assert task.absent == []
    assert any(m.startswith("the kind of plan") for m in task.missing)


@pytest.mark.parametrize("request_, region, said", [
    ("Mitä palveluita on Mussalon sataman lähellä?", "kotka", "'Mussalon satama' is not in the kotka data"),
    ("Mitä palveluita on Hietasen sataman lähellä?", "kotka", "'Hietasen satama' is not in the kotka data"),
    ("Onko Karhulan aseman lähellä kahviloita?", "kotka", "'Karhulan asema' is not in the kotka data"),
    ("Mitä on Kumpulan kartanon lähellä?", "helsinki", "'Kumpulan kartano' is not in the helsinki data"),
])
def test_genitive_facility_name_the_data_lacks_is_said_whole(request_, region, said):
    """A name + facility noun in the genitive before "lähellä" (near) that the data lacks is said as the
    whole name in the noun's base form, not as its first word alone."""
    task = _read(request_, region)
    assert any(m.startswith(said) for m in task.absent), task.absent
