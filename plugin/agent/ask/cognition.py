"""Cognition: a request becomes a structured task U = ⟨intent, entities, hard, soft, missing⟩.

The slot extractor is deterministic (region names, numbers with units, task keywords, named
features of the bundled regions) and alone decides what is missing, so "ask before acting"
never depends on the model; the model (when given) only proposes an intent the rules could
not find and free-text soft preferences. A request is split into goals, each one intent with
its own slots; a later goal may consume an earlier one's result (``"$nearest"``).
"""
from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from typing import Any

#: request words -> POI category (first match wins: "charging station" before "station")
CATEGORY_WORDS = (
    ("charging", r"charging|chargers?|\bev\b"), ("fuel", r"fuel|petrol|gas station"),
    ("school", r"schools?|koulu"), ("hospital", r"hospitals?"), ("clinic", r"clinics?|health cent(?:re|er)"),
    ("parking", r"parking|car parks?"), ("green", r"parks?\b|green|gardens?"),
    ("office", r"offices?"), ("recreation", r"recreation|sports?|playgrounds?|theat(?:re|er)s?"),
    ("business", r"shops?|stores?|restaurants?|caf[eé]s?|business(?:es)?|malls?"),
)
TASK_WORDS = (("station", r"charging|chargers?|\bev\b|stations?"), ("land", r"land[- ]use|allocat|parcels?"),
              ("road", r"roads?|streets?|connect"))
INTENTS = ("summary", "find", "nearest", "route", "within", "compare", "plan", "participation")
PLAN_RE = r"where should|\bnew\b|\bplan\b|\bplace (?:new|more)|allocate|\bsite\b|build (?:a|an) .*instance"
NUM = r"(\d+(?:[.,]\d+)?)"


@dataclass
class Goal:
    intent: str
    slots: dict[str, Any] = field(default_factory=dict)
    condition: dict[str, Any] | None = None   # {"on": intent, "field", "op", "value"}


@dataclass
class Task:
    request: str
    intent: str
    region: str | None
    goals: list[Goal]
    entities: dict[str, Any]
    hard: list[str]
    soft: list[str]
    missing: list[str]
    sources: dict[str, str]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _number(text: str) -> float:
    return float(text.replace(",", "."))


def _category(text: str) -> str | None:
    hits = [(m.start(), cat) for cat, pat in CATEGORY_WORDS for m in re.finditer(pat, text)]
    return min(hits)[1] if hits else None


def find_places(text: str, names: dict[str, set[str]]) -> list[tuple[int, str, set[str]]]:
    """Known feature names in ``text``: (position, name, regions having it), longest first, no overlap."""
    low = text.casefold()
    found: list[tuple[int, int, str, set[str]]] = []
    for name in sorted(names, key=len, reverse=True):
        for m in re.finditer(r"(?<!\w)" + re.escape(name) + r"(?!\w)", low):
            if all(m.end() <= s or m.start() >= e for s, e, _, _ in found):
                found.append((m.start(), m.end(), name, names[name]))
    return [(s, n, r) for s, _, n, r in sorted(found)]


def extract(request: str, names: dict[str, set[str]], regions: tuple[str, ...],
            region: str | None = None) -> Task:
    """The deterministic part of cognition (see module docstring)."""
    low = request.casefold()
    src: dict[str, str] = {}
    ent: dict[str, Any] = {}
    said = [r for r in regions if re.search(r"(?<!\w)" + re.escape(r) + r"(?!\w)", low)]
    if region is None and len(said) == 1:
        region, src["region"] = said[0], "request"
    elif region is not None:
        src["region"] = "option"
    places = [(p, n, r) for p, n, r in find_places(request, names) if n not in regions]
    if region is None and places:
        common = set.intersection(*(r for _, _, r in places))
        if len(common) == 1:  # every named place exists in exactly this region: not a guess
            region, src["region"] = common.pop(), "place names"
    place_names = [n for _, n, _ in places]
    ent["places"] = place_names
    m = re.search(r"within\s+" + NUM + r"\s*(km|m)\b", low)
    radius = _number(m.group(1)) * (1000 if m and m.group(2) == "km" else 1) if m else None
    m = re.search(r"(?:more|farther|further|longer) than\s+" + NUM + r"\s*(km|m)\b", low)
    farther = _number(m.group(1)) * (1000 if m.group(2) == "km" else 1) if m else None
    m = (re.search(NUM + r"\s*(k€|keur|thousand euros?|€|eur|euros?)", low)
         or re.search(r"budget(?: of| is|:)?\s*(?:€\s*)?" + NUM + r"\s*(k)?", low))
    budget = None
    if m:
        unit = (m.group(2) or "").strip()
        budget = _number(m.group(1)) / (1000 if unit in ("€", "eur", "euro", "euros") else 1)
    m = re.search(r"\b[\w./-]+\.geojson\b", request)
    parcels = m.group(0) if m else None
    size = next((s for s in ("small", "medium", "large") if re.search(rf"\b{s}\b", low)), None)
    category = _category(low)
    ent.update({k: v for k, v in {"radius_m": radius, "budget": budget, "category": category,
                                  "parcels": parcels, "size": size, "farther_than_m": farther}.items()
                if v is not None})

    goals = _goals(low, ent, place_names, [_role(low, pos) for pos, _, _ in places])
    missing = _missing(goals, region, ent)
    hard = [f"{k} = {v}" for k, v in ent.items() if k in ("radius_m", "budget", "farther_than_m")]
    for k in ent:
        src.setdefault(k, "rules")
    intent = goals[0].intent if goals else "unknown"
    return Task(request, intent, region, goals, ent, hard, [], missing, src)


def _role(low: str, pos: int) -> str:
    """'from' / 'to' when the place follows that word (e.g. "closer by road to X"), else ''."""
    m = re.search(r"\b(from|to)\s+(?:the\s+)?$", low[:pos])
    return m.group(1) if m else ""


def _goals(low: str, ent: dict[str, Any], places: list[str], roles: list[str]) -> list[Goal]:
    cat = ent.get("category")
    to = [p for p, r in zip(places, roles) if r == "to"]
    not_to = [p for p, r in zip(places, roles) if r != "to"]
    goals: list[Goal] = []
    if ent.get("parcels") or re.search(r"participation|\bservice\b.*\becology\b|\becology\b", low):
        goals.append(Goal("participation", {"parcels": ent.get("parcels")}))
    if re.search(PLAN_RE, low) or ent.get("budget") is not None:
        task = next((t for t, pat in TASK_WORDS if re.search(pat, low)), None)
        goals.append(Goal("plan", {"task": task, "budget": ent.get("budget"), "size": ent.get("size", "small")}))
        return goals
    if re.search(r"\bwhich\b.*\bcloser\b|\bcloser\b.*\bor\b", low) and len(places) >= 3 and to:
        return goals + [Goal("compare", {"candidates": [p for p in places if p != to[0]], "target": to[0]})]
    if re.search(r"nearest|closest", low):
        goals.append(Goal("nearest", {"place": places[0] if places else None,
                                      "category": _clause_category(low, r"nearest|closest") or cat}))
    if ent.get("radius_m") is not None:
        goal = Goal("within", {"place": places[-1] if places else None, "radius_m": ent["radius_m"],
                               "category": _clause_category(low, r"within") or (None if goals else cat)})
        if ent.get("farther_than_m") is not None and goals:
            goal.condition = {"on": "nearest", "field": "network_distance_m", "op": ">",
                              "value": ent["farther_than_m"]}
        goals.append(goal)
    if re.search(r"\broute\b|how far|distance|\bdrive\b|\bget (?:from|to)\b", low) and \
            not (goals and goals[-1].intent == "within"):
        if any(g.intent == "nearest" for g in goals):
            goals.append(Goal("route", {"origin": places[0] if places else None, "destination": "$nearest"}))
        else:
            goals.append(Goal("route", {"origin": not_to[0] if not_to else None,
                                        "destination": to[0] if to else (not_to[1] if len(not_to) > 1 else None)}))
    if not goals and re.search(r"how many|\blist\b|\bfind\b|\bwhere (?:is|are)\b|\bshow\b", low):
        if re.search(r"residents|buildings|road km|kilometres of road|junctions|dead ends", low) and not cat:
            goals.append(Goal("summary", {}))
        else:
            goals.append(Goal("find", {"category": cat, "name": places[0] if places else None}))
    return goals


def _clause_category(low: str, word: str) -> str | None:
    """The category named in the clause that holds ``word`` (clauses split at and / , / then / if)."""
    clause = next((c for c in re.split(r"\band\b|,|;|\bthen\b|\bif\b", low) if re.search(word, c)), "")
    return _category(clause)


def _missing(goals: list[Goal], region: str | None, ent: dict[str, Any]) -> list[str]:
    """Task-defining inputs the request lacks (never filled in by assumption)."""
    if not goals:
        return ["what you want to know (a place query, a route or a plan)"]
    miss: list[str] = []
    needs = {"nearest": ("place", "category"), "route": ("origin", "destination"), "within": ("place",),
             "plan": ("task", "budget"), "find": (), "summary": (), "compare": (), "participation": ("parcels",)}
    label = {"place": "the place to search from", "category": "the kind of facility", "origin": "the start place",
             "destination": "the destination", "task": "the kind of plan (land use, roads or charging stations)",
             "budget": "the budget (k€)", "parcels": "the parcels GeoJSON file"}
    for g in goals:
        for k in needs[g.intent]:
            if g.slots.get(k) in (None, ""):
                miss.append(label[k])
        if g.intent == "find" and not (g.slots.get("category") or g.slots.get("name")):
            miss.append("what to look for (a name or a kind of place)")
    if region is None and any(g.intent != "participation" for g in goals):
        miss.insert(0, "the region (helsinki or kotka)")
    return list(dict.fromkeys(miss))


COGNITION_SCHEMA = {
    "type": "object",
    "properties": {"intent": {"type": "string", "enum": list(INTENTS) + ["unknown"]},
                   "preferences": {"type": "array", "items": {"type": "string"}, "maxItems": 3}},
    "required": ["intent", "preferences"],
}


def model_prompt(request: str, task: Task) -> list[dict[str, str]]:
    return [{"role": "system", "content": "You classify urban planning requests. Intents: "
             + ", ".join(INTENTS) + ". Reply with JSON: intent and up to three soft preferences."},
            {"role": "user", "content": f"Request: {request}\nRules found: {json.dumps(task.entities)}"}]


def merge_model(task: Task, reply: dict[str, Any]) -> Task:
    """Model soft preferences are kept; its intent is recorded, never used to fill inputs."""
    task.soft = [str(p)[:120] for p in reply.get("preferences", [])[:3] if str(p).strip()]
    if reply.get("intent") in INTENTS:
        task.sources["model_intent"] = reply["intent"]
    return task


__all__ = ["COGNITION_SCHEMA", "Goal", "Task", "extract", "find_places", "merge_model", "model_prompt"]
