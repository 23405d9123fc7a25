"""Compile stored constraints against an Instance into linear rows over the candidate choice.

Every kind except ``emphasis`` becomes rows  lo ≤ A·y ≤ hi  over y ∈ {0,1}^n (the candidate
variables, which every task MILP puts first), with A ≥ 0: adding a candidate only raises a
row, removing only lowers it. That one form serves all three users:
* the MILP appends the rows as they are (exact: the same rows the evaluator checks);
* the heuristics keep r = A·y incrementally and refuse a move that would break a row;
* the evaluator names the constraint of every broken row (a Ψ violation).
``emphasis`` adds weight·(e·y − K) to the objective, e_i = the term's value of the plan {i}
(signed so more is better) and K the largest value e·y can take within the step limit, so
the added term is ≤ 0 and every bound on S still bounds the emphasised objective.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import shapely
from scipy.sparse import coo_matrix, csc_matrix

from ..errors import InputError
from ..tasks.base import Instance
from .schema import DEFAULT_EMPHASIS, DEFAULT_LOCK_M, TYPE_COLUMNS, summary

#: score components where less is better (an emphasis on them lowers them)
LOWER_IS_BETTER = ("cost_ratio", "rho", "overload", "unserved", "V", "penalty", "overbuild", "duplicates",
                   "crossings", "distance_ratio", "duplicate_sites", "count_excess")


@dataclass
class Compiled:
    """Rows lo ≤ A·y ≤ hi (A ≥ 0, n columns), the constraint each row belongs to, and the emphasis."""

    n: int
    A: csc_matrix
    lo: np.ndarray
    hi: np.ndarray
    owner: np.ndarray                      # row -> index into ``constraints``
    constraints: list[dict[str, Any]]
    emphasis: np.ndarray = field(default_factory=lambda: np.zeros(0))   # weight·e_i, or empty
    offset: float = 0.0                                              # weight·K

    @property
    def empty(self) -> bool:
        return self.A.shape[0] == 0 and not len(self.emphasis)

    def extra(self, mask: np.ndarray) -> float:
        """The emphasis term of a plan (≤ 0), 0 without emphasis."""
        return float(self.emphasis[mask].sum()) - self.offset if len(self.emphasis) else 0.0

    def rows_of(self, mask: np.ndarray) -> np.ndarray:
        return self.A @ np.asarray(mask, dtype=float)

    def violations(self, mask: np.ndarray, ids: list[str]) -> list[str]:
        """One named Ψ violation per broken constraint."""
        r = self.rows_of(mask)
        bad = np.flatnonzero((r < self.lo - 1e-9) | (r > self.hi + 1e-9))
        out = []
        for k in dict.fromkeys(self.owner[bad].tolist()):
            c = self.constraints[k]
            rows = bad[self.owner[bad] == k]
            if np.isfinite(self.hi[rows]).any() and (r[rows] > self.hi[rows] + 1e-9).any():
                sel = self.A[rows].multiply(np.asarray(mask, dtype=float)[None, :]).tocsr()
                who = sorted({ids[j] for j in sel.indices})
                detail = f"selected {', '.join(who[:6])}{' …' if len(who) > 6 else ''}"
            else:
                detail = f"{int(round(r[rows].min()))} of at least {int(round(self.lo[rows].max()))} required"
            out.append(f"instruction {c.get('key', k + 1)} broken ({summary(c)}): {detail}")
        return out


def compile_constraints(inst: Instance, constraints: list[dict[str, Any]]) -> Compiled:
    """Rows and emphasis of ``constraints`` on ``inst``; InputError names one that cannot apply."""
    geoms = candidate_geometries(inst)
    rows: list[tuple[np.ndarray, np.ndarray, float, float]] = []   # (cols, vals, lo, hi)
    owner: list[int] = []
    emphasis = np.zeros(0)
    offset = 0.0
    for k, c in enumerate(constraints):
        if c["kind"] == "emphasis":
            e, off = _emphasis(inst, c)
            emphasis = e if not len(emphasis) else emphasis + e
            offset += off
            continue
        new = _rows(inst, geoms, c)
        rows += new
        owner += [k] * len(new)
    r = np.concatenate([np.full(len(cols), j) for j, (cols, _, _, _) in enumerate(rows)]) if rows else np.zeros(0)
    cc = np.concatenate([cols for cols, _, _, _ in rows]) if rows else np.zeros(0)
    vv = np.concatenate([vals for _, vals, _, _ in rows]) if rows else np.zeros(0)
    A = coo_matrix((vv, (r.astype(np.int64), cc.astype(np.int64))), shape=(len(rows), inst.n)).tocsc()
    return Compiled(inst.n, A, np.array([x[2] for x in rows], dtype=float), np.array([x[3] for x in rows], dtype=float),
                    np.array(owner, dtype=np.int64), list(constraints), emphasis, offset)


# ---------------------------------------------------------------------- candidate sets
def candidate_geometries(inst: Instance) -> np.ndarray:
    if "wkt" in inst.candidates:
        return shapely.from_wkt(inst.candidates["wkt"].astype(str).to_numpy())
    if {"x", "y"} <= set(inst.candidates.columns):
        return shapely.points(inst.candidates["x"].to_numpy(float), inst.candidates["y"].to_numpy(float))
    raise InputError(f"the {inst.task} candidates carry no geometry: place constraints cannot apply")


def of_type(inst: Instance, typ: str | None) -> np.ndarray:
    """Candidates whose type (land use type, site kind, road kind) is ``typ`` or starts with it."""
    if not typ:
        return np.ones(inst.n, dtype=bool)
    t = typ.strip().casefold()
    out = np.zeros(inst.n, dtype=bool)
    for col in TYPE_COLUMNS:
        if col in inst.candidates:
            v = inst.candidates[col].astype(str).str.casefold()
            out |= ((v == t) | v.str.startswith(t)).to_numpy()
    return out


def types_of(inst: Instance) -> list[str]:
    for col in TYPE_COLUMNS:
        if col in inst.candidates:
            return sorted(inst.candidates[col].astype(str).unique())
    return []


ID_WORDS = re.compile(r"^(?:site|link|parcel|block|candidate|road|station|face|no\.?)\s*#?\s*", re.I)
NUMBERED = r"^[a-z]*0*(\d+)$"


def _numbered(values: pd.Series, num: int) -> np.ndarray:
    return values.astype(str).str.extract(NUMBERED, flags=re.I)[0].astype(float).eq(num).to_numpy()


def by_id(inst: Instance, key: str) -> np.ndarray:
    """Candidates named by ``key`` as a planner says it: a candidate id (s03c1), a site
    ("site 3" = s03, station), a parcel/block ("block 5" = face 5, land) or a link ("link 2" =
    n002, else r02, road). Empty when nothing matches."""
    key = str(key).strip()
    m = np.zeros(inst.n, dtype=bool)
    if key in inst.index:
        m[inst.index[key]] = True
        return m
    bare = ID_WORDS.sub("", key)
    num = re.match(NUMBERED, bare, re.I)
    cands = inst.candidates
    for col in ("site", "face_id"):
        if col in cands:
            hit = (cands[col].astype(str).str.casefold() == bare.casefold()).to_numpy()
            if num is not None and not hit.any():
                hit = _numbered(cands[col], int(num.group(1)))
            if hit.any():
                return hit
    if num is not None:
        hit = _numbered(pd.Series(inst.ids), int(num.group(1)))
        new = (cands["kind"] == "new").to_numpy() if "kind" in cands else np.zeros(inst.n, dtype=bool)
        return hit & new if (hit & new).any() else hit   # "link 2" is a new link before a rebuilt one
    return m


def selection(inst: Instance, geoms: np.ndarray, c: dict[str, Any]) -> np.ndarray:
    """The candidates a constraint speaks about: of its type, and of its target (by id, within
    distance_m of the target geometry, or inside it)."""
    m = of_type(inst, c.get("type"))
    t = c.get("target") or {}
    if t.get("id"):
        hit = by_id(inst, t["id"])
        if not hit.any() and c["kind"] == "lock_out":   # an id the instance lacks is out of every plan
            return hit
        if not hit.any():
            raise InputError(f"no candidate, site, parcel or link '{t['id']}' in {inst.instance_id}")
        return m & hit
    if c.get("geometry"):
        g = shapely.from_wkt(c["geometry"])
        if c.get("distance_m"):
            return m & (shapely.distance(geoms, g) <= float(c["distance_m"]) + 1e-6)
        if c.get("area") or c["kind"] in ("inside_area", "outside_area"):
            return m & shapely.intersects(geoms, g)
        return m & (shapely.distance(geoms, g) <= DEFAULT_LOCK_M)
    return m


# ---------------------------------------------------------------------- rows per kind
def _rows(inst: Instance, geoms: np.ndarray, c: dict[str, Any]) -> list[tuple[np.ndarray, np.ndarray, float, float]]:
    kind = c["kind"]
    ones = lambda m: (np.flatnonzero(m), np.ones(int(m.sum())))  # noqa: E731
    if kind in ("lock_in", "lock_out", "exclude_near", "require_near", "count_min", "count_max", "outside_area"):
        m = selection(inst, geoms, c)
        if kind in ("lock_out", "exclude_near", "outside_area") or (kind == "count_max" and not c["count"]):
            return [(*ones(m), -np.inf, 0.0)] if m.any() else []
        if kind == "count_max":
            return [(*ones(m), -np.inf, float(c["count"]))] if m.sum() > c["count"] else []
        need = 1.0 if kind == "lock_in" else float(c.get("count") or (1 if kind == "require_near" else 0))
        return [(*ones(m), need, np.inf)] if need > 0 else []   # fewer than ``need`` members: infeasible
    if kind == "inside_area":
        m = of_type(inst, c.get("type")) & ~selection(inst, geoms, c)
        return [(*ones(m), -np.inf, 0.0)] if m.any() else []
    if kind == "spacing_min":
        dist = shapely.distance(geoms[:, None], geoms[None, :])
        i, j = np.nonzero(np.triu(dist < float(c["distance_m"]) - 1e-6, k=1))
        keep = (inst.group[i] < 0) | (inst.group[i] != inst.group[j])   # one site: already exclusive
        return [(np.array([a, b]), np.ones(2), -np.inf, 1.0) for a, b in zip(i[keep], j[keep], strict=False)]
    if kind == "budget_share_max":   # with a type: what the candidates of that kind cost ("a quarter on new links")
        m = of_type(inst, c.get("type"))
        return [(np.flatnonzero(m), inst.cost[m].astype(float), -np.inf, float(c["share"]) * inst.budget)]
    if kind == "coverage":
        return _coverage(inst, geoms, c)
    raise InputError(f"unknown constraint kind '{kind}'")


#: land: the parcel type that serves like an existing feature of a POI category (coverage)
LAND_TYPE_OF = {"school": "school", "clinic": "hospital", "hospital": "hospital", "green": "green",
                "business": "business", "office": "office", "recreation": "recreation"}


def demand_points(inst: Instance) -> np.ndarray:
    """(x, y, weight) of the task's demand units; InputError for a task without them."""
    d = inst.data
    if "units" in d:
        xy = np.asarray(d["units"]["xy"], dtype=float).reshape(-1, 2)
        return np.c_[xy, np.asarray(d["units"]["w_service"], dtype=float)]
    if "demand" in d and "x" in d["demand"]:
        return np.c_[d["demand"]["x"], d["demand"]["y"], d["demand"]["w"]].astype(float)
    raise InputError(f"coverage needs demand units: the {inst.task} task has none")


def _coverage(inst: Instance, geoms: np.ndarray, c: dict[str, Any]) -> list:
    d = float(c["distance_m"])
    units = demand_points(inst)
    units = units[units[:, 2] > 0]
    upts = shapely.points(units[:, :2])
    served = np.zeros(len(units), dtype=bool)
    if c.get("geometry"):   # existing features of the target category already serve their surroundings
        served = shapely.distance(upts, shapely.from_wkt(c["geometry"])) <= d
    cat = (c.get("target") or {}).get("category")
    ok = of_type(inst, c.get("type") or (LAND_TYPE_OF.get(cat) if inst.task == "land" else None))
    reach = (shapely.distance(upts[:, None], geoms[None, :]) <= d) & ok[None, :]
    todo = np.flatnonzero(~served)   # a unit no candidate reaches keeps an empty row: infeasible
    return [(np.flatnonzero(reach[u]), np.ones(int(reach[u].sum())), 1.0, np.inf) for u in todo]


#: the planner's word for a score term -> the task's component
TERMS = {
    "station": {"coverage": "coverage", "access": "access", "service_time": "service_time", "cost": "cost_ratio"},
    "road": {"connectivity": "Gamma", "travel_time": "Delta", "cost": "rho"},
    "land": {"R": "R", "need": "R", "service": "service", "ecology": "ecology", "cost": "rho"},
}


def _emphasis(inst: Instance, c: dict[str, Any]) -> tuple[np.ndarray, float]:
    from ..tasks.registry import spec

    term = spec(inst.task).score_terms.get(c["term"], c["term"])   # the planner's word -> the component
    if term not in inst.components:
        raise InputError(f"'{term}' is not a score term of the {inst.task} task ({', '.join(inst.components)})")
    sign = -1.0 if term in LOWER_IS_BETTER else 1.0
    e = np.empty(inst.n)
    for i in range(inst.n):
        m = np.zeros(inst.n, dtype=bool)
        m[i] = True
        e[i] = sign * float(inst.score_mask(m)[1].get(term, 0.0))
    w = float(c.get("weight") or DEFAULT_EMPHASIS)
    top = np.sort(np.maximum(e, 0.0))[::-1][: inst.max_select].sum()
    return w * e, w * float(top)
