"""Each stored constraint checked on a plan, straight from its meaning (``schema.KINDS``), by
code that does not share the compiler's reading: no row matrix, no selection helper — the
selected candidates, their geometry and columns, and the constraint's own fields.

The round trip (``roundtrip.instruct``) runs it on the after-plan of every apply: a plan that
breaks any stored constraint is never reported applied. Only a candidate id is looked up with
the compiler's ``by_id`` (a lookup of the data's naming, not a reading of the instruction).
An emphasis is checked against the plan before: did its term move the favoured way?
"""
from __future__ import annotations

from typing import Any

import numpy as np
import shapely

from ..tasks.base import Instance
from .schema import DEFAULT_LOCK_M, TYPE_COLUMNS, summary

EPS = 1e-6
#: score components a planner may emphasise where less is better (cost: the share of the budget spent)
LOWER = {"cost_ratio", "rho"}
#: the planner's term → the task's score component (as the tasks name them)
COMPONENT = {"station": {"cost": "cost_ratio"}, "road": {"connectivity": "Gamma", "travel_time": "Delta", "cost": "rho"},
             "land": {"need": "R", "cost": "rho"}}


def _geometry(inst: Instance) -> np.ndarray:
    c = inst.candidates
    if "wkt" in c:
        return shapely.from_wkt(c["wkt"].astype(str).to_numpy())
    return shapely.points(c["x"].to_numpy(float), c["y"].to_numpy(float))


def _of_type(inst: Instance, typ: str | None) -> np.ndarray:
    if not typ:
        return np.ones(inst.n, dtype=bool)
    t = typ.strip().casefold()
    hit = np.zeros(inst.n, dtype=bool)
    for col in (c for c in TYPE_COLUMNS if c in inst.candidates):
        hit |= np.array([str(v).casefold().startswith(t) for v in inst.candidates[col]], dtype=bool)
    return hit


def _members(inst: Instance, geoms: np.ndarray, c: dict[str, Any]) -> np.ndarray | None:
    """Candidates the constraint speaks about; None when it names a target that was not resolved."""
    m = _of_type(inst, c.get("type"))
    t = c.get("target") or {}
    if t.get("id"):
        from .compile import by_id

        return m & by_id(inst, str(t["id"]))
    if not c.get("geometry"):
        return None if (t.get("name") or t.get("category")) and c["kind"] != "coverage" else m
    g = shapely.from_wkt(c["geometry"])
    if c.get("distance_m"):
        return m & np.array([shapely.distance(x, g) <= float(c["distance_m"]) + EPS for x in geoms], dtype=bool)
    if c.get("area") or c["kind"] in ("inside_area", "outside_area"):
        return m & np.array([shapely.intersects(x, g) for x in geoms], dtype=bool)
    return m & np.array([shapely.distance(x, g) <= DEFAULT_LOCK_M for x in geoms], dtype=bool)


def _coverage_gaps(inst: Instance, geoms: np.ndarray, chosen: np.ndarray, c: dict[str, Any]) -> int:
    """Residential demand units (weight > 0) with no selected candidate of the type, and no
    existing feature of the target, within distance_m."""
    from .compile import LAND_TYPE_OF, demand_points

    d = float(c["distance_m"])
    units = demand_points(inst)
    units = units[units[:, 2] > 0]
    cat = (c.get("target") or {}).get("category")
    ok = chosen & _of_type(inst, c.get("type") or (LAND_TYPE_OF.get(cat) if inst.task == "land" else None))
    pts = shapely.points(units[:, :2])
    reached = np.zeros(len(units), dtype=bool)
    if c.get("geometry"):   # an existing feature of the category serves its surroundings
        reached |= shapely.distance(pts, shapely.from_wkt(c["geometry"])) <= d
    for i in np.flatnonzero(ok):
        reached |= shapely.distance(pts, geoms[i]) <= d
    return int((~reached).sum())


def check(inst: Instance, ids: list[str], constraints: list[dict[str, Any]],
          before_ids: list[str] | None = None) -> list[dict[str, Any]]:
    """One row per constraint: {key, summary, status: ok | broken | unchecked | unmoved, detail}."""
    inst = getattr(inst, "unconstrained", inst)
    chosen = np.zeros(inst.n, dtype=bool)
    for i in ids:
        chosen[inst.index[i]] = True
    geoms = _geometry(inst)
    rows = []
    for k, c in enumerate(constraints):
        kind = c["kind"]
        status, detail = "ok", ""
        if kind == "budget_share_max":
            spent, cap = float(inst.cost[chosen & _of_type(inst, c.get("type"))].sum()), float(c["share"]) * inst.budget
            status, detail = ("ok" if spent <= cap + EPS else "broken"), f"spends {spent:.1f} of at most {cap:.1f}"
        elif kind == "spacing_min":
            d = float(c["distance_m"])
            sel = np.flatnonzero(chosen)
            close = [(a, b) for j, a in enumerate(sel) for b in sel[j + 1:]
                     if (inst.group[a] < 0 or inst.group[a] != inst.group[b]) and shapely.distance(geoms[a], geoms[b]) < d - EPS]
            status, detail = ("broken", f"{len(close)} pair(s) closer than {d:g} m") if close else ("ok", "")
        elif kind == "coverage":
            gaps = _coverage_gaps(inst, geoms, chosen, c)
            status, detail = ("broken", f"{gaps} residential unit(s) not reached") if gaps else ("ok", "")
        elif kind == "emphasis":
            status, detail = _emphasis_moved(inst, c, chosen, before_ids)
        else:
            members = _members(inst, geoms, c)
            if members is None:
                rows.append({"key": c.get("key", str(k + 1)), "summary": summary(c), "status": "unchecked",
                             "detail": "its target has no geometry here"})
                continue
            n = int((members & chosen).sum())
            if kind in ("lock_out", "exclude_near", "outside_area"):
                ok = n == 0
            elif kind == "inside_area":
                n = int((chosen & _of_type(inst, c.get("type")) & ~members).sum())
                ok = n == 0
            elif kind == "lock_in":
                ok = n >= 1
            elif kind in ("count_min", "require_near"):
                ok = n >= int(c.get("count") or (1 if kind == "require_near" else 0))
            elif kind == "count_max":
                ok = n <= int(c["count"])
            else:
                rows.append({"key": c.get("key", str(k + 1)), "summary": summary(c), "status": "unchecked",
                             "detail": f"no check for kind '{kind}'"})
                continue
            status, detail = ("ok" if ok else "broken"), f"{n} selected candidate(s) concerned"
        rows.append({"key": c.get("key", str(k + 1)), "summary": summary(c), "status": status, "detail": detail})
    return rows


def _emphasis_moved(inst: Instance, c: dict[str, Any], chosen: np.ndarray,
                    before_ids: list[str] | None) -> tuple[str, str]:
    term = COMPONENT.get(inst.task, {}).get(c["term"], c["term"])
    if before_ids is None:
        return "unchecked", "no plan before to compare with"
    before = np.zeros(inst.n, dtype=bool)
    for i in before_ids:
        before[inst.index[i]] = True
    a, b = inst.score_mask(before)[1].get(term), inst.score_mask(chosen)[1].get(term)
    if a is None or b is None:
        return "unchecked", f"'{term}' is not a score component here"
    better = (b < a - EPS) if term in LOWER else (b > a + EPS)
    return ("ok" if better else "unmoved"), f"{term} {a:.4g} → {b:.4g}"


def broken(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of constraints the plan breaks."""
    return [r for r in rows if r["status"] == "broken"]


__all__ = ["broken", "check"]
