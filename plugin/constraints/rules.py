"""Deterministic parsing of the common instruction forms into constraints (neutral form).

Slots first (distances, counts, shares, money, ids, types, score terms, the target phrase),
then the kind from the words around them. The output names targets as the planner said
them ({id, name, category}); the interpreter resolves them against the data. ``NoRule`` means
no rule applies (the model gets the text); ``Ambiguous`` means the instruction was understood
but lacks something the planner must give (the reply asks).
"""
from __future__ import annotations

import contextlib
import difflib
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from ..city import REGIONS, lexicon
from ..city.region_names import region_of_word
from ..city.vocabulary import money_amounts
from .schema import summary

#: land-use types (land task) and site types (station task), and each task's score terms, by
#: the words planners use (resources/lexicon/tasks.json); first match wins
LAND_TYPES = lexicon.task_types("land")
STATION_TYPES = lexicon.task_types("station")
ROAD_KINDS = lexicon.task_types("road")
TERMS = {t: lexicon.task_terms(t) for t in lexicon.TASK_KEYS}
#: the score terms a planner may name by their code, as the task's own score names them ("R": the land task's need term)
TERM_CODES = frozenset(name for terms in TERMS.values() for name, _ in terms if name.isupper())
UNIT_NOUNS = (r"(?:(?:ev\s+)?(?:charg\w+(?:\s+(?:stations?|points?|sites?))?|stations?|sites?|candidates?|facilit\w+|"
              r"(?:new\s+)?(?:roads?|links?|streets?)|parcels?|blocks?|anything|nothing|buildings?|projects?|"
              r"plots?|ones?))")
VOCAB = ("inside", "outside", "within", "least", "most", "more", "than", "offices", "office", "business", "parcels",
         "parcel", "chargers", "charger", "stations", "station", "budget", "spacing", "apart", "prohibit",
         "recreation", "hospital", "school", "schools", "green", "access", "coverage", "connectivity", "between",
         "spend", "unspent", "maximum", "minimum", "around", "near", "away", "links", "roads", "priority",
         "prioritise", "prioritize", "emphasise", "emphasize", "distance", "every", "residential", "block", "blocks",
         "allocated", "exclude", "include", "should", "must", "budget", "money", "metres", "meters", "least")
#: the nouns before a candidate's number (resources/lexicon/tasks.json id_nouns: "site", "parcel", "kortteli")
ID_NOUN = lexicon.id_nouns_pattern()
ID_REF = re.compile(r"\b(" + ID_NOUN + r")s?\s*(?:#|no\.?|nr\.?|number)?\s*(\d+)\b", re.I)
#: "sites 2 and 5", "parcels 3, 4 and 9": every number of the list is an id
ID_LIST = re.compile(r"\b(?:" + ID_NOUN + r")s?\s*(?:#|no\.?|nr\.?|number)?\s*"
                     r"(\d+(?:\s*(?:,\s*(?:and\s+)?|and|&|or|-|–|to|through)\s*"
                     r"(?:(?:" + ID_NOUN + r")s?\s*)?#?\d+\b(?!\s+(?:(?:new|more|ev|extra)\s+)?" + UNIT_NOUNS + r"))*)"
                     r"(?!\s*(?:k?m\b|km|kilomet|met(?:er|re)|%))", re.I)
RAW_ID = re.compile(r"\b([snrf]\d{1,3}(?:c\d+|-[a-z_]+)?)\b")   # "s05c1", "n002", terse "s5"


class NoRule(Exception):
    """No deterministic rule understood the text."""


class Ambiguous(Exception):
    """Understood, but something only the planner can give is missing (the message asks)."""


class NeedsDistance(Ambiguous):
    """"near X" with no distance: the planner is asked for one (``place`` is X as written, for
    the interpreter to say first when X is not in the data)."""

    def __init__(self, place: str, word: str):
        self.place = place
        self.target = _target(place)
        how = "how far from" if re.search(r"away|clear|far", word) else "how near to"
        super().__init__(f"{how} {place}? '{word}' has no distance: give one, e.g. 'within 300 m of {place}'")


def _fix_spelling(text: str) -> str:
    """Lower-case words within one or two letters of a keyword are read as it (atleast, insdie)."""
    text = re.sub(r"\batleast\b", "at least", text, flags=re.I)
    text = re.sub(r"\batmost\b|\bat the most\b", "at most", text, flags=re.I)
    text = re.sub(r"\bat\s*(?:lest|leats|leat|laest|lease|elast)\b|\bat the (?:very )?least\b", "at least", text,
                  flags=re.I)   # short words, emphatic words

    def fix(m: re.Match) -> str:
        w = m.group(0)
        if w in VOCAB or len(w) < 5:
            return w
        close = difflib.get_close_matches(w, VOCAB, n=1, cutoff=0.8)
        return close[0] if close and abs(len(close[0]) - len(w)) <= 1 and close[0][0] == w[0] else w
    return re.sub(r"\b[a-z]+\b(?![’'])", fix, text)   # "shouldn't" is no misspelt "should"


def _number(s: str) -> float:
    return float(s.replace(",", ".").replace(" ", "").replace("\u202f", ""))


def distance_of(text: str) -> float | None:
    """Metres of the first distance in ``text`` (digits or words, the lexicon's units)."""
    found = lexicon.distances(text)
    return found[0].metres if found else None


#: "at least 300 m" is a distance, "need a minimum of two" a count of two
NOT_A_MEASURE = r"(?!\s*(?:k?m\b|km|kilomet|met(?:er|re)|%|per ?cent|/\s*\d)|\s+(?:minimum|maximum|min|max|total)\b)"


#: "build no more than two": the "no" after a verb starts a bound ("no more than"), it is no count of zero
BOUND_AFTER = r"(?!\s+(?:more|fewer|less|later|further|farther|closer)\b)"


#: "more than 420 000 of our 700 000 euros" is money, no count of 420 (thousands, a currency after it)
NOT_MONEY = r"(?![\s\u202f]\d{3}\b|\s*(?:k\b|€|eur\w*\b|thousand|million|m€))"


#: Finnish candidate nouns after a count ("2 latausasemaa", "kolme tonttia", "kaksi uutta tietä"): a count of them
#: ("jätä 2 latausasemaa … Kiasmasta" was read as at least one)
FI_UNIT_NOUNS = (r"(?:latausasem\w*|latauspist\w*|latauspaik\w*|tontt\w*|tontte\w*|korttel\w*|linkk\w*|linkke\w*|"
                 r"tietä|teitä|katua|katuja|paikkaa|kohdetta)\b")


#: the land-use and site type words of the lexicon, as nouns a count can stand before
_TYPE_NOUNS = "|".join(p for task in ("land", "station") for _, p in lexicon.task_types(task))


def count_of(text: str) -> int | None:
    m = re.search(r"\b(?:at least|at most|no more than|not more than|max(?:imum)?(?: of)?|min(?:imum)?(?: of)?|"
                  r"up to|exactly|only|need|get|place|build|keep|allow|than|just)\s+(\d+|" +
                  lexicon.count_pattern() + r")\b" + NOT_A_MEASURE + BOUND_AFTER + NOT_MONEY, text, re.I)
    if m:
        return _count_word(m.group(1))
    m = re.search(r"\b(\d+|" + lexicon.count_pattern() + r")\s+(?:(?:new|more|ev|\w+)\s+)?(?:" + UNIT_NOUNS + "|"
                  + FI_UNIT_NOUNS + r")", text, re.I)
    if m:
        return _count_word(m.group(1))
    # a count right before a land-use or site type ("three offices within 300 m of X", Finnish partitive
    # "kolme koulua …"): that many of the type (it was read as at least one)
    m = re.search(r"\b(\d+|" + lexicon.count_pattern() + r")\s+(?:" + _TYPE_NOUNS + r")\b", text, re.I)
    if m:
        return _count_word(m.group(1))
    # "two at most around X", "3 max": the bound after the count, no noun between
    m = re.search(r"\b(\d+|" + lexicon.count_pattern() + r")\s+(?:at most|at least|max(?:imum)?|min(?:imum)?|tops)\b",
                  text, re.I)
    return _count_word(m.group(1)) if m else None


#: what is left of the budget after the share said ("the rest stays in reserve"): no unspent share of its own
REST = (r"\b(?:the rest|the remainder|what(?:'s| is) left(?: over)?|whatever is left|everything else|the balance|"
        r"the leftovers?|loput|lopun|loppuosa\w*|jäljellä oleva\w*|jäljelle jäävä\w*)\b")   # "käytä 70 % ja säästä loput"


PER_CENT_AFTER = re.compile(r"\s*(?:%|per\s*cent|percent|prosent)", re.I)


def share_of(text: str, budget_keur: float | None) -> float | None:
    """The budget share an instruction allows (0..1), None when it names none."""
    low = text.lower()
    # "spend at most 70 % and keep the rest in reserve": the reserve is the rest, the share said is spent
    unspent = bool(re.search(r"\b(?:" + lexicon.unspent_pattern() + r")\b", low)) and \
        not re.search(REST + r".*\b(?:" + lexicon.unspent_pattern() + r")\b|"   # "… and save the rest", "säästä loput"
                      r"\b(?:" + lexicon.unspent_pattern() + r")(?:\s+\S+){0,2}?\s+" + REST, low)
    # "budget: 75 %": the number before a per cent sign is the share, no amount (the budget cue before it made it
    # 75 k€ of the budget, applied as 11 %)
    money = [m for m in money_amounts(text) if not PER_CENT_AFTER.match(text, m.end)]
    # a fraction or per cent inside an amount of money ("half a million of the €800 000") is no share
    bare = "".join(" " if any(m.start <= k < m.end for m in money) else ch for k, ch in enumerate(low))
    per_cent = lexicon.percentages(bare)   # "30 %", "thirty per cent"
    share = None
    frac = re.search(r"\b(\d+)\s*/\s*(\d+)\b", bare)
    vulgar = re.search(r"[¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞]", bare)   # "¾ of the budget"
    words = re.search(r"\b(" + lexicon.fraction_pattern() + r")\b", bare)   # "a fifth", "two thirds", "half"
    if per_cent:
        share = per_cent[0][2]
    elif frac and int(frac.group(2)) > 0:
        share = int(frac.group(1)) / int(frac.group(2))
    elif vulgar and not re.search(r"\d\s*" + vulgar.group(0), bare):   # "1½ km" is a distance
        share = float(unicodedata.numeric(vulgar.group(0)))
    elif words and lexicon.fraction_value(words.group(1)):
        share = float(lexicon.fraction_value(words.group(1)))
    if share is None:
        amounts = [m.keur for m in money]
        part = _bare_part(text, money)
        if part is not None:   # "420 000 of our 700 000 euros": the bare number is money too
            amounts = [part, *amounts]
        whole = _bare_whole(text, money)
        if whole is not None:   # "450 000 euros of the 600 000 available": so is the whole after it
            amounts = [*amounts, whole]
        later = _bare_part_of_it(text, money)
        if later is not None:   # "we have 1,2 million euros; spend at most 900 000 of it": and the part after it
            amounts = [*amounts, later]
        if len(amounts) >= 2 and max(amounts[:2]) > 0:   # a part of the whole, either order ("of the €1.2 M, 300 000 €")
            share = min(amounts[:2]) / max(amounts[:2])
        elif len(amounts) == 1 and budget_keur:
            share = amounts[0] / budget_keur
        elif re.search(r"(?<![\d.,])0?[.,]\d+\b", bare):   # "0.6" or "0,6" of the budget
            share = float(re.search(r"(?<![\d.,])(0?[.,]\d+)\b", bare).group(1).replace(",", "."))
    if share is None:
        return None
    return round(1.0 - share if unspent else share, 4)


def _bare_keur(m: re.Match) -> float | None:
    """The k€ of a bare number (group 1) and its scale word (group 2) that takes the currency of the amount
    of money it is said with."""
    got = money_amounts(f"€{m.group(1).strip()}{(m.group(2) or '')}")
    return got[0].keur if got else None


def _bare_part(text: str, money: list) -> float | None:
    """The k€ of a bare number said as a part of the one amount of money that follows it ("420 000
    of our 700 000 euros", "300 000 out of the €1.2 M"): it takes that amount's currency."""
    if len(money) != 1:
        return None
    m = re.search(r"(\d[\d\s\u202f.,]*\d|\d)\s*(k|m|thousand|million)?\s+(?:euros?\s+)?(?:out\s+)?of\s+"
                  r"(?:the|our|my|its|a|this|that|their)?\s*(?:total\s+|whole\s+)?$", text[:money[0].start], re.I)
    if not m:
        return None
    return _bare_keur(m)


def _bare_part_of_it(text: str, money: list) -> float | None:
    """The k€ of a bare number said after the one amount of money as a part "of it" ("we have 1,2 million
    euros; spend at most 900 000 of it"): it takes that amount's currency."""
    if len(money) != 1:
        return None
    m = re.search(r"(?<![\w.,])(\d[\d\s\u202f.,]*\d|\d)\s*(k|m|thousand|million)?\s+(?:euros?\s+|euroa\s+)?"
                  r"(?:(?:out\s+)?of\s+(?:it|that|this|them|those|these|that sum|this sum|that amount|this amount)|"
                  r"(?:siitä|tästä|niistä|näistä)(?:\s+summasta)?)\b",
                  text[money[0].end:], re.I) or \
        re.search(r"\b(?:siitä|tästä|niistä|näistä)(?:\s+summasta)?(?:\s+[^\W\d]+){0,3}?\s+"   # Finnish "siitä enintään N"
                  r"(\d[\d\s\u202f.,]*\d|\d)\s*(k|m|thousand|million|tuhatta)?(?![\w%])(?!\s*(?:%|per ?cent|prosent|"
                  r"k?m\b|met|kilomet))", text[money[0].end:], re.I)
    if not m:
        return None
    return _bare_keur(m)


def _bare_whole(text: str, money: list) -> float | None:
    """The k€ of a bare number said as the whole that the one amount of money is a part of ("450 000
    euros of the 600 000 available", "€300k out of a total of 500 000"): it takes that amount's
    currency, so the share is of the total said, not of the instance's budget."""
    if len(money) != 1:
        return None
    m = re.match(r"\s*(?:euros?\s+)?(?:out\s+)?of\s+(?:the|our|my|its|a|an|this|that|their|your)?\s*"
                 r"(?:total(?:\s+of)?\s+|whole\s+|available\s+|overall\s+)?"
                 r"(\d[\d\s\u202f.,]*\d|\d)(?:\s*(k|m|thousand|million)\b)?(?!\s*(?:%|per ?cent|k?m\b|met|kilomet))",
                 text[money[0].end:], re.I)
    if not m:
        return None
    return _bare_keur(m)


def _types(task: str) -> tuple[tuple[str, str], ...]:
    """Land-use types, site types, or road kinds (new / rebuild: "at most two new links" counts new links only)."""
    return LAND_TYPES if task == "land" else STATION_TYPES if task == "station" else ROAD_KINDS if task == "road" else ()


def type_of(text: str, task: str) -> str | None:
    """The type (land use, site kind, road kind) the text names, None when none; a word that fits
    several types ("hospital": large or small) gives their shared prefix (lexicon ``type_families``),
    a constraint over all of them. Words of a name in the genitive ("Kaisaniemen puisto") are no type."""
    text = without_place_kinds(text)   # before the genitive name goes ("of the Ressun lukio car park")
    text = GENITIVE_NAME.sub(lambda m: m.group(0) if _no_genitive(m.group(1), task) else " ", text)
    for name, pat in _types(task):
        m = re.search(rf"\b(?:{pat})\b", text, re.I)
        if m:
            return next((fam for fam, fpat in lexicon.type_families(task)
                         if re.fullmatch(rf"(?:{fpat})", m.group(0), re.I)), name)
    return None


#: a capitalised name in the genitive and the noun after it are one name ("Kaisaniemen puisto",
#: "Helsingin sairaala"): the noun is the name's, no type or place word of the instruction
#: the noun may be capitalised as the data writes it ("Otsolan Koulu" was read as 'no school parcels')
GENITIVE_NAME = re.compile(r"(?<![\w'’-])([A-ZÅÄÖ][\w'’-]*n)(?:\s+[a-zåäö]+n)*\s+[A-ZÅÄÖ]?[a-zåäö]+\b")


#: the kind word after a place's name ("… 100 m from the edge of Kumparepuisto park", "of the Kiasma
#: building"): the place's, no type of the instruction (it was read as 'only green parcels')
#: a facility's kind after its name ("within 300 m of the @ Metallitalo car park", "of Q-Park Erottaja parking garage",
#: "of the Ressun lukio school") is the place's too (the car park was read as 'only parking sites'): the name may be
#: several words, the first capitalised (or after "@"), none of them a word that ends the name
#: the place may stand after any place word, "inside" or "out of" as well as "of" (round 13: "Do not place any land-use
#: site inside the Kumparepuisto park" was read as 'no green parcels'); the resolver checks that the kind agrees
PLACE_PREPOSITION = r"(?:of|from|near|to|by|around|beside|inside|in|into|within|outside|out\s+of|off|across|at|next\s+to)"
PLACE_KIND_NOUN = (r"(?:park|puisto|garden|green|car\s+parks?|parking(?:\s+(?:garages?|lots?|halls?|houses?))?|"
                   r"parkkipaik\w*|parkkihall\w*|parkkialue\w*|schools?|koulu)")
PLACE_KIND_WORD = re.compile(r"\b(" + PLACE_PREPOSITION + r" (?:the )?(?:@\s*)?[A-ZÅÄÖ][\w'’-]*"
                             r"(?:\s+(?!(?:for|and|or|with|but|as|in|on|at|to|the|a|an|no|not|is|are)\b)[\w'’-]+){0,2}?)"
                             r"\s+" + PLACE_KIND_NOUN + r"\b")
#: the kind noun before the name ("inside the park Kumparepuisto", "of the school Helilän koulu"): the place's too
PLACE_KIND_BEFORE = re.compile(r"\b(" + PLACE_PREPOSITION + r" (?:the )?)" + PLACE_KIND_NOUN + r"\s+(?=[A-ZÅÄÖ])")


def without_place_kinds(text: str) -> str:
    """``text`` without the kind nouns that stand with a place's name (``PLACE_KIND_WORD``, ``PLACE_KIND_BEFORE``):
    the place's words, no type or kind of the instruction."""
    return PLACE_KIND_BEFORE.sub(r"\1", PLACE_KIND_WORD.sub(r"\1", text))


def _no_genitive(word: str, task: str) -> bool:
    """A capitalised word in -n that is a word of ours, no name: "Green spaces …", "Within 300 m …"."""
    low = word.casefold()
    return low in _known_words()[0] or low in lexicon.not_names() or any(
        re.fullmatch(rf"(?:{pat})", low) for _, pat in _types(task))


def term_of(text: str, task: str) -> str | None:
    best = None
    for name, pat in TERMS.get(task, ()):
        m = re.search(rf"\b(?:{pat})", text, re.I)
        if m and (best is None or m.start() < best[1]):
            best = (name, m.start())
    return best[0] if best else None


#: a list of names, "Kiasma, Ateneum and Stockmann": its commas are read as "and" (one phrase, the
#: interpreter makes one keep-away per name, or asks) — never the first name alone
NAME_LIST = re.compile(r"\b([A-ZÅÄÖ][\w-]*(?: [\w-]+){0,3}?)((?:, [A-ZÅÄÖ][\w-]*(?: [\w-]+){0,3}?)+),? (and|or) (?=[A-ZÅÄÖ])")


#: words after a place that say how, not which place ("outside Kluuvi only", "out of the Lohi block
#: entirely", "off Kiasma altogether"): lower-case adverbs in -ly and a few fixed ones, any run of them
TRAILING = re.compile(r"(?:\s+(?:(?i:only|too|as well|also|then|altogether|at all|whatsoever|anyway|either|"
                      r"for now|for good|any ?more|please)|[a-zåäö]{3,}ly))+$")


def target_phrase(text: str) -> str | None:
    """The place an instruction names: after of / from / near / by / on / around / inside …"""
    text = NAME_LIST.sub(lambda m: m.group(1) + m.group(2).replace(",", f" {m.group(3)}") + f" {m.group(3)} ", text)
    for m in re.finditer(r"\b(?:of|from|near|nearby|by|next to|close to|around|beside|at|on|inside|in|within|"
                         r"avoid(?!\s+\w+ing\b)|off|outside)\s+"
                         r"(?!\d)(?!least\b|most\b)(?!at\s+(?:least|most)\b)(?!the budget\b)(?=([^,;:]+))", text, re.I):
        phrase = re.split(r"\s*(?:,|;|\.\s|\.$|[?!]|\s[-—–]\s|\bwithin\b|\bbecause\b|\bsince\b|\bas\b|\bfor\b|\bthere\b|"
                          r"\bfree (?:of|from)\b|\bwith (?:all|any|every|each|the|our|no)\b|"
                          r"\band\s+(?=" + CLAUSE_START + r")|"
                          r"\bwe\b|\byou\b|\bthey\b|\bI\b|"
                          r"\b(?:would|should|could|must|is|are|will|please|if|may|might|can|cannot|shall|has to|have to|"
                          r"needs? to|ought)\b)",
                          m.group(1))[0]
        phrase = re.sub(r"^(?:the|a|an)\s+", "", phrase.strip(), flags=re.I).strip(" .!?'\"")
        phrase = TRAILING.sub("", phrase)   # "outside Kluuvi only", "the Lohi block entirely"
        first = phrase.split()[0].lower() if phrase else ""
        if first[:1].isdigit() or lexicon.is_number_word(first):   # "a 250 m radius of X", "a minimum of two chargers"
            continue
        if phrase and not re.fullmatch(r"(?:(?:a|the|an|our|my)\s+)?(?:couple|few|pair|total|all|" + UNIT_NOUNS +
                                       r"|each other|one another|them|it|here|the money|money|"
                                       # "keep at least one school in the plan": the plan itself, no place ("the
                                       # selection" is a place: the features selected on the map)
                                       r"(?:our|my|your|this|the)?\s*(?:plan|design|proposal|layout|scheme|solution)"
                                       r")(?:\s+" + UNIT_NOUNS + r")?",
                                       phrase, re.I):
            return phrase
    # terse: a distance, then the place with no "of" ("min 2 chargers ≤ 300 m Vanha kirkko"): a capitalised
    # word right after the unit that is no word of ours starts the place, up to where a phrase ends
    m = re.search(r"\d\s*(?:m|km|metres?|meters?|metriä|kilomet\w+)\s+([A-ZÅÄÖ][\w'’-]*(?:\s+[\w'’-]+){0,3})", text)
    if m and m.group(1).split()[0].casefold() not in lexicon.not_names() | _known_words()[0]:
        phrase = re.split(r"\s*(?:,|;|\.\s|\.$|[?!]|\s[-—–]\s|\b(?:and|but|or|with|within|at|please)\b)", m.group(1))[0]
        return TRAILING.sub("", phrase.strip(" .!?'\"")) or None
    return None


def _target(phrase: str) -> dict[str, Any]:
    from .resolve import category_of

    idm = ID_REF.search(phrase)
    if idm:
        return {"name": None, "category": None, "id": idm.group(2)}
    raw = RAW_ID.fullmatch(phrase.strip())
    if raw:
        return {"name": None, "category": None, "id": raw.group(1)}
    if re.match(r"^(?:any|every|all|each)?\s*[a-z ]+$", phrase) and category_of(phrase):
        return {"name": None, "category": category_of(phrase), "id": None}
    return {"name": phrase, "category": None, "id": None}


def _base(kind: str, **kw: Any) -> dict[str, Any]:
    out = {"kind": kind, "target": {"name": None, "category": None, "id": None}, "distance_m": None, "count": None,
           "share": None, "type": None, "term": None}
    out.update(kw)
    return out


NEG = re.compile(r"\b(no|not|never|nothing|none|nowhere|prohibit\w*|forbid\w*|ban\w*|avoid\w*|exclude\w*|away|clear of|"
                 r"free (?:of|from)|"
                 # "keep all road works 250 m from X": up to four words kept (none of them a 'within'), then the
                 # distance: kept that far off (was read as at least one within)
                 r"keep\w* (?:(?!within|inside|near|close|in\b)\w+ ){1,4}?(?:\d+\S* ?m?\w* )?(?:away )?(?:from|off)|"
                 r"or more from|beyond|farther|further|outside|"
                 # "chargers should stay 200 metres from Ateneum": kept that far off (was read as at least one within)
                 r"(?:stay\w*|remain\w*|be kept|kept|sit\w*|lie|lying) [\d.,]+ ?(?:k?m|kilomet\w+|met\w+) (?:away )?(?:from|off)|"
                 # "keep roadworks at least 250 m off X": "off" as "from" (was read as at least one within)
                 # "Stations: min. 250 m from Ateneum", "minimum 250 m from X": that far off (was at least one within)
                 r"(?:at least|no less than|no closer than|a minimum of|min(?:imum|\.)?) [\d.,]+ ?(?:k?m|kilomet\w+|met\w+) "
                 r"(?:away )?(?:from|off)|"
                 r"shall not|must not|cannot|don'?t|\w+n[’']t|do not|without)\b", re.I)
#: a candidate or a place left as it is ("leave parcel 26 untouched", "jätä Kumparepuisto rauhaan")
AS_IT_IS = (r"as (?:it|they) (?:is|are|stands?)|as is|the way (?:it|they) (?:is|are)|"
            r"untouched|unchanged|intact|undeveloped|undisturbed|ennall\w*|ennalle\w*|koskematta|rauhaan")
OUT_WORDS = re.compile(r"\b(no|not|out|off|pois|ei|goes|exclude\w*|drop\w*|remove\w*|never|forbid\w*|ban\w*|skip\w*|without|"
                       r"reject\w*|scrap\w*|cancel\w*|lock(?:ed)? out|\w+n[’']t|do not|"
                       # "leave parcel 26 alone", "parcel 12 must remain as it is", "put nothing on parcels 2 and 18":
                       # the candidate left unchanged, none of the plan (read as lock-ins: "must", "keep", "put")
                       # ("keep site 3 and nothing else" keeps it in; "site 3 alone" is the only one, not "left alone")
                       r"nothing(?! else| more| other)|none(?! else| other)|(?:leave|let)\b[^.;,]*\balone|"
                       + AS_IT_IS + r")\b", re.I)
EMPH = re.compile(r"\b(prefer\w*|prioriti[sz]\w*|emphasi[sz]\w*|focus\w*|favou?r\w*|first|weight|matters? (?:most|more)|"
                  r"care\w* (?:most )?about|maximi[sz]\w*|minimi[sz]\w*|reduc\w*|improv\w*|more important|priority|"
                  r"optimi[sz]e for|cut|lower|shorten\w*|boost\w*|increas\w*|raise|more of|as (?:much|many|short|"
                  r"low|high) as|above all|over (?:everything|all)(?: else)?|top priority|"
                  # "travel time should weigh most", "ecology ↑"
                  r"weigh\w* (?:the )?(?:most|more|heaviest|heavier)|"
                  # "connectivity is what counts", "coverage is everything for us", "Ekologia on tärkeintä"
                  r"(?:is )?what counts|counts? (?:the )?most|is everything|tärke\w*|painot\w*|ensisijai\w*|"
                  # "Ecology should be weighted above residential …", Finnish "palvelut edellä" (services ahead)
                  r"weigh\w* (?:(?:far|much|well|clearly) )?(?:above|over|before|ahead of|higher than|more than)|"
                  r"edellä|"
                  # Finnish terse emphasis: "palvelut ensin" (first), "painopiste ekologiassa" / "pääpaino …" (the
                  # focus on), "kattavuus etusijalla" (in first place)
                  r"ensin|painopist\w*|pääpaino\w*|etusij\w*|"
                  # "travel time über alles", "ekologia ennen kaikkea" / "yli kaiken" (above all)
                  r"über alles|ueber alles|ennen kaikkea|yli kaiken|"
                  # "… and go for connectivity", "aim for coverage" (v16-in-25: the emphasis was dropped beside a share)
                  r"go(?:ing)? for|aim\w* (?:for|at))\b|↑", re.I)
#: what an emphasis puts below its term ("X weighted above Y and Z", "X before Y", "X over Y", "X rather
#: than Y", Finnish "Y:n edellä" / "Y:n sijaan"): lower-case words only, never a number or a name. Its words
#: are no term of the reading (the first term is emphasised) and no word left unread
DEMOTED = re.compile(r"\b(?:above|over|before|ahead of|in front of|higher than|more than|rather than|instead of)"
                     r"\s+(?!(?:all|everything|anything|else)\b)(?![^,;.!?]*[\dA-ZÅÄÖ])[^,;.!?]+|"
                     r"\b[A-ZÅÄÖa-zåäö][a-zåäö-]*n\s+(?:edellä|sijaan|sijasta)\b")
#: an amount, a duration or an extent after "over" / "above" ("costs over a million euros", "waiting times above
#: ten minutes", "coverage over the whole city"): a threshold or a place, which no emphasis holds
AMOUNT_AFTER = re.compile(r"\b(?:" + lexicon.number_words_pattern() + r"|half|quarter|third|million|thousand|dozen|"
                          r"couple|whole|entire|throughout|minutes?|hours?|seconds?|days?|eur\w*|budget)\b|[€%]", re.I)
#: "ecology before services", "coverage over cost": a score term first, then what it is put above, with no
#: other keyword ("ecology is to come first" is EMPH's): the first term is emphasised
ORDER = re.compile(r"^\s*(?:the\s+)?(?P<a>(?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:(?:should|must|shall|will|is|are|needs? to)"
                   r"\s+(?:be\s+|come\s+|go\s+|rank\s+)?)?(?:(?:far|much|well|clearly)\s+)?"
                   r"(?:above|over|before|ahead of)\s+(?![^,;.!?]*(?-i:[\dA-ZÅÄÖ]))[a-zåäö]", re.I)


#: words that start a new instruction after "and" ("no charger near X and at least 2 near Y")
CLAUSE_START = (r"(?:at least|at most|no|not|never|keep|leave|spend|only|every|all|each|max\w*|min\w*|up to|exactly|"
                r"build|construct|"
                r"prioriti[sz]e|emphasi[sz]e|focus|favou?r|avoid|nothing|none|don'?t|do not|use|put|place|make sure|"
                r"ensure|give|hold|reserve|set aside|the plan|it (?:must|should|shall|may)|we (?:want|need)|there (?:must|"
                r"should|shall))\b")


#: Finnish words that start an instruction after "ja" ("… ja enintään kaksi latausasemaa …")
FI_CLAUSE_START = (r"(?:ei|älä|enintään|vähintään|korkeintaan|ainakin|pidä|jätä|sijoita|rakenna|"
                   r"kaikki|jokainen|vain)\b")


#: a second Finnish part that leans on the first ("käytä 70 % ja pidä loput varalla": the rest of it): no split
FI_BACK = r"[^.;]*\b(?:loput|lopu\w*|loppu\w*|siitä|tästä|niistä|niiden|sen)\b"


#: the candidates as the subject of a second instruction, with its own bound or distance ("… and sites at least 250 m
#: apart", "… and chargers no closer than 300 m to each other", "… and new links at most 3", "… ja asemien välillä …")
SECOND_SUBJECT = (r"(?:new\s+|ev\s+)?(?:charg\w+|stations?|sites?|links?|roads?|parcels?)\s+(?:(?:must|should|need to|have "
                  r"to|to)\s+(?:be|stay|lie)\s+)?(?:at least|at most|no more than|no closer than|no fewer than|max\w*|"
                  r"min\w*|\d)|"
                  # Finnish "… ja asemien välillä vähintään 300 m", "… ja uusia linkkejä enintään kolme"
                  r"(?:uu\w*\s+)?(?:latausasem\w*|asem\w*|tont\w*|linkk?\w*|tie\w*|tei\w*)\s+(?:v[äa]l\w*\s+)?"
                  r"(?:vähintään|enintään|korkeintaan|\d)")


#: where one instruction of several ends: a sentence end ("Link 12 out. No new links in X."), ";",
#: ", and …" ("… of Teboil, and the plan should favour short service times"), "and" before words
#: that start an instruction, "also", a comma before the next id or before a bound over the whole plan
#: (", at most 3 overall": it was read as the bound within the place before it). Each part must read on its own,
#: else the text is read whole.
CLAUSES = re.compile(r"\s*(?:;|(?<=[.!?])\s+|,\s*(?=(?:and\s+)?(?:link|site|parcel|block)\b)|\band also\b|"
                     r",\s*(?=(?:at (?:least|most)|no more than|not more than|max(?:imum)?|min(?:imum)?|up to)"
                     r"(?:\s+[\w-]+){1,3}\s+(?:overall|in total|altogether|in all|total)\b)|"
                     r"\balso\b|,\s*and\s+|,?\s+and\s+(?=" + CLAUSE_START + r")|"
                     # "no block more than half a km from a charger – and sites at least 250 m apart": a dash and "and"
                     # (also "plus", Finnish "ja"), or "and" before the candidates and a bound or a distance of their
                     # own (the second part was read into the first, its number left unread)
                     r"\s+[—–-]+\s+(?:and|plus|ja|sekä)\s+|"
                     r",?\s+(?:and|ja)\s+(?=(?:the\s+|all\s+)?" + SECOND_SUBJECT + r")|"
                     # Finnish "…, ja ei uusia teitä …", "… ja enintään kaksi …" (two instructions; was read as one)
                     r"(?:,\s*(?:ja|sekä)\s+|\s+(?:ja|sekä)\s+(?=" + FI_CLAUSE_START + r"))(?!" + FI_BACK + r"))\s*", re.I)


#: "no <things> …, at least 2" / "…, two at most" in one clause, the bound bare at its end: none and a bound, which no
#: one reading keeps (the rules read the bound near the place and dropped the "no", or the other way)
NONE_THEN_BOUND = re.compile(r"^\s*(?:no|zero|not any|never any)\s[^,;]*,\s*((?:at (?:least|most)|no more than|not more than|"
                             r"max(?:imum)?|min(?:imum)?|up to|exactly)\s+\w+|\w+\s+(?:at (?:least|most)|max(?:imum)?))"
                             r"(?:\s+(?:of them|chargers?|stations?|sites?|links?|roads?|parcels?|blocks?))?"
                             r"(?:\s+please)?\s*[.!]?\s*$", re.I)


#: a bound split round its noun ("no more chargers than 2", "not more new links than three", "fewer parcels than
#: 4"): read as "no more than 2 chargers" (the "no" was read as none and the count dropped)
SPLIT_BOUND = re.compile(r"\b((?:no|not|never) more|fewer|less)\s+((?:(?!(?:closer|nearer|farther|further)\b)[a-zåäö_-]+\s+)"
                         r"{1,3}?)than\s+(\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b"
                         r"(?!\s*(?:k?m\b|met|kilomet|%|per\b|percent))", re.I)
#: a count's bound, then the opposite bound bare at the end ("at least one school but at most three", "at most two
#: chargers within 300 m of Kiasma, but at least one"): the bare bound was read as the first count, or over the whole
#: plan (what it counts was dropped). Both bounds said in full ("…, at least 1 within 300 m of X") read as before
_LOWER = r"(?:at least|no fewer than|not fewer than|no less than|min(?:imum)?(?: of)?|vähintään)"
_UPPER = r"(?:at most|no more than|not more than|max(?:imum)?(?: of)?|up to|enintään|korkeintaan|maksimissaan)"
BOUND_THEN_BARE = re.compile(
    r"(?:\b" + _LOWER + r"\b.*?[\s,;]+(?:(?:but|and|yet|mutta|ja)\s+)?(?P<up>" + _UPPER + r"\s+\w+)|"
    r"\b" + _UPPER + r"\b.*?[\s,;]+(?:(?:but|and|yet|mutta|ja)\s+)?(?P<low>" + _LOWER + r"\s+\w+))"
    r"(?:\s+of them)?\s*[.!]?\s*$", re.I)


#: a rule with an exception after it ("… unless rebuilt", "… except if new"): the exception was read as the
#: kind the rule is about, or as part of the place's name
UNLESS = re.compile(r"\b(?:unless|except (?:if|when|where)|save (?:if|when))\b", re.I)
#: idioms with "no" / "not" that negate nothing ("put a charger at site 5 no matter what" was read as site 5
#: out): dropped before reading
NO_NEGATION = re.compile(r"(?:,\s*)?\b(?:no matter (?:what|how|where|when|the cost)|whatever happens|no doubt|"
                         r"no problem|no questions? asked|non-negotiable|not negotiable|without fail|"
                         r"not only(?= \w+ but\b))\b", re.I)
#: "must not exceed three", "may never go over 2": a bound (was read as none, the count dropped)
NOT_EXCEED = re.compile(r"\b(?:not|never)\s+"
                        r"(?:exceed|surpass|go (?:over|above|beyond)|be (?:more|greater) than|number more than)\b", re.I)


#: a count's bound run together or misspelt ("Atleast one site …", "no more then 2", "enintäin kaksi"): the lexicon's
#: exact forms (numbers.json ``misspelt_bounds``), read as the bound before anything else — "Atleast" was asked as
#: a name, "atmos 2" and "enintäin kaksi" were read as at least two. A form in "then" only before a number.
MISSPELT_BOUND = re.compile(
    r"(?<![\w'’-])(" + "|".join(re.escape(k).replace(r"\ ", r"\s+") for k in sorted(
        (k for k in lexicon.misspelt_bounds() if not k.endswith(" then")), key=len, reverse=True)) + r")(?![\w'’-])|"
    r"(?<![\w'’-])(" + "|".join(re.escape(k).replace(r"\ ", r"\s+") for k in lexicon.misspelt_bounds()
                                if k.endswith(" then")) + r")(?=\s+(?:\d|" + lexicon.count_pattern() + r")(?![\w-]))",
    re.I)


def _fix_bounds(text: str) -> str:
    """``MISSPELT_BOUND`` forms as the bound they stand for, a capital kept ("Atleast" → "At least")."""
    bounds = lexicon.misspelt_bounds()

    def said(m: re.Match) -> str:
        w = m.group(0)
        right = bounds[" ".join(w.casefold().split())]
        return right[:1].upper() + right[1:] if w[:1].isupper() else right
    return MISSPELT_BOUND.sub(said, text)


#: a question the text answers itself the other way ("… out? no — keep it in", "… in? actually, out")
CORRECTED = re.compile(r"\?\s*(?:no|nope|nah|actually|wait|sorry|scratch that|on second thought)\b[\s,.!—–-]", re.I)


#: "ecology above all, but keep at least one school", Finnish "…, mutta …", "access painotus, budjetista enintään
#: kaksi kolmasosaa", "coverage first – at most 70 % of the budget": where an emphasis and an instruction of another
#: kind may meet (``_emphasis_parts``): "but", a comma, a colon ("Reduce costs: at most 60 % of the budget") or a
#: spaced dash
SIDE_BREAK = re.compile(r",?\s+(?:but|yet|mutta|and|ja|sekä)\s+|\s*[,:]\s*|\s+[—–-]\s+", re.I)
#: a side that gives a reason or a purpose ("…, to cut travel time", "…, because coverage matters"): no emphasis of
#: its own to split off (left to the whole reading, whose unread term is then asked)
REASON = re.compile(r"^(?:to|so|so that|so as to|in order to|because|since|as|for|jotta|koska|että)\b", re.I)


def _emphasis_parts(part: str, task: str, budget_keur: float | None) -> list[str]:
    """An emphasis and a constraint joined by "but", "and", a comma or a dash as two instructions ("ecology above all, but keep
    at least one school in the plan"; "access painotus, budjetista enintään kaksi kolmasosaa": read whole, the count was
    left unread, the emphasis dropped beside the budget share), at the first break where each side reads on its own
    without a question and exactly one side is the emphasis alone. Anything else stays one part: its second half may
    lean on the first ("at most two within 300 m of X, but at least one", "Kluuvi, max two schools")."""
    for m in SIDE_BREAK.finditer(part):
        sides = [part[:m.start()].strip(" ,"), part[m.end():].strip(" ,")]
        # only a side that can be an emphasis (``_emphasis``'s own test) is worth reading both: a text of many
        # breaks and no emphasis ("a," * 250) would be read twice per break
        if not all(sides) or not any(EMPH.search(side) or ORDER.match(side) for side in sides):
            continue
        try:
            read = [parse_one(p, task, budget_keur) for p in sides]
        except (NoRule, Ambiguous):
            continue
        emphasis = [all(c["kind"] == "emphasis" for c in r) for r in read]
        if sum(emphasis) == 1 and not REASON.match(sides[emphasis.index(True)]) and not any(
                c["kind"] == "emphasis" for r, e in zip(read, emphasis, strict=True) if not e for c in r):
            return sides
    return [part]


#: a list item's marker at a line's start ("- ", "• ", "* ", "1) ", "2. ", "a) ") or inline ("… of Kiasma • at most 3")
BULLET = re.compile(r"(?m)^\s*(?:[-*•·▪–—]|\d{1,2}[.)]|[a-h]\))\s+")
INLINE_BULLET = re.compile(r"\s+[•·▪]\s+")
#: "1) … 2) …" on one line: the numbers of a list (only when the text starts with one)
INLINE_NUMBERED = re.compile(r"(?<=\S)\s+\d{1,2}\)\s+")
#: words that carry a sentence over a line break ("no chargers within 200 m of\nKiasma"): a wrapped line, no new item
JOINING = r"(?:of|from|to|and|or|but|the|a|an|within|than|at|in|near|by|with|for|least|most|no|not|on|off|around)"
#: and at the next line's start (never "at least" / "at most", "no", "not": they start an instruction)
JOINING_NEXT = r"(?:of|from|to|than|within|near|by|with|for|in|on|off|around|m|km|metres|meters)"


def lines_as_clauses(text: str) -> str:
    """Items on lines of their own, or after bullets, as clauses ("; "): a line break was read as a space, so "- no
    chargers within 200 m of Kiasma / - at most 3 chargers in total" was applied as at most 3 within 200 m of Kiasma.
    A line broken inside a sentence (a joining word at the break: "… 200 m of / Kiasma") stays one sentence."""
    numbered = re.match(r"\s*1[.)]\s", text) is not None
    listed = BULLET.search(text) is not None   # a list: every line is an item
    text = BULLET.sub("", text.strip())
    text = INLINE_BULLET.sub("; ", text)
    if numbered:
        text = INLINE_NUMBERED.sub("; ", text)
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    out = lines[:1]
    for ln in lines[1:]:
        wrapped = not listed and (re.search(r"\b" + JOINING + r"$", out[-1], re.I) or
                                  re.match(JOINING_NEXT + r"\b", ln, re.I) or
                                  # a new item starts like one: a capital, an instruction's first words, after a stop
                                  not (ln[:1].isupper() or re.match(CLAUSE_START, ln, re.I) or
                                       re.search(r"[.;:!?]$", out[-1])))
        if not (wrapped or out[-1].endswith((";", ",", ".", "!", "?"))):
            out[-1] += ";"
        out.append(ln)
    return " ".join(out)


def parse(text: str, task: str, budget_keur: float | None = None, regions: Iterable[str] = ()) -> list[dict[str, Any]]:
    """Constraints (neutral form) of one instruction; NoRule / Ambiguous when it cannot. ``regions``: loaded regions
    beyond the bundled ones (the instance's own city), whose names said first are the region, no place."""
    text = lines_as_clauses(text)   # "- no chargers within 200 m of Kiasma\n- at most 3 in total": two instructions
    # one space between words: several patterns start with \s*, and a long run of spaces made
    # re.split backtrack quadratically (8,000 spaces: over 40 s)
    text = " ".join(text.split())
    wished = _held_wish(text, task, budget_keur, regions)   # "… would be nice": the constraint, held as a rule, said so
    if wished is not None:
        return wished
    said = text   # the planner's own words: what a question quotes (the rewrites below are ours, not theirs)
    text = _fix_bounds(text)                                # "Atleast one site …": a bound, never a name
    text = _signs_as_words(text)                            # "no block > 800 m from a school": "more than"
    text = " ".join(NO_NEGATION.sub(" ", text).split())   # "site 5 in, no matter what": no "no"
    text = NOT_EXCEED.sub("be at most", text)              # "must not exceed three": a bound, never "none"
    text = SPLIT_BOUND.sub(r"\1 than \3 \2", text)         # "not more new links than three": a bound, never "none"
    text = _drop_region_plan(text, regions)                 # "Kotkan tiesuunnitelmassa": the plan, no name
    if CORRECTED.search(text):   # "link 2 is out? no — keep it in": read whole, the first words would win
        raise Ambiguous(f"'{said}' takes back what it said first: say it once, as you mean it (e.g. 'link 2 in')")
    parts = [p for p in CLAUSES.split(text.strip()) if p.strip()]
    if UNLESS.search(text):   # "no links within 250 m of Tikankatu unless rebuilt": a rule with an exception
        raise Ambiguous(f"'{said}' keeps an exception ('{UNLESS.search(text).group(0)} …') that no one constraint "
                        "holds: say which kinds the rule is for, as its own instruction (e.g. 'no <kind> within 250 m of …')")
    said_both = next((m for p in parts for m in [NONE_THEN_BOUND.search(p)] if m), None)
    if said_both:   # "no chargers within 200 m of Kiasma, at least 2": one of the two was read, the other dropped
        raise Ambiguous(f"'{said}' says none and then '{said_both.group(1)}': say which holds — 'no …' alone, the "
                        f"bound alone ('{said_both.group(1)} within …'), or a bound over the whole plan "
                        f"('…, {said_both.group(1)} overall')")
    range_said = BOUND_THEN_BARE.search(text)
    if range_said:   # "at least one school but at most three": read as at most one school (the first count)
        bare = range_said.group("up") or range_said.group("low")
        raise Ambiguous(f"'{said}' gives two bounds, the last ('{bare}') with nothing it counts: say "
                        f"each with what it counts, e.g. 'at least 1 school' and 'at most 3 schools', or 'at least 1 "
                        "within 300 m of <place>' and 'at most 2 within 300 m of <place>'")
    parts = [q for p in parts for q in _emphasis_parts(p, task, budget_keur)]
    got = None
    if len(parts) > 1:
        with contextlib.suppress(NoRule):   # a part no rule reads: the text is read whole
            got = [c for p in parts for c in parse_one(p, task, budget_keur)]
        if got and sum(c["kind"] == "budget_share_max" for c in got) > 1:
            # "Our funds: 500 k€. Use no more than 400k of it.": a total said, then a part of it — one share
            # of the whole text (each sentence alone was read as a share of the instance's budget)
            with contextlib.suppress(NoRule, Ambiguous):
                whole = parse_one(text, task, budget_keur)
                if [c["kind"] for c in whole] == ["budget_share_max"]:
                    got = whole
    if got is None:
        got = parse_one(text, task, budget_keur)
    # one constraint said twice ("… minimise how long drivers wait; service time matters most"): stored once
    got = [c for k, c in enumerate(got) if not any(_same(c, d) for d in got[:k])]
    if any(c["kind"] == "count_min" and c.get("count") == 0 for c in got):   # "no more links than we need"
        raise Ambiguous(f"'{said}' bounds nothing that can be counted: say it with a number, e.g. 'at most 3 in total'")
    same = _one_kind_said_two_ways(EVERY_ONE.sub(" ", text), task)
    if same:
        why = (" (the road task's links are new links and rebuilds of links the network lost: an upgrade of a "
               "link is its rebuild, no kind of its own)" if task == "road" else "")
        raise Ambiguous(f"'{same[0]}' and '{same[1]}' are one kind here ({same[2]}){why}, and one of them is negated: "
                        f"say only whether it is in or out, e.g. 'link 5 in' or 'no {same[2]} links'")
    left = unread_words(EVERY_ONE.sub(" ", text), got, task)   # "no exceptions" is read (all of them)
    if left:   # a reading that leaves out a word of meaning would apply what was not said: asked
        raise Ambiguous(f"I read '{said}' as {'; '.join(summary(c) for c in got)}, but not "
                        f"{', '.join(repr(w) for w in left)} — {_say_it(left, task)}")
    return got


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two readings that are one constraint (the rule that read each aside)."""
    return {k: v for k, v in a.items() if k != "rule"} == {k: v for k, v in b.items() if k != "rule"}


#: a task word, in any case form ("Tiesuunnitelmaan", "Latausasemasuunnitelmassa", "Maankäyttösuunnitelmaan",
#: "Road plans"): the plan itself, no place (was asked as an unread name)
PLAN_WORD = re.compile("|".join(f"(?:{pat})" for _, pat in lexicon.task_patterns()), re.I)
#: a capitalised word: a name when no lexicon word and no reading uses it
CAPITALISED = re.compile(r"(?<![\w'’-])([A-ZÅÄÖ][\w'’-]*)")
#: English inflections no name of the data's language ends in that a sentence's first word often has
#: ("Shorter walks …", "Prioritising …", "Allocated …", "Ideally …")
INFLECTED = re.compile(r"\w{3,}(?:ing|ed|er|est|ly|ies|ness|ment|tion|ise|ize)", re.I)


@cache
def _known_words() -> tuple[frozenset[str], tuple[str, ...]]:
    """The words (and word stems: "charg" of ``charg\\w*``) that the lexicon and the rules' own
    keyword patterns hold: a capitalised one of them starts a sentence, it names no place."""
    sources = [NEG.pattern, OUT_WORDS.pattern, EMPH.pattern, IN_WORDS.pattern, CLAUSE_START, UNIT_NOUNS,
               NOT_A_SUBJECT.pattern, NOT_A_PLACE.pattern, LEAD_IN.pattern, " ".join(VOCAB)]

    def strings(v: Any) -> list[str]:
        if isinstance(v, str):
            return [v]
        if isinstance(v, dict):
            return [s for x in v.values() for s in strings(x)]
        if isinstance(v, list):
            return [s for x in v for s in strings(x)]
        return []
    # the nouns of a place's kind name places ("Museokatu", "Kauppatori"):
    # a capitalised one may be a name, so they are no words of ours here
    placeish = {"kind_nouns", "generic_kind_nouns"}
    for name in ("facilities", "tasks", "numbers", "measures"):
        sources += [s for k, v in lexicon.load(name).items() if not k.startswith("_") and k not in placeish
                    for s in strings(v)]
    words, stems = set(), set()
    for src in sources:
        for m in re.finditer(r"(?<![\\?])\b([a-zåäö]{2,})(\\w\*|\[)?", src):
            (stems if m.group(2) and len(m.group(1)) >= 4 else words).add(m.group(1))
    return frozenset(words), tuple(sorted(stems))


def unread_words(text: str, constraints: list[dict[str, Any]], task: str) -> list[str]:
    """Words of ``text`` that carry meaning but that no constraint of the reading uses: a capitalised
    name that is no target's, a kind ("fast", "school", "new") that is no constraint's type, term or
    target. One check after reading, whichever rules fired (stop words and fillers: the lexicon)."""
    from .resolve import category_of

    if any(c["kind"] == "emphasis" for c in constraints):   # "X weighted above residential …": Y is no kind said
        text = DEMOTED.sub(" ", text)
        # "asuminen (R)": the planner's word for a term named by its code is read with the code
        text = re.sub(r"\b[^\W\d_]+\s*\((?:" + "|".join(sorted(TERM_CODES)) + r")\)", " ", text) if TERM_CODES else text
    names = " ".join(str((c.get("target") or {}).get("name") or "") for c in constraints).casefold().split()
    types = {str(c.get("type") or "").casefold() for c in constraints} - {""}
    cats = {(c.get("target") or {}).get("category") for c in constraints} - {None}
    terms = {c.get("term") for c in constraints} - {None}
    left: list[str] = []
    money = _budget_words() if any(c["kind"] == "budget_share_max" for c in constraints) else None
    for m in CAPITALISED.finditer(text):
        w = re.split(r"['’]", m.group(1))[0].strip("-")   # "I'd", "Kiasma's"
        low = w.casefold()
        known, stems = _known_words()
        first = m.start() == 0 or re.search(r"[.!?;:]\s*$", text[:m.start()])
        if (low in lexicon.not_names() or low in known or low.startswith(stems) or lexicon.is_number_word(low)
                or (first and INFLECTED.fullmatch(low)) or re.fullmatch(r"(?:" + ID_NOUN + r")s?|" + UNIT_NOUNS, low, re.I)
                or RAW_ID.fullmatch(low) or type_of(low, task) or term_of(low, task) or category_of(low)
                or (money is not None and money.search(low)) or PLAN_WORD.fullmatch(low)):
            continue
        if not any(low.startswith(n[:max(3, len(n) - 1)]) or n.startswith(low[:max(3, len(low) - 1)])
                   for n in names):
            left.append(w)
    low_text = text.casefold()
    extra = lexicon.unread_type_pattern(task)
    if extra:   # "painotetaan palveluja": the word of a term the reading emphasises is read
        left += [m.group(0) for m in re.finditer(rf"\b(?:{extra})\b", low_text) if term_of(m.group(0), task) not in terms]
    def of_types(name: str) -> bool:
        return any(name.casefold().startswith(t) or t.startswith(name.casefold()) for t in types)
    # the words of a type the reading holds ("small hospitals" of hospital_s): "hospitals" in them is read
    held = [m.span() for name, pat in _types(task) if of_types(name) for m in re.finditer(rf"\b(?:{pat})\b", low_text)]
    for name, pat in _types(task):
        found = [m for m in re.finditer(rf"\b(?:{pat})\b", low_text) if not any(a <= m.start() and m.end() <= b for a, b in held)]
        for word in dict.fromkeys(m.group(0) for m in found):
            if not (of_types(name)
                    or category_of(word) in cats or term_of(word, task) in terms
                    or any(word.split()[0] in n for n in names)
                    # the name's own noun in a case form ("… säteellä Otsolan koulusta": "koulusta" is "Otsolan koulu")
                    or any(len(n) >= 4 and word.split()[0].startswith(n) for n in names)):
                left.append(word)
    # a road kind's own word that no pattern of the kind read ("keep new stuff away from X" read for every
    # link): the kind said is never dropped
    if task == "road" and not types & {"new", "rebuild"}:
        left += [m.group(0) for m in re.finditer(r"\b(?:new|rebuil[dt]\w*|upgrad\w*)\b", low_text)
                 if not any(m.group(0) in n for n in names) and not any(m.group(0) in w for w in left)]
    return list(dict.fromkeys(left + _near_bounds(low_text) + _unread_numbers(text, constraints) +
                              _unread_emphasis(text, constraints, task)))


#: where the parts of a sentence meet, for the emphasis check: a clause break, "but", "and", a stop, a reason or a
#: purpose ("… because ecology matters most", "… so that coverage improves")
EMPHASIS_SEGMENT = re.compile(SIDE_BREAK.pattern + r"|[;.!?]\s*|"
                              r"\s+(?=(?:because|since|so that|so as to|in order to|jotta|koska)\b)", re.I)


def _unread_emphasis(text: str, constraints: list[dict[str, Any]], task: str) -> list[str]:
    """The term word of a part that is an emphasis on its own ("access painotus", "prioritise access", "…, to cut
    travel time") in a reading that emphasises nothing: the emphasis was dropped beside what was read (v15: a budget
    share stored, "access painotus" dropped without a word)."""
    if any(c["kind"] == "emphasis" for c in constraints):
        return []
    out = []
    for seg in EMPHASIS_SEGMENT.split(text):
        try:
            said = _emphasis(_Said(seg, task, None)) if seg.strip() else None
        except (Ambiguous, NoRule):
            continue
        if said:
            pats = [pat for name, pat in TERMS.get(task, ()) if name == said[0]["term"]]
            words = [m.group(0) for pat in pats for m in [re.search(rf"\b(?:{pat})", seg, re.I)] if m]
            out.append(words[0] if words else said[0]["term"])
    return out


#: the Finnish words of a count's bound (numbers.json ``comparisons``): a word one or two letters off one of them
#: that is none of them nor a listed misspelling (``MISSPELT_BOUND``) is no bound the rules read — left out, the
#: count was read as at least N ("enintäan kaksi" is at most two). The bar (0.85 alike) leaves out other Finnish words
#: near one ("vähentää", to reduce: 0.82)
FI_BOUNDS = tuple(w.casefold() for w in lexicon.comparisons() if w.isalpha())


def _near_bounds(low_text: str) -> list[str]:
    """Lower-case words close to a Finnish bound word that are no bound word: left unread, so asked."""
    return [w for w in dict.fromkeys(re.findall(r"[a-zåäö]{6,}", low_text))
            if w not in FI_BOUNDS and difflib.get_close_matches(w, FI_BOUNDS, n=1, cutoff=0.85)]


def _one_kind_said_two_ways(text: str, task: str) -> tuple[str, str, str] | None:
    """Two words that are one kind here, in a sentence that negates ("only as an upgrade, not a
    rebuild": both are the road kind 'rebuild'): no reading can keep the difference the planner made."""
    low = without_place_kinds(text).casefold()   # "… of Kumparepuisto park": the place's word, no kind
    if not OUT_WORDS.search(low):
        return None
    for name, pat in _types(task):
        said = list(dict.fromkeys(m.group(0) for m in re.finditer(rf"\b(?:{pat})\b", low)))
        if len({w[:4] for w in said}) > 1:
            return said[0], said[1], name
    return None


@cache
def _budget_words() -> re.Pattern[str]:
    """A capitalised money word ("M" of "2 M€") or budget compound ("Kokonaisbudjetti", a total
    budget): no name when the reading is a budget share."""
    money = lexicon.money_words()
    return re.compile(rf"^(?:{money['million']}|{money['thousand']}|{money['euro']})$|(?:{money['budget_cue']})$",
                      re.I)


#: a number in digits ("300", "1.5", "1 200"), not one inside a word or an id ("s05", "Q-Park 2")
DIGITS = re.compile(r"(?<![\w.,])(\d+(?:[ \u202f]\d{3})*(?:[.,]\d+)?)(?![\w]|[.,]\d)")


def _unread_numbers(text: str, constraints: list[dict[str, Any]]) -> list[str]:
    """Numbers in digits that no constraint uses as a count (or its bound: "fewer than 4" is at most 3),
    a distance (m or km), an id or a per cent; money and shares are left to the budget rule."""
    if any(c["kind"] == "budget_share_max" for c in constraints):
        return []
    used: set[float] = set()
    for c in constraints:
        if c.get("count") is not None:
            used |= {c["count"] - 1, c["count"], c["count"] + 1}
        if c.get("distance_m") is not None:
            used |= {c["distance_m"], c["distance_m"] / 1000}
        tid = str((c.get("target") or {}).get("id") or "")
        used |= {float(d) for d in re.findall(r"\d+", tid)}
        used |= {float(d) for d in re.findall(r"\d+", str((c.get("target") or {}).get("name") or ""))}
    return [m.group(1) for m in DIGITS.finditer(text) if _number(m.group(1)) not in used]


def _say_it(left: list[str], task: str) -> str:
    """How to say an instruction so that the left-out words are read."""
    if any(w[:1].isupper() for w in left):
        return f"say it as, e.g., 'at most 2 inside {left[0]}' or 'at least 1 within 300 m of {left[0]}'"
    near = [w for w in left if w in _near_bounds(w)]
    if near:
        return (f"'{near[0]}' is no bound the rules read: say it as 'vähintään' (at least) or 'enintään' / "
                "'korkeintaan' (at most)")
    emphasised = [w for w in left if term_of(w, task)]
    if emphasised:   # an emphasis beside another constraint, which the reading dropped
        return (f"say the emphasis as its own instruction, e.g. 'prioritise {emphasised[0]}', and the rest as another "
                "(a line or a ';' between them)")
    if any(DIGITS.fullmatch(w) for w in left):
        return ("say it as its own instruction, e.g. a count ('at most 5 in total'), a distance ('within 300 m "
                "of <place>') or an id ('site 5 in')")
    if any(re.fullmatch(rf"(?:{pat})", w, re.I) for w in left for _, pat in _types(task)):   # a kind, in a reading without one
        return (f"this constraint holds for every kind: say it as a count of that kind (e.g. 'at most 2 {left[0]} …') "
                f"or without '{left[0]}'")
    kinds = ", ".join(dict.fromkeys(n for n, _ in _types(task))) or "none"   # a type has several word lists
    return f"the kinds a constraint here can name are {kinds}: say it as one of them, or without '{left[0]}'"


def _count_word(w: str) -> int:
    """A count as written ("3", "three", "a couple of") → int."""
    return int(lexicon.count_value(w) or 0)


#: a lead-in that puts the whole plan under a bound that follows ("Limit the plan to at most three new
#: links", "restrict the design to no more than two chargers", "hold the layout to a maximum of …")
LEAD_IN = re.compile(r"\b(?:limit|restrict|cap|constrain|hold|keep)\s+(?:the\s+|our\s+|your\s+|this\s+)?"
                     r"(?:plan|design|proposal|layout|scheme|solution|selection|network|result)\s+(?:to|at)\s+"
                     r"(?=(?:at most|at least|no more than|not more than|no fewer than|max\w*|min\w*|up to|exactly|"
                     r"only|a maximum|a minimum|\d|≤|≥|<|>)\b)", re.I)


MEASURED = re.compile(r",?\s*\b(?:(?:with\s+)?(?:all\s+)?distances?\s+)?(?:as\s+)?measured\s+(?:from|by|to|along)\s+"
                      r"(?:its|their|the)(?:\s+[a-z]+['’]s)?\s+(?:outer\s+)?(?:outlines?|edges?|boundary|boundaries|"
                      r"footprints?|borders?|perimeters?)\b"
                      # "…, measured from the edge of the park.": the whole aside, up to where it ends
                      r"(?:\s+of\s+(?:the|its|their)\s+[a-zåäö]+)?(?=\s*(?:[,.;:!?]|$)),?", re.I)


#: none of the plan's candidates farther than a distance from a place ("no charger further than 600 m from X", "none
#: of the chargers may be more than 600 m from X", "not a single office beyond 400 m of X", Finnish "ei yhtään
#: latausasemaa yli 600 metrin päässä X:stä"): every one within it. The "no" was read as none within — the meaning
#: reversed. Homes and blocks are coverage (their own rule), never candidates
_NOT_CANDIDATE = (r"(?:residential|blocks?|homes?|households?|residents?|people|dwellings?|one|body|more|fewer|less|"
                  r"further|farther|beyond|outside|at|than|may|should|can|must|shall|will|would|is|are|be)\b")
NONE_BEYOND = re.compile(
    r"\b(?:no|none\s+of\s+(?:the|our|its|their)|not\s+(?:a\s+single|one|any)|zero)\s+(?:(?:yhtään|yksikään)\s+)?"
    r"(?P<noun>(?:(?!" + _NOT_CANDIDATE + r")[a-zåäö_-]+\s+){0,3}?(?!" + _NOT_CANDIDATE + r")[a-zåäö_-]+)\s+"
    r"(?:(?:may|should|can|must|shall|will|would|is|are|to|ever|be|lie|sit|go|end\s+up|get|placed|built|located|sited|"
    r"put|installed|set\s+up)\s+){0,4}"
    r"(?:(?:any\s+)?(?:further|farther|more)\s+(?:away\s+)?than|beyond|outside(?:\s+of)?|at\s+least)\s+"
    r"(?P<d>[\d.,]+\s*(?:k?m|kilomet\w+|met\w+))\s+(?:away\s+)?(?:from|of|off)\b", re.I)
#: Finnish obligations ("kaikkien latausasemien on oltava …", "täytyy sijaita …"): "must be" / "must lie" (the "on"
#: of "on oltava" was read as the English "on", its place "oltava")
FI_MUST = re.compile(r"\b(?:on\s+olta(?:va|vat)|pitää\s+olla|täytyy\s+olla|tulee\s+olla|pitää\s+sijaita|"
                     r"täytyy\s+sijaita|on\s+sijaittava|tulee\s+sijaita)\b", re.I)


def _term_code(text: str) -> str:
    """A score term named by its code in brackets after the planner's own word for it ("tärkeintä asuminen (R)",
    v14-in-39): the code, the word its gloss. A gloss that names another term ("palvelut (R)") is asked."""
    def code(m: re.Match) -> str:
        gloss = m.group(1)
        other = {term_of(gloss, task) for task in TERMS} - {None, m.group(2)}
        if other:
            raise Ambiguous(f"'{gloss} ({m.group(2)})' names two score terms ({m.group(2)} and "
                            f"{', '.join(sorted(other))}): say which one to emphasise")
        return m.group(2)
    return re.sub(r"\b([^\W\d_]+)\s*\((" + "|".join(sorted(TERM_CODES)) + r")\)", code, text) if TERM_CODES else text


def _plain(text: str) -> str:
    """Politeness off, distances in words as numbers, "closer than 200 m to X" as "… 200 m of X",
    "a 250 m radius of X" as "250 m of X"."""
    # "w/in 600 m", "approx. 300 m": the lexicon's short forms written long (the rules read "within")
    t = lexicon.expand_short_forms(text)
    t = re.sub(r"[\s,]*\b(?:please|thanks|thank you|if possible|ok)\b[\s.!]*$", "", t.strip(), flags=re.I)
    # an aside in brackets ("some green (puisto or similar)", "Lohi (kortteli, by its outline)") says
    # nothing a rule reads unless it holds a number ("(at least 300 m)"): dropped, else read as commas
    t = _term_code(t)   # — except a score term's code ("tärkeintä asuminen (R)")
    t = re.sub(r"\s*\(([^()]*)\)", lambda m: f", {m.group(1)}," if re.search(r"\d", m.group(1)) else "", t)
    # "Measured from its outline, no charger within 150 m of Stockmann", "no offices in the Lohi block, measured by its
    # outline": how a distance is measured, which the resolver does from the outline anyway (a point is said to be one)
    t = MEASURED.sub(" ", t).strip(" ,")
    # Finnish "enintään 500 metrin päässä X:stä": a bound on the distance, which "päässä" with a radius is (no count)
    t = re.sub(r"\b(?:enintään|korkeintaan|maksimissaan)\s+(?=\d[\d.,]*\s*(?:m:n|km:n|metrin|kilometrin)\s)", "", t,
               flags=re.I)
    t = COMPARISON.sub(lambda m: f" {COMPARISONS[m.group(0).casefold()]} ", t).strip()   # "≥2" → "at least 2"
    # terse order signs between words ("service > everything else", "services >> cost", "access ≫ all"): "over", an
    # emphasis (never before a number: "> 2" is a count's bound)
    t = re.sub(r"(?<=[^\W\d_])\s*(?:>{1,3}|≫|⋙)\s*(?=[^\W\d_])", " over ", t)
    t = re.sub(r"(?<![\w.,])(\d+)\s*\+(?![\d\w])", r"at least \1", t)   # "2+ chargers"
    t = re.sub(r"\b(\d+(?:[.,]\d+)?)-(k?m|kilomet(?:er|re)s?|met(?:er|re)s?)\b", r"\1 \2", t, flags=re.I)   # "a 250-metre radius"
    t = FI_MUST.sub(lambda m: "must lie" if "sijai" in m.group(0).lower() else "must be", t)   # "on oltava"
    t = _finnish_coverage(_finnish_places(_fronted_place(_drop_finnish_plan_words(t))))
    for d in reversed([d for d in lexicon.distances(t) if not d.written[:1].isdigit()]):   # "half a km" → "500 m"
        t = t[:d.start] + f"{d.metres:g} m" + t[d.end:]
    t = NONE_BEYOND.sub(lambda m: f"every {m.group('noun')} within {m.group('d')} of", t)   # "no charger beyond 600 m of X"
    # "no further than 300 m from X", "at most 300 m from X": within 300 m of X (not "kept away")
    t = re.sub(r"\b(?:(?:no|not)\s+(?:further|farther|more)\s+than|at most)\s+(?=[\d.,]+\s*(?:k?m\b|kilomet|met))",
               "within ", t, flags=re.I)
    t = re.sub(r"\bwithin\s+([\d.,]+\s*(?:km|m|kilomet\w+|met\w+))\s+(?:away\s+)?from\b", r"within \1 of", t, flags=re.I)
    t = LEAD_IN.sub("", t)   # "Limit the plan to at most three new links …": the bound says it all
    # "cap new links at two": at most two new links (not "cap spending at €300 000", "cap it at 80 %")
    t = re.sub(r"\bcap\s+(?:the\s+)?(?:number\s+of\s+)?([a-z_ ]+?)\s+at\s+(\d+|" + lexicon.count_pattern() + r")\b" +
               NOT_A_MEASURE + NOT_MONEY, r"at most \2 \1", t, flags=re.I)
    t = re.sub(r"\b(?:limit|restrict)\s+(?:the\s+)?([a-z_ ]+?)\s+to\s+(\d+|[a-z]+)\b" + NOT_A_MEASURE, r"at most \2 \1",
               t, flags=re.I)
    # "no fewer than 2" / "2 or more" are at least 2, "2 or fewer" at most 2 (before "fewer than" below)
    num = r"(\d+|" + lexicon.number_words_pattern() + r")"
    # "don't let more than one charger …", "never more than two": a bound, not "at least 2" negated
    t = re.sub(r"\b(?:do not|don['’]?t|never|cannot|can['’]?t|won['’]?t|shouldn['’]?t|must not|mustn['’]?t|should not|"
               r"may not|(?:rather|would) not(?!\s+(?:hurt|harm|matter|mind|be bad)))\s+"
               r"((?:[a-z]+\s+){0,3}?)more\s+than\s+" + num + r"\b" + NOT_A_MEASURE + NOT_MONEY,
               lambda m: f"{m.group(1)}at most {m.group(2)}", t, flags=re.I)
    t = re.sub(r"\s+(?:at all|whatsoever)\b", "", t, flags=re.I)   # "no new links at all": emphasis, no place "all"
    t = re.sub(r"\b(?:no|not)\s+(?:fewer|less)\s+than\s+" + num + r"\b" + NOT_A_MEASURE, r"at least \1", t, flags=re.I)
    t = re.sub(r"\b" + num + r"\s+or\s+more\b", r"at least \1", t, flags=re.I)
    t = re.sub(r"\b" + num + r"\s+or\s+(?:fewer|less)\b", r"at most \1", t, flags=re.I)
    # "fewer than 4 stations" is at most 3, "more than 2" at least 3 (a count, never a distance or share)
    t = re.sub(r"\b(?:fewer|less)\s+than\s+(\d+|" + lexicon.number_words_pattern() + r")\b" + NOT_A_MEASURE + NOT_MONEY,
               lambda m: f"at most {_count_word(m.group(1)) - 1}", t, flags=re.I)
    t = re.sub(r"(?<!\bno )(?<!\bnot )\bmore\s+than\s+(\d+|" + lexicon.number_words_pattern() + r")\b" +
               NOT_A_MEASURE + NOT_MONEY,
               lambda m: f"at least {_count_word(m.group(1)) + 1}", t, flags=re.I)
    t = re.sub(r"\b((?:\d+(?:[.,]\d+)?\s*(?:km|m|kilomet(?:er|re)s?|met(?:er|re)s?)|(?:a |one )?kilomet(?:er|re))"
               r")\s+to\b(?!\s+(?:reach|get|walk|find)\b)", r"\1 of", t, flags=re.I)
    # "inside a 250 m radius of X" is within 250 m of X (not inside X)
    return re.sub(r"\b(?:(?:inside|in|within)\s+)?(?:an?\s+|the\s+)?"
                  r"(\d+(?:[.,]\d+)?\s*(?:km|m|kilomet(?:er|re)s?|met(?:er|re)s?))"
                  r"\s+radius\s+(?:of|around|from)\b", r"within \1 of", t, flags=re.I)


#: Finnish says "from X" and "in X" with case endings on the name, not with a word before it:
#: "200 metrin säteellä Kiasmasta" (within 200 m of Kiasma), "Kluuvissa" (in Kluuvi). The stem
#: keeps a linking vowel ("Stockmannista" → "Stockmanni"), which the resolver reads as a misspelling.
#: A name in the genitive with a noun after it takes the ending on the noun: "Helilän koulusta" → "Helilän koulu".
#: An abbreviation takes its ending after a colon ("EY:n rakennuksesta", "UPM:stä", "HKL:ssä"): the name without it.
#: A name of capitalised words takes the ending on its last ("K-Market Erottajasta" → "K-Market Erottaja").
FI_FROM = (r"([A-ZÅÄÖ][\w-]*(?::n|n)(?:\s+[a-zåäö][\w-]*n)*\s+[a-zåäö][\w-]+?|(?:[A-ZÅÄÖ][\w-]*\s+){0,2}[A-ZÅÄÖ][\w-]+?)"
           r":?(?:sta|stä|lta|ltä)\b")
#: "Ristinkallion sisällä / sisälle / alueella / alueelle": inside the place (its genitive, the -n dropped)
FI_INSIDE = re.compile(r"\b([A-ZÅÄÖ][\w-]+?):?n\s+(?:sisä(?:llä|lle|puolella|puolelle)|alueel(?:la|le))\b")
#: "korttelin Käki sisällä" (inside the block Käki): the place noun in the genitive, the name after it
FI_NOUN_INSIDE = re.compile(r"\b(?:korttelin|alueen|tontin)\s+([A-ZÅÄÖ][\w-]+(?:\s+[A-ZÅÄÖ][\w-]+)?)\s+"
                            r"(?:sisä(?:llä|lle|puolella|puolelle)|alueel(?:la|le))\b", re.I)
FI_IN = re.compile(r"\b([A-ZÅÄÖ][\w-]+?):?(?:ssa|ssä)\b")
#: a name in the illative ("into"), the last word of its clause ("Ei mitään Kumparepuistoon", "ei toimistoja Kluuviin",
#: "Kaisaniemeen"): inside the place; a genitive in -n stands before its noun, never at the clause's end
FI_INTO = re.compile(r"(?<![\w-])([A-ZÅÄÖ][\w-]+?(?:([aeiouyäö])\2n|seen|h([aeiouyäö])n))(?=\s*(?:[.,;!?]|$))")


def _illative_stem(word: str) -> str:
    """The name of an illative ``word``: "Kumparepuistoon" → "Kumparepuisto", "Kluuviin" → "Kluuvi",
    "Kaisaniemeen" → "Kaisaniemi" (a name in -i takes -een), "Porvooseen" → "Porvoo", "Maahan" → "Maa"."""
    if word.endswith("seen"):
        return word[:-4]
    if word.endswith("een"):
        return word[:-3] + "i"
    if re.search(r"h[aeiouyäö]n$", word) and word[-4] == word[-2]:
        return word[:-3]
    return word[:-2]


#: "within" after a distance in Finnish, in the cases a planner writes it ("säteellä", "säteelle", "päähän")
FI_WITHIN = r"(?:säteel(?:lä|le)|etäisyydel(?:lä|le)|sisällä|sisälle|päässä|päähän)"
#: a lower bound on a distance from a place, Finnish ("vähintään / ainakin / yli 250 metrin päässä Kiasmasta"): kept
#: that far away; "at" a distance, not "within" one (a radius, "säteellä", is no distance kept)
FI_AWAY = r"(?:vähintään|ainakin|yli|reilusti yli|at least|more than)"   # "vähintään" is "at least" by then
FI_AT = r"(?:päässä|päähän|etäisyydel(?:lä|le))"


#: a Finnish task word (resources/lexicon/tasks.json) in a case of "in / into / for" the plan ("Tiesuunnitelmaan",
#: "latausasemasuunnitelmassa", "Maankäyttösuunnitelmaan"): the plan itself, which every constraint is about
FI_PLAN = re.compile("|".join(f"(?:{t['words']['fi']})" for t in lexicon.load("tasks")["tasks"].values()), re.I)
FI_PLAN_CASES = ("ssa", "ssä", "aan", "ään", "lle", "lla", "llä", "hin", "seen")


#: a region's name in the genitive and a task word ("Kotkan tiesuunnitelmassa", "in Kotka's road plan", "Tampereen
#: tiesuunnitelmassa" on an own city): the plan of the region, no place (``Kotkan`` was read as a name). Which word
#: names a region is derived from the loaded regions (``region_of_word``), no list of cities; the task word is looked
#: ahead, so that a capitalised word before the region's ("Tee Kotkan tiesuunnitelmaan") does not hide it
REGION_PLAN = re.compile(r"(?:\b(?i:in|for|of)\s+(?:the\s+)?)?(?<![\w'’-])(?P<region>[A-ZÅÄÖ][\w-]*?)(?:['’]s)?\s+"
                         r"(?=(?P<plan>(?i:road|station|charging|charger|land[- ]use|land|parcel)\s+plans?\b[:,]?"
                         r"|(?P<fi>[\w-]+)[:,]?))")


def _region_plans(t: str, regions: Iterable[str] = ()) -> list[tuple[int, int, str]]:
    """(start, end, region) of each region's plan the text names (``REGION_PLAN`` whose word is a loaded region
    — a bundled one or one of ``regions`` — and whose Finnish word, if any, is a task word)."""
    out = []
    for m in REGION_PLAN.finditer(t):
        region = region_of_word(m.group("region"), (*REGIONS, *regions))
        if region and (not m.group("fi") or FI_PLAN.fullmatch(m.group("fi").rstrip(":,"))):
            out.append((m.start(), m.end() + len(m.group("plan")), region))
    return out


#: a region named first and set off by a comma, colon or dash ("In Kotka, place no business parcel within 250 m of
#: Otsolan Koulu", "For Helsinki: …", "Kotkassa, …", "In Tampere, …" on a planner's own city): the region the
#: instruction is about, never its place (it was read as the place to keep away from). Which word names a region is
#: derived from the loaded regions (``city.region_names.region_of_word``: the bundled ones and the instance's own), no
#: list of cities: round 13, "In Tampere, …" on an own city read the city as a place
REGION_LEAD = re.compile(r"^\s*(?:(?i:in|for|within|across|throughout)\s+(?:(?i:the)\s+)?(?:(?i:city|town|region)\s+"
                         r"(?i:of)\s+)?)?(?P<region>[A-ZÅÄÖ][\w'’-]+)(?:\s+(?i:kaupungissa|kaupungille|kaupungin\s+"
                         r"alueella))?(?:\s+(?i:city|town|region|area))?\s*(?:[,:]|\s[—–-])\s*")


def _region_lead(t: str, regions: Iterable[str] = ()) -> tuple[str, re.Match] | None:
    """(the region, the lead) when ``t`` starts with a loaded region said first (``REGION_LEAD``): a bundled
    region or one of ``regions`` (the instance's own); None for anything else ("In Kluuvi, …" is a place)."""
    m = REGION_LEAD.match(t)
    if m is None:
        return None
    region = region_of_word(m.group("region"), (*REGIONS, *regions), lead=True)
    return (region, m) if region else None


def _drop_region_plan(t: str, regions: Iterable[str] = ()) -> str:
    """"Kotkan tiesuunnitelmassa enintään …" → "enintään …" (``REGION_PLAN``), "In Kotka, no …" → "no …"
    (``REGION_LEAD``)."""
    lead = _region_lead(t, regions)
    t = t[lead[1].end():] if lead else t
    for start, end, _ in reversed(_region_plans(t, regions)):
        t = f"{t[:start]} {t[end:]}"
    return " ".join(t.split())


def region_of_plan(t: str, regions: Iterable[str] = ()) -> str | None:
    """The region whose plan the text names ("Kotkan tiesuunnitelmassa" → kotka, "In Kotka, …" → kotka, "In
    Tampere, …" → tampere when ``regions`` holds it), None when none."""
    lead = _region_lead(t, regions)
    if lead is not None:   # "In Kotka, …"
        return lead[0]
    return next((region for _, _, region in _region_plans(t, regions)), None)


def _drop_finnish_plan_words(t: str) -> str:
    """"Tiesuunnitelmaan saa käyttää …" → "saa käyttää …": the plan in a case ending is no place (it was
    read as "inside Tiesuunnitelma" or asked as an unread name); so is the region's plan ("Kotkan
    tiesuunnitelmassa", which the interpreter checks against the instance's region)."""
    t = _drop_region_plan(t)

    def plan(m: re.Match) -> str:
        w = m.group(0)
        return "" if w.casefold().endswith(FI_PLAN_CASES) and FI_PLAN.fullmatch(w) else w
    return " ".join(re.sub(r"(?<![\w-])[\w-]+(?![\w-])", plan, t).split())


def _finnish_places(t: str) -> str:
    """Finnish place cases in the English form the rules read: "ei … 200 metrin säteellä Kiasmasta"
    → "no … within 200 m of Kiasma", "Kluuvissa" → "inside Kluuvi"."""
    unit = lambda u: "km" if u.startswith("k") else "m"   # noqa: E731
    name = lambda n: re.sub(r":n\b", "", n)   # noqa: E731  "EY:n rakennus" → "EY rakennus" (the resolver's kind noun)
    # "pidä latausasemat vähintään 250 metrin päässä Kiasmasta": at least that far away (a lower bound on the
    # distance; it was read as "at least within 250 m", a count of one near the place — the meaning reversed)
    t = re.sub(r"\b" + FI_AWAY + r"\s+(\d+(?:[.,]\d+)?)\s*(m:n|km:n|m|metrin|metriä|km|kilometrin)\s+" + FI_AT + r"\s+"
               + FI_FROM, lambda m: f"at least {m.group(1)} {unit(m.group(2))} away from {name(m.group(3))}", t)
    t = re.sub(FI_FROM + r"\s+" + FI_AWAY + r"\s+(\d+(?:[.,]\d+)?)\s*(m:n|km:n|m|metrin|metriä|km|kilometrin)\s+" + FI_AT,
               lambda m: f"at least {m.group(2)} {unit(m.group(3))} away from {name(m.group(1))},", t)
    t = re.sub(r"\b(\d+(?:[.,]\d+)?)\s*(m:n|km:n|m|metrin|metriä|km|kilometrin)\s+" + FI_WITHIN + r"\s+"
               + FI_FROM, lambda m: f"within {m.group(1)} {unit(m.group(2))} of {name(m.group(3))}", t)
    t = re.sub(FI_FROM + r"\s+(\d+(?:[.,]\d+)?)\s*(m:n|km:n|m|metrin|metriä|km|kilometrin)\s+" + FI_WITHIN + r"",
               lambda m: f"within {m.group(2)} {unit(m.group(3))} of {name(m.group(1))},", t)
    t = FI_NOUN_INSIDE.sub(lambda m: f"inside kortteli {m.group(1)}", t)
    t = FI_IN.sub(lambda m: f"inside {m.group(1)}", t)
    t = FI_INTO.sub(lambda m: f"inside {_illative_stem(m.group(1))}", t)
    t = FI_INSIDE.sub(lambda m: f"inside {m.group(1)}", t)
    # "Kumparepuisto-puisto" (of "Kumparepuisto-puistoon"): the name and its kind noun, which the resolver checks
    t = re.sub(r"(?<=inside )([A-ZÅÄÖ][\w]*)-(" + PLACE_KIND_NOUN + r")\b", r"\1 \2", t)
    t = re.sub(r"\bvain\b", "only", t)   # "uusia teitä vain Ristinkallion sisälle": new links only inside it
    return re.sub(r"(?:^|(?<=\s))(?:[Ee]i|[Ää]lä)\b", "no", t)


#: Finnish coverage: every home or block (as the subject: "jokainen asuinkortteli", "kaikista kortteleista",
#: "jokaisella korttelilla"; never "jokaisessa korttelissa", in every block), a distance bounded above, one
#: kind of place ("… enintään 500 metrin päässä koulutontista", "… alle 400 m puistoon")
FI_EVERY = re.compile(r"(?<![\w-])(?:jokainen|jokaisesta|jokaisella|jokaiselta|jokaisen|kaikki|kaikista|kaikilla|kaikilta|"
                      r"kaikkien|joka)\s+(?:[\w-]+\s+)?(?:asuin\w*|korttel\w*|kodi\w*|kode\w*|koti\w*|kote\w*|asun\w*|"
                      r"asukk\w*|asukka\w*|talou\w*)(?<!ssa)(?<!ssä)\b", re.I)
FI_UPPER = re.compile(r"\b(?:at most|alle|max(?:imum)?|within|päässä|päähän|säteel(?:lä|le)|etäisyydel(?:lä|le)|sisällä)\b",
                      re.I)
FI_LOWER = re.compile(r"\b(?:at least|yli|more than|over|kauempana|vähemmän|enemmän)\b", re.I)


def _finnish_coverage(t: str) -> str:
    """"jokainen asuinkortteli enintään 500 metrin päässä koulutontista" → "every residential block within
    500 m of a school" (was not read); anything else about the blocks (a count, a name, a lower bound) is
    left as it is."""
    from .resolve import category_of

    every = FI_EVERY.search(t)
    found = lexicon.distances(t)
    if not every or len(found) != 1 or FI_LOWER.search(t) or not FI_UPPER.search(t):
        return t
    rest = t[:every.start()] + " " + t[every.end():found[0].start] + " " + t[found[0].end:]
    words = re.findall(r"[^\W\d_][\w-]*", rest)
    if re.search(r"\d", rest) or any(lexicon.is_number_word(w) or w[0].isupper() for w in words[1:]):
        return t   # a count or a name: not every block's distance
    cats = {c for w in words if (c := category_of(w))}
    return f"every residential block within {found[0].metres:g} m of a {cats.pop()}" if len(cats) == 1 else t


#: "Kluuvi: max two chargers", "Kiasma: no charger within 200 m": a name fronted with a colon
#: the signs that front a place: a colon, a dash, an arrow ("Kumparepuisto → no stations …")
FRONT_SIGN = r"(?:\s*:|\s+[—–-]|\s*(?:→|->|⇒|=>))"
FRONTED = re.compile(r"^([A-ZÅÄÖ][\w'’-]*(?:\s+[\w'’-]+){0,3}?)" + FRONT_SIGN + r"\s+(.+)$")
#: the outline of a place said as a noun ("its outline", "the park's edge", "the building's footprint")
EDGE_WORDS = r"(?:outer\s+)?(?:" + lexicon.edge_nouns_pattern() + r"|footprints?)"
#: "Majavankatu — we'd like at least one upgrade within 500 m of it", "As for Kiasma, no chargers within
#: 200 m of it", "UPM building: max 1 station within 200 m of its outline", "Kumparepuisto → none within
#: 200 m of the park's edge": a place fronted, then "it", "its <edge>" or "the <kind>'s <edge>" where the
#: place stands in the rest (the edge said: the place's outline, which the resolver measures from)
FRONTED_IT = re.compile(r"^(?:(?i:as for|about|regarding|concerning|for)\s+)?(?i:the\s+)?"
                        r"([A-ZÅÄÖ][\w'’-]*(?:\s+[\w'’-]+){0,3}?)"
                        r"(?:" + FRONT_SIGN + r"|\s*,)\s+(.+\b(?i:of|from|in|inside|around|near|off|outside|by|to|into)\s+)"
                        r"(?:(?P<its>(?i:its)\s+(?P<e1>" + EDGE_WORDS + r"))|(?i:the)\s+(?P<kind>[a-zåäö]+)(?:['’]s)?\s+"
                        r"(?P<e2>" + EDGE_WORDS + r")|it)\b(?P<tail>.*)$")
#: Finnish "… 200 metrin säteellä sen reunasta" / "sen reunasta 200 metrin säteellä" (from its edge), "siitä"
#: (from it): said the English way, for a fronted place ("Kumparepuisto: ei latausasemia …")
FI_ITS = re.compile(r"\b(\d+(?:[.,]\d+)?)\s*(m:n|km:n|m|metrin|metriä|km|kilometrin)\s+(?:säteel(?:lä|le)|etäisyydel(?:lä|le)|"
                    r"sisällä|sisälle|päässä|päähän)\s+(?:sen\s+(?:ulko)?(?:reuna|raja|laida)\w*|siitä)\b|"
                    r"\bsen\s+(?:ulko)?(?:reuna|raja|laida)\w*\s+(\d+(?:[.,]\d+)?)\s*(m:n|km:n|m|metrin|metriä|km|kilometrin)\s+"
                    r"(?:säteel(?:lä|le)|etäisyydel(?:lä|le)|sisällä|sisälle|päässä|päähän)")


def _finnish_its(t: str) -> str:
    """"sen reunasta 200 metrin säteellä" → "within 200 m of its edge" (for ``FRONTED_IT``)."""
    def said(m: re.Match) -> str:
        n, u = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        unit = "km" if u.startswith("k") else "m"
        return f"within {n} {unit} of " + ("it" if m.group(0).rstrip().endswith("siitä") else "its edge")
    return FI_ITS.sub(said, t)


NOT_A_PLACE = re.compile(r"\b(?:note|rule|goal|also|budget|money|instruction|constraint|plan|priority|weight|"
                         r"then|and|but|or)\b", re.I)


def _place_head(head: str, rest: str, referred: bool = False) -> bool:
    """Whether fronted words can be a place: no id, score term, emphasis, type or keyword, and no
    other place named in the rest ("Kluuvi: none within 200 m of Kiasma" is left as it is). A name of
    two capitalised words that the rest refers back to (``referred``: "… of its outline") may hold a
    type word ("Otsolan Koulu -> … of its outline"): it is a name, no type."""
    named = referred and len(re.findall(r"(?<![\w'’-])[A-ZÅÄÖ]", head)) >= 2
    return not (ID_REF.search(head) or RAW_ID.search(head) or EMPH.search(head) or NOT_A_PLACE.search(head) or
                any(term_of(head, task) for task in TERMS) or
                (not named and any(type_of(head, task) for task in TERMS)) or
                re.search(r"\b(?:of|from|near|around|inside|outside|in|within \S+ \S+ of)\s+[A-ZÅÄÖ]", rest))


HOMES = r"(?:block|home|resident|household|dwelling|house)"
#: a place as the sentence's subject: "Kiasma needs at least two chargers within 400 m", "Kluuvi gets
#: at most one new link" (the place is what the count is about)
SUBJECT = re.compile(r"^(?:(?:please\s+)?(?:ensure|make sure|see to it)(?:\s+that)?\s+)?"
                     r"([A-ZÅÄÖ][\w'’-]*(?:\s+[\w'’-]+){0,3}?)\s+(?:needs?|gets?|has|deserves?|receives?|"
                     r"(?:should|must|shall|may|can|will|is to|has to|ought to)(\s+not|n[’']t)?\s+"
                     r"(?:get|have|receive|hold|take))\s+"
                     r"(.+)$", re.I)
#: "Give Kiasma at least one charger within 250 m": the place as the one given the count
GIVE = re.compile(r"^(?:please\s+)?(?:give|grant|allow)\s+([A-ZÅÄÖ][\w'’-]*(?:\s+[\w'’-]+){0,3}?)\s+"
                  r"((?:at least|at most|no more than|not more than|max\w*|min\w*|up to|only|exactly)\b.+)$", re.I)
#: "Kluuvi is off-limits for chargers", "Kaartinkaupunki stays a no-go zone": nothing inside the place
OFF_LIMITS = re.compile(r"^([A-ZÅÄÖ][\w'’-]*(?:\s+[\w'’-]+){0,3}?)\s+(?:is|are|stays?|remains?|"
                        r"(?:should|must|shall|will) (?:be|stay|remain))\s+(?:off[- ]limits|out of bounds|"
                        r"(?:an? )?no-?go(?:\s+(?:area|zone))?|forbidden|excluded|not allowed)"
                        r"(?:\s+(?:for|to)\s+(.+?))?[\s.!]*$", re.I)
#: "Kluuvi at most two chargers", "Kaisaniemen puisto max one station": a name and then a bound, no verb —
#: the bound is within the place (when the first word can be a name: not a verb or filler of the lexicon)
BOUNDED = re.compile(r"^([A-ZÅÄÖ][\w'’-]*(?:\s+[\w'’-]+){0,3}?)\s+((?:at most|at least|no more than|not more than|"
                     r"max(?:imum)?|min(?:imum)?|up to|exactly)\b.+)$")
#: words that make a sentence's first words no place: "Every residential block needs …", "Chargers get …"
NOT_A_SUBJECT = re.compile(r"\b(?:every|each|all|no|none|any|our|the plan|we|i|you|it|this|that|there|nobody|"
                           r"everyone|everybody|some|most|residents?|people|" + HOMES + r"s?|" + UNIT_NOUNS + r")\b", re.I)


#: "Kluuvi, max two schools": a name fronted with a comma and then a bound (a sentence adverb before a comma,
#: "Finally, at most two …", is no name: ``_comma_fronted``)
COMMA_FRONTED = re.compile(r"^([A-ZÅÄÖ][\w'’-]*(?:\s+[\w'’-]+){0,3}?)\s*,\s+((?:at most|at least|no more than|"
                           r"not more than|max(?:imum)?|min(?:imum)?|up to|exactly|no|none)\b.+)$")


def _may_start_name(words: str) -> bool:
    """Whether the first of ``words`` can start a name: no word of ours, no English inflection ("Finally", "Everything")."""
    first = words.split()[0].casefold() if words.split() else ""
    return bool(first) and not (first in lexicon.not_names() or first in _known_words()[0] or INFLECTED.fullmatch(first)
                                or first.startswith(_known_words()[1]))


def _comma_fronted(t: str) -> re.Match | None:
    """``COMMA_FRONTED`` when its first word can start a name (``_may_start_name``)."""
    m = COMMA_FRONTED.match(t)
    return m if m is not None and _may_start_name(m.group(1)) else None


def _fronted_place(t: str) -> str:
    """A place fronted said the usual way round: with a colon ("Kluuvi: max two chargers" → "max two
    chargers inside Kluuvi", "Kiasma: none within 200 m" → "none within 200 m of Kiasma"), as the
    subject ("Kiasma needs at least two chargers within 400 m"), or off-limits ("Kluuvi is off-limits
    for chargers" → "no chargers inside Kluuvi"). Not an id ("Parcel 2: school"), a score term or
    emphasis ("Emphasis: travel time"), or a keyword."""
    it = FRONTED_IT.match(_finnish_its(t))
    # the head's first word only: "UPM building", "the Lohi block" end in a noun that is no subject's
    if it and not NOT_A_SUBJECT.search(it.group(1).split()[0]) and _place_head(it.group(1), it.group(2) + it.group("tail"), True):
        head, kind = it.group(1), it.group("kind")
        if it.group("its"):          # "of its outline" → "of UPM building's outline"
            head = f"{head}'s {it.group('e1')}"
        elif kind:                   # "of the park's edge" → "of Kumparepuisto park's edge" (the resolver checks the kind)
            head = f"{head}{'' if head.casefold().endswith(kind.casefold()) else ' ' + kind}'s {it.group('e2')}"
        return f"{it.group(2)}{head}{it.group('tail')}"
    off = OFF_LIMITS.match(t)
    if off and not NOT_A_SUBJECT.search(off.group(1)) and _place_head(off.group(1), ""):
        return f"no {off.group(2) or 'candidates'} inside {off.group(1)}"
    m = FRONTED.match(t) or _comma_fronted(t)
    if m is not None:
        head, rest = m.group(1), m.group(2)
    else:
        m = SUBJECT.match(t)
        give = GIVE.match(t) if m is None else None
        bounded = BOUNDED.match(t) if m is None and give is None else None
        if give is not None:
            m, head, rest = give, give.group(1), give.group(2)
        elif bounded is not None and bounded.group(1).split()[0].casefold() not in lexicon.not_names():
            m, head, rest = bounded, bounded.group(1), bounded.group(2)
        elif m is not None:
            head, rest = m.group(1), ("no " if m.group(2) else "") + m.group(3)   # "X must not get offices"
        if m is None or not head[0].isupper() or NOT_A_SUBJECT.search(head):
            return t
    if not _place_head(head, rest):
        return t
    rest = rest.rstrip(" .!")
    if lexicon.distances(rest):
        return f"{rest} of {head}"
    return f"{rest} inside {head}"


#: comparison signs and words for a count's bound (resources/lexicon/numbers.json)
COMPARISONS = {k.casefold(): v for k, v in lexicon.comparisons().items()}
COMPARISON = re.compile("|".join(rf"(?<!\w){re.escape(k)}(?!\w)" if k[0].isalnum() else re.escape(k)
                                 for k in sorted(COMPARISONS, key=len, reverse=True)), re.I)


class _Said:
    """One instruction as the ordered rules of ``parse_one`` see it: the text with spelling fixed,
    its lower case, the distance, the site type and the budget."""

    def __init__(self, text: str, task: str, budget_keur: float | None):
        self.text, self.task, self.budget_keur = text, task, budget_keur
        self.every = bool(EVERY_ONE.search(text))   # "…, no exceptions": all of them, no "no"
        self.t = _fix_spelling(_plain(EVERY_ONE.sub(" ", text).strip()))
        self.low = self.t.lower()
        self.dist = distance_of(self.t)
        self.typ = type_of(self.t, task)

    @cached_property
    def phrase(self) -> str | None:
        """The place the instruction names (``target_phrase``), read when a rule asks."""
        return target_phrase(self.t)


def _budget_share(x: _Said) -> list[dict[str, Any]] | None:
    # "säästä kolmasosa", "keep 10 % in reserve": a share kept back is money when it is of no plan noun
    # ("leave a quarter of the parcels unused" is a share of the plan, asked by the next rule)
    reserve = re.search(r"\b(?:" + lexicon.unspent_pattern() + r")\b", x.low) and \
        (lexicon.percentages(x.low) or re.search(r"\b(?:" + lexicon.fraction_pattern() + r")\b", x.low)) and \
        not PLAN_NOUN.search(x.low)
    if re.search(r"\b(budget|money|spend\w*|unspent|funds?|€|eur|euros?|cost cap|share cap|budjet\w*|rahaa|raho\w*|"
                 r"rahoi\w*|varo\w*)\b", x.low) \
            or reserve or money_amounts(x.t):   # "keep twenty per cent in reserve"
        share = share_of(x.t, x.budget_keur)
        if share is not None and 0 < share <= 1:
            # "siitä korkeintaan neljännes uusiin yhteyksiin", "at most 60 % of the money on rebuilds": the share of the
            # road kind said (it was dropped, the cap held for every link). A land or site type with a share stays
            # unread, so asked ("half the budget on school parcels")
            return [_base("budget_share_max", share=share, type=x.typ if x.task == "road" else None)]
        if "budget" in x.low and re.search(r"\b(at most|no more than|cap|limit|max)\b", x.low):
            raise Ambiguous("what share of the budget may be spent? (e.g. 80 %)")
    return None


#: the plan's own nouns (candidates, in English and Finnish cases): a share "of the parcels" is of the plan, no money
PLAN_NOUN = re.compile(r"\b(?:(?:" + ID_NOUN + r")s?|" + UNIT_NOUNS + r"|korttel\w*|tontt?\w*|linkk?\w*|tei\w*|tie\w*|"
                       r"latausasem\w*|paik\w*)\b", re.I)
COUNT_OR_DIGITS = r"(?:\d+|" + lexicon.count_pattern() + r")"
#: a share in Finnish words ("vähintään kolmannes viheralueeksi", "puolet puistoiksi")
FI_SHARE = r"puolet|puolikas|kolmannes|kolmanneks\w*|neljännes|neljänneks\w*|viidennes|viidenneks\w*"


def _share_of_kind(x: _Said) -> list[dict[str, Any]] | None:
    """"at least a third green", "no more than 40 % offices", "vähintään kolmannes viheralueeksi": a share
    of the plan's candidates (no budget word: the budget rule before did not fire). No constraint holds a
    share of a kind, so it is asked — it was read as "at least one green parcel", the share dropped."""
    said = lexicon.percentages(x.t) or re.search(r"\b(?:" + lexicon.fraction_pattern() + "|" + FI_SHARE + "|"
                                                 # "one in three parcels", "1 out of every 4" (read as a count of one)
                                                 + COUNT_OR_DIGITS + r"\s+(?:in|out of)\s+(?:every\s+)?" +
                                                 COUNT_OR_DIGITS + r")\b", x.t, re.I)
    if not said:
        return None
    share = x.t[said[0][0]:said[0][1]] if isinstance(said, list) else said.group(0)
    raise Ambiguous(f"'{share}' is a share of the plan, which no constraint here holds: say it as a count (e.g. "
                    "'at least 3 green parcels', 'at most 2 offices') or, for money, as a share of the budget "
                    "('spend at most 60 % of the budget')")


def _emphasis(x: _Said) -> list[dict[str, Any]] | None:
    if x.dist or ID_REF.search(x.t):
        return None
    order = ORDER.match(x.t)
    if EMPH.search(x.t) or (order and term_of(order.group("a"), x.task) and not AMOUNT_AFTER.search(x.t[order.end() - 1:])):
        term = term_of(DEMOTED.sub(" ", x.t), x.task)   # the term put first, not the ones put below it
        if term:
            return [_base("emphasis", term=term)]
    return None


def _spacing(x: _Said) -> list[dict[str, Any]] | None:
    if x.dist and re.search(r"\b(apart|spacing|spaced|separat\w*|closer together|"
                            r"between (?:the |any |every |each )?(?:two |pair of )?(?:selected )?" + UNIT_NOUNS +
                            # "…, and keep at least 400 m between them": the candidates the sentence is about
                            r"|between (?:them|those|these)(?! and)" +
                            r"|(?:from|of|to) each other|(?:from|of|to) one another|distance between|"
                            # "Latausasemien väli vähintään 300 metriä", "… toisistaan"
                            r"v[äa]l(?:i(?:n|nen|mat\w*|llä)?|ein)|toisistaan)\b", x.low):
        return [_base("spacing_min", distance_m=x.dist)]
    return None


#: "no residential block more than 500 m from a station", "nobody should have to walk more than
#: 350 m to reach a charger": every block within that distance of one (the residents' side)
FAR_FROM = re.compile(r"\b(?:(?:no|not one|not a single|none of the|not (?:be )?(?:a single|any|one))\s+"
                      r"(?:(?:residential|housing|city|"
                      r"apartment|living|dwelling)\s+)?" + HOMES +
                      r"s?|nobody|no ?-?one|not anyone|no resident|no person|no people)\b"
                      r".*\b(?:more than|farther than|further than|over|beyond)\b.*?"
                      r"\b(?:to (?:reach|get to|walk to|find)|(?:away )?from|to|of|for)\s+"
                      r"(?:an?\s+|the nearest\s+|the closest\s+|some\s+|any\s+)?([a-z ]+?)\s*(?:[.,;!?]|$)")
#: "homes must have a school within 700 m": the homes, in the plural, as the subject
HOMES_SAY = re.compile(r"(?:the\s+|our\s+|all\s+)?(?:residential\s+)?(?:homes|residents|households|dwellings|inhabitants)"
                       r"\b.*\b(?:should|must|need|have|has|get|be|within)\b")
#: "all stations at least 200 m from homes": every/each/all names the sites, not the homes
SITES_FIRST = re.compile(r"\b(?:every|each|all)\s+(?:the\s+|of the\s+)?(?:new\s+)?(?:ev\s+)?"
                         r"(?:charg\w+|stations?|sites?|candidates?|links?|roads?|facilit\w+)\b")


#: "a school parcel", "school sites", "koulutontti": a category word and the land it stands on
CATEGORY_LAND = re.compile(r"^(.+?)(?:\s+|(?<=[a-zåäö]))(?:" + lexicon.category_land_nouns_pattern() + r")$", re.I)


def _coverage_category(words: str | None) -> str | None:
    """The POI category a coverage names: a facility word, or one with the land it stands on after it
    ("within 500 m of a school parcel": the category school, never a place named "school parcel")."""
    from .resolve import category_of

    cat = category_of(words)
    if cat is None and words and (land := CATEGORY_LAND.match(words.strip())):
        cat = category_of(land.group(1))
    return cat


EVERY_HOME = re.compile(r"\b(every|each|all)\b.*\b(residential|block|home|resident|household|neighbo\w*|dwelling)")


def _homes_only_in_place(x: _Said) -> bool:
    """Whether the only homes word of a sentence about every site is part of the place it names ("… away from the
    Metso block", "the Lohi kortteli"): a capitalised name, no home ("from homes", "from every block" stay homes)."""
    phrase = x.phrase
    if not phrase or not re.search(r"[A-ZÅÄÖ]", phrase):
        return False
    rest = re.sub(re.escape(phrase), " ", x.t, flags=re.I).lower()
    return not EVERY_HOME.search(rest) and not HOMES_SAY.match(rest)


def _coverage(x: _Said) -> list[dict[str, Any]] | None:
    """Every residential block within D of a kind of place, said either way round: "every block
    within 500 m of a school", "no home more than 600 m from a charger"."""
    low = x.low
    far = FAR_FROM.search(low) if x.dist else None
    if far is not None:
        cat = _coverage_category(far.group(1))
        if cat is not None:
            return [_base("coverage", target={"name": None, "category": cat, "id": None}, distance_m=x.dist,
                          scope="residential blocks")]
    if not (x.dist and (EVERY_HOME.search(low) or HOMES_SAY.match(low))):
        return None
    if _homes_only_in_place(x):
        # "keep every new charging site at least 250 m away from the Metso block": the block is the named place
        # the sites keep away from, no home of a coverage (was asked as "a distance from every home")
        return None
    if SITES_FIRST.search(low):   # "keep all stations at least 200 m from homes": not a coverage, and no place named
        raise Ambiguous("a distance from every home is read as coverage only ('every residential block within 500 m "
                        "of a school'); to keep sites away from somewhere, name the place: 'no station within 200 m "
                        "of <place>'")
    m = re.search(r"\bof (?:an? |the nearest |some )?([a-z ]+?)\s*(?:[.,;!?]|$)", low) or \
        re.search(r"\b(?:have|has|get|gets|with|needs?|reach(?:es)?)\s+(?:an?\s+|some\s+|the\s+)?([a-z ]+?)\s+within\b",
                  low)
    cat = _coverage_category(m.group(1)) if m else None
    if cat is None:
        raise Ambiguous("within that distance of what? (a category such as school, clinic or charger)")
    return [_base("coverage", target={"name": None, "category": cat, "id": None}, distance_m=x.dist,
                  scope="residential blocks")]


def _ids(x: _Said) -> list[dict[str, Any]] | None:
    """"site 3 in", "no site 15", "block 5 should stay green", "link 2 in, link 6 out", "keep site 3
    but drop site 9"."""
    t, typ = x.t, x.typ
    idm = ID_LIST.search(t) or RAW_ID.search(t)
    if not idm or x.dist:
        return None
    idents = _numbers_of(idm.group(1)) if idm.re is ID_LIST else [idm.group(1)]
    groups = list(ID_LIST.finditer(t)) if idm.re is ID_LIST else [idm]
    if len(groups) > 1:   # "site 3 in and site 6 out", "rebuild links 3 and 4 but not link 5": each its own words
        shared = t[: groups[0].start()]                  # "we don't want site 3 or site 6": one verb for all
        out = []
        for g in groups:
            own = _own_words(t, g.start(), g.end(), ID_CLAUSE)
            says = own if OUT_WORDS.search(own) or IN_WORDS.search(own) else shared
            out += [_base("lock_out" if OUT_WORDS.search(says) else "lock_in",
                          target={"name": None, "category": None, "id": i},
                          type=type_of(own, x.task) or type_of(shared, x.task))
                    for i in _numbers_of(g.group(1))]
        return out
    # "link 4 has to be in the plan, but only as a rebuild, don't make it bigger": in — the "don't"
    # after "but" is about the kind of work, not the lock
    own = _own_words(t, idm.start(), idm.end(), BUT)
    out_word = OUT_WORDS.search(own if OUT_WORDS.search(own) or IN_WORDS.search(own) else
                                t[: idm.start()] + " " + t[idm.end():])
    return [_base("lock_out" if out_word else "lock_in", target={"name": None, "category": None, "id": i}, type=typ)
            for i in idents]


def _numbers_of(ids: str) -> list[str]:
    """The ids of a list as written: "3, 4 and 9" → 3, 4, 9; a range "1-3" / "1 to 3" → 1, 2, 3."""
    out: list[str] = []
    for m in re.finditer(r"(\d+)(?:\s*(?:-|–|to|through)\s*(\d+))?", ids):
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        out += [str(k) for k in range(lo, hi + 1)] if lo <= hi <= lo + 50 else [m.group(1)]   # never a runaway range
    return out


#: words that put a candidate in the plan ("link 4 has to be in the plan")
IN_WORDS = re.compile(r"\b(in|include\w*|keep|kept|lock(?:ed)? in|add\w*|select\w*|must|has to|have to|needs?|"
                      r"required?|stays?|yes|build\w*|rebuil\w*|upgrad\w*|allocat\w*)\b", re.I)
#: where the words of one id end: "but" (one id), or any clause break (several ids)
BUT = re.compile(r",?\s+but\b", re.I)
ID_CLAUSE = re.compile(r"[,;]|\.\s|\b(?:and|but)\b", re.I)


def _own_words(t: str, start: int, end: int, cut: re.Pattern) -> str:
    """The words of the clause that holds ``t[start:end]`` (clauses end at ``cut``), without it."""
    cuts = list(cut.finditer(t))
    lo = max([m.end() for m in cuts if m.end() <= start], default=0)
    hi = min([m.start() for m in cuts if m.start() >= end], default=len(t))
    return t[lo:start] + " " + t[end:hi]


def _near_place(x: _Said) -> list[dict[str, Any]] | None:
    """Near a place: "no charger within 250 m of X", "at least 2 within 500 m of X"; "near X" with no
    distance is asked (``NeedsDistance``)."""
    t, low, dist, typ, phrase = x.t, x.low, x.dist, x.typ, x.phrase
    near_word = re.search(r"\b(near|nearby|next to|close to|by|beside|around|away from|clear of|far from)\b", low)
    if not (phrase and (dist or near_word) and not (_inside_word(x) and not dist and not near_word)):
        return None
    target = _target(phrase)
    if dist is None:   # "near" with no distance: asked, never a guessed radius
        raise NeedsDistance(phrase, near_word.group(1))
    neg = NEG.search(re.sub(re.escape(phrase), " ", t, flags=re.I))
    cnt = count_of(t)
    if cnt is None and re.search(r"\b(?:at most|no more than|not more than|max(?:imum)?)\b", low):
        # a bound with no count read: never "at least one" (the bound's opposite)
        raise Ambiguous(f"at most how many within {dist:g} m of {phrase}? e.g. 'at most 2 within {dist:g} m of {phrase}'")
    at_most = re.search(r"\b(at most|no more than|not more than|max(?:imum)?|up to|only)\b", low)
    if re.search(r"\bexactly\b", low) and cnt is not None:   # "exactly two within 500 m of X"
        return [_base("count_min", target=target, distance_m=dist, count=cnt, type=typ),
                _base("count_max", target=target, distance_m=dist, count=cnt, type=typ)]
    if at_most and cnt is not None:
        out = _base("count_max", target=target, distance_m=dist, count=cnt, type=typ)
    elif neg and not re.search(r"\bat least (?:\d+|one|two|three)\b" + NOT_A_MEASURE, low):
        out = _base("exclude_near", target=target, distance_m=dist, type=typ)
    else:
        out = _base("count_min", target=target, distance_m=dist, count=cnt or 1, type=typ)
    return [out]


#: "no exceptions", "without exception", "each and every one": emphasis that the rule holds for all of them, never
#: a negation (v12: "every charger has to be w/in 600 m of Annankatu, no exceptions" was stored as none within)
EVERY_ONE = re.compile(r"(?:,\s*|\s+[—–-]\s*)?\b(?:(?:with\s+)?no\s+exceptions?|without\s+(?:any\s+)?exceptions?|"
                       r"no\s+ifs,?\s+(?:and|or)\s+buts|each\s+and\s+every\s+one(?:\s+of\s+them)?|every\s+single\s+one|"
                       r"ilman\s+poikkeuksia|poikkeuksetta)\b[\s.!]*", re.I)
#: every candidate (of a type) said to lie within a distance: a quantifier before the noun ("every charger", "all
#: new links", "each of the offices", "kaikkien latausasemien", "jokaisen toimiston"), "all of them", "them all"
ALL_QUANT = re.compile(r"\b(?:(?:every|each|all)(?:\s+(?:of\s+)?(?:the|our|your|these|those|its|their))?(?:\s+(?:single|new|"
                       r"planned|selected|chosen|future|proposed|ev))*\s+(?:of\s+)?(?=[a-zåäö_-]{3,})(?!(?:residential|homes?|"
                       r"households?|dwellings?|residents?|people|blocks?|budget|money|costs?|time|that|this|of\s+it)\b)|"
                       r"all of them|them all|they all|kaik\w*\s+(?=[a-zåäö])|jokai\w*\s+(?=[a-zåäö]))", re.I)
#: a plural noun of the plan obliged to lie within a distance ("chargers have to be within …", "new links must
#: lie within …", "latausasemien on oltava …"): every one of them (a singular "a charger must be …" is at least one)
ALL_OBLIGED = re.compile(r"^\s*(?:the\s+|our\s+|any\s+)?(?:new\s+|ev\s+|selected\s+|chosen\s+)*"
                         r"(?:[a-zåäö_-]+\s+(?=[a-zåäö_-]+s\s))?[a-zåäö_-]+(?<!s['’])s\s+"
                         r"(?:(?:all|both)\s+)?(?:have\s+to|must|need\s+to|should|shall|are\s+to|ought\s+to|"
                         r"(?:have\s+)?got\s+to)\s+(?:all\s+)?(?:be|lie|stay|sit|remain|go|be\s+(?:placed|built|located|"
                         r"sited|put))\b|\b[a-zåäö]+(?:ien|jen|den|ten|en)\s+must\s+(?:be|lie)\b", re.I)


def _all_within(x: _Said) -> list[dict[str, Any]] | None:
    """Every candidate within a distance of a place: "every charger has to be w/in 600 m of X, no exceptions",
    "all offices must lie within 400 m of Kiasma", "chargers need to be within 500 m of Stockmann", "kaikkien
    latausasemien on oltava 600 m:n säteellä Kiasmasta": only candidates (of the type) within the distance
    (``inside_area`` with ``distance_m``). It was read as none within (the "no" of "no exceptions") or as at
    least one within. A count, a bound or a negation is no "every" (the later rules read those)."""
    if not (x.dist and x.phrase and re.search(r"\bwithin\b", x.low)) or _inside_word_only(x):
        return None
    rest = re.sub(re.escape(x.phrase), " ", x.t, flags=re.I)
    said = re.sub(r"\b(every|each)\s+single\b", r"\1", x.t, flags=re.I)   # "every single charger": no count of one
    if NEG.search(rest) or count_of(said) is not None or re.search(
            r"\b(?:at (?:least|most)|no more than|up to|max\w*|min\w*|exactly|only|some|any one|one or more|"
            r"a|an|one)\s", x.low):
        return None
    if not (ALL_QUANT.search(rest) or ALL_OBLIGED.search(rest) or x.every):
        return None
    return [_base("inside_area", target=_target(x.phrase), distance_m=x.dist, type=x.typ)]


def _inside_word_only(x: _Said) -> bool:
    """"within the area of X", "inside X" with a distance elsewhere: an area, no radius."""
    return bool(re.search(r"\b(?:inside|within the area of|in the area of)\b", x.low))


def _inside_word(x: _Said) -> Any:
    return re.search(r"\b(inside|within the area of|in the area of|in|on|off|outside|out of)\b", x.low) or \
        (None if x.dist else re.search(r"\b(within)\b", x.low))


def _inside_area(x: _Said) -> list[dict[str, Any]] | None:
    """Inside / outside a named area: "none inside X", "all inside X, nothing outside it", "keep them off X"."""
    phrase = x.phrase
    if not (phrase and _inside_word(x)):
        return None
    low, typ = x.low, x.typ
    target = _target(phrase)
    cnt = count_of(x.t)
    at_most = re.search(r"\b(at most|no more than|not more than|max\w*|up to)\b", low)
    outside = re.search(r"\boutside\b", low)
    # "keep the stations off the plot" says no more than "not on it"
    neg = NEG.search(re.sub(r"\boutside\b", " ", low)) or re.search(r"\b(off|out of)\b", low)
    if cnt and outside:   # a count outside an area: no such constraint ("no chargers outside X" is none)
        return None
    if cnt is not None and (at_most or not neg):   # "no more than 2 in Kluuvi" is a count, not "none"
        return [_base("count_max" if at_most else "count_min", target=target, count=cnt, type=typ, area=True)]
    if outside:   # "nothing outside Heliä" = only inside it; "chargers outside Kluuvi" = none in it
        return [_base("inside_area" if neg else "outside_area", target=target, type=typ)]
    # "all stations inside X"; "school sites must lie inside kortteli Käki" (a plural obliged to lie in the area)
    if (re.search(r"\b(only|all|every|everything|exclusively|solely)\b", low) or ALL_OBLIGED.search(low)) and not neg:
        return [_base("inside_area", target=target, type=typ)]
    if neg:
        return [_base("outside_area", target=target, type=typ)]
    return None


#: a named place left alone ("leave the Kumparepuisto park alone", "don't touch Kluuvi", "Kumparepuisto stays untouched",
#: "jätä Kumparepuisto rauhaan", "Kumparepuisto pitää jättää koskematta"): nothing of the plan in it (it was not read:
#: no "of" or "in" before the place). ``x`` is the place; the resolver checks that it is an area
_PLACE = r"(?:(?i:the)\s+)?(?P<x>[A-ZÅÄÖ][\w'’-]*(?:\s+[\w'’-]+){0,3}?)"
LEAVE_ALONE = re.compile(
    r"\b(?i:leave|let)\s+" + _PLACE + r"\s+(?i:alone|be|" + AS_IT_IS + r")\b|"
    r"\b(?i:don['’]?t|do not|never|must not|mustn['’]t|should not|shouldn['’]t|may not|cannot|can['’]t)\s+"
    r"(?i:touch|disturb)\s+" + _PLACE.replace("<x>", "<y>") + r"\s*(?:[,.;!?]|$)|"
    r"^\s*" + _PLACE.replace("<x>", "<z>") + r"\s+(?i:stays?|remains?|is to (?:stay|remain|be left)|(?:must|should|shall|"
    r"will) (?:stay|remain|be left)|(?:is|are) (?:to be )?left)\s+(?i:alone|" + AS_IT_IS + r")\b|"
    r"\b(?i:jätä)\s+" + _PLACE.replace("<x>", "<f>") + r"\s+(?i:" + AS_IT_IS + r")\b|"
    r"^\s*" + _PLACE.replace("<x>", "<g>") + r"\s+(?:(?i:pitää|tulee|täytyy|on|saa)\s+)?(?i:jättää|jättä\w*|jää\w*)\s+"
    r"(?i:" + AS_IT_IS + r")\b")


def _leave_alone(x: _Said) -> list[dict[str, Any]] | None:
    """"leave the Kumparepuisto park alone", "don't touch Kluuvi", "jätä Kumparepuisto rauhaan": ``outside_area`` of
    the place (``LEAVE_ALONE``); a candidate's id is ``ids.lock``'s, a distance ``near.place``'s."""
    m = LEAVE_ALONE.search(x.t)
    if m is None or x.dist:
        return None
    place = TRAILING.sub("", next(g for g in m.groups() if g).strip(" .!?'\""))
    # the place's own kind noun ("the Kumparepuisto park") is no type word that makes it no place
    if ID_REF.search(place) or RAW_ID.search(place) or not _may_start_name(place) or \
            not _place_head(re.sub(r"\s+" + PLACE_KIND_NOUN + r"$", "", place), ""):
        return None
    rest = x.t[:m.start()] + " " + x.t[m.end():]   # the place's kind noun ("park") is no type of the instruction
    return [_base("outside_area", target=_target(place), type=type_of(rest, x.task))]


def _avoid_area(x: _Said) -> list[dict[str, Any]] | None:
    """"avoid the riverside": stay out of a named area."""
    phrase = x.phrase
    if phrase and re.search(r"\b(avoid\w*|stay out of|keep out of)\b", x.low):
        return [_base("outside_area", target=_target(phrase), type=x.typ)]
    return None


def _none_of_type(x: _Said) -> list[dict[str, Any]] | None:
    """"no offices at all": none of a type anywhere."""
    words = "|".join(p for n, p in _types(x.task) if n == x.typ)   # every word of the type (English, Finnish)
    if x.typ and not x.phrase and re.search(r"\b(?:no|zero|not any|not a single)\s+(?:new\s+|more\s+)?(?!more\b)"
                                          r"(?:[a-z_]+\s+)?(?:" + words + r")\b", x.low):
        return [_base("count_max", count=0, type=x.typ)]
    # "hospitals are not needed at all", "offices aren't wanted": none of the type (was not read)
    if x.typ and not x.phrase and re.search(r"\b(?:" + words + r")\s+(?:are|is)\s*(?:not|n['’]t)\s+(?:needed|wanted|"
                                          r"required|necessary|welcome|allowed)\b", x.low):
        return [_base("count_max", count=0, type=x.typ)]
    return None


#: a bound for each block or parcel ("at most 2 offices per block", "each block at most 2 offices", "jokaisessa
#: korttelissa enintään 2 toimistoa"): no constraint holds a count per unit (it was read as a total)
PER_UNIT = re.compile(r"\b(?:per|each|every|jokai\w+|kaik\w+)\s+(?:residential\s+|single\s+)?(?:blocks?|parcels?|plots?|"
                      r"districts?|neighbou?rhoods?|areas?|korttel\w*|tont\w*|alue\w*|kaupunginosa\w*)\b", re.I)


def _per_unit(x: _Said) -> list[dict[str, Any]] | None:
    """"at most 2 offices per block": a count for each block, which no constraint holds: asked."""
    unit = PER_UNIT.search(x.t)
    if unit and not x.dist and count_of(x.t) is not None:
        raise Ambiguous(f"'{unit.group(0)}' asks for a count in each one, which no constraint here holds (a count is "
                        "over the whole plan or within a distance of a place): say it as a total, e.g. 'at most 2 "
                        "offices in total', or for one place, e.g. 'at most 2 offices inside Kluuvi'")
    return None


def _counts(x: _Said) -> list[dict[str, Any]] | None:
    """"at least one parcel must be allocated to school", "max 1 hospital_l"."""
    cnt, low, typ = count_of(x.t), x.low, x.typ
    if cnt is None or not re.search(r"\b(at least|at most|no more than|not more than|max\w*|min\w*|up to|"
                                    r"exactly|need|in total|total)\b", low):
        return None
    if x.dist:   # "… at least two chargers within 300 m" with the place where no rule reads it: never a total
        raise Ambiguous(f"within {x.dist:g} m of what? name the place, e.g. 'at least {cnt} within {x.dist:g} m of "
                        "<place>'")
    if re.search(r"\b(at most|no more than|not more than|max\w*|up to)\b", low):
        return [_base("count_max", count=cnt, type=typ)]
    if re.search(r"\bexactly\b", low):
        return [_base("count_min", count=cnt, type=typ), _base("count_max", count=cnt, type=typ)]
    return [_base("count_min", count=cnt, type=typ)]


def _except(x: _Said) -> list[dict[str, Any]] | None:
    """"nothing but green inside X" names what to allow, which no one constraint says: asked (read
    by the later rules it was stored as its opposite, "no green inside X")."""
    if re.search(r"\b(?:all|every\w*|each)\b.*\b(?:except|apart from|other than|save for|but not)\b", x.low):
        # "all links except link 5": read by the later rules it was stored as its opposite, "link 5 in"
        raise Ambiguous("'all … except …' keeps one out and the rest in, which no one constraint says: say what to "
                        "keep out, e.g. 'link 5 out', and what to keep in")
    only = re.search(r"\b(?:nothing|none|no\w*) (?:but|except|other than|apart from)\b|\banything but\b|"
                     r"\b(?:nothing|none) (?:else|other)\b|\banything (?:except|other than|apart from|save)\b", x.low)
    # "site 3 and nothing else": the rest out too; "parcel 23 can be anything except offices" (read as offices)
    if only:   # the planner's own words quoted ("nothing else" was asked as "'nothing but …'")
        raise Ambiguous(f"'{only.group(0)} …' sets one kind or place apart from all the rest, which no one constraint "
                        "says: say which to keep out, e.g. 'no offices inside <area>' or 'parcel 5 out'")
    return None


#: a permission said softly ("it would not hurt to have more than 3 chargers", "wouldn't mind", "no harm in", Finnish
#: "ei haittaisi"): more is allowed, nothing is asked for — no constraint (it was applied as a hard bound of at least 4)
SOFT_WISH = re.compile(r"\b(?:(?:it\s+)?(?:would|could|will|does|should)(?:n['’]?t|\s+not)\s+(?:hurt|harm|be bad|be a bad "
                       r"thing|go amiss)|no harm in|(?:would|wouldn['’]?t|would not)\s+mind|"
                       r"ei (?:haittaisi|olisi pahitteeksi))\b", re.I)
#: a wish said softly ("… would be nice", "ideally", "preferably", "if possible", Finnish "mieluiten", "olisi kiva"): the
#: dev sets' independent authors expect the constraint applied (v3, v5, v9, v13, dev: 6 of 6 such items), so it is read
#: as the constraint without these words, and the reply says it is held as a rule and how to drop it (round 13: it
#: was asked, v13-in-30). The words around the wish go with it ("it would be nice if", "olisi kiva jos")
SOFT_WISH_WORDS = (r"(?:it\s+)?would be (?:nice|good|great|lovely|handy|a plus|a bonus)|nice to have|ideally|preferabl[ey]|"
                   r"if (?:at all )?possible|where possible|if convenient|if that works|if feasible|"
                   r"(?:olisi|ois) (?:kiva|mukava|hyvä)|kiva jos|mieluiten|mielellään|ihannetapauksessa|jos mahdollista")
WISH = re.compile(r"(?:[,;:—–-]\s*)?(?<![\w'’])(?:" + SOFT_WISH_WORDS + r")(?![\w'’])(?:\s+(?:if|jos|to|that|for))?"
                  r"(?:\s*[,;:—–-])?", re.I)


def _held_wish(text: str, task: str, budget_keur: float | None, regions: Iterable[str] = ()) -> list[dict[str, Any]] | None:
    """A soft wish read as the constraint it asks for (``WISH``), each constraint noting that it is held as a rule;
    None when the text says no wish (or a permission, which ``_soft_wish`` asks). An emphasis stays one, itself
    a lean, with no note."""
    if not WISH.search(text) or SOFT_WISH.search(text):
        return None
    rest = " ".join(WISH.sub(" ", text).split()).strip(" ,;:")
    if not rest:
        return None
    wish = re.search(SOFT_WISH_WORDS, text, re.I).group(0)
    note = (f"'{wish}' is held as a rule: a constraint always holds, so the plan must meet it — if it need not, "
            "remove it (instruct --remove with its key, or the remove_constraint tool)")
    return [c if c["kind"] == "emphasis" else {**c, "note": "; ".join(x for x in (c.get("note"), note) if x)}
            for c in parse(rest, task, budget_keur, regions)]


def _soft_wish(x: _Said) -> list[dict[str, Any]] | None:
    """"it would not hurt to have more than 3 chargers": a permission, never a hard bound — an emphasis when it
    names a score term, else asked."""
    soft = SOFT_WISH.search(x.text) or SOFT_WISH.search(x.t)   # "Ei haittaisi": before "ei" is read as "no"
    if soft is None:
        return None
    emphasis = _emphasis(x)
    if emphasis:
        return emphasis
    try:   # "a charger by the Ateneum would be good": how near is asked first (a NeedsDistance goes up)
        _near_place(x)
    except NeedsDistance:
        raise
    except Ambiguous:
        pass
    raise Ambiguous(f"'{soft.group(0)}' makes it a wish, and a constraint here always holds: say it without "
                    f"'{soft.group(0)}' (e.g. 'at least 4 …') if it must hold, or as an emphasis (e.g. 'prioritise "
                    f"{TERMS[x.task][0][0].replace('_', ' ') if TERMS.get(x.task) else 'coverage'}') to lean the plan that way")


def _vague(x: _Said) -> list[dict[str, Any]] | None:
    """"make it greener": no measurable target, asked."""
    if re.search(r"\b(greener|better|nicer|safer|cheaper|more (?:green|sustainable|liveable|livable)|improve it|"
                 r"somewhere (?:nice|good|sensible|suitable)|where it makes sense)\b", x.low):
        raise Ambiguous("no measurable target: which type, how many, where, or which score term to emphasise?")
    return None


@dataclass(frozen=True)
class Rule:
    """One reading rule: ``read`` returns the constraints it reads, None when it does not fire, or
    raises ``Ambiguous``; ``example`` is an instruction it reads (for ``task``) to ``kinds``
    (tests/core/test_instruction_rules.py runs every example)."""

    id: str
    read: Callable[[_Said], list[dict[str, Any]] | None]
    example: str
    task: str
    kinds: tuple[str, ...]


#: the ordered rule table: the first rule that fires reads the instruction (or one part of a
#: compound), and its id goes into each constraint it makes (``rule``)
RULES: tuple[Rule, ...] = (
    Rule("ask.except", _except, "nothing but parks inside Kluuvi", "land", ()),
    Rule("ask.soft_wish", _soft_wish, "it would not hurt to have more than 3 chargers", "station", ()),
    Rule("budget.share", _budget_share, "Of the €900k, hold back €180k.", "road", ("budget_share_max",)),
    Rule("ask.share_of_kind", _share_of_kind, "at least a third of the parcels green", "land", ()),
    Rule("emphasis.term", _emphasis, "give priority to short waiting times", "station", ("emphasis",)),
    Rule("spacing.min", _spacing, "keep 400 m between stations", "station", ("spacing_min",)),
    Rule("coverage.homes", _coverage, "no household should live more than 600 m away from a clinic", "land",
         ("coverage",)),
    Rule("ids.lock", _ids, "keep site 3 but drop site 9", "station", ("lock_in", "lock_out")),
    Rule("ask.per_unit", _per_unit, "at most 2 offices per block", "land", ()),
    Rule("area.leave_alone", _leave_alone, "leave the Kumparepuisto park alone", "land", ("outside_area",)),
    Rule("near.all_within", _all_within, "every charger has to be within 600 m of Annankatu, no exceptions", "station",
         ("inside_area",)),
    Rule("near.place", _near_place, "≤ 1 charger within 150 m of Ateneum", "station", ("count_max",)),
    Rule("area.inside", _inside_area, "all chargers inside Kluuvi, none outside it", "station", ("inside_area",)),
    Rule("area.avoid", _avoid_area, "avoid Kaisaniemen puisto", "station", ("outside_area",)),
    Rule("type.none", _none_of_type, "no offices at all", "land", ("count_max",)),
    Rule("count.total", _counts, "at least three schools", "land", ("count_min",)),
    Rule("vague.ask", _vague, "make it nicer", "land", ()),
)


#: a comparison sign before a distance, as the words the rules read ("no block > 800 m from a school" is the
#: coverage "no block more than 800 m from a school"; it was stored as no school within 800 m, v15-in-38)
_DIST_SIGN = re.compile(r"(?<![\w<>=≥≤])(?P<sign>>=|=>|≥|>|<=|=<|≤|<)\s*(?=\d[\d.,]*\s*(?:km|m|kilomet\w*|met\w*)\b)",
                        re.I)
_SIGN_WORDS = {">": "more than ", ">=": "at least ", "=>": "at least ", "≥": "at least ", "<": "within ",
               "<=": "within ", "=<": "within ", "≤": "within "}


def _signs_as_words(text: str) -> str:
    """A comparison sign before a distance written as words (``_DIST_SIGN``)."""
    return _DIST_SIGN.sub(lambda m: _SIGN_WORDS[m.group("sign")], text)


def parse_one(text: str, task: str, budget_keur: float | None = None) -> list[dict[str, Any]]:
    """One instruction's constraints: the first rule of ``RULES`` that reads it; raises
    ``Ambiguous`` (a question to ask) or ``NoRule``."""
    x = _Said(text, task, budget_keur)
    for rule in RULES:
        got = rule.read(x)
        if got is not None:
            return [{**c, "rule": rule.id} for c in got]
    raise NoRule(text)
