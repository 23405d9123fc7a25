"""``bench --suite sweep``: what parallel points buy a budget curve.

1. A 12-point curve of the Kotka station instance (small, seed 0; budgets from 30 % to 150 %
   of its own, ``POINT_S`` s per point) on a local Dask cluster of 1 worker (sequential) and
   of 2 workers: wall time of each, and the speed-up.
2. Time to a curve on a 1,000-candidate instance (land, the synthetic city of
   ``bench --suite scale``): 4 budgets (50 % to 125 % of its own), 2 workers, ``BIG_S`` s per point.
Writes DIR/sweep-bench.json and DIR/sweep-bench.md, plus each run's sweep.csv / .png.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from ..util.io import atomic_write_json, atomic_write_text

POINTS = 12
POINT_S = 10.0
BIG_N = 1000
BIG_S = 60.0


def _budgets(own: float, lo: float, hi: float, n: int) -> list[float]:
    return [round(own * (lo + (hi - lo) * k / (n - 1)), 1) for k in range(n)]


def _timed(ws: Path, budgets: list[float], time_limit: float, workers: int, out: Path) -> dict[str, Any]:
    from ..sweep import sweep
    from ..sweep.run import write_outputs

    t0 = time.perf_counter()
    res = sweep(ws, budgets, time_limit=time_limit, workers=workers)
    wall = time.perf_counter() - t0
    write_outputs(res, out)
    gaps = [r["gap"] for r in res["rows"] if r["gap"] is not None]
    return {"workers": workers, "points": len(budgets), "time_limit": time_limit, "wall_s": round(wall, 1),
            "point_s_sum": round(sum(r["seconds"] or 0 for r in res["rows"]), 1),
            "max_gap": max(gaps) if len(gaps) == len(res["rows"]) else None, "monotone": res["monotone"]}


def run_sweep_bench(out: str | Path) -> dict[str, Any]:
    from ..bench.scale import scale_instance
    from ..city import load_city
    from ..sandbox.workspace import write_workspace
    from ..tasks import task_class

    out = Path(out)
    kotka = task_class("station").build(load_city("kotka"), size="small", seed=0)
    ws = write_workspace(kotka, out / "kotka-station")
    budgets = _budgets(kotka.budget, 0.3, 1.5, POINTS)
    seq = _timed(ws, budgets, POINT_S, 1, out / "curve-1-worker")
    par = _timed(ws, budgets, POINT_S, 2, out / "curve-2-workers")
    big = scale_instance("land", BIG_N)
    big_ws = write_workspace(big, out / f"land-{BIG_N}")
    large = {**_timed(big_ws, _budgets(big.budget, 0.5, 1.25, 4), BIG_S, 2, out / f"curve-land-{BIG_N}"), "n": big.n}
    res = {"kotka_station_12": {"sequential": seq, "two_workers": par,
                                "speedup": round(seq["wall_s"] / par["wall_s"], 2) if par["wall_s"] else None},
           "land_1000": large}
    atomic_write_json(out / "sweep-bench.json", res)
    atomic_write_text(out / "sweep-bench.md", _markdown(res))
    return {**res, "files": [str(out / "sweep-bench.json"), str(out / "sweep-bench.md")]}


def _markdown(res: dict[str, Any]) -> str:
    k, big = res["kotka_station_12"], res["land_1000"]
    rows = [("Kotka station, 12 points, 1 worker", k["sequential"]), ("Kotka station, 12 points, 2 workers", k["two_workers"]),
            (f"land, {big['n']} candidates, 4 points, 2 workers", big)]
    lines = ["| curve | s per point | wall s | sum of point s | max gap | monotone |", "|---|---|---|---|---|---|"]
    for name, r in rows:
        gap = "—" if r["max_gap"] is None else f"{100 * r['max_gap']:.2f} %"
        lines.append(f"| {name} | {r['time_limit']:g} | {r['wall_s']} | {r['point_s_sum']} | {gap} | {r['monotone']} |")
    return "\n".join(lines) + f"\n\nSpeed-up of 2 workers over 1: {k['speedup']}×\n"
