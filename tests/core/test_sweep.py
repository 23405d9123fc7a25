"""Budget curves (``python -m plugin sweep``): input checks, the curve arithmetic on a real
Kotka station instance, and real sweeps — on plain local processes, and on a Dask scheduler
and workers started here as plain processes (no PYTHONPATH: the sweep ships its own code),
one of which is killed mid-sweep."""
from __future__ import annotations

import csv
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from cityplanner.plugin.cli import main
from cityplanner.plugin.errors import InputError
from cityplanner.plugin.sandbox.workspace import load_instance
from cityplanner.plugin.sweep import curve, parse_budgets, read_scenarios, sweep
from cityplanner.plugin.sweep.points import instance_at
from cityplanner.plugin.tasks.station import W_RHO

ROOT = Path(__file__).resolve().parents[2]
BUDGETS = "200,400,640,900"


@pytest.fixture(scope="module")
def kotka_ws(tmp_path_factory) -> Path:
    """A small Kotka station workspace (80 candidates, budget 638.7 k€)."""
    out = tmp_path_factory.mktemp("kotka") / "ws"
    assert main(["instance", "--region", "kotka", "--task", "station", "--size", "small", "--seed", "0",
                 "--out", str(out)]) == 0
    return out


# ------------------------------------------------------------------------------ input
@pytest.mark.parametrize("budgets,span", [("100,x", None), ("0,100", None), ("-5", None), ("nan,1", None),
                                          (None, "100:50:3"), (None, "1:2:1"), (None, "1:2"), (None, None)])
def test_bad_budgets_are_one_line_errors(budgets, span):
    with pytest.raises(InputError):
        parse_budgets(budgets, span)


def test_budgets_and_range():
    assert parse_budgets("400,200,400") == [200.0, 400.0]
    assert parse_budgets(span="100:400:4") == [100.0, 200.0, 300.0, 400.0]


@pytest.mark.parametrize("items", [["noequals"], ["base=keep 400 m between stations"], ["a b=x"], ["a="],
                                   ["a=x", "a=y"]])
def test_bad_scenarios_are_refused(items):
    with pytest.raises(InputError):
        read_scenarios(items)


def test_scenarios_inline_and_file(tmp_path):
    s = read_scenarios(["spaced=keep 400 m between stations; at most 4 stations"])
    assert s[0].name == "spaced" and s[0].texts == ["keep 400 m between stations", "at most 4 stations"]
    f = tmp_path / "sc.json"
    f.write_text(json.dumps({"few": ["at most 3 stations"], "far": "keep 500 m between stations"}))
    assert [(x.name, x.texts) for x in read_scenarios([str(f)])] == [("few", ["at most 3 stations"]),
                                                                     ("far", ["keep 500 m between stations"])]


@pytest.mark.parametrize("extra", [["--budgets", "100,abc"], ["--range", "5:1:3"], ["--budgets", "100", "--gap", "2"],
                                   ["--budgets", "100", "--scenarios", "noequals"],
                                   ["--budgets", "100", "--scenarios", "x=make it greener"]])
def test_cli_bad_input_exits_2_and_writes_nothing(kotka_ws, tmp_path, capsys, extra):
    out = tmp_path / "out"
    assert main(["sweep", str(kotka_ws), *extra, "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and "\n" not in err
    assert not out.exists() and not (kotka_ws / "runs").exists()


def test_cli_unreachable_scheduler_is_one_line(kotka_ws, tmp_path, capsys):
    with socket.socket() as s:   # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = tmp_path / "out"
    assert main(["sweep", str(kotka_ws), "--budgets", "300", "--scheduler", f"tcp://127.0.0.1:{port}",
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: cannot reach the Dask scheduler") and "\n" not in err
    assert not out.exists() and not (kotka_ws / "runs").exists()


def test_cli_bad_workspace(tmp_path, capsys):
    assert main(["sweep", str(tmp_path / "nope"), "--budgets", "100", "--out", str(tmp_path / "o")]) == 2
    assert not (tmp_path / "o").exists()


# ------------------------------------------------------------------------------ curve arithmetic
def test_repair_takes_a_smaller_budgets_plan_rescored(kotka_ws):
    """A point that came back worse than a smaller budget's plan takes that plan, re-scored at
    its own budget: S rises by W_RHO·cost·(1/B1 − 1/B2) (the cost ratio term), computed here
    from the candidates' costs, not by the evaluator."""
    export = load_instance(kotka_ws).to_export()
    low = instance_at(export, 400.0)
    from cityplanner.plugin.solvers import solve

    plan = solve(low, "greedy", time_limit=5).ids
    cost = sum(float(c["cost"]) for c in export["candidates"] if c["id"] in set(plan))
    s_low = low.evaluate(plan).score
    weak = [plan[0]]   # a worse (one-site) plan for the larger budget
    rows = [{"scenario": "base", "budget": 400.0, "valid": True, "score": s_low, "ids": plan, "upper_bound": 0.9},
            {"scenario": "base", "budget": 800.0, "valid": True, "score": instance_at(export, 800.0).evaluate(weak).score,
             "ids": weak, "upper_bound": 0.5}]
    curve.repair(rows, lambda s, b: instance_at(export, b))
    hi = rows[1]
    assert hi["repaired_from"] == 400.0 and hi["ids"] == plan
    assert hi["score"] == pytest.approx(s_low + W_RHO * cost * (1 / 400.0 - 1 / 800.0), abs=2e-6)
    # the larger budget's bound (0.5) also bounds the smaller one (0.9 → 0.5)
    assert rows[0]["upper_bound"] == 0.5 and rows[0]["bound_from_larger_budget"]
    assert rows[0]["gap"] == pytest.approx((0.5 - s_low) / 0.5, abs=1e-6)


def test_marginals_prices_and_why():
    rows = [{"scenario": "base", "budget": 100.0, "score": 0.10, "upper_bound": 0.10, "valid": True},
            {"scenario": "base", "budget": 300.0, "score": 0.30, "upper_bound": 0.30, "valid": True},
            {"scenario": "s", "budget": 100.0, "score": 0.08, "upper_bound": 0.09, "valid": True},
            {"scenario": "s", "budget": 300.0, "score": 0.21, "upper_bound": 0.24, "valid": True}]
    curve.marginals(rows)
    curve.prices(rows, "base")
    assert rows[0]["marginal_per_100k"] is None
    assert rows[1]["marginal_per_100k"] == pytest.approx(0.1)          # 0.2 over 200 k€
    assert rows[3]["marginal_per_100k"] == pytest.approx(0.065)
    assert rows[2]["price"] == pytest.approx(0.02) and rows[2]["price_pct"] == pytest.approx(20.0)
    assert rows[3]["price_range"] == pytest.approx([0.06, 0.09])      # [0.30 − 0.24, 0.30 − 0.21]
    low = [{"scenario": "base", "budget": 50.0, "score": -0.01, "upper_bound": -0.01, "valid": True},
           {"scenario": "s", "budget": 50.0, "score": -0.02, "upper_bound": -0.02, "valid": True}]
    curve.prices(low, "base")
    assert low[1]["price"] == pytest.approx(0.01) and low[1]["price_pct"] is None   # no share of a score ≤ 0
    slow = {"valid": True, "gap": 0.03, "status": "time_limit", "time_limit": 5.0, "notes": ["milp time_limit in 4.8s (exact)"]}
    assert "5 s time limit" in curve.why(slow, 0.01)
    assert curve.why({**slow, "gap": 0.004}, 0.01) is None


# ------------------------------------------------------------------------------ real sweeps
def _check_curve(rows: list[dict], ws: Path, budgets: list[float]) -> None:
    """Non-decreasing scores, gaps ≤ 1 %, every plan within its budget by the candidates' own costs."""
    cost = {c["id"]: float(c["cost"]) for c in json.loads((ws / "input" / "export.json").read_text())["candidates"]}
    assert [r["budget"] for r in rows] == budgets
    scores = [r["score"] for r in rows]
    assert all(b >= a - 1e-9 for a, b in zip(scores, scores[1:], strict=False)), scores
    for r in rows:
        assert r["valid"] and r["gap"] is not None and 0 <= r["gap"] <= 0.01, r
        assert r["score"] <= r["upper_bound"] + 1e-6
        assert sum(cost[c] for c in r["candidate_ids"]) <= r["budget"] + 1e-6
        assert r["selected"] == len(r["candidate_ids"]) == len(r["sites"]) > 0
        assert all(s["street"] for s in r["sites"])     # Kotka's sites are all on named roads


@pytest.mark.slow
def test_local_processes_sweep_records_the_best(kotka_ws, tmp_path):
    got = []
    res = sweep(kotka_ws, [300.0, 638.7], time_limit=20, backend="local", workers=2,
                on_row=lambda r, k, n: got.append((k, n)))
    assert sorted(got) == [(1, 2), (2, 2)]
    _check_curve(res["rows"], kotka_ws, [300.0, 638.7])
    best = json.loads((kotka_ws / "runs" / "best.json").read_text())
    # the workspace's own budget is a point: its (certified) plan is the workspace's best
    assert sorted(best["candidate_ids"]) == sorted(res["rows"][1]["candidate_ids"])
    assert sorted(json.loads((kotka_ws / "outputs" / "final_plan.json").read_text())["candidate_ids"]) == \
        sorted(best["candidate_ids"])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """``dask scheduler`` and ``dask worker`` as plain processes on 127.0.0.1, started from the
    venv's ``dask`` in an empty folder with no PYTHONPATH: they cannot import the plugin."""

    def __init__(self, folder: Path, workers: int, nanny: bool = True):
        self.address = f"tcp://127.0.0.1:{_free_port()}"
        dask = str(Path(sys.executable).with_name("dask"))
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self.procs: list[subprocess.Popen] = []
        # the processes hold their own copies of the log; this one closes once they are started
        with open(folder / "dask.log", "wb") as log:
            port = self.address.rsplit(":", 1)[1]
            self.procs.append(subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", port,
                                                "--no-dashboard"], cwd=folder, env=env, stdout=log, stderr=log,
                                               start_new_session=True))
            self.workers = {}
            for k in range(workers):
                p = subprocess.Popen([dask, "worker", self.address, "--nthreads", "1", "--name", f"w{k}", "--no-dashboard",
                                      *([] if nanny else ["--no-nanny"]), "--local-directory", str(folder / f"w{k}")],
                                     cwd=folder, env=env, stdout=log, stderr=log, start_new_session=True)
                self.procs.append(p)
                self.workers[f"w{k}"] = p
        from distributed import Client

        deadline = time.time() + 120
        while True:
            try:
                with Client(self.address, timeout="5s") as c:
                    c.wait_for_workers(workers, timeout=120)
                break
            except (OSError, TimeoutError):
                if time.time() > deadline:
                    raise

    def close(self) -> None:
        for p in reversed(self.procs):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()


@pytest.mark.slow
def test_kotka_curve_through_a_scheduler_address(kotka_ws, tmp_path):
    """The CLI from the repository root against a real scheduler: 4 budgets, rows as promised."""
    cluster = Cluster(tmp_path, workers=2)
    try:
        out = tmp_path / "curve"
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        proc = subprocess.run([sys.executable, "-m", "plugin", "sweep", str(kotka_ws), "--budgets", BUDGETS,
                               "--time-limit", "40", "--scheduler", cluster.address, "--out", str(out)],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    finally:
        cluster.close()
    assert proc.returncode == 0, proc.stderr[-2000:]
    res = json.loads(proc.stdout)
    budgets = [float(b) for b in BUDGETS.split(",")]
    _check_curve(res["rows"], kotka_ws, budgets)
    assert res["monotone"] and not res["cancelled"]
    assert {r["code"] for r in res["rows"]} == {"shipped"}     # the workers ran the shipped code
    png = out / "sweep.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 20_000
    with open(out / "sweep.csv", newline="") as f:
        table = list(csv.DictReader(f))
    assert [float(r["budget"]) for r in table] == budgets
    assert np.allclose([float(r["score"]) for r in table], [r["score"] for r in res["rows"]])


@pytest.mark.slow
def test_a_worker_killed_mid_sweep_costs_a_retry_not_the_curve(kotka_ws, tmp_path):
    """Two workers without nannies; when the first point is back, the worker busy with a point is
    killed (SIGKILL). The scheduler reruns that point on the other worker: every row comes
    back, the curve holds, and the point says it was retried."""
    from distributed import Client

    cluster = Cluster(tmp_path, workers=2, nanny=False)
    killed = []

    def kill_a_busy_worker(row, done, total):
        if killed:
            return
        with Client(cluster.address, timeout="10s") as c:
            for _ in range(100):
                busy = [a for a, keys in c.processing().items() if keys]
                if busy:
                    break
                time.sleep(0.1)
            name = c.scheduler_info()["workers"][busy[0]]["name"]
        os.killpg(cluster.workers[name].pid, signal.SIGKILL)
        killed.append(name)

    try:
        res = sweep(kotka_ws, [200.0, 400.0, 640.0, 900.0], time_limit=30, scheduler=cluster.address,
                    on_row=kill_a_busy_worker)
    finally:
        cluster.close()
    assert killed and cluster.workers[killed[0]].returncode == -signal.SIGKILL
    _check_curve(res["rows"], kotka_ws, [200.0, 400.0, 640.0, 900.0])
    assert sum(r["retries"] for r in res["rows"]) >= 1
    assert not res["cancelled"] and res["done"] == 4
