"""Benchmark runner, report and suites on toy instances (no city data needed)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import cityplanner.plugin.city
from cityplanner.plugin.bench import suites
from cityplanner.plugin.bench.runner import run_bench
from cityplanner.plugin.bench.suites import SuiteItem, build_item, suite
from cityplanner.plugin.cli import main
from cityplanner.plugin.errors import InputError
from cityplanner.plugin.sandbox.workspace import write_workspace
from tests.toy_task import ToyCover, register

TOY_ITEMS = [SuiteItem("toy", "small", "nowhere", None, s, "train", f"toy-{s}") for s in (1, 2)]


@pytest.fixture
def toy_suite(monkeypatch):
    """Suite 'toy2': two ToyCover instances; the toy task and its MILP are registered."""
    register(monkeypatch, milp=True)
    monkeypatch.setitem(suites.SUITES, "toy2", lambda: TOY_ITEMS)
    monkeypatch.setattr(cityplanner.plugin.city, "load_city", lambda region: None)


def _check_outputs(out: Path, methods: list[str]) -> dict:
    res = json.loads((out / "results.json").read_text())
    rows = res["rows"]
    assert len(rows) == len(TOY_ITEMS) * len(methods)
    for r in rows:
        assert {"task", "size", "instance", "method", "seed", "valid", "score", "upper_bound", "gap", "seconds"} <= set(r)
        assert r["valid"] and r["task"] == "toy" and r["upper_bound"] is not None
        assert -1e-6 <= r["gap"] and r["score"] <= r["upper_bound"] + 1e-6
    table = (out / "table.md").read_text()
    assert all(m in table for m in methods) and ("wins" in table or "tie:" in table)
    assert (out / "score_vs_time.png").stat().st_size > 0 and (out / "gaps.png").stat().st_size > 0
    return res


def test_bench_command_with_processes(toy_suite, tmp_path, capsys):
    methods = ["greedy", "sa"]
    rc = main(["bench", "--suite", "toy2", "--methods", ",".join(methods), "--time-limit", "5",
               "--workers", "2", "--bound-time-limit", "5", "--out", str(tmp_path)])
    assert rc == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["rows"] == 4 and "toy/small" in printed["winners"]
    res = _check_outputs(tmp_path, methods)
    assert set(res["bounds"]) == {"toy-1", "toy-2"}


@pytest.mark.slow  # starts a Dask cluster
def test_bench_on_dask_cluster(toy_suite, tmp_path):
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster:
        results = run_bench(TOY_ITEMS, ["greedy", "alns"], tmp_path, time_limit=5, bound_time_limit=5,
                            scheduler=cluster.scheduler_address)
    from cityplanner.plugin.bench.report import write_report
    write_report(results, tmp_path)
    _check_outputs(tmp_path, ["greedy", "alns"])


def test_bench_on_workspaces(monkeypatch, tmp_path):
    register(monkeypatch)
    ws = [str(write_workspace(ToyCover.build(seed=s), tmp_path / f"ws{s}")) for s in (1, 2)]
    res = run_bench(ws, ["greedy"], tmp_path / "out", time_limit=2, workers=1)
    assert [r["instance"] for r in res["rows"]] == ["ws1", "ws2"]
    assert all(r["valid"] and r["gap"] is None for r in res["rows"])  # toy has no MILP here: no bound


def test_bench_rejects_bad_input(capsys):
    assert main(["bench", "--suite", "nope", "--out", "x"]) == 2
    assert main(["bench", "--suite", "quick", "--methods", "magic", "--out", "x"]) == 2


def test_full_suite_split_never_leaks_a_tile(monkeypatch):
    fake = {"helsinki": [(x, y, x + 800.0, y + 800.0) for x in (0.0, 400.0) for y in (0.0, 400.0, 800.0)],
            "kotka": [(x, y, x + 800.0, y + 800.0) for x in (0.0, 400.0, 800.0, 1200.0) for y in (0.0, 400.0, 800.0)]}
    monkeypatch.setattr(cityplanner.plugin.city, "load_city", lambda region: region)
    monkeypatch.setattr(cityplanner.plugin.city, "tiles", lambda city, size, step: fake[city])
    items = suite("full")
    per_cell: dict = {}
    split_of_tile: dict = {}
    for it in items:
        per_cell[(it.task, it.size)] = per_cell.get((it.task, it.size), 0) + 1
        tile = (it.region, it.window_bounds)
        assert split_of_tile.setdefault(tile, it.split) == it.split
    assert len(per_cell) == 9 and min(per_cell.values()) >= 30
    assert set(split_of_tile.values()) == {"train", "test"}
    assert len({it.name for it in items}) == len(items)


def test_quick_suite_and_build_item(monkeypatch):
    items = suite("quick")
    assert len(items) == 9 and all(i.region == "helsinki" and i.window_bounds is None and i.seed == 0 for i in items)
    register(monkeypatch)
    monkeypatch.setattr(cityplanner.plugin.city, "load_city", lambda region: None)
    inst = build_item(SuiteItem("toy", "small", "x", None, 3, "train", "t"))
    assert inst.instance_id == "toy-3"


def test_solve_command_writes_and_evaluates_plan(monkeypatch, tmp_path, capsys):
    register(monkeypatch)
    ws = write_workspace(ToyCover.build(seed=4, n=12), tmp_path / "ws")
    assert main(["solve", str(ws), "--method", "grasp", "--time-limit", "5"]) == 0
    out = json.loads(capsys.readouterr().out)
    plan = json.loads((ws / "outputs" / "final_plan.json").read_text())
    assert out["valid"] and out["method"] == "grasp" and len(plan["candidate_ids"]) == out["selected"]
    history = (ws / "outputs" / "eval_history.jsonl").read_text().splitlines()
    assert json.loads(history[-1])["score"] == out["score"]
    assert main(["solve", str(ws), "--method", "milp"]) == 2  # toy has no MILP registered here


def test_speed_measure_and_table(toy_suite):
    from cityplanner.plugin.bench.speed import measure, speed_markdown

    row = measure(TOY_ITEMS[0], moves=20, repeats=2)
    assert row["task"] == "toy" and row["n"] > 0
    for k in ("score_ms", "evaluate_ms", "gain_add_us", "gain_remove_us", "gain_swap_us", "apply_us"):
        assert row[k] is not None and row[k] > 0, k
    table = speed_markdown([row])
    assert "gain_swap_us" in table and "| toy |" in table


def test_first_per_cell_keeps_the_first_n_of_each_task_and_size():
    items = [SuiteItem(t, z, "r", None, k, "train", f"{t}-{z}-{k}") for t in ("a", "b") for z in ("small", "large")
             for k in range(4)]
    two = suites.first_per_cell(items, 2)
    assert [it.name for it in two] == [f"{t}-{z}-{k}" for t in ("a", "b") for z in ("small", "large") for k in (0, 1)]
    assert suites.first_per_cell(items, None) == items and suites.first_per_cell(items, 9) == items
    with pytest.raises(InputError):
        suites.first_per_cell(items, 0)
