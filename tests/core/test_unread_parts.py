"""The audit of a reading (issue 29, round 12b): a place of the data that a request names but that no part
read uses is said in the answer's notes, never dropped silently; a place that only qualifies another, a
verb capitalised at the start of a sentence and a place some part uses are not flagged. Real name index,
real reader (no tools run)."""
from __future__ import annotations

import pytest

from cityplanner.plugin.agent.ask.cognition import extract
from cityplanner.plugin.city.names import name_index


def _unread_notes(request: str, region: str) -> list[str]:
    task = extract(request, name_index, ("helsinki", "kotka"), region)
    return [n for n in task.notes if "not used" in n]


@pytest.mark.parametrize(("request_text", "region", "name"), [
    ("nearest pharmacy to Kiasma please, Ateneum", "helsinki", "Ateneum"),
    ("can you plan chargers for Hakaniemi with 300k?", "helsinki", "Hakaniemi"),
    ("lähin koulu Kumparepuistosta, kiitos, Otsonkallio", "kotka", "Otsonkallio"),
])
def test_a_place_no_part_uses_is_said(request_text, region, name):
    notes = _unread_notes(request_text, region)
    assert len(notes) == 1 and f"'{name}'" in notes[0]


@pytest.mark.parametrize(("request_text", "region"), [
    ("State the nearest library to Ressun lukio; also state the number of restaurants within 200 m of Ressun lukio.",
     "helsinki"),   # 'State' capitalised by its place, not the monument so aliased
    ("how many fuel stations does Karhula have, and how far is the Teboil on Tikankatu from Suurniitty by road?",
     "kotka"),      # Tikankatu only says which Teboil
    ("cafés at Kiasma and Oodi", "helsinki"),   # each place read
    ("Compare road and land plans at 400k, but only if Otsonkallio is within 3 km of Kumparepuisto.", "kotka"),
])
def test_places_read_or_only_qualifying_are_not_flagged(request_text, region):
    assert _unread_notes(request_text, region) == []


def test_a_condition_after_but_only_if_is_read_not_dropped():
    task = extract("Compare road and land plans at 400k, but only if Otsonkallio is within 3 km of Kumparepuisto.",
                   name_index, ("helsinki", "kotka"), "kotka")
    assert [(g.intent, g.branch) for g in task.goals] == [("route", "if"), ("compare_plans", "then")]
    assert task.test == {"op": "<=", "value": 3000.0}
