"""The planners' lexicon: one copy of the words the ask reader, the instruction rules and the
training generator share, loaded from ``resources/lexicon/*.json`` (English and Finnish, the
data's own language).

- ``facilities.json``: facility words → POI categories (+ OSM tag filters); the words the data
  has no category for; words that name a category only as an instruction's target.
- ``tasks.json``: the task words keyed ``land`` / ``road`` / ``station``, each task's types and
  score terms, and the road kinds (new / rebuild / upgrade).
- ``numbers.json``: numbers in words (hundreds, thousands, Finnish compounds such as
  "viisisataa"), count phrases ("a couple of"), fractions ("a fifth"), per cent words.
- ``measures.json``: distance units (→ metres) and money words (→ k€).
- ``branches.json``: what makes a conditional's branch ask for nothing ("otherwise never mind").
- ``short_forms.json``: short forms written in a hurry ("dist.", "w/in", "approx.", "pls") and their
  long forms, written long before a request is read (``expand_short_forms``).
- ``streets.json``: street-type words and their short forms ("St" → Street, "Ave" → Avenue,
  Finnish "k." → katu, "pst" → puistotie), read as a street's aliases only where unambiguous.

This module turns the data into the patterns and small readers the callers use; it holds no
words of its own. Editing a word means editing the JSON (and the tests that pin it).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from .. import RESOURCES

LEXICON_DIR = RESOURCES / "lexicon"
TASK_KEYS = ("station", "land", "road")   # the reader's order of trying


@cache
def load(name: str) -> dict[str, Any]:
    """One lexicon file (``facilities``, ``tasks``, ``numbers``, ``measures``) as parsed JSON."""
    path = LEXICON_DIR / f"{name}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:   # a broken install: say which file, not a KeyError later
        raise RuntimeError(f"lexicon file {path.name} cannot be read: {err}") from err


def _either(*patterns: str | None) -> str:
    return "|".join(p for p in patterns if p)


def _alternation(words: Any) -> str:
    """Literal words as one regex alternation, longest first (so "a couple of" wins over "a")."""
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


# ------------------------------------------------------------------ facilities
def facility_terms() -> tuple[tuple[str, str, dict[str, tuple[str, ...] | None] | None], ...]:
    """(regex, category, tag filter) per facility term, English and Finnish words in one regex."""
    out = []
    for t in load("facilities")["terms"]:
        tags = {k: tuple(v) if v else None for k, v in t["tags"].items()} if t.get("tags") else None
        out.append((_either(t.get("en"), t.get("fi")), t["category"], tags))
    return tuple(out)


def fuzzy_words() -> tuple[str, ...]:
    """Facility words misspelt often enough to be worth a fuzzy look."""
    return tuple(load("facilities")["fuzzy"])


def not_fuzzy_words() -> frozenset[str]:
    """Ordinary words near a facility word ("theres", "officer"), never read as it."""
    return frozenset(load("facilities")["not_fuzzy"])


def uncategorised_pattern() -> str:
    """Regex of the facilities planners ask about that the data has no category for."""
    u = load("facilities")["uncategorised"]
    return _either(u.get("en"), u.get("fi"))


@cache
def _finnish_facility_re() -> re.Pattern:
    return re.compile(_either(*(t.get("fi") for t in load("facilities")["terms"])), re.I)


def is_finnish(word: str) -> bool:
    """True for a Finnish facility word ("koulut", "apteekki", "latauspisteet"): English plural
    endings must not be put on it."""
    return bool(_finnish_facility_re().fullmatch(word.strip()))


def target_aliases() -> dict[str, str]:
    """Words that name a POI category only as an instruction's target ("station" → charging)."""
    return dict(load("facilities")["target_aliases"])


def place_nouns_pattern() -> str:
    """Regex (no groups) of the generic nouns put after a data name to say which shape of it is
    meant ("the Leijona block", "the Pörssitalo outline", "korttelin")."""
    u = load("facilities")["place_nouns"]
    return _either(u.get("en"), u.get("fi"))


def edge_nouns_pattern() -> str:
    """Regex (no groups) of the nouns for a named place's outline ("boundary", "edge", "reuna"): after
    the name and an optional kind noun ("the Kumparepuisto park boundary")."""
    u = load("facilities")["edge_nouns"]
    return _either(u.get("en"), u.get("fi"))


def category_land_nouns_pattern() -> str:
    """Regex (no groups) of the nouns for the land a kind of place stands on, after a category word
    ("a school parcel", "school sites", "koulutontti"): the category itself in a coverage."""
    u = load("facilities")["category_land_nouns"]
    return _either(u.get("en"), u.get("fi"))


def name_case_endings() -> tuple[str, ...]:
    """Finnish case endings put on a data name ("Kiasmasta", "Ateneumin"), longest first."""
    return tuple(sorted(load("facilities")["name_case_endings"], key=len, reverse=True))


def name_gradation() -> tuple[tuple[str, str], ...]:
    """Finnish consonant gradation as (weak, strong) pairs, in the order they are tried."""
    return tuple((w, s) for w, s in load("facilities")["name_gradation"])


def name_stem_forms() -> tuple[tuple[str, str, bool], ...]:
    """(stem end, nominative end, nominative in the weak grade) of Finnish names whose stem before a
    case ending differs from the nominative ("väinämöise-" → Väinämöinen, "altaa-" → allas)."""
    return tuple((a, b, bool(weak)) for a, b, weak in load("facilities")["name_stem_forms"])


def landmark_nouns_pattern() -> str:
    """Regex (no groups) of the nouns that make a name a landmark of its own ("Finlandia Hall"):
    after a part of a longer data name that lacks the noun, they name another place."""
    u = load("facilities")["landmark_nouns"]
    return _either(u.get("en"), u.get("fi"))


# ------------------------------------------------------------------ tasks
def task_patterns() -> tuple[tuple[str, str], ...]:
    """(task key, regex of the words that name that kind of plan), in the reader's order."""
    tasks = load("tasks")["tasks"]
    return tuple((k, _either(tasks[k]["words"].get("en"), tasks[k]["words"].get("fi"))) for k in TASK_KEYS)


def task_name(task: str) -> str:
    """The word a reply uses for a task: "charging", "land", "road"."""
    return load("tasks")["tasks"][task]["name"]


def task_label(task: str) -> str:
    """The longer form: "charging-station", "land-use", "road"."""
    return load("tasks")["tasks"][task]["label"]


def task_types(task: str) -> tuple[tuple[str, str], ...]:
    """(type, regex) of a task's land-use types, site types or road kinds (as the candidates'
    ``kind`` column names them: "upgrade" words give ``rebuild``)."""
    if task == "road":
        kinds: dict[str, list[str]] = {}
        for v in load("tasks")["road_kinds"].values():
            kinds.setdefault(v["data_kind"], []).append(_either(v.get("en"), v.get("fi")))
        return tuple((k, "|".join(ps)) for k, ps in kinds.items())
    return tuple((n, p) for n, p in load("tasks")["types"].get(task, ()))


def type_families(task: str) -> tuple[tuple[str, str], ...]:
    """(prefix, regex) of the words that fit several of a task's types ("hospital": hospital_l and
    hospital_s): a constraint of such a word holds for all of them."""
    return tuple(load("tasks").get("type_families", {}).get(task, {}).items())


def id_nouns_pattern() -> str:
    """Regex (no groups) of the nouns before a candidate's number ("site", "parcel", "kortteli")."""
    u = load("tasks")["id_nouns"]
    return _either(u.get("en"), u.get("fi"))


def task_terms(task: str) -> tuple[tuple[str, str], ...]:
    """(score term, regex) of a task's score terms as planners name them."""
    return tuple((n, p) for n, p in load("tasks")["terms"].get(task, ()))


def phrasings(task: str) -> dict[str, Any]:
    """How the training generator words a task: ``units`` (list), ``types`` and ``terms`` (key →
    words), ``id`` (the id noun) and ``cover`` ([word, POI category] pairs)."""
    return load("tasks")["phrasings"][task]


@dataclass(frozen=True)
class RoadKind:
    start: int
    end: int
    word: str
    kind: str        # as said: new / rebuild / upgrade
    data_kind: str   # the candidates' ``kind`` column: new / rebuild


@cache
def _road_kind_res() -> tuple[tuple[str, str, re.Pattern], ...]:
    kinds = load("tasks")["road_kinds"]
    return tuple((k, v["data_kind"], re.compile(r"(?<!\w)(?:" + _either(v.get("en"), v.get("fi")) + r")(?!\w)", re.I))
                 for k, v in kinds.items())


def road_kinds(text: str) -> list[RoadKind]:
    """The road kinds ``text`` names ("two new links", "rebuild the link", "upgrade existing
    streets"), longest match first where they overlap, in text order."""
    hits = [(m.start(), m.end(), k, dk) for k, dk, rx in _road_kind_res() for m in rx.finditer(text)]
    out: list[RoadKind] = []
    for s, e, k, dk in sorted(hits, key=lambda h: (-(h[1] - h[0]), h[0])):
        if all(e <= o.start or s >= o.end for o in out):
            out.append(RoadKind(s, e, text[s:e], k, dk))
    return sorted(out, key=lambda o: o.start)


# ------------------------------------------------------------------ numbers
@cache
def _numbers() -> dict[str, Any]:
    n = load("numbers")
    units = {**n["units"]["en"], **n["units"]["fi"]}
    scales = {**n["scales"]["en"], **n["scales"]["fi"]}
    fi_units = _alternation(n["units"]["fi"])
    fi_scales = _alternation(n["scales"]["fi"])
    en_small = _alternation(n["units"]["en"])
    tens = _alternation(w for w, v in n["units"]["en"].items() if v >= 20)
    ones = _alternation(w for w, v in n["units"]["en"].items() if 1 <= v <= 9)
    small = rf"(?:(?:{tens})[\s-]+(?:{ones})|{en_small})"
    hundreds = rf"(?:(?:{small}|an?)\s+hundred(?:\s+(?:and\s+)?{small})?)"
    thousands = rf"(?:(?:{hundreds}|{small}|an?)\s+thousand(?:\s+(?:and\s+)?(?:{hundreds}|{small}))?)"
    # Finnish writes compounds as one word ("viisisataa", "kaksituhatta"); a space is tolerated; a
    # compound in any case ("kolmensadanviidenkymmenen") first, so the longest reading wins
    fi = rf"(?:{_fi_compound_pattern()}|(?:{fi_units})?\s?(?:{fi_scales})(?:\s?(?:{fi_units}))?|{fi_units})"
    # never half a number: "two" in "two hundred metres" is not a count of two
    more = _alternation([*n["units"]["en"], *n["scales"]["en"]])
    words = rf"(?:(?:{thousands}|{hundreds}|{small}|{fi})(?![\s-]+(?:{more})(?!\w)))"
    counts = n["counts"]
    denoms = {**n["denominators"], **n.get("denominators_fi_alone", {})}
    per_cent = [*n["per_cent"]["en"], *n["per_cent"]["fi"]]
    return {"units": units, "scales": scales, "words": words, "counts": counts, "denoms": denoms,
            "fi_units": fi_units, "fi_scales": fi_scales, "per_cent": per_cent}


@cache
def _fi_compound_parts() -> dict[str, dict[str, int]]:
    return load("numbers").get("fi_compound", {})


@cache
def _fi_compound_pattern() -> str:
    """Regex (no groups) of one Finnish number word in any case with a tens, teens, hundred or
    thousand part ("kolmensadanviidenkymmenen", "kahdensadan", "viidenkymmenen", "tuhannen")."""
    c = _fi_compound_parts()
    if not c:
        return r"(?!x)x"
    u, t, teen = _alternation(c["units"]), _alternation(c["tens"]), _alternation(c["teens"])
    h, k = _alternation(c["hundreds"]), _alternation(c["thousands"])
    tens = rf"(?:(?:{u})(?:{t})(?:{u})?|(?:{u})(?:{teen}))"      # 20-99 as tens, 11-19
    below100 = rf"(?:{tens}|(?:{u}))"
    hundreds = rf"(?:(?:{u})?(?:{h})(?:{below100})?)"
    below1000 = rf"(?:{hundreds}|{tens})"
    return rf"(?:(?:{below1000}|(?:{u}))?(?:{k})(?:{below1000}|(?:{u}))?|{below1000})(?!\w)"


def _fi_compound_value(word: str) -> int | None:
    """The value of one Finnish compound number word ("kolmensadanviidenkymmenen" → 350), or None."""
    c = _fi_compound_parts()
    if not c or not re.fullmatch(_fi_compound_pattern(), word, re.I):
        return None
    kinds = {f: (kind, v) for kind in ("units", "tens", "teens", "hundreds", "thousands") for f, v in c[kind].items()}
    total = acc = small = 0
    for m in re.finditer(_alternation(kinds), word.casefold()):
        kind, v = kinds[m.group(0)]
        if kind == "units":
            small += v
        elif kind == "tens":
            small = (small or 1) * v
        elif kind == "teens":
            small += v
        elif kind == "hundreds":
            acc, small = acc + (small or 1) * v, 0
        else:
            total, acc, small = total + ((acc + small) or 1) * v, 0, 0
    return total + acc + small


def number_word(n: int) -> str:
    """The English word of a number the lexicon spells in one word (1 → "one", 20 → "twenty")."""
    return next(w for w, v in load("numbers")["units"]["en"].items() if v == n)


def number_words_pattern() -> str:
    """Regex (no groups) of a number written in words: "seven", "twenty-five", "two hundred
    and fifty", "a thousand", "viisisataa". Articles alone ("a") are not numbers here."""
    return _numbers()["words"]


def count_pattern() -> str:
    """Regex (no groups) of a count in words: a number in words or a count phrase ("a couple
    of", "a few", "a single", "no"), longest first."""
    n = _numbers()
    return rf"(?:{n['words']}|{_alternation(n['counts'])})"


def word_number(phrase: str) -> float | None:
    """The value of a number in words ("two hundred and fifty" → 250, "a thousand" → 1000,
    "viisisataa" → 500); None when ``phrase`` is not one."""
    n = _numbers()
    low = " ".join(phrase.casefold().replace("-", " ").split())
    if not low or not re.fullmatch(n["words"], low):
        return None
    total, cur = 0.0, 0.0
    for tok in low.split():
        compound = _fi_compound_value(tok)
        if compound is not None and tok not in n["units"]:
            cur += compound
            continue
        fi = re.fullmatch(rf"({n['fi_units']})?({n['fi_scales']})({n['fi_units']})?", tok)
        if tok in n["units"]:
            cur += n["units"][tok]
        elif tok in ("a", "an"):
            cur += 1
        elif tok in n["scales"] and n["scales"][tok] == 100:
            cur = (cur or 1) * 100
        elif tok in n["scales"]:
            total += (cur or 1) * n["scales"][tok]
            cur = 0.0
        elif fi:   # one Finnish word: "viisisataa" = 5 × 100, "kaksituhatta" = 2 × 1000
            head, scale, tail = fi.groups()
            cur += (n["units"][head] if head else 1) * n["scales"][scale] + (n["units"][tail] if tail else 0)
    return total + cur


def count_value(word: str) -> float | None:
    """A count as written: digits, a number in words or a count phrase ("a couple of" → 2)."""
    w = " ".join(word.casefold().split())
    if re.fullmatch(r"\d+(?:[.,]\d+)?", w):
        return float(w.replace(",", "."))
    counts = _numbers()["counts"]
    return float(counts[w]) if w in counts else word_number(w)


def is_number_word(word: str) -> bool:
    """True for a single word that states a number ("seven", "single", "kolme")."""
    w = word.casefold()
    return w in _numbers()["units"] or w == "single" or (word_number(w) is not None and " " not in w)


def misspelt_bounds() -> dict[str, str]:
    """A count's bound run together or misspelt, exact lower-case forms → the bound's words ("atleast" →
    "at least", "no more then" → "no more than", "enintäin" → "enintään")."""
    return dict(load("numbers").get("misspelt_bounds", {}))


def comparisons() -> dict[str, str]:
    """Comparison signs and words → the English words they stand for ("≥" → "at least",
    "enintään" → "at most")."""
    return dict(load("numbers")["comparisons"])


def fraction_pattern() -> str:
    """Regex (no groups) of a fraction in words: "half", "a fifth", "two thirds", "three quarters"."""
    n = _numbers()
    fi_alone = _alternation([d for d in n["denoms"] if d.endswith(("osa", "osaa")) or d == "puolet"
                             or d in load("numbers").get("denominators_fi_alone", {})])
    return rf"(?:(?:an?|one|{n['words']})\s+(?:{_alternation(n['denoms'])})|half|{fi_alone})"


def fraction_value(phrase: str) -> Fraction | None:
    """"a fifth" → 1/5, "two thirds" → 2/3, "half" → 1/2; None when not a fraction."""
    low = " ".join(phrase.casefold().split())
    denoms = _numbers()["denoms"]
    if low in denoms:   # "half", "quarter": one of them
        return Fraction(1, denoms[low])
    m = re.fullmatch(r"(.+)\s+(\w+)", low)
    if not m or m.group(2) not in denoms:
        return None
    num = 1 if m.group(1) in ("a", "an") else word_number(m.group(1))
    return Fraction(int(num), denoms[m.group(2)]) if num else None


def percentages(text: str) -> list[tuple[int, int, float]]:
    """(start, end, share 0..1) of each per-cent amount: "30 %", "thirty per cent", "12,5 prosenttia"."""
    n = _numbers()
    rx = re.compile(rf"(?<!\w)(\d+(?:[.,]\d+)?|{n['words']})\s*(?:{_alternation(n['per_cent'])})(?!\w)", re.I)
    out = []
    for m in rx.finditer(text):
        raw = m.group(1)
        value = float(raw.replace(",", ".")) if raw[0].isdigit() else word_number(raw)
        if value is not None:
            out.append((m.start(), m.end(), value / 100.0))
    return out


# ------------------------------------------------------------------ distances
@cache
def _units() -> tuple[tuple[str, float, str], ...]:
    units = load("measures")["distance_units"]
    return tuple((k, float(v["metres"]), _either(v.get("en"), v.get("fi"))) for k, v in units.items())


def unit_pattern() -> str:
    """Regex (no groups) of a distance unit: "km", "metres", "kilometriä"."""
    return "|".join(p for _, _, p in _units())


def unit_metres(unit: str) -> float:
    """Metres in one ``unit`` as written ("km" → 1000, "metres" → 1)."""
    return next(m for _, m, p in _units() if re.fullmatch(p, unit, re.I))


#: a distance in digits: "500 m", "1,5 km", "2 kilometres"; group 1 the number, group 2 the unit
@cache
def distance_re() -> re.Pattern:
    """The one distance-in-digits pattern (groups: number, unit)."""
    # "1 500 m": thousands written with a space are one number, not 500 m; "1½ km", "¾ km": a
    # fraction sign after (or instead of) the whole number
    signs = "".join(_fraction_signs())
    return re.compile(r"((?<![\d.,])\d{1,3}(?:[  ]\d{3})+|\d+(?:[.,]\d+)?(?:[  ]?[" + signs + r"])?|[" + signs
                      + r"])\s*(" + unit_pattern() + r")(?![\w€])", re.I)   # "2 M€" is money


@cache
def _fraction_signs() -> dict[str, float]:
    return {k: float(v) for k, v in load("measures")["fraction_signs"].items()}


@cache
def _distance_amount_words() -> dict[str, float]:
    return {k.casefold(): float(v) for k, v in load("measures")["distance_amount_words"].items()}


@cache
def _word_distance_re() -> re.Pattern:
    n = _numbers()
    said = "|".join(sorted(map(re.escape, _distance_amount_words()), key=len, reverse=True))
    amount = (rf"(?P<frac>(?:a\s+)?quarter(?:\s+of)?\s+an?|half\s+an?|three\s+quarters\s+of\s+an?|{said})"
              rf"|(?P<num>{n['words']}|an?)(?P<half>\s+and\s+a\s+half)?")
    return re.compile(rf"(?<!\w)(?:{amount})\s+(?P<unit>{unit_pattern()})(?![\w€])", re.I)


@dataclass(frozen=True)
class Distance:
    start: int
    end: int
    written: str
    metres: float


def metres(m: re.Match) -> float:
    """Metres of a ``distance_re`` match."""
    number = re.sub(r"[  ]", "", m.group(1)).replace(",", ".")
    sign = _fraction_signs().get(number[-1:], 0.0)
    whole = number[:-1] if sign else number
    return (float(whole or 0) + sign) * unit_metres(m.group(2))


def distances(text: str) -> list[Distance]:
    """Every distance in ``text``, digits or words ("500 m", "half a kilometre", "two hundred
    and fifty metres", "a quarter of a km"), in text order. An amount of money that looks like
    a distance ("2 M€") is the caller's to exclude."""
    out = [Distance(m.start(), m.end(), m.group(0), metres(m)) for m in distance_re().finditer(text)]
    for m in _word_distance_re().finditer(text):
        if any(o.start <= m.start() < o.end or m.start() <= o.start < m.end() for o in out):
            continue
        unit = unit_metres(m.group("unit"))
        if m.group("frac"):   # "a quarter of a", "half a": the fraction before "(of) a"
            frac = re.sub(r"\s+(?:of\s+)?an?$", "", m.group("frac").strip())
            said = _distance_amount_words().get(frac.casefold())   # "puoli" / "puolitoista kilometriä"
            value = said if said is not None else float(fraction_value(frac) or 0)
        else:
            value = count_value(m.group("num")) or 0.0
            value += 0.5 if m.group("half") else 0.0
        if value:
            out.append(Distance(m.start(), m.end(), m.group(0), value * unit))
    return sorted(out, key=lambda d: d.start)


# ------------------------------------------------------------------ money
def money_words() -> dict[str, Any]:
    """The money section: regex fragments for million / thousand / euro, word values, budget cues."""
    return load("measures")["money"]


def unspent_pattern() -> str:
    """Regex (no groups) of the words that make an amount the part of the budget not spent
    ("unspent", "hold back", "set aside", "in reserve")."""
    money = load("measures")["money"]
    cues = [x for x in (money["unspent_cue"], money.get("unspent_cue_fi"), money.get("unspent_cue_held")) if x]
    if money.get("unspent_neg_verbs"):
        # "don't touch 30 % of the budget": a negated spending verb keeps back only the share said right after it,
        # and never where a bound is said ("don't use more than 60 %" is the share spent)
        # ("don't touch anything within 500 m of X" is a distance, no share)
        number = r"\d[\d.,]*(?![\d.,]*\d)(?!\s*(?:m|km|metr\w*|kilomet\w*|min\w*)\b)"
        cues.append(rf"(?:{money['unspent_neg_verbs']})(?=(?:\s+\S+){{0,2}}?\s+(?:{number}|{fraction_pattern()}))"
                    rf"(?!.*\b(?:{money['unspent_neg_bounds']})\b)")
    return "|".join(cues)


__all__ = ["Distance", "LEXICON_DIR", "RoadKind", "TASK_KEYS", "category_land_nouns_pattern", "comparisons",
           "count_pattern", "count_value",
           "distance_re", "distances", "edge_nouns_pattern", "facility_terms", "fraction_pattern", "fraction_value",
           "fuzzy_words", "not_fuzzy_words", "generic_kind_nouns_pattern", "kind_nouns",
           "id_nouns_pattern", "is_finnish", "misspelt_bounds",
           "plan_nouns_pattern", "spell_plan_nouns", "say_none_re", "is_number_word",
           "landmark_nouns_pattern", "load", "metres",
           "money_words", "name_case_endings", "number_words_pattern", "percentages", "place_nouns_pattern", "road_kinds",
           "target_aliases", "task_label",
           "task_name", "task_patterns", "task_terms", "task_types", "type_families", "uncategorised_pattern", "unit_metres",
           "unit_pattern", "unspent_pattern", "word_number"]


# ------------------------------------------------------------------ words a reading must use
def unread_type_pattern(task: str) -> str:
    """Regex (no groups) of the kinds a planner may name that ``task``'s candidates have no type for
    ("fast charger": a station candidate is a site with a configuration, not a typed charger); "" if none."""
    u = load("tasks")["unread"]["type_words"].get(task) or {}
    return _either(u.get("en"), u.get("fi"))


@cache
def not_names() -> frozenset[str]:
    """Capitalised words that are never a place (sentence starts, verbs, fillers), lower-case."""
    tasks = load("tasks")
    return frozenset([*tasks["unread"]["not_names"], *tasks.get("not_names_more", ()),
                      *tasks.get("not_names_fi_starts", ())])


def kind_nouns() -> tuple[tuple[str, tuple[str, ...], dict[str, tuple[str, ...] | None]], ...]:
    """(regex, feature kinds, tag filter) of each kind noun a planner may put after a data name ("the
    Albert Edelfelt statue", "Kumparepuisto park"): the kind agrees with a feature of one of those kinds
    or with one of those tags (a value list None: any value)."""
    return tuple((_either(k.get("en"), k.get("fi")), tuple(k.get("kinds") or ()),
                  {t: tuple(v) if v else None for t, v in (k.get("tags") or {}).items()})
                 for k in load("facilities")["kind_nouns"])


def generic_kind_nouns_pattern() -> str:
    """Regex (no groups) of the generic nouns after a data name that fit any feature ("place", "paikka")."""
    u = load("facilities")["generic_kind_nouns"]
    return _either(u.get("en"), u.get("fi"))


# ------------------------------------------------------------------ street types
def street_short_forms(name: str) -> tuple[str, ...]:
    """The written short forms of a street's name by the street-type table (``streets.json``): an
    English last word abbreviated ("West 86th Street" → "West 86th St", "West 86th St.", …) or written
    out where the data abbreviates it ("W 86th St" → "W 86th Street"), and a Finnish compound's ending
    cut ("Yrjönkatu" → "Yrjönk.", "Tehtaanpuistotie" → "Tehtaanpst"). Exact forms only, never fuzzy;
    whether a form is unambiguous in the data is the name index's decision."""
    table = load("streets")
    head, _, last = name.strip().rpartition(" ")
    out: list[str] = []
    for w in table["words"]:
        forms = [w["word"], *w["short"]]
        if head and last.casefold().rstrip(".") in {f.casefold().rstrip(".") for f in forms}:
            out += [f"{head} {f}" for f in forms if f.casefold().rstrip(".") != last.casefold().rstrip(".")]
    for s in sorted(table["suffixes"], key=lambda s: len(s["suffix"]), reverse=True):
        if len(last) > len(s["suffix"]) + 2 and last.casefold().endswith(s["suffix"]):
            out += [f"{head} {last[:-len(s['suffix'])]}{f}".strip() for f in s["short"]]
            break
    return tuple(dict.fromkeys(out))


@cache
def street_short_dot_re() -> re.Pattern:
    """A street-type short form with its dot at the end of a text ("West 86th St.", "Amsterdam Ave.",
    "Yrjönk."): that dot abbreviates, it ends no sentence (case-sensitive: a capitalised English short
    form; a capitalised Finnish compound cut to its short ending)."""
    table = load("streets")
    en = {f.rstrip(".") for w in table["words"] for f in w["short"] if f.endswith(".")}
    fi = {f.rstrip(".") for s in table["suffixes"] for f in s["short"] if f.endswith(".")}
    return re.compile(rf"(?:\b(?:{_alternation(en)})|\b[A-ZÅÄÖ]\w+(?:{_alternation(fi)}))\.$")


@cache
def numbered_street_re() -> re.Pattern:
    """A numbered street as written ("West 99th St", "W 120th Street", "5th Ave."): up to two
    capitalised words, a number (with its ordinal ending) and a street-type word or short form of
    the table. Its number is its name's own: such a name is read only as written, never as a
    neighbour one digit off ("West 99th St" is no West 89th Street)."""
    forms = {f.rstrip(".") for w in load("streets")["words"] for f in (w["word"], *w["short"])}
    return re.compile(rf"(?:\b[A-Z][\w]*\.?\s+){{0,2}}\b\d+(?:st|nd|rd|th)?\s+(?i:{_alternation(forms)})\b\.?")


@cache
def finnish_short_street_re() -> re.Pattern:
    """A Finnish street name written short ("Yrjönk.", "Kotkant.", "Tehtaanpst"): a capitalised compound
    cut to a short ending of the table (with its dot where the table writes one). Read only as a short
    form the data has, never as a look-alike ("Kirkkot." is no Kirkkokatu)."""
    shorts = [f for s in load("streets")["suffixes"] for f in s["short"]]
    dotted = _alternation(f.rstrip(".") for f in shorts if f.endswith("."))
    bare = _alternation(f for f in shorts if not f.endswith("."))
    return re.compile(rf"\b[A-ZÅÄÖ]\w+(?:(?:{dotted})\.|(?:{bare})\b)")


@cache
def worded_street_re() -> re.Pattern:
    """A street named in capitalised words and a capitalised street-type word or short form ("Main
    Street", "Mill Ave", "Riverside Dr."): one name, even where its words are ordinary ones."""
    forms = {f.rstrip(".") for w in load("streets")["words"] for f in (w["word"], *w["short"])}
    return re.compile(rf"(?:\b[A-Z]\w*\s+){{1,3}}(?:{_alternation(forms)})\b\.?")


@cache
def _short_forms() -> list[tuple[re.Pattern, str]]:
    """``short_forms.json`` as (pattern, long form) pairs: whole words, case-insensitive."""
    return [(re.compile(rf"(?<![\w/])(?:{f['short']})(?![\w/])", re.I), f["long"])
            for f in load("short_forms")["short_forms"]]


def expand_short_forms(text: str) -> str:
    """``text`` with each short form of ``short_forms.json`` written long ("then dist. to Think Corner" →
    "then distance to Think Corner", "cafés w/in 300 m" → "cafés within 300 m"), so that an abbreviation's
    dot ends no part and its word is read as the word it stands for."""
    for rx, long in _short_forms():
        text = rx.sub(long, text)
    return text


def plan_nouns_pattern() -> str:
    """Regex (no groups) of the plan nouns read as a plan word beyond "plan" / "suunnitelma" ("sijoitus":
    the placement of charging stations), from ``tasks.json`` ``plan_nouns``."""
    return load("tasks")["plan_nouns"]["words"]


def _one_edit(a: str, b: str) -> bool:
    """``a`` and ``b`` differ by at most one letter added, left out or changed, or two next ones swapped."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) <= 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def spell_plan_nouns(text: str) -> str:
    """``text`` with each misspelt plan noun written right, alone or as the last part of a compound and with
    any ending ("latausasemasuunitelma" → "latausasemasuunnitelma", "Kotkan tiesuunnitlema" → "…suunnitelma"):
    a window of a word one edit from a ``plan_nouns`` ``spelled`` form, starting with its first two letters,
    and ending as it does, is that form. A word already so spelled, two edits off ("suunnittelu": planning) or
    a verb ("suunnitellaan") stays."""
    forms = load("tasks")["plan_nouns"]["spelled"]

    def fix(m: re.Match) -> str:
        w = m.group(0)
        low = w.casefold()
        for form in forms:
            if form in low:
                return w
            for i in range(len(low) - len(form) + 2):
                for n in (len(form) - 1, len(form), len(form) + 1):
                    win = low[i:i + n]
                    # the first two letters and the last kept: "suunnitella" / "suunnitelkaa" (to plan) are verbs
                    if len(win) == n and win[:2] == form[:2] and win[-1] == form[-1] and _one_edit(win, form) \
                            and (i == 0 or i >= 3):
                        return w[:i] + (form if w[i:i + 1].islower() else form.capitalize()) + w[i + n:]
        return w

    return re.sub(r"(?<![\w-])[^\W\d_]{8,}(?![\w-])", fix, text)


@cache
def nothing_to_do_re() -> re.Pattern:
    """A conditional's branch that asks for nothing ("never mind", "else nothing", "muuten ei mitään"),
    from ``branches.json``; match it against the branch's whole text with ``fullmatch``."""
    return re.compile(rf"(?:{'|'.join(load('branches')['nothing_to_do'])})", re.I)


@cache
def say_none_re() -> re.Pattern:
    """A conditional's otherwise branch that asks only that the outcome be said ("just say so", "tell me
    there is none", "muuten kerro ettei ole"), from ``branches.json``; match it with ``fullmatch``."""
    return re.compile(rf"(?:{'|'.join(load('branches')['say_none'])})", re.I)
