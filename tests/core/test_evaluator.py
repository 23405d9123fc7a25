"""The workspace evaluator: every bad plan is an invalid result with a clear error, never a crash."""
from __future__ import annotations

import json

import pytest

from cityplanner.plugin.sandbox import evaluate_plan_file
from cityplanner.plugin.sandbox.evaluator import main
from cityplanner.plugin.util.io import read_jsonl

from .sandbox_helpers import toy_workspace

KEYS = {"valid", "score", "errors", "warnings", "metrics", "cost_ratio", "candidate_ids", "binding", "contributions"}


@pytest.fixture
def toy(tmp_path, monkeypatch):
    return toy_workspace(tmp_path / "ws", monkeypatch)


def history(ws):
    return read_jsonl(ws / "outputs" / "eval_history.jsonl")


@pytest.mark.parametrize("text, needle", [
    ("not json at all", "not valid JSON"),
    ("", "empty"),
    ("  \n", "empty"),
    ("[\"c1\"]", "JSON object"),
    ('{"ids": ["c1"]}', "no 'candidate_ids'"),
    ('{"candidate_ids": "c1"}', "must be a list"),
    ('{"candidate_ids": [null, 1.5, {"a": 1}, true]}', "ids must be strings"),
    ('{"candidate_ids": ["zzz"]}', "unknown candidate ids: zzz"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    (json.dumps({"candidate_ids": ["c1"] * 1_000_001}), "too many ids"),
])
def test_bad_plans_are_invalid_with_a_clear_error(toy, capsys, text, needle):
    _, ws = toy
    (ws / "work" / "p.json").write_text(text)
    assert main(["work/p.json"], workspace=ws) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == KEYS and out["valid"] is False
    assert any(needle in e for e in out["errors"]), out["errors"]
    rec = history(ws)[-1]
    assert rec["plan"] == "work/p.json" and rec["valid"] is False and "ts" in rec


@pytest.mark.parametrize("name", ["missing.json", "adir"])
def test_unreadable_plan_exits_2_but_is_recorded(toy, capsys, name):
    _, ws = toy
    (ws / "work" / "adir").mkdir()
    assert main([str(ws / "work" / name)], workspace=ws) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] is False and out["score"] is None and len(out["errors"]) == 1
    assert len(history(ws)) == 1


def test_duplicates_removed_with_warning_and_valid_plan_scored(toy):
    inst, ws = toy
    plan = ws / "outputs" / "final_plan.json"
    plan.write_text(json.dumps({"candidate_ids": ["c4", "c5", "c4"], "note": "extra keys are ignored"}))
    out = evaluate_plan_file(ws, plan)
    assert out["valid"] and out["candidate_ids"] == ["c4", "c5"]
    assert any("duplicate ids removed: c4" in w for w in out["warnings"])
    assert out == {**inst.evaluate(["c4", "c5"]).to_json(), "warnings": out["warnings"]}
    assert history(ws)[-1]["plan"] == "outputs/final_plan.json"


def test_default_plan_and_hard_errors(toy, capsys):
    inst, ws = toy
    assert main([], workspace=ws) == 0
    assert json.loads(capsys.readouterr().out)["warnings"] == ["empty plan"]
    (ws / "outputs" / "final_plan.json").write_text(json.dumps({"candidate_ids": inst.ids}))
    out = evaluate_plan_file(ws, ws / "outputs" / "final_plan.json")
    assert not out["valid"] and any("budget exceeded" in e for e in out["errors"])
    assert any("conflict" in e for e in out["errors"])


def test_task_failure_becomes_an_error(toy, monkeypatch):
    inst, ws = toy
    from cityplanner.plugin.sandbox.workspace import load_instance

    loaded = load_instance(ws)
    monkeypatch.setattr(loaded, "score_mask", lambda mask: 1 / 0)
    out = evaluate_plan_file(ws, ws / "outputs" / "final_plan.json")
    assert out["valid"] is False and "ZeroDivisionError" in out["errors"][0]
