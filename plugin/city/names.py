"""Place names as planners write them: one resolver for the ask agent, the Planner dock and
the instruction interpreter.

Every name the data has is indexed: streets (drivable or not), POIs, buildings, named areas
(parks, squares, land use) and places (``place=*`` nodes: districts, neighbourhoods), each with
all its OSM names — ``name``, ``name:*``, ``alt_name``, ``old_name``, ``loc_name``,
``short_name``, ``official_name``, ``brand``, ``operator`` — plus the names of the whole
bundled region (``REGION_ALIASES``). ``operator`` stays a name although it sometimes names who runs a
place rather than the place (HKL for a metro station): a chain's outlets often carry their chain only there
(Neste, Alko, Unicafe in the bundled data), and planners name them by it. Matching works on a normal form (case, diacritics ä→a,
punctuation → space) and ranks candidates: exact name, exact alias, the query as whole words
of a name ("Teboil" → "Teboil Karhula Tikankatu"), a name inside the query, then fuzzy
(difflib's ratio on the whole name and on word windows of it, for misspellings and Finnish
case endings: "Stokman", "Piispan Puutarhaa"). difflib rather than rapidfuzz: no new compiled
dependency for a plugin that installs into QGIS's own Python, and a region has a few thousand
names, so a query costs milliseconds.

Areas: a named polygon is its own area; a ``place`` node's area is its Voronoi cell among the
region's place nodes (clipped to the region), marked ``approximate``; a street's area is a
``STREET_BUFFER_M`` corridor (plus features whose ``addr:street`` is the street). The whole
region is an area under its aliases.

Ids agree with the tools (``plugin.agent.tools.places``): a feature that is one of the City's
POIs is ``poi:<index>``, a street ``street:<name>``; others are ``osm:<kind>:<osm id>``.
``poi_tags`` gives every City POI its OSM tags (amenity, shop, leisure, office, addr:street,
brand, operator …), which narrow a category to what the planner named (pharmacy → clinic with
``amenity=pharmacy``).
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Container, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .model import City

NAME_KEYS = re.compile(r"^(?:name:[\w-]+|alt_name(?::[\w-]+)?|old_name(?::[\w-]+)?|loc_name|short_name"
                       r"|official_name(?::[\w-]+)?|brand|operator)$")
TAG_KEYS = ("amenity", "shop", "leisure", "office", "tourism", "healthcare", "landuse", "natural", "building",
            "place", "highway", "addr:street", "brand", "operator")
#: the bundled extracts are named after more than their file name (see city.regions)
REGION_ALIASES: dict[str, tuple[str, ...]] = {"helsinki": ("Helsinki", "Helsingfors", "central Helsinki"),
                                              "kotka": ("Kotka", "Karhula")}
STREET_BUFFER_M = 40.0
KIND_ORDER = {"poi": 0, "street": 1, "place": 2, "building": 3, "area": 4, "region": 5}
FUZZY_MIN = 0.82          # difflib ratio for a fuzzy match (one or two wrong letters in a 6–10 letter name)
SUGGEST_MIN = 0.6         # ratio for a "did you mean" suggestion
WORD_MIN = 0.6            # each word of a misspelt part of a longer name ("zoo" is no misspelling of "oy")


def normalise(text: str) -> str:
    """Case, diacritics and punctuation folded: 'Lönnrotinkatu 5-7!' -> 'lonnrotinkatu 5 7'."""
    t = unicodedata.normalize("NFKD", str(text))
    t = "".join(c for c in t if not unicodedata.combining(c)).casefold()
    return " ".join(re.sub(r"[^\w]+", " ", t).split())


@dataclass(frozen=True)
class NamedFeature:
    id: str
    name: str
    kind: str                         # poi | street | place | building | area | region
    category: str                     # City POI category, 'street', the place type, or ''
    x: float
    y: float
    aliases: tuple[str, ...] = ()
    tags: tuple[tuple[str, str], ...] = ()
    area: Any = field(default=None, compare=False, hash=False, repr=False)   # shapely polygon or None
    approximate: bool = False         # the area is estimated (a place node's Voronoi cell)

    def tag(self, key: str) -> str:
        return dict(self.tags).get(key, "")

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "kind": self.kind, "category": self.category,
                "x": round(self.x, 1), "y": round(self.y, 1)}


@dataclass(frozen=True)
class Match:
    feature: NamedFeature
    score: float        # 0..100
    how: str            # exact | alias | words | contains | fuzzy
    matched: str        # the name or alias that matched


@dataclass
class Resolution:
    """The outcome of resolving one name: ``status`` found | ambiguous | missing."""
    query: str
    status: str
    feature: NamedFeature | None
    candidates: list[Match]
    message: str


class NameIndex:
    """All names of one region; ``lookup`` ranks, ``resolve`` decides, ``scan`` finds names in text."""

    def __init__(self, region: str, features: list[NamedFeature], poi_tags: dict[str, dict[str, str]] | None = None):
        self.region = region
        self.features = features
        self.poi_tags = poi_tags or {}
        self._names: list[tuple[str, str, NamedFeature]] = []   # (normal form, written form, feature)
        for f in features:
            for written in dict.fromkeys((f.name, *f.aliases)):
                n = normalise(written)
                if n:
                    self._names.append((n, written, f))
        self._names += _parenthesis_heads(features)
        self._by_norm: dict[str, list[tuple[str, NamedFeature]]] = {}
        for n, w, f in self._names:
            self._by_norm.setdefault(n, []).append((w, f))
        self._region_rest = _region_rests(region, self._names)
        self._exact_only = _short_forms_held(features)

    def is_name(self, text: str) -> bool:
        """True when ``text`` is exactly (normalised) a name or alias in the data."""
        return normalise(text) in self._by_norm

    # ------------------------------------------------------------------ ranking
    def lookup(self, text: str, kinds: Iterable[str] | None = None, limit: int = 5,
               fuzzy_min: float = FUZZY_MIN) -> list[Match]:
        """Ranked candidates for ``text`` (best first, one per feature)."""
        q = normalise(re.sub(r"^\s*the\s+", "", str(text), flags=re.I))
        if not q:
            return []
        allowed = set(kinds) if kinds else None
        best: dict[str, Match] = {}
        qw = q.split()
        # a capitalised hyphen compound is a name's own word even where its parts are generic ("K-Market
        # Karhula" is no "Teboil Karhula Tikankatu": the data has no K-Market there)
        own = {w for tok in HYPHEN_NAME.findall(str(text)) for w in normalise(tok).split()}
        core = [w for w in qw if w not in GENERIC or w in own]
        sm = difflib.SequenceMatcher(None, autojunk=False)
        sm.set_seq2(q)   # difflib caches the second sequence: the query is compared with every name
        for n, written, f in self._names:
            if (allowed and f.kind not in allowed) or (n in self._exact_only and n != q):
                continue   # a street-type short form ("Malmingink.") matches only as written, never as a look-alike
            m = _score(q, qw, core, n, written, f, fuzzy_min, sm)
            if m and (f.id not in best or m.score > best[f.id].score):
                best[f.id] = m
        if not any(m.how in ("exact", "alias") for m in best.values()):
            # "Senate Square": the data's "Helsinki Senate Square" without the region's own name
            for written, f in self._region_rest.get(q, ()):
                if not allowed or f.kind in allowed:
                    best[f.id] = Match(f, 97.0, "alias", written)
        if not any(m.how in ("exact", "alias") for m in best.values()):
            for m in self._case_stem(q, text):
                if (not allowed or m.feature.kind in allowed) and (m.feature.id not in best
                                                                  or m.score > best[m.feature.id].score):
                    best[m.feature.id] = m
        if not best:
            for m in self._case_stem_fuzzy(q, fuzzy_min):
                if not allowed or m.feature.kind in allowed:
                    best[m.feature.id] = m
        # on a tie a feature's own name before another's alias ("Helsingin päärautatiasema": the station
        # building so named, not the node "Helsinki" with it as an alias)
        ranked = sorted(best.values(), key=lambda m: (-m.score, normalise(m.matched) != normalise(m.feature.name),
                                                      KIND_ORDER.get(m.feature.kind, 9), len(m.feature.name), m.feature.id))
        return ranked[:limit]

    def _case_stem(self, q: str, text: str) -> list[Match]:
        """A data name with a Finnish case ending on its last word ("kiasmasta" → Kiasma,
        "ateneumin" → Ateneum): the name without the ending, when that is exactly a data name."""
        stem = self.case_stem(q)
        if stem is None:
            return self._area_form(q)
        return [Match(f, 96.0, "alias", written) for written, f in self._by_norm[stem]]

    def _area_form(self, q: str) -> list[Match]:
        """"Kaisaniemen alueella" / "Kallion alueelle" (in / to the area of X): the district or area X
        in the genitive before "alue" with any case ending — X as the data names it (a genitive -en of a
        name in -i too: "Kaisaniemen" → Kaisaniemi), also misspelt ("Kaisaniemmen alue")."""
        forms = area_genitive_forms(q)
        if not forms:
            return []
        for form in forms:
            hit = [(w, f) for w, f in self._by_norm.get(form, ()) if f.kind in ("place", "area", "region")]
            if hit:
                return [Match(f, 95.0, "alias", w) for w, f in hit]
        return [Match(x.feature, x.score, x.how, x.matched) for x in self._fuzzy_forms(forms, FUZZY_MIN)
                if x.feature.kind in ("place", "area")]

    def _case_stem_fuzzy(self, q: str, fuzzy_min: float) -> list[Match]:
        """A misspelt data name with a Finnish case ending ("Piisamikadun" → Piisaminkatu, "Urbukadulta" →
        Urpukatu): the stem without the ending (each strong grade too) misspelt as a one-word data name is
        that name. Only names sharing the stem's first two letters are compared (a query costs a few
        hundred ratios), and the match ranks below an exact stem's."""

        if " " in q:
            return []
        return self._fuzzy_forms(case_stems(q, min_letters=5), fuzzy_min)

    def _fuzzy_forms(self, stems: list[str], fuzzy_min: float) -> list[Match]:
        """One-word data names that a stem misspells (see ``_case_stem_fuzzy``), ranked below an exact stem's."""
        best: dict[str, Match] = {}
        sm = difflib.SequenceMatcher(None, autojunk=False)
        for stem in dict.fromkeys(stems):
            sm.set_seq2(stem)
            for n, written, f in self._names:
                if n[:2] != stem[:2] or " " in n or abs(len(n) - len(stem)) > 2 or f.kind == "region" \
                        or n in self._exact_only:
                    continue
                m = _score(stem, [stem], [stem], n, written, f, max(fuzzy_min, 0.86), sm)
                if m is not None and m.how == "fuzzy" and (f.id not in best or m.score - 2.0 > best[f.id].score):
                    best[f.id] = Match(f, m.score - 2.0, "fuzzy", written)
        return list(best.values())

    def case_stem(self, text: str, linking_vowel: bool = False) -> str | None:
        """The data name (normal form) that ``text`` is with a Finnish case ending off its last word
        ("Kiasmasta" → "kiasma", "Kluuvissa" → "kluuvi"), None when no such form is a data name. The
        one place Finnish stems are read (lookup and the instruction resolver both call it).
        ``linking_vowel``: also a linking "i" after a consonant left where the ending was cut before
        ("Stockmanni", of "Stockmannista" → "stockmann"), only onto a name the data has as written."""
        q = normalise(text)
        head, _, last = q.rpartition(" ")
        found = finnish_stem(q, self._by_norm)
        if found is not None:
            return found
        head = head + " " if head else ""
        if linking_vowel and re.search(r"[bcdfghjklmnpqrstvwxz]i$", last) and head + last[:-1] in self._by_norm:
            return head + last[:-1]
        return None

    def suggestions(self, text: str, n: int = 3) -> list[str]:
        """Close data names for a name that did not resolve (for 'did you mean …?')."""
        found = self.lookup(text, limit=12, fuzzy_min=SUGGEST_MIN)
        return list(dict.fromkeys(m.feature.name for m in found if m.feature.kind != "region"))[:n]

    def resolve(self, text: str, kinds: Iterable[str] | None = None) -> Resolution:
        """One feature for ``text``, or why not: ambiguous (close candidates with different
        names) or missing ("X is not in the <region> data — did you mean …?")."""
        ranked = self.lookup(text, kinds, limit=8)
        if not ranked:
            sugg = self.suggestions(text)
            hint = f" — did you mean {_or(sugg)}?" if sugg else ""
            return Resolution(text, "missing", None, [], f"'{text}' is not in the {self.region} data{hint or '.'}")
        top = ranked[0]
        rivals = [m for m in ranked[1:] if m.score >= top.score - 3 and normalise(m.feature.name) != normalise(top.feature.name)
                  and m.feature.kind != "region"]
        if top.how in ("exact", "alias") or not rivals:
            return Resolution(text, "found", top.feature, ranked, f"'{text}' is {top.feature.name}")
        names = list(dict.fromkeys(m.feature.name for m in [top, *rivals]))
        if top.how == "fuzzy":   # several near-misspellings: the name itself is not in the data
            return Resolution(text, "missing", None, ranked,
                              f"'{text}' is not in the {self.region} data — did you mean {_or(names[:3])}?")
        return Resolution(text, "ambiguous", None, ranked,
                          f"'{text}' matches several places in the {self.region} data: {_or(names[:6])}")

    # ------------------------------------------------------------------ free text
    def scan(self, text: str, max_words: int = 6, fuzzy: bool = True) -> list[tuple[int, int, Match]]:
        """Names in free text: (start, end, match) by character offsets, without overlaps; the
        span covering most of the text wins, then the better match. A span starts and ends on a
        non-generic word and does not cross punctuation; inexact matching (aliases, words of a
        longer name, misspellings) only on spans that look like names (capitalised or
        non-English words), so plain words never turn into places."""
        words = [(m.start(), m.end()) for m in re.finditer(r"\w[\w'’.-]*", text)]
        spans: list[tuple[int, float, int, int, Match]] = []
        for i in range(len(words)):
            # "land-use" is two generic words: a span starting so is only an exact data name that holds
            # more, capitalised ("Bank bar and bistro" in "Of Bank bar and bistro, Luckan and Kiasma")
            exact_only = all(w in GENERIC for w in normalise(text[words[i][0]:words[i][1]]).split())
            if exact_only and not text[words[i][0]].isupper():
                continue
            stop = False
            for k in range(1, min(max_words, len(words) - i) + 1):
                s, e = words[i][0], words[i + k - 1][1]
                joins = _joins_name(text[words[i + k - 2][1]:words[i + k - 1][0]]) if k > 1 else True
                if joins is None:
                    break   # punctuation between words ends a name
                # a sentence stop ends a name ("Helsinki. station plan": the region, then the task word — not
                # the alias "Helsinki station"); only a data name written with the dot holds one ("St. George")
                stop = stop or (k > 1 and text[words[i + k - 2][1] - 1] == ".")
                exact_only = exact_only or not joins or stop
                phrase = _phrase(text, s, e)
                n = normalise(phrase)
                hit = self._by_norm.get(n)
                if not n or (n in GENERIC and not _generic_said_as_name(text, s, n, hit)) \
                        or (all(w in GENERIC for w in n.split()) and n not in self._by_norm) \
                        or (stop and not any("." in w for w, _ in hit or ())):
                    continue
                if not hit and (exact_only or (n.split()[-1] in GENERIC and n not in self._region_rest)):
                    continue   # across a comma, or from a generic word, only an exact data name ("Senate Square" may end so)
                if hit and not _alias_may_match(phrase, n, hit, text[:s]):
                    continue
                if hit:
                    # a region's own name is the region, not a feature called so ("Helsinki" the place node);
                    # then a feature named so before one with it as an alias ("Helsingin päärautatieasema": the
                    # station building, not the node named "Helsinki")
                    f = min((f for _, f in hit), key=lambda f: (f.kind != "region", normalise(f.name) != n,
                                                                KIND_ORDER.get(f.kind, 9), f.id))
                    spans.append((len(n), 100.0, s, s + len(phrase), Match(f, 100.0, "exact", hit[0][0])))
                elif fuzzy and re.search(r"(?:^|\s)[A-ZÅÄÖ]", phrase) and not n.split()[-1].isdigit() and len(n) >= 5 \
                        and any(len(w) > 2 and w not in GENERIC for w in n.split()) \
                        and not any(w in CONNECTORS for w in n.split()):
                    cands = self.lookup(phrase, limit=2, fuzzy_min=0.86)
                    if cands and cands[0].how != "contains" and cands[0].feature.kind != "region" and \
                            (len(cands) == 1 or cands[0].score > cands[1].score or cands[0].how != "fuzzy"
                             or cands[0].matched == cands[1].matched):   # one name, ranked by whose own it is
                        spans.append((len(n), cands[0].score, s, s + len(phrase), cands[0]))
        exact = [(s, e, m.feature.id) for _, sc, s, e, m in spans if sc >= 100]
        # a longer inexact span around an exact name of the same feature is that feature, whole
        # ("Hotel Torni" around the alias "Torni" of Hotelli Torni: not "Hotel" as Hotel Finn plus "Torni")
        def around_exact(r: tuple) -> bool:
            return r[1] < 100 and any(r[2] <= s and e <= r[3] and f == r[4].feature.id for s, e, f in exact)

        def whole(r: tuple) -> bool:
            return r[4].how == "fuzzy" and len(normalise(text[r[2]:r[3]]).split()) == len(normalise(r[4].feature.name).split())

        spans = [(r[0], 100.0, *r[2:]) if around_exact(r) and whole(r) else r for r in spans
                 if not around_exact(r) or whole(r)]
        out: list[tuple[int, int, Match]] = []
        for _, _, s, e, m in sorted(spans, key=lambda r: (-r[0], -r[1], r[2])):
            if all(e <= s2 or s >= e2 for s2, e2, _ in out):
                out.append((s, e, m))
        return sorted(out, key=lambda r: r[0])

    # ------------------------------------------------------------------ areas
    def area_of(self, f: NamedFeature) -> Any:
        """The polygon a name stands for (see module docstring); None for a plain point."""
        return f.area

    def within_area(self, f: NamedFeature, xy: np.ndarray, ids: list[str] | None = None) -> np.ndarray:
        """Which points (n × 2, region CRS) lie in the area ``f`` names; a street also takes
        features (by ``ids``) whose addr:street is the street (a corner café in the corridor is
        on both streets)."""
        import shapely

        if f.kind == "region":
            return np.ones(len(xy), dtype=bool)
        inside = np.zeros(len(xy), dtype=bool)
        if f.area is not None and len(xy):
            inside = shapely.contains_xy(f.area, xy[:, 0], xy[:, 1])
        if f.kind == "street" and ids is not None:
            street = normalise(f.name)
            inside |= np.array([normalise(self.poi_tags.get(i, {}).get("addr:street", "")) == street for i in ids])
        return inside


_ENGLISH = set("""a an the to from in of and or near nearest closest close by road how far far what which where
is are any there me my we our us you your for with within then also please tell show give find list count
many much much distance route way drive walk get go km m metres meters kilometres budget euros euro k plan
land use road roads street streets station stations charger chargers charging ev car park parks parking
school schools hospital clinic pharmacy shop shops cafe restaurant bank office offices kindergarten library
cinema theatre gym playground fuel petrol gas do does did can could would should will it its that this those
these if else otherwise not no yes than more less over under about around between compare score evaluate
allocation construction upgrades new build put place site sites overview summary region data
finland""".split())


#: words that do not name a place on their own (facility nouns, plain English)
#: "K-Market", "R-kioski": a capitalised word joined by hyphens
HYPHEN_NAME = re.compile(r"\b[A-ZÅÄÖ]\w*(?:-\w+)+")
GENERIC = _ENGLISH | set("""school schools koulu park station stop hall building centre center church museum square
mall shop store parking garage hospital clinic campus house tower kindergarten daycare market on at stadium
central main old new big public nice anything something quickest shortest fastest car foot best good""".split())


def _generic_said_as_name(text: str, s: int, n: str, hit: Any) -> bool:
    """"is Stadium or Zara closer to Ooster?", "theatres within 500 m of Stadium": a landmark word that is
    exactly a data name (the shop "Stadium"), written capitalised inside a sentence, is that name; at a
    sentence's start, lowercase, or an ordinary English word ("Yes") it stays a word."""
    before = text[:s].rstrip()
    fronted = text[s + len(n):].lstrip().startswith(":")   # "Stadium: nearest pharmacy?"
    return bool(hit) and n not in _ENGLISH and text[s:s + 1].isupper() \
        and (fronted or (bool(before) and before[-1] not in ".!?:;\n\"'(-–—•*"))


#: words that join two names in a request; a misspelt or partial name never spans them
CONNECTORS = {"and", "then", "from", "to", "or", "vs", "with", "near", "of", "in", "on", "at", "by", "is", "than"}


#: words after which a name must stand ("from espa to …", "near kiasma")
NAME_SLOT = re.compile(r"\b(?:from|to|near|at|of|by|between|beside|around|past|via|and)\s+(?:the\s+)?$", re.I)


def _region_rests(region: str, names: list[tuple[str, str, NamedFeature]]) -> dict[str, list[tuple[str, NamedFeature]]]:
    """The names and aliases that start with the region's own name ("Helsinki Senate Square", "Helsinki
    Music centre", "Helsingin keskustakirjasto Oodi"), by their normal form without it ("senate square"):
    said without the city, they are still that feature. Only rests of two or more words, not all
    generic ("Helsinki Contemporary" is no "Contemporary"), and not themselves a data name."""
    heads = {normalise(a)[:6] for a in REGION_ALIASES.get(region, (region,)) + (region,) if len(normalise(a)) >= 5}
    by_norm = {n for n, _, _ in names}
    out: dict[str, list[tuple[str, NamedFeature]]] = {}
    for n, written, f in names:
        first, _, rest = n.partition(" ")
        if f.kind == "region" or not rest or first[:6] not in heads or rest in by_norm or len(rest.split()) < 2 \
                or all(w in GENERIC for w in rest.split()):
            continue
        if all(g.id != f.id for _, g in out.get(rest, [])):
            out.setdefault(rest, []).append((written, f))
    return out


def strong_grades(stem: str) -> list[str]:
    """The stem with its last consonant (cluster) before the final vowel in the strong grade, each way
    it may have weakened ("Urpukadulta" → "urpukatu"; the (weak, strong) pairs are the lexicon's
    ``name_gradation``); only a form that is exactly a data name is ever taken (``case_stem``)."""
    from .lexicon import name_gradation

    m = re.search(r"([bcdfghjklmnpqrstvwxz]+)([aeiouyäö]+)$", stem)
    if not m:
        return []
    cons, tail = m.group(1), m.group(2)
    return [stem[: m.start()] + cons[: -len(w)] + s + tail for w, s in name_gradation() if cons.endswith(w)]


def _weak_grades(word: str) -> list[str]:
    """The word with the consonant (cluster) of its last syllable in the weak grade, each way it may
    have strengthened ("altas" → "allas", "renkas" → "rengas"): the nominative of an -as / -es name."""
    from .lexicon import name_gradation

    m = re.search(r"([bcdfghjklmnpqrstvwxz]+)([aeiouyäö]+[bcdfghjklmnpqrstvwxz])$", word)
    if not m:
        return []
    cons, tail = m.group(1), m.group(2)
    return [word[: m.start()] + cons[: -len(s)] + w + tail for w, s in name_gradation() if cons.endswith(s)]


def case_stems(q: str, *, min_letters: int = 3) -> list[str]:
    """``q`` (a normal form) with each Finnish case ending cut off its last word, leaving a stem of
    ``min_letters`` or more, each stem then in its strong grades ("piisamikadulta" → "piisamikadu",
    "piisamikatu"); the words before the last are kept. Candidates only, in the lexicon's ending order:
    the caller takes one that is a data name (``finnish_stem``) or compares them by likeness (a misspelt
    name). The one place case endings are cut from a name."""
    from .lexicon import name_case_endings

    head, _, last = q.rpartition(" ")
    head = head + " " if head else ""
    out: list[str] = []
    for end in name_case_endings():
        if last.endswith(end) and len(last) - len(end) >= min_letters:
            stem = last[: -len(end)]
            out += [head + g for g in (stem, *strong_grades(stem))]
    return list(dict.fromkeys(out))


def area_genitive_forms(q: str) -> list[str]:
    """The nominatives X may be in "Xn alue…" (the area of X, "Kaisaniemen alueella"): X, its -i form
    ("kaisanieme" → "kaisaniemi") and its strong grades; [] when ``q`` is not of that shape."""
    m = re.fullmatch(r"(\S{3,}?)n alue\w*", q)
    if m is None:
        return []
    head = m.group(1)
    return [head, *([head[:-1] + "i"] if head.endswith("e") else []), *strong_grades(head)]


def finnish_stem(q: str, names: Container[str]) -> str | None:
    """The name among ``names`` (normal forms) that ``q`` (a normal form) is with a Finnish case ending
    off its last word: the stem in each consonant grade, then the lexicon's stem forms ("kiasmasta" →
    "kiasma", "helsingin" → "helsinki", "vainamoiselta" → "vainamoinen"); None when none is a name.
    The one Finnish stemmer: place names (``NameIndex.case_stem``) and region names both use it."""

    head, _, last = q.rpartition(" ")
    head = head + " " if head else ""
    # a stem of 4+ letters; of 3 as the last word of a longer name ("Holiday Innistä" → "holiday inn")
    for stem in case_stems(q, min_letters=3 if head else 4):
        if stem in names:
            return stem
    for form in nominatives(last):   # "Väinämöiseltä" → Väinämöinen, "Kolera-altaalta" → Kolera-allas
        if head + form in names:
            return head + form
    return None


def nominatives(word: str) -> list[str]:
    """The nominatives a Finnish word (normal form) may inflect, where its stem differs from the
    nominative: the lexicon's ``name_stem_forms`` after any case ending (or none) is cut
    ("vainamoiselta" → "vainamoinen", "altaalta" → "allas"). Candidates only: ``case_stem`` takes one
    when it is exactly a data name, never by likeness."""
    from .lexicon import name_case_endings, name_stem_forms

    out: list[str] = []
    for end in ("", *name_case_endings()):
        stem = word[: len(word) - len(end)]
        if not word.endswith(end) or len(stem) < 4:
            continue
        for oblique, nominative, weak in name_stem_forms():
            if stem.endswith(oblique) and len(stem) - len(oblique) >= 2:
                base = stem[: len(stem) - len(oblique)] + nominative
                out += [base, *(_weak_grades(base) if weak else ())]
    return list(dict.fromkeys(out))


def _joins_name(gap: str) -> bool | None:
    """What the text between two words does to a name: spaces and hyphens continue it (True); a comma,
    "&" or "/" continues it only for an exact data name that holds it (False: "UniSport, Kluuvi", "Maya Bar &
    Grill", "Reijon Diesel/Bosch Car service", so a list of names is split on the data's names, not on every
    comma or slash); else it ends (None)."""
    if re.fullmatch(r"[\s-]*", gap):
        return True
    return False if re.fullmatch(r"\s*[,&/@]\s*|\s*\(\s*|\)\s*", gap) else None


def _phrase(text: str, s: int, e: int) -> str:
    """The words ``text[s:e]`` as a name is written: no sentence dot at the end, and with the closing
    parenthesis of one it opens ("Base Camp (Nepalese cuisine)")."""
    phrase = text[s:e].rstrip(".")
    return phrase + ")" if phrase.count("(") > phrase.count(")") and text[e:e + 1] == ")" else phrase


def _parenthesis_heads(features: list[NamedFeature]) -> list[tuple[str, str, NamedFeature]]:
    """The part before a parenthesis of a data name ("Base Camp" of "Base Camp (Nepalese cuisine)") as one
    more exact form of that feature, so a planner who leaves the parenthesis out gets that place and not a
    look-alike ("Basecamp", another restaurant's alias); never where the head is some feature's own name
    ("Zio" next to "Zio (Shoe store)") or a generic word."""
    own = {normalise(f.name) for f in features}
    out = []
    for f in features:
        m = re.fullmatch(r"\s*([^()]+?)\s*\([^()]*\)\s*", f.name)
        n = normalise(m.group(1)) if m else ""
        if n and n not in own and not all(w in GENERIC for w in n.split()):
            out.append((n, m.group(1), f))
    return out


def _alias_may_match(written: str, norm: str, hit: list[tuple[str, NamedFeature]], before: str = "") -> bool:
    """An ordinary word never matches an alias: a one-word span that is only some feature's
    alias (no feature's own name) counts only when it stands where a name must stand ("from
    espa") or is written as one — capitalised, and not a two-letter word unless in capitals
    ("road network" is not the POI Verkosto, "Hi, …" not Hei vaan)."""
    if " " in norm or any(normalise(f.name) == norm for _, f in hit):
        return True
    w = written.strip()
    if len(w) <= 2 and not w.isupper():
        return False
    return w[:1].isupper() or bool(NAME_SLOT.search(before))


def _namelike(phrase: str) -> bool:
    ws = re.findall(r"[\w'’-]+", phrase)
    return bool(ws) and any(w[:1].isupper() or normalise(w) not in _ENGLISH for w in ws) \
        and not all(normalise(w) in _ENGLISH for w in ws)


def _or(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _score(q: str, qw: list[str], core: list[str], n: str, written: str, f: NamedFeature, fuzzy_min: float,
           sm: difflib.SequenceMatcher) -> Match | None:
    """How well query ``q`` (words ``qw``, non-generic words ``core``) names ``n``; None if not at all."""
    alias = written != f.name
    if q == n:
        return Match(f, 98.0 if alias else 100.0, "alias" if alias else "exact", written)
    if not core:   # only generic words ("the station"): nothing but the exact name will do
        return None
    nw = n.split()
    if len(core) < len(nw) + len(qw) and set(core) <= set(nw) and f.kind != "region":
        # the query's own words all in the name: "teboil" or "teboil on tikankatu" -> "teboil karhula tikankatu"
        return Match(f, 80.0 + 10.0 * sum(map(len, core)) / len(n.replace(" ", "")), "words", written)
    if len(nw) < len(qw) and _contains_words(qw, nw) and len(n) >= 4 and f.kind != "region" \
            and all(w in GENERIC for w in qw if w not in nw):
        # the name plus generic words: "otsonkallio school" -> "otsonkallio"
        return Match(f, 70.0 + 10.0 * len(n) / len(q), "contains", written)
    if abs(len(q) - len(n)) <= max(3, len(n) // 3):
        sm.set_seq1(n)
        if sm.real_quick_ratio() >= fuzzy_min and sm.quick_ratio() >= fuzzy_min:
            r = sm.ratio()
            if r >= fuzzy_min and (len(qw) != len(nw) or _words_alike(qw, nw)):
                # word for word a misspelling: "finnish national opera" is not "finnish national theatre"
                return Match(f, 60.0 + 30.0 * r, "fuzzy", written)
    if len(qw) < len(nw) and len(q) >= 5:   # a misspelt part of a longer name: "erotaja" ~ "q park erottaja"
        k = len(qw)
        best = 0.0
        for i in range(len(nw) - k + 1):
            sm.set_seq1(" ".join(nw[i:i + k]))
            if sm.real_quick_ratio() >= 0.86 and sm.quick_ratio() >= 0.86 and _words_alike(qw, nw[i:i + k]):
                best = max(best, sm.ratio())
        if best >= max(fuzzy_min, 0.86):
            return Match(f, 50.0 + 30.0 * best * len(q) / len(n), "fuzzy", written)
    return None


def _words_alike(a: list[str], b: list[str]) -> bool:
    """Word by word, each a misspelling of the other: "helsinki zoo" is not "helsinki oy"."""
    return all(difflib.SequenceMatcher(None, x, y, autojunk=False).ratio() >= WORD_MIN for x, y in zip(a, b, strict=False))


def _contains_words(hay: list[str], needle: list[str]) -> bool:
    k = len(needle)
    return any(hay[i:i + k] == needle for i in range(len(hay) - k + 1))


# ---------------------------------------------------------------------- building the index
def _hstore(s: str | None) -> dict[str, str]:
    return {k: v for k, v in re.findall(r'"((?:[^"\\]|\\.)*)"=>"((?:[^"\\]|\\.)*)"', s or "")}


def _aliases(name: str, tags: dict[str, str]) -> tuple[str, ...]:
    out = []
    for k, v in tags.items():
        if NAME_KEYS.match(k):
            out.extend(p.strip() for p in v.split(";") if p.strip())
    return tuple(a for a in dict.fromkeys(out) if a != name)


def _tag_parts(name: str, tags: dict[str, str], geom: Any, pois: Any, pxy: np.ndarray, poi_ids: list[str],
               poi_tags: dict[str, dict[str, str]]) -> None:
    """A named polygon the City made several POIs of (Kumparepuisto, leisure=park, is three points):
    each POI of that name inside it that has no tags of its own gets the polygon's, so a park is a
    park ("how many parks" counts it) and not only a green."""
    import shapely

    if not name or geom.geom_type not in ("Polygon", "MultiPolygon"):
        return
    same = np.flatnonzero(pois["name"].fillna("").astype(str).map(normalise).to_numpy() == normalise(name)) \
        if len(pois) else np.array([], dtype=int)
    inside = shapely.make_valid(geom)   # OSM polygons are often invalid (a buffer of one can drop a part)
    for j in same:
        if shapely.distance(inside, shapely.Point(pxy[j])) <= 1.0:   # tags a part has of its own win
            poi_tags[poi_ids[j]] = {**{k: v for k, v in tags.items() if k in TAG_KEYS}, **poi_tags.get(poi_ids[j], {})}


def build_name_index(city: City, source: str | Path | None = None) -> NameIndex:
    """The NameIndex of ``city``; with its OSM file (``source``) every OSM name and tag is
    indexed, without one (a GeoPackage or layers) the City's POI and street names."""
    import shapely
    from scipy.spatial import cKDTree

    feats: list[NamedFeature] = []
    pois = city.pois
    pxy = np.c_[pois.geometry.x.to_numpy(), pois.geometry.y.to_numpy()] if len(pois) else np.zeros((0, 2))
    poi_ids = [f"poi:{i}" for i in pois.index]
    poi_tags: dict[str, dict[str, str]] = {}
    poi_alias: dict[str, tuple[str, ...]] = {}
    extra: list[tuple[str, str, dict[str, str], Any, str]] = []   # (kind, name, tags, geometry, osm id)
    street_alias: dict[str, set[str]] = {}
    street_geom: dict[str, list[Any]] = {}
    path = Path(source) if source else None
    if path is not None and path.suffix.lower() in (".pbf", ".osm"):
        layers = _read_osm_names(path, city.crs)
        tree = cKDTree(pxy) if len(pxy) else None
        for kind, name, tags, geom, oid in layers:
            if kind == "street":
                street_alias.setdefault(name, set()).update(_aliases(name, tags))
                street_geom.setdefault(name, []).append(geom)
                continue
            pt = geom.representative_point() if geom.geom_type != "Point" else geom
            _tag_parts(name, tags, geom, pois, pxy, poi_ids, poi_tags)
            if tree is not None:
                d, j = tree.query([pt.x, pt.y])
                if d < 0.5:   # the same feature the City made a POI of
                    pid = poi_ids[j]
                    poi_tags[pid] = {**poi_tags.get(pid, {}), **{k: v for k, v in tags.items() if k in TAG_KEYS}}
                    poi_alias[pid] = (_aliases(str(pois["name"].iloc[j] or ""), tags)
                                      + ((name,) if name and name != pois["name"].iloc[j] else ()))
                    continue
            if name:
                extra.append((kind, name, tags, geom, oid))
    for pid, (_i, r) in zip(poi_ids, pois.iterrows(), strict=False):
        if r["name"]:
            feats.append(NamedFeature(pid, str(r["name"]), "poi", str(r["category"]), float(r.geometry.x),
                                      float(r.geometry.y), poi_alias.get(pid, ()), tuple(sorted(poi_tags.get(pid, {}).items()))))
    # streets: the City's drivable names plus any other named highway (footways, squares)
    for name, geom in zip(city.edges["name"], city.edges.geometry, strict=False):
        if name:
            street_geom.setdefault(str(name), []).append(geom)
    short = _street_short_aliases(list(street_geom), {normalise(n) for _, n, _, _, _ in extra if n})
    for name, geoms in street_geom.items():
        line = shapely.union_all(geoms)
        p = line.interpolate(0.5, normalized=True) if line.geom_type in ("LineString", "MultiLineString") \
            else line.representative_point()
        feats.append(NamedFeature(f"street:{name}", name, "street", "street", float(p.x), float(p.y),
                                  tuple(sorted(street_alias.get(name, set()) | short.get(name, set()))), (),
                                  line.buffer(STREET_BUFFER_M)))
    places = [(n, t, g, o) for k, n, t, g, o in extra if k == "place"]
    cells = _voronoi_cells([g for _, _, g, _ in places], city.bounds)
    for (name, tags, geom, oid), cell in zip(places, cells, strict=False):
        feats.append(NamedFeature(f"osm:place:{oid}", name, "place", tags.get("place", ""), float(geom.x),
                                  float(geom.y), _aliases(name, tags), tuple(sorted((k, v) for k, v in tags.items()
                                                                                     if k in TAG_KEYS)), cell, True))
    for kind, name, tags, geom, oid in extra:
        if kind == "place":
            continue
        pt = geom.representative_point()
        feats.append(NamedFeature(f"osm:{kind}:{oid}", name, kind, "", float(pt.x), float(pt.y), _aliases(name, tags),
                                  tuple(sorted((k, v) for k, v in tags.items() if k in TAG_KEYS)),
                                  geom if geom.geom_type in ("Polygon", "MultiPolygon") else None))
    minx, miny, maxx, maxy = city.bounds
    box = shapely.box(minx, miny, maxx, maxy)
    names = REGION_ALIASES.get(city.name, (city.name.capitalize(),))
    feats.append(NamedFeature(f"region:{city.name}", names[0], "region", "region", (minx + maxx) / 2,
                              (miny + maxy) / 2, tuple(names[1:]), (), box))
    return NameIndex(city.name, feats, poi_tags)


def _short_forms_held(features: list[NamedFeature]) -> frozenset[str]:
    """The normal forms of the street-type short forms among the streets' aliases (``_street_short_aliases``):
    names that match only exactly."""
    from .lexicon import street_short_forms

    return frozenset(n for f in features if f.kind == "street" and f.aliases
                     for n in {normalise(x) for x in street_short_forms(f.name)} & {normalise(a) for a in f.aliases})


def _street_short_aliases(streets: list[str], taken: set[str]) -> dict[str, set[str]]:
    """Each street's short forms by the street-type table (``lexicon.street_short_forms``: "West 86th
    St", "Yrjönk."), kept only where unambiguous: a form that two streets share, or that is another
    feature's name or another street's own name, is no alias of either."""
    from .lexicon import street_short_forms

    own = {normalise(n) for n in streets}
    by_form: dict[str, set[str]] = {}
    for name in streets:
        for form in street_short_forms(name):
            by_form.setdefault(normalise(form), set()).add(name)
    out: dict[str, set[str]] = {}
    for name in streets:
        for form in street_short_forms(name):
            n = normalise(form)
            if by_form[n] == {name} and n not in own and n not in taken:
                out.setdefault(name, set()).add(form)
    return out


def _voronoi_cells(points: list[Any], bounds: tuple[float, float, float, float]) -> list[Any]:
    import shapely

    if not points:
        return []
    box = shapely.box(*bounds)
    if len(points) == 1:
        return [box]
    cells = shapely.voronoi_polygons(shapely.MultiPoint(points), extend_to=box)
    out = []
    for p in points:
        cell = next((c for c in cells.geoms if c.contains(p)), None)
        out.append(cell.intersection(box) if cell is not None else None)
    return out


def _read_osm_names(path: Path, crs: str) -> list[tuple[str, str, dict[str, str], Any, str]]:
    """(kind, name, tags, geometry in ``crs``, osm id) of every named or tagged OSM feature."""
    import warnings

    import geopandas as gpd
    import pyogrio

    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for layer, cols in (("points", ["osm_id", "name", "place", "highway", "other_tags"]),
                            ("lines", ["osm_id", "name", "highway", "other_tags"]),
                            ("multipolygons", ["osm_id", "osm_way_id", "name", "amenity", "building", "landuse",
                                               "leisure", "natural", "office", "shop", "other_tags"])):
            df = pyogrio.read_dataframe(path, layer=layer, columns=cols, on_invalid="fix")
            df = df[df.geometry.notna() & ~df.geometry.is_empty]
            df = gpd.GeoDataFrame(df, geometry="geometry", crs=df.crs).to_crs(crs)
            for r in df.itertuples(index=False):
                tags = _hstore(r.other_tags)
                for k in ("place", "highway", "amenity", "building", "landuse", "leisure", "natural", "office", "shop"):
                    v = getattr(r, k, None)
                    if v:
                        tags[k] = str(v)
                name = str(r.name) if r.name else ""
                oid = str(getattr(r, "osm_id", None) or getattr(r, "osm_way_id", None) or "")
                if layer == "lines":
                    if name and tags.get("highway"):
                        out.append(("street", name, tags, r.geometry, oid))
                    continue
                if layer == "points":
                    if tags.get("place") and name:
                        out.append(("place", name, tags, r.geometry, oid))
                    elif tags.get("highway") == "bus_stop":
                        continue
                    elif name or any(tags.get(k) for k in ("amenity", "shop", "office", "leisure")):
                        out.append(("poi", name, tags, r.geometry, oid))
                    continue
                if tags.get("highway") and name:   # pedestrian squares drawn as areas
                    out.append(("street", name, tags, r.geometry.boundary, oid))
                    continue
                for g in getattr(r.geometry, "geoms", [r.geometry]):
                    out.append(("building" if tags.get("building") else "area", name, tags, g, oid))
    return out


@lru_cache(maxsize=8)
def _cached(source: str, name: str) -> NameIndex:
    from .regions import load_city, region_path

    return build_name_index(load_city(source, name), region_path(source))


def name_index(region: str, source: str | Path | None = None) -> NameIndex:
    """The (cached) NameIndex of a bundled region or of a region file."""
    from .regions import REGIONS

    return _cached(str(source if source is not None else REGIONS[region]), region)


__all__ = ["Match", "NameIndex", "NamedFeature", "REGION_ALIASES", "Resolution", "build_name_index", "name_index",
           "normalise"]
