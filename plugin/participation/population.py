"""Residents: profiles from the editable tables in resources/participation, homes, view, needs.

Residents are spread over residential parcels in proportion to parcel area (their capacity)
and placed at a uniform random point inside their parcel. A resident sees the parcels whose
centroid lies within 500 m of home (the paper's 15-minute circle; the same centroid rule as
the metrics of docs/reference.md). Needs are 3–5 of the eight land-use types, fixed once per seed so that
every plan — before, after, each baseline — is scored against the same needs. Needs come
from the profile alone: ``missing_boost`` (default 1.0, i.e. none) can weigh types missing
from a resident's view higher, but any value other than 1 biases the needs toward what the
starting plan lacks — which a revision then "finds" — so it is off unless asked for.
A fresh population (``FRESH_SEED_OFFSET``) gives held-out residents of the same region.

Satisfaction (docs/reference.md#participatory-urban-planning) = mean over residents of the share of their needed types
whose nearest parcel of that type has its centroid within 500 m of home; Inclusion = the
same mean over vulnerable residents only.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import shapely

from .. import RESOURCES
from ..errors import InputError
from ..tasks.land import SERVICE_RADIUS, TYPES
from ..tasks.land.coverage import within_sparse

from .region import Region

PROFILE_DIR = RESOURCES / "participation"
DIMENSIONS = ("gender", "age", "education", "household")
MISSING_BOOST = 1.0      # weight of a type not in view (1.0: no bias toward the plan's gaps)
FRESH_SEED_OFFSET = 100_003   # seed offset of the held-out residents
NOISE_SIGMA = 0.35       # log-normal taste noise of the rule persona
MIN_NEEDS, MAX_NEEDS = 3, 5


@dataclass
class ProfileTable:
    """The two CSVs: attribute shares (+ group conditions) and need weights per trait."""

    shares: dict[str, tuple[list[str], np.ndarray]]          # dimension -> (values, probabilities)
    groups: list[tuple[str, float, list[tuple[str, set[str]]]]]  # (name, share, conditions)
    weights: dict[str, np.ndarray]                          # trait -> weight per TYPES

    @classmethod
    def load(cls, folder: str | Path | None = None) -> "ProfileTable":
        d = Path(folder) if folder else PROFILE_DIR
        rows, wrows = _read_csv(d / "profiles.csv"), _read_csv(d / "needs.csv")
        shares: dict[str, tuple[list[str], np.ndarray]] = {}
        groups = []
        for r in rows:
            dim, val, share = r["dimension"].strip(), r["value"].strip(), _float(r["share"], d / "profiles.csv")
            if dim == "group":
                conds = [(c.split("=", 1)[0].strip(), {v.strip() for v in c.split("=", 1)[1].split("|")})
                         for c in (r.get("requires") or "").split(";") if "=" in c]
                groups.append((val, share, conds))
            elif dim in DIMENSIONS:
                vals, p = shares.get(dim, ([], np.zeros(0)))
                shares[dim] = (vals + [val], np.append(p, share))
            else:
                raise InputError(f"profiles.csv: unknown dimension '{dim}' (use {', '.join(DIMENSIONS)}, group)")
        missing = [x for x in DIMENSIONS if x not in shares or shares[x][1].sum() <= 0]
        if missing:
            raise InputError(f"profiles.csv: no shares for {', '.join(missing)}")
        bad = [t for t in TYPES if wrows and t not in wrows[0]]
        if bad or not wrows:
            raise InputError(f"needs.csv: columns trait,{','.join(TYPES)} expected")
        weights = {r["trait"].strip(): np.array([_float(r[t], d / "needs.csv") for t in TYPES]) for r in wrows}
        return cls({k: (v, p / p.sum()) for k, (v, p) in shares.items()}, groups, weights)

    def sample(self, n: int, rng: np.random.Generator) -> pd.DataFrame:
        """n profiles: the four dimensions, ``groups`` (';'-joined) and ``vulnerable``."""
        df = pd.DataFrame({dim: rng.choice(vals, size=n, p=p) for dim, (vals, p) in self.shares.items()})
        member = []
        for name, share, conds in self.groups:
            ok = np.ones(n, dtype=bool)
            for dim, vals in conds:
                ok &= df[dim].isin(vals).to_numpy() if dim in df else False
            member.append((name, ok & (rng.random(n) < share)))
        df["groups"] = [";".join(name for name, m in member if m[i]) for i in range(n)]
        df["vulnerable"] = df["groups"] != ""
        return df

    def trait_weights(self, profile: pd.Series) -> np.ndarray:
        w = self.weights.get("base", np.zeros(len(TYPES))).copy()
        for dim in DIMENSIONS:
            w += self.weights.get(f"{dim}={profile[dim]}", 0.0)
        for g in filter(None, str(profile["groups"]).split(";")):
            w += self.weights.get(f"group={g}", 0.0)
        return np.maximum(w, 0.01)


def _read_csv(path: Path) -> list[dict[str, str]]:
    if not path.is_file():
        raise InputError(f"profile table missing: {path}")
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _float(v: str, path: Path) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        raise InputError(f"{path.name}: not a number: {v!r}") from None


@dataclass
class Population:
    """Residents of one region: homes, profiles, view and needs (R × 8 bool over TYPES)."""

    home: np.ndarray          # (R,) parcel row of the home
    xy: np.ndarray            # (R, 2) home point
    profiles: pd.DataFrame    # DIMENSIONS + groups + vulnerable
    near: Any                 # (R, P) sparse bool (CSR): parcel centroid within 500 m of home
    needs: np.ndarray         # (R, 8) bool: from the profile; what Satisfaction scores

    @property
    def n(self) -> int:
        return len(self.home)

    def near_row(self, i: int) -> np.ndarray:
        """(P,) bool: the parcels within 500 m of resident i's home."""
        out = np.zeros(self.near.shape[1], dtype=bool)
        out[self.near.indices[self.near.indptr[i]:self.near.indptr[i + 1]]] = True
        return out

    def near_any(self, parcels: np.ndarray) -> np.ndarray:
        """(R,) bool: some parcel of the mask ``parcels`` lies within 500 m of home."""
        return np.asarray(self.near @ np.asarray(parcels, dtype=np.int64)).ravel() > 0

    @property
    def vulnerable(self) -> np.ndarray:
        return self.profiles["vulnerable"].to_numpy(dtype=bool)

    def reach(self, plan: np.ndarray) -> np.ndarray:
        """(R, 8) bool: a parcel of each type lies within 500 m of home under ``plan``."""
        return np.stack([self.near_any(plan == t) for t in TYPES], axis=1)

    def satisfaction(self, plan: np.ndarray) -> np.ndarray:
        """Per resident: share of their needed types within reach."""
        k = self.needs.sum(axis=1)
        return np.where(k > 0, (self.needs & self.reach(plan)).sum(axis=1) / np.maximum(k, 1), 0.0)

    def describe(self, i: int) -> str:
        p = self.profiles.iloc[i]
        groups = str(p["groups"]).replace(";", ", ").replace("_", " ")
        return (f"{p['gender']}, aged {p['age']}, {p['education']} education, household of {p['household']}"
                + (f" ({groups})" if groups else ""))


def sample_population(region: Region, n: int, seed: int, table: ProfileTable | None = None,
                      missing_boost: float = MISSING_BOOST) -> Population:
    """n residents with rule-based needs (seeded); see the module docstring."""
    if n <= 0:
        raise InputError(f"--residents must be positive, got {n}")
    table = table or ProfileTable.load()
    rng = np.random.default_rng(seed)
    res = np.flatnonzero(region.residential)
    cap = region.area[res]
    counts = rng.multinomial(n, cap / cap.sum())
    home = np.repeat(res, counts)
    xy = np.vstack([_points_in(region.parcels.geometry.iloc[i], c, rng) for i, c in zip(res, counts) if c])
    profiles = table.sample(n, rng)
    near = within_sparse(xy, region.xy, SERVICE_RADIUS)   # sparse: residents × parcels grows large
    pop = Population(home, xy, profiles, near, np.zeros((n, len(TYPES)), dtype=bool))
    seen = pop.reach(region.plan0)
    for i in range(n):
        pop.needs[i] = rule_needs(table.trait_weights(profiles.iloc[i]), seen[i], seed, i, missing_boost)
    return pop


def rule_needs(weights: np.ndarray, in_view: np.ndarray, seed: int, resident: int,
               missing_boost: float = MISSING_BOOST) -> np.ndarray:
    """The rule-based persona: 3–5 types with the highest profile weight × missing boost ×
    noise; the noise stream depends only on (seed, resident), so needs are stable."""
    rng = np.random.default_rng([seed, resident])
    k = int(rng.integers(MIN_NEEDS, MAX_NEEDS + 1))
    score = weights * np.where(in_view, 1.0, missing_boost) * np.exp(rng.normal(0.0, NOISE_SIGMA, len(weights)))
    out = np.zeros(len(weights), dtype=bool)
    out[np.argsort(-score, kind="stable")[:k]] = True
    return out


def _points_in(poly, n: int, rng: np.random.Generator) -> np.ndarray:
    """n uniform points inside ``poly`` by rejection from its bounding box."""
    x0, y0, x1, y1 = poly.bounds
    out = np.zeros((0, 2))
    for _ in range(100):
        cand = rng.uniform([x0, y0], [x1, y1], size=(max(2 * n, 16), 2))
        out = np.vstack([out, cand[shapely.contains_xy(poly, cand[:, 0], cand[:, 1])]])
        if len(out) >= n:
            return out[:n]
    c = poly.representative_point()  # degenerate sliver: everyone at one inner point
    return np.tile([c.x, c.y], (n, 1))
