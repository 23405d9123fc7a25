"""The planning program of a participatory revision: type quotas and site rules.

A revision may only produce plans a planner could adopt, so every planner — ours, the LLM's
and the four baselines — works under one ``Program``:

* **Quotas** (parcels per land-use type, over the whole region). Taken, in this order, from
  the user's ``--need`` / NEED counts, from the region's objectives file (the ``count`` table
  of the DRL ``objectives_<region>.yaml`` beside the parcel file, or ``--objectives``), else
  from the layer's current plan. Types a source does not list keep their current count, and
  ``green_s`` — absent from the DRL objectives, where leftover land becomes small green —
  takes the parcels the other quotas leave. A vacant layer (only residential and feasible
  parcels) has no current plan to copy: its quotas are derived from the HLG program's shares
  (``VACANT_SHARES``) and the result says so.
* **Band**: a revision never moves a type's count away from its quota; with the default
  ``deviation`` 0 a plan that meets its quotas keeps meeting them exactly.
* **Site rules**: a parcel may newly take a type only if it meets the type's minimum area
  (the objectives file's ``min_area`` when given, else the land task's site rule) and minimum
  width (``tasks.site_rules``: twice the radius of the largest inscribed circle). A parcel
  already of a type keeps it even when it is below the minimum (the status quo is not the
  revision's to fix).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import InputError
from ..parcels.landuse_map import parse_need as read_need
from ..tasks.land import TYPES
from ..tasks.site_rules import SITE_RULES, site_width
from .region import Region

#: the HLG program (objectives_hlg.yaml counts; green_s = the 12 parcels left over of 42)
VACANT_SHARES = {"business": 4, "office": 6, "green_l": 2, "green_s": 12, "school": 6, "hospital_l": 2,
                 "hospital_s": 4, "recreation": 6}
PLANNED = TYPES + ("feasible",)


@dataclass
class Program:
    quota: dict[str, int]                  # parcels per type over the region (TYPES + feasible)
    min_area: dict[str, float]             # m², per type
    min_width: dict[str, float]            # m, per type
    source: str                            # where the quotas came from (said in every result)
    deviation: int = 0                     # allowed distance from the quota band
    notes: list[str] = field(default_factory=list)

    def band(self, current: dict[str, int]) -> dict[str, tuple[int, int]]:
        """(lo, hi) count per type: never further from the quota than now (± deviation)."""
        return {t: (max(0, min(q, current.get(t, 0)) - self.deviation), max(q, current.get(t, 0)) + self.deviation)
                for t, q in self.quota.items()}

    def fits(self, region: Region) -> np.ndarray:
        """(parcels, len(PLANNED)) bool: the parcel meets the type's minimum area and width."""
        area = np.array([self.min_area.get(t, 0.0) for t in PLANNED])
        width = np.array([self.min_width.get(t, 0.0) for t in PLANNED])
        w = site_width(region.parcels.geometry.to_numpy())
        return (region.area[:, None] >= area[None, :] - 1e-6) & (w[:, None] >= width[None, :] - 1e-6)

    def to_json(self) -> dict:
        return {"quota": self.quota, "min_area": self.min_area, "min_width": self.min_width, "source": self.source,
                "deviation": self.deviation, "notes": self.notes}


def parse_need(text: str | None) -> dict[str, int] | None:
    """``"school=2,green_s=1"`` → {"school": 2, "green_s": 1} (``parcels.landuse_map``'s
    reading); None for an empty text (the quotas then come from the next source)."""
    return read_need(text) or None


def counts(plan: np.ndarray, mask: np.ndarray | None = None) -> dict[str, int]:
    sel = plan if mask is None else plan[mask]
    return {t: int((sel == t).sum()) for t in PLANNED}


def read_objectives(path: str | Path) -> tuple[dict[str, int], dict[str, float]]:
    """(count, min_area) of a DRL objectives YAML (other keys ignored)."""
    import yaml  # QGIS ships PyYAML; only needed when an objectives file is used

    try:
        doc = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
        count = doc.get("objectives", {}).get("count", {}) or {}
        min_area = doc.get("constraints", {}).get("min_area", {}) or {}
        return ({str(k): int(v) for k, v in count.items() if k in TYPES},
                {str(k): float(v) for k, v in min_area.items() if k in TYPES})
    except (OSError, ValueError, TypeError, AttributeError, yaml.YAMLError) as e:
        raise InputError(f"cannot read objectives {Path(path).name}: {str(e).splitlines()[0]}") from None


def sibling_objectives(parcels_path: str | Path | None) -> Path | None:
    """``objectives_<stem>.yaml`` next to the parcel file (the DRL sample layout), if any."""
    if not parcels_path:
        return None
    p = Path(parcels_path)
    cand = p.with_name(f"objectives_{p.stem}.yaml")
    return cand if cand.is_file() else None


def make_program(region: Region, need: dict[str, int] | None = None, objectives: str | Path | None = None,
                 deviation: int = 0) -> Program:
    """The region's Program (see the module docstring for the order of sources)."""
    plan = region.plan0
    n_plan = int(region.plannable.sum())
    current = counts(plan, region.plannable)
    min_area = {t: r.min_area for t, r in SITE_RULES.items()}
    notes: list[str] = []
    vacant = all(current[t] == 0 for t in TYPES)
    if need:
        bad = [t for t in need if t not in TYPES]
        if bad:
            raise InputError(f"unknown type in need: {', '.join(bad)} (types: {', '.join(TYPES)})")
        given, source = {t: int(v) for t, v in need.items()}, "need"
    elif objectives:
        given, file_min = read_objectives(objectives)
        min_area.update(file_min)
        source = f"objectives file {Path(objectives).name}"
    elif vacant:
        total = sum(VACANT_SHARES.values())
        given = {t: int(round(n_plan * s / total)) for t, s in VACANT_SHARES.items() if t != "green_s"}
        source = "derived: the HLG program's shares scaled to the layer's plannable parcels"
    else:
        given, source = {t: current[t] for t in TYPES}, "the layer's current plan"
    if any(v < 0 for v in given.values()):
        raise InputError("need counts must not be negative")
    quota = {t: given.get(t, 0 if vacant else current[t]) for t in TYPES if t != "green_s"}
    rest = n_plan - sum(quota.values())
    if rest < 0:
        raise InputError(f"the quotas ask for {sum(quota.values())} facility parcels but the layer has only "
                         f"{n_plan} plannable parcels")
    if "green_s" in given:
        quota["green_s"] = min(given["green_s"], rest)
        if given["green_s"] > rest:
            notes.append(f"green_s quota cut from {given['green_s']} to the {rest} parcels left")
    elif vacant or objectives and not need:   # the DRL convention: leftover land becomes small green
        quota["green_s"] = rest
    else:
        quota["green_s"] = min(current["green_s"], rest)
    quota["feasible"] = n_plan - sum(quota[t] for t in TYPES)
    if sum(quota.values()) == quota["feasible"]:
        raise InputError("the quotas ask for no facility at all: give --need, e.g. --need school=2,green_s=1")
    return Program(quota, min_area, {t: r.min_width for t, r in SITE_RULES.items()}, source, int(deviation), notes)
