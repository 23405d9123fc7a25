"""Planning tools: build an instance workspace, solve it, evaluate a plan, participation metrics.

Workspaces are named folders under the context's root (the only place these tools write);
plans are written and judged by the sandbox evaluator, so each evaluation also lands in the
workspace's ``outputs/eval_history.jsonl`` as any agent's would.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ...errors import InputError
from ...tasks import SIZES, TASKS
from .registry import Tool, ToolContext, ToolFailure, object_schema, region_schema

MAX_IDS_SHOWN = 30
SOLVE_METHODS = ("default", "greedy", "grasp", "sa", "alns", "milp")


def build_instance(ctx: ToolContext, a: dict[str, Any]) -> dict[str, Any]:
    from ...city import REGIONS, load_city
    from ...constraints.own_places import SOURCE_KEY
    from ...sandbox import write_workspace
    from ...sandbox.workspace import work_held
    from ...tasks import task_class

    if a["region"] not in ctx.regions:
        raise ToolFailure(f"unknown region '{a['region']}'")
    size, seed = a.get("size", "small"), int(a.get("seed", 0))
    name = a.get("workspace") or f"{a['region']}-{a['task']}-{size}-{seed}"
    ws = ctx.workspace(name, must_exist=False)
    lost = work_held(ws) if ws.is_dir() else []
    if lost and not a.get("overwrite"):
        raise ToolFailure(f"workspace '{name}' already holds work ({'; '.join(lost)}): pass overwrite: true "
                          "to replace it and lose that, or choose another workspace name")
    try:
        inst = task_class(a["task"]).build(load_city(ctx.regions[a["region"]], a["region"]), size=size, seed=seed,
                                           budget=a.get("budget"))
        if a["region"] not in REGIONS:   # own layers: where the names a constraint may use live
            inst.meta[SOURCE_KEY] = str(Path(ctx.regions[a["region"]]).resolve())
        write_workspace(inst, ws)
    except InputError as e:
        raise ToolFailure(str(e)) from None
    return {"workspace": name, "task": inst.task, "region": a["region"], "instance_id": inst.instance_id,
            "candidates": inst.n, "budget": round(float(inst.budget), 2), "step_limit": inst.max_select,
            "cheapest_cost": round(float(inst.cost.min()), 2) if inst.n else None}


def solve_plan(ctx: ToolContext, a: dict[str, Any]) -> dict[str, Any]:
    """Solve under the planner's instructions in force and record the run through the best plan
    (``plugin.sandbox.best_plan``): final_plan.json changes only when this plan is better."""
    from ...sandbox import best_plan
    from ...sandbox.evaluator import evaluate_plan_file
    from ...solvers import solve

    ws = ctx.workspace(a["workspace"])
    try:
        inst = best_plan.instance_in_force(ws)
        best_plan.adopt_existing(ws, inst)
        res = solve(inst, a.get("method", "default"), time_limit=float(a.get("time_limit", 5.0)),
                    seed=int(a.get("seed", 42)))
        emphasis = getattr(getattr(inst, "compiled", None), "emphasis", ())
        rec = best_plan.record_run(ws, res.method, res.ids, upper_bound=None if len(emphasis) else res.upper_bound,
                                   status=res.status, seconds=res.seconds, inst=inst)
    except InputError as e:
        raise ToolFailure(str(e)) from None
    ev = evaluate_plan_file(ws, ws / rec["run"]["file"])
    return {"workspace": a["workspace"], "method": res.method, "status": res.status, **_brief(ev),
            "upper_bound": rec["run"]["upper_bound"], "gap": rec["run"]["gap"], "seconds": res.seconds,
            "best": rec["best"], "best_replaced": rec["replaced"],
            "sites": plan_sites(ws, ev.get("candidate_ids", []))}


def evaluate_plan(ctx: ToolContext, a: dict[str, Any]) -> dict[str, Any]:
    from ...sandbox.evaluator import evaluate_plan_file
    from ...sandbox.workspace import PLAN_FILE
    from ...util.io import atomic_write_json

    ws = ctx.workspace(a["workspace"])
    if "candidate_ids" in a:
        plan = atomic_write_json(ws / "work" / "ask_plan.json", {"candidate_ids": a["candidate_ids"]})
    else:
        plan = ws / PLAN_FILE
    ev = evaluate_plan_file(ws, plan)
    return {"workspace": a["workspace"], **_brief(ev), "sites": plan_sites(ws, ev.get("candidate_ids", []))}




def plan_sites(ws: Any, ids: list[str]) -> list[dict[str, Any]]:
    """Where the plan's first ``MAX_IDS_SHOWN`` candidates are: id, cost, a point (x, y in the
    region CRS: the site, the middle of a road link, a parcel's inside point) and the task's
    describing fields."""
    import json

    import shapely

    path = ws / "input" / "candidates.json"
    if not ids or not path.is_file():
        return []
    recs = {str(r["id"]): r for r in json.loads(path.read_text(encoding="utf-8"))}
    fields = _site_fields(ws)
    out = []
    for i in ids[:MAX_IDS_SHOWN]:
        r = recs.get(str(i))
        if r is None:
            continue
        site: dict[str, Any] = {"id": str(i), "cost": r.get("cost")}
        if r.get("wkt"):
            g = shapely.from_wkt(r["wkt"])
            p = g.interpolate(0.5, normalized=True) if g.geom_type == "LineString" else g.representative_point()
            site.update(x=round(p.x, 1), y=round(p.y, 1))
        site.update({k: r[k] for k in fields if k in r})
        out.append(site)
    return out


def _site_fields(ws: Any) -> tuple[str, ...]:
    """The describing fields of the workspace's task (its spec's ``site_fields``; none when the
    workspace names no registered task)."""
    import json

    from ...tasks.registry import REGISTRY, spec

    try:
        task = json.loads((ws / "input" / "city_state.json").read_text(encoding="utf-8")).get("task")
    except (OSError, ValueError):
        return ()
    return spec(task).site_fields if task in REGISTRY else ()


def _brief(ev: dict[str, Any]) -> dict[str, Any]:
    """The evaluator JSON without the per-candidate contributions (long); ids cut to a sample."""
    ids = ev.get("candidate_ids", [])
    return {"valid": ev["valid"], "score": ev["score"], "errors": ev.get("errors", [])[:5],
            "warnings": ev.get("warnings", [])[:5], "metrics": ev.get("metrics", {}),
            "cost_ratio": ev.get("cost_ratio"), "selected": len(ids), "candidate_ids": ids[:MAX_IDS_SHOWN],
            "binding": ev.get("binding")}


def participation_metrics(ctx: ToolContext, a: dict[str, Any]) -> dict[str, Any]:
    """Service and Ecology of a parcels GeoJSON (the participation regions' definitions)."""
    import geopandas as gpd

    from ...tasks.land import KINDS, TYPE_CODES, ecology_polygons, facilities_by_kind, service_coverage

    path = ctx.readable(a["parcels"])
    try:
        gdf = gpd.read_file(path)
    except Exception as e:  # noqa: BLE001 - any unreadable file is one failed observation
        raise ToolFailure(f"cannot read {a['parcels']}: {type(e).__name__}") from None
    if "type" not in gdf:
        raise ToolFailure(f"{a['parcels']} has no 'type' field")
    if "existence" in gdf:
        gdf = gdf[gdf["existence"].astype(bool)]
    gdf = gdf[gdf.geometry.geom_type.isin(["Polygon", "MultiPolygon"])]
    if gdf.crs is not None and gdf.crs.is_geographic:
        # GeoJSON readers label every file WGS 84; planar metres (the participation files) stay as they are
        in_degrees = bool((abs(gdf.total_bounds) <= 180).all())
        gdf = gdf.to_crs(gdf.estimate_utm_crs()) if in_degrees else gdf.set_crs(None, allow_override=True)
    types = gdf["type"].map(lambda v: TYPE_CODES.get(int(v), str(v)) if str(v).isdigit() else str(v))
    res = (types == "residential").to_numpy()
    if not res.any():
        raise ToolFailure(f"{a['parcels']} has no residential parcel: Service and Ecology are undefined")
    cen = gdf.geometry.centroid
    xy = np.c_[cen.x.to_numpy(), cen.y.to_numpy()]
    cov = service_coverage(xy[res], facilities_by_kind(types[~res], xy[~res]))
    green = gdf.geometry[types.isin(["green_l", "green_s"]).to_numpy()]
    return {"parcels": a["parcels"], "residential_parcels": int(res.sum()),
            "service": round(float(cov.mean()), 4),
            "service_by_kind": dict(zip(KINDS, np.round(cov.mean(axis=0), 4).tolist(), strict=False)),
            "ecology": round(ecology_polygons(list(gdf.geometry[res]), list(green)), 4)}


def tools(ctx: ToolContext) -> list[Tool]:
    ws = {"type": "string", "minLength": 1, "description": "workspace name under the server's workspace root"}
    return [
        Tool("build_instance", "Build a planning instance (land allocation, road construction or EV charging "
             "station placement) of a region and write its workspace; returns its name, candidates, budget "
             "(k€) and step limit.",
             object_schema({"region": region_schema(ctx), "task": {"type": "string", "enum": sorted(TASKS)},
                            "size": {"type": "string", "enum": list(SIZES)},
                            "budget": {"type": "number", "exclusiveMinimum": 0},
                            "seed": {"type": "integer", "minimum": 0}, "workspace": ws,
                            "overwrite": {"type": "boolean", "description": "replace a workspace that holds a "
                                                                          "plan or evaluations (default false)"}},
                           ["region", "task"]), build_instance),
        Tool("solve_plan", "Solve a workspace's instance under its stored instructions with a solver and "
             "evaluate the plan: valid, score, metrics, selected candidates; outputs/final_plan.json "
             "keeps the workspace's best plan (replaced only by a better one: best, best_replaced).",
             object_schema({"workspace": ws, "method": {"type": "string", "enum": list(SOLVE_METHODS)},
                            "time_limit": {"type": "number", "exclusiveMinimum": 0, "maximum": 120},
                            "seed": {"type": "integer", "minimum": 0}}, ["workspace"]), solve_plan),
        Tool("evaluate_plan", "Evaluate a plan (candidate ids) in a workspace with the sandbox evaluator; "
             "without ids the workspace's final plan is evaluated.",
             object_schema({"workspace": ws, "candidate_ids": {"type": "array",
                                                               # ids are short: a 50 MB "plan" was written before
                                                               "items": {"type": "string", "maxLength": 200},
                                                               "maxItems": 5000}}, ["workspace"]), evaluate_plan),
        Tool("participation_metrics", "Service (share of the five service kinds within 500 m of residential "
             "parcels) and Ecology (residential area within 300 m of green ≥ 2000 m²) of a parcels GeoJSON.",
             object_schema({"parcels": {"type": "string", "minLength": 1,
                                        "description": "parcels GeoJSON path under a readable folder"}},
                           ["parcels"]), participation_metrics),
    ]
