"""Run the judged sets (``test_judged_sets.py``) in worker processes: each set is one job, a whole
set in one worker and in its own folder, exactly as the single process ran it (items in order, one
registry and workspace root per set), so a set's rows are those of a sequential run; only the sets
run side by side. On 2 cores the ~1,000 ask items take half the wall time.

Workers are spawned interpreters (not forked: the test process may hold QGIS and threads) that
register the package as ``cityplanner`` first, as ``tests/conftest.py`` does."""
from __future__ import annotations

import json
import multiprocessing
import os
import sys
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

#: workers: the cores this process may use, at most 2 (``JUDGED_WORKERS`` overrides; 1 runs the
#: sets one after another in a single worker)
WORKERS = int(os.environ.get("JUDGED_WORKERS") or min(2, len(os.sched_getaffinity(0))))


def _register() -> None:
    scripts = str(Path(__file__).resolve().parents[2] / "scripts")
    if scripts not in sys.path:
        sys.path.insert(0, scripts)
    import cityplanner_pkg

    cityplanner_pkg.load()


def ask_rows(split: str, root: str) -> list[dict[str, Any]]:
    """Every item of the ask set ``split`` answered rules-only and judged (``run_heldout``)."""
    from cityplanner.plugin.agent.ask.bench import load_heldout, run_heldout
    from cityplanner.plugin.agent.tools import default_registry

    return run_heldout(default_registry(Path(root) / "ws"), None, load_heldout(split), Path(root) / "out")


def instruction_rows(split: str, root: str) -> dict[str, Any]:
    """The instruction bench of ``split`` rules-only: its summary row and per-item rows."""
    from cityplanner.plugin.bench.instructions import run_instructions_bench

    got = run_instructions_bench(root, split=split, readers=("rules",))
    rows = json.loads((Path(root) / "instructions.json").read_text(encoding="utf-8"))["rows"]
    return {"summary": got["summary"], "rows": rows}


def start(jobs: list[tuple[str, Any, tuple]]) -> tuple[ProcessPoolExecutor, dict[str, Future]]:
    """Submit ``(name, fn, args)`` jobs in the order given (longest first balances the workers)."""
    pool = ProcessPoolExecutor(max_workers=max(1, min(WORKERS, len(jobs))),
                               mp_context=multiprocessing.get_context("spawn"), initializer=_register)
    return pool, {name: pool.submit(fn, *args) for name, fn, args in jobs}


_instances: dict[tuple[str, str], Any] = {}


def instruct_item(item: dict[str, Any], root: str, time_limit: float) -> tuple[dict[str, Any], str]:
    """``item`` instructed rules-only with ``apply`` on its small instance (seed 0) in a fresh workspace
    under ``root``: the reply and the workspace (the worker keeps each region's instance, as the test
    process did)."""
    from cityplanner.plugin.city import load_city
    from cityplanner.plugin.constraints.roundtrip import instruct
    from cityplanner.plugin.sandbox.workspace import write_workspace
    from cityplanner.plugin.tasks import task_class

    key = (item["region"], item["task"])
    if key not in _instances:
        _instances[key] = task_class(item["task"]).build(load_city(item["region"]), "small", seed=0)
    ws = write_workspace(_instances[key], Path(root) / "ws")
    return instruct(ws, item["text"], _instances[key], apply=True, time_limit=time_limit), str(ws)
