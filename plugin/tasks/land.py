"""Land allocation (LA): assign land-use types to vacant or redevelopable parcels.

The type vocabulary, the five service kinds and the Service / Ecology rules are those of the
participation regions (shared data/participation/README.md), so that participatory planning
can reuse this evaluator on the Beijing parcels (``LandAllocation.from_parcels``) and the
coverage rules as plain functions (``service_coverage``, ``service_score``,
``ecology_score``, ``ecology_polygons``).
"""
from __future__ import annotations

import math
from typing import Any, Iterable, Mapping, Sequence

import geopandas as gpd
import numpy as np
import pandas as pd
from shapely import unary_union

from ..errors import InputError

from .base import SIZES, Instance, SearchState

# ---------------------------------------------------------------- vocabulary (README rules)
TYPES = ("business", "office", "green_l", "green_s", "school", "hospital_l", "hospital_s", "recreation")
#: parcel ``type`` codes of the participation GeoJSON files
TYPE_CODES = {1: "feasible", 4: "residential", 5: "business", 6: "office", 7: "green_l", 8: "green_s",
              9: "school", 10: "hospital_l", 11: "hospital_s", 12: "recreation"}
KINDS = ("shopping", "work", "education", "medical", "entertainment")
SERVICE_KIND = {"business": "shopping", "office": "work", "school": "education",
                "hospital_l": "medical", "hospital_s": "medical", "recreation": "entertainment"}
GREEN_TYPES = ("green_l", "green_s")
ECOLOGY = len(KINDS)            # row index of ecology next to the five service kinds
SERVICE_RADIUS = 500.0          # m, nearest facility of a kind within this serves a unit
ECOLOGY_RADIUS = 300.0          # m, buffer around green
GREEN_MIN_AREA = 2000.0         # m², smaller green does not count for ecology

# ---------------------------------------------------------------- score weights (paper)
W_R, W_A, W_RHO, W_V = 0.6, 0.3, 0.2, 0.1

# ---------------------------------------------------------------- instance generation
TARGET = {"small": 85, "medium": 119, "large": 199}   # paper's mean candidate counts
#: smallest face a type fits on (m²); the Beijing minima scaled down to European blocks
MIN_AREA = {"business": 500.0, "office": 500.0, "green_l": 5000.0, "green_s": 300.0, "school": 2500.0,
            "hospital_l": 5000.0, "hospital_s": 1000.0, "recreation": 500.0}
#: developed plot per type at most (m², the hlg max_area); a larger face is only partly used
MAX_AREA = {"business": 20000.0, "office": 20000.0, "green_l": 90000.0, "green_s": 10000.0,
            "school": 20000.0, "hospital_l": 30000.0, "hospital_s": 10000.0, "recreation": 10000.0}
LAND_RATE = 0.3                 # k€ per m² of plot, all types
BUILD_RATE = {"business": 1.2, "office": 1.5, "green_l": 0.05, "green_s": 0.08, "school": 1.8,
              "hospital_l": 3.0, "hospital_s": 2.5, "recreation": 0.4}   # k€ per m² of plot
REDEVELOPMENT = 2.0             # cost × (1 + REDEVELOPMENT · coverage): demolition and buy-out
#: relative need per type (hlg objective counts; green_s, absent there, gets 3)
NEED_BASE = {"business": 4, "office": 6, "green_l": 2, "green_s": 3, "school": 6, "hospital_l": 2,
             "hospital_s": 4, "recreation": 6}
NEED_SHARE = 0.4                # Σ n_t ≈ this share of the candidate faces
REDEV_LANDUSE = frozenset({"brownfield", "construction", "grass", "greenfield", "parking", "railway",
                           "garages", "meadow", "farmland", "landfill"})
MIN_FACE_AREA = min(MIN_AREA.values())
LOW_COVERAGE = 0.15
UNDERUSED_AREA, UNDERUSED_FAR = 5000.0, 0.5   # large faces with little floor area
HIGH_DEMAND = 100.0             # residents: such a built-up face stays a demand unit
BUDGET_FACTOR = 0.75            # budget = factor × cost of the cheapest full plan (binds)
#: existing facilities from face POI counts
EXISTING_COLUMNS = {"shopping": ("n_business",), "work": ("n_office",), "education": ("n_school",),
                    "medical": ("n_hospital", "n_clinic"), "entertainment": ("n_recreation",)}


# ---------------------------------------------------------------- reusable coverage rules
def within(a_xy: np.ndarray, b_xy: np.ndarray, radius: float) -> np.ndarray:
    """(len a, len b) bool: centroid-to-centroid Euclidean distance ≤ radius."""
    a = np.asarray(a_xy, dtype=float).reshape(-1, 2)
    b = np.asarray(b_xy, dtype=float).reshape(-1, 2)
    d2 = ((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=2)
    return d2 <= radius * radius


def facilities_by_kind(types: Iterable[str], xy: np.ndarray) -> dict[str, np.ndarray]:
    """Facility centroids grouped by service kind (types without a kind are dropped)."""
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    kinds = np.array([SERVICE_KIND.get(t, "") for t in types])
    return {k: xy[kinds == k] for k in KINDS}


def service_coverage(unit_xy: np.ndarray, facilities: Mapping[str, np.ndarray],
                     radius: float = SERVICE_RADIUS) -> np.ndarray:
    """(units, 5) bool: unit served for kind k when a facility of kind k is within ``radius``."""
    u = np.asarray(unit_xy, dtype=float).reshape(-1, 2)
    cols = [within(u, facilities.get(k, np.empty((0, 2))), radius).any(axis=1) for k in KINDS]
    return np.stack(cols, axis=1) if len(u) else np.zeros((0, len(KINDS)), dtype=bool)


def service_score(unit_xy: np.ndarray, facilities: Mapping[str, np.ndarray],
                  weights: np.ndarray | None = None, radius: float = SERVICE_RADIUS) -> float:
    """README Service: (weighted) mean over residential units of served kinds / 5."""
    cov = service_coverage(unit_xy, facilities, radius)
    w = np.ones(len(cov)) if weights is None else np.asarray(weights, dtype=float)
    return float(w @ cov.mean(axis=1) / w.sum()) if w.sum() > 0 else 0.0


def ecology_served(unit_xy: np.ndarray, green_xy: np.ndarray, green_area: np.ndarray,
                   radius: float = ECOLOGY_RADIUS, min_area: float = GREEN_MIN_AREA) -> np.ndarray:
    """(units,) bool, centroid approximation of the README Ecology rule: a unit counts as
    green-served (all of its area) when the centroid of a green of area ≥ ``min_area`` lies
    within ``radius`` of its centroid."""
    big = np.asarray(green_area, dtype=float) >= min_area
    return within(unit_xy, np.asarray(green_xy, dtype=float).reshape(-1, 2)[big], radius).any(axis=1)


def ecology_score(unit_xy: np.ndarray, unit_area: np.ndarray, green_xy: np.ndarray, green_area: np.ndarray,
                  radius: float = ECOLOGY_RADIUS, min_area: float = GREEN_MIN_AREA) -> float:
    """Area share of residential units that are green-served (centroid approximation)."""
    a = np.asarray(unit_area, dtype=float)
    return float(a @ ecology_served(unit_xy, green_xy, green_area, radius, min_area) / a.sum()) if a.sum() > 0 else 0.0


def ecology_polygons(residential: Sequence[Any], green: Sequence[Any], radius: float = ECOLOGY_RADIUS,
                     min_area: float = GREEN_MIN_AREA) -> float:
    """README Ecology exactly: area of (union of ``radius`` buffers around green polygons of
    area ≥ ``min_area``) ∩ (union of residential polygons), divided by the residential area."""
    res = unary_union(list(residential))
    if res.is_empty or res.area == 0:
        return 0.0
    buf = unary_union([g.buffer(radius) for g in green if g.area >= min_area])
    return float(res.intersection(buf).area / res.area) if not buf.is_empty else 0.0


# ---------------------------------------------------------------- the task
class LandAllocation(Instance):
    """Land allocation: choose (face, land-use type) assignments.

    Candidates: one row per (face, type) on vacant or redevelopable faces; types are
    business, office, green_l, green_s, school, hospital_l, hospital_s, recreation. At most
    one type per face (``group`` = face; a second one is a hard error). need n_t: how many
    faces of type t the plan should hold (``data.need``); N = Σ_t n_t; c_t = selected count.

    S = 0.6·R + 0.3·A − 0.2·ρ − V, with
      R = Σ_t min(c_t, n_t) / N                                  (match to need_config)
      A = (5·Service + Ecology) / 6                              (demand served, in [0, 1])
        Service = Σ_u ws_u · (kinds served at u) / 5 / Σ_u ws_u over demand units u;
          kinds: business→shopping, office→work, school→education,
          hospital_l|hospital_s→medical, recreation→entertainment; u is served for a kind when
          an existing or selected facility of that kind has its centroid within 500 m of u's
          centroid (Euclidean).
        Ecology = Σ_u we_u · [green within 300 m] / Σ_u we_u; green = existing green
          (≥ 2000 m²) or a selected green_l/green_s whose developed area is ≥ 2000 m²;
          distance centroid-to-centroid (an approximation of the README's buffer-of-polygon
          rule, needed for incremental evaluation).
        ws, we: service and ecology weights (city: residents of the face for both;
          participation parcels: 1 per parcel and parcel area). No demand: A = 0.
        Existing facilities serve too (city: faces with POIs n_business, n_office, n_school,
          n_hospital/n_clinic, n_recreation at the face centroid; green: faces with ≥ 2000 m²
          of green), so a new assignment only counts where its kind is missing.
      ρ = total cost / budget
      V = 0.1 · (Σ_t max(0, c_t − n_t) + Σ_faces max(0, assignments − 1)) / N
          (overbuilding, and duplicate face selection — the latter also makes the plan invalid).
    n_t, the budget and the step limit are in the instance (export.json: data.need, budget,
    max_select); the candidate column ``new_share`` is the demand share a candidate alone
    would newly serve for its kind.
    Hard rules Ψ: cost ≤ budget, |P| ≤ max_select, one type per face; unknown ids invalid,
    duplicated ids removed with a warning.
    Cost (k€) = developed area × (0.3 + build rate of the type) × (1 + 2·building coverage of
    the face); developed area = min(face area, the type's maximum plot).
    """

    task = "land"
    components = ("R", "A", "service", "ecology", "rho", "V", "overbuild", "duplicates")

    # ------------------------------------------------------------------ preparation
    def _prepare(self) -> None:
        d = self.data
        self.types: tuple[str, ...] = tuple(d["types"])
        self.ctype = np.asarray(d["cand_type"], dtype=np.int64).reshape(-1)
        self.need = np.array([int(d["need"].get(t, 0)) for t in self.types], dtype=np.int64)
        self.n_need = int(self.need.sum())
        if self.n_need <= 0:
            raise InputError("land allocation: need_config asks for nothing (Σ n_t = 0)")
        units = d["units"]
        uxy = np.asarray(units["xy"], dtype=float).reshape(-1, 2)
        cxy = np.asarray(d["cand_xy"], dtype=float).reshape(-1, 2)
        area = np.asarray(d["cand_area"], dtype=float).reshape(-1)
        # kind row per candidate: 0..4 service kind, 5 ecology, -1 neither (small green_s)
        kind_of = {t: KINDS.index(SERVICE_KIND[t]) for t in SERVICE_KIND}
        self.ckind = np.array([kind_of.get(self.types[t], -1) for t in self.ctype], dtype=np.int64)
        green = np.isin(self.ctype, [self.types.index(t) for t in GREEN_TYPES if t in self.types])
        self.ckind[green & (area >= d["green_min_area"])] = ECOLOGY
        radius = np.where(self.ckind == ECOLOGY, d["ecology_radius"], d["service_radius"])
        self.cover = np.zeros((len(cxy), len(uxy)), dtype=bool)
        for r in np.unique(radius):
            rows = radius == r
            self.cover[rows] = within(cxy[rows], uxy, float(r))
        self.cover[self.ckind < 0] = False
        self.cover_idx = [np.flatnonzero(row) for row in self.cover]
        # existing service per (kind row, unit): counts of existing facilities in range
        ex = d["existing"]
        self.existing = np.zeros((len(KINDS) + 1, len(uxy)), dtype=np.int64)
        for k, name in enumerate(KINDS):
            self.existing[k] = within(uxy, np.asarray(ex.get(name, []), dtype=float).reshape(-1, 2),
                                      d["service_radius"]).sum(axis=1)
        self.existing[ECOLOGY] = within(uxy, np.asarray(ex.get("green", []), dtype=float).reshape(-1, 2),
                                        d["ecology_radius"]).sum(axis=1)
        ws = np.asarray(units["w_service"], dtype=float)
        we = np.asarray(units["w_ecology"], dtype=float)
        # A = Σ_k Σ_u W[k,u]·[served]: service rows share ws/(6Σws), ecology row we/(6Σwe)
        self.W = np.zeros((len(KINDS) + 1, len(uxy)))
        if ws.sum() > 0:
            self.W[:ECOLOGY] = ws / (6.0 * ws.sum())
        if we.sum() > 0:
            self.W[ECOLOGY] = we / (6.0 * we.sum())

    def group_label(self, g: int) -> str:
        rows = np.flatnonzero(self.group == g)
        if not len(rows) or "face_id" not in self.candidates:
            return super().group_label(g)
        return f"face {self.candidates['face_id'].iloc[rows[0]]}"

    # ------------------------------------------------------------------ scoring
    def _terms(self, counts: np.ndarray, served: np.ndarray, cost: float, dups: int) -> dict[str, float]:
        """Every score term from type counts, served (6, units) bools, cost and duplicates."""
        n_sum = self.n_need
        r = float(np.minimum(counts, self.need).sum() / n_sum)
        service = float((self.W[:ECOLOGY] * served[:ECOLOGY]).sum() * 6.0 / 5.0)
        ecology = float((self.W[ECOLOGY] * served[ECOLOGY]).sum() * 6.0)
        a = float((self.W * served).sum())
        over = float(np.maximum(counts - self.need, 0).sum())
        v = W_V * (over + dups) / n_sum
        rho = cost / self.budget if self.budget > 0 else 0.0
        s = W_R * r + W_A * a - W_RHO * rho - v
        return {"S": s, "R": r, "A": a, "service": service, "ecology": ecology, "rho": rho, "V": v,
                "overbuild": over, "duplicates": float(dups)}

    def score_mask(self, mask: np.ndarray) -> tuple[float, dict[str, float], list[str]]:
        mask = np.asarray(mask, dtype=bool)
        counts = np.bincount(self.ctype[mask], minlength=len(self.types))
        served = self.existing > 0
        for k in range(len(KINDS) + 1):
            sel = mask & (self.ckind == k)
            if sel.any():
                served[k] |= self.cover[sel].any(axis=0)
        used = np.bincount(self.group[mask & (self.group >= 0)], minlength=self.n_groups)
        dups = int(np.maximum(used - 1, 0).sum())
        terms = self._terms(counts, served, float(self.cost[mask].sum()), dups)
        warnings = [f"overbuilt {t}: {c} selected, need {n}" for t, c, n in zip(self.types, counts, self.need) if c > n]
        s = terms.pop("S")
        return s, terms, warnings

    def state(self, mask: np.ndarray | None = None) -> "LandState":
        return LandState(self, mask)

    # ------------------------------------------------------------------ construction
    @classmethod
    def build(cls, city, size: str = "small", seed: int = 0, budget: float | None = None,
              **params: Any) -> "LandAllocation":
        """From a City: candidates on vacant/redevelopable faces, demand on residential faces.

        params: n_candidates (override the size's target count), budget_factor."""
        if size not in SIZES:
            raise InputError(f"unknown size '{size}' (choose {', '.join(SIZES)})")
        rng = np.random.default_rng(seed)
        faces = city.faces
        faces = faces[faces["area"] > 0]
        if not len(faces):
            raise InputError(f"{city.name}: no faces with area, nothing to allocate")
        target = int(params.get("n_candidates") or TARGET[size])
        cen = faces.geometry.centroid
        fxy = np.c_[cen.x.to_numpy(), cen.y.to_numpy()]
        pool, reasons = _candidate_pool(faces, target)
        if not len(pool):
            raise InputError(f"{city.name}: no vacant or redevelopable face of at least {MIN_FACE_AREA:.0f} m²")
        take = np.sort(rng.choice(len(pool), size=min(target, len(pool)), replace=False))
        pool = pool.iloc[take].reset_index(drop=True)
        pos = faces.index.get_indexer(pool["face_id"])
        sub = faces.iloc[pos]
        dev = np.minimum(sub["area"].to_numpy(), pool["type"].map(MAX_AREA).to_numpy())
        cands = pd.DataFrame({
            "face_id": pool["face_id"].to_numpy(), "type": pool["type"].to_numpy(),
            "face_area": sub["area"].round(1).to_numpy(), "dev_area": dev.round(1),
            "coverage": sub["coverage"].round(3).to_numpy(), "landuse": sub["landuse"].to_numpy(),
            "reason": [reasons[f] for f in pool["face_id"]],
            "x": fxy[pos, 0].round(2), "y": fxy[pos, 1].round(2), "wkt": sub.geometry.to_wkt().to_numpy(),
        })
        demand = faces["demand"].to_numpy(dtype=float)
        is_unit = demand > 0
        w = demand[is_unit] * np.exp(rng.normal(0.0, 0.1, int(is_unit.sum())))  # seeded perturbation
        units = {"id": [str(f) for f in faces.index[is_unit]], "xy": fxy[is_unit].round(2).tolist(),
                 "w_service": w.round(3).tolist(), "w_ecology": w.round(3).tolist()}
        existing = {k: fxy[(faces[list(cols)].sum(axis=1) > 0).to_numpy()].round(2).tolist()
                    for k, cols in EXISTING_COLUMNS.items()}
        existing["green"] = fxy[(faces["green_area"] >= GREEN_MIN_AREA).to_numpy()].round(2).tolist()
        factor = float(params.get("budget_factor", BUDGET_FACTOR * rng.uniform(0.9, 1.1)))
        meta = {"region": city.name, "size": size, "seed": seed, "target": target,
                "short_of_target": len(cands) < target, "candidate_faces": int(cands["face_id"].nunique()),
                "demand_units": int(is_unit.sum()), "bounds": [round(float(b), 2) for b in city.bounds]}
        if not is_unit.any():
            meta["note"] = "no residential demand in this area: A = 0"
        inst_id = f"{city.name}-land-{size}-{seed}"
        return cls._assemble(inst_id, cands, units, existing, None, budget, factor, None, city.crs, meta, "f")

    @classmethod
    def from_parcels(cls, parcels: gpd.GeoDataFrame, need_config: Mapping[str, int], budget: float | None = None,
                     *, type_col: str = "type", candidate_types: Iterable[str | int] = ("feasible",),
                     min_area: Mapping[str, float] | None = None, budget_factor: float = 1.0,
                     max_select: int | None = None, instance_id: str = "parcels", crs: str | None = None,
                     meta: dict | None = None) -> "LandAllocation":
        """From a generic parcels table (e.g. the participation hlg/dhm GeoJSON, existing rows).

        ``type_col`` holds type names or the participation codes (``TYPE_CODES``). Parcels of
        a type in ``candidate_types`` become candidates (× every type in ``TYPES`` whose
        ``min_area`` they meet); residential parcels are demand units (service weight 1,
        ecology weight = area, as in the README); other typed parcels are existing
        facilities. The whole parcel is developed (no plot cap); an optional ``coverage``
        column raises the cost as in ``build``. Default budget: ``budget_factor`` × cost of
        the cheapest full plan. ``need_config`` types outside ``TYPES`` are an InputError."""
        bad = sorted(set(need_config) - set(TYPES))
        if bad:
            raise InputError(f"need_config: unknown land-use types {', '.join(bad)} (known: {', '.join(TYPES)})")
        ptype = parcels[type_col].map(_type_name)
        if parcels.crs is not None and parcels.crs.is_geographic:
            raise InputError("parcels are in a geographic CRS: reproject them to metres "
                             "(a planar file without CRS: set_crs(None, allow_override=True))")
        cand_types = {_type_name(c) for c in candidate_types}
        is_cand = ptype.isin(cand_types).to_numpy()
        if not is_cand.any():
            raise InputError(f"no parcel of type {', '.join(sorted(cand_types))}: nothing to allocate")
        cen = parcels.geometry.centroid
        xy = np.c_[cen.x.to_numpy(), cen.y.to_numpy()]
        area = parcels.geometry.area.to_numpy()
        pid = parcels["id"].to_numpy() if "id" in parcels else parcels.index.to_numpy()
        cov = parcels["coverage"].to_numpy(dtype=float) if "coverage" in parcels else np.zeros(len(parcels))
        mins = dict(min_area or {})
        rows = [(i, t) for i in np.flatnonzero(is_cand) for t in TYPES if area[i] >= mins.get(t, 0.0)]
        if not rows:
            raise InputError("no candidate parcel is large enough for any land-use type")
        ri = np.array([r[0] for r in rows])
        cands = pd.DataFrame({
            "face_id": pid[ri], "type": [r[1] for r in rows], "face_area": area[ri].round(1),
            "dev_area": area[ri].round(1), "coverage": cov[ri].round(3), "x": xy[ri, 0].round(2),
            "y": xy[ri, 1].round(2), "wkt": parcels.geometry.iloc[ri].to_wkt().to_numpy(),
        })
        res = (ptype == "residential").to_numpy()
        units = {"id": [str(p) for p in pid[res]], "xy": xy[res].round(2).tolist(),
                 "w_service": [1.0] * int(res.sum()), "w_ecology": area[res].round(1).tolist()}
        fixed = ~is_cand
        existing = {k: v.round(2).tolist() for k, v in facilities_by_kind(ptype[fixed], xy[fixed]).items()}
        green = fixed & ptype.isin(GREEN_TYPES).to_numpy() & (area >= GREEN_MIN_AREA)
        existing["green"] = xy[green].round(2).tolist()
        need = {t: int(need_config.get(t, 0)) for t in TYPES}
        crs = crs or (parcels.crs.to_string() if parcels.crs is not None else "LOCAL_METRIC")
        m = {"source": "parcels", "demand_units": int(res.sum()), **(meta or {})}
        return cls._assemble(instance_id, cands, units, existing, need, budget, budget_factor, max_select, crs, m, "p")

    @classmethod
    def _assemble(cls, instance_id: str, cands: pd.DataFrame, units: dict, existing: dict,
                  need: dict[str, int] | None, budget: float | None, budget_factor: float,
                  max_select: int | None, crs: str, meta: dict, id_prefix: str) -> "LandAllocation":
        """Shared tail of ``build`` and ``from_parcels``: ids, groups, costs, need, budget, data.

        ``cands`` has face_id, type, dev_area, coverage, x, y, wkt (+ informative columns)."""
        cands = cands.assign(_t=cands["type"].map(TYPES.index)).sort_values(["face_id", "_t"])
        cands = cands.reset_index(drop=True)
        rate = cands["type"].map(BUILD_RATE).to_numpy() + LAND_RATE
        cost = (cands["dev_area"].to_numpy() * rate * (1.0 + REDEVELOPMENT * cands["coverage"].to_numpy())).round(1)
        green = cands["type"].isin(GREEN_TYPES) & (cands["dev_area"] >= GREEN_MIN_AREA)
        kind = np.where(green, "ecology", cands["type"].map(SERVICE_KIND).fillna("").to_numpy())
        ids = [f"{id_prefix}{f}-{t}" for f, t in zip(cands["face_id"], cands["type"])]
        out = pd.DataFrame({"id": ids, "cost": cost, "group": pd.factorize(cands["face_id"], sort=True)[0]})
        out = pd.concat([out, cands.drop(columns=["_t", "wkt"]).assign(kind=kind), cands[["wkt"]]], axis=1)
        if need is None:
            need = _derive_need(out, units, existing)
        n_vec = np.array([need.get(t, 0) for t in TYPES])
        if budget is None:
            full = sum(float(np.sort(cost[cands["_t"].to_numpy() == k])[:n].sum()) for k, n in enumerate(n_vec))
            budget = round(budget_factor * full, 1)
        if max_select is None:
            max_select = int(n_vec.sum() + max(2, math.ceil(0.2 * n_vec.sum())))
        data = {"types": list(TYPES), "need": {t: int(n) for t, n in zip(TYPES, n_vec)},
                "cand_type": cands["_t"].astype(int).tolist(), "cand_xy": cands[["x", "y"]].to_numpy().tolist(),
                "cand_area": cands["dev_area"].astype(float).tolist(), "units": units, "existing": existing,
                "service_radius": SERVICE_RADIUS, "ecology_radius": ECOLOGY_RADIUS, "green_min_area": GREEN_MIN_AREA}
        meta = {**meta, "need_config": data["need"], "candidates": len(out)}
        inst = cls(instance_id, out, budget, max_select, crs, meta, data)
        inst._add_effects()
        return inst

    def _add_effects(self) -> None:
        """Estimated effects columns: demand units (and weight share) a candidate alone would
        newly serve for its kind, given the existing facilities."""
        new = self.cover & (self.existing[np.maximum(self.ckind, 0)] == 0)
        self.candidates["new_units"] = new.sum(axis=1)
        w = self.W[np.maximum(self.ckind, 0)] * 6.0
        self.candidates["new_share"] = (new * w).sum(axis=1).round(4)
        # keep wkt last: it is the geometry column of the layer
        self.candidates = self.candidates[[c for c in self.candidates if c != "wkt"] + ["wkt"]]


# ---------------------------------------------------------------- generation helpers
def _type_name(v: str | int) -> str:
    """A land-use type name from a name or a participation code."""
    return v.lower() if isinstance(v, str) else TYPE_CODES.get(int(v), str(v))


def _candidate_pool(faces: gpd.GeoDataFrame, target: int) -> tuple[pd.DataFrame, dict[int, str]]:
    """(face_id, type) pairs on eligible faces, and why each face is eligible.

    Eligible: area ≥ the smallest type's minimum, not a built-up high-demand face, and vacant
    / low coverage / redevelopable landuse / large but underused. When these give fewer than
    ``target`` pairs, the least covered other faces are added until the target is reached."""
    area = faces["area"].to_numpy(dtype=float)
    cov = faces["coverage"].to_numpy(dtype=float)
    far = faces["floor_area"].to_numpy(dtype=float) / area
    ok = (area >= MIN_FACE_AREA) & ~((faces["demand"].to_numpy() >= HIGH_DEMAND) & (cov >= LOW_COVERAGE))
    reason = np.select(
        [faces["vacant"].to_numpy(dtype=bool), cov < LOW_COVERAGE, faces["landuse"].isin(REDEV_LANDUSE).to_numpy(),
         (area >= UNDERUSED_AREA) & (far < UNDERUSED_FAR)],
        ["vacant", "low_coverage", "landuse", "underused"], "")
    core = ok & (reason != "")
    extra = np.flatnonzero(ok & ~core)
    extra = extra[np.lexsort((faces.index.to_numpy()[extra], cov[extra]))]
    fits = {t: area >= MIN_AREA[t] for t in TYPES}
    n_pairs = sum(fits[t].astype(int) for t in TYPES)
    chosen = list(np.flatnonzero(core))
    total = int(n_pairs[chosen].sum())
    for i in extra:
        if total >= target:
            break
        chosen.append(int(i))
        reason[i] = "extension"
        total += int(n_pairs[i])
    rows = [(int(faces.index[i]), t) for i in sorted(chosen) for t in TYPES if fits[t][i]]
    return (pd.DataFrame(rows, columns=["face_id", "type"]),
            {int(faces.index[i]): str(reason[i]) for i in chosen})


def _derive_need(cands: pd.DataFrame, units: dict, existing: dict) -> dict[str, int]:
    """need_config from the candidates and the demand: Σ n_t = 40 % of the candidate faces,
    split by D'Hondt over weights NEED_BASE[t] · (0.5 + unserved demand share of t's kind),
    never more than the candidates of type t."""
    uxy = np.asarray(units["xy"], dtype=float).reshape(-1, 2)
    w = np.asarray(units["w_service"], dtype=float)
    served = np.c_[service_coverage(uxy, {k: np.asarray(v) for k, v in existing.items() if k in KINDS}),
                   within(uxy, np.asarray(existing.get("green", []), dtype=float).reshape(-1, 2),
                          ECOLOGY_RADIUS).any(axis=1)]
    share = (w @ served) / w.sum() if w.sum() > 0 else np.ones(len(KINDS) + 1)
    row = {t: (KINDS.index(SERVICE_KIND[t]) if t in SERVICE_KIND else ECOLOGY) for t in TYPES}
    weight = np.array([NEED_BASE[t] * (1.5 - share[row[t]]) for t in TYPES])
    avail = cands["type"].value_counts().reindex(list(TYPES), fill_value=0).to_numpy()
    total = min(max(1, round(NEED_SHARE * cands["face_id"].nunique())), int(avail.sum()))
    n = np.zeros(len(TYPES), dtype=int)
    for _ in range(total):
        q = np.where(n < avail, weight / (n + 1), -1.0)
        n[int(np.argmax(q))] += 1
    return {t: int(k) for t, k in zip(TYPES, n)}


# ---------------------------------------------------------------- incremental state
class LandState(SearchState):
    """Aggregates: cnt[k, u] = existing + selected facilities of kind row k serving unit u;
    c[t] = selected count of type t. Every gain is O(units touched by the candidate)."""

    inst: LandAllocation

    def __init__(self, inst: LandAllocation, mask: np.ndarray | None = None):
        super().__init__(inst, mask)
        self.c = np.bincount(inst.ctype[self.mask], minlength=len(inst.types)).astype(np.int64)
        self.cnt = inst.existing.copy()
        for i in np.flatnonzero(self.mask & (inst.ckind >= 0)):
            self.cnt[inst.ckind[i], inst.cover_idx[i]] += 1
        self.dups = int(np.maximum(self._group_used - 1, 0).sum())

    @property
    def score(self) -> float:
        inst = self.inst
        return inst._terms(self.c, self.cnt > 0, self.cost, self.dups)["S"]

    # per-move pieces: count terms (R, overbuild), duplicates, coverage, cost
    def _d_count(self, t: int, delta: int) -> float:
        inst = self.inst
        c, n = self.c[t], inst.need[t]
        def f(x: int) -> float:
            return W_R * min(x, n) - W_V * max(0, x - n)
        return (f(c + delta) - f(c)) / inst.n_need

    def _d_dup(self, g: int, delta: int) -> float:
        if g < 0:
            return 0.0
        u = int(self._group_used[g])
        return -W_V * (max(0, u + delta - 1) - max(0, u - 1)) / self.inst.n_need

    def _d_cover(self, i: int, delta: int) -> float:
        inst = self.inst
        k = inst.ckind[i]
        if k < 0:
            return 0.0
        idx = inst.cover_idx[i]
        hit = self.cnt[k, idx] == (0 if delta > 0 else 1)
        return delta * W_A * float(inst.W[k, idx[hit]].sum())

    def gain_add(self, i: int) -> float:
        inst = self.inst
        return (self._d_count(inst.ctype[i], 1) + self._d_dup(inst.group[i], 1) + self._d_cover(i, 1)
                - W_RHO * inst.cost[i] / inst.budget)

    def gain_remove(self, i: int) -> float:
        inst = self.inst
        return (self._d_count(inst.ctype[i], -1) + self._d_dup(inst.group[i], -1) + self._d_cover(i, -1)
                + W_RHO * inst.cost[i] / inst.budget)

    def gain_swap(self, out: int, inn: int) -> float:
        inst = self.inst
        g = W_RHO * (inst.cost[out] - inst.cost[inn]) / inst.budget
        if inst.ctype[out] != inst.ctype[inn]:
            g += self._d_count(inst.ctype[out], -1) + self._d_count(inst.ctype[inn], 1)
        if inst.group[out] != inst.group[inn]:
            g += self._d_dup(inst.group[out], -1) + self._d_dup(inst.group[inn], 1)
        k = inst.ckind[out]
        if k < 0 or k != inst.ckind[inn]:
            return g + self._d_cover(out, -1) + self._d_cover(inn, 1)
        # same kind row: a unit covered by both keeps its count
        io, ii = inst.cover_idx[out], inst.cover_idx[inn]
        lost = io[(self.cnt[k, io] == 1) & ~inst.cover[inn, io]]
        won = ii[self.cnt[k, ii] == 0]
        return g + W_A * float(inst.W[k, won].sum() - inst.W[k, lost].sum())

    def add(self, i: int) -> None:
        inst = self.inst
        g = inst.group[i]
        if g >= 0 and self._group_used[g] >= 1:
            self.dups += 1
        super().add(i)
        self.c[inst.ctype[i]] += 1
        if inst.ckind[i] >= 0:
            self.cnt[inst.ckind[i], inst.cover_idx[i]] += 1

    def remove(self, i: int) -> None:
        inst = self.inst
        g = inst.group[i]
        if g >= 0 and self._group_used[g] >= 2:
            self.dups -= 1
        super().remove(i)
        self.c[inst.ctype[i]] -= 1
        if inst.ckind[i] >= 0:
            self.cnt[inst.ckind[i], inst.cover_idx[i]] -= 1
