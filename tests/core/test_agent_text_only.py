"""The raw-model baseline: prompt from the template, constrained answer scored as given, table."""
from __future__ import annotations

import json

from cityplanner.plugin.agent.backend import BackendError, ChatResult
from cityplanner.plugin.agent.compare import table
from cityplanner.plugin.agent.protocol import PLAN_SCHEMA
from cityplanner.plugin.agent.text_only import propose, text_only_prompt
from tests.core.sandbox_helpers import toy_workspace


class Fixed:
    def __init__(self, text):
        self.text, self.seen = text, []

    def chat(self, messages, *, schema=None, **kw):
        self.seen.append((messages, schema))
        if isinstance(self.text, Exception):
            raise self.text
        return ChatResult(self.text, 100, 8, 0.5, "stop")


def test_prompt_holds_limits_formula_and_table(tmp_path, monkeypatch):
    inst, _ = toy_workspace(tmp_path / "ws", monkeypatch)
    p = text_only_prompt(inst)
    assert f"at most {inst.max_select} candidates" in p and "candidate_ids" in p
    assert all(i in p for i in inst.ids) and "POINT" not in p and "POLYGON" not in p


def test_answers_are_scored_as_given(tmp_path, monkeypatch):
    inst, _ = toy_workspace(tmp_path / "ws", monkeypatch)
    model = Fixed(json.dumps({"candidate_ids": ["c0"]}))
    ok = propose(model, inst)
    assert ok["valid"] and ok["ids"] == ["c0"] and ok["tokens"] == {"prompt": 100, "completion": 8}
    assert model.seen[0][1] == PLAN_SCHEMA
    everything = propose(Fixed(json.dumps({"candidate_ids": inst.ids})), inst)
    assert not everything["valid"] and everything["error"]          # over the limits: not repaired
    assert not propose(Fixed("not json"), inst)["valid"]
    assert propose(Fixed(json.dumps({"candidate_ids": []})), inst)["error"] == "empty plan"
    assert "worker" in propose(Fixed(BackendError("worker died")), inst)["error"]


def test_table_reports_feasibility_and_mean_valid_score():
    rows = [{"task": "land", "method": "greedy", "valid": True, "score": 0.5, "seconds": 1.0},
            {"task": "land", "method": "text_only", "valid": False, "score": 0.9, "seconds": 3.0},
            {"task": "land", "method": "agent", "valid": True, "score": 0.25, "seconds": 9.0, "gap": 0.5},
            {"task": "land", "method": "default", "valid": True, "score": 0.5, "seconds": 4.0, "gap": 0.0}]
    md = table(rows).splitlines()
    assert md[2:] == ["| land | text_only | 0/1 | – | – | 3.0 |", "| land | agent | 1/1 | 0.2500 | 50.0 | 9.0 |",
                      "| land | default | 1/1 | 0.5000 | 0.0 | 4.0 |", "| land | greedy | 1/1 | 0.5000 | – | 1.0 |"]
