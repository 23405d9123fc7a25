"""The clause reader as an ordered rule table: each rule has an id, a test (a function of the
clause that returns the goals it reads, or None when it does not fire) and an example request
(data, run by tests/core/test_rule_examples.py: each example fires its own rule). Rules are
tried in table order and the first that fires reads the clause, as ``_clause_reading`` did when
it was one function of 39 ifs; the id of the rule that fired goes to the task's ``trace`` (and
so into every ``ask`` answer), so a reading says which rule made it.

A rule returns a list of goals (possibly empty: "this clause only adds to a goal already read",
e.g. a budget for the plan before) or None ("not mine, try the next rule"). The clause's facts
(its places, facility words, money, distances, back-references, task words, budget) are read
once into a ``Clause`` before any rule runs; the patterns are in ``wording``."""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ...city.vocabulary import CategoryTerm, Money, category_terms
from .name_forms import FROM_ENDINGS, TO_ENDINGS
from .reading import AREA_KINDS, NEAR_M, Goal, Place, inside
from .wording import BACKREF, CUES, FI_BACKREF, FI_BACKREF_ROLE, TASK_WORDS, W


# ------------------------------------------------------------------------ clause-level helpers
def fold_into(plan: Goal, evaluate: bool, sites: bool) -> list[Goal]:
    """A clause that only asks more of a plan already read adds that to it (no goal of its own)."""
    plan.slots["evaluate"] = plan.slots.get("evaluate") or evaluate
    plan.slots["sites"] = plan.slots.get("sites") or sites
    return []


def plan_near(request: str, cp: list[Place], cd: list[float]) -> dict[str, Any] | None:
    """The place a plan request wants its sites near, as a constraint to hold the plan to:
    {place, name, radius_m, default_radius}; the distance said, else ``NEAR_M`` (said in the reply)."""
    for p in cp:
        if p.found and p.kind != "region" and W["near_slot"].search(request[max(0, p.start - 30):p.start]):
            return {"place": p.id, "name": p.name, "radius_m": cd[0] if cd else NEAR_M, "default_radius": not cd}
    return None


def backrefs(text: str, s: int, before: list[Goal]) -> dict[str, str]:
    """'from it' / 'to that car park' → the previous goal's result; 'there' → the facility a
    nearest-search found ("route there", "how far is it from there", "the drive from there to X"), but
    'X from there' ("how far is Tokoinranta from there") and other goals' 'there' → its place; after a
    route, 'there' and 'from it' → where the route ended."""
    out: dict[str, str] = {}
    if not before:
        return out
    last = len(before) - 1
    prev = before[-1]
    said = [((m.group(1) or "any").lower(), m.group(2).lower()) for m in BACKREF.finditer(text)]
    said += [(FI_BACKREF_ROLE[m.group(1).lower()], "it") for m in FI_BACKREF.finditer(text)]   # "sieltä": from it
    for role, word in said:
        if prev.intent == "route" and prev.slots.get("destination") and (word == "there" or role == "from"):
            # after a route, 'there' / 'from it' / 'sieltä' is where it ended: "distance from A to B, and from there
            # to C" (B; it was read as A), "which fuel station is nearest to X by road, and the distance from there
            # to Y" (the road line X → the station found is the goal before: the station)
            value = str(prev.slots["destination"])
        elif (word == "there" and (prev.intent != "nearest" or (role == "from" and not W["it"].search(text)
                                                             and not W["from_there_to"].search(text)))) \
                or prev.intent == "locate" \
                or (prev.intent in ("within", "find", "count", "exists") and prev.slots.get("place")
                    and re.search(CUES["count"], prev.clause, re.I)) \
                or _counted_around(prev) or _looked_in_area(prev):
            # a number of places counted around X is no place to go from: 'it' is X ("a gym near X … to it": the gym);
            # "Where's X, and the nearest school to it?": X itself
            value = prev.slots.get("place") or prev.slots.get("origin") or prev.slots.get("area") or f"$goal:{last}"
        else:
            value = f"$goal:{last}"
        noun = word.split(" ", 1)[1] if word.startswith(("that ", "this ")) else ""
        kinds = {t.category for t in category_terms(noun)} if noun else set()
        if kinds and prev.intent == "nearest" and prev.slots.get("category") not in kinds and prev.slots.get("place"):
            value = prev.slots["place"]   # "nearest petrol station to X, … within 1 km of that garage": X, not the station
        out.setdefault(role, value)
        out.setdefault("any", value)
    return out


#: a plural facility word (English -s, Finnish -t / partitive -ja / -ita): the kind counted, not one found
_PLURAL_WORD = re.compile(r"(?:s|t|j[aä]|it[aä])$", re.I)


def _counted_around(prev: Goal) -> bool:
    """"banks within 300 m of X and cafés within 100 m of it": a search around X for a plural kind
    counts them, so 'it' after it is X (not one of the banks); "is there a bank within 300 m of X?
    how far is it" (a singular kind) still means the bank found."""
    word = str(prev.slots.get("word") or "")
    return prev.intent == "within" and bool(prev.slots.get("place")) and bool(_PLURAL_WORD.search(word))


def _looked_in_area(prev: Goal) -> bool:
    """"is there a pharmacy inside the Seepra block? if not, the nearest one to it": after a search of a
    kind in an area, 'it' is the area (what was looked in), not one of the places it may have found."""
    return prev.intent in ("find", "count", "exists") and bool(prev.slots.get("area")) and not prev.slots.get("place")


def origin_of(request: str, s: int, cp: list[Place], refs: dict[str, str]) -> str | None:
    """Where a nearest-search starts: the place after to / from / near / of, else the first."""
    for p in cp:
        if W["origin_before"].search(request[max(s, p.start - 8):p.start]):
            return p.id or p.written
    if cp:
        return cp[0].id or cp[0].written
    return refs.get("from") or refs.get("to") or refs.get("of") or refs.get("any")


def route_ends(request: str, s: int, cp: list[Place], refs: dict[str, str],
               before: list[Goal]) -> tuple[str | None, str | None]:
    """A route's origin and destination: the places after 'from' / 'to' / '→', else in the order
    written, else the back-references and the previous goal's result."""
    def role(p: Place) -> str:
        m = W["route_role"].search(request[max(s, p.start - 10):p.start])
        if m:
            return "to" if m.group(2) else m.group(1).lower()   # "then → Malmingin päiväkoti"
        return _finnish_role(p)

    ids = [(p.id or p.written, role(p)) for p in cp]
    origin = next((i for i, r in ids if r == "from"), None) or refs.get("from")
    dest = next((i for i, r in ids if r == "to"), None) or refs.get("to")
    rest = [i for i, r in ids if r == "" and i not in (origin, dest)]
    if origin is None and rest:
        origin = rest.pop(0)
    if dest is None and rest:
        dest = rest.pop(0)
    return _route_refs(origin, dest, refs, before)


#: Finnish says "to X" and "from X" with a case ending on the name: "matka Casino Helsinkiin" (the
#: distance to Casino Helsinki), "Kiasmasta" (from Kiasma)
#: (the allative too, "matka Yrttitielle", and the illative of a long vowel, "Teemaahan")
FI_TO = re.compile(rf"(?:{TO_ENDINGS}|lle|h[aeiouyäö]n)$", re.I)
FI_FROM_CASE = re.compile(rf"(?:{FROM_ENDINGS})$", re.I)


def _finnish_role(p: Place) -> str:
    """'to' or 'from' when the name as written carries a Finnish case ending its data name lacks."""
    written, name = (p.written or "").casefold(), (p.name or "").casefold()
    if not p.found or written == name or not written.startswith(name[:max(3, len(name) - 2)]):
        return ""
    return "to" if FI_TO.search(written) else "from" if FI_FROM_CASE.search(written) else ""


def _route_refs(origin: str | None, dest: str | None, refs: dict[str, str],
                before: list[Goal]) -> tuple[str | None, str | None]:
    if origin is None and dest is None and refs and before:   # "how far is it to drive there"
        origin, dest = before[-1].slots.get("place"), f"$goal:{len(before) - 1}"
    if origin is None and dest is not None and refs.get("any"):
        origin = refs["any"]
    if origin is None and dest is not None and before and before[-1].intent == "nearest":
        origin = f"$goal:{len(before) - 1}"   # "nearest library to Stockmann, then route to Kiasma"
    if dest is None and origin is not None and refs.get("any") and refs["any"] != origin:
        dest = refs["any"]
    return origin, dest


def term_slots(t: CategoryTerm | None) -> dict[str, Any]:
    """A facility word's slots: category, OSM tag filter, the word as written."""
    if t is None:
        return {"category": None}
    tag = "; ".join(f"{k}={'|'.join(v) if v else '*'}" for k, v in t.tags)
    return {"category": t.category, "tag": tag or None, "word": t.word}


# ------------------------------------------------------------------------ the clause
@dataclass
class Clause:
    """One clause [s, e) of the request with what the rules read from it."""
    request: str
    s: int
    e: int
    places: list[Place]
    terms: list[CategoryTerm]
    money: list[Money]
    dists: list[tuple[int, int, float]]
    before: list[Goal]
    conditional: bool = False
    cp: list[Place] = field(init=False)
    ct: list[CategoryTerm] = field(init=False)

    def __post_init__(self) -> None:
        s, e, request = self.s, self.e, self.request
        self.text = request[s:e]
        self.cp = [p for p in self.places if inside(p.start, s, e) and p.kind != "region"]
        self.ct = [t for t in self.terms if inside(t.start, s, e)]
        if self.before:   # "from that gym, where's the closest pharmacy?": 'that gym' is the result before, not a kind asked for
            refs = [(s + m.start(2), s + m.end(2)) for m in BACKREF.finditer(self.text)
                    if m.group(2).lower().startswith(("that ", "this "))]
            self.ct = [t for t in self.ct if not any(a <= t.start < b for a, b in refs)]
        for t in list(self.ct):   # "… the nearest petrol station to the school": the school named before
            ref = next((p for p in reversed(self.places) if p.end <= s and p.found and p.match is not None
                        and (p.match.feature.category == t.category
                             or any(n.category == t.category for n in category_terms(p.name)))), None)   # "Otsolan Koulu"
            if ref is not None and W["to_the_before"].search(request[max(s, t.start - 12):t.start]) and len(self.ct) >= 2:
                self.ct.remove(t)
                self.cp = sorted(self.cp + [Place(t.start, t.end, request[t.start:t.end], ref.name, ref.id, ref.kind,
                                                  match=ref.match)], key=lambda p: p.start)
        masked = list(self.text)
        for p in self.cp:
            for i in range(p.start - s, min(p.end - s, len(masked))):
                masked[i] = " "
        self.low = "".join(masked).casefold()
        self.cm = [mo for mo in self.money if inside(mo.start, s, e)]
        self.cd = [d for a, _, d in self.dists if inside(a, s, e)]
        self.area_places = [p for p in self.places if inside(p.start, s, e) and p.kind == "region"]
        self.refs = backrefs(self.text, s, self.before)
        self.absent = [p.message for p in self.cp if not p.found]
        self.term = self.ct[0] if self.ct else None

    def cue(self, name: str) -> bool:
        return re.search(CUES[name], self.low) is not None

    def has(self, key: str) -> bool:
        """One of ``wording.W``'s patterns occurs in the clause (places masked, case folded)."""
        return W[key].search(self.low) is not None

    def goal(self, intent: str, **slots: Any) -> Goal:
        return Goal(intent, slots, self.text.strip(), absent=list(self.absent))

    @cached_property
    def tasks(self) -> list[tuple[int, str]]:
        """(offset, task) of each task word ("chargers", "land use", "roads"); "by road" is no road plan."""
        low = self.low
        tasks = [(mm.start() + self.s, t) for t, pat in TASK_WORDS for mm in re.finditer(pat, low)]
        if self.has("by_road"):
            tasks = [(a, t) for a, t in tasks if t != "road" or W["road_task"].search(low.replace("by road", ""))]
        if self.cue("sites"):   # "mitkä kadut?" / "millä kaduilla" (which streets) after a plan: no road plan
            asked = [(m.start() + self.s, m.end() + self.s) for m in re.finditer(CUES["sites"], low)]
            tasks = [(a, t) for a, t in tasks if t != "road" or not any(x <= a < y for x, y in asked)]
        return tasks

    @cached_property
    def task_kinds(self) -> list[str]:
        return list(dict.fromkeys(t for _, t in sorted(self.tasks)))

    @cached_property
    def budget(self) -> float | None:
        """The clause's amount; "the same budget" → the plan before's; the one amount said anywhere
        ("Budget is 2 M€. If …, plan land; otherwise plan roads") → each branch's."""
        if self.cm:
            return self.cm[0].keur
        if self.has("same_money"):
            got = next((g.slots.get("budget") for g in reversed(self.before) if g.intent == "plan"), None)
            if got is not None:
                return got
        if len(self.money) == 1 and not any(g.intent == "plan" and g.branch in ("", "if") for g in self.before):
            mo = self.money[0]
            return mo.keur if mo.start >= self.e or mo.start < self.s else None
        return None

    @cached_property
    def earlier_plan(self) -> Goal | None:
        return next((g for g in reversed(self.before) if g.intent == "plan"), None)

    @cached_property
    def origin(self) -> str | None:
        return origin_of(self.request, self.s, self.cp, self.refs)

    def bare(self) -> bool:
        """No place, facility word nor money in the clause."""
        return not self.cp and not self.ct and not self.cm


# ------------------------------------------------------------------------ the rules, in order
def participation(c: Clause) -> list[Goal] | None:
    if not c.cue("participation"):
        return None
    pm = W["geojson"].search(c.text)
    return [c.goal("participation", parcels=pm.group(0) if pm else None)]


#: an elliptic follow-up that only names another place: "entä Leivosessa?", "entäpä Kumparepuistosta?", "what
#: about Oodi?", "and in Kluuvi?", "same for Ateneum", "ja Otsonkalliolla?" (places masked, so only the words stay)
_ELLIPSIS = re.compile(r"^\W*(?:(?:and|but|so|ja|mutta)\s+)?(?:entä(?:pä)?|what about|how about|and|ja|"
                       r"(?:and\s+)?(?:the\s+)?same\s+(?:question\s+|thing\s+)?(?:for|with)|likewise\s+for|ditto\s+for)"
                       r"\s+(?:(?P<role>in|inside|at|on|for|around|near|from|to|of)\s+)?(?:the\s+)?\W*$")
#: the intents an elliptic follow-up repeats, and the slot of the place each puts the new place in
_PLACE_SLOT = {"nearest": "place", "within": "place", "locate": "place"}
#: a Finnish local case on a name: at / in (-ssa, -lla), from, to
_FI_AT = re.compile(r"(?:ssa|ssä|lla|llä)$", re.I)


def elliptic_follow_up(c: Clause) -> list[Goal] | None:
    """"Kukko-korttelissa montako toimistoa? entä Leivosessa?", "nearest pharmacy to Kiasma? what about Oodi?",
    "how far is Kiasma from Oodi? and from Ateneum?": a part that only names another place after a marker
    ("entä", "what about", "and", "same for") asks the previous part's question again with that place in the
    role the previous part's place had (its area, its origin, its centre; a route's end by "from" / "to" or
    the Finnish case). Where the part before had no place (a region-wide count) or a route's end is not
    said, it reads nothing: the part is then asked about, never guessed."""
    prev = c.before[-1] if c.before else None
    m = _ELLIPSIS.match(c.low)
    if prev is None or prev.branch or m is None or len(c.cp) != 1 or c.ct or c.cd or c.cm or c.task_kinds:
        return None
    p = c.cp[0]
    role = m.group("role") or _finnish_role(p) or ("in" if _FI_AT.search(p.written or "") else "")
    asked = [g for g in c.before if g.clause == prev.clause and not g.branch]
    out = [_again(c, g, p, role) for g in asked]
    return out if out and all(g is not None for g in out) else None


def _again(c: Clause, g: Goal, p: Place, role: str) -> Goal | None:
    """Goal ``g`` asked again of place ``p`` (in ``role``), or None when ``g`` has no place so to replace."""
    slots, new = dict(g.slots), p.id or p.written
    if g.intent in _PLACE_SLOT and slots.get("place") and not str(slots["place"]).startswith("$goal"):
        slots[_PLACE_SLOT[g.intent]] = new
        if g.intent == "locate":
            slots["name"] = p.name or p.written
        return c.goal(g.intent, **slots)
    if g.intent in ("find", "count", "exists") and slots.get("area") and slots.get("category"):
        if not p.found or p.kind in AREA_KINDS or p.area_name:   # (one the data lacks: said to be absent)
            slots["area"] = slots["area_name"] = p.area_name or p.name or p.written
            return c.goal(g.intent, **slots)
        # a point where an area was: counted around it, within the default radius (said, as find.kind does)
        kind = {k: slots.get(k) for k in ("category", "tag", "word")}
        return c.goal("within", place=new, radius_m=NEAR_M, default_radius=True, **kind)
    if g.intent == "route" and role in ("from", "to") and slots.get("origin") and slots.get("destination"):
        slots["origin" if role == "from" else "destination"] = new
        return c.goal("route", **slots) if slots["origin"] != slots["destination"] else None
    return None


def compare_plans(c: Clause) -> list[Goal] | None:
    # "With 300 000 €, which plan comes out better: land use or charging stations?": the one amount
    # said before the question is each plan's
    if not (len(c.task_kinds) >= 2 and (c.cm or c.budget is not None) and c.has("compare_words")):
        return None
    plans = []
    starts = sorted(a for a, _ in c.tasks)
    for a, t in sorted(c.tasks):
        if not c.cm:
            plans.append({"task": t, "budget": c.budget})
            continue
        # "roads at 200k vs chargers at 300k": the amount after the task word, before the next one
        nxt = next((b for b in starts if b > a), len(c.request))
        mo = next((mo for mo in c.cm if a < mo.start < nxt), None) or min(c.cm, key=lambda mo: abs(mo.start - a))
        plans.append({"task": t, "budget": mo.keur})
    return [c.goal("compare_plans", plans=list({p["task"]: p for p in plans}.values()))]


#: a kind of plan said only by its first word, the noun "plan" shared with the kind after it: "station vs road
#: plan", "a land and a road plan", "station/road plans", Finnish "latausasema- vai tiesuunnitelma" (the hyphen
#: stands for the shared "-suunnitelma"); group ``a`` the bare word (its task from ``_BARE_TASK``)
_BARE_KIND = (r"charging|chargers?|ev|stations?|land(?:[- ]use)?|zoning|roads?|streets?"
              r"|(?:lataus\w*|asema|maankäyttö|kaava|tie|katu)(?=-)")
_SHARED_PLAN = re.compile(r"\b(?P<a>" + _BARE_KIND + r")\s*-?\s*(?:,\s*|/\s*|&\s*|\+\s*|\s(?:vs\.?|versus|or|and|vai|tai|ja|"
                          r"against|compared\s+(?:to|with))\s+)(?:an?\s+|the\s+)?(?:" + _BARE_KIND + r")?[\s-]*"
                          r"(?:plans?\b|plan\w*|\w*suunnitelm\w*)", re.I)
_BARE_TASK = (("station", re.compile(r"charg|ev$|station|lataus|asema", re.I)),
              ("land", re.compile(r"land|zoning|maankäyt|kaava", re.I)),
              ("road", re.compile(r"road|street|tie|katu", re.I)))
#: which of the plans is better, in Finnish too: "kumpi on parempi", "kumpi pisteyttää paremmin", "vertaa"
_PLANS_COMPARED = re.compile(r"\b(?:compare\w*|against|versus|vs\.?|better|best|higher|more points|which one|which|"
                             r"kumpi|kummalla|parempi|paremmin|paras|vertaa\w*|vertail\w*)(?!\w)", re.I)
#: two kinds said bare, with no "plan" at all, set against each other: "land vs station, 1,5 M€ each — which is
#: better?" (read only with an amount and a comparison: then they can only be plans; v14-cc-10 made the land plan
#: alone)
_BARE_WORD = _BARE_KIND.split("|(?:lataus")[0] + r"|maankäyt\w*|kaava\w*|tie|tiet|teit\w*|latausasem\w*|latauspist\w*"
#: (joined by "vs" / "or" / "vai", or by "/", "&", "+", "and", "ja": "land / station, 1,5 M€ each — which is better?",
#: "maankäyttö ja tie 800 000 eurolla, kumpi on parempi?" had also made the first plan alone)
_BARE_PAIR = re.compile(r"\b(?P<a>" + _BARE_WORD + r")(?:\s*[/&+]\s*|\s+(?:vs\.?|versus|or|vai|tai|against|and|ja)\s+)"
                        r"(?P<b>" + _BARE_WORD + r")\b", re.I)
#: "plan both", "one of each": several kinds asked as a plan each
_EACH_PLAN = re.compile(r"\b(?:both|each|all three|kumpikin|molemm\w*|kaikki)\b", re.I)


def _said_tasks(c: Clause) -> list[tuple[int, str]]:
    """(offset, task) of every kind of plan the clause names, a bare first word before a shared "plan"
    ("station vs road plan": the station) included."""
    tasks = list(c.tasks)
    bare = [(m.start(g), m.group(g)) for m in _BARE_PAIR.finditer(c.low) for g in ("a", "b")] \
        if c.cm and _PLANS_COMPARED.search(c.request) else []
    for at, word in [(m.start(), m.group("a")) for m in _SHARED_PLAN.finditer(c.low)] + bare:
        task = next((t for t, rx in _BARE_TASK if rx.search(word)), None)
        if task is not None and not any(a == c.s + at or t == task for a, t in tasks):
            tasks.append((c.s + at, task))
    return sorted(tasks)


def _plans_of(c: Clause, tasks: list[tuple[int, str]]) -> list[dict[str, Any]]:
    """One {task, budget} per kind said (in order, each once): the amount after the kind's word and before
    the next kind's ("roads at 200k vs chargers at 300k"), else the one amount said for all ("600k€ each")."""
    starts = [a for a, _ in tasks]
    plans: dict[str, dict[str, Any]] = {}
    for a, t in tasks:
        budget = c.budget
        if len(c.cm) > 1:
            nxt = next((b for b in starts if b > a), len(c.request))
            mo = next((mo for mo in c.cm if a < mo.start < nxt), None) or min(c.cm, key=lambda mo: abs(mo.start - a))
            budget = mo.keur
        plans.setdefault(t, {"task": t, "budget": budget})
    return list(plans.values())


def plans_of_kinds(c: Clause) -> list[Goal] | None:
    """"helsinki: station vs road plan, 600k€ each – which scores better", "kumpi on parempi, latausasema- vai
    tiesuunnitelma 500 k€:lla", "plan roads and chargers with 300k each": a plan asked of two or more kinds
    (a kind said by its first word only before a shared "plan" counted) is a plan of each kind — compared
    when the request asks which is better, else each made — never one of them with the others dropped."""
    tasks = _said_tasks(c)
    kinds = list(dict.fromkeys(t for _, t in tasks))
    # (a facility word that is itself a kind of plan's word, "chargers", "latausasema-", is that kind)
    own = [t for t in c.ct if not any(re.fullmatch(pat, c.request[t.start:t.end], re.I) for _, pat in TASK_WORDS)
           and not _SHARED_PLAN.match(c.request[t.start:].casefold())]
    bare = bool(c.cm and _BARE_PAIR.search(c.low) and _PLANS_COMPARED.search(c.request))
    if len(kinds) < 2 or not (_plan_wanted(c) or _SHARED_PLAN.search(c.low) or bare) or c.cp or own:
        return None
    plans = _plans_of(c, tasks)
    if bare or _PLANS_COMPARED.search(c.low) or W["or"].search(c.low) or re.search(r"\b(?:vai|tai)\b", c.low):
        return [c.goal("compare_plans", plans=plans)]
    if not (_EACH_PLAN.search(c.low) or re.search(r"\b(?:and|ja|sekä)\b|[,&/]", c.low)):
        return None
    return [c.goal("plan", task=p["task"], budget=p["budget"], size="small", evaluate=c.cue("evaluate"),
                   sites=c.cue("sites")) for p in plans]


def compare_plans_money_before(c: Clause) -> list[Goal] | None:
    """"Kotka: a quarter of our 2 M€ budget — road plan vs station plan, which scores better?": the
    clause before said only the money (a plan of no kind yet); the comparison of two kinds after it
    is what that money was for, each plan with it."""
    prev = c.before[-1] if c.before else None
    if prev is None or prev.intent != "plan" or prev.branch or prev.slots.get("task") is not None \
            or prev.slots.get("budget") is None or len(c.task_kinds) < 2 or c.cm or not c.has("compare_words"):
        return None
    prev.intent = "compare_plans"
    prev.slots = {"plans": [{"task": t, "budget": prev.slots["budget"]} for t in c.task_kinds]}
    return []


def compare_places(c: Clause) -> list[Goal] | None:
    cp = c.cp
    if not ((c.cue("compare") or c.has("which_of_closest") or (c.cue("nearest") and len(cp) >= 3 and c.has("or")))
            and (len(cp) >= 3 or (len(cp) == 2 and c.refs))):   # "which school is closest to X: A, B or C?"
        return None
    return _compare(c)


#: "is A further from X than B", "kumpi on lähempänä X:tä, A vai B?" (which is closer to X): the
#: comparison word, its target the first place after it
_FURTHER = re.compile(r"\b(?:further|farther)\s+(?:away\s+)?from\b(?=.*\bthan\b)|\b(?:lähempänä|kauempana|lähempana)\b",
                      re.I | re.S)


def compare_further(c: Clause) -> list[Goal] | None:
    """"Is Martankatu further from Lohentie than Siiantie is?", "Kumpi on lähempänä Lohentietä,
    Martankatu vai Siiantie?": which of two places is nearer by road to a third (the same comparison,
    the nearer named first), read from "further … than" and Finnish "lähempänä / kauempana"."""
    m = _FURTHER.search(c.low)
    after = [p for p in c.cp if m and p.start - c.s >= m.end()]
    if m is None or len(c.cp) != 3 or not after:
        return None
    return _compare_goal(c, after[0])


#: what a clause after a comparison may say of it without asking anything new: "by road", "which one,
#: and how far?", "kumpi ja kuinka kaukana?", "and by how much?"
_COMPARE_MORE = re.compile(r"^[\s,;:.?!–—-]*(?:(?:and|so|ja|eli|by road|by car|ajaen|tietä pitkin|which(?: one)?|"
                           r"how far|how much|by how much|how many (?:metres|meters)|kumpi|kuinka (?:kaukana|pitkä)|"
                           r"paljonko|(?:the )?distances?|both|each|please|pls)\b[\s,;:.?!–—-]*)+$", re.I)


def compare_follows(c: Clause) -> list[Goal] | None:
    """"is Stadium or Zara closer to Ooster? by road", "… nearer to Taaleri by road — which one, and how
    far?": a part after a comparison that only asks how it is measured, which one or how far is answered
    by that comparison (each option's road distance is stated), not a route without ends."""
    prev = c.before[-1] if c.before else None
    if prev is None or prev.intent != "compare" or not c.bare() or c.cd or c.refs or not _COMPARE_MORE.match(c.text):
        return None
    return []


def compare_of_list(c: Clause) -> list[Goal] | None:
    """"Of UniSport, Kluuvi, Helsinki Contemporary and Luckan, which one is nearest to Hallintorakennus?":
    a list of places, then which of them is nearest to the place after "to" (the list is split on the
    data's names, so "UniSport, Kluuvi" is one option)."""
    if not (c.cue("nearest") and len(c.cp) >= 3 and c.has("which_of_list")):
        return None
    return _compare(c)


def _compare(c: Clause) -> list[Goal]:
    """The comparison of a clause's places: the target (after "closer to", a leading "X:", else the
    place after the last "to", else the last) and the options (the others)."""
    cp = c.cp
    k = W["closer_to"].search(c.low)
    after = [p for p in cp if k and p.start - c.s >= k.start()]
    target = after[0] if after and len(cp) >= 3 and cp.index(after[0]) != 1 else None
    if target is None and W["target_colon"].match(c.text):   # "Scandic Paasi: Topelia or Sunnin talo, which is closer?"
        target = cp[0]
    if target is None:   # "is A or B the nearer park to C": the place after the last 'to'
        tos = [p for p in cp if W["to_before"].search(c.request[max(c.s, p.start - 12):p.start])]
        target = tos[-1] if tos else cp[-1]
    return _compare_goal(c, target)


def _compare_goal(c: Clause, target: Place) -> list[Goal]:
    """The comparison goal of the clause's places other than ``target``, measured to it."""
    options = [p for p in c.cp if p is not target]
    found = [p for p in options if p.found]
    if target.found and found and len(found) < len(options):
        # "Is Ateneum or the Design Museum closer to Kiasma?": the option the data has is measured,
        # the other is said to be missing (the task's absent line), and no winner is claimed
        return [Goal("compare", {"candidates": [p.id for p in found], "names": [p.name for p in found],
                                 "target": target.id, "target_name": target.name,
                                 "missing": [p.written for p in options if not p.found]}, c.text.strip())]
    return [c.goal("compare", candidates=[p.id or p.written for p in options], names=[p.name or p.written for p in options],
                   target=target.id or target.written, target_name=target.name or target.written)]


def plan_money_follows(c: Clause) -> list[Goal] | None:
    last_plan = c.before[-1] if c.before and c.before[-1].intent == "plan" else None
    if last_plan is None or not c.cm or c.task_kinds or c.cp or c.ct:
        return None
    # "Plan road upgrades for Kotka; we can spend 250 000 euros": the money is that plan's
    last_plan.slots["budget"] = c.cm[0].keur
    return []


def plan_evaluate_follows(c: Clause) -> list[Goal] | None:
    plan = c.earlier_plan
    if not ((c.cue("evaluate") or c.cue("sites")) and c.bare() and plan is not None
            and set(c.task_kinds) <= {plan.slots.get("task")}):
        return None
    # "…, then evaluate the resulting plan" / "…, then evaluate the allocation": the plan just made
    return fold_into(plan, c.cue("evaluate"), c.cue("sites"))


def within_radius_follows(c: Clause) -> list[Goal] | None:
    if not (c.before and c.before[-1].intent == "within" and c.cd and c.bare()):
        return None
    # "Is there a cinema near Lasipalatsi? say within 400 metres": the radius of that search
    c.before[-1].slots.update(radius_m=c.cd[0], default_radius=False)
    return []


def compare_plans_follows(c: Clause) -> list[Goal] | None:
    if any(g.intent == "compare_plans" for g in c.before) and c.bare() and not c.task_kinds \
            and (c.cue("plan") or c.cue("evaluate") or c.cue("compare")):
        return []   # "… or EV charging? Compare both plans' scores and recommend one": that comparison
    return None


def _plan_wanted(c: Clause) -> bool:
    plan_cue = c.cue("plan") or (c.cm and c.task_kinds)
    return bool(plan_cue and (c.task_kinds or c.cm or W["plan_ask"].search(c.low.strip()))
                and not (c.cue("nearest") and not c.cm) and not (c.cue("route") and c.cp and not c.cm))


def plan_continues(c: Clause) -> list[Goal] | None:
    task = c.task_kinds[0] if c.task_kinds else None
    plan = c.earlier_plan
    if not (_plan_wanted(c) and c.budget is None and not c.cm and plan is not None
            and task in (None, plan.slots.get("task")) and not c.has("another")):
        return None
    # "… is 275 000 euros for roads — draft the new links and score them": the same plan
    return fold_into(plan, c.cue("evaluate"), c.cue("sites"))


#: money said as the background of a question, not as a plan asked: "Before we put ~150k€ into new
#: chargers: is there …", "Ennen kuin käytämme 200 000 euroa teihin, montako …"; the lead ends at ":" or ",";
#: a few words may come first ("Quick one before …", "Two things before we spend the €1.2M: …", "Kaksi asiaa
#: ennen kuin …"), none of them asking for a plan (``_lead_head_asks_plan``)
_LEAD_WORDS = r"(?:[^:?!.]|\.(?=\d))*?"   # no sentence ends in the lead; a decimal point does not ("the €1.2M")
_MONEY_LEAD = re.compile(r"^\s*(?P<head>(?:[^\W\d_][\w'’-]*,?\s+){0,4}?)"
                         r"(?:before|prior to|ahead of|ennen kuin|ennen)\b" + _LEAD_WORDS + r"[:,–—]\s+"
                         # "Budget is 0,4 M€ but first the basics: …", "We have 300k, but first: …",
                         # "Budjetti on 400 000 €, mutta ensin: …": the money, then "but first" and the question
                         r"|^\s*" + _LEAD_WORDS + r"\b(?:but|mutta|though|however)\s+(?:first|ensin|ensiksi)\b"
                         + _LEAD_WORDS + r"[:,–—]\s+", re.I)
#: what makes the rest a question about the data ("is there", "how many", "onko", "montako", "lähin", "list")
_DATA_QUESTION = re.compile(r"\b(?:is there|are there|do (?:we|you) have|have we got|any|how many|number of|list|"
                            r"which|where|nearest|closest|onko|onkos|montako|kuinka monta|mitä|mitkä|missä|"
                            r"lähin|lähimmät|löytyykö|luettele|how far|distance|road distance|kuinka kaukana|etäisyys|"
                            r"matka)\b", re.I)


def _lead_head_asks_plan(m: re.Match[str]) -> bool:
    """The words before "before" ask for a plan ("Plan chargers before we spend 300k, …"): no background."""
    head = (m.group("head") or "").casefold()
    return re.search(CUES["plan"], head) is not None or any(re.search(pat, head) for _, pat in TASK_WORDS)


def plan_money_as_background(c: Clause) -> list[Goal] | None:
    """"Before we put ~150k€ into new chargers: is there any EV charging station in the Helsinki data
    already?": the money is said as background and the question after the lead is the goal; no plan
    is made unless the question part asks for one (a plan word or a build verb after the lead)."""
    m = _MONEY_LEAD.match(c.text)
    if m is not None and _lead_head_asks_plan(m):
        return None
    if m is None and _MONEY_LEAD.match(c.text + ", ") and c.cm:
        # the lead is a clause of its own ("Ennen kuin käytämme 300 000 euroa latausasemiin, onko …"):
        # it reads no goal when the clause after it asks about the data and no plan
        after = re.split(r"[.;?!]", c.request[c.e:].lstrip(" ,:–—"))[0]
        nxt = Clause(c.request, c.e, c.e + 1 + len(after), c.places, c.terms, [], c.dists, c.before)
        return [] if _DATA_QUESTION.search(after) and not nxt.cue("plan") and (nxt.ct or nxt.cp) else None
    if m is None or not any(c.s <= mo.start < c.s + m.end() for mo in c.cm):
        return None
    rest = Clause(c.request, c.s + m.end(), c.e, c.places, c.terms, [], c.dists, c.before, c.conditional)
    # the question may end the sentence after a list of kinds ("… but first the basics: parks in the data,
    # and car parks — how many of each?"): the sentence's later clauses are read on their own
    sentence = rest.low + " " + re.split(r"[?!]|\.\s", c.request[c.e:])[0].casefold()
    if not _DATA_QUESTION.search(sentence) or rest.cue("plan") or not (rest.ct or rest.cp):
        return None
    trace: list[str] = []
    got = read_clause(rest, trace)
    return got if got and all(g.intent != "plan" for g in got) else None


def plan_request(c: Clause) -> list[Goal] | None:
    if not _plan_wanted(c):
        return None
    task, budget = c.task_kinds[0] if c.task_kinds else None, c.budget
    if task is None and any(g.slots.get("category") == "charging" for g in c.before) and c.has("some_them"):
        task = "station"   # "Unless there are chargers in Kotka, plan some with 200k"
    if task is None and c.has("do_it"):
        task = c.earlier_plan.slots.get("task") if c.earlier_plan else None
        if budget is None and c.earlier_plan is not None:
            budget = c.earlier_plan.slots.get("budget")
    near = plan_near(c.request, c.cp, c.cd)
    return [c.goal("plan", task=task, budget=budget, size="small", evaluate=c.cue("evaluate"), sites=c.cue("sites"),
                   **({"near": near} if near else {}))]


def plan_terse(c: Clause) -> list[Goal] | None:
    """"Stations, Kluuvi." / "Roads for Karhula": a task word with at most a place and filler words is
    a plan of that kind (its budget, when none is said anywhere, is asked for)."""
    if len(c.task_kinds) != 1 or c.ct or c.cd or "?" in c.text:
        return None
    rest = c.low
    for p in c.area_places:   # the region named ("Roads, Karhula.")
        rest = rest.replace(c.request[p.start:p.end].casefold(), " ")
    for _, pat in TASK_WORDS:
        rest = re.sub(pat, " ", rest)
    if W["terse_filler"].sub(" ", rest).strip(" ,.;:!-–—"):
        return None
    return [c.goal("plan", task=c.task_kinds[0], budget=c.budget, size="small", evaluate=False, sites=False)]


#: words that put more of a kind into a region, or ask what it may cost: "add", Finnish "lisää" (more,
#: add), "uusia" (new ones), "budjetti" (the budget)
_ADD_WORDS = re.compile(r"\b(?:add|adding|lisää|lisätä|lisätään|uud\w*|uus\w*|budjet\w*)\b", re.I)


def plan_add_to(c: Clause) -> list[Goal] | None:
    """"latausasemat Karhulaan, budjetti?" (chargers into Karhula — budget?), "lisää latausasemia
    Karhulaan", "add chargers to Karhula", "uusia teitä Karhulaan": a kind of plan put into a region
    with no place, distance or question of a place is that plan (its budget asked for when unsaid),
    not a search for the chargers already there."""
    if len(c.task_kinds) != 1 or c.cp or c.cd or c.cue("count") or c.cue("nearest") or c.cue("route") \
            or not _ADD_WORDS.search(c.low):
        return None
    return [c.goal("plan", task=c.task_kinds[0], budget=c.budget, size="small", evaluate=c.cue("evaluate"),
                   sites=False)]


def summary(c: Clause) -> list[Goal] | None:
    if c.ct or not (c.cue("summary") or (not c.cp and c.has("region_facts"))
                    or (c.area_places and not c.cp and c.has("what_around"))):
        return None   # "what's around Karhula?": the region itself
    return [c.goal("summary")]


#: an aside on what else would do or does not matter: "but schools are fine", "bars don't count",
#: "(restaurants are fine too)", "koulut käyvät myös"
ASIDE = re.compile(r"\b(?:is|are)\s+(?:(?:also|just|totally|perfectly)\s+)?(?:fine|ok(?:ay)?|allowed|acceptable|welcome)\b"
                   r"|\b(?:do(?:es)?n'?t|do(?:es)? not)\s+(?:count|matter)\b|\bnot needed\b"
                   r"|\b(?:käy|käyvät|kelpaa|kelpaavat)\b|\b(?:on|ovat)\s+ok\b", re.I)
QUESTION_WORDS = re.compile(r"\b(?:how many|how far|nearest|closest|list|where|which|find|show|plan\w*|count the|"
                            r"montako|lähin|missä)\b|\?", re.I)


#: a street's length asked ("how long is X", "the length of X", "kuinka pitkä on X", "X:n pituus")
_STREET_LENGTH = re.compile(r"\bhow\s+long\b|\blength\b|\bhow\s+many\s+(?:metres|meters|kilomet(?:re|er)s|km)\b[^?]*\blong\b"
                            r"|\b(?:kuinka|miten|kuinka\s+monta\s+metriä)\s+pitkä\b|\bpituu\w*", re.I)
#: the streets crossing or meeting a street ("which streets cross X", "what intersects X", "junctions with X",
#: "mitkä kadut risteävät X:n kanssa")
_STREET_CROSS = re.compile(r"\bcross(?:es|ing)?\b|\bintersect\w*|\bmeets?\b|\bjunctions?\s+with\b"
                           r"|\bristeä\w*|\bristey\w*", re.I)


def _one_street(c: Clause) -> Any:
    """The clause's one place when it is a street the data has, and nothing else is asked of it (no
    facility word, distance or money), else None."""
    if len(c.cp) != 1 or c.term is not None or c.cd or c.cm or c.refs:
        return None
    p = c.cp[0]
    return p if p.found and p.kind == "street" else None


def street_length(c: Clause) -> list[Goal] | None:
    """"How long is Broadway?", "what is the length of Yrjönkatu", "kuinka pitkä on Puistokatu": the street's
    mapped length, a fact the data holds (no route: one place, no destination)."""
    p = _one_street(c)
    if p is None or not _STREET_LENGTH.search(c.low) or c.cue("nearest"):
        return None
    return [c.goal("street", street=p.id, name=p.name, asked="length")]


def street_crossings(c: Clause) -> list[Goal] | None:
    """"Which streets cross West 86th St?", "what intersects Broadway", "mitkä kadut risteävät Puistokadun
    kanssa": the named streets whose lines cross or meet the street's, from the data."""
    p = _one_street(c)
    if p is None or not _STREET_CROSS.search(c.low):
        return None
    return [c.goal("street", street=p.id, name=p.name, asked="crossings")]


def clause_aside(c: Clause) -> list[Goal] | None:
    """"Nearest pharmacy to Kiasma. Schools are fine too.", "…; keep away from housing, but schools are
    fine": a clause after a request that only says what else would do (or does not count) asks nothing:
    its kind is no new kind to look for."""
    if not c.before or c.cp or c.cm or c.cd or not ASIDE.search(c.low) \
            or QUESTION_WORDS.search(ASIDE.sub(" ", c.low)):
        return None
    return []


def _found_set(c: Clause) -> Goal | None:
    return next((g for g in reversed(c.before) if g.intent in ("within", "find", "count", "exists")), None)


def find_those(c: Clause) -> list[Goal] | None:
    found_set, term = _found_set(c), c.term
    if found_set is None or c.cp or not c.has("those" if term else "those_it") \
            or (term is not None and term.category != found_set.slots.get("category")) \
            or not (c.cue("list") or c.cue("count") or c.has("report")):
        return None
    # "…; otherwise report those car parks": the set the condition counted
    return [Goal("find" if found_set.intent in ("count", "exists") else found_set.intent,
                 dict(found_set.slots), c.text.strip())]


def nearest_same_kind(c: Clause) -> list[Goal] | None:
    term = c.term
    same = next((g for g in reversed(c.before) if g.intent == "nearest" and term is not None
                 and g.slots.get("category") == term.category and g.slots.get("tag") == term_slots(term)["tag"]), None)
    if same is None or c.cp or c.cd or c.cue("count") \
            or not re.search(r"\b(?:the|that)\s+" + re.escape(term.word.casefold()) + r"\b", c.low):
        return None
    return [Goal("nearest", dict(same.slots), c.text.strip())]   # "…; otherwise just tell me the pharmacy"


def nearest_each(c: Clause) -> list[Goal] | None:
    """"Kiasma and Oodi: nearest pharmacy to each", "nearest school to both Otsonkallio and Erkinkulma",
    "nearest pharmacy to Kiasma and Oodi": one search from each place named (in order), not from the
    first only (the others dropped)."""
    joined = c.cp and c.term is not None and c.term.end <= c.cp[0].start \
        and W["origin_before"].search(c.request[max(c.s, c.cp[0].start - 8):c.cp[0].start])
    if c.term is None or len(c.cp) < 2 or c.cd or not c.cue("nearest") or not (c.has("each") or joined) \
            or not all(W["leg_sep"].fullmatch(c.request[a.end:b.start].casefold())
                       for a, b in zip(c.cp, c.cp[1:], strict=False)):
        return None
    return [c.goal("nearest", place=p.id or p.written, **term_slots(c.term)) for p in c.cp]


def _kindless_nearest(c: Clause) -> bool:
    """"fuel stations < 3 → nearest to Lohentie", "…, which is closest to Erkinkulma?": a search
    from a named place that names no kind of its own, after a goal that did (that kind is meant)."""
    return bool(c.cp) and not c.cd and re.search(r"\b(?:(?:the\s+)?(?:nearest|closest)\s+(?:to|from)|"
                                                 r"which(?:\s+one)?\s+is\s+(?:the\s+)?(?:nearest|closest))\b",
                                                 c.low) is not None


#: "from there" / Finnish "sieltä" (from there) before a new search: from the place the search before found
_FROM_FOUND = re.compile(r"\b(?:from\s+(?:there|it|that\s+one|that\s+place)|sieltä|sieltä\s+käsin|sieltäpäin)\b", re.I)


def nearest_search(c: Clause) -> list[Goal] | None:
    term = c.term
    if not (c.cue("nearest") and (term or not c.cd)):
        return None
    slots, origin = term_slots(term), c.origin
    prev = c.before[-1].slots if c.before else {}
    if term is not None and not c.cp and c.before and c.before[-1].intent == "nearest" \
            and c.before[-1].slots.get("category") and _FROM_FOUND.search(c.low):
        # "X: nearest shop; from there (sieltä) the nearest fuel station": the second search starts at
        # the shop found, not at X
        origin = f"$goal:{len(c.before) - 1}"
    if term is None and (c.has("one") or (c.bare() and not c.cd and not c.refs) or _kindless_nearest(c)) \
            and prev.get("category"):
        # "if there's a cinema within 300 m of Forum, tell me the nearest one", "…, and which is the
        # closest?": that kind, from there
        slots = {k: prev.get(k) for k in ("category", "tag", "word")}
        origin = origin or prev.get("place")
    if origin is None and term is not None and not c.cp and prev.get("place") \
            and not str(prev["place"]).startswith("$goal") and c.before[-1].intent in ("nearest", "within"):
        # "Kiasma: nearest pharmacy + nearest school", "nearest pharmacy to X and nearest school": the place in force
        origin = prev["place"]
    if origin is None and any(g.branch for g in c.before):
        # a branch of a condition that names no place searches from the place the condition is about:
        # "if there's a charger within 500 m of X …, otherwise give me the nearest car park" (from X)
        origin = next((g.slots.get("place") or g.slots.get("origin") for g in reversed(c.before)
                       if g.slots.get("place") or g.slots.get("origin")), None)
    out = [c.goal("nearest", place=origin, **slots)]
    if c.cue("route") and c.has("how_far"):
        out.append(c.goal("route", origin=origin, destination=f"$goal:{len(c.before)}"))
    return out


def route_to_nearest(c: Clause) -> list[Goal] | None:
    """"the road distance between Kiasma and the nearest cinema to it": a route whose destination
    is itself a nearest-search, split at "and the nearest". The route read before (its origin, no
    destination) becomes the search from that origin, and the route runs to what it finds."""
    prev = c.before[-1] if c.before else None
    if prev is None or prev.intent != "route" or prev.branch or prev.slots.get("destination") is not None \
            or prev.slots.get("origin") is None or c.term is None or c.cp or not c.cue("nearest"):
        return None
    origin = prev.slots["origin"]
    prev.intent, prev.slots = "nearest", {"place": origin, **term_slots(c.term)}
    return [c.goal("route", origin=origin, destination=f"$goal:{len(c.before) - 1}")]


def nearest_within_follows(c: Clause) -> list[Goal] | None:
    """"Closest library to Ateneum. Also: is it within 300 m?": a yes / no question about the
    place just found is answered from that search (its distance against the one asked)."""
    prev = c.before[-1] if c.before else None
    if prev is None or prev.intent != "nearest" or prev.branch or not prev.slots.get("category") \
            or not c.cd or c.cp or c.term is not None or not c.has("is_it"):
        return None
    prev.slots["within_m"] = c.cd[0]
    return []


def within_refines_follows(c: Clause) -> list[Goal] | None:
    """"what's near Oodi? cafes specifically, 100m": a kind (and distance) said right after a
    question about what is near a place, naming no other place, is what that question meant."""
    prev = c.before[-1] if c.before else None
    if prev is None or prev.intent != "nearest" or prev.branch or prev.slots.get("category") is not None \
            or prev.slots.get("place") is None or c.term is None or c.refs or c.cue("nearest") \
            or any((p.id or p.written) != prev.slots["place"] for p in c.cp):
        return None
    prev.intent = "within"
    prev.slots.update(radius_m=c.cd[0] if c.cd else NEAR_M, default_radius=not c.cd, **term_slots(c.term))
    return []


def within_radius(c: Clause) -> list[Goal] | None:
    if c.has("near") and c.term is not None and not (c.cp or c.cd or c.refs or c.area_places or c.cue("route")
                                                      or c.cue("nearest")):
        # "how many banks are near the harbour?": near a place the data does not name — which place?
        return [c.goal("within", place=None, radius_m=NEAR_M, default_radius=True, **term_slots(c.term))]
    default_radius = bool(c.has("near") and c.term is not None and c.cp and not c.cd and not c.cue("route"))
    cd = [NEAR_M] if default_radius else c.cd   # "cafés near Stockmann": within a default radius, stated in the answer
    if not (cd and (c.term or c.has("what_lies")) and not (c.cue("route") and len(c.cp) >= 2)):
        return None
    center = next((p for p in c.cp if W["center_before"].search(c.request[max(c.s, p.start - 10):p.start])), None) \
        or (c.cp[-1] if c.cp else None)
    place = (center.id or center.written) if center else (c.refs.get("any") or _place_in_force(c))
    named = _it_the_named_place(c, place)
    return [c.goal("within", place=named or place, radius_m=cd[0], default_radius=default_radius, **term_slots(c.term))]


#: what stands before the first place of a list of places a kind is looked for at: "cafés at Kiasma and Oodi",
#: "bars near A and B", "within 200 m of A, B and C"
_AT_LIST = re.compile(r"\b(?:at|near|around|by|in|on|inside|of|close to|next to|lähellä)\s+(?:the\s+)?$", re.I)


#: what joins the places of such a list: "Kiasma and Oodi", "A, B and C", "in Karhula and near Otsonkallio"
_LIST_GAP = re.compile(r"\s*(?:,|&|/|\band\b|\bor\b|\bja\b|\btai\b|\bsekä\b|\bplus\b)\s*(?:(?:and|also|then)\s+)?"
                       r"(?:(?:in|on|at|near|around|by|inside|within|of|the|close to|next to)\s+)*"
                       # "… Karhulassa ja 1 km säteellä Otsonkalliosta", "in Karhula and within 1 km of Otsonkallio"
                       r"(?:\d+(?:[.,]\d+)?\s*(?:km|m|metres|meters|metriä|metrin|kilometrin)\s+"
                       r"(?:(?:säteellä|of|from|around)\s+)?)?", re.I)


#: an area said as where to look: "in Kluuvi", "inside the block", "on Yrjönkatu"
_IN_AREA = re.compile(r"\b(?:in|inside|on)\s+(?:the\s+)?$", re.I)


def kind_at_each_place(c: Clause) -> list[Goal] | None:
    """"cafés at Kiasma and Oodi", "how many bars near Kiasma and Ateneum?", "cafés within 200 m of Kiasma and
    Oodi", "montako koulua Karhulassa ja Otsonkalliossa?": one kind and a list of places is a search at each
    place (an area counted or listed in, the region over, a point within the distance said or the default
    one, as for one place), never the first place with the others dropped. A list of areas only is
    ``count.each-area``'s; nearest-searches are ``nearest.each``'s."""
    members = sorted(c.cp + c.area_places, key=lambda p: p.start)
    if c.term is None or len(c.ct) != 1 or len(members) < 2 or c.cm or c.refs or c.conditional \
            or c.cue("nearest") or (c.cue("route") and not c.cd) or not all(p.found for p in members) \
            or c.term.start > members[0].start:
        return None
    if not all(_LIST_GAP.fullmatch(c.request[a.end:b.start]) for a, b in zip(members, members[1:], strict=False)):
        return None
    first = members[0]
    if not (_AT_LIST.search(c.request[max(c.s, first.start - 16):first.start]) or _FI_AT.search(first.written or "")):
        return None
    area = [p.kind in AREA_KINDS or bool(p.area_name) for p in members]
    if all(a and p.kind != "region" for a, p in zip(area, members, strict=True)) and not c.cd:
        return None   # areas only: count.each-area
    counting = c.cue("count") or c.has("how_many")
    kind = term_slots(c.term)
    out = []
    for p, is_area in zip(members, area, strict=True):
        if p.kind == "region":   # "Karhulassa": the region itself
            out.append(c.goal("count" if counting else "find", area=None, **kind))
        elif is_area and (not c.cd or _IN_AREA.search(c.request[max(c.s, p.start - 10):p.start])
                          or _FI_AT.search(p.written or "")):   # "bars in Kluuvi and within 300 m of Ateneum"
            name = p.area_name or p.name
            out.append(c.goal("count" if counting else "find", area=name, area_name=name, **kind))
        else:
            out.append(c.goal("within", place=p.id, radius_m=c.cd[0] if c.cd else NEAR_M, default_radius=not c.cd,
                              **kind))
    return out


#: what may stand between two kinds said of one area: "schools in Karhula and car parks", "cafés on Yrjönkatu, and bars"
_KIND_AREA_GAP = re.compile(r"\s*(?:(?:in|on|at|inside|within|around|near)\s+(?:the\s+)?)?\s*(?:,|&|\+|\band\b|\bja\b|"
                            r"\bsekä\b|,\s*and\b|\bplus\b|\bas well as\b)\s*(?:(?:also|the|any|all)\s+)?", re.I)


def kinds_of_one_area(c: Clause) -> list[Goal] | None:
    """"schools in Karhula and car parks, how many of each?", "kouluja Kluuvissa ja pankkeja": kinds of
    place joined around the one place or area said after the first are each looked for there, never the
    first kind only. Each kind is read as the clause would read it alone."""
    if len(c.ct) < 2 or len({(t.category, t.tags) for t in c.ct}) != len(c.ct) or c.cm or c.refs or c.conditional \
            or len(c.cp) + len(c.area_places) != 1:
        return None
    where = (c.cp + c.area_places)[0]
    a, b = c.ct[0], c.ct[1]
    if len(c.ct) != 2 or not (a.end <= where.start and where.end <= b.start):
        return None
    gap = c.request[a.end:where.start] + c.request[where.end:b.start]
    if not _KIND_AREA_GAP.fullmatch(gap) or not re.search(r"\b(?:in|on|at|inside|around|near)\s+(?:the\s+)?$",
                                                           c.request[a.end:where.start]) \
            and not _FI_AT.search(where.written or ""):
        return None
    out: list[Goal] = []
    for t in c.ct:
        one = Clause(c.request, c.s, c.e, c.places, [t], c.money, c.dists, c.before + out, c.conditional)
        got = read_clause(one, [])
        if not got or any(g.intent not in ("within", "find", "count", "exists") for g in got):
            return None
        out += got
    return out


def count_around_of_what(c: Clause) -> list[Goal] | None:
    """"Please tell me how many there are within 300 metres of Pörssitalo", "montako on 500 metrin
    säteellä Kerrostalosta?": a count around a place with no kind said (and none before to carry) is a
    count of a kind to ask for, not a route from that place ("metres" is no distance asked)."""
    if c.term is not None or c.cm or not c.cd or len(c.cp) != 1 or not c.has("how_many") or c.refs \
            or any(g.slots.get("category") or g.slots.get("word") for g in c.before):
        return None
    # a count of no kind: the reader asks what to count (as "How many are there in Kotka?" does)
    return [c.goal("count", category=None)]


def _it_the_named_place(c: Clause, place: Any) -> str | None:
    """"nearest doctor to X, plus how many gyms within a kilometre of it", "nearest park to X, and the
    car parks within 1 km of it": a search centre said as "of / around / near / from it" in a clause joined to
    a nearest-search by a bare "and" / "plus" / "also" (no step word) is the named place X, the topic
    both clauses share; with a step word ("…, then … of it", "→", ";", "after that") it is the
    facility found (the next step of a sequence), and so is "that park" / "from it" / "how far is it".
    The count's answer line names its centre, so the reading is always said."""
    prev = c.before[-1] if c.before else None
    if prev is None or prev.intent != "nearest" or prev.branch or place != f"$goal:{len(c.before) - 1}" \
            or not re.search(r"\b(?:of|around|near|from)\s+it\b|\bsiitä\b|\bsen\s+(?:ympäri\w*|lähe\w*|lähistö\w*)",
                             c.text, re.I):
        return None
    gap = c.request[max(0, c.s - 12):c.s] + " " + c.text
    origin = prev.slots.get("place")
    ended = _QUESTION_ENDED.search(c.request[max(0, c.s - 12):c.s]) and not W["additive_open"].match(c.text)
    if W["sequence"].search(gap) or ended or origin is None or str(origin).startswith("$goal"):
        return None
    return origin


#: the question before ended ("nearest cinema to X? and how many restaurants within 60 m of it"): a question
#: that found a place is answered, and "it" in the next one is that place (as after "then", "→", ";") — unless
#: the next one opens by adding to it ("X: nearest library? also how many car parks within 1 km of it": X, the
#: topic both share, as a bare "also" / "plus" joins them inside a sentence)
_QUESTION_ENDED = re.compile(r"[?!]|\.\s")


def _place_in_force(c: Clause) -> str | None:
    """The place the clause before searched around or from, for a clause that names none and
    refers to nothing ("around X - how many cafés within 200 m? and how many bars within 200 m?":
    the bars around X too); a found facility ("$goal:N") is never in force without an "it"."""
    prev = c.before[-1] if c.before else None
    if prev is None or prev.branch or prev.intent not in ("within", "nearest") or c.area_places:
        return None
    place = prev.slots.get("place")
    return None if place is None or str(place).startswith("$goal") else place


def _area_in_force(c: Clause) -> str | None:
    """The area the clause before counted or listed in, for a clause that names no place ("How many
    cafés are in Kluuvi, and how many bars?": the bars in Kluuvi)."""
    prev = c.before[-1] if c.before else None
    if prev is None or prev.branch or prev.intent not in ("find", "count", "exists") or c.area_places:
        return None
    return prev.slots.get("area_name") or None


def nearest_how_far_follows(c: Clause) -> list[Goal] | None:
    """"is there a petrol station near X? how far is it by road": 'it' is the one of that kind
    nearest to X (by road), whether or not one lies within the 'near' radius — the search the
    clause before made is kept and the nearest one is added, its road distance reported."""
    prev = c.before[-1] if c.before else None
    if prev is None or prev.intent != "within" or prev.branch or not prev.slots.get("category") \
            or not c.cue("route") or c.cp or c.term is not None or c.cd \
            or not (c.has("it_that") or c.has("how_far_bare")) or re.search(CUES["count"], prev.clause, re.I):
        return None
    place = prev.slots.get("place")
    if place is None or str(place).startswith("$goal"):
        return None
    return [c.goal("nearest", place=place, **{k: prev.slots.get(k) for k in ("category", "tag", "word")})]


def route_already_asked(c: Clause) -> list[Goal] | None:
    """"Which pharmacy is nearest by road to X, and how far it is?": the search read with its road
    route already answers how far; a bare "how far (is it)" after it adds nothing (it is not a route
    from the found place to itself)."""
    prev = c.before[-1] if c.before else None
    k = len(c.before) - 2
    if prev is None or prev.intent != "route" or prev.branch or k < 0 or c.before[k].intent != "nearest" \
            or prev.slots.get("destination") != f"$goal:{k}" or c.cp or c.term is not None or c.cd \
            or not c.cue("route") or not (c.has("it_that") or c.has("how_far_bare")):
        return None
    return []


def route_legs(c: Clause) -> list[Goal] | None:
    """"Luckan → Avoin olohuone, Luckan → LillaLuckan: road metres each", "Kiasma → Oodi → Ateneum",
    "road distance Kiasma to Oodi and Ateneum to Stockmann": places joined pairwise by arrows or "to",
    the pairs by commas or "and", are one route per leg (two legs or more), each answered in order; one
    leg right after a route goes on with the list ("…: Kiasma to Oodi, Kiasma to Ateneum, and Kiasma to
    Stockmann")."""
    prev = c.before[-1] if c.before else None
    more = prev is not None and prev.intent == "route" and not prev.branch
    if len(c.cp) < (2 if more else 3) or not (more or c.cue("route")):
        return None
    legs: list[tuple[Place, Place]] = []
    for a, b in zip(c.cp, c.cp[1:], strict=False):
        gap = c.request[a.end:b.start].casefold()
        if W["leg_arrow"].fullmatch(gap):
            legs.append((a, b))
        elif not W["leg_sep"].fullmatch(gap):
            return None
    if len(legs) < (1 if more else 2) or {id(p) for leg in legs for p in leg} != {id(p) for p in c.cp}:
        return None
    return [c.goal("route", origin=a.id or a.written, destination=b.id or b.written) for a, b in legs]


def route_each(c: Clause) -> list[Goal] | None:
    """"How far are Luckan and Forum from Kiasma, each by road?", "road distance from Kiasma to Oodi and
    Ateneum": a list of places and one place on the other side of "from" / "to" are one route per
    listed place (none dropped)."""
    if len(c.cp) < 3 or not c.cue("route"):
        return None
    gaps = [c.request[a.end:b.start].casefold() for a, b in zip(c.cp, c.cp[1:], strict=False)]
    listed = [bool(W["leg_sep"].fullmatch(g)) for g in gaps]
    last, first = W["from_to_gap"].fullmatch(gaps[-1]), W["from_to_gap"].fullmatch(gaps[0])
    if last and all(listed[:-1]):   # "Luckan and Forum from Kiasma"
        hub, others, hub_first = c.cp[-1], c.cp[:-1], last.group(1) == "from"
    elif first and all(listed[1:]):   # "from Kiasma to Oodi and Ateneum", "to X from A, B and C"
        hub, others, hub_first = c.cp[0], c.cp[1:], first.group(1) == "to"
    else:
        return None
    h = hub.id or hub.written
    return [c.goal("route", origin=h if hub_first else p.id or p.written, destination=p.id or p.written if hub_first else h)
            for p in others]


def route_follows(c: Clause) -> list[Goal] | None:
    """"Otsonkallio to Kumparepuisto by car, how many metres?": a route question that names nothing
    after a route is that route's (its distance is reported)."""
    prev = c.before[-1] if c.before else None
    if prev is not None and prev.intent == "route" and not prev.branch and c.cue("route") and c.bare() \
            and not c.refs and not c.cd and not c.task_kinds:
        return []
    return None


def route_tail_follows(c: Clause) -> list[Goal] | None:
    """"• Kiasma → Ateneum\n• Ateneum → Stockmann\nroad metres please": a last part that only says how
    the routes before are measured (no place, kind, reference or amount) asks nothing new."""
    prev = c.before[-1] if c.before else None
    if prev is None or prev.intent != "route" or prev.branch or not c.cue("route") or c.cp or c.ct or c.refs \
            or c.cm or c.cd or set(c.task_kinds) - {"road"} or not W["measure_only"].fullmatch(c.low.strip()):
        return None
    return []


def route_reported(c: Clause) -> list[Goal] | None:
    if c.cue("route") and c.term is None and not c.cp and not c.refs and c.before and c.before[-1].intent == "nearest":
        return []   # "nearest pharmacy to X and give the driving distance": the search reports it
    return None


#: a place named by its kind at a route's end: "from the school", "to the fuel station", "how far is the library"
KIND_END = re.compile(r"\b(from|to|between|and|is)\s+the\s+$", re.I)


def route_kinds(c: Clause) -> list[Goal] | None:
    """"Could you estimate the road distance from the school to the fuel station?": both ends named by
    their kind only. A route whose ends are those kinds (``ends``); cognition makes each the one feature
    of its kind the region names, else asks which (and the region, when none is given) — never a guess."""
    if c.cp or c.refs or len(c.ct) != 2 or not c.cue("route") or c.cue("nearest"):
        return None
    roles = [KIND_END.search(c.request[max(c.s, t.start - 14):t.start]) for t in c.ct]
    if not all(roles):
        return None
    a, b = c.ct
    if roles[1].group(1).lower() == "from":   # "to the fuel station from the school"
        a, b = b, a
    return [c.goal("route", origin=None, destination=None, ends=[term_slots(a), term_slots(b)])]


def nearest_from_where(c: Clause) -> list[Goal] | None:
    if c.cue("route") and c.term is not None and not c.cp and not c.refs:   # "the distance to the pharmacy": from where?
        return [c.goal("nearest", place=None, **term_slots(c.term))]
    return None


def route_conditional(c: Clause) -> list[Goal] | None:
    cond_route = next((g for g in c.before if g.branch == "if" and g.intent == "route"), None)
    if c.cue("route") and not c.cp and not c.refs and cond_route is not None:
        return [Goal("route", dict(cond_route.slots), c.text.strip())]   # "If A is within 800 m of B, tell me the route length"
    return None


def route_from_found(c: Clause) -> list[Goal] | None:
    """"closest bank to X by road? and from the bank how far to Luckan": "the bank" (from / to the
    kind an earlier nearest-search found) is the facility it found, the other end the place named."""
    term = c.term
    if not c.cue("route") or term is None or c.refs or len(c.cp) > 1:
        return None
    m = re.search(r"\b(from|to)\s+the\s+" + re.escape(term.word.casefold()) + r"\b", c.low)
    k = next((k for k in range(len(c.before) - 1, -1, -1) if c.before[k].intent == "nearest"
              and {key: c.before[k].slots.get(key) for key in ("category", "tag")}
              == {key: term_slots(term)[key] for key in ("category", "tag")}), None)
    if m is None or k is None:
        return None
    other = (c.cp[0].id or c.cp[0].written) if c.cp else c.before[k].slots.get("place")
    found = f"$goal:{k}"
    o, d = (found, other) if m.group(1) == "from" else (other, found)
    return [c.goal("route", origin=o, destination=d)]


#: "the road distance between the two" / "between them": the two places a search before found
_BETWEEN_FOUND = re.compile(r"\bbetween\s+(?:the\s+two|those\s+two|these\s+two|them|both)\b", re.I)


def route_between_found(c: Clause) -> list[Goal] | None:
    """"Should Kotka have fewer than two fuel stations, …; otherwise tell me the road distance between
    the two": a route naming no place, between "the two" / "them", is between the two places the search
    before found (``$goal:N#0`` and ``#1``); where that search found another number, the route is not
    run and the answer says so (``agent._ref``) — never two picked from a longer list."""
    found = _found_set(c)
    if found is None or c.cp or c.term is not None or not c.cue("route") or not _BETWEEN_FOUND.search(c.text):
        return None
    k = next(i for i, g in enumerate(c.before) if g is found)
    return [c.goal("route", origin=f"$goal:{k}#0", destination=f"$goal:{k}#1")]


def route_places(c: Clause) -> list[Goal] | None:
    if c.cue("route") and (len(c.cp) + len(c.refs) >= 1):
        o, d = route_ends(c.request, c.s, c.cp, c.refs, c.before)
        return [c.goal("route", origin=o, destination=d)]
    return None


def within_kind_follows(c: Clause) -> list[Goal] | None:
    """"cafés within 150 m of Kiasma? and restaurants?", "…, and what about schools?": a clause that
    is only a kind of place after a search around a place searches for that kind around the same
    place, within the same radius."""
    prev = c.before[-1] if c.before else None
    if c.term is None or len(c.ct) != 1 or c.cp or c.cd or c.area_places or c.refs or prev is None \
            or prev.branch or prev.intent != "within" or prev.slots.get("place") is None:
        return None
    rest = c.low[:c.term.start - c.s] + " " + c.low[c.term.end - c.s:]
    if W["kind_only_filler"].sub(" ", rest).strip(" ,.;:!?-–—"):
        return None
    return [c.goal("within", place=prev.slots["place"], radius_m=prev.slots.get("radius_m"),
                   default_radius=prev.slots.get("default_radius", False), **term_slots(c.term))]


#: "there" as a place, not the existential "there are": Finnish "siellä" / "sen lähellä", "around there"
THERE_PLACE = re.compile(r"\b(?:siellä|siinä|sen (?:lähellä|ympärillä)|(?:around|near|over) there|there nearby)\b"
                         # "count the bars there too", "… the banks there?": 'there' closing the clause, not "are there"
                         r"|(?<!are )(?<!is )\bthere(?=\s+(?:too|as well|also)\b|\s*[;,.?!]|\s*$)", re.I)


def within_there(c: Clause) -> list[Goal] | None:
    """"Jos X:n 300 metrin säteellä on pankki, …; muuten montako kahvilaa siellä on?": a kind counted
    "there" (siellä), naming no place, after a search around a place (a condition's too) is counted
    around that place within the same radius."""
    if c.term is None or len(c.ct) != 1 or c.cp or c.cd or c.area_places or not THERE_PLACE.search(c.text):
        return None
    prev = next((g for g in reversed(c.before) if g.intent == "within" and g.slots.get("place")), None)
    if prev is None:
        return None
    return [c.goal("within", place=prev.slots["place"], radius_m=prev.slots.get("radius_m"),
                   default_radius=prev.slots.get("default_radius", False), **term_slots(c.term))]


def within_there_found(c: Clause) -> list[Goal] | None:
    """"closest library to Stockmann? and the cafés around there", "lähin kirjasto Kiasmasta, montako kahvilaa siellä
    on?": a kind looked for "there", naming no place, right after a nearest-search is looked for around the place
    that search found (as "from there" starts at it), within the distance said or the default one (said) —
    never over the whole region."""
    prev = c.before[-1] if c.before else None
    if c.term is None or len(c.ct) != 1 or c.cp or c.area_places or prev is None or prev.branch \
            or prev.intent != "nearest" or not prev.slots.get("category") or not THERE_PLACE.search(c.text):
        return None
    return [c.goal("within", place=f"$goal:{len(c.before) - 1}", radius_m=c.cd[0] if c.cd else NEAR_M,
                   default_radius=not c.cd, **term_slots(c.term))]


def find_kind(c: Clause) -> list[Goal] | None:
    if c.term is None or not (c.cue("count") or c.cue("exists") or c.cue("list") or c.conditional or not c.cp
                              or c.cue("fi_exists")):   # "Onko Kiasman lähellä apteekkia?", "Löytyykö Kluuvista …"
        return None
    area = next((p for p in c.cp if W["area_before"].search(c.request[max(c.s, p.start - 16):p.start])), None)
    if area is None and len(c.cp) == 1 and (c.cp[0].kind in AREA_KINDS or c.cp[0].area_name) \
            and not W["origin_before"].search(c.request[max(c.s, c.cp[0].start - 10):c.cp[0].start]):
        area = c.cp[0]   # "Kluuvi car parks list": the one district named is where, never dropped
    area = area or _sole_area(c)
    point = area if area is not None and area.kind == "poi" and not area.area_name else None   # "at Stockmann": a point
    if point is None and area is None and len(c.cp) == 1 and not c.cd and c.cp[0].found:
        point = c.cp[0]
    if point is not None and point.found:
        # "count cafés Kiasma", "pharmacies at Stockmann": a place that is no area is where to count
        # around (the 'near' read is said), never dropped
        return [c.goal("within", place=point.id, radius_m=NEAR_M, default_radius=True, **term_slots(c.term))]
    intent = "count" if c.cue("count") else "exists" if c.cue("exists") or c.conditional else "find"
    if intent == "count" and c.has("each"):
        _count_each(c.before)
    slots = term_slots(c.term)
    in_force = None if area is not None or c.cp or c.refs else _area_in_force(c)
    if area is not None:   # by name: the tool resolves it among areas (a district, not a shop so named)
        slots["area"] = slots["area_name"] = area.area_name or area.name or area.written
    elif in_force is not None:
        slots["area"] = slots["area_name"] = in_force
    elif c.area_places:
        slots["area"] = None
    unplaced = [p.name for p in c.cp if p.found] if area is None and point is None else []
    if unplaced:   # a place said but neither area nor centre: ask, never count over the whole region
        slots["unplaced"] = unplaced
    return [c.goal(intent, **slots)]


#: a count asked of each of two or more areas, or which has more: "A vs B — cafés in each?", "count both
#: blocks", "which of A and B has more …", "kummassa on enemmän …, A:ssa vai B:ssä?", "in A and in B"
_EACH_AREA = re.compile(r"\b(?:each|both|vs\.?|versus|compared?|more|most|fewer|less|which|whether|"
                        r"kummassa|kumpi|kummalla|molemmissa|kummassakin|kussakin|enemmän|vähemmän|eniten|vai)\b"
                        r"|\band in\b|\bor in\b", re.I)


#: two areas said together: "Kluuvi and Kaisaniemi", "on Tikankatu and on Suurniitynkatu", "Kluuvissa tai Kaisaniemessä"
_AREAS_JOINED = re.compile(r"\s*(?:,|&|/|and|or|vs\.?|versus|ja|tai|vai|sekä)\s*(?:(?:in|on|at|the|inside|within)\s+)*",
                           re.I)


def count_each_area(c: Clause) -> list[Goal] | None:
    """"Soopeli vs Sampi — cafés in each?", "whether Valas or Kaniini has more restaurants — count both
    blocks", "how many cafés are in Kluuvi and in Kaisaniemi?": one kind and two or more areas of the
    data (districts, blocks, streets), nothing else named, is a count in each area — never a count of one
    of them, the region's summary, or a question where to look. Which has more is read from the counts
    (each said); no number of our own."""
    areas = [p for p in c.cp if p.found and (p.kind in AREA_KINDS or p.area_name)]
    joined = all(_AREAS_JOINED.fullmatch(c.request[a.end:b.start]) for a, b in zip(areas, areas[1:], strict=False))
    if c.term is None or len(areas) < 2 or len(areas) != len(c.cp) or c.cd or c.cm or c.refs \
            or not (joined or _EACH_AREA.search(c.low)) or c.conditional:
        return None
    if c.cue("count") or c.has("how_many") or c.has("each") \
            or re.search(r"\b(?:more|most|fewer|less|enemmän|vähemmän|eniten)\b", c.low):
        intent = "count"
    elif joined and (c.cue("list") or c.cue("exists") or c.cue("fi_exists")):
        # "list the cafés in Kluuvi and Kaisaniemi", "are there pharmacies in A or B?": each area's own
        intent = "exists" if c.cue("exists") else "find"
    else:
        return None
    names = list(dict.fromkeys(p.area_name or p.name for p in areas))
    if len(names) < 2:
        return None
    return [c.goal(intent, **term_slots(c.term), area=n, area_name=n) for n in names]


def _sole_area(c: Clause) -> Place | None:
    """"any charging point inside the Keltanokka block": among several places named, the one area (a
    district, block, street or a feature so named) is where to look, so the area is never dropped."""
    areas = [p for p in c.cp if p.found and (p.kind in AREA_KINDS or p.area_name)]
    return areas[0] if len(areas) == 1 else None


def _count_each(before: list[Goal]) -> None:
    """"cafés on Yrjönkatu and restaurants on Bulevardi: how many each?": the run of searches of kinds
    just before a "how many each" is counted too, not only the last."""
    for g in reversed(before):
        if g.branch or g.intent not in ("find", "count", "exists") or not g.slots.get("category"):
            break
        g.intent = "count"


def find_area_follows(c: Clause) -> list[Goal] | None:
    """"pharmacies? dentists? banks? in Kluuvi, numbers only": a part that names only an area (no
    kind, no other place) after a run of region-wide searches of kinds is where each of them looks;
    a count word there ("numbers only", "how many") makes each a count."""
    if c.term is not None or len(c.cp) != 1 or c.cd or c.cm or c.refs or not c.before:
        return None
    p = c.cp[0]
    if not p.found or not (p.kind in AREA_KINDS or p.area_name) \
            or not (W["area_before"].search(c.request[max(c.s, p.start - 10):p.start])
                    or W["in_case"].search(p.written)):   # "Kluuvissa": in Kluuvi
        return None
    name = p.area_name or p.name
    run = []
    for g in reversed(c.before):   # (a part read again with the next one joined keeps the area it set)
        if g.branch or g.intent not in ("find", "count", "exists") or not g.slots.get("category") \
                or g.slots.get("area") not in (None, name):
            break
        run.append(g)
    if len(run) < 2:
        return None
    counting = c.cue("count") or c.has("numbers_only")
    for g in run:
        g.slots.update(area=name, area_name=name)
        if counting:
            g.intent = "count"
    return []


def nearest_place_follows(c: Clause) -> list[Goal] | None:
    """"nearest pharmacy, nearest bank, nearest café — all from Stockmann": a last part that names
    only a place (no kind, no distance) after searches that name none is where each of them starts."""
    if c.term is not None or len(c.cp) != 1 or c.cd or c.cm or c.refs or not c.cp[0].found \
            or not W["origin_before"].search(c.request[max(c.s, c.cp[0].start - 8):c.cp[0].start]):
        return None
    place = c.cp[0].id
    run = []
    for g in reversed(c.before):   # (a part read again with the next one joined keeps the place it set)
        if g.branch or g.intent != "nearest" or not g.slots.get("category") or g.slots.get("place") not in (None, place):
            break
        run.append(g)
    if len(run) < 2:
        return None
    for g in run:
        g.slots["place"] = place
    return []


def nearest_no_kind(c: Clause) -> list[Goal] | None:
    if c.has("near_no_kind"):
        return [c.goal("nearest", place=c.origin, category=None)]
    return None


def terse(c: Clause) -> list[Goal] | None:
    if c.term is None or len(c.cp) != 1 or (c.before and c.refs):   # terse: "pharmacies Bulevardi", "pharmacy Stockmann"
        return None
    p = c.cp[0]
    if p.kind in AREA_KINDS or (p.area_name and (re.search(r"s\b", c.term.word) or W["in_case"].search(p.written))):
        # "dentists Kluuvi", "kahvilat Kluuvissa": a district's
        name = p.area_name or p.name or p.written
        return [c.goal("find", area=name, area_name=name, **term_slots(c.term))]
    return [c.goal("nearest", place=p.id or p.written, **term_slots(c.term))]


def route_from_to(c: Clause) -> list[Goal] | None:
    if len(c.cp) >= 2 and c.has("from") and c.has("to"):   # "then from Kiasma to Forum"
        o, d = route_ends(c.request, c.s, c.cp, c.refs, c.before)
        return [c.goal("route", origin=o, destination=d)]
    return None


#: "from there to X", "from it on to X", "then to X": a leg from what the goal before found
_ONWARD = re.compile(r"\b(?:from\s+(?:there|it|that\s+(?:one|place|\w+)|this\s+(?:one|\w+))|then)\s+(?:on\s+)?to\b",
                     re.I)


def route_onward(c: Clause) -> list[Goal] | None:
    """"Kuhantie: nearest shop; from there to Siiantie, m": a clause that is only a leg from the
    found place to one named place is a route, with or without a distance word (the unit may be a
    bare 'm', or missing)."""
    if len(c.cp) == 1 and c.term is None and not c.cm and "from" in c.refs and _ONWARD.search(c.text):
        o, d = route_ends(c.request, c.s, c.cp, c.refs, c.before)
        if o and d and o != d:
            return [c.goal("route", origin=o, destination=d)]
    return None


#: a leg that goes on from where the part before ended, said without "from there … to": "…, then on to Y", "…, and
#: from there onward to Y", "…, continuing to Y", "sieltä edelleen Y:hyn", "jatka sieltä Y:lle", "sieltä Y:hyn"
_ONWARD_LEG = re.compile(r"^\W*(?:(?:and|ja)\s+)?(?:(?:then|sitten)\s+)?(?:(?:from\s+there|sieltä)\s+)?"
                         r"(?:(?:carry\s+)?on(?:wards?)?|onwards?|further|continu\w*(?:\s+on)?|proceed\w*|go\w*\s+on|"
                         r"edelleen|jatk\w*(?:\s+(?:sieltä|edelleen|matkaa))?|vielä|sieltä)(?:\s+to\b|\s+(?-i:[A-ZÅÄÖ]))",
                         re.I)
#: a Finnish destination case at a name's end (illative, allative): "Kumparepuistoon", "Tervaskadulle", "Oodiin"
_TO_CASE = re.compile(r"(?:lle|[aeiouyäö]n|h[aeiouyäö]n|seen|siin)$", re.I)


def route_onward_leg(c: Clause) -> list[Goal] | None:
    """"distance from Kiasma to Oodi, then on to Ateneum", "nearest pharmacy to X, and from there onward to Y",
    "lähin apteekki X:ltä, sieltä edelleen Y:hyn": a leg on from where the part before ended (a route's end, the
    facility a search found) to one named place; before, 'on to Y' was asked about and 'jatka sieltä Y:lle' was
    left unused. A Finnish leg needs its place in a destination case."""
    if not c.before or len(c.cp) != 1 or c.ct or c.cm or not _ONWARD_LEG.search(c.text):
        return None
    place = c.cp[0]
    if re.search(r"\b(?:sieltä|edelleen|jatk\w*|vielä)\b", c.text, re.I) and not _TO_CASE.search(place.written):
        return None
    origin = backrefs("from it", c.s, c.before).get("from")   # a route's end, a search's facility found
    destination = place.id or place.written
    if not origin or origin == destination:
        return None
    return [c.goal("route", origin=origin, destination=destination)]


#: what joins a route's two ends written as a pair: "A → B", "A - B", "A – B", "A to B"
_PAIR_GAP = re.compile(r"\s*(?:→|->|=>|⇒|-|–|—)\s*|\s+to\s+(?:the\s+)?", re.I)


def route_pair_condition(c: Clause) -> list[Goal] | None:
    """"if Stockmann - Kiasma is more than 500 m, …", "if Kiasma to Oodi is under 800 m, …": a condition
    whose two places are joined as a route's ends, with a distance to compare and no kind, is that route
    (no route word needed: the distance is the route's)."""
    if not c.conditional or len(c.cp) != 2 or not c.cd or c.ct or c.cm:
        return None
    a, b = c.cp
    if not _PAIR_GAP.fullmatch(c.request[a.end:b.start]):
        return None
    return [c.goal("route", origin=a.id or a.written, destination=b.id or b.written)]


def route_bare(c: Clause) -> list[Goal] | None:
    if c.cue("route"):
        o, d = route_ends(c.request, c.s, c.cp, c.refs, c.before)
        return [c.goal("route", origin=o, destination=d)]
    return None


def count_follows(c: Clause) -> list[Goal] | None:
    prev = c.before[-1] if c.before else None
    if not (prev is not None and prev.intent in ("within", "find", "exists", "count") and prev.slots.get("category")
            and c.term is None and c.bare() and not c.cd and c.has("how_many") and not c.has("those_it")):
        return None
    # "cinemas within 400 m of X — how many?": the count of what was just asked for; "schools and car
    # parks in Kotka, how many?": of each kind that clause asked for
    for g in c.before:
        if g.clause == prev.clause and not g.branch and g.intent in ("find", "exists"):
            g.intent = "count"
    if prev.intent in ("find", "exists"):
        prev.intent = "count"
    if c.has("each"):
        _count_each(c.before)
    return []


def within_same_kind(c: Clause) -> list[Goal] | None:
    """"How many cafés are in X, and how many within 300 m of Y?": a count or list around a place
    that names no kind counts the kind the clause before asked for."""
    prev = next((g for g in reversed(c.before) if g.slots.get("category")), None)
    if c.term is not None or not c.cd or not c.cp or prev is None \
            or not (c.has("how_many") or c.cue("list") or c.cue("count")):
        return None
    center = next((p for p in c.cp if W["center_before"].search(c.request[max(c.s, p.start - 10):p.start])), c.cp[-1])
    kind = {k: prev.slots.get(k) for k in ("category", "tag", "word")}
    return [c.goal("within", place=center.id or center.written, radius_m=c.cd[0], default_radius=False, **kind)]


def count_of_what(c: Clause) -> list[Goal] | None:
    if c.term is None and not c.cm and c.has("how_many"):
        return [c.goal("count", category=None)]   # "How many are there in Kotka?", "how many are within 500 m of X?": of what?
    return None


def locate_where(c: Clause) -> list[Goal] | None:
    """"Where is Oodi?": one place named, no kind asked for; a name the data lacks is said to be
    absent (the goal carries it), never searched for."""
    if not c.has("where_is") or len(c.cp) != 1 or c.term is not None or c.cd or c.cue("nearest"):
        return None
    p = c.cp[0]
    return [c.goal("locate", place=p.id or p.written, name=p.name or p.written)]


#: a request that only shows one place: "Show Kiasma", "show me Oodi on the map", "Näytä Ateneum kartalla"
_SHOW = re.compile(r"^\W*(?:(?:can|could|would)\s+you\s+|please\s+|pls\s+)*(?:show|find|locate|display|pinpoint|"
                   r"point\s+out|näytä|etsi|paikanna)(?:\s+(?:me|us|where|the\s+location\s+of|the|on\s+the\s+map|"
                   r"on\s+a\s+map|kartalla|kartalle|is|lies|sijaitsee|please))*\W*$")


def locate_show(c: Clause) -> list[Goal] | None:
    """"Show Kiasma": a show / find verb and one place, nothing else asked — where it is (its street
    and coordinates), or that the data lacks it."""
    if len(c.cp) != 1 or c.term is not None or c.cd or c.cm or c.task_kinds or not _SHOW.match(c.low):
        return None
    p = c.cp[0]
    return [c.goal("locate", place=p.id or p.written, name=p.name or p.written)]


@dataclass(frozen=True)
class Rule:
    """One reading rule: ``id`` (in traces and the readings file), ``test`` (the clause → its goals,
    or None when the rule does not fire) and ``example`` (a request that fires it, and its region)."""
    id: str
    test: Callable[[Clause], list[Goal] | None]
    example: str
    region: str | None = "helsinki"


#: the reader's rules, in the order they are tried (first match wins; the order is the reading's
#: meaning: e.g. a budget after a plan belongs to that plan before it can start a plan of its own)
RULES: tuple[Rule, ...] = (
    Rule("participation", participation, "Run a participation round on parcels.geojson"),
    Rule("clause.aside", clause_aside, "Nearest pharmacy to Kiasma. Schools are fine too."),
    Rule("follow.elliptic", elliptic_follow_up, "Montako kahvilaa on Kluuvissa? entä Kaisaniemessä?"),
    Rule("compare_plans.kinds", compare_plans, "Compare roads at 200k vs chargers at 300k in Kotka", "kotka"),
    Rule("compare_plans.money-before", compare_plans_money_before,
         "Kotka: a quarter of our 2 M€ budget — road plan vs station plan, which scores better?", "kotka"),
    Rule("plan.kinds", plans_of_kinds, "helsinki: station vs road plan, 600k€ each – which scores better"),
    Rule("compare.further", compare_further, "Is Oodi further from Kiasma than Ateneum is?"),
    Rule("compare.places", compare_places, "Which is closer to Kiasma: Oodi, Ateneum or Stockmann?"),
    Rule("compare.of-list", compare_of_list,
         "Of Stockmann, Forum and UniSport, Kluuvi, which one is nearest to Kiasma by road?"),
    Rule("compare.follows", compare_follows, "Is Oodi or Ateneum nearer to Kiasma? which one, and how far?"),
    Rule("plan.money-follows", plan_money_follows, "Plan road upgrades for Kotka; we can spend 250 000 euros", "kotka"),
    Rule("plan.evaluate-follows", plan_evaluate_follows, "Plan chargers in Kotka with 300k, then evaluate the plan",
         "kotka"),
    Rule("within.radius-follows", within_radius_follows, "Is there a cinema near Lasipalatsi? say within 400 metres"),
    Rule("compare_plans.follows", compare_plans_follows,
         "Roads at 200k or chargers at 300k in Kotka? Compare both plans' scores", "kotka"),
    Rule("plan.continues", plan_continues,
         "The budget is 275 000 euros for roads in Kotka — draft the new links", "kotka"),
    Rule("plan.money-as-background", plan_money_as_background,
         "Before we spend 200k on chargers: are there any charging stations in Kotka?", "kotka"),
    Rule("plan.request", plan_request, "Plan new roads with 400k", "kotka"),
    Rule("plan.terse", plan_terse, "Stations, Kluuvi."),
    Rule("plan.add-to", plan_add_to, "lisää latausasemia Karhulaan", "kotka"),
    Rule("summary", summary, "Give me an overview of Kotka", "kotka"),
    Rule("street.length", street_length, "How long is Yrjönkatu?"),
    Rule("street.crossings", street_crossings, "Which streets cross Yrjönkatu?"),
    Rule("nearest.how-far-follows", nearest_how_far_follows,
         "is there a pharmacy near Kiasma? how far is it by road"),
    Rule("find.those", find_those, "If there are car parks in Kotka, list those car parks", "kotka"),
    Rule("route.to-nearest", route_to_nearest, "what is the road distance between Kiasma and the nearest cinema to it"),
    Rule("nearest.within-follows", nearest_within_follows, "Closest library to Ateneum. Also: is it within 300 m?"),
    Rule("within.refine-follows", within_refines_follows, "what's near Oodi? cafes specifically, 100m"),
    Rule("nearest.same-kind", nearest_same_kind,
         "If the nearest pharmacy to Kiasma is within 300 m, name it; otherwise just tell me the pharmacy"),
    Rule("nearest.each", nearest_each, "Kiasma and Oodi: nearest pharmacy to each"),
    Rule("nearest.search", nearest_search, "nearest pharmacy to Kiasma"),
    Rule("within.each-place", kind_at_each_place, "cafés at Kiasma and Oodi"),
    Rule("find.kinds-one-area", kinds_of_one_area, "schools in Karhula and car parks, how many of each?", "kotka"),
    Rule("within.radius", within_radius, "how many cafés are within 250 m of Oodi?"),
    Rule("within.count-of-what", count_around_of_what, "how many are there within 300 m of Oodi?"),
    Rule("route.between-found", route_between_found,
         "list the fuel stations in Kotka, then the road distance between the two", "kotka"),
    Rule("route.already-asked", route_already_asked, "nearest pharmacy to Kiasma by road, and how far is it?"),
    Rule("route.legs", route_legs, "Kiasma → Oodi, Kiasma → Ateneum: road metres each"),
    Rule("route.each", route_each, "How far are Luckan and Forum from Kiasma, each by road?"),
    Rule("route.follows", route_follows, "Otsonkallio to Kumparepuisto by car, how many metres?", "kotka"),
    Rule("route.tail-follows", route_tail_follows, "Kiasma → Ateneum, Ateneum → Stockmann; road metres please"),
    Rule("route.reported", route_reported, "nearest pharmacy to Kiasma and give the driving distance"),
    Rule("route.kinds", route_kinds, "what is the road distance from the school to the fuel station?", "kotka"),
    Rule("nearest.from-where", nearest_from_where, "what is the distance to the pharmacy?"),
    Rule("route.conditional", route_conditional,
         "If Erkinkulma is within walking distance (say 800 m) of Otsonkallio, tell me the route length"),
    Rule("route.from-found", route_from_found,
         "nearest bank to Kiasma by road? and from the bank how far to Luckan"),
    Rule("route.places", route_places, "how far is Kiasma from Oodi?"),
    Rule("within.kind-follows", within_kind_follows, "cafés within 150 m of Kiasma? and restaurants?"),
    Rule("within.there", within_there,
         "If there is a bank within 300 m of Kiasma, name the nearest bank; otherwise how many cafés are around there?"),
    Rule("within.there-found", within_there_found, "closest library to Stockmann? and the cafés around there"),
    Rule("count.each-area", count_each_area, "Soopeli vs Sampi — cafes in each?"),
    Rule("find.kind", find_kind, "Are there any pharmacies in Kotka?", "kotka"),
    Rule("find.area-follows", find_area_follows, "pharmacies? dentists? banks? in Kluuvi, numbers only"),
    Rule("nearest.place-follows", nearest_place_follows, "nearest pharmacy, nearest bank — all from Stockmann"),
    Rule("nearest.no-kind", nearest_no_kind, "what is near Kiasma?"),
    Rule("terse", terse, "pharmacy Stockmann"),
    Rule("route.from-to", route_from_to, "then from Kiasma to Oodi"),
    Rule("route.onward", route_onward, "nearest pharmacy to Kiasma; from there to Oodi"),
    Rule("route.onward-leg", route_onward_leg, "distance from Kiasma to Oodi, then on to Ateneum"),
    Rule("route.pair-condition", route_pair_condition,
         "if Stockmann - Kiasma is more than 500 m, nearest pharmacy to Stockmann, else nearest bank"),
    Rule("route.bare", route_bare, "how far is it?"),
    Rule("count.follows", count_follows, "cinemas within 400 m of Kiasma — how many?"),
    Rule("within.same-kind", within_same_kind, "How many cafés are in Kluuvi, and how many within 300 m of Oodi?"),
    Rule("count.of-what", count_of_what, "How many are there in Kotka?", "kotka"),
    Rule("locate.where", locate_where, "Where is Oodi?"),
    Rule("locate.show", locate_show, "Show Kiasma"),
)


def read_clause(c: Clause, trace: list[str] | None = None) -> list[Goal]:
    """The goals of one clause: the first rule in ``RULES`` that fires; its id is appended to
    ``trace``. No rule firing reads no goal (the reader then asks what is wanted)."""
    for rule in RULES:
        got = rule.test(c)
        if got is not None:
            if trace is not None:
                trace.append(rule.id)
            return got
    return []
