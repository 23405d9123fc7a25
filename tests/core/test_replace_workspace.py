"""Issue 30, defect 10: ``instance --out`` over a workspace with work. Before: exit 0, the history
and the final plan deleted, the old task's instructions and run records kept (MCP refused
this already; the CLI did not)."""
from __future__ import annotations

import json

from cityplanner.plugin.bench.suites import suite
from cityplanner.plugin.cli import main
from cityplanner.plugin.constraints import store
from cityplanner.plugin.sandbox import best_plan
from cityplanner.plugin.sandbox.workspace import PLAN_FILE, work_held


def test_replace_is_needed_and_clears_the_old_tasks_records(tmp_path, capsys):
    ws = tmp_path / "ws"
    name = suite("tiny")[0].name
    assert main(["instance", "--suite", "tiny", "--name", name, "--out", str(ws)]) == 0
    assert work_held(ws) == []
    inst = best_plan.instance_in_force(ws)
    best_plan.record_run(ws, "hand", list(inst.ids[:1]))
    store.add(ws, [{"kind": "count_max", "count": 1}])
    lost = work_held(ws)
    assert any("run records" in x for x in lost) and any("1 stored instructions" in x for x in lost)
    capsys.readouterr()
    assert main(["instance", "--suite", "tiny", "--name", name, "--out", str(ws)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "already holds work" in err and "--replace" in err and err.count("\n") == 1
    assert json.loads((ws / PLAN_FILE).read_text())["candidate_ids"]          # nothing was touched
    assert main(["instance", "--suite", "tiny", "--name", name, "--out", str(ws), "--replace"]) == 0
    assert store.load(ws) == [] and not (ws / best_plan.RUNS).exists()       # the old records went too
    assert work_held(ws) == []
