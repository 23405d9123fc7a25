"""The readings file (tests/core/data/readings.json): each request read by the rules gives the
ids of the rules that fire (in order), the region and the goals written there, places compared by
the data's own names. One parametrised runner; adding a reading means adding a line of data."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cityplanner.plugin.agent.ask.cognition import extract
from cityplanner.plugin.city.names import name_index

ITEMS = json.loads((Path(__file__).parent / "data" / "readings.json").read_text(encoding="utf-8"))["items"]
PLACE_SLOTS = ("place", "origin", "destination")


def _named(region: str | None, slot: str, value):
    if slot in PLACE_SLOTS and value and region:
        return next((f.name for f in name_index(region).features if f.id == value), value)
    return value


@pytest.mark.parametrize("item", ITEMS, ids=[it["request"][:40] for it in ITEMS])
def test_reading(item):
    task = extract(item["request"], name_index, ("helsinki", "kotka"), item["region"])
    exp = item["expect"]
    assert task.trace == item["rules"]
    assert task.region == exp["region"]
    got = [{"intent": g.intent, **{k: g.branch if k == "branch" else _named(task.region, k, g.slots.get(k))
                                   for k in e if k != "intent"}}
           for g, e in zip(task.goals, exp["goals"], strict=False)]
    assert len(task.goals) == len(exp["goals"]) and got == exp["goals"]
