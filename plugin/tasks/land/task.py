"""The land allocation instance: preparation of the coverage arrays and scoring.

Building an instance lives next to this module, one way per module: ``sampler`` (the paper's
sized samples of a City), ``layers`` (a planner's parcel layer); ``assemble`` is their
shared tail."""
from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import InputError
from ..base import BUILD_SIZES, Instance, check_mode
from .constants import ECOLOGY, GREEN_TYPES, KINDS, SERVICE_KIND, W_A, W_R, W_RHO, W_V
from .coverage import BLOCK_CELLS, within_count, within_sparse
from .layers import from_parcels
from .sampler import sample_city
from .search import LandState


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
          distance centroid-to-centroid (an approximation of the Ecology rule's buffer-of-polygon
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
        self.cover = _cover(cxy, uxy, self.ckind, d["ecology_radius"], d["service_radius"])
        # per candidate, the units it serves: views into the CSR arrays, no copy
        ind, ptr = self.cover.indices, self.cover.indptr
        self.cover_idx = [ind[ptr[i]:ptr[i + 1]] for i in range(len(cxy))]
        # existing service per (kind row, unit): counts of existing facilities in range
        ex = d["existing"]
        self.existing = np.zeros((len(KINDS) + 1, len(uxy)), dtype=np.int64)
        for k, name in enumerate(KINDS):
            self.existing[k] = within_count(uxy, np.asarray(ex.get(name, []), dtype=float).reshape(-1, 2),
                                            d["service_radius"])
        self.existing[ECOLOGY] = within_count(uxy, np.asarray(ex.get("green", []), dtype=float).reshape(-1, 2),
                                              d["ecology_radius"])
        ws = np.asarray(units["w_service"], dtype=float)
        we = np.asarray(units["w_ecology"], dtype=float)
        # A = Σ_k Σ_u W[k,u]·[served]: service rows share ws/(6Σws), ecology row we/(6Σwe)
        self.W = np.zeros((len(KINDS) + 1, len(uxy)))
        if ws.sum() > 0:
            self.W[:ECOLOGY] = ws / (6.0 * ws.sum())
        if we.sum() > 0:
            self.W[ECOLOGY] = we / (6.0 * we.sum())

    def reach(self, rows: np.ndarray) -> np.ndarray:
        """(units,) bool: units that some candidate of ``rows`` (a bool mask) covers."""
        out = np.zeros(self.cover.shape[1], dtype=bool)
        out[self.cover[np.flatnonzero(rows)].indices] = True
        return out

    def why_chosen(self, mask: np.ndarray, rows: np.ndarray) -> str:
        """Why the candidates ``rows`` (one type, selected in ``mask``) are in the plan, in their
        own terms: the demand within reach of them and of no other facility of their kind
        (existing or selected) — the access (or ecology) they alone add — with its weight in
        the score. A type with no such demand is said to add nothing of its own."""
        mask = np.asarray(mask, dtype=bool)
        rows = np.asarray(rows, dtype=np.int64)
        k = int(self.ckind[rows[0]]) if len(rows) else -1
        if k < 0:
            return "it serves no demand (too small to count as green), so only its cost and the over-need penalty count"
        others = mask & (self.ckind == k)
        others[rows] = False
        chosen = np.zeros(len(mask), dtype=bool)
        chosen[rows] = True
        alone = self.reach(chosen) & (self.existing[k] == 0) & ~self.reach(others)
        units = self.data["units"]
        weight = np.asarray(units["w_ecology" if k == ECOLOGY else "w_service"], dtype=float)
        radius = self.data["ecology_radius" if k == ECOLOGY else "service_radius"]
        what = "green space" if k == ECOLOGY else KINDS[k]
        it, brings = ("it", "brings") if len(rows) == 1 else ("they", "bring")
        share = float(weight[alone].sum() / weight.sum()) if weight.sum() > 0 else 0.0
        if not alone.any():
            return f"every demand unit {it} reach{'es' if it == 'it' else ''} already has {what} within {radius:g} m, " \
                   f"so {it} add{'s' if it == 'it' else ''} no access of {'its' if it == 'it' else 'their'} own"
        return (f"{it} {brings} {what} within {radius:g} m of {int(alone.sum())} of {len(weight)} demand units that "
                f"nothing else reaches ({100 * share:.1f} % of the {'ecology' if k == ECOLOGY else 'service'} "
                f"demand; access +{W_A * float((self.W[k] * alone).sum()):.4f} to the score)")

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
                served[k] |= self.reach(sel)
        used = np.bincount(self.group[mask & (self.group >= 0)], minlength=self.n_groups)
        dups = int(np.maximum(used - 1, 0).sum())
        terms = self._terms(counts, served, float(self.cost[mask].sum()), dups)
        warnings = [f"overbuilt {t}: {c} selected, need {n}"
                    for t, c, n in zip(self.types, counts, self.need, strict=True) if c > n]
        s = terms.pop("S")
        return s, terms, warnings

    def state(self, mask: np.ndarray | None = None) -> LandState:
        return LandState(self, mask)

    # ------------------------------------------------------------------ construction
    @classmethod
    def build(cls, city, size: str = "small", seed: int = 0, budget: float | None = None,
              mode: str = "benchmark", **params: Any) -> LandAllocation:
        """From a City: candidates on vacant/redevelopable faces, demand on residential faces
        (``sampler.sample_city``); plan mode measures vacancy (``sampler`` docstring)."""
        if size not in BUILD_SIZES:
            raise InputError(f"unknown size '{size}' (choose {', '.join(BUILD_SIZES)})")
        return sample_city(cls, city, size, seed, budget, mode=check_mode(mode), **params)

    from_parcels = classmethod(from_parcels)

    def _add_effects(self) -> None:
        """Estimated effects columns: demand units (and weight share) a candidate alone would
        newly serve for its kind, given the existing facilities."""
        n_units = self.cover.shape[1]
        new_units = np.zeros(self.n, dtype=np.int64)
        new_share = np.zeros(self.n)
        # dense rows a block at a time: the same sums (over whole rows, zeros included) as one
        # (candidates × units) matrix, which took GBs on 20,000 parcels
        step = max(1, BLOCK_CELLS // max(n_units, 1))
        for a in range(0, self.n, step):
            k = np.maximum(self.ckind[a:a + step], 0)
            new = self.cover[a:a + step].toarray() & (self.existing[k] == 0)
            new_units[a:a + step] = new.sum(axis=1)
            new_share[a:a + step] = (new * (self.W[k] * 6.0)).sum(axis=1)
        self.candidates["new_units"] = new_units
        self.candidates["new_share"] = new_share.round(4)
        # keep wkt last: it is the geometry column of the layer
        self.candidates = self.candidates[[c for c in self.candidates if c != "wkt"] + ["wkt"]]


def _cover(cxy: np.ndarray, uxy: np.ndarray, ckind: np.ndarray, eco_radius: float, service_radius: float):
    """(candidates, units) CSR bool: the candidate (of a kind row ≥ 0) has its centroid within its
    kind's radius of the unit's centroid (``within_sparse``). The relation is computed once per
    distinct (point, radius) — the types of one face share it — then given to each candidate."""
    from scipy.sparse import csr_matrix, vstack

    radius = np.where(ckind == ECOLOGY, eco_radius, service_radius)
    key = np.full(len(cxy), -1, dtype=np.int64)
    parts, offset = [], 0
    for r in np.unique(radius[ckind >= 0]):
        rows = np.flatnonzero((radius == r) & (ckind >= 0))
        pts, inv = np.unique(cxy[rows], axis=0, return_inverse=True)
        parts.append(within_sparse(pts, uxy, float(r)))
        key[rows] = offset + inv.ravel()
        offset += len(pts)
    parts.append(csr_matrix((1, len(uxy)), dtype=bool))   # the empty row of candidates without a kind
    key[key < 0] = offset
    return vstack(parts, format="csr")[key]
