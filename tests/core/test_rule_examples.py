"""Each reading rule's example (data in ``rules.RULES``) fires that rule: read by the whole
reader, the example's trace names the rule. The ids are unique, so a trace names one rule."""
from __future__ import annotations

import pytest

from cityplanner.plugin.agent.ask.cognition import extract
from cityplanner.plugin.agent.ask.rules import RULES
from cityplanner.plugin.city.names import name_index


def test_rule_ids_are_unique():
    ids = [r.id for r in RULES]
    assert len(ids) == len(set(ids)) == 65


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_rule_example_fires_its_rule(rule):
    task = extract(rule.example, name_index, ("helsinki", "kotka"), rule.region)
    assert rule.id in task.trace, (rule.example, task.trace)
    assert task.goals or rule.id.endswith("-follows") or rule.id in ("route.reported", "plan.continues"), task.trace


def test_trace_of_a_two_clause_request_names_both_rules():
    # the second clause adds its money to the plan the first read: two rules, one goal
    task = extract("Plan road upgrades for Kotka; we can spend 250 000 euros", name_index, ("helsinki", "kotka"), None)
    assert task.trace == ["plan.request", "plan.money-follows"]
    assert [(g.intent, g.slots["task"], g.slots["budget"]) for g in task.goals] == [("plan", "road", 250.0)]


def test_no_rule_fires_on_a_request_that_asks_nothing():
    task = extract("hello there", name_index, ("helsinki", "kotka"), "helsinki")
    assert task.trace == [] and task.goals == [] and task.missing
