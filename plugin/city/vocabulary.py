"""Planners' words for what the data holds: facility terms → the City's POI categories (with
the OSM tags that narrow a broad category to the word used), and money in any common form →
k€. Shared by the ask agent, the Planner dock and the instruction interpreter.

A term maps to ``(category, tag filter)``: "pharmacy" is the data category ``clinic``
narrowed to ``amenity=pharmacy``; a filter of ``None`` keeps the whole category. Narrowing
uses the POI tags from ``plugin.city.names`` (``NameIndex.poi_tags``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import lexicon

#: (regex, category, tag filter {key: values | None for any value}), from the lexicon
#: (resources/lexicon/facilities.json). Overlap is resolved by ``category_terms`` (longest match).
TERMS: tuple[tuple[str, str, dict[str, tuple[str, ...] | None] | None], ...] = lexicon.facility_terms()
_COMPILED = [(re.compile(r"(?<!\w)(?:" + p + r")(?!\w)", re.I), c, t) for p, c, t in TERMS]


@dataclass(frozen=True)
class CategoryTerm:
    start: int
    end: int
    word: str
    category: str
    tags: tuple[tuple[str, tuple[str, ...] | None], ...] = ()   # () = the whole category

    def tag_filter(self) -> dict[str, tuple[str, ...] | None]:
        return dict(self.tags)

    def describe(self) -> str:
        """'clinic (amenity=pharmacy)' or 'clinic'."""
        narrow = "; ".join(f"{k}={'|'.join(v) if v else '*'}" for k, v in self.tags)
        return f"{self.category} ({narrow})" if narrow else self.category


#: words misspelt often enough to be worth a fuzzy look ("cinma", "pharmcy", "resturant")
FUZZY_WORDS = lexicon.fuzzy_words()
NOT_FUZZY = lexicon.not_fuzzy_words()


def _fuzzy_word(word: str) -> str | None:
    import difflib

    if word.casefold() in NOT_FUZZY:
        return None
    hit = difflib.get_close_matches(word.casefold(), FUZZY_WORDS, n=1, cutoff=0.84)
    return hit[0] if hit else None


#: a lower-case Finnish compound written with a hyphen between its parts ("polttoaine-asema", "huolto-asemalta",
#: "terveys-asemalle", "pysäköinti-alue"): a capitalised first part is a name's ("Kalat-patsas"), never joined
_HYPHENED = re.compile(r"(?<![\w-])([a-zåäö]{3,})-([a-zåäö]{3,})(?![\w-])")


def _hyphen_joined_hits(text: str) -> list[tuple[int, int, str, dict | None]]:
    """Facility words written with a hyphen inside a compound: the compound read as the word written whole
    ("Tervakadulta lähin polttoaine-asema" is polttoaineasema, the fuel category; v14-sd-12 had asked for the
    kind). Only where the joined word is itself a facility word, so a hyphen the lexicon lists stays as it is."""
    out = []
    for m in _HYPHENED.finditer(text):
        joined = m.group(1) + m.group(2)
        out += [(m.start(), m.end(), c, t) for rx, c, t in _COMPILED if rx.fullmatch(joined)]
    return out


def category_terms(text: str) -> list[CategoryTerm]:
    """Facility words in ``text``, longest match first at each place, in text order; a
    lower-case word within two letters of a common facility word counts as that word."""
    hits = [(m.start(), m.end(), c, t) for rx, c, t in _COMPILED for m in rx.finditer(text)]
    hits += _hyphen_joined_hits(text)
    for m in re.finditer(r"(?<![\w-])[a-zåäö]{5,}(?![\w-])", text):
        if any(s <= m.start() < e for s, e, _, _ in hits):
            continue
        word = _fuzzy_word(m.group(0))
        if word:
            hits += [(m.start(), m.end(), c, t) for rx, c, t in _COMPILED if rx.fullmatch(word)]
    out: list[CategoryTerm] = []
    for s, e, c, t in sorted(hits, key=lambda h: (-(h[1] - h[0]), h[0])):
        if all(e <= o.start or s >= o.end for o in out):
            word = text[s:e]
            if re.match(r"charge ", word, re.I):
                word = "charging points"
            elif not any(rx.fullmatch(word) for rx, _, _ in _COMPILED):
                word = _fuzzy_word(word) or word   # the word as it is spelt
            out.append(CategoryTerm(s, e, word, c, tuple(sorted((t or {}).items()))))
    return sorted(out, key=lambda o: o.start)


#: facilities planners ask about that the city model has no category for: the answer says no category
#: holds them (never "the data has none": the map may tag them), never the nearest thing that has one
UNCATEGORISED = re.compile(r"(?<!\w)(?:" + lexicon.uncategorised_pattern() + r")(?!\w)", re.I)


def uncategorised_terms(text: str) -> list[tuple[int, int, str]]:
    """(start, end, word) of facility words the data has no category for."""
    return [(m.start(), m.end(), m.group(0)) for m in UNCATEGORISED.finditer(text)]


def matches_tags(tags: dict[str, str], term_tags: dict[str, tuple[str, ...] | None]) -> bool:
    """True when a POI's OSM ``tags`` fit a term's filter (any key may match)."""
    if not term_tags:
        return True
    return any((tags.get(k) and (vals is None or tags.get(k) in vals)) for k, vals in term_tags.items())


# ---------------------------------------------------------------------- money
#: vulgar fractions after (or instead of) a whole number: "1½ million", "¾ M€"
_SIGNS = {k: float(v) for k, v in lexicon.load("measures")["fraction_signs"].items()}
_NUM = r"((?:\d+ ?)?[" + "".join(_SIGNS) + r"]|\d{1,3}(?:[  ]\d{3})+|\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:[.,]\d+)?)"
_MONEY = lexicon.money_words()
_MILLION = "(?:" + _MONEY["million"] + ")"
_THOUSAND = "(?:" + _MONEY["thousand"] + ")"
_EURO = "(?:" + _MONEY["euro"] + ")"
#: amounts in words: "a million", "half a million", "a quarter of a million", "two and a half million",
#: "three hundred thousand"
_WORD_VALUES = _MONEY["word_values"]
_WORD_NUM = r"\b(?:(?:" + "|".join(sorted((k for k in _WORD_VALUES if " " not in k), key=len, reverse=True)) \
    + r")(?: and a half)?|half a|a half|(?:a )?quarter of a|three quarters of a)"
MONEY = re.compile(
    r"(?:(?P<pre>€|eur|euros?)\s*" + _NUM.replace("(", "(?P<num0>", 1)
    + r"\s*(?P<pre_mult>" + _MILLION + "|" + _THOUSAND + r")?(?!\w)"
    r"|" + _NUM.replace("(", "(?P<num>", 1) + r"\s*(?P<mult>" + _MILLION + "|" + _THOUSAND + r")\s*(?P<cur>" + _EURO
    + r"|k€)?(?!\w)"
    r"|" + _NUM.replace("(", "(?P<num2>", 1) + r"\s*(?P<cur2>€|eur|euros?|euro(?:a|n|lla))(?!\w)"
    r"|(?P<words>" + _WORD_NUM + r")(?:\s+|-)"   # "two-million-euro budget"
    r"(?P<wmult>million|mil\b|miljoona(?:a)?\b|hundred (?:thousand|grand|k)|thousand|tuhatta|grand)"
    r"(?:\s+and a half(?!\s+(?!(?:€|eur|euros?)\b)\w))?(?:(?:\s*|-)(?:€|eur|euros?|euro(?:a|n|lla))(?!\w))?)", re.I)
_BUDGET_CUE = re.compile(r"\b(?:" + _MONEY["budget_cue"] + r")\b", re.I)


@dataclass(frozen=True)
class Money:
    start: int
    end: int
    written: str
    keur: float


def _to_float(s: str) -> float:
    s = s.replace(" ", "").replace(" ", "").replace(" ", "")
    if s[-1:] in _SIGNS:   # "1½" → 1.5
        return float(s[:-1] or 0) + _SIGNS[s[-1]]
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+", s):
        return float(s.replace(",", ""))
    return float(s.replace(",", "."))


def _words_keur(words: str, mult: str, written: str) -> float:
    value = _WORD_VALUES.get(" ".join(words.casefold().replace(" and a half", "").split()), 1)
    if re.search(r"\band a half\b", written, re.I):   # "two and a half million", "a million and a half"
        value += 0.5
    unit = mult.casefold()
    scale = 1000.0 if unit.startswith("mil") else 100.0 if unit.startswith("hundred") else 1.0
    return round(value * scale, 3)


#: an amount in number words with a scale or a currency: "seven hundred and fifty thousand euros",
#: "viisisataa tuhatta euroa", "two hundred thousand"
WORD_MONEY = re.compile(r"(?<![\w-])(?P<n>" + lexicon.number_words_pattern() + r")\s*(?:(?P<scale>" + _MILLION + "|"
                        + _THOUSAND + r")(?!\w)\s*)?(?P<cur>€|eur(?:o|os|oa)?\b)?", re.I)


def _word_money(text: str) -> list[Money]:
    out = []
    for m in WORD_MONEY.finditer(text):
        value = lexicon.word_number(m.group("n"))
        scale = (m.group("scale") or "").strip()
        if value is None or not (scale or m.group("cur")) or (scale.lower() in ("m", "k") and not m.group("cur")):
            continue   # a number in words with no money word is a count; "two hundred m" is metres
        factor = 1000.0 if scale and re.fullmatch(_MILLION, scale, re.I) else 1.0 if scale else 0.001
        out.append(Money(m.start(), m.end(), m.group(0).strip(), round(value * factor, 3)))
    return out


def _digit_words() -> str:
    """Regex (no groups) of one digit in words, English or Finnish ("five", "viisi", "zero")."""
    units = lexicon.load("numbers")["units"]
    words = [w for lang in ("en", "fi") for w, v in units[lang].items() if 0 <= v <= 9]
    return "|".join(sorted(words, key=len, reverse=True))


#: a decimal amount in words before a scale: "one point five million", "kaksi ja puoli miljoonaa",
#: "three and a quarter million euros" (the words are lexicon data: measures.json, money)
_DECIMAL_WORD_MONEY = re.compile(
    r"(?<![\w-])(?P<n>" + lexicon.number_words_pattern() + r")\s+(?:(?:" + _MONEY["decimal_point"]
    + r")\s+(?P<digits>(?:(?:" + _digit_words() + r")(?:\s+|-))+)|(?P<part>"
    + "|".join(sorted(_MONEY["decimal_parts"], key=len, reverse=True)) + r")\s+)(?P<scale>"
    + "|".join(sorted(_MONEY["decimal_scales"], key=len, reverse=True))
    + r")(?!\w)(?:\s*(?:€|eur(?:o|os|oa)?\b))?", re.I)
#: "point" / "pilkku" right before an amount: a decimal the reader could not read in full
_DECIMAL_LEFT = re.compile(r"\b(?:" + _MONEY["decimal_point"] + r")\s+$", re.I)


def _decimal_word_money(text: str) -> list[Money]:
    """Decimal amounts in words ("one point five million euros" → 1500 k€, "puolitoista" aside,
    "kaksi ja puoli miljoonaa" → 2500 k€)."""
    digit = lexicon.load("numbers")["units"]
    digits = {w: v for lang in ("en", "fi") for w, v in digit[lang].items() if 0 <= v <= 9}
    parts = {k.casefold(): v for k, v in _MONEY["decimal_parts"].items()}
    scales = {k.casefold(): v for k, v in _MONEY["decimal_scales"].items()}
    out = []
    for m in _DECIMAL_WORD_MONEY.finditer(text):
        whole = lexicon.word_number(m.group("n"))
        if whole is None:
            continue
        if m.group("digits"):
            frac = "".join(str(digits[w.casefold()]) for w in re.split(r"[\s-]+", m.group("digits").strip()))
            value = float(f"{int(whole)}.{frac}")
        else:
            value = whole + parts[" ".join(m.group("part").casefold().split())]
        out.append(Money(m.start(), m.end(), m.group(0).strip(), round(value * scales[m.group("scale").casefold()], 3)))
    return out


#: words that put a distance right before or after a number in "m": "within 100 m", "100 m of X"
_DISTANCE_BEFORE = re.compile(r"\b(?:within|inside|under|beyond|radius(?:\s+of)?|(?:closer|nearer|further|farther)"
                              r"\s+than|at\s+(?:least|most))\s*$", re.I)
_DISTANCE_AFTER = re.compile(r"\s*(?:of|from|around|away|radius|buffer)\b", re.I)


def _metres_here(text: str, start: int, end: int) -> bool:
    """A lower-case "m" after a number that a distance word stands next to is metres, not millions."""
    return bool(_DISTANCE_BEFORE.search(text[:start]) or _DISTANCE_AFTER.match(text[end:]))


def money_amounts(text: str) -> list[Money]:
    """Amounts of money in ``text`` in k€: "€1.2 million" → 1200, "250 000 euros" → 250,
    "2 M€" → 2000, "300k" / "300 k€" / "400 grand" → 300 / 400, "EUR 700,000" → 700,
    "0,4 M€" → 400, "half a million" → 500,
    "a quarter of a million" → 250. A bare number counts only after "budget" ("budget 500" → 500 k€, the
    tools' unit). "500 m" stays a distance."""
    out: list[Money] = []
    for m in MONEY.finditer(text):
        g = m.groupdict()
        if g["words"]:
            if re.match(r"\s+(?:people|residents|inhabitants|visitors|users|trips|cars|vehicles)\b", text[m.end():], re.I):
                continue   # "a million residents" is not money
            out.append(Money(m.start(), m.end(), m.group(0).strip(), _words_keur(g["words"], g["wmult"], m.group(0))))
            continue
        num = next(v for k, v in g.items() if k in ("num0", "num", "num2") and v)
        mult = (g["pre_mult"] or g["mult"] or "").strip()
        value = _to_float(num)
        if re.fullmatch(_MILLION, mult, re.I):
            # "500 m" is metres; "0.3M", "2M" (a capital M on a small number, or under a metre) is money
            if mult.lower() == "m" and not (g["pre"] or g["cur"] or _BUDGET_CUE.search(text[max(0, m.start() - 30):m.start()])
                                            or (mult == "M" and value < 100) or value < 1):
                continue
            if mult == "m" and not (g["pre"] or g["cur"]) and _metres_here(text, m.start(), m.end()):
                continue   # "with 800k within 100 m of Kiasma": the "with" before is the money's, "100 m" a distance
            value *= 1000.0
        elif re.fullmatch(_THOUSAND, mult, re.I):
            if mult.lower() == "k" and not (g["pre"] or g["cur"]) and re.match(r"\s*m\b", text[m.end():]):
                continue
        else:   # plain euros; "450.000 €" writes the thousands with dots
            value = (float(num.replace(".", "")) if re.fullmatch(r"\d{1,3}(?:\.\d{3})+", num) else value) / 1000.0
        out.append(Money(m.start(), m.end(), m.group(0).strip(), round(value, 3)))
    for w in _word_money(text):   # "seven hundred and fifty thousand euros": the whole number, not "fifty thousand"
        if all(w.end - w.start > o.end - o.start for o in out if o.start < w.end and w.start < o.end):
            out = [o for o in out if not (o.start < w.end and w.start < o.end)] + [w]
    for d in _decimal_word_money(text):   # "one point five million": the whole amount, never "five million"
        out = [o for o in out if not (o.start < d.end and d.start < o.end)] + [d]
    # an amount right after "point" that was not read as a decimal is unsure: left out, so the
    # reader asks for the money rather than plan with a wrong amount
    out = [o for o in out if not _DECIMAL_LEFT.search(text[max(0, o.start - 12):o.start])]
    bare = re.search(r"budget(?: of| is|:)?\s*" + _NUM.replace("(", "(?P<n>", 1) + r"(?![\d\w%])", text, re.I)
    if bare and not any(o.start <= bare.start("n") < o.end for o in out):
        out.append(Money(bare.start("n"), bare.end("n"), bare.group("n"), _to_float(bare.group("n"))))
    return sorted(out, key=lambda o: o.start)


__all__ = ["CategoryTerm", "Money", "TERMS", "category_terms", "matches_tags", "money_amounts"]
