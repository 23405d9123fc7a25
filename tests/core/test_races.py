"""Issue 30, items 3 and 4: parallel writers of one workspace, as real processes.

Before: ``store.add`` read, changed and wrote without a lock (16 applies in 2 rounds of 8 all
said "applied": true, 13 were stored, keys handed out twice) and parallel solves overwrote
each other's ``runs/NNN-method.json`` (6 of 16 rounds). Now the workspace lock
(``plugin.util.locks``) serialises them: every apply is stored with its own key and every solve
keeps its own run record, and ``runs/best.json`` holds the best of them."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cityplanner.plugin import PLUGIN_ROOT
from cityplanner.plugin.constraints import store
from cityplanner.plugin.sandbox import best_plan, write_workspace
from cityplanner.plugin.util.locks import workspace_lock
from tests.core.test_task_station import hand

N = 8


def _parallel(argvs: list[list[str]], timeout: float = 300) -> list[dict]:
    """Start every command at once (real processes), wait for all; their JSON answers."""
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    procs = [subprocess.Popen([sys.executable, "-m", "plugin", *a], cwd=PLUGIN_ROOT, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for a in argvs]
    out = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=timeout)
        assert p.returncode == 0, stderr[-2000:]
        out.append(json.loads(stdout))
    return out


@pytest.fixture
def ws(tmp_path):
    return write_workspace(hand(), tmp_path / "ws")


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_parallel_applies_are_all_stored_with_distinct_keys(ws):
    answers = _parallel([["instruct", str(ws), f"fewer than {k + 3} stations", "--apply", "--rules-only",
                          "--time-limit", "20"] for k in range(N)])
    assert all(a["applied"] for a in answers)
    stored = store.load(ws)
    keys = [c["key"] for c in stored]
    assert len(stored) == N and len(set(keys)) == N, keys
    # each process's reply names the key it got: the N replies hand out N different keys
    replied = [a["constraints"][0]["key"] for a in answers]
    assert sorted(replied) == sorted(keys)
    assert sorted(c["count"] for c in stored) == [k + 2 for k in range(N)]


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_parallel_solves_keep_distinct_run_records(ws):
    answers = _parallel([["solve", str(ws), "--method", "greedy", "--time-limit", "5", "--seed", str(k)]
                         for k in range(N)])
    files = sorted((ws / best_plan.RUNS).glob("[0-9]*.json"))
    assert len(files) == N, [f.name for f in files]
    assert len({Path(a["plan"]).name for a in answers}) == N
    # best.json holds the best of the eight plans, each judged afresh here
    inst = hand()
    scores = [inst.evaluate(json.loads(f.read_text())["candidate_ids"]).score for f in files]
    best = json.loads((ws / best_plan.BEST).read_text())
    assert inst.evaluate(best["candidate_ids"]).score == pytest.approx(max(scores))
    assert json.loads((ws / "outputs" / "final_plan.json").read_text())["candidate_ids"] == best["candidate_ids"]


def test_the_lock_excludes_another_process_and_is_reentrant(ws):
    """While this process holds the lock, a second process cannot take it; the holder can again."""
    code = ("import sys; sys.path.insert(0, 'scripts'); import cityplanner_pkg; cityplanner_pkg.load();"
            "from cityplanner.plugin.util.locks import workspace_lock\n"
            "from cityplanner.plugin.errors import InputError\n"
            f"try:\n  with workspace_lock({str(ws)!r}, wait_s=0.5): print('took')\n"
            "except InputError as e: print('busy:', e)")
    repo = Path(PLUGIN_ROOT)
    with workspace_lock(ws):
        with workspace_lock(ws):   # re-entrant: record_run reads the store, which also locks
            out = subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, timeout=120)
    assert out.stdout.startswith("busy:"), out.stderr[-2000:]
    free = subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, timeout=120)
    assert free.stdout.strip() == "took", free.stderr[-2000:]
