"""The sweep: points → checked rows → repaired curves → the best plan recorded (see __init__)."""
from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator

from ..errors import InputError
from ..tasks import Instance

from . import curve
from .points import METHOD, Point, instance_at

BASE = "base"                 # the curve of the workspace as it is (its stored instructions)
MAX_POINTS = 400
NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
CSV_COLUMNS = ("scenario", "budget", "score", "upper_bound", "gap", "selected", "sites_by_street", "seconds",
               "marginal_per_100k", "price", "price_pct", "repaired_from", "retries", "status", "why")

OnRow = Callable[[dict[str, Any], int, int], None]


@dataclass
class Scenario:
    """A named set of planner instructions (``instruct``'s language), added to the stored ones."""

    name: str
    texts: list[str]
    constraints: list[dict[str, Any]] = field(default_factory=list)


def parse_budgets(budgets: str | None = None, span: str | None = None) -> list[float]:
    """'100,200,400' or 'LO:HI:N' (N evenly spaced budgets from LO to HI, both included), k€;
    sorted, duplicates removed. InputError on anything else."""
    if (budgets is None) == (span is None):
        raise InputError("give --budgets B1,B2,… or --range LO:HI:N")
    try:
        if budgets is not None:
            values = [float(x) for x in budgets.split(",") if x.strip()]
        else:
            lo, hi, n = span.split(":")
            lo_f, hi_f, k = float(lo), float(hi), int(n)
            if k < 2 or not hi_f > lo_f:
                raise InputError(f"--range {span}: need LO < HI and N ≥ 2")
            values = [lo_f + (hi_f - lo_f) * i / (k - 1) for i in range(k)]
    except ValueError:
        raise InputError(f"budgets must be numbers of k€: '{budgets or span}'") from None
    if not values or not all(math.isfinite(v) and v > 0 for v in values):
        raise InputError(f"budgets must be positive, finite numbers of k€: '{budgets or span}'")
    values = sorted({round(v, 3) for v in values})
    if len(values) > MAX_POINTS:
        raise InputError(f"{len(values)} budgets: at most {MAX_POINTS} per sweep")
    return values


def budgets_of(text: str) -> list[float]:
    """One text as the planner types it: 'B1,B2,…' or 'LO:HI:N' (``parse_budgets``)."""
    text = str(text or "").strip()
    return parse_budgets(span=text) if ":" in text else parse_budgets(text)


def read_scenarios(items: list[str] | None) -> list[Scenario]:
    """Scenarios from 'NAME=instruction[; instruction…]' items or one JSON file
    {"NAME": ["instruction", …], …}; InputError on a bad name, an empty set or a duplicate."""
    if not items:
        return []
    pairs: list[tuple[str, list[str]]] = []
    if len(items) == 1 and items[0].lower().endswith(".json") and "=" not in items[0]:
        try:
            doc = json.loads(Path(items[0]).read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise InputError(f"cannot read scenarios file {items[0]}: {e}") from None
        if not isinstance(doc, dict):
            raise InputError(f"{items[0]}: expected an object {{\"name\": [\"instruction\", …]}}")
        pairs = [(str(k), [v] if isinstance(v, str) else list(v)) for k, v in doc.items()]
    else:
        for item in items:
            name, sep, text = item.partition("=")
            if not sep:
                raise InputError(f"scenario '{item[:40]}': write NAME=instruction[; instruction…]")
            pairs.append((name.strip(), [t.strip() for t in text.split(";")]))
    out: list[Scenario] = []
    for name, texts in pairs:
        texts = [str(t).strip() for t in texts if str(t).strip()]
        if not NAME.match(name) or name == BASE:
            raise InputError(f"scenario name '{name[:40]}': letters, digits, _ or -, at most 40, not '{BASE}'")
        if not texts:
            raise InputError(f"scenario '{name}' has no instruction")
        if any(s.name == name for s in out):
            raise InputError(f"scenario '{name}' is given twice")
        out.append(Scenario(name, texts))
    return out


def resolve_scenarios(scenarios: list[Scenario], inst: Instance) -> None:
    """Read each scenario's instructions with the rules (no model: a sweep must be reproducible)
    and resolve them against ``inst``; InputError with the question when one is unclear."""
    from ..constraints.interpret import interpret

    for s in scenarios:
        s.constraints = []
        for k, text in enumerate(s.texts):
            it = interpret(text, inst)
            if it.clarification:
                raise InputError(f"scenario '{s.name}', '{text[:60]}': {it.clarification}")
            for c in it.constraints:
                if c.get("kind") == "emphasis":   # changes what is optimised: its curve would not compare
                    raise InputError(f"scenario '{s.name}': '{text[:60]}' is an emphasis, not a constraint; "
                                     "a scenario may only restrict plans")
                s.constraints.append({**c, "key": f"{s.name}{k + 1}"})


class Curves:
    """The checked instance of each (scenario, budget), built once."""

    def __init__(self, export: dict[str, Any], constraints: dict[str, list[dict[str, Any]]]):
        self.export = export
        self.constraints = constraints
        self.at = lru_cache(maxsize=None)(self._at)

    def _at(self, scenario: str, budget: float) -> Instance:
        return instance_at(self.export, budget, self.constraints[scenario])


def sweep(ws: str | os.PathLike, budgets: list[float], *, time_limit: float = 60.0,
          scenarios: list[Scenario] | None = None, scheduler: str | None = None, workers: int | None = None,
          backend: str = "dask", target_gap: float = 0.01, seed: int = 42, on_row: OnRow | None = None,
          cancel: Callable[[], bool] | None = None) -> dict[str, Any]:
    """Solve the workspace at every budget of every scenario (see the package doc) and return
    ``{"rows": [...], …}``; ``on_row(row, done, total)`` sees each point as it comes back,
    ``cancel()`` stops the sweep and keeps the points done. Records the best plan for the
    workspace's own budget through ``sandbox.best_plan``."""
    from ..constraints import store
    from ..sandbox import best_plan

    t0 = time.perf_counter()
    ws = Path(ws)
    in_force = best_plan.instance_in_force(ws)
    base = getattr(in_force, "unconstrained", in_force)
    stored = store.load(ws)
    scenarios = list(scenarios or [])
    resolve_scenarios(scenarios, base)
    cons = {BASE: stored, **{s.name: stored + s.constraints for s in scenarios}}
    export = base.to_export()
    curves = Curves(export, cons)
    points = [Point(name, b, time_limit, seed, tuple(c)) for name, c in cons.items() for b in budgets]
    rows: list[dict[str, Any]] = []
    for point, res in _execute(export, points, backend, scheduler, workers, cancel):
        rows.append(_checked(point, res, curves))
        if on_row is not None:
            on_row(rows[-1], len(rows), len(points))
    cancelled = len(rows) < len(points)
    order = list(cons)
    rows.sort(key=lambda r: (order.index(r["scenario"]), r["budget"]))
    curve.repair(rows, curves.at)
    curve.marginals(rows)
    curve.prices(rows, BASE)
    _name_sites(rows, base, ws)
    for r in rows:
        r["why"] = curve.why(r, target_gap)
    best = _record_best(ws, in_force, rows, time.perf_counter() - t0)
    return {
        "workspace": str(ws), "instance": base.instance_id, "task": base.task, "workspace_budget": base.budget,
        "method": METHOD, "time_limit": time_limit, "target_gap": target_gap, "backend": backend,
        "scheduler": scheduler, "budgets": budgets,
        "scenarios": [{"name": BASE, "instructions": [c.get("text", "") for c in stored]}]
        + [{"name": s.name, "instructions": s.texts} for s in scenarios],
        "points": len(points), "done": len(rows), "cancelled": cancelled,
        "monotone": all(_non_decreasing(rows, name) for name in cons), "best": best,
        "seconds": round(time.perf_counter() - t0, 3), "rows": rows,
    }


def _execute(export: dict[str, Any], points: list[Point], backend: str, scheduler: str | None,
             workers: int | None, cancel: Callable[[], bool] | None) -> Iterator[tuple[Point, dict[str, Any]]]:
    from . import executors

    if backend == "dask" or scheduler:
        return executors.dask_points(export, points, scheduler, workers, cancel)
    if backend == "local":
        return executors.local_points(export, points, workers, cancel)
    raise InputError(f"unknown backend '{backend}' (dask or local)")


def _checked(point: Point, res: dict[str, Any], curves: Curves) -> dict[str, Any]:
    """A worker's answer as a row, its plan judged again here (a worker is not trusted)."""
    row: dict[str, Any] = {"scenario": point.scenario, "budget": point.budget, "time_limit": point.time_limit,
                           "valid": False, "score": None, "upper_bound": None, "gap": None, "ids": [],
                           "status": res.get("status", "error"), "seconds": res.get("seconds"),
                           "notes": res.get("notes", []), "retries": res.get("retries", 0), "host": res.get("host"),
                           "pid": res.get("pid"), "code": res.get("code"),
                           "repaired_from": None}
    if res.get("error"):
        row["error"] = res["error"]
        return row
    ev = curves.at(point.scenario, point.budget).evaluate(list(res.get("ids") or []))
    row.update(valid=bool(ev.valid) and bool(ev.candidate_ids), score=ev.score, ids=ev.candidate_ids,
               upper_bound=res.get("upper_bound"))
    return row


def _name_sites(rows: list[dict[str, Any]], inst: Instance, ws: Path) -> None:
    from .streets import SiteStreets, by_street

    streets = SiteStreets(inst, ws)
    for r in rows:
        r["selected"] = len(r["ids"])
        r["sites"] = streets.sites(r["ids"])
        r["sites_by_street"] = by_street(r["sites"])
        r["candidate_ids"] = r.pop("ids")


def _record_best(ws: Path, in_force: Instance, rows: list[dict[str, Any]], seconds: float) -> dict[str, Any] | None:
    """The base curve's best plan for the workspace's own budget, through the best-plan writer
    (kept only if better than the stored best), with the tightest bound the curve proves for it."""
    from ..sandbox import best_plan

    own = in_force.budget
    base = [r for r in rows if r["scenario"] == BASE and not r.get("error")]
    fits = [r for r in base if r["valid"] and r["budget"] <= own + 1e-9]
    bounds = [r["upper_bound"] for r in base if r["budget"] >= own - 1e-9 and r["upper_bound"] is not None]
    if not fits:
        return None
    judged = [(in_force.evaluate(list(r["candidate_ids"])), r) for r in fits]
    ev, r = max(((e, r) for e, r in judged if e.valid), key=lambda er: er[0].score, default=(None, None))
    if ev is None:
        return None
    rec = best_plan.record_run(ws, "sweep", ev.candidate_ids, upper_bound=min(bounds) if bounds else None,
                               status="done", seconds=round(seconds, 3), inst=in_force)
    return {**rec["best"], "replaced": rec["replaced"], "from_budget": r["budget"]}


def _non_decreasing(rows: list[dict[str, Any]], scenario: str) -> bool:
    scores = [r["score"] for r in rows if r["scenario"] == scenario and r["score"] is not None and r["valid"]]
    return all(b >= a - 1e-9 for a, b in zip(scores, scores[1:]))


def rows_csv(rows: list[dict[str, Any]]) -> str:
    """The rows as CSV (CSV_COLUMNS; sites as 'street (ids); …')."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: ("" if r.get(k) is None else r.get(k)) for k in CSV_COLUMNS})
    return buf.getvalue()


def write_outputs(result: dict[str, Any], out: str | os.PathLike) -> list[str]:
    """DIR/sweep.csv, DIR/sweep.json and DIR/sweep.png (when matplotlib is there); returns their paths."""
    from ..util.io import atomic_write_json, atomic_write_text
    from .chart import draw

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    files = [atomic_write_text(out / "sweep.csv", rows_csv(result["rows"])),
             atomic_write_json(out / "sweep.json", result)]
    try:   # matplotlib is a developer requirement; a QGIS without it still gets the table
        files.append(draw(result, out / "sweep.png"))
    except ImportError:
        pass
    return [str(f) for f in files]
