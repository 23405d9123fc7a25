"""Names from the data, gazetteer first: an ordinary word never matches a POI's alias (and so
never picks the region); a name written lower-case still counts where a name must stand; a
sole misspelt name with no region given is looked for in every loaded region. Requests of our
own; the expected features are named by the data's own names."""
from __future__ import annotations

import pytest

from cityplanner.plugin.agent.ask.cognition import extract
from cityplanner.plugin.city.names import name_index

REGIONS = ("helsinki", "kotka")


def _read(request, region=None):
    return extract(request, name_index, REGIONS, region)


def _name(region, fid):
    return next(f.name for f in name_index(region).features if f.id == fid)


@pytest.mark.parametrize("request_", ["Plan a road network upgrade with 400k", "Hi, plan chargers with 300k"])
def test_ordinary_words_are_no_aliases(request_):
    """'network' is an alias of the POI Verkosto and 'Hi' of Hei vaan in the Helsinki data: neither
    is read as a place, so neither chooses the region (the reply asks which one)."""
    task = _read(request_)
    assert task.region is None and not task.absent
    assert not any("' read as" in n and "Budget" not in n for n in task.notes)   # no name read


def test_a_lower_case_alias_where_a_name_must_stand():
    task = _read("route from espa to Kiasma", "helsinki")
    (goal,) = task.goals
    assert _name("helsinki", goal.slots["origin"]) == "Esplanadinpuisto"


def test_a_sole_misspelt_name_finds_its_region():
    task = _read("nearest pharmacy to Stokmann")
    assert task.region == "helsinki" and "the region" not in " ".join(task.missing)
    (goal,) = task.goals
    assert _name("helsinki", goal.slots["place"]) == "Stockmann" and any("Stokmann" in n for n in task.notes)
