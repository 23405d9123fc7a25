"""Instruction text → checked constraints: rules first, the model for the rest.

Every constraint records its ``source`` (rules | model | endpoint) and the instruction
``text``; its target is resolved against the instance's data (``resolve.resolve_target``),
it must match the schema and compile against the instance. Anything that fails becomes a
clarification for the planner, never a guessed constraint.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..city import lexicon
from ..errors import InputError
from ..tasks.base import Instance
from .compile import by_id, compile_constraints
from .resolve import Clarify, Resolved, region_of, resolve_target
from .rules import Ambiguous, NeedsDistance, NoRule, lines_as_clauses, parse, region_of_plan
from .schema import TYPE_COLUMNS, schema_errors

SELECTION = re.compile(r"^(?:the\s+)?(?:current\s+|given\s+)?(?:selection|selected(?:\s+(?:features?|area|parcels?|blocks?))?|"
                       r"area|polygons?|layer)$", re.I)
NEAR_KINDS = ("exclude_near", "require_near", "count_min", "count_max")
NEEDS_PLACE = ("lock_in", "lock_out", "exclude_near", "require_near", "inside_area", "outside_area")
HELP = ("Forms I know: 'no station within 300 m of <place>', "
        "'at least 2 within 500 m of <place>', 'site 3 in', 'parcel 2 out', 'keep 400 m between stations', "
        "'spend at most 80 % of the budget', 'every residential block within 500 m of a school', "
        "'prioritise coverage', 'nothing inside <park>'")


def could_not_read(text: str, why: str = "") -> str:
    """The reply to an instruction nothing could read: the text, a concrete phrasing, the forms known."""
    return (f"I could not read '{text}'{why} — say it as, e.g., 'no station within 300 m of Kiasma' "
            f"or 'spend at most 80 % of the budget'. {HELP}")


#: the longest instruction read (the MCP tool's schema has the same cap): longer text is a
#: document, not an instruction, and a cap keeps every rule's regex work small
MAX_INSTRUCTION_CHARS = 500
_NEGATIVE = re.compile(r"(?<![\w.])[-\u2212]\s?\d")           # "-400 m", "−3", not "300-400" nor "e-bike"
_EXPONENT = re.compile(r"\d[eE][-+\u2212]?\d")                 # "1e308 m"
_LONG_NUMBER = re.compile(r"\d{10,}")                           # past any distance, count or share


#: a word the planner capitalised inside a sentence: a name (not the sentence's first word, not a
#: short acronym such as "EV" or "OK")
_NAME_WORD = re.compile(r"(?<![.!?:;]\s)(?<!^)\b(?!(?:I|[A-Z]{2,3})\b)[A-ZÅÄÖ][\w'’-]*")


@cache
def _lexicon_word() -> re.Pattern:
    """A word the lexicon knows (id nouns, facility, task, type and score-term words): capitalised,
    it is still not a name ("Lock in Site 3", "no Chargers near …")."""
    parts = [lexicon.id_nouns_pattern(), *(rx for rx, _, _ in lexicon.facility_terms()),
             *(rx for _, rx in lexicon.task_patterns()), *(re.escape(w) + "s?" for w in lexicon.target_aliases())]
    for task in lexicon.TASK_KEYS:
        parts += [rx for _, rx in (*lexicon.task_types(task), *lexicon.task_terms(task))]
    return re.compile("|".join(f"(?:{p})" for p in parts), re.I)


def ungrounded_names(text: str, items: list[dict[str, Any]]) -> list[str]:
    """The names the planner wrote that a model's reading leaves out: a reading that drops a name
    is about something else (the model filled in a meaning of its own), so it is refused rather
    than stored — the rules' "could not read" is the honest reply then. An ordinary word capitalised
    for emphasis that the lexicon does not know also counts: the cost is that honest reply, never a
    wrong constraint."""
    said = " ".join(str((c.get("target") or {}).get("name") or "") for c in items).casefold()
    return [w for m in _NAME_WORD.finditer(text.strip())
            if (w := m.group(0)).casefold() not in said and not _lexicon_word().fullmatch(w)]


def check_instruction(text: object) -> str:
    """The instruction as the readers take it (whitespace runs made one space), or InputError
    (one line) for text no reader should see: over ``MAX_INSTRUCTION_CHARS`` characters, or a
    number that cannot be a distance, count or share (negative, in exponent form, 10+ digits)
    — read silently wrong before ("keep -400 m" as 400 m, "1e308 m" as 308 m, 5,000 digits as
    Infinity). The CLI and the dock call it before anything else; ``interpret`` too."""
    raw = str(text or "")
    if len(raw) > MAX_INSTRUCTION_CHARS:
        raise InputError(f"the instruction is {len(raw)} characters long; at most {MAX_INSTRUCTION_CHARS} "
                         "(one instruction at a time)")
    t = " ".join(lines_as_clauses(raw).split())   # items on lines of their own stay items ("; ")
    if _NEGATIVE.search(t):
        raise InputError("a distance, count or share cannot be negative; give it without the minus sign")
    if _EXPONENT.search(t):
        raise InputError("write numbers plainly (e.g. 400 m), not in exponent form")
    if _LONG_NUMBER.search(t.replace(" ", "").replace(",", "").replace(".", "")):
        raise InputError("a number in the instruction is too long to be a distance, count or share")
    return t


@dataclass
class Interpretation:
    constraints: list[dict[str, Any]] = field(default_factory=list)
    clarification: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def sources(self) -> list[str]:
        return [c["source"] for c in self.constraints]


def read(text: str, inst: Instance, backend=None, model_source: str = "model",
         rules: bool = True) -> tuple[list[dict], str, str | None]:
    """(neutral constraints, source, clarification) before resolution; ``rules=False`` asks
    the model directly (the benchmark's model-only rows)."""
    if rules:
        # the loaded regions: the bundled ones and the instance's own ("In Tampere, …" on a planner's own city)
        own = tuple(r for r in (str(inst.meta.get("region") or ""),) if r)
        named, here = region_of_plan(text, own), region_of(inst) or (own[0] if own else None)
        if named and here and named != here:   # "Helsingin tiesuunnitelmassa …" said of a Kotka instance
            return [], "rules", (f"'{text}' is about the {named} plan, but this instance is of {here}: say it "
                                 f"without the region, or for a {named} instance")
        try:
            return parse(text, inst.task, inst.budget, own), "rules", None
        except NeedsDistance as e:
            return [], "rules", _place_first(inst, e)
        except Ambiguous as e:
            return [], "rules", str(e)
        except (NoRule, ValueError, ArithmeticError):   # a form the rules misjudge goes on to the reader below
            pass
    if backend is None:   # the default fallback model is skipped (plugin/agent/timebox.py)
        return [], "rules", could_not_read(text)
    from ..agent.backend import BackendError
    from .llm import model_read

    try:
        items, clar = model_read(backend, text, inst.task)
    except BackendError as e:   # the time box spent, or the model failed: the rules' reply, at once
        return [], "rules", could_not_read(text, f" (the model gave no reading: {e})")
    dropped = ungrounded_names(text, items) if items else []
    if dropped:
        return [], "rules", could_not_read(text, f" (the model's reading left out '{dropped[0]}')")
    return items, model_source, (clar if not items else None)


def _place_first(inst: Instance, e: NeedsDistance) -> str:
    """The question for "near X" with no distance; when X is not in the data that is said first."""
    try:
        resolve_target(inst, e.target)
    except Clarify as c:
        return f"{c}; and {e}"
    return str(e)


def interpret(text: str, inst: Instance, backend=None, model_source: str = "model", rules: bool = True,
              selection: str | None = None) -> Interpretation:
    """Read, resolve and validate one instruction against ``inst``; ``selection`` is the WKT
    (instance CRS) of the features selected on the map, the place "the selection" names."""
    try:
        text = check_instruction(text)
    except InputError as e:
        return Interpretation(clarification=str(e))
    if not text:
        return Interpretation(clarification="the instruction is empty")
    items, source, clar = read(text, inst, backend, model_source, rules)
    if clar or not items:
        return Interpretation(clarification=clar or could_not_read(text))
    try:
        out = [f for c in items for f in _finish_each(c, inst, text, source, selection)]
    except Clarify as e:
        return Interpretation(clarification=str(e))
    return Interpretation(out, None, [c["note"] for c in out if c.get("note")])


#: "within 150 m of Kiasma or Ateneum": two names where no one name is meant
NAME_LIST = re.compile(r"\s*(?:,\s*(?:and|or)?|\band\b|\bor\b|&)\s*", re.I)
#: kinds for which "none near A or B" is exactly "none near A" and "none near B"
SPLIT_KINDS = ("exclude_near", "outside_area", "lock_out")


def _finish_each(c: dict[str, Any], inst: Instance, text: str, source: str, selection: str | None) -> list[dict]:
    """``finish`` of one reading; a keep-away from a list of names that is no one name ("no charger
    within 150 m of Kiasma or Ateneum") is one constraint per name, each name resolved."""
    try:
        return [finish(c, inst, text, source, selection)]
    except Clarify:
        name = str((c.get("target") or {}).get("name") or "")
        names = [n for n in NAME_LIST.split(name) if n]
        if c.get("kind") not in SPLIT_KINDS or len(names) < 2:
            raise
        return [finish({**c, "target": {**c["target"], "name": n}}, inst, text, source, selection) for n in names]


def _narrow_type(c: dict[str, Any], inst: Instance) -> None:
    """A type word that fits several types ("hospital": rules.type_of gives the prefix) is read against
    what the instance offers: the one type it has of them, else the constraint holds for all of them
    and the note says which."""
    typ = str(c.get("type") or "")
    offered = sorted({str(v) for k in TYPE_COLUMNS if k in inst.candidates for v in inst.candidates[k].astype(str)})
    if not typ or typ in offered:
        return
    fits = [v for v in offered if v.casefold().startswith(typ.casefold())]
    if len(fits) == 1:
        c["type"] = fits[0]
    elif len(fits) > 1:
        said = f"'{typ}' covers {' and '.join(fits)} here: the constraint is over all of them"
        c["note"] = "; ".join(x for x in (c.get("note"), said) if x)


def finish(c: dict[str, Any], inst: Instance, text: str, source: str, selection: str | None = None) -> dict[str, Any]:
    """Resolve the target, check the schema and that it compiles; Clarify when it cannot."""
    c = {k: v for k, v in c.items() if v is not None and k != "spelled_as"}
    t = {k: v for k, v in (c.get("target") or {}).items() if v}
    c["target"] = t
    if not t:
        c.pop("target")
        if c.get("kind") in NEEDS_PLACE:
            raise Clarify(f"which place, site, parcel or link does '{text}' mean?")
    elif c.get("kind") == "lock_out" and source == "rules" and t.get("id") and not by_id(inst, str(t["id"])).any():
        # a planner's "site 22 out" where the instance has no site 22 holds for every plan: kept as
        # said, and the reply says so (an id in a model's JSON that is not there is refused below)
        c["note"] = (f"there is no candidate, site, parcel or link '{t['id']}' in this instance (ids look like "
                     f"{', '.join(inst.ids[:3])}): nothing to keep out")
    elif c.get("kind") not in ("budget_share_max", "emphasis", "spacing_min"):
        if c.get("kind") in NEAR_KINDS and t.get("name") and c.get("distance_m") is None and not c.get("area"):
            raise Clarify(f"how near to {t['name']}? no distance was given: give one, e.g. "
                          f"'within 300 m of {t['name']}'")
        if SELECTION.match(str(t.get("name") or "")):
            if not selection:
                raise Clarify("select the features that make the area on the map first, or give --area (or name a place)")
            r = Resolved("the selected area", selection)
        else:
            r = resolve_target(inst, t, float(c.get("distance_m") or 0.0),
                               area=bool(c.get("area")) or (c.get("kind") in ("inside_area", "outside_area")
                                                              and not c.get("distance_m")))   # a radius: no area
        if t.get("name"):
            t["name"] = r.label
        c["target"] = {k: v for k, v in t.items() if v}
        if r.wkt and not r.wkt.endswith("EMPTY") and not t.get("id"):   # ids compile without it
            c["geometry"] = r.wkt
        if r.note:
            c["note"] = "; ".join(x for x in (c.get("note"), r.note) if x)
    _narrow_type(c, inst)
    c.update(text=text, source=source)
    errs = schema_errors(c)
    if errs:
        raise Clarify(f"that reading is not a valid constraint ({errs[0]}); please rephrase")
    try:
        compile_constraints(inst, [c])
    except InputError as e:
        raise Clarify(str(e)) from None
    return c
