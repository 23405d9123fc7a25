"""Cognition: a request becomes a structured task U = ⟨intent, entities, hard, soft, missing⟩.

Reading is done on the whole request, not on trigger phrases alone:
* names come from the region's data through the one resolver (``plugin.city.names``: every
  OSM name, misspellings, partial names), and a name-like phrase that is not in the data
  becomes "X is not in the <region> data — did you mean …?" for the part that needs it;
* facility words and money come from ``plugin.city.vocabulary`` (pharmacy → clinic narrowed
  to amenity=pharmacy; "€1.2 million" → 1200 k€, echoed back);
* the request is split into clauses (";", "then", ", and", "+", "separately" …), each read
  as one goal with its own slots; "it", "that car park" refer to the previous goal's result,
  "there" to the previous goal's place; "If A, B; otherwise C" is a conditional;
* the model (when given) proposes a reading under ``READING_SCHEMA``; ``check_reading``
  accepts it only where the rules found no goal and only with slots the rules can ground in
  the request (a name the resolver finds, a facility word present, a budget read). So the
  rules alone decide what is missing ("ask before acting" never depends on the model), and
  the model can add a goal the rules did not see but never an input the request lacks.
"""
from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from ...city import CATEGORIES, lexicon
from ...city.names import CONNECTORS, GENERIC, REGION_ALIASES, NameIndex, normalise
from ...city.vocabulary import CategoryTerm, Money, category_terms, money_amounts, uncategorised_terms
from .wording import (BACKREF, COUNTRIES, CUES, IF_AFTER, IF_RE, JOINED, LEAD_IN, NEGATED, NOUN_TAIL, SENTENCE_WORDS,
                      SPLIT, TASK_WORDS, TERSE_IF, UNITS, YES_NO, condition_test)

INTENTS = ("summary", "find", "count", "exists", "nearest", "route", "within", "compare", "plan",
           "compare_plans", "participation")
TASKS = ("station", "land", "road")
AREA_KINDS = ("street", "place", "area")
NEAR_M = 500.0   # what "near" means when the planner gives no distance (said in the answer)
@dataclass
class Goal:
    intent: str
    slots: dict[str, Any] = field(default_factory=dict)
    clause: str = ""
    branch: str = ""                     # "", "if", "then" or "else" (conditional requests)
    absent: list[str] = field(default_factory=list)   # names this goal needs that the data lacks


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
    notes: list[str] = field(default_factory=list)        # read-backs: budgets, synonyms, names corrected
    absent: list[str] = field(default_factory=list)       # "'X' is not in the kotka data — did you mean …?"
    test: dict[str, Any] | None = None                    # conditional: {"op", "value", "what"}

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class _Place:
    start: int
    end: int
    written: str
    name: str            # the data name ('' when absent)
    id: str
    kind: str
    message: str = ""    # for absent names
    match: Any = None    # the resolver's Match for a found name
    area_name: str = ""      # a district, street or named area so named ("Kluuvi", "Kaisaniemi")

    @property
    def found(self) -> bool:
        return bool(self.id)


# ------------------------------------------------------------------------ region
def _region_mentions(request: str, regions: tuple[str, ...]) -> list[tuple[int, int, str]]:
    out = []
    for r in regions:
        for alias in REGION_ALIASES.get(r, (r,)) + (r,):
            for m in re.finditer(r"(?<!\w)" + re.escape(normalise(alias)) + r"(?!\w)", normalise_keep(request)):
                out.append((m.start(), m.end(), r))
    return out


def normalise_keep(text: str) -> str:
    """Case and diacritics folded with every character kept in place (offsets stay valid)."""
    import unicodedata

    return "".join((unicodedata.normalize("NFKD", c)[0] if c.strip() else c).casefold()[:1] or c for c in text)


def _infer_region(request: str, regions: tuple[str, ...], index_of: Callable[[str], NameIndex]) -> str | None:
    """The one region whose data has names (exact or aliases) that the request uses."""
    hits = {}
    for r in regions:
        spans = [m for _, _, m in index_of(r).scan(request, fuzzy=False) if m.feature.kind != "region"]
        if spans:
            hits[r] = sum(len(m.matched) for m in spans)
    if len(hits) == 1:
        return next(iter(hits))
    if len(hits) > 1:   # the region where the request's names are longer / more numerous, when clearly so
        best = sorted(hits.items(), key=lambda kv: -kv[1])
        if best[0][1] >= 2 * best[1][1]:
            return best[0][0]
        return None
    # no exact name anywhere: a misspelt name that only one region's data comes close to picks that
    # region, so the reply can say "did you mean …" instead of asking which region
    near = [r for r in regions if any(m.feature.kind != "region" for _, _, m in index_of(r).scan(request))]
    return near[0] if len(near) == 1 else None


#: "plan chargers near Kiasma", "… within 400 m of Oodi", "… around Kaisaniemen puisto"
NEAR_SLOT = re.compile(r"\b(?:near|nearby|around|close to|next to|beside|within\s+\S+(?:\s*(?:m|km|metres|meters))?\s+of)"
                       r"\s+(?:the\s+)?$", re.I)


def _plan_near(request: str, cp: list[_Place], cd: list[float]) -> dict[str, Any] | None:
    """The place a plan request wants its sites near, as a constraint to hold the plan to:
    {place, name, radius_m, default_radius}; the distance said, else ``NEAR_M`` (said in the reply)."""
    for p in cp:
        if p.found and p.kind != "region" and NEAR_SLOT.search(request[max(0, p.start - 30):p.start]):
            return {"place": p.id, "name": p.name, "radius_m": cd[0] if cd else NEAR_M, "default_radius": not cd}
    return None


# ------------------------------------------------------------------------ places
def _places(request: str, idx: NameIndex, taken: list[tuple[int, int]]) -> list[_Place]:
    """Data names in the request, and name-like phrases the data lacks (``taken``: spans of
    money, distances and facility words, which are never names)."""
    found = [(s, e, m) for s, e, m in idx.scan(request)]
    places = [_Place(s, e, request[s:e], m.feature.name, m.feature.id, m.feature.kind, match=m) for s, e, m in found
              if not any(a <= s and e <= b for a, b in taken)]
    for s, e in _namelike_spans(request):
        words = list(re.finditer(r"[\w'’€-]+", request[s:e]))
        while words and words[0].group(0).casefold() in SENTENCE_WORDS | GENERIC | UNITS:
            words.pop(0)
        while words and words[-1].group(0).casefold() in SENTENCE_WORDS | UNITS and not words[-1].group(0).islower():
            words.pop()   # a lowercase last word is the facility noun of the name ("Kamppi bus station")
        if not words:
            continue
        s, e = s + words[0].start(), s + words[-1].end()
        if any(a < e and s < b for a, b in taken):
            continue
        covered = [p for p in places if p.start < e and s < p.end]
        nxt = re.match(r"\s+([a-zåäö][\w-]+)", request[e:])
        if covered and covered[-1].end == e and covered[-1].match and _partial(covered[-1]) and nxt \
                and nxt.group(1).casefold() not in SENTENCE_WORDS | GENERIC | UNITS | CONNECTORS \
                and not category_terms(nxt.group(1)):
            e += nxt.end()   # a part of a longer name and a noun of its own: "Esplanadi bandstand"
        written = request[s:e]
        rest = re.sub("|".join(re.escape(p.written) for p in covered) or "^$", " ", written)
        if covered:
            if not all(p.start >= s and p.end <= e and p.found for p in covered) or not normalise(rest):
                continue   # the name found is the whole phrase
            named = [w for w in re.findall(r"[\w'’-]+", rest) if w[:1].isupper() and normalise(w) not in GENERIC]
            if not named and not all(p.kind == "region" for p in covered):
                # the name plus descriptive words: "Stockmann department store", "Kamppi Center"
                kept = [_described(p, written, rest, idx) for p in covered]
                if all(f is not None for f in kept):
                    if len(covered) == 1:
                        f = kept[0]
                        places[places.index(covered[0])] = _Place(s, e, written, f.name, f.id, f.kind,
                                                                 match=covered[0].match)
                    continue
                places = [p for p in places if p not in covered]
                near = list(dict.fromkeys([p.name for p in covered] + idx.suggestions(written)))[:3]
                places.append(_Place(s, e, written, "", "", "", f"'{written}' is not in the {idx.region} data — "
                                                                 f"did you mean {' or '.join(near)}?"))
                continue
        if all(w.casefold() in SENTENCE_WORDS or w.casefold() in GENERIC for w in re.findall(r"[\w'’-]+", written)):
            continue
        if re.fullmatch(COUNTRIES, written.strip(), re.I):
            continue
        res = idx.resolve(written)
        places = [p for p in places if p not in covered]
        if res.status == "found":
            f = res.feature
            places.append(_Place(s, e, written, f.name, f.id, f.kind, match=res.candidates[0]))
        else:
            places.append(_Place(s, e, written, "", "", "", res.message))
    return sorted(places, key=lambda p: p.start)


def _partial(p: _Place) -> bool:
    """The name written is a part of a longer data name ("Kamppi" of "Kamppi Chapel")."""
    return p.match.how not in ("exact", "alias") \
        and len(normalise(p.match.matched).split()) > len(normalise(p.written).split())


def _described(p: _Place, written: str, rest: str, idx: NameIndex) -> Any:
    """The feature that a name with descriptive words stands for: one of the descriptor's
    category among the phrase's candidates ("Stockmann car park" → Stockmann Q-Park), else the
    name's own feature; None when a part of a longer name gets a noun that the feature is not
    ("Kamppi Center" is not Kampin kappeli, the Kamppi Chapel; "Esplanadi bandstand" is not
    K-Market Esplanadi; "Teboil station" is Teboil Karhula Tikankatu)."""
    f = p.match.feature
    cats = {t.category for t in category_terms(rest)}
    if cats and f.category not in cats:
        alt = next((m.feature for m in idx.lookup(written, limit=8) if m.feature.category in cats), None)
        if alt is not None:
            return alt
    own_noun = any(w not in GENERIC for w in normalise(rest).split())   # "bandstand", not "station"
    if _partial(p) and (cats - {f.category} or (not cats and (f.kind != "poi" or own_noun))):
        return None
    return f


def _namelike_spans(text: str) -> list[tuple[int, int]]:
    """Capitalised word runs (with a trailing facility noun: "Sapokka park", "Kotka central
    hospital"); a lone capitalised word that starts a sentence is not taken as a name, and a
    full stop ends a run ("… for Kotka. What should we do?")."""
    out = []
    word_rx = r"[A-ZÅÄÖ](?:[\w’'-]|\.(?!\s))*"
    for m in re.finditer(r"(?:(?<=^)|(?<=[\s(\"'“]))(" + word_rx + r"(?:\s+(?:" + word_rx + r"|(?:de|la|von|van)\b))*)"
                         r"(" + NOUN_TAIL + r")?", text):
        s, e = m.start(), m.end()
        word = m.group(1)
        initial = s == 0 or re.search(r"[.?!;:]\s*$", text[:s]) is not None
        if initial and " " not in word and not m.group(2):
            continue
        out.append((s, e))
    return out


# ------------------------------------------------------------------------ the reading
def extract(request: str, index_of: Callable[[str], NameIndex], regions: tuple[str, ...],
            region: str | None = None) -> Task:
    """The deterministic part of cognition (see module docstring)."""
    src: dict[str, str] = {}
    notes: list[str] = []
    missing: list[str] = []
    task_request, request = request, _split_hyphen_pairs(request, regions, index_of, region)
    mentions = _region_mentions(request, regions)
    said = list(dict.fromkeys(r for _, _, r in mentions))
    country = re.search(r"(?:,\s*|\bin\s+)(" + COUNTRIES + r")\b", request, re.I)
    if country and said:
        missing.append(f"the region: the {said[0]} data is {REGION_ALIASES.get(said[0], (said[0],))[0]} in Finland, "
                       f"not in {country.group(1)} (which region do you mean: {' or '.join(regions)}?)")
    if region is not None:
        src["region"] = "option"
        if said and region not in said and len(said) == 1:
            region, src["region"] = said[0], "request"
    elif len(said) == 1:
        region, src["region"] = said[0], "request"
    if region is None:
        region = _infer_region(request, regions, index_of)
        if region:
            src["region"] = "place names"
    money = money_amounts(request)
    dists = [(d.start, d.end, d.metres) for d in lexicon.distances(request)
             if not any(o.start <= d.start < o.end for o in money)]
    all_terms = category_terms(request)
    taken = [(o.start, o.end) for o in money] + [(a, b) for a, b, _ in dists]
    places = _places(request, index_of(region), taken) if region else []
    # "(not counting Svenska Teatern itself)": a place named only to be left out is not asked about
    excluded = [(m.start(), m.end()) for m in re.finditer(r"\((?:not counting|excluding|except|apart from|other than)\b[^)]*\)",
                                                          request, re.I)]
    places = [p for p in places if not any(a <= p.start < b for a, b in excluded)]
    # a facility word inside a found name is part of the name ("Q-Park", "Kaisaniemen puisto")
    places = [p for p in places if p.found or not any(t.start <= p.start and p.end <= t.end for t in all_terms)]
    terms = [t for t in all_terms if not any(p.start <= t.start < p.end and p.kind != "region" for p in places)]
    # "Oodi (the library)": a word in brackets after a name describes it, it asks for nothing
    terms = [t for t in terms if not any(p.found and re.fullmatch(r"\s*\((?:the |a |an )?", request[p.end:t.start])
                                         and re.match(r"\s*\)", request[t.end:]) for p in places)]
    # "post office": a word the data has no category for, even with one that it has inside
    unknown_spans = [u for u in uncategorised_terms(request) if not any(p.start <= u[0] < p.end for p in places)]
    terms = [t for t in terms if not any(a <= t.start < b for a, b, _ in unknown_spans)]
    unknown = [w for _, _, w in unknown_spans]
    for p in places:
        if p.found and p.kind not in AREA_KINDS:
            same = [m.feature.name for w in (p.name, p.written) for m in index_of(region).lookup(w, kinds=AREA_KINDS, limit=2)
                    if normalise(m.feature.name) == normalise(w)]
            p.area_name = same[0] if same else ""
    goals, test = _read_goals(request, places, terms, money, dists)
    if any(g.intent in ("plan", "compare_plans") for g in goals) or not goals:
        notes += [f"Budget read as {mo.keur:g} k€ (from '{mo.written}')." for mo in money]
    ent = {"places": [p.name for p in places if p.found and p.kind != "region"],
           "places_absent": [p.written for p in places if not p.found],
           "categories": [t.describe() for t in terms], "budgets_keur": [m.keur for m in money],
           "distances_m": [d for _, _, d in dists], "categories_absent": unknown}
    for p in places:
        if p.found and p.kind != "region" and normalise(p.written) != normalise(p.name):
            notes.append(f"'{p.written}' read as {p.name}.")
    absent = list(dict.fromkeys(p.message for p in places if not p.found))
    if unknown and not any(g.slots.get("category") or g.intent not in ("nearest", "within", "find", "count", "exists")
                           for g in goals):
        # "How many bus stops are on Mannerheimintie?": no category holds them, so none in the data
        where = region or "bundled"
        absent.append(f"The {where} data has no {unknown[0]}: '{unknown[0]}' is not in the {where} data's categories "
                      f"({', '.join(CATEGORIES)}).")
        goals = []
    missing += _missing(goals, region, ent)
    hard = [f"budget = {m.keur:g} k€" for m in money] + [f"distance = {d:g} m" for _, _, d in dists]
    for k in ("places", "categories", "budgets_keur"):
        src.setdefault(k, "rules")
    intent = goals[0].intent if goals else "unknown"
    return Task(task_request, intent, region, goals, ent, hard, [], list(dict.fromkeys(missing)), src,
                list(dict.fromkeys(notes)), absent, test)


def _split_hyphen_pairs(request: str, regions: tuple[str, ...], index_of: Callable[[str], NameIndex],
                        region: str | None) -> str:
    """"Kiasma-Ateneum" → "Kiasma→Ateneum" (same length, offsets kept) when both halves are data
    names and the whole is none ("Q-Park", "Yrjö-Koskisen katu" stay)."""
    out = request
    for m in re.finditer(r"(?<![\w-])([A-ZÅÄÖ][\w']+)-([A-ZÅÄÖ][\w']+)(?![\w-])", request):
        for r in ([region] if region else list(regions)):
            exact = [index_of(r).is_name(t) for t in (m.group(0), m.group(1), m.group(2))]
            if exact == [False, True, True]:
                out = out[:m.end(1)] + "→" + out[m.end(1) + 1:]
                break
    return out


def _clauses(request: str) -> list[tuple[int, int]]:
    out, pos = [], 0
    for m in SPLIT.finditer(request):
        if m.start() > pos:
            out.append((pos, m.start()))
        pos = m.end()
    if pos < len(request):
        out.append((pos, len(request)))
    out = [(s, e) for s, e in out if request[s:e].strip(" ,.?!")]
    for k in range(len(out) - 2, -1, -1):   # "Using that pharmacy, how far is Forum?": one question
        if LEAD_IN.fullmatch(request[out[k][0]:out[k][1]]):
            out[k:k + 2] = [(out[k][0], out[k + 1][1])]
    return out


def _read_goals(request: str, places: list[_Place], terms: list[CategoryTerm], money: list[Money],
                dists: list[tuple[int, int, float]]) -> tuple[list[Goal], dict[str, Any] | None]:
    m = IF_RE.match(request) or IF_AFTER.match(request) or YES_NO.match(request) or TERSE_IF.match(request)
    if m:
        parts = [("if", m.start("cond"), m.end("cond")), ("then", m.start("then"), m.end("then"))]
        if m.group("else"):
            parts.append(("else", m.start("else"), m.end("else")))
        goals: list[Goal] = []
        for branch, s, e in parts:
            for g in _clause_goals(request, s, e, places, terms, money, dists, goals, conditional=branch == "if"):
                g.branch = branch
                goals.append(g)
        cond = request[m.start("cond"):m.end("cond")]
        first = next((g for g in goals if g.branch == "if"), None)
        test = condition_test(cond, first is not None and first.intent in ("within", "count", "exists", "find"))
        if m.group("kw").casefold() == "unless":   # "unless there are chargers": if there are none
            test["op"] = NEGATED[test["op"]]
        return goals, test
    goals = []
    carry, held = None, []   # "kumparepuisto to neste, how far by car": places without a question join the next clause
    for s, e in _clauses(request):
        start = s if carry is None else carry
        got = _clause_goals(request, start, e, places, terms, money, dists, goals)
        bare_route = len(got) == 1 and got[0].intent == "route" and not any(got[0].slots.values())
        if bare_route or (not got and any(_in(p.start, s, e) and p.found and p.kind != "region" for p in places)):
            carry, held = start, got   # "how far, by road, the nearest pharmacy is from X": the question goes on
            continue
        carry, held = None, []
        goals.extend(got)
    return goals + held, None


def _in(a: int, s: int, e: int) -> bool:
    return s <= a < e


def _clause_goals(request: str, s: int, e: int, places: list[_Place], terms: list[CategoryTerm], money: list[Money],
                  dists: list[tuple[int, int, float]], before: list[Goal], conditional: bool = False) -> list[Goal]:
    """The goals of one clause; facility words joined by "and" / "or" / "," ("banks and
    pharmacies within 300 m of Forum", "nearest pharmacy and car park to Kiasma") make one
    place query per word, each answered."""
    ct = [t for t in terms if _in(t.start, s, e)]
    run = ct[:1]
    for t in ct[1:]:
        if t.start >= run[-1].end and JOINED.fullmatch(request[run[-1].end:t.start]):
            run.append(t)
        elif len(run) < 2:
            run = [t]
    if len(run) >= 2 and len({(t.category, t.tags) for t in run}) == len(run):
        out: list[Goal] = []
        for t in run:
            own = [x for x in terms if x is t or x not in run]
            got = _clause_reading(request, s, e, places, own, money, dists, before + out, conditional)
            if not got or any(g.intent not in ("nearest", "within", "find", "count", "exists", "route") for g in got):
                break
            out += got
        else:
            return out
    return _clause_reading(request, s, e, places, terms, money, dists, before, conditional)


def _clause_reading(request: str, s: int, e: int, places: list[_Place], terms: list[CategoryTerm],
                    money: list[Money], dists: list[tuple[int, int, float]], before: list[Goal],
                    conditional: bool = False) -> list[Goal]:
    text = request[s:e]
    cp = [p for p in places if _in(p.start, s, e) and p.kind != "region"]
    ct = [t for t in terms if _in(t.start, s, e)]
    for t in list(ct):   # "… the nearest petrol station to the school": the school named before
        ref = next((p for p in reversed(places) if p.end <= s and p.found and p.match is not None
                    and (p.match.feature.category == t.category
                         or any(n.category == t.category for n in category_terms(p.name)))), None)   # "Otsolan Koulu"
        if ref is not None and re.search(r"\b(?:to|from|of|near|around)\s+the\s+$", request[max(s, t.start - 12):t.start], re.I) \
                and len(ct) >= 2:
            ct.remove(t)
            cp = sorted(cp + [_Place(t.start, t.end, request[t.start:t.end], ref.name, ref.id, ref.kind, match=ref.match)],
                        key=lambda p: p.start)
    masked = list(text)
    for p in cp:
        for i in range(p.start - s, min(p.end - s, len(masked))):
            masked[i] = " "
    low = "".join(masked).casefold()
    cm = [mo for mo in money if _in(mo.start, s, e)]
    cd = [d for a, _, d in dists if _in(a, s, e)]
    area_places = [p for p in places if _in(p.start, s, e) and p.kind == "region"]

    def cue(name: str) -> bool:
        return re.search(CUES[name], low) is not None

    def term_slots(t: CategoryTerm | None) -> dict[str, Any]:
        if t is None:
            return {"category": None}
        tag = "; ".join(f"{k}={'|'.join(v) if v else '*'}" for k, v in t.tags)
        return {"category": t.category, "tag": tag or None, "word": t.word}

    refs = _backrefs(text, s, before)
    absent = [p.message for p in cp if not p.found]
    tasks = [(mm.start() + s, t) for t, pat in TASK_WORDS for mm in re.finditer(pat, low)]
    if re.search(r"\bby road\b|\broad (?:distance|route)\b", low):
        tasks = [(a, t) for a, t in tasks
                 if t != "road" or re.search(r"\broads?\b(?! distance| route)", low.replace("by road", ""))]
    budget = cm[0].keur if cm else None
    if budget is None and re.search(r"same (?:money|budget|amount)", low):
        budget = next((g.slots.get("budget") for g in reversed(before) if g.intent == "plan"), None)
    if budget is None and not cm and len(money) == 1 and not any(g.intent == "plan" and g.branch in ("", "if")
                                                                 for g in before):
        # the one amount said anywhere ("Budget is 2 M€. If …, plan land; otherwise plan roads"): each branch's
        budget = money[0].keur if money[0].start >= e or money[0].start < s else None

    def goal(intent: str, **slots: Any) -> Goal:
        return Goal(intent, slots, text.strip(), absent=list(absent))

    if cue("participation"):
        pm = re.search(r"\b[\w./-]+\.geojson\b", text)
        return [goal("participation", parcels=pm.group(0) if pm else None)]
    task_kinds = list(dict.fromkeys(t for _, t in sorted(tasks)))
    if len(task_kinds) >= 2 and cm and re.search(r"compare|against|versus|\bvs\b|better|\bor\b", low):
        plans = []
        starts = sorted(a for a, _ in tasks)
        for a, t in sorted(tasks):
            # "roads at 200k vs chargers at 300k": the amount after the task word, before the next one
            nxt = next((b for b in starts if b > a), len(request))
            mo = next((mo for mo in cm if a < mo.start < nxt), None) or min(cm, key=lambda mo: abs(mo.start - a))
            plans.append({"task": t, "budget": mo.keur})
        return [goal("compare_plans", plans=list({p["task"]: p for p in plans}.values()))]
    if (cue("compare") or re.search(r"\bwhich of\b.*\b(?:shortest|quickest|closest|nearest|shorter|quicker)\b", low)
            or (cue("nearest") and len(cp) >= 3 and re.search(r"\bor\b", low))) \
            and (len(cp) >= 3 or (len(cp) == 2 and refs)):   # "which school is closest to X: A, B or C?"
        k = re.search(r"\b(?:closer|nearer)\b(?:\s+\w+){0,3}?\s+(?:to\s+)?", low)
        after = [p for p in cp if k and p.start - s >= k.start()]
        target = after[0] if after and len(cp) >= 3 and cp.index(after[0]) != 1 else None
        if target is None:   # "is A or B the nearer park to C": the place after the last 'to'
            tos = [p for p in cp if re.search(r"\bto\s+(?:the\s+)?$", request[max(s, p.start - 12):p.start], re.I)]
            target = tos[-1] if tos else cp[-1]
        options = [p for p in cp if p is not target]
        return [goal("compare", candidates=[p.id or p.written for p in options], names=[p.name or p.written for p in options],
                     target=target.id or target.written, target_name=target.name or target.written)]
    last_plan = before[-1] if before and before[-1].intent == "plan" else None
    if last_plan is not None and cm and not task_kinds and not cp and not ct:
        # "Plan road upgrades for Kotka; we can spend 250 000 euros": the money is that plan's
        last_plan.slots["budget"] = cm[0].keur
        return []
    earlier_plan = next((g for g in reversed(before) if g.intent == "plan"), None)
    if (cue("evaluate") or cue("sites")) and not cp and not ct and not cm and earlier_plan is not None \
            and set(task_kinds) <= {earlier_plan.slots.get("task")}:
        # "…, then evaluate the resulting plan" / "…, then evaluate the allocation": the plan just made
        return _fold_into(earlier_plan, cue("evaluate"), cue("sites"))
    if before and before[-1].intent == "within" and cd and not cp and not ct and not cm:
        # "Is there a cinema near Lasipalatsi? say within 400 metres": the radius of that search
        before[-1].slots.update(radius_m=cd[0], default_radius=False)
        return []
    if any(g.intent == "compare_plans" for g in before) and not cp and not ct and not cm and not task_kinds \
            and (cue("plan") or cue("evaluate") or cue("compare")):
        return []   # "… or EV charging? Compare both plans' scores and recommend one": that comparison
    plan_cue = cue("plan") or (cm and task_kinds)
    if plan_cue and (task_kinds or cm or re.search(r"where should|sort out|what'?s best|\b(?:a|the|some|new) (?:\w+ )?plan\b|"
                                                   r"\bdraft|\bsketch|\bdesign|"
                                                   r"\bwhat (?:should|can|could|do) (?:we|i) "
                                                   r"(?:do|build|fund|spend it on|invest in)\b|"
                                                   r"\bneeds? (?:\w+ )*?most\b|(?:^|\b(?:please|you|we|us|to)\s+)"
                                                   r"(?:plan|draft|sketch|design)\b|\bplans\b|"
                                                   r"\bbest (?:place|location|site|spot)s? for\b", low.strip())) \
            and not (cue("nearest") and not cm) and not (cue("route") and cp and not cm):
        task = task_kinds[0] if task_kinds else None
        if budget is None and not cm and earlier_plan is not None and task in (None, earlier_plan.slots.get("task")) \
                and not re.search(r"\b(?:another|second|other)\b", low):
            # "… is 275 000 euros for roads — draft the new links and score them": the same plan
            return _fold_into(earlier_plan, cue("evaluate"), cue("sites"))
        if task is None and any(g.slots.get("category") == "charging" for g in before) \
                and re.search(r"\b(?:some|them|those|ones?)\b", low):
            task = "station"   # "Unless there are chargers in Kotka, plan some with 200k"
        if task is None and re.search(r"\bdo it\b", low):
            task = next((g.slots.get("task") for g in reversed(before) if g.intent == "plan"), None)
            budget = budget if budget is not None else next((g.slots.get("budget") for g in reversed(before)
                                                             if g.intent == "plan"), None)
        near = _plan_near(request, cp, cd)
        return [goal("plan", task=task, budget=budget, size="small", evaluate=cue("evaluate"), sites=cue("sites"),
                     **({"near": near} if near else {}))]
    if (cue("summary") or (not cp and re.search(r"residents|inhabitants|population|buildings|road km|"
                                                r"kilomet\w* of road|junctions|dead ends", low))
            or (area_places and not cp and re.search(r"\bwhat(?:'?s| is| are| lies)\b.*\b(?:around|in|near)\b", low))) \
            and not ct:   # "what's around Karhula?": the region itself
        return [goal("summary")]
    out: list[Goal] = []
    term = ct[0] if ct else None
    found_set = next((g for g in reversed(before) if g.intent in ("within", "find", "count", "exists")), None)
    if found_set is not None and not cp and re.search(r"\b(?:those|these|them|they)\b" if term else
                                                      r"\b(?:those|these|them|they|it)\b", low) \
            and (term is None or term.category == found_set.slots.get("category")) \
            and (cue("list") or cue("count") or re.search(r"\b(?:report|name|give)\b", low)):
        # "…; otherwise report those car parks": the set the condition counted
        return [Goal("find" if found_set.intent in ("count", "exists") else found_set.intent,
                     dict(found_set.slots), text.strip())]
    same_nearest = next((g for g in reversed(before) if g.intent == "nearest" and term is not None
                         and g.slots.get("category") == term.category and g.slots.get("tag") == term_slots(term)["tag"]), None)
    if same_nearest is not None and not cp and not cd and not cue("count") \
            and re.search(r"\b(?:the|that)\s+" + re.escape(term.word.casefold()) + r"\b", low):
        return [Goal("nearest", dict(same_nearest.slots), text.strip())]   # "…; otherwise just tell me the pharmacy"
    origin = _origin(request, s, cp, refs)
    if cue("nearest") and (term or not cd):
        slots = term_slots(term)
        prev = before[-1].slots if before else {}
        if term is None and re.search(r"\bones?\b", low) and prev.get("category"):
            # "if there's a cinema within 300 m of Forum, tell me the nearest one": that kind, from there
            slots = {k: prev.get(k) for k in ("category", "tag", "word")}
            origin = origin or prev.get("place")
        out.append(goal("nearest", place=origin, **slots))
        if cue("route") and re.search(r"how (?:many|far)|distance|route|by road|metres|meters", low):
            out.append(goal("route", origin=origin, destination=f"$goal:{len(before)}"))
        return out
    near = re.search(r"\bnear(?:by)?\b|\baround\b|\bclose to\b|\bnext to\b", low)
    default_radius = bool(near and term is not None and cp and not cd and not cue("route"))
    if default_radius:
        cd = [NEAR_M]   # "cafés near Stockmann": within a default radius, stated in the answer
    if cd and (term or re.search(r"what lies|what is|anything|what'?s", low)) and not (cue("route") and len(cp) >= 2):
        center = next((p for p in cp if re.search(r"\b(?:of|near|around|from|to)\s+(?:the\s+)?$",
                                                   request[max(s, p.start - 10):p.start], re.I)), None) \
            or (cp[-1] if cp else None)
        place = (center.id or center.written) if center else (refs.get("any") or None)
        return [goal("within", place=place, radius_m=cd[0], default_radius=default_radius, **term_slots(term))]
    if cue("route") and term is None and not cp and not refs and before and before[-1].intent == "nearest":
        return []   # "nearest pharmacy to X and give the driving distance": the search reports it
    if cue("route") and term is not None and not cp and not refs:   # "the distance to the pharmacy": from where?
        return [goal("nearest", place=None, **term_slots(term))]
    cond_route = next((g for g in before if g.branch == "if" and g.intent == "route"), None)
    if cue("route") and not cp and not refs and cond_route is not None:
        return [Goal("route", dict(cond_route.slots), text.strip())]   # "If A is within 800 m of B, tell me the route length"
    if cue("route") and (len(cp) + len(refs) >= 1):
        o, d = _route_ends(request, s, cp, refs, before)
        return [goal("route", origin=o, destination=d)]
    if term is not None and (cue("count") or cue("exists") or cue("list") or conditional or not cp):
        area = next((p for p in cp if re.search(r"\b(?:in|on|along|inside|around|at)\s+(?:the\s+)?$",
                                                request[max(s, p.start - 10):p.start], re.I)), None)
        intent = "count" if cue("count") else "exists" if cue("exists") or conditional else "find"
        slots = term_slots(term)
        if area is not None:   # by name: the tool resolves it among areas (a district, not a shop so named)
            slots["area"] = slots["area_name"] = area.area_name or area.name or area.written
        elif area_places:
            slots["area"] = None
        return [goal(intent, **slots)]
    prev = before[-1].slots if before else {}
    if term is None and not cp and prev.get("category") and before[-1].intent in ("find", "count", "exists") \
            and re.search(r"\b(?:them|those|these|they)\b", low) and (cue("count") or cue("list")):
        # "Should the data contain any fuel stations, list them": the kind (and area) just asked about
        return [goal("count" if cue("count") else "find",
                     **{k: prev[k] for k in ("category", "tag", "word", "area", "area_name") if k in prev})]
    if re.search(r"\bnear\b|\baround\b|\bclose to\b", low):
        return [goal("nearest", place=origin, category=None)]
    if term is not None and len(cp) == 1 and (not before or not refs):   # terse: "pharmacies Bulevardi", "pharmacy Stockmann"
        p = cp[0]
        if p.kind in AREA_KINDS or (p.area_name and re.search(r"s\b", term.word)):   # "dentists Kluuvi": a district's
            name = p.area_name or p.name or p.written
            return [goal("find", area=name, area_name=name, **term_slots(term))]
        return [goal("nearest", place=p.id or p.written, **term_slots(term))]
    if len(cp) >= 2 and re.search(r"\bfrom\b", low) and re.search(r"\bto\b", low):   # "then from Kiasma to Forum"
        o, d = _route_ends(request, s, cp, refs, before)
        return [goal("route", origin=o, destination=d)]
    if cue("route"):
        o, d = _route_ends(request, s, cp, refs, before)
        return [goal("route", origin=o, destination=d)]
    if term is None and not cm and re.search(r"\bhow many\b|\bnumber of\b", low):
        return [goal("count", category=None)]   # "How many are there in Kotka?", "how many are within 500 m of X?": of what?
    return out


def _fold_into(plan: Goal, evaluate: bool, sites: bool) -> list[Goal]:
    """A clause that only asks more of a plan already read adds that to it (no goal of its own)."""
    plan.slots["evaluate"] = plan.slots.get("evaluate") or evaluate
    plan.slots["sites"] = plan.slots.get("sites") or sites
    return []


def _backrefs(text: str, s: int, before: list[Goal]) -> dict[str, str]:
    """'from it' / 'to that car park' → the previous goal's result; 'there' → the facility a
    nearest-search found ("route there", "how far is it from there", "the drive from there to X"), but
    'X from there' ("how far is Tokoinranta from there") and other goals' 'there' → its place."""
    out: dict[str, str] = {}
    if not before:
        return out
    last = len(before) - 1
    prev = before[-1]
    for m in BACKREF.finditer(text):
        role = (m.group(1) or "any").lower()
        word = m.group(2).lower()
        if (word == "there" and (prev.intent != "nearest" or (role == "from" and not re.search(r"\bit\b", text, re.I)
                                                             and not re.search(r"\bfrom there\s+to\b", text, re.I)))) \
                or (prev.intent in ("within", "find", "count", "exists") and prev.slots.get("place")
                    and re.search(CUES["count"], prev.clause, re.I)):
            # a number of places counted around X is no place to go from: 'it' is X ("a gym near X … to it": the gym)
            value = prev.slots.get("place") or prev.slots.get("origin") or f"$goal:{last}"
        else:
            value = f"$goal:{last}"
        noun = word.split(" ", 1)[1] if word.startswith(("that ", "this ")) else ""
        kinds = {t.category for t in category_terms(noun)} if noun else set()
        if kinds and prev.intent == "nearest" and prev.slots.get("category") not in kinds and prev.slots.get("place"):
            value = prev.slots["place"]   # "nearest petrol station to X, … within 1 km of that garage": X, not the station
        out.setdefault(role, value)
        out.setdefault("any", value)
    return out


def _origin(request: str, s: int, cp: list[_Place], refs: dict[str, str]) -> str | None:
    """Where a nearest-search starts: the place after to / from / near / of, else the first."""
    for p in cp:
        if re.search(r"\b(?:to|from|near|of|around|for)\s+(?:the\s+)?$", request[max(s, p.start - 8):p.start], re.I):
            return p.id or p.written
    if cp:
        return cp[0].id or cp[0].written
    return refs.get("from") or refs.get("to") or refs.get("of") or refs.get("any")


def _route_ends(request: str, s: int, cp: list[_Place], refs: dict[str, str],
                before: list[Goal]) -> tuple[str | None, str | None]:
    def role(p: _Place) -> str:
        m = re.search(r"(?:\b(from|to)|(→|->))\s+(?:the\s+)?$", request[max(s, p.start - 10):p.start], re.I)
        return "" if not m else "to" if m.group(2) else m.group(1).lower()   # "then → Malmingin päiväkoti"

    ids = [(p.id or p.written, role(p)) for p in cp]
    origin = next((i for i, r in ids if r == "from"), None) or refs.get("from")
    dest = next((i for i, r in ids if r == "to"), None) or refs.get("to")
    rest = [i for i, r in ids if r == "" and i not in (origin, dest)]
    if origin is None and rest:
        origin = rest.pop(0)
    if dest is None and rest:
        dest = rest.pop(0)
    if origin is None and dest is None and refs and before:   # "how far is it to drive there"
        origin, dest = before[-1].slots.get("place"), f"$goal:{len(before) - 1}"
    if origin is None and dest is not None and refs.get("any"):
        origin = refs["any"]
    if origin is None and dest is not None and before and before[-1].intent == "nearest":
        origin = f"$goal:{len(before) - 1}"   # "nearest library to Stockmann, then route to Kiasma"
    if dest is None and origin is not None and refs.get("any") and refs["any"] != origin:
        dest = refs["any"]
    return origin, dest


def _missing(goals: list[Goal], region: str | None, ent: dict[str, Any]) -> list[str]:
    """Task-defining inputs the request lacks (never filled in by assumption)."""
    if not goals:
        if ent.get("places_absent") or ent.get("categories_absent"):
            return []
        if ent.get("budgets_keur"):   # "0,5 M€ please": money is for a plan, of which kind?
            return ["the kind of plan (land use, roads or charging stations)"] + \
                (["the region (helsinki or kotka)"] if region is None else [])
        return ["what you want to know (a place query, a route or a plan)"]
    miss: list[str] = []
    needs = {"nearest": ("place", "category"), "route": ("origin", "destination"), "within": ("place",),
             "plan": ("task", "budget"), "find": (), "count": (), "exists": (), "summary": (), "compare": (),
             "compare_plans": (), "participation": ("parcels",)}
    label = {"place": "the start place (where to search from)", "category": "the kind of facility (a category such as "
             "pharmacy, school or parking)", "origin": "the start place", "destination": "the destination place",
             "task": "the kind of plan (land use, roads or charging stations)", "budget": "the budget (k€)",
             "parcels": "the parcels GeoJSON file"}
    for g in goals:
        if g.absent:
            continue   # answered with "X is not in the data"
        for k in needs[g.intent]:
            if g.slots.get(k) in (None, ""):
                miss.append(label[k])
        if g.intent in ("find", "count", "exists") and not g.slots.get("category"):
            miss.append("what to look for (a name or a kind of place)")
    if region is None and any(g.intent != "participation" for g in goals):
        miss.insert(0, "the region (helsinki or kotka)")
    return list(dict.fromkeys(miss))


# ------------------------------------------------------------------------ the model's reading
READING_SCHEMA = {
    "type": "object",
    "properties": {"intent": {"type": "string", "enum": list(INTENTS) + ["unknown"]},
                   "category": {"type": "string", "enum": list(CATEGORIES) + ["none"]},
                   "task": {"type": "string", "enum": list(TASKS) + ["none"]},
                   "preferences": {"type": "array", "items": {"type": "string"}, "maxItems": 2}},
    "required": ["intent", "category", "task", "preferences"],
}
COGNITION_SCHEMA = READING_SCHEMA


def model_prompt(request: str, task: Task) -> list[dict[str, str]]:
    return [{"role": "system", "content": "You read urban planning requests. Intents: " + ", ".join(INTENTS)
             + ". Categories: " + ", ".join(CATEGORIES) + ". Plan tasks: station (EV chargers), land (land use), "
             "road. Reply with JSON: intent, category, task, up to two soft preferences."},
            {"role": "user", "content": f"Request: {request}\nNames found in the data: "
                                        f"{json.dumps(task.entities['places'], ensure_ascii=False)}"}]


def check_reading(task: Task, reply: dict[str, Any]) -> Goal | None:
    """The model's reading as a goal when the rules found none and every slot it needs is
    grounded in the request (see module docstring); else None."""
    intent, cat, kind = reply.get("intent"), reply.get("category"), reply.get("task")
    if task.goals or intent not in INTENTS:
        return None
    said = {c.split(" ")[0] for c in task.entities["categories"]}
    places = task.entities["places"]
    if intent == "summary":
        return Goal("summary", {}, "model reading")
    if intent in ("find", "count", "exists") and cat in said:
        return Goal(intent, {"category": cat}, "model reading")
    if intent == "nearest" and cat in said and len(places) == 1:
        return Goal("nearest", {"place": places[0], "category": cat}, "model reading")
    if intent == "route" and len(places) == 2:
        return Goal("route", {"origin": places[0], "destination": places[1]}, "model reading")
    if intent == "plan" and kind in TASKS and re.search(dict(TASK_WORDS)[kind], task.request, re.I) \
            and len(task.entities["budgets_keur"]) == 1:
        return Goal("plan", {"task": kind, "budget": task.entities["budgets_keur"][0], "size": "small"}, "model reading")
    return None


def merge_model(task: Task, reply: dict[str, Any]) -> Task:
    """Keep the model's soft preferences; adopt its reading only through ``check_reading``."""
    task.soft = [str(p)[:120] for p in reply.get("preferences", [])[:2] if str(p).strip()]
    if reply.get("intent") in INTENTS:
        task.sources["model_intent"] = reply["intent"]
    goal = check_reading(task, reply)
    if goal is not None:
        task.goals = [goal]
        task.intent = goal.intent
        task.sources["goals"] = "model reading, checked by the rules"
        task.missing = _missing(task.goals, task.region, task.entities)
    return task


__all__ = ["COGNITION_SCHEMA", "Goal", "READING_SCHEMA", "Task", "check_reading", "extract", "merge_model",
           "model_prompt"]
