"""One class per intent (plugin/agent/ask/intents): each declares the rules that produce it, what
it needs (slot and question), the tools it calls and the facts it reports; every rule of the
reader is claimed by an intent and every intent a reading produces has a class that names the
rule which produced it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cityplanner.plugin.agent.ask.agent import answer_request
from cityplanner.plugin.agent.ask.cognition import extract
from cityplanner.plugin.agent.ask.intents import INTENTS, Intent
from cityplanner.plugin.agent.ask.rules import RULES
from cityplanner.plugin.city.names import name_index

READINGS = json.loads((Path(__file__).parent / "data" / "readings.json").read_text(encoding="utf-8"))["items"]
RULE_IDS = {r.id for r in RULES}
#: requests whose one rule produces an intent that neither the readings file nor a rule's example shows
MORE = [("If there are cafés within 300 m of Oodi, list those", "helsinki"),
        ("How many are there in Kotka?", "kotka"),
        ("How many schools are there in Kotka?", "kotka"), ("List the pharmacies in Kotka", "kotka"),
        ("dentists Kluuvi", "helsinki"), ("how far by road is the nearest pharmacy to Kiasma?", "helsinki")]


def _declared_below_intent(cls: type, attr: str) -> bool:
    """``attr`` is set by the intent's class or a family base, not inherited from ``Intent``."""
    return next(c for c in cls.__mro__ if attr in c.__dict__) is not Intent


@pytest.mark.parametrize("name", list(INTENTS))
def test_every_intent_declares_rules_needs_tools_and_facts(name, tmp_path):
    from cityplanner.plugin.agent.tools import default_registry

    intent = INTENTS[name]
    cls = type(intent)
    assert intent.name == name
    for attr in ("rules", "needs", "tools"):
        assert _declared_below_intent(cls, attr), (name, attr)
    assert cls.calls is not Intent.calls and cls.facts is not Intent.facts, name
    assert intent.rules and set(intent.rules) <= RULE_IDS, (name, set(intent.rules) - RULE_IDS)
    assert set(intent.follows) <= RULE_IDS, name
    assert intent.tools and set(intent.tools) <= set(default_registry(tmp_path).tools), name
    for slot, question in intent.needs:
        assert slot and question, name


def test_every_rule_is_claimed_by_an_intent_and_claims_only_rules():
    claimed = {r for i in INTENTS.values() for r in (*i.rules, *i.follows)}
    assert claimed == RULE_IDS, (RULE_IDS - claimed, claimed - RULE_IDS)


def _readings():
    yield from ((it["request"], it["region"]) for it in READINGS)
    yield from ((r.example, r.region) for r in RULES)
    yield from MORE


def test_each_intent_read_has_a_class_naming_the_rule_that_produced_it_and_each_claim_is_seen(monkeypatch):
    from dataclasses import replace

    from cityplanner.plugin.agent.ask import rules as rules_module

    produced: list[tuple[str, str]] = []   # (intent, rule id) of every goal a rule returned

    def recording(rule):
        def test(c):
            got = rule.test(c)
            produced.extend((g.intent, rule.id) for g in got or [])
            return got
        return replace(rule, test=test)

    monkeypatch.setattr(rules_module, "RULES", tuple(recording(r) for r in RULES))
    for request, region in _readings():
        task = extract(request, name_index, ("helsinki", "kotka"), region)
        assert all(g.intent in INTENTS for g in task.goals), request
    declared = {(n, r) for n, i in INTENTS.items() for r in i.rules}
    seen = set(produced)
    assert seen <= declared, ("produced, not declared:", seen - declared)
    assert declared <= seen, ("declared, never produced:", declared - seen)


def test_needs_are_the_questions_a_reading_that_lacks_them_gets():
    def missing(request: str, region: str | None) -> list[str]:
        return extract(request, name_index, ("helsinki", "kotka"), region).missing

    assert missing("what is the distance to the pharmacy?", "helsinki") == [
        "the start place (where to search from)"]
    assert missing("How many are there in Kotka?", "kotka") == ["what to look for (a name or a kind of place)"]
    assert missing("Plan new roads", "kotka") == ["the budget (k€)"]
    assert missing("Run a participation round", None) == ["the parcels GeoJSON file"]   # no region asked
    assert missing("How many pharmacies are there?", None) == ["the region (helsinki or kotka)"]
    assert INTENTS["route"].missing({"origin": "x", "destination": ""}) == ["the destination place"]


@pytest.mark.slow  # every rule's example answered by the real tools (plans solved)
def test_each_goal_calls_only_the_tools_its_intent_declares(tmp_path):
    from cityplanner.plugin.agent.tools import default_registry

    reg = default_registry(tmp_path / "ws")
    called = 0
    for rule in RULES:
        out = answer_request(rule.example, reg, None, rule.region)
        allowed = {t for g in out["task"]["goals"] for t in INTENTS[g["intent"]].tools}
        tools = {c["tool"] for c in out["tool_calls"]}
        assert tools <= allowed, (rule.example, tools - allowed)
        called += bool(tools)
    assert called >= 15   # most examples are answered, not clarified
