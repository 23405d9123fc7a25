"""Judge for the held-out request sets (resources/heldout/ask_*.json): the expected answer of
each item is computed from the data without the ask tools, and the reply is checked against it.

Independent computations: road distances are Dijkstra on ``City.graph`` (networkx) between
the graph nodes nearest to the two points; a category is the City's POI category, narrowed by
an item's ``osm_tag`` with the OSM tags read from the file; "within R m" is straight-line;
"in an area" is inside the named polygon, a street's 40 m corridor or its ``addr:street``;
counts and the overview come from the City itself; a plan's score is re-evaluated from the
plan file the agent wrote, with the instance loaded from its workspace. Places in an item are
exact data names (the author's expectations), looked up by exact (normalised) name only.

Checks on the reply (text), per expectation kind (see resources/heldout/README.md):
numbers must appear within rounding (1 m or 0.5 %), names as written in the data, "none"
answers must say so, clarifications must name each missing input, absent names must be said
to be missing from the region's data, and every part of an ``all`` item must pass.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np

from ...city import lexicon, load_city
from ...city.names import name_index, normalise
from ...city.vocabulary import matches_tags, money_amounts
from . import synthesis

MISSING_WORDS = {"region": r"region", "budget": r"budget", "place": r"place", "category": r"kind of|category",
                 "task": r"kind of plan"}
NONE_WORDS = r"\b(?:no|none|not any|there (?:are|is) no)\b"


class Expectation(Exception):
    """An item's expectation cannot be computed from the data (a bad item, not a bad reply)."""


@lru_cache(maxsize=4)
def _city(region: str):
    return load_city(region)


def _node(region: str, x: float, y: float) -> int:
    return _city(region).node_near(x, y)   # as the reader's tools: the nearer end of the nearest road


def road_m(region: str, a: tuple[float, float], b: tuple[float, float]) -> float:
    """Shortest road distance (m); inf when no road connects the two."""
    try:
        return float(nx.shortest_path_length(_city(region).graph, _node(region, *a), _node(region, *b),
                                             weight="length"))
    except nx.NetworkXNoPath:
        return float("inf")


def says_distance(reply: str, d: float) -> bool:
    return re.search(r"no road connects", reply) is not None if d == float("inf") else has_number(reply, d)


def place_points(region: str, name: str) -> list[tuple[str, str, float, float]]:
    """(id, name, x, y) of every feature whose name or alias is exactly ``name`` (normalised)."""
    n = normalise(name)
    out = [(f.id, f.name, f.x, f.y) for f in name_index(region).features
           if f.kind != "region" and (normalise(f.name) == n or n in {normalise(a) for a in f.aliases})]
    if not out:
        raise Expectation(f"'{name}' is not a data name in {region}")
    return out


def _tag_filter(osm_tag: str | None) -> dict[str, tuple[str, ...]]:
    if not osm_tag:
        return {}
    key, vals = osm_tag.split("=", 1)
    return {key: tuple(vals.split("|"))}


def pois(region: str, category: str, osm_tag: str | None = None) -> list[tuple[str, str, float, float]]:
    """(id, name, x, y) of the City POIs of ``category`` (narrowed by ``osm_tag``)."""
    city = _city(region)
    tags = name_index(region).poi_tags
    flt = _tag_filter(osm_tag)
    p = city.pois
    out = []
    for i, name, cat, g in zip(p.index, p["name"], p["category"], p.geometry, strict=False):
        pid = f"poi:{i}"
        if cat == category and (not flt or matches_tags(tags.get(pid, {}), flt)):
            out.append((pid, str(name or ""), float(g.x), float(g.y)))
    return out


def in_area(region: str, area: str | None, pts: list[tuple[str, str, float, float]]) -> list[tuple[str, str, float, float]]:
    if not area:
        return pts
    import shapely

    idx = name_index(region)
    n = normalise(area)
    feats = [f for f in idx.features if normalise(f.name) == n and f.area is not None]
    if not feats:
        raise Expectation(f"'{area}' is not an area in {region}")
    f = feats[0]
    if f.kind == "street":   # its corridor from the City's own edges, and its addr:street
        e = _city(region).edges
        shape = shapely.union_all(e[e["name"] == f.name].geometry.values).buffer(40.0)
        if shape.is_empty:
            shape = f.area
        return [p for p in pts if shape.contains(shapely.Point(p[2], p[3]))
                or normalise(idx.poi_tags.get(p[0], {}).get("addr:street", "")) == n]
    return [p for p in pts if f.area.contains(shapely.Point(p[2], p[3]))]


# ------------------------------------------------------------------------------ reply checks
def has_number(reply: str, value: float) -> bool:
    """``value`` (metres or a count) is in the reply as written, rounded, or in km."""
    nums = [float(n.replace(",", ".")) for n in synthesis.NUMBER.findall(reply)]
    for v in nums:
        for cand in (v, v * 1000.0):
            if abs(cand - value) <= 1.0 or (value and abs(cand - value) / abs(value) <= 0.005):
                return True
    return False


def has_count(reply: str, n: int) -> bool:
    words = {0: r"\bno\b|\bnone\b|\bzero\b", 1: r"\bone\b|\ban?\b", 2: r"\btwo\b", 3: r"\bthree\b"}
    return any(int(float(x)) == n for x in re.findall(r"(?<![\w.])\d+(?![\w.]|\.\d)", reply)) or \
        bool(n in words and re.search(words[n], reply, re.I))


def has_name(reply: str, name: str) -> bool:
    return bool(name) and normalise(name) in normalise(reply)


# ------------------------------------------------------------------------------ judging
class Judge:
    """Judges one item's record (the ask agent's JSON) against its expectation."""

    def __init__(self, item: dict[str, Any], record: dict[str, Any]):
        self.item = item
        self.region = item.get("region") or record.get("region")
        self.record = record
        self.reply = record.get("answer") or record.get("clarification") or ""
        self.found: dict[int, tuple[str, str, float, float]] = {}   # part -> the feature it found (for "<result of part N>")
        self.notes: list[str] = []

    def run(self) -> bool:
        exp = self.item["expect"]
        parts = exp["parts"] if exp["kind"] == "all" else [exp]
        if self.region is None and any(p["kind"] not in ("clarify", "absent_name") for p in parts):
            self.notes.append("no region: neither the item nor the reply names one")
            return False   # the reply acted on no region's data, so no fact in it can be right
        ok = True
        for k, part in enumerate(parts):
            good = self.part(part, k)
            self.notes.append(f"part {k + 1} ({part['kind']}): {'ok' if good else 'FAIL'}")
            ok = ok and good
        return ok

    def _where(self, name: str) -> list[tuple[str, str, float, float]]:
        m = re.fullmatch(r"<result of part (\d+)>", name)
        if m:
            got = self.found.get(int(m.group(1)) - 1)
            if got is None:
                raise Expectation(f"part {m.group(1)} found nothing to refer to")
            return [got]
        return place_points(self.region, name)

    def part(self, e: dict[str, Any], k: int) -> bool:
        kind = e["kind"]
        r = self.reply
        if kind == "clarify":
            words = all(re.search(MISSING_WORDS[m], r, re.I) for m in e["missing"])
            budget = "budget_keur" not in e or has_number(r, e["budget_keur"])
            return bool(self.record.get("clarification")) and words and budget and not self.record["tool_calls"]
        if kind == "absent_name":
            said = re.search(r"not in the \w+ data", r) is not None and has_name(r, e["name"])
            return said and ("budget_keur" not in e or has_number(r, e["budget_keur"]))
        if kind == "nearest":
            return self.nearest(e, k)
        if kind == "route":   # a name the data gives to several features: any of them is right
            a, b = self._where(e["from"]), self._where(e["to"])
            return any(says_distance(r, road_m(self.region, (p[2], p[3]), (q[2], q[3]))) for p in a for q in b)
        if kind in ("count_within", "count", "exists", "list"):
            return self.counting(e, k)
        if kind == "overview":
            c = _city(self.region).counts()
            return has_count(r, c["buildings"]) and has_number(r, c["demand"])
        if kind == "plan":
            return self.plan(e, k) is not None
        if kind == "evaluate":
            return self.plan_of_part(k - 1) is not None
        if kind == "sites_streets":
            return self.sites_streets(k - 1)
        if kind == "compare_nearer":
            return self.compare_nearer(e)
        if kind == "compare_plans":
            return self.compare_plans(e, k)
        if kind == "conditional":
            return self.conditional(e, k)
        raise Expectation(f"unknown expectation kind {kind}")

    # -- kinds
    def nearest(self, e: dict[str, Any], k: int) -> bool:
        origin = self._where(e["from"])
        pool = pois(self.region, e["category"], e.get("osm_tag"))
        pool = [p for p in pool if p[0] not in {o[0] for o in origin}]
        if not pool:
            return re.search(NONE_WORDS, self.reply, re.I) is not None
        for o in origin:   # a name the data gives to several features: any of them is right
            dist = nx.single_source_dijkstra_path_length(_city(self.region).graph, _node(self.region, o[2], o[3]),
                                                         weight="length")
            scored = sorted(((dist.get(_node(self.region, p[2], p[3]), np.inf), p) for p in pool), key=lambda t: t[0])
            best_d = scored[0][0]
            if best_d == float("inf"):   # no facility of the kind is reachable by road from this one
                if re.search(r"reachable|no road", self.reply):
                    return True
                continue
            ties = [p for d, p in scored if d - best_d <= 1.0]
            self.found.setdefault(k, ties[0])
            if any(has_name(self.reply, p[1]) or p[0] in self.reply for p in ties) and has_number(self.reply, best_d):
                self.found[k] = next(p for p in ties if has_name(self.reply, p[1]) or p[0] in self.reply)
                return True
        return False

    def counting(self, e: dict[str, Any], k: int) -> bool:
        pts = pois(self.region, e["category"], e.get("osm_tag"))
        if e["kind"] == "count_within":   # a name the data gives to several features: any of them is right
            return any(has_count(self.reply, sum(1 for p in pts if p[0] != c[0]
                                                 and np.hypot(p[2] - c[2], p[3] - c[3]) <= e["radius_m"]))
                       for c in self._where(e["of"]))
        if e.get("within"):   # "list those car parks within 400 m of Kiasma"
            c = self._where(e["within"]["of"])[0]
            pts = [p for p in pts if p[0] != c[0] and np.hypot(p[2] - c[2], p[3] - c[3]) <= e["within"]["radius_m"]]
        pts = in_area(self.region, e.get("area"), pts)
        if e["kind"] == "exists":
            if not pts:
                return re.search(NONE_WORDS, self.reply, re.I) is not None
            return has_count(self.reply, len(pts)) or re.search(r"\byes\b", self.reply, re.I) is not None
        if e["kind"] == "count":
            return has_count(self.reply, len(pts))
        named = [p[1] for p in pts if p[1]]
        shown = sum(has_name(self.reply, n) for n in set(named))
        return has_count(self.reply, len(pts)) and shown >= min(3, len(set(named)))

    def plan_of_part(self, k: int) -> dict[str, Any] | None:
        parts = self.item["expect"].get("parts") or [self.item["expect"]]
        e = parts[k] if 0 <= k < len(parts) else None
        return self.plan(e, k) if e and e["kind"] == "plan" else None

    def plan(self, e: dict[str, Any], k: int) -> dict[str, Any] | None:
        """The plan the agent made for ``e`` if the reply reports it truthfully: the budget
        echoed in k€, the instance built for that task and budget, and the score it states
        equal to the independent re-evaluation of the plan file."""
        from ...sandbox.workspace import PLAN_FILE, load_instance

        if not has_number(self.reply, e["budget_keur"]) or "k€" not in self.reply:
            return None
        built = [c for c in self.record["tool_calls"] if c["tool"] == "build_instance" and c["status"] == "ok"
                 and c["params"].get("task") == e["task"] and abs(float(c["params"].get("budget", -1)) - e["budget_keur"]) < 1e-6]
        if not built:
            return None
        ws = Path(self.record["workspace_root"]) / built[0]["result"]["workspace"]
        if not (ws / PLAN_FILE).is_file():
            return None
        inst = load_instance(ws)
        ids = json.loads((ws / PLAN_FILE).read_text(encoding="utf-8"))["candidate_ids"]
        mask = np.isin(np.array(inst.ids), ids)
        score = float(inst.score_mask(mask)[0])
        if not has_number(self.reply, round(score, 6)) and not has_number(self.reply, score):
            return None
        solved = next((c["result"] for c in self.record["tool_calls"] if c["tool"] == "solve_plan" and c["status"] == "ok"
                       and c["params"]["workspace"] == built[0]["result"]["workspace"]), None)
        if e.get("must_list_sites") and solved and not all(s["id"] in self.reply for s in solved.get("sites", [])[:10]):
            return None
        self.found[k] = ("plan", str(ws), score, float(len(ids)))
        return {"score": score, "sites": (solved or {}).get("sites", []), "workspace": ws}

    def sites_streets(self, k: int) -> bool:
        plan = self.plan_of_part(k)
        if plan is None:
            return False
        import shapely

        e = _city(self.region).edges
        e = e[e["name"].fillna("").astype(str) != ""]
        for s in plan["sites"][:10]:
            i = int(e.sindex.nearest(shapely.Point(s["x"], s["y"]))[1][0])
            if not has_name(self.reply, str(e["name"].iloc[i])):
                return False
        return bool(plan["sites"])

    def compare_nearer(self, e: dict[str, Any]) -> bool:
        target = self._where(e["to"])
        dists = []
        for name in e["options"]:
            opts = self._where(name)
            d = min(road_m(self.region, (o[2], o[3]), (t[2], t[3])) for o in opts for t in target)
            dists.append((d, name))
        dists.sort()
        win, lose = dists[0][1], dists[-1][1]
        low = normalise(self.reply)
        return (says_distance(self.reply, dists[0][0]) and has_name(self.reply, win)
                and low.find(normalise(win)) < (low.find(normalise(lose)) if normalise(lose) in low else len(low)))

    def compare_plans(self, e: dict[str, Any], k: int) -> bool:
        scores = []
        for j, p in enumerate(e["options"]):
            plan = self.plan(p, 100 + j)
            if plan is None:
                return False
            scores.append((plan["score"], p["task"]))
        best = max(scores)[1]
        better = next((s for s in synthesis.sentences(self.reply) if "better" in s), "")
        return lexicon.task_name(best) in better.casefold().split("plan")[0]

    def conditional(self, e: dict[str, Any], k: int) -> bool:
        cond = e["if"]
        if cond["kind"] == "plan_score":
            plan = self.plan(cond["plan"], 200)
            if plan is None:
                return False
            value = plan["score"]
        elif cond["kind"] in ("exists", "count", "count_within"):
            pts = pois(self.region, cond["category"], cond.get("osm_tag"))
            if cond["kind"] == "count_within":
                c = self._where(cond["of"])[0]
                pts = [p for p in pts if np.hypot(p[2] - c[2], p[3] - c[3]) <= cond["radius_m"]]
            else:
                pts = in_area(self.region, cond.get("area"), pts)
            value = float(len(pts))
        elif cond["kind"] == "route":
            a, b = self._where(cond["from"]), self._where(cond["to"])
            value = min(road_m(self.region, (p[2], p[3]), (q[2], q[3])) for p in a for q in b)
        else:
            raise Expectation(f"condition kind {cond['kind']}")
        test = cond.get("test", ">= 1")
        op, ref = test.split()
        taken = {">": value > float(ref), ">=": value >= float(ref), "<": value < float(ref),
                 "<=": value <= float(ref)}[op]
        branch = e["then"] if taken else e.get("else")
        return branch is None or self.part(branch, k + 1)


#: a quoted span: the planner's own words read back or an example of how to say something —
#: a citation, not a claim about the data ("could not read '…' — say it as 'cafés within 300 m of Oodi'")
QUOTED = re.compile(r"(?<![\w'])'[^'\n]*'(?![\w'])|‘[^’\n]*’|“[^”\n]*”|\"[^\"\n]*\"")
#: "…: A (x), B, C and 4 more": how many a cut list leaves out
MORE = re.compile(r"\band (\d+) more\b")
LIST_START = re.compile(r"(?::|\be\.g\.|\bvia)\s+")


def _totals(obj: Any) -> set[float]:
    """Every whole number (a count; not a distance or a score, which are floats) and every list
    length in a JSON value: the totals a cut list may be cut from."""
    out: set[float] = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, int) and not isinstance(x, bool):
            out.add(float(x))
        elif isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            out.add(float(len(x)))
            stack.extend(x)
    return out


def _listed(text: str) -> int:
    """How many items a list names: its top-level commas and semicolons (not those in brackets) + 1."""
    depth, items = 0, 1
    for ch in text:
        depth += ch in "(["
        depth -= ch in ")]"
        items += depth == 0 and ch in ",;"
    return items


def _derived_more(sentence: str, totals: set[float]) -> set[int]:
    """Where the "N more" of a cut list adds up (start offsets of each such N): the items the list
    names plus N is a total of the tool results (a count, a list's length). A wrong N is not excused."""
    ok = set()
    for m in MORE.finditer(sentence):
        starts = [s.end() for s in LIST_START.finditer(sentence, 0, m.start())]
        if starts and float(_listed(sentence[starts[-1]:m.start()]) + int(m.group(1))) in totals:
            ok.add(m.start(1))
    return ok


def _expected_budgets(expect: Any) -> set[float]:
    """Every ``budget_keur`` an item's expect states (its parts included): the author's own reading of
    the request's money, e.g. 500 for "a fifth of 2.5 million euros"."""
    if isinstance(expect, dict):
        own = {float(expect["budget_keur"])} if isinstance(expect.get("budget_keur"), (int, float)) else set()
        return own.union(*(_expected_budgets(v) for v in expect.values()))
    if isinstance(expect, list):
        return set().union(*(_expected_budgets(v) for v in expect))
    return set()


def contradictions(record: dict[str, Any], expected: set[float] = frozenset()) -> list[str]:
    """Numbers in the reply that no tool result, request or read-back budget supports.

    Quoted spans are citations (the request read back, an example of a phrasing), not claims, and
    are left out; the "N more" of a cut list is supported when the items it names plus N make a
    total of the tool results. ``expected``: budgets the item's author worked out from the request
    (a share of a stated total is no number the request writes, so a right read-back of it would
    otherwise count as unsupported)."""
    reply = QUOTED.sub("''", record.get("answer") or record.get("clarification") or "")
    results = [c.get("result") for c in record["tool_calls"] if c["status"] == "ok"]
    evidence = synthesis.numbers_in(results) \
        | synthesis.numbers_in(record["request"]) | {m.keur for m in money_amounts(record["request"])} \
        | synthesis.numbers_in([c.get("params") for c in record["tool_calls"]]) \
        | ({float(record["task"]["test"]["value"])} if (record.get("task") or {}).get("test") else set()) \
        | set(expected)
    totals = _totals(results)
    bad = []
    for s in (x.strip() for x in reply.splitlines() if x.strip()):   # lines: "e.g. A and 4 more" stays whole
        more = _derived_more(s, totals)
        for hit in synthesis.NUMBER.finditer(s):
            n = hit.group()
            v = float(n.replace(",", "."))
            if hit.start() in more:
                continue
            if not synthesis.supported(v, evidence) and not synthesis.supported(v / 1000.0, evidence) \
                    and not any(synthesis.supported(v, {e / 1000.0}) for e in evidence):
                bad.append(f"{n} in: {s[max(0, hit.start() - 60):hit.start() + 60]}")
    return bad


def judge(item: dict[str, Any], record: dict[str, Any]) -> dict[str, Any]:
    j = Judge(item, record)
    try:
        ok = j.run()
        error = None
    except Expectation as e:
        ok, error = False, f"expectation not computable: {e}"
    return {"success": ok, "parts": j.notes, "judge_error": error,
            "contradictions": contradictions(record, _expected_budgets(item.get("expect")))}


__all__ = ["Expectation", "Judge", "contradictions", "judge", "road_m"]
