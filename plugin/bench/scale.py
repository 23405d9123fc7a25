"""``bench --suite scale``: how the certificate grows with the number of candidates.

Instances: the synthetic city (``plugin.city.synthetic``; a grid large enough for n), each
task built with the large size's rules and n candidates (station: n/5 sites × 5
configurations, the whole-area step limit and demand cell; land and road: ``n_candidates``).
A cell gets up to two ``default`` runs, one at a time, each in its own interpreter (so its
peak memory is its own): 60 s, and 120 s unless the 60 s run already reached a 1 % gap.
Per cell: the instance's n, the time to a gap ≤ 1 % (the first second at which the run's best
plan and its proven bound were within 1 %, from the 60 s run or else the 120 s one; none if
neither got there), the gap at 60 s and at 120 s, the score and bound, and the peak
memory (the run's peak resident set plus its largest worker's). Then a table (scale.md), scale.json,
a PNG of seconds to 1 % (or the time limit) against n on log-log axes, and per task the
fitted exponent k of time ∝ n^k (least squares on the cells that reached 1 %).

Memory columns (issue 30): per input kind of ``plugin.bench.big_inputs`` (land parcels, a city
from a roads layer, own links, participation residents) at 20,000 and 200,000 features, the
real CLI builds the instance in a child (nice'd) whose own peak resident set is read from
``os.wait4``; 200,000 is above the per-layer limit (docs/limits.md), so that row times the
one-line refusal. ``bench --suite scale --tasks memory`` runs only these rows.
"""
from __future__ import annotations

import json
import math
import pickle
import resource
import subprocess
import time
from pathlib import Path
from typing import Any

import numpy as np

from .. import PLUGIN_ROOT
from ..tasks.registry import specs
from ..tasks.station.constants import AREA_CONFIGS
from ..util.io import atomic_write_bytes, atomic_write_json, atomic_write_text
from ..util.spawned import python_executable

#: task -> candidate counts of the scale benchmark (each spec's ``scale_sizes``)
SCALE_N: dict[str, tuple[int, ...]] = {s.name: s.scale_sizes for s in specs()}
TIMES = (60.0, 120.0)
TARGET_GAP = 0.01
#: smallest synthetic grid (rows = cols) per task whose whole area offers n candidates
#: station: candidates one tile row/column adds, about (the sites are sampled down to n / 5)
STATION_PER_ROW = 700
#: land and road: the whole area's candidates per tile, a little under the 4 × 4 city's
#: (2,040 parcel × type and 1,009 links over 16 tiles)
PER_TILE = {"land": 120, "road": 60}


def grid_for(task: str, n: int) -> int:
    """Rows (= columns) of the smallest synthetic city that offers about ``n`` candidates."""
    g = math.ceil(n / STATION_PER_ROW) + 1 if task == "station" else math.ceil(math.sqrt(n / PER_TILE[task]))
    return max(2, min(12, g))


def scale_instance(task: str, n: int, seed: int = 0):
    """The ``task`` instance with about ``n`` candidates on the synthetic city."""
    from ..city.synthetic import synthetic_city
    from ..tasks import task_class

    g = grid_for(task, n)
    city = synthetic_city(g, g)
    if task == "station":   # the whole-area rules (step limit, demand cells) with n / 5 sites
        return task_class(task).build(city, "all", seed, n_sites=max(1, n // AREA_CONFIGS))
    return task_class(task).build(city, "large", seed, n_candidates=n)


def run_cell(task: str, n: int, time_limit: float, seed: int = 0, cache: str | None = None) -> dict[str, Any]:
    """One timed ``default`` run (in the calling process) with its peak memory; the instance is
    read from the pickle ``cache`` when it exists, else built (and written there)."""
    from ..solvers import solve, time_to_gap

    t0 = time.perf_counter()
    if cache and Path(cache).is_file():
        inst = pickle.loads(Path(cache).read_bytes())
    else:
        inst = scale_instance(task, n, seed)
        if cache:
            atomic_write_bytes(Path(cache), pickle.dumps(inst, protocol=pickle.HIGHEST_PROTOCOL))
    build_s = time.perf_counter() - t0
    res = solve(inst, "default", time_limit=time_limit)
    # the run's peak plus its largest worker's: an upper bound on what they held at once
    peak_kb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
               + resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    return {"task": task, "n_target": n, "n": inst.n, "instance": inst.instance_id, "time_limit": time_limit,
            "build_s": round(build_s, 1), "seconds": round(res.seconds, 1), "valid": res.valid, "score": res.score,
            "upper_bound": res.upper_bound, "gap": res.gap, "status": res.status, "notes": res.notes,
            "time_to_1pct": time_to_gap(res.trace, res.bound_trace, TARGET_GAP) if res.valid else None,
            "peak_mb": round(peak_kb / 1024.0, 1)}


def _spawned_run(task: str, n: int, time_limit: float, cache: Path) -> dict[str, Any]:
    """``run_cell`` in a fresh interpreter (its own peak memory), importing this package as
    ``plugin`` from the plugin root; generous wall limit: building a 4,000-candidate instance on
    a loaded machine takes minutes (the cell's second run reads it from ``cache``)."""
    code = ("import json, sys; from plugin.bench.scale import run_cell; "
            f"print(json.dumps(run_cell({task!r}, {int(n)}, {float(time_limit)}, cache={str(cache)!r})))")
    try:
        out = subprocess.run([python_executable(), "-c", code], cwd=PLUGIN_ROOT, capture_output=True, text=True,
                             timeout=4 * time_limit + 600)
    except subprocess.TimeoutExpired:
        return {"task": task, "n_target": n, "time_limit": time_limit, "error": "timed out"}
    lines = out.stdout.strip().splitlines()
    if out.returncode != 0 or not lines:
        err = (out.stderr.strip().splitlines() or ["no output"])[-1]
        return {"task": task, "n_target": n, "time_limit": time_limit, "error": err}
    return json.loads(lines[-1])


#: features per input layer of the memory columns; kinds of ``big_inputs`` measured
MEMORY_N = (20_000, 200_000)
MEMORY_KINDS = ("parcels", "roads", "links", "residents")
MEMORY_TIMEOUT_S = 900.0
MEMORY_BOUND_MB = 2048.0   # issue 30: 20,000-feature inputs build within 2 GB


def run_memory(kinds: tuple[str, ...] = MEMORY_KINDS, sizes: tuple[int, ...] = MEMORY_N,
               progress=print) -> list[dict[str, Any]]:
    """Peak memory (MB) and seconds of building each ``kinds`` input of each size, in a child."""
    import tempfile

    from .big_inputs import instance_args, measure, write_input

    rows = []
    with tempfile.TemporaryDirectory(prefix="cityplanner-memory-") as tmp:
        for kind in kinds:
            for n in sizes:
                path = write_input(kind, n, Path(tmp))
                r = measure(instance_args(kind, path, Path(tmp) / f"ws-{kind}-{n}"), timeout=MEMORY_TIMEOUT_S)
                path.unlink(missing_ok=True)
                rows.append({"kind": kind, "features": n, **r,
                             "result": "built" if r["rc"] == 0 else "timed out" if r["timed_out"] else
                             "refused" if r["rc"] == 2 else "failed"})
                progress(_memory_row(rows[-1]))
    return rows


def _memory_row(r: dict) -> str:
    why = r["stderr"].replace("|", "/")[:160] if r["result"] != "built" else ""
    return f"| {r['kind']} | {r['features']:,} | {r['peak_mb']:.0f} | {r['seconds']:.1f} | {r['result']} | {why} |"


def memory_markdown(rows: list[dict]) -> str:
    lines = ["| input | features | peak MB | seconds | result | message |", "|---|---:|---:|---:|---|---|",
             *map(_memory_row, rows)]
    return "\n".join(lines) + "\n"


def run_scale(out: str | Path, tasks: tuple[str, ...] = tuple(SCALE_N), sizes: dict[str, tuple[int, ...]] | None = None,
              progress=print, memory: bool = True, memory_sizes: tuple[int, ...] = MEMORY_N) -> dict[str, Any]:
    """Every cell of the scale suite, one run at a time, and (``memory``) the memory rows of
    ``memory_sizes`` (rows of other sizes already in OUT are kept); writes scale.json, scale.md,
    scale.png."""
    out = Path(out)
    todo = {(t, n) for t in tasks for n in (sizes or SCALE_N)[t]}
    runs, cells = _kept(out / "scale.json", todo)
    old = json.loads((out / "scale.json").read_text()) if (out / "scale.json").is_file() else {}
    mem = old.get("memory", [])
    if memory:
        new = run_memory(sizes=memory_sizes, progress=progress)
        again = {(r["kind"], r["features"]) for r in new}
        mem = sorted([r for r in mem if (r["kind"], r["features"]) not in again] + new,
                     key=lambda r: (MEMORY_KINDS.index(r["kind"]) if r["kind"] in MEMORY_KINDS else 99, r["features"]))
    for task in tasks:
        for n in (sizes or SCALE_N)[task]:
            cache = out / "instances" / f"{task}-{n}.pickle"
            first = _spawned_run(task, n, TIMES[0], cache)
            runs.append(first)
            reached = first.get("gap") is not None and first["gap"] <= TARGET_GAP
            second = first if reached else _spawned_run(task, n, TIMES[1], cache)
            cache.unlink(missing_ok=True)
            if second is not first:
                runs.append(second)
            cells.append(_cell(task, n, first, second))
            progress(_row_text(cells[-1]))
            atomic_write_json(out / "scale.json", {"cells": cells, "runs": runs, "memory": mem})
    order = {t: k for k, t in enumerate(SCALE_N)}
    cells.sort(key=lambda c: (order.get(c["task"], len(order)), c["n_target"]))
    fits = {t: fit_exponent([c for c in cells if c["task"] == t]) for t in SCALE_N if any(c["task"] == t for c in cells)}
    atomic_write_json(out / "scale.json", {"cells": cells, "runs": runs, "exponents": fits, "memory": mem})
    atomic_write_text(out / "scale.md", scale_markdown(cells, fits) + "\n## Memory of building large inputs\n\n"
                      + memory_markdown(mem))
    plot_scale(cells, fits, out / "scale.png")
    return {"cells": cells, "exponents": fits, "memory": mem,
            "files": [str(out / "scale.json"), str(out / "scale.md"), str(out / "scale.png")]}


def _kept(path: Path, todo: set[tuple[str, int]]) -> tuple[list[dict], list[dict]]:
    """(runs, cells) of the (task, n) cells not re-run now, from an earlier scale.json in the
    same folder (a suite of an hour or more can be run a few cells at a time); in task, n order."""
    if not path.is_file():
        return [], []
    old = json.loads(path.read_text())
    keep = lambda r: (r.get("task"), r.get("n_target")) not in todo  # noqa: E731
    return [r for r in old.get("runs", []) if keep(r)], [c for c in old.get("cells", []) if keep(c)]


def _cell(task: str, n: int, first: dict, second: dict) -> dict[str, Any]:
    done = [r["time_to_1pct"] for r in (first, second) if r.get("time_to_1pct") is not None]
    return {"task": task, "n_target": n, "n": first.get("n"), "time_to_1pct": done[0] if done else None,
            "gap_60": first.get("gap"), "gap_120": second.get("gap"), "score": second.get("score"),
            "upper_bound": second.get("upper_bound"), "valid": second.get("valid"),
            "peak_mb": max(r.get("peak_mb") or 0.0 for r in (first, second)),
            "error": first.get("error") or second.get("error")}


def fit_exponent(cells: list[dict]) -> float | None:
    """k of time ∝ n^k over the cells that reached 1 % (at least two distinct n)."""
    pts = [(c["n"], c["time_to_1pct"]) for c in cells if c.get("time_to_1pct") and c.get("n")]
    if len({p[0] for p in pts}) < 2:
        return None
    x, y = np.log([p[0] for p in pts]), np.log([max(p[1], 0.1) for p in pts])
    return round(float(np.polyfit(x, y, 1)[0]), 2)


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.2f} %"


def _row_text(c: dict) -> str:
    t = "—" if c["time_to_1pct"] is None else f"{c['time_to_1pct']:.1f} s"
    return (f"| {c['task']} | {c['n']} | {t} | {_pct(c['gap_60'])} | {_pct(c['gap_120'])} | "
            f"{c['peak_mb']:.0f} | {c['error'] or ''} |")


def scale_markdown(cells: list[dict], fits: dict[str, float | None]) -> str:
    lines = ["| task | n | time to 1 % gap | gap at 60 s | gap at 120 s | peak MB | error |",
             "|---|---:|---:|---:|---:|---:|---|", *map(_row_text, cells), ""]
    lines += [f"- {t}: time ∝ n^{k}" if k is not None else f"- {t}: fewer than two sizes reached 1 %, no fit"
              for t, k in fits.items()]
    return "\n".join(lines) + "\n"


def plot_scale(cells: list[dict], fits: dict[str, float | None], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for task in fits:
        cs = [c for c in cells if c["task"] == task and c.get("n")]
        if not cs:
            continue
        n = [c["n"] for c in cs]
        t = [c["time_to_1pct"] if c["time_to_1pct"] is not None else TIMES[-1] for c in cs]
        line, = ax.plot(n, t, marker="o", label=f"{task} (k = {fits[task]})")
        miss = [(a, b) for a, b, c in zip(n, t, cs, strict=False) if c["time_to_1pct"] is None]
        if miss:
            ax.scatter(*zip(*miss, strict=False), marker="x", s=60, color=line.get_color())
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("candidates n")
    ax.set_ylabel("seconds to a 1 % gap (× = not within 120 s)")
    if ax.get_legend_handles_labels()[0]:   # none when only the memory rows ran
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
