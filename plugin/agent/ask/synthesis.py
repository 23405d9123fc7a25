"""Evidence-aligned synthesis: Clean, Align, Verify (REFERENCE.md §3).

The draft is written deterministically from successful observations, one fact per line, so
it is supported by construction. A model rewrite is kept sentence by sentence only when every
number in the sentence appears in the evidence (observation values or the request, within
rounding); process narration and follow-up offers are cleaned out; facts of the draft that
the rewrite lost are appended; limitations are stated, never filled in.
"""
from __future__ import annotations

import re
from typing import Any, Iterable

from ..tools import Observation

NUMBER = re.compile(r"(?<![\w.])-?\d+(?:[.,]\d+)?")
NARRATION = re.compile(r"\b(I (?:will|called|used|have|am|'ll)|let me|tool|observation|would you like|feel free|"
                       r"let me know|as an ai)\b", re.I)


def _label(p: dict[str, Any]) -> str:
    return p.get("name") or f"an unnamed {p.get('category', 'feature')} ({p.get('id')})"


def fact_lines(obs: Observation) -> list[str]:
    """The facts one successful observation supports, as plain sentences."""
    r, a = obs.result or {}, obs.params
    if obs.tool == "region_summary":
        cats = ", ".join(f"{n} {c}" for c, n in r["pois_by_category"].items() if n)
        return [f"{r['region']} has {r['faces']} blocks, {r['roads']} road segments ({r['road_km']} km), "
                f"{r['buildings']} buildings and about {r['demand']:.0f} residents.",
                f"Points of interest in {r['region']}: {cats}."]
    if obs.tool == "find_features":
        what = a.get("category") or f"feature(s) matching '{a.get('name')}'"
        names = sorted({f["name"] for f in r["features"] if f["name"]})[:5]
        return [f"{r['count']} {what} found in {r['region']}" + (f", e.g. {', '.join(names)}." if names else ".")]
    if obs.tool == "nearest_facility":
        n = r["nearest"]
        return [f"The nearest {r['category']} to {_label(r['origin'])} is {_label(n)}: "
                f"{n['network_distance_m']} m by road ({n['straight_distance_m']} m straight)."]
    if obs.tool == "route":
        via = f" via {', '.join(r['streets'][:6])}" if r["streets"] else ""
        return [f"The road route from {_label(r['origin'])} to {_label(r['destination'])} is "
                f"{r['network_distance_m']} m{via} ({r['straight_distance_m']} m straight)."]
    if obs.tool == "within_distance":
        cats = ", ".join(f"{n} {c}" for c, n in r["by_category"].items())
        return [f"{r['count']} {a.get('category') or 'points of interest'} lie within {r['radius_m']:g} m of "
                f"{_label(r['center'])} ({cats})."]
    if obs.tool == "build_instance":
        return [f"Instance {r['instance_id']} (workspace {r['workspace']}): {r['candidates']} candidates, "
                f"budget {r['budget']} k€, at most {r['step_limit']} selections."]
    if obs.tool in ("solve_plan", "evaluate_plan"):
        who = f"The {r['method']} solver's plan" if obs.tool == "solve_plan" else "The evaluated plan"
        state = "valid" if r["valid"] else "invalid (" + "; ".join(r["errors"][:2]) + ")"
        return [f"{who} selects {r['selected']} candidates and is {state} with score {r['score']}."]
    if obs.tool == "participation_metrics":
        return [f"Over {r['residential_parcels']} residential parcels, Service is {r['service']} and "
                f"Ecology is {r['ecology']}."]
    return []


def numbers_in(obj: Any) -> set[float]:
    """Every number in a JSON value (strings included: a street named '… 3' counts)."""
    out: set[float] = set()
    if isinstance(obj, bool):
        return out
    if isinstance(obj, (int, float)):
        out.add(float(obj))
    elif isinstance(obj, str):
        out.update(float(m.replace(",", ".")) for m in NUMBER.findall(obj))
    elif isinstance(obj, dict):
        for v in obj.values():
            out |= numbers_in(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            out |= numbers_in(v)
    return out


def supported(value: float, evidence: set[float]) -> bool:
    """True when ``value`` is an evidence number as written, rounded, or in km for metres."""
    for e in evidence:
        for cand in (e, e / 1000.0):
            if abs(value - cand) <= max(0.5 * 10 ** -_decimals(value), 1e-9) or \
                    (cand and abs(value - cand) / abs(cand) < 0.005):
                return True
    return False


def _decimals(v: float) -> int:
    s = repr(v).rstrip("0").rstrip(".")
    return len(s.split(".")[1]) if "." in s else 0


def sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n+", text or "") if s.strip()]


def verify(text: str, evidence: set[float], evidence_text: str = "",
           known_names: Iterable[str] = ()) -> tuple[list[str], list[str]]:
    """(kept sentences, dropped sentences with the reason) of a model rewrite.

    A sentence is dropped for process narration, for a number not in ``evidence``, or for
    naming a known place (``known_names``, casefolded) absent from ``evidence_text``."""
    kept, dropped = [], []
    low_evidence = evidence_text.casefold()
    for s in sentences(text):
        if NARRATION.search(s):
            dropped.append(f"process narration: {s}")
            continue
        bad = [n for n in NUMBER.findall(s) if not supported(float(n.replace(",", ".")), evidence)]
        alien = [n for n in known_names if re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", s.casefold())
                 and n not in low_evidence]
        if alien:
            dropped.append(f"place not in the observations ({', '.join(alien[:3])}): {s}")
        elif bad:
            dropped.append(f"unsupported number(s) {', '.join(bad)}: {s}")
        else:
            kept.append(s)
    return kept, dropped


def compose(kept: list[str], draft: list[str], limitations: Iterable[str]) -> str:
    """Rewrite sentences first, then every draft fact whose numbers the rewrite lost, then limits."""
    text = " ".join(kept)
    have = {float(n.replace(",", ".")) for n in NUMBER.findall(text)}
    extra = [d for d in draft if not {float(n.replace(",", ".")) for n in NUMBER.findall(d)} <= have or not kept]
    lines = ([text] if text else []) + extra + [f"Limitation: {x}" for x in limitations]
    return "\n".join(dict.fromkeys(lines))
