"""Workspace writing and reading: files, read-only input, round trip, atomic context."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys

import numpy as np
import pytest

from cityplanner.plugin import PLUGIN_ROOT
from cityplanner.plugin.cli import main as cli_main
from cityplanner.plugin.errors import InputError
from cityplanner.plugin.sandbox import load_instance, read_plan, write_workspace
from cityplanner.plugin.sandbox.evaluator import main as evaluator_main
from cityplanner.plugin.sandbox.workspace import summary_table

from .sandbox_helpers import needs_land, toy_workspace

INPUT_FILES = {"city_state.json", "candidates.csv", "candidate_summary.csv", "candidates.json", "export.json",
               "README.md", "evaluate_plan.py"}


@pytest.fixture
def toy(tmp_path, monkeypatch):
    return toy_workspace(tmp_path / "ws", monkeypatch)


def test_layout_and_read_only_input(toy):
    inst, ws = toy
    assert {p.name for p in (ws / "input").iterdir()} == INPUT_FILES
    assert all((ws / d).is_dir() for d in ("work", "outputs", "logs"))
    assert (ws / "input").stat().st_mode & 0o777 == 0o555
    assert all(p.stat().st_mode & 0o777 == 0o444 for p in (ws / "input").iterdir())
    assert read_plan(ws / "outputs" / "final_plan.json") == ([], None)
    state = json.loads((ws / "input" / "city_state.json").read_text())
    assert state["task"] == "toy" and state["candidate_count"] == inst.n
    assert state["interaction_limit"] == inst.max_select and state["budget"] == inst.budget
    readme = (ws / "input" / "README.md").read_text()
    assert "BuildPlan" in readme and "python input/evaluate_plan.py outputs/final_plan.json" in readme
    assert "0.2·cost/budget" in readme and f"{inst.budget:g}" in readme
    assert str(PLUGIN_ROOT) not in readme  # no machine path in what the agent reads


def test_round_trip_scores_identically(toy):
    inst, ws = toy
    loaded = load_instance(ws)
    assert loaded is load_instance(ws)  # cached while the export is unchanged
    rng = np.random.default_rng(0)
    for _ in range(200):
        ids = list(rng.choice(inst.ids + ["nope"], size=rng.integers(0, 6)))
        assert loaded.evaluate(ids).to_json() == inst.evaluate(ids).to_json()


def test_copied_workspace_still_evaluates(toy, tmp_path, capsys):
    inst, ws = toy
    copy = tmp_path / "elsewhere" / "copy"
    shutil.copytree(ws, copy)
    shutil.rmtree(ws)
    plan = inst.ids[4:6]
    (copy / "outputs" / "final_plan.json").write_text(json.dumps({"candidate_ids": plan}))
    assert evaluator_main(["outputs/final_plan.json"], workspace=copy) == 0
    assert json.loads(capsys.readouterr().out) == inst.evaluate(plan).to_json()
    assert (copy / "outputs" / "eval_history.jsonl").exists()


def test_atomic_context_build_and_improve(tmp_path, monkeypatch):
    inst, ws = toy_workspace(tmp_path / "b", monkeypatch)
    ctx = json.loads((ws / "work" / "atomic_context.json").read_text())
    assert ctx["goal"] == "BuildPlan" and ctx["current_plan"] == {"candidate_ids": []}
    assert ctx["budget"] == inst.budget and ctx["step_limit"] == inst.max_select
    assert [c["id"] for c in ctx["editable_candidates"]] == inst.ids
    assert "base_plan" not in ctx

    base = inst.ids[4:6]
    _, ws2 = toy_workspace(tmp_path / "i", monkeypatch, goal="improve", base_plan=base)
    ctx = json.loads((ws2 / "work" / "atomic_context.json").read_text())
    assert ctx["goal"] == "ImprovePlan" and ctx["base_plan"] == {"candidate_ids": base}
    assert ctx["current_plan"] == {"candidate_ids": base}
    assert ctx["base_evaluation"]["score"] == inst.evaluate(base).score
    assert read_plan(ws2 / "outputs" / "final_plan.json") == (base, None)


def test_rewrite_and_refusals(toy, tmp_path):
    inst, ws = toy
    (ws / "work" / "scratch.txt").write_text("old")
    write_workspace(inst, ws)  # an older workspace is replaced
    assert not (ws / "work" / "scratch.txt").exists()
    other = tmp_path / "notes"
    other.mkdir()
    (other / "mine.txt").write_text("keep")
    with pytest.raises(InputError, match="not a workspace"):
        write_workspace(inst, other)
    assert (other / "mine.txt").read_text() == "keep"
    with pytest.raises(InputError, match="base plan"):
        write_workspace(inst, tmp_path / "x", goal="improve")
    with pytest.raises(InputError, match="unknown goal"):
        write_workspace(inst, tmp_path / "y", goal="dream")
    with pytest.raises(InputError, match="not a workspace"):
        load_instance(tmp_path / "nowhere")


def test_summary_drops_geometry_and_keeps_informative_columns():
    import pandas as pd

    df = pd.DataFrame({"id": ["a", "b"], "cost": [1.23456, 2.0], "group": [0, -1], "wkt": ["POINT (0 0)"] * 2,
                       "const": [5, 5], "area": [10.0, 20.0], "type": ["school", "green"],
                       "nodes": [[1, 2], [3]]})
    out = summary_table(df)
    assert list(out.columns) == ["id", "cost", "group", "area", "type"]
    assert out["cost"].tolist() == [1.235, 2.0]


def test_evaluate_command(toy, capsys, tmp_path):
    inst, ws = toy
    assert cli_main(["evaluate", str(ws)]) == 0
    assert json.loads(capsys.readouterr().out)["candidate_ids"] == []
    assert cli_main(["evaluate", str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and err.count("\n") == 1
    assert cli_main(["evaluate", str(ws), str(tmp_path / "none.json")]) == 2
    assert json.loads(capsys.readouterr().out)["valid"] is False


@needs_land
def test_instance_command_and_script_in_a_real_shell(tmp_path, capsys):
    ws = tmp_path / "land"
    assert cli_main(["instance", "--region", "helsinki", "--task", "land", "--size", "small", "--seed", "1",
                     "--goal", "improve", "--out", str(ws)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["task"] == "land" and summary["candidates"] > 0
    copy = tmp_path / "moved"
    shutil.copytree(ws, copy)
    proc = subprocess.run([sys.executable, "input/evaluate_plan.py", "outputs/final_plan.json"], cwd=copy,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["valid"] and result["candidate_ids"]
    assert json.loads((copy / "outputs" / "eval_history.jsonl").read_text())["plan"] == "outputs/final_plan.json"
    assert cli_main(["instance", "--region", "nowhere.pbf", "--task", "land", "--out", str(tmp_path / "z")]) == 2


def test_atomic_writes_are_readable_by_others(tmp_path):
    from cityplanner.plugin.util.io import atomic_write_json

    p = atomic_write_json(tmp_path / "r.json", {"a": 1})
    assert p.stat().st_mode & 0o777 == 0o644
    assert not [f for f in tmp_path.iterdir() if f.name.startswith(".")]
