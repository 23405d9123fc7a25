"""Run methods × seeds over instances in parallel and collect result rows.

A job is one (instance source, method, seed) solve, or one MILP bound run per instance
(``BOUND``), which gives every row of that instance an upper bound and so a gap. Jobs run in
a ``ProcessPoolExecutor`` or, with ``scheduler``, on a Dask distributed cluster; each worker
builds an instance once (``_instance`` cache) however many of its jobs it runs. Bounds are
cached in ``DIR/bounds.json`` so a rerun with the same or shorter bound time skips them.
Dask workers must be able to import ``plugin`` (start them from the repository root).
"""
from __future__ import annotations

import json
import math
import os
import sys
import traceback
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from tqdm import tqdm

from ..solvers import gap, solve
from ..solvers.milp import solve_milp
from ..tasks import Instance
from ..util.io import atomic_write_json
from .suites import SuiteItem, build_item

BOUND = "bound"
Source = SuiteItem | str   # a suite item or an existing workspace folder


@dataclass(frozen=True)
class Job:
    source: Source
    method: str
    seed: int
    time_limit: float


def source_name(src: Source) -> str:
    return src.name if isinstance(src, SuiteItem) else Path(src).name


@lru_cache(maxsize=4)
def _instance(src: Source) -> Instance:
    if isinstance(src, SuiteItem):
        return build_item(src)
    from ..sandbox.workspace import load_instance

    return load_instance(src)


def run_job(job: Job) -> dict[str, Any]:
    """One job → one row; failures become rows with ``status: error: …`` instead of raising."""
    src = job.source
    row: dict[str, Any] = {
        "task": src.task if isinstance(src, SuiteItem) else None,
        "size": src.size if isinstance(src, SuiteItem) else None,
        "instance": source_name(src), "split": src.split if isinstance(src, SuiteItem) else None,
        "method": job.method, "seed": job.seed,
        "valid": False, "score": None, "upper_bound": None, "gap": None, "seconds": None, "status": None,
    }
    try:
        inst = _instance(src)
        row["task"] = inst.task
        row["size"] = row["size"] or inst.meta.get("size")
        row["n"] = inst.n
        if job.method == BOUND:
            # the greedy plan is the MILP's incumbent (the road model prunes with it); its
            # milliseconds count towards the bound's seconds
            warm = solve(inst, "greedy", time_limit=job.time_limit, seed=job.seed)
            res = solve_milp(inst, max(0.1, job.time_limit - warm.seconds), warm_start=warm.mask)
            res.seconds += warm.seconds
            bound = float(res.bound) if res.status != "error" and math.isfinite(res.bound) else None
            row.update(upper_bound=bound, seconds=round(res.seconds, 3), status=res.status, exact=res.exact)
        else:
            r = solve(inst, job.method, time_limit=job.time_limit, seed=job.seed)
            row.update(valid=r.valid, score=r.score, upper_bound=r.upper_bound, seconds=r.seconds,
                       status=r.status, trace=r.trace)
    except Exception as e:  # one broken instance must not stop a benchmark of hundreds
        row["status"] = f"error: {type(e).__name__}: {e}"
        row["traceback"] = traceback.format_exc(limit=5)
    return row


def _execute(jobs: list[Job], workers: int, scheduler: str | None) -> Iterator[dict[str, Any]]:
    if scheduler:
        from distributed import Client
        from distributed import as_completed as dask_completed

        with Client(scheduler) as client:
            futures = client.map(run_job, jobs, pure=False)
            for f in dask_completed(futures):
                yield f.result()
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(run_job, j) for j in jobs]
        for f in as_completed(futures):
            yield f.result()


def _cached_bounds(path: Path, bound_time: float) -> dict[str, dict]:
    if not path.exists():
        return {}
    cached = json.loads(path.read_text(encoding="utf-8"))
    return {k: v for k, v in cached.items() if v.get("time_limit", 0) >= bound_time and v.get("upper_bound") is not None}


def run_bench(sources: list[Source], methods: list[str], out: str | os.PathLike, time_limit: float = 10.0,
              seeds: int = 1, workers: int | None = None, scheduler: str | None = None,
              bound_time_limit: float = 60.0, first_seed: int = 42) -> dict[str, Any]:
    """Run every method × seed on every source; write DIR/results.json and return it."""
    out = Path(out)
    bounds_path = out / "bounds.json"
    bounds = _cached_bounds(bounds_path, bound_time_limit)
    jobs = [Job(s, BOUND, 0, bound_time_limit) for s in sources if source_name(s) not in bounds]
    jobs += [Job(s, m, first_seed + k, time_limit) for s in sources for m in methods for k in range(seeds)]
    rows = []
    with tqdm(total=len(jobs), desc="bench", file=sys.stderr, unit="job") as bar:
        for row in _execute(jobs, workers or os.cpu_count() or 1, scheduler):
            if row["method"] == BOUND:
                bounds[row["instance"]] = {**row, "time_limit": bound_time_limit}
            else:
                rows.append(row)
            bar.update()
    atomic_write_json(bounds_path, bounds)
    _attach_gaps(rows, bounds)
    rows.sort(key=lambda r: (str(r["task"]), str(r["size"]), r["instance"], r["method"], r["seed"]))
    results = {"methods": methods, "time_limit": time_limit, "seeds": seeds, "bound_time_limit": bound_time_limit,
               "bounds": {k: v.get("upper_bound") for k, v in sorted(bounds.items())}, "rows": rows}
    atomic_write_json(out / "results.json", results)
    return results


def _attach_gaps(rows: list[dict], bounds: dict[str, dict]) -> None:
    """Instance bound = the tightest proven bound (bound job or any MILP-backed row)."""
    best: dict[str, float] = {}
    for name, b in bounds.items():
        if b.get("upper_bound") is not None:
            best[name] = b["upper_bound"]
    for r in rows:
        if r["upper_bound"] is not None:
            best[r["instance"]] = min(best.get(r["instance"], math.inf), r["upper_bound"])
    for r in rows:
        r["upper_bound"] = best.get(r["instance"])
        r["gap"] = gap(r["upper_bound"], r["score"]) if r["valid"] else None
