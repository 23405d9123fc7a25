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
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from ...city import CATEGORIES, lexicon
from ...city.names import CONNECTORS, GENERIC, REGION_ALIASES, Match, NameIndex, normalise
from ...city.region_names import region_names, region_of_word
from ...city.vocabulary import CategoryTerm, Money, category_terms, money_amounts, uncategorised_terms
from .amounts import budget_shares
from .intents import INTENTS as INTENT_CLASSES
from .intents.plan import KIND_QUESTION
from .name_forms import FROM_ENDINGS, TO_ENDINGS, hyphen_kind_name, leading_words_said_before, locative, name_forms
from .parts import merge_bare_kinds, part_spans, spaced_arrows
from .reading import AREA_KINDS, Goal, Place, inside, sentence_at
from .rules import Clause, read_clause
from .wording import (
    AREA_BEFORE,
    BRACKET_CLOSE,
    BRACKET_OPEN,
    COUNTRY,
    COUNTRY_SAID,
    CUES,
    GENITIVE_TAIL,
    HYPHEN_PAIR,
    IF_AFTER,
    IF_RE,
    JOINED,
    KIND_CUE,
    LEAD_IN,
    LEFT_OUT,
    LIST_AFTER_COLON,
    LOCAL_CASE_TAIL,
    NAME_RUN,
    NAME_TOKEN,
    NAME_WORD,
    NEAR_FOR,
    NEGATED,
    NEXT_LOWER_WORD,
    PLAN_NOUN,
    SENTENCE_END,
    SENTENCE_WORDS,
    SPLIT,
    TASK_WORDS,
    TERSE_IF,
    TERSE_SIGN,
    TERSE_SIGN_FIRST,
    TERSE_SIGN_THEN,
    THE_KIND,
    UNITS,
    YES_NO,
    W,
    condition_test,
)

INTENTS = tuple(INTENT_CLASSES)   # the intents' names, for the model's reading schema and prompt
TASKS = ("station", "land", "road")
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
    trace: list[str] = field(default_factory=list)        # ids of the reading rules that fired (``rules.RULES``)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


#: the longest request read: the longest judged request is 171 characters, a polite long one a few hundred; the clause
#: patterns backtrack on long texts (21 000 characters of repeated names took 94 s to read, 2 000 took 9 s)
MAX_REQUEST_CHARS = 1000


# ------------------------------------------------------------------------ region
def _region_mentions(request: str, regions: tuple[str, ...]) -> list[tuple[int, int, str]]:
    out = []
    low = normalise_keep(request)
    for r in regions:
        aliases = {normalise(a) for a in region_names(r)}   # derived from the loaded region (city.region_names)
        for alias in aliases:
            for m in re.finditer(r"(?<!\w)" + re.escape(alias) + r"(?!\w)", low):
                out.append((m.start(), m.end(), r))
        # a region's name in a Finnish case: "Kotkan tiesuunnitelma" (Kotka's road plan), "Helsingissä", "Tampereella"
        out += [(m.start(), m.end(), r) for m in re.finditer(r"(?<![\w-])[^\W\d_]{5,}(?![\w-])", low)
                if m.group(0) not in aliases and region_of_word(m.group(0), (r,)) == r]
    return sorted(out)


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


# ------------------------------------------------------------------------ places
def _places(request: str, idx: NameIndex, taken: list[tuple[int, int]]) -> list[Place]:
    """Data names in the request, and name-like phrases the data lacks (``taken``: spans of
    money, distances and facility words, which are never names)."""
    found = [(s, e, m) for s, e, m in idx.scan(request)]
    places = [Place(s, e, request[s:e], m.feature.name, m.feature.id, m.feature.kind, match=m) for s, e, m in found
              if not any(a <= s and e <= b for a, b in taken)]
    spans, places = _case_pairs(request, idx, places)
    for s, e in spans:
        words = list(NAME_TOKEN.finditer(request[s:e]))
        while words and (words[0].group(0).casefold() in SENTENCE_WORDS | GENERIC | UNITS
                         or PLAN_NOUN.fullmatch(words[0].group(0))):   # "Latausasemasuunnitelma Karhulaan"
            words.pop(0)
        while words and ((words[-1].group(0).casefold() in SENTENCE_WORDS | UNITS and not words[-1].group(0).islower())
                         or PLAN_NOUN.fullmatch(words[-1].group(0))):
            # a lowercase last word is the facility noun of the name ("Kamppi bus station"), but a plan noun is
            # no part of one ("Helsingin latausasemasuunnitelma": Helsinki's charging-station plan)
            words.pop()
        if not words:
            continue
        s, e = s + words[0].start(), s + words[-1].end()
        if any(a < e and s < b for a, b in taken):
            continue
        covered = [p for p in places if p.start < e and s < p.end]
        nxt = NEXT_LOWER_WORD.match(request[e:])
        if covered and covered[-1].end == e and covered[-1].match and _partial(covered[-1]) and nxt \
                and nxt.group(1).casefold() not in SENTENCE_WORDS | GENERIC | UNITS | CONNECTORS \
                and not category_terms(nxt.group(1)):
            e += nxt.end()   # a part of a longer name and a noun of its own: "Esplanadi bandstand"
        written = request[s:e]
        rest = re.sub("|".join(re.escape(p.written) for p in covered) or "^$", " ", written)
        if covered:
            if not all(p.start >= s and p.end <= e and p.found for p in covered) or not normalise(rest):
                places = _whole_run(places, s, e, written, rest, covered, idx)
                continue   # the name found is the whole phrase
            named = [w for w in NAME_WORD.findall(rest) if w[:1].isupper() and normalise(w) not in GENERIC]
            if not named and not all(p.kind == "region" for p in covered):
                # the name plus descriptive words: "Stockmann department store", "Kamppi Center"
                kept = [_described(p, written, rest, idx) for p in covered]
                if all(f is not None for f in kept):
                    if len(covered) == 1:
                        f = kept[0]
                        places[places.index(covered[0])] = Place(s, e, written, f.name, f.id, f.kind,
                                                                 match=covered[0].match)
                    else:   # "Grand Hotel Oodi Tower": names run together with a generic noun
                        places = _whole_run(places, s, e, written, rest, covered, idx)
                    continue
                places = [p for p in places if p not in covered]
                near = list(dict.fromkeys([p.name for p in covered] + idx.suggestions(written)))[:3]
                places.append(Place(s, e, written, "", "", "", _said_as_base(
                    written, f"'{written}' is not in the {idx.region} data — did you mean {' or '.join(near)}?")))
                continue
        if all(w.casefold() in SENTENCE_WORDS or w.casefold() in GENERIC for w in NAME_WORD.findall(written)):
            continue
        if COUNTRY.fullmatch(written.strip()):
            continue
        res = idx.resolve(written)
        places = [p for p in places if p not in covered]
        if res.status == "found":
            f = res.feature
            places.append(Place(s, e, written, f.name, f.id, f.kind, match=res.candidates[0]))
        else:
            places.append(Place(s, e, written, "", "", "", _said_as_base(written, res.message)))
    places = _generic_word_names(request, idx, places, taken)
    return sorted(_numbered_streets(request, idx, places, taken), key=lambda p: p.start)


#: a Finnish local case that says where a route starts (from) or ends (to): "Chaplinista", "Old Hatiin", "Stadiumille"
_FROM_CASE = re.compile(rf"(?:{FROM_ENDINGS})$", re.I)
_TO_CASE = re.compile(rf"(?:{TO_ENDINGS}|lle|h[aeiouyäö]n)$", re.I)


def _case_pairs(request: str, idx: NameIndex, places: list[Place]) -> tuple[list[tuple[int, int]], list[Place]]:
    """The name-like spans left to read, and ``places`` with each span that is two names in a from and a to
    case (``_case_pair``) read as those two (the names the scan found inside it replaced)."""
    spans = []
    for s, e in _namelike_spans(request, lambda w: _initial_case_name(w, idx)):
        tail = _KIND_TAIL.match(request, e)   # "Kalat-patsaalta Havis Amanda -patsaalle": the last name's kind noun
        pair = (_case_pair(request, s, tail.end(), idx) if tail else []) or _case_pair(request, s, e, idx)
        if not pair:
            spans.append((s, e))
            continue
        places = [p for p in places if not any(p.start < q.end and q.start < p.end for q in pair)] + pair
    return spans, places


#: a lower-case noun set off by a space and a hyphen after a capitalised run ("Havis Amanda -patsaalle")
_KIND_TAIL = re.compile(r" -[a-zåäö]\w*")


def _initial_case_name(word: str, idx: NameIndex) -> bool:
    """"Kukko-korttelissa montako toimistoa?", "Leivosessa montako kahvilaa?": a sentence's first word in a
    Finnish local case is a name when it is a data name with the ending cut (or its part before a hyphen is one:
    "Kukko-korttelissa", the Kukko block); other capitalised first words stay no name ("Tänään …": today)."""
    if not locative(word):
        return False
    return idx.case_stem(word, linking_vowel=True) is not None or ("-" in word and idx.is_name(word.split("-", 1)[0]))


def _case_pair(request: str, s: int, e: int, idx: NameIndex) -> list[Place]:
    """"Paljonko on matkaa Chaplinista Old Hatiin?": a run of capitalised words that is no name as a whole
    but two names each with a Finnish case ending, one from (-sta/-stä/-lta/-ltä) and one to (-iin, -Vn, -lle,
    -hin), is those two places (foreign names too: "Zarasta", "Stadiumille"); each part must be exactly a data
    name once its ending is cut. Words before the first part may be left out only when they are no name
    ("Tiematka Kiasmasta Ateneumiin": the road distance). [] when the run is not such a pair."""
    written = request[s:e]
    if idx.is_name(written) or idx.case_stem(written, linking_vowel=True) is not None:
        return []
    words = list(NAME_TOKEN.finditer(written))
    for i in range(len(words) - 1):
        if i and idx.lookup(written[:words[i].start()].strip(), limit=1):
            break   # a word left out may be no part of a name
        for k in range(i + 1, len(words)):
            parts = [(s + words[i].start(), s + words[k - 1].end()), (s + words[k].start(), s + words[-1].end())]
            texts = [request[a:b] for a, b in parts]
            cases = ["from" if _FROM_CASE.search(t) else "to" if _TO_CASE.search(t) else "" for t in texts]
            if sorted(cases) != ["from", "to"]:
                continue
            got = []
            for (a, b), t in zip(parts, texts, strict=True):
                own, _ = hyphen_kind_name(t, idx)   # "Kalat-patsaalta Pub Peräkammariin": a name and its kind noun
                if own is not None:
                    got.append(Place(a, b, t, own.name, own.id, own.kind, match=Match(own, 95.0, "alias", own.name)))
                    continue
                res = idx.resolve(t)
                if idx.case_stem(t, linking_vowel=True) is None or res.status != "found" or res.feature is None \
                        or res.feature.kind == "region" or res.candidates[0].how not in ("exact", "alias"):
                    break
                got.append(Place(a, b, t, res.feature.name, res.feature.id, res.feature.kind, match=res.candidates[0]))
            else:
                return got
    return []


#: where a name must stand, written with no article ("to Stadium", "from Kiasma"): "to the stadium" may be a kind
_BARE_NAME_SLOT = re.compile(r"\b(?:from|to|near|at|of|by|between|beside|around|past|via|and)\s+$", re.I)


def _generic_word_names(request: str, idx: NameIndex, places: list[Place], taken: list[tuple[int, int]]) -> list[Place]:
    """"… how far is it from there to Stadium": a capitalised word (run) made only of words that never name a
    place on their own ("Stadium", a sports shop of the Helsinki data) is that place when it is exactly a data
    name, written capitalised inside a sentence right after a word a name must follow, and no facility word
    (the scan and the name runs skip such words everywhere else, so "the nearest stadium" stays a kind)."""
    out = list(places)
    for s, e in _namelike_spans(request):
        written = request[s:e].strip()
        e = s + len(written)
        words = normalise(written).split()
        if not words or not all(w in GENERIC for w in words) or not idx.is_name(written) or category_terms(written) \
                or not _BARE_NAME_SLOT.search(request[max(0, s - 10):s]) or SENTENCE_END.search(request[:s]) \
                or any(p.start < e and s < p.end for p in out) or any(a < e and s < b for a, b in taken):
            continue
        res = idx.resolve(written)
        if res.status == "found" and res.feature is not None and res.feature.kind != "region":
            f = res.feature
            out.append(Place(s, e, written, f.name, f.id, f.kind, match=res.candidates[0]))
    return out


def _numbered_streets(request: str, idx: NameIndex, places: list[Place], taken: list[tuple[int, int]]) -> list[Place]:
    """"West 99th St" is one name (``lexicon.numbered_street_re``), and so is a Finnish street written short
    ("Kirkkot.", ``lexicon.finnish_short_street_re``): read only as written or as a short form the data has
    ("West 86th St" is West 86th Street): one the data lacks is said to be absent with the close names,
    never "'West' matches several places", never a neighbour one number off or a look-alike."""
    forms = [*lexicon.numbered_street_re().finditer(request), *lexicon.finnish_short_street_re().finditer(request)]
    # "Main Street", "Mill Avenue": only where no name of the data was found in it (a found name stands)
    worded = [m for m in lexicon.worded_street_re().finditer(request)
              if not any(p.found and p.start < m.end() and m.start() < p.end for p in places)
              and not any(f.start() < m.end() and m.start() < f.end() for f in forms)]
    for m in sorted(forms + worded, key=lambda m: m.start()):
        s, e = m.start(), m.end() - (1 if m.group(0).endswith(".") else 0)
        while request[s:e].split(" ", 1)[0].casefold() in SENTENCE_WORDS and " " in request[s:e]:
            s += len(request[s:e].split(" ", 1)[0]) + 1   # "Which Street …": a question word is no part of it
        covered = [p for p in places if p.start < e and s < p.end]
        if any(a < e and s < b for a, b in taken if not any(p.start <= a and b <= p.end for p in covered)):
            continue   # a distance or an amount ("300 m") is no street
        if len(covered) == 1 and covered[0].found and covered[0].match is not None \
                and covered[0].match.how in ("exact", "alias") and covered[0].start <= s and e <= covered[0].end:
            continue
        written = request[s:e]
        hit = next((x for x in idx.lookup(written, ("street",), limit=3) if x.how in ("exact", "alias")), None)
        places = [p for p in places if p not in covered]
        if hit is not None:
            places.append(Place(s, e, written, hit.feature.name, hit.feature.id, hit.feature.kind, match=hit))
            continue
        near = idx.suggestions(written)
        places.append(Place(s, e, written, "", "", "", f"'{written}' is not in the {idx.region} data"
                            + (f" — did you mean {' or '.join(near)}?" if near else ".")))
    return places


def _said_as_base(written: str, message: str) -> str:
    """"'Mussalon satama' is not in the kotka data": a name the data lacks that ends in a Finnish
    genitive facility noun ("Mussalon sataman lähellä": near Mussalo harbour) is said in the noun's base
    form, the name a planner would look for (the first word's genitive is part of the name)."""
    base = _base_form(written)
    return message if base == written else message.replace(f"'{written}'", f"'{base}'", 1)


def _base_form(written: str) -> str:
    """``written`` with its last word, a Finnish facility noun in the genitive ("Mussalon sataman") or in a
    local case ("Hovinsaaren koululla"), in its base form ("Mussalon satama", "Hovinsaaren koulu"); else as
    written."""
    *head, last = written.split(" ")
    base = _local_case_base(last)
    if head and last.islower() and base:
        return " ".join(head + [base])
    if not head or not last.islower() or last == "stadion" or not GENITIVE_TAIL.search(last):
        return written
    return " ".join(head + [last[:-1]])


def _local_case_base(word: str) -> str | None:
    """"koululla" → "koulu": a Finnish facility noun in a local case (``wording.LOCAL_CASE_TAIL``) in its base
    form; None for any other word."""
    m = LOCAL_CASE_TAIL.search(word)
    return word[:m.start()] + m.group(1) if m else None


def _whole_run(places: list[Place], s: int, e: int, written: str, rest: str, covered: list[Place],
               idx: NameIndex) -> list[Place]:
    """"Hotel Kamppi Plaza" is one name, not "Hotel Kämp" (a misspelling) beside "WTC Plaza" (a
    part): a capitalised run made of two or more names, not all exact, is read whole — the feature so
    named, else absent (the resolver's message). ``places`` with the run's names so replaced (as
    they were when the run is not such)."""
    if len(covered) < 2 or any(normalise(w) not in GENERIC for w in NAME_WORD.findall(rest)) \
            or not all(p.found and p.match is not None and s <= p.start and p.end <= e for p in covered) \
            or all(p.match.how in ("exact", "alias") for p in covered) or _inflected_apart(covered):
        return places
    res = idx.resolve(written)
    f = res.feature if res.status == "found" else None
    whole = Place(s, e, written, f.name, f.id, f.kind, match=res.candidates[0]) if f is not None \
        else Place(s, e, written, "", "", "", res.message)
    return [p for p in places if p not in covered] + [whole]


#: Finnish local cases (from / to / at): a name so inflected is a name of its own
_LOCAL_CASE = re.compile(rf"(?:ssa|ssä|lla|llä|lle|{FROM_ENDINGS}|{TO_ENDINGS})$", re.I)


def _inflected_apart(covered: list[Place]) -> bool:
    """"Piisamikadulta Tervaskadulle" (from Piisaminkatu to Tervaskatu): names that each carry a local
    case ending of their own, in different cases, are two names, not one run."""
    ends = [_LOCAL_CASE.search(p.written.strip()) for p in covered]
    return all(ends) and len({m.group(0).casefold() for m in ends if m}) == len(covered)


def _partial(p: Place) -> bool:
    """The name written is a part of a longer data name ("Kamppi" of "Kamppi Chapel")."""
    return p.match.how not in ("exact", "alias") \
        and len(normalise(p.match.matched).split()) > len(normalise(p.written).split())


def _described(p: Place, written: str, rest: str, idx: NameIndex) -> Any:
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
    if _partial(p) and _landmark_noun(rest, p.match.matched):
        return None   # "Finlandia Hall" is no part of the shop Finlandia Caviar: a landmark the data lacks
    if _partial(p) and (cats - {f.category} or (not cats and (f.kind != "poi" or own_noun))):
        return None
    return f


def _landmark_noun(rest: str, matched: str) -> bool:
    """``rest`` (the words written after a name) holds a landmark noun ("Hall", "Monument",
    "talo") that the data name ``matched`` lacks: the phrase names a landmark of its own."""
    have = set(normalise(matched).split())
    return any(normalise(m.group(0)) not in have
               for m in re.finditer(rf"\b(?:{lexicon.landmark_nouns_pattern()})\b", rest, re.I))


def _namelike_spans(text: str, keep_initial: Callable[[str], bool] | None = None) -> list[tuple[int, int]]:
    """Capitalised word runs (with a trailing facility noun: "Sapokka park", "Kotka central
    hospital"); a lone capitalised word that starts a sentence is not taken as a name (unless
    ``keep_initial`` says it is one), and a full stop ends a run ("… for Kotka. What should we do?")."""
    out = []
    for m in NAME_RUN.finditer(text):
        s, e = m.start(), m.end()
        word = m.group(1)
        colon, joined = LIST_AFTER_COLON
        initial = (s == 0 or SENTENCE_END.search(text[:s]) is not None) \
            and not (colon.search(text[:s]) and joined.match(text, e))
        first = word.split(" ", 1)[0]
        asking = initial and (re.fullmatch(CUES["nearest"], first.casefold()) or W["asking_word"].fullmatch(first))
        fronted = not asking and text[m.end():m.end() + 1] == ":"   # "Jumalniemi: how many schools …"
        if initial and " " not in word and (not m.group(2) or asking) and not fronted \
                and not (keep_initial is not None and not asking and keep_initial(word)):
            continue   # "Lähin koulu Otsonkalliolta": a sentence's first word that asks, before a kind, is no name
        if asking and " " in word:   # "Missä Ateneum sijaitsee?": the name starts after the question word
            s += len(word) - len(word.split(" ", 1)[1])
        out.append((s, e))
    return out


def _too_long(request: str, region: str | None) -> Task:
    """Said back, never read (nor sent to the model): the message stands where a name the data lacks
    would, so the reply is this one line and nothing is run."""
    return Task(request, "unknown", region, [], {}, [], [], [], {},
                absent=[f"The request is {len(request):,} characters long; ask one question or a short list "
                        f"(at most {MAX_REQUEST_CHARS:,} characters)."], trace=["request.too-long"])


# ------------------------------------------------------------------------ the reading
def extract(request: str, index_of: Callable[[str], NameIndex], regions: tuple[str, ...],
            region: str | None = None) -> Task:
    """The deterministic part of cognition (see module docstring); a request longer than
    ``MAX_REQUEST_CHARS`` is said back unread."""
    return _too_long(request, region) if len(request) > MAX_REQUEST_CHARS else _read(request, index_of, regions, region)


def _read(request: str, index_of: Callable[[str], NameIndex], regions: tuple[str, ...], region: str | None) -> Task:
    src: dict[str, str] = {}
    notes: list[str] = []
    missing: list[str] = []
    # a run of spaces or tabs reads as one space: the clause patterns backtrack over long runs (a hostile
    # request of 20 000 spaces took about a minute); new lines are kept, they split the parts of a list
    task_request, request = request, re.sub(r"[^\S\n]+", " ", request)
    request = lexicon.expand_short_forms(request)   # "then dist. to X": the dot ends no part
    request = lexicon.spell_plan_nouns(request)   # "latausasemasuunitelma": a charging-station plan, misspelt
    request = _split_hyphen_pairs(spaced_arrows(request), regions, index_of, region)
    mentions = _region_mentions(request, regions)
    said = list(dict.fromkeys(r for _, _, r in mentions))
    country = COUNTRY_SAID.search(request)
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
    money = budget_shares(request, money_amounts(request))   # "a fifth of our 2 M€": 400 k€
    dists = [(d.start, d.end, d.metres) for d in lexicon.distances(request)
             if not any(o.start <= d.start < o.end for o in money)]
    all_terms = category_terms(request)
    taken = [(o.start, o.end) for o in money] + [(a, b) for a, b, _ in dists]
    # "Vallilan kirjasto" is one name, "Seepra-kortteli" is Seepra, "… nearest to the block" the place before
    places = name_forms(request, _places(request, index_of(region), taken), index_of(region)) if region else []
    # "(not counting Svenska Teatern itself)": a place named only to be left out is not asked about
    excluded = [(m.start(), m.end()) for m in LEFT_OUT.finditer(request)]
    places = [p for p in places if not any(a <= p.start < b for a, b in excluded)]
    # "nearest ATM to Kiasma": a kind the data has no category for, asked as a kind, is that kind even
    # where a feature is so named (the answer is that no category holds ATMs, not a search from that feature)
    asked = [(a, b) for a, b, _ in uncategorised_terms(request) if KIND_CUE.search(request[max(0, a - 30):a])]
    places = [p for p in places if not any(a <= p.start and p.end <= b for a, b in asked)]
    # a facility word inside a found name is part of the name ("Q-Park", "Kaisaniemen puisto")
    # and a facility word that is only part of a data name is that word, not the place: "Restaurants
    # inside …" is restaurants, not "BW Restaurants" (a whole name or an alias written out stays a name)
    places = [p for p in places if not any(t.start <= p.start and p.end <= t.end for t in all_terms)
              or (p.found and (p.match is None or p.match.how in ("exact", "alias")))]
    places = [p for p in places if not _lowercase_part_of_term(p, all_terms)]
    terms = [t for t in all_terms if not any(p.start <= t.start < p.end and p.kind != "region" for p in places)]
    # "Oodi (the library)": a word in brackets after a name describes it, it asks for nothing
    terms = [t for t in terms if not any(p.found and BRACKET_OPEN.fullmatch(request[p.end:t.start])
                                         and BRACKET_CLOSE.match(request[t.end:]) for p in places)]
    # "post office": a word the data has no category for, even with one that it has inside
    unknown_spans = [u for u in uncategorised_terms(request) if not any(p.start <= u[0] < p.end for p in places)]
    terms = [t for t in terms if not any(a <= t.start < b for a, b, _ in unknown_spans)]
    unknown = [w for _, _, w in unknown_spans]
    for p in places:
        if p.found and p.kind not in AREA_KINDS:
            same = [m.feature.name for w in (p.name, p.written) for m in index_of(region).lookup(w, kinds=AREA_KINDS, limit=2)
                    if normalise(m.feature.name) == normalise(w)]
            p.area_name = same[0] if same else ""
    outside = _outside_names(request, places, region, regions, index_of)
    places = leading_words_said_before(places)   # "… from Dubliner Kaivopiha? and … around the Dubliner"
    trace: list[str] = []
    unread: list[str] = []
    goals, test = _read_goals(request, places, terms, money, dists, trace, unread)
    _total_of_joined_kinds(request, goals, trace)
    _the_noun_before(request, goals, places)
    notes += _branch_notes(trace)
    which = _the_kind_as_place(request, goals, terms, region, index_of, notes) if region else []
    if any(g.intent in ("plan", "compare_plans") for g in goals) or not goals:
        notes += [f"Budget read as {mo.keur:g} k€ (from '{mo.written}')." for mo in money]
    ent = {"places": [p.name for p in places if p.found and p.kind != "region"],
           "places_absent": [p.written for p in places if not p.found],
           "categories": [t.describe() for t in terms], "budgets_keur": [m.keur for m in money],
           "distances_m": [d for _, _, d in dists], "categories_absent": unknown}
    for p in places:
        if p.found and p.kind != "region" and normalise(p.written) != normalise(p.name):
            notes.append(f"'{p.written}' read as {p.name}.")
    absent = list(dict.fromkeys([p.message for p in places if not p.found] + outside))
    if unknown and not any(g.slots.get("category") or g.intent not in ("nearest", "within", "find", "count", "exists")
                           for g in goals):
        # "How many bus stops are on Mannerheimintie?": no category of the city model holds them. The map may
        # still have them (OSM tags ATMs, post offices …), so the answer never says the data has none
        where = region or "bundled"
        absent.append(f"I cannot look for {unknown[0]}: no category of the {where} city model holds it (its "
                      f"categories: {', '.join(CATEGORIES)}), so I cannot say whether the map has any.")
        goals = []
    if outside:   # no region, and the request is about a place outside every loaded one: that is the answer
        goals = []
    ends = _route_kind_ends(goals, region, index_of, notes)
    missing += unread + which + ends + [m for m in (_missing(goals, region, ent) if not outside else [])
                               if not ((which or ends) and m.startswith("the start place"))
                               and not (ends and m.startswith("the destination place"))]
    notes += _places_unread(request, places, goals, region, missing + absent)
    hard = [f"budget = {m.keur:g} k€" for m in money] + [f"distance = {d:g} m" for _, _, d in dists]
    for k in ("places", "categories", "budgets_keur"):
        src.setdefault(k, "rules")
    intent = goals[0].intent if goals else "unknown"
    return Task(task_request, intent, region, goals, ent, hard, [], list(dict.fromkeys(missing)), src,
                list(dict.fromkeys(notes)), absent, test, trace)


def _slot_strings(value: Any) -> set[str]:
    """Every string in a goal's slots (ids, names, areas; inside lists and dicts too), case folded."""
    if isinstance(value, dict):
        return set().union(*(_slot_strings(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(_slot_strings(v) for v in value)) if value else set()
    return {value.casefold()} if isinstance(value, str) else set()


#: a place named only to say which of another one: "the Teboil on Tikankatu", "Alko at Kamppi"
_QUALIFIER_GAP = re.compile(r"\s+(?:on|at|in)\s+(?:the\s+)?", re.I)


def _places_unread(request: str, places: list[Place], goals: list[Goal], region: str | None,
                   said: list[str]) -> list[str]:
    """The audit of a reading: a place of the data that the request names but that no part read uses
    ("…, but only if A is within 3 km of Helilä" read as the comparison alone) is said, never dropped silently:
    one note per such place. Not flagged: a place that only says which of another ("the Teboil on Tikankatu"),
    a lower-case word that is also a name ("reference point"), the region itself, and one word at the start of a
    sentence that is not the name itself (a verb capitalised by its place: "State the nearest …"). Nothing when
    ``said`` (the reading's questions and missing names) already says what was not read."""
    if not goals or said:   # (a question asked, or a name said missing, already says what was not read)
        return []
    used = set().union(*(_slot_strings(g.slots) for g in goals))
    # every loaded region's derived names (a planner's own city too), and the asked region's
    regions_said = {normalise(a) for r in dict.fromkeys((*REGION_ALIASES, *([region] if region else [])))
                    for a in region_names(r)}
    out = []
    for k, p in enumerate(places):
        if not p.found or p.kind == "region" or {p.id.casefold(), p.name.casefold(), p.written.casefold(),
                                                  (p.area_name or "").casefold()} & used:
            continue
        before = places[k - 1] if k else None
        if before is not None and before.found and _QUALIFIER_GAP.fullmatch(request[before.end:p.start]):
            continue
        if p.written.islower() and not p.name.islower() or normalise(p.name) in regions_said \
                or normalise(p.written) in regions_said:
            continue
        if " " not in p.written.strip() and normalise(p.written) != normalise(p.name) \
                and re.search(r"(?:^|[.?!:;]\s*)$", request[:p.start]):
            continue
        if any(q is not p and q.found and q.id == p.id and q.start < p.start for q in places):
            continue   # (said twice: said once)
        if all(g.intent in ("plan", "compare_plans") for g in goals):
            out.append(f"'{p.written}' ({p.name}) was not used: a plan covers the whole {region} region, not one place "
                       f"(say 'near {p.name}' to hold its sites near it).")
        else:
            out.append(f"'{p.written}' ({p.name}) is not used by any part of this answer: I could not read what it was for.")
    return out


def _lowercase_part_of_term(p: Place, terms: list[CategoryTerm]) -> bool:
    """"any charging point inside …": a lowercase word inside a longer facility word is that word, even
    where a feature's name is that word capitalised (the shop "Point"); a name written as the data has
    it ("Q-Park") stays a name."""
    return p.written.islower() and not p.name.islower() and any(
        t.start <= p.start and p.end <= t.end and (t.start, t.end) != (p.start, p.end) for t in terms)


def _branch_notes(trace: list[str]) -> list[str]:
    """What the reply says about a conditional's branch that asks for nothing ("otherwise never mind")."""
    if "conditional.else-nothing" in trace:
        return ["The otherwise branch asks for nothing, so nothing more is done when the condition does not hold."]
    if "conditional.else-say-so" in trace:
        return ["The otherwise branch asks only to be told: the answer says what the condition found."]
    return []


def _the_kind_as_place(request: str, goals: list[Goal], terms: list[CategoryTerm], region: str,
                       index_of: Callable[[str], NameIndex], notes: list[str]) -> list[str]:
    """"any hospitals near the school?": a search with no place whose request names a place by its
    kind ("the school") searches from the one feature of that kind the data names (said in the notes),
    or asks which one when there are several; the questions are returned."""
    out = []
    for g in goals:
        if g.intent not in ("nearest", "within") or g.slots.get("place") or g.absent:   # absent: said so
            continue
        t = next((t for t in terms if t.category != g.slots.get("category") and t.word.casefold() in g.clause.casefold()
                  and THE_KIND.search(request[max(0, t.start - 16):t.start])), None)
        if t is None:
            continue
        flt = {k: set(v) if v else None for k, v in t.tags}
        named = [f for f in index_of(region).features if f.kind == "poi" and f.category == t.category
                 and all(dict(f.tags).get(k) and (v is None or dict(f.tags)[k] in v) for k, v in flt.items())]
        names = sorted({f.name for f in named})
        if len(names) == 1:
            g.slots["place"] = named[0].id
            notes.append(f"'the {t.word}' read as {names[0]}, the only {t.word} the {region} data names.")
        elif names:
            # "place" is the input asked for (as every other place question says it)
            out.append(f"which place you mean by 'the {t.word}' ({' or '.join(names[:4])}{' …' if len(names) > 4 else ''})")
    return out


#: "… and the pharmacy nearest to the hotel": a place named by a noun after a preposition and "the"
THE_NOUN = re.compile(r"\b(?:to|from|of|near|around|by|at|next to|close to)\s+(?:the|that|this)\s+([^\W\d_]{3,})\b", re.I)


def _the_noun_before(request: str, goals: list[Goal], places: list[Place]) -> None:
    """"Distance from Omenahotelli Lönnrotinkatu to Bulevardin kirjasto, and the pharmacy nearest to the
    hotel?": a search with no place whose clause says "the <noun>" searches from the place named before
    that the noun describes (its name holds the noun, "hotel" in Omenahotelli, or the noun's kind is the
    name's: "the school" after "Rauhalan koulu"); a referent the data lacks is said to be missing."""
    for g in goals:
        if g.intent not in ("nearest", "within") or g.slots.get("place") or g.absent:
            continue
        start = request.find(g.clause)
        m = THE_NOUN.search(g.clause)
        if start < 0 or m is None:
            continue
        noun = normalise(m.group(1))
        kinds = {t.category for t in category_terms(m.group(1))}
        ref = next((p for p in reversed(places) if p.end <= start + m.start() and p.kind != "region"
                    and (noun[:5] in normalise(p.written).replace(" ", "")
                         or (p.found and p.match is not None   # "the hotel": Scandic Kaisaniemi, tourism=hotel
                             and any(noun[:5] in normalise(str(v)) for _, v in p.match.feature.tags))
                         or (kinds and kinds & {t.category for t in category_terms(p.written)}))), None)
        if ref is None:
            continue
        if ref.found:
            g.slots["place"] = ref.id
        else:
            g.absent.append(ref.message)


def _route_kind_ends(goals: list[Goal], region: str | None, index_of: Callable[[str], NameIndex],
                     notes: list[str]) -> list[str]:
    """"the road distance from the school to the fuel station" (``route.kinds``): each end is the one
    feature of its kind the region names (said in the notes), else the question names the candidates;
    with no region, which region and which of each kind are asked (no region is picked silently)."""
    out: list[str] = []
    for g in goals:
        if g.intent != "route" or not g.slots.get("ends"):
            continue
        for slot, role, end in zip(("origin", "destination"), ("the start place", "the destination place"),
                                   g.slots["ends"], strict=False):
            if g.slots.get(slot):
                continue
            if region is None:   # the region first, as _missing words it (one question, said once)
                out += ["the region (helsinki or kotka)"] * (not out) + [f"{role} (which {end['word']})"]
                continue
            named = _features_of_kind(index_of(region), end["category"], end.get("tag"))
            names = sorted({f.name for f in named})
            if len(names) == 1:
                g.slots[slot] = named[0].id
                notes.append(f"'the {end['word']}' read as {names[0]}, the only {end['word']} the {region} data names.")
            elif names:
                out.append(f"{role}: which {end['word']} you mean ({' or '.join(names[:4])}{' …' if len(names) > 4 else ''})")
            else:
                out.append(f"{role} (the {region} data names no {end['word']})")
    return out


def _features_of_kind(index: NameIndex, category: str | None, tag: str | None) -> list[Any]:
    """The named POIs of a category narrowed by a facility word's tag filter ("amenity=pharmacy; shop=*")."""
    flt = [(k, None if v == "*" else set(v.split("|"))) for k, v in (x.split("=", 1) for x in tag.split("; "))] \
        if tag else []
    return [f for f in index.features if f.kind == "poi" and f.category == category
            and all(dict(f.tags).get(k) and (v is None or dict(f.tags)[k] in v) for k, v in flt)]


def _outside_names(request: str, places: list[Place], region: str | None, regions: tuple[str, ...],
                   index_of: Callable[[str], NameIndex]) -> list[str]:
    """"cafés in Espoo", "pharmacies in Kallio": a district that no loaded region has is said to lie
    outside them (an absent place's message is replaced); without a region, the messages of the
    names in an area's place that no region has (then the region is not asked for)."""
    for i, p in enumerate(places):
        other = _elsewhere(p.written, region, regions, index_of) if not p.found and region else None
        if other:
            p.message = other
            continue
        # "montako apteekkia Kalliossa": a name the data lacks in a Finnish local case is an area's place too
        area = AREA_BEFORE.search(request[max(0, p.start - 12):p.start]) or (not p.found and locative(p.written))
        if not (area or NEAR_FOR.search(request[max(0, p.start - 12):p.start])):
            continue
        # "near Kamppi" is no "near Kampin kappeli": after near / for, a name only the resolver's
        # stemming or spelling tolerance ties to a building's is a district (not "near Stockmann")
        own_words = set(normalise(p.written).split()) <= set(normalise(p.name).split())
        if p.found and p.match is not None and _partial(p) and p.kind not in (*AREA_KINDS, "region") \
                and (area or not own_words):
            # "schools in Otsola": a district's name is no part of a building's ("Otsolan Koulu")
            places[i] = Place(p.start, p.end, p.written, "", "", "",
                              f"'{p.written}' is not in the {region} data — did you mean {p.name}?")
        elif not p.found and (area or " " not in p.written.strip()):
            # after near / for only a one-word name is taken for a district or town ("near Kamppi"):
            # "near Karhulan terveysasema" is a building the data lacks, not a place outside the data
            p.message = _outside(p.written, region, regions, index_of) or p.message
    if region or places:
        return []
    facilities = _named_facilities(request)
    return [m for m in (_outside(_base_form(request[s:e]) if (s, e) in facilities else request[s:e], None, regions,
                                 index_of) for s, e in _namelike_spans(request)
                        if AREA_BEFORE.search(request[max(0, s - 12):s])
                        or (NEAR_FOR.search(request[max(0, s - 12):s]) and " " not in request[s:e].strip())
                        or (s, e) in facilities)
            if m]


def _named_facilities(request: str) -> set[tuple[int, int]]:
    """The spans of a capitalised name with a facility noun after it ("Haminan lukio", "Porvoo hospital"):
    a building's name wherever it stands, so one that no loaded region has (``_outside``) is said to be
    outside the data instead of the region being asked for."""
    return {(m.start(), m.end()) for m in NAME_RUN.finditer(request) if m.group(2)}


def _elsewhere(written: str, region: str, regions: tuple[str, ...], index_of: Callable[[str], NameIndex]) -> str | None:
    """"route from Kiasma to Marttila" asked of helsinki: a name the asked region lacks that another
    loaded region has (or nearly has: "Otsonkalio") says where it is, instead of a did-you-mean among
    the asked region's unrelated names; None when no other region has it."""
    for r in regions:
        if r == region:
            continue
        if index_of(r).is_name(written):
            return f"'{written}' is not in the {region} data; it is in the {r} data (ask with the region {r})."
        res = index_of(r).resolve(written)   # the reading that region's resolver would make ("Otsonkalio")
        if res.status == "found" and res.feature is not None and res.feature.kind != "region":
            return (f"'{written}' is not in the {region} data — did you mean {res.feature.name}, in the {r} data "
                    f"(ask with the region {r})?")
    return None


def _outside(written: str, region: str | None, regions: tuple[str, ...],
             index_of: Callable[[str], NameIndex]) -> str | None:
    """"'Espoo' is not in the helsinki data …, so it lies outside the loaded regions" for a name in an
    area's place ("in Espoo") that no loaded region's data has (exactly or as a likely misspelling);
    a name another region has says which; None for a name some region has or for no name at all."""
    words = [w for w in NAME_WORD.findall(written) if w.casefold() not in SENTENCE_WORDS | GENERIC | UNITS]
    if not words or COUNTRY.fullmatch(written.strip()) or any(normalise(written) == normalise(a)
                                                              for r in regions for a in region_names(r)):
        return None
    covers = " and ".join(f"{r} ({REGION_ALIASES[r][-1]})" if r in REGION_ALIASES else r for r in regions)
    elsewhere = [r for r in regions if r != region and index_of(r).is_name(written)]
    if elsewhere:
        return (f"'{written}' is not in the {region} data; it is in the {elsewhere[0]} data "
                f"(ask with the region {elsewhere[0]}).")
    if any(m.how != "fuzzy" or m.score >= 90 for r in regions for m in index_of(r).lookup(written, limit=1)):
        return None   # a name (or a close misspelling of one) that some region has: the resolver's message stands
    inner = _data_names_inside(written, region, regions, index_of)
    if inner:   # "Kalat-aukiolla": a span with a data name in it lies in the data; what was not read is the rest
        r, name = inner
        return (f"'{written}' is not in the {r} data as written — it names {name}, which the {r} data has, with "
                f"words I could not read; did you mean {name}?")
    near = index_of(region).suggestions(written) if region else []
    near_areas = [n for n in near if any(m.feature.kind in AREA_KINDS and normalise(m.feature.name) == normalise(n)
                                         for m in index_of(region).lookup(n, kinds=AREA_KINDS, limit=1))]
    return (f"'{written}' is not in the {region or 'loaded'} data: no loaded region has a place so named — the data "
            f"covers {covers} only, so {written} lies outside the loaded regions"
            + (f" (did you mean {' or '.join(near_areas[:2])}?)." if near_areas else "."))


def _data_names_inside(written: str, region: str | None, regions: tuple[str, ...],
                       index_of: Callable[[str], NameIndex]) -> tuple[str, str] | None:
    """(region, data name) of a name some loaded region has exactly, written inside ``written`` (a word
    run or a part before a hyphen: "Kalat-aukiolla" has Kalat), the asked region first; None when none.
    A region's own name is no such name ("Helsinki area" is the region, read elsewhere)."""
    parts = [written, *re.split(r"\s?-", written)[:1]]
    for r in sorted(regions, key=lambda r: r != region):
        idx = index_of(r)
        for part in parts:
            hits = [m for _, _, m in idx.scan(part, fuzzy=False) if m.feature.kind != "region"
                    and normalise(m.matched) not in GENERIC]
            if part != written and idx.is_name(part):
                res = idx.resolve(part)
                if res.status == "found" and res.feature is not None and res.feature.kind != "region":
                    return r, res.feature.name
            if hits:
                return r, hits[0].feature.name
    return None


def _split_hyphen_pairs(request: str, regions: tuple[str, ...], index_of: Callable[[str], NameIndex],
                        region: str | None) -> str:
    """"Kiasma-Ateneum" → "Kiasma→Ateneum" (same length, offsets kept) when both halves are data
    names and the whole is none ("Q-Park", "Yrjö-Koskisen katu" stay)."""
    out = request
    for m in HYPHEN_PAIR.finditer(request):
        for r in ([region] if region else list(regions)):
            exact = [index_of(r).is_name(t) for t in (m.group(0), m.group(1), m.group(2))]
            if exact == [False, True, True]:
                out = out[:m.end(1)] + "→" + out[m.end(1) + 1:]
                break
    return out


def _street_dot(request: str, m: re.Match) -> bool:
    """The split ``m`` is the dot of a street-type short form before a lower-case word ("How far is
    West 86th St. from Amsterdam Ave?"): an abbreviation, no end of a sentence."""
    return request[m.start():m.start() + 1] == "." and request[m.end():m.end() + 1].islower() \
        and lexicon.street_short_dot_re().search(request[:m.start() + 1]) is not None


def _clauses(request: str) -> list[tuple[int, int]]:
    out, pos = [], 0
    for m in SPLIT.finditer(request):
        if _street_dot(request, m):
            continue
        if m.start() > pos:
            out.append((pos, m.start()))
        pos = m.end()
    if pos < len(request):
        out.append((pos, len(request)))
    out = [part for s, e in out for part in part_spans(request, s, e)]   # bullets, lines, "# a, # b"
    out = merge_bare_kinds(request, out)   # "cafés + bars near Kiasma"
    out = [(s, e) for s, e in out if request[s:e].strip(" ,.?!")]
    for k in range(len(out) - 2, -1, -1):   # "Using that pharmacy, how far is Forum?": one question
        if LEAD_IN.fullmatch(request[out[k][0]:out[k][1]]):
            out[k:k + 2] = [(out[k][0], out[k + 1][1])]
    return out


#: how a question names a conditional's part that no rule could read
UNREAD_PART = {"if": "the condition", "then": "the branch", "else": "the otherwise branch"}
#: a branch that no rule reads but the condition's own goal answers: "do it" (the plan tested), "give the
#: number" (the count the condition made), "list them / those"
ANSWERED_BY_CONDITION = re.compile(r"\b(?:do it|go ahead|do that|it|them|those|that|the number|the count|how many|"
                                   r"same|tee se|tehkää se|niiden määrä|ne)\b", re.I)
#: the forms a conditional request takes, tried in this order (ids as in the trace)
CONDITIONALS = (("conditional.if", IF_RE), ("conditional.plan-if", IF_AFTER), ("conditional.yes-no", YES_NO),
                ("conditional.terse", TERSE_IF), ("conditional.terse-sign", TERSE_SIGN),
                ("conditional.terse-sign-first", TERSE_SIGN_FIRST), ("conditional.terse-sign-then", TERSE_SIGN_THEN))


def _read_goals(request: str, places: list[Place], terms: list[CategoryTerm], money: list[Money],
                dists: list[tuple[int, int, float]], trace: list[str],
                unread: list[str] | None = None) -> tuple[list[Goal], dict[str, Any] | None]:
    """The request's goals, clause by clause (or the branches of a conditional), and a
    conditional's test; the ids of the rules that read them are appended to ``trace``, and a question
    for each part of a conditional that no rule could read to ``unread``."""
    for form, rx in CONDITIONALS:
        m = rx.match(request)
        if m:
            trace.append(form)
            return _read_conditional(request, m, places, terms, money, dists, trace,
                                     unread if unread is not None else [])
    goals: list[Goal] = []
    # "kumparepuisto to neste, how far by car": places without a question join the next clause
    carry, held, held_trace = None, [], []
    for s, e in _clauses(request):
        start = s if carry is None else carry
        fired: list[str] = []
        got = _clause_goals(request, start, e, places, terms, money, dists, goals, fired)
        bare_route = len(got) == 1 and got[0].intent == "route" and not any(got[0].slots.values())
        if bare_route or (not got and any(inside(p.start, s, e) and p.found and p.kind != "region" for p in places)):
            # "how far, by road, the nearest pharmacy is from X": the question goes on
            carry, held, held_trace = start, got, fired
            continue
        carry, held, held_trace = None, [], []
        goals.extend(got)
        trace.extend(fired)
    trace.extend(held_trace)
    if carry is not None and not held and not held_trace and unread is not None:   # (a rule that fired may only add)
        unread += _unread_tail(request, carry, places, goals, trace)
    return goals + held, None


def _unread_tail(request: str, s: int, places: list[Place], goals: list[Goal], trace: list[str]) -> list[str]:
    """A last part that names a place of the data but that no rule reads ("…, then drv. to Think Corner")
    is asked about, never dropped silently: the question for it (and ``clause.unread`` in the trace), or
    nothing when every place in it is one that a goal already uses."""
    used = {str(v) for g in goals for v in g.slots.values()}
    part = request[s:].strip(" ,.;:!?-–—\n")
    if not any(inside(p.start, s, len(request)) and p.found and p.kind != "region"
               and not {p.id, p.name, p.written} & used for p in places) or not part:
        return []
    trace.append("clause.unread")
    return [f"what '{part}' asks (I could not read it; say it as e.g. 'the road distance from A to B' or "
            "'the nearest school to A')"]


#: a condition that is only a comparison with a number: "≥ 2", "> 3", "at least two", "under 5", "yli 2", "vähintään 3"
_BARE_TEST = re.compile(r"\s*(?:(?:<=|>=|<|>|≤|≥|⩽|⩾|=)\s*|(?:at least|no fewer than|more than|over|above|fewer than|less than|"
                        r"under|below|at most|enemmän kuin|yli|vähintään|ainakin|vähemmän kuin|alle|korkeintaan|enintään)\s+)"
                        r"(?:\d+|" + lexicon.count_pattern() + r")\s*"
                        r"(?:(?:or|tai)\s+(?:more|fewer|less|enemmän|vähemmän)\s*)?(?:of them|niitä|sellaista)?\s*[?]?\s*", re.I)


def _counted_before_bare_test(request: str, m: re.Match[str]) -> tuple[int, int] | None:
    """"banks on Kluuvikatu: if ≥ 2, list them, else nearest bank to Kluuvikatu", "Karhulan koulut: jos vähintään
    kaksi, listaa ne; muuten …": a condition that is only a comparison tests the count said before it, so that
    lead is the condition's clause (v14-cc-08 had asked what '≥ 2' asks). The lead's span, or None."""
    cond = request[m.start("cond"):m.end("cond")]
    head = request[:m.start("kw")].rstrip()
    if not _BARE_TEST.fullmatch(cond) or not head.endswith((":", ".", "—", "–", "-", ",")):
        return None
    s = len(head) - len(head.lstrip())
    e = len(head.rstrip(":.—–-, "))
    return (s, e) if e > s else None


def _read_conditional(request: str, m: re.Match[str], places: list[Place], terms: list[CategoryTerm],
                      money: list[Money], dists: list[tuple[int, int, float]],
                      trace: list[str], unread: list[str]) -> tuple[list[Goal], dict[str, Any]]:
    """"If A, B; otherwise C": each branch read as a clause, and the test the condition makes. A
    part that no rule reads is asked about (``unread``): a condition or branch is never dropped, since
    answering the others alone (or nothing but read-back notes) would answer a question not asked."""
    lead = _counted_before_bare_test(request, m)
    parts = [("if", *(lead or (m.start("cond"), m.end("cond")))), ("then", m.start("then"), m.end("then"))]
    if m.group("else"):
        parts.append(("else", m.start("else"), m.end("else")))
    goals: list[Goal] = []
    for branch, s, e in parts:
        if branch == "else" and lexicon.nothing_to_do_re().fullmatch(request[s:e].strip(" ,.;:!?-–—")):
            trace.append("conditional.else-nothing")   # "…; otherwise never mind": said to ask nothing
            continue
        if branch == "else" and lexicon.say_none_re().fullmatch(request[s:e].strip(" ,.;:!?-–—")):
            trace.append("conditional.else-say-so")   # "…, otherwise just say so": the outcome is said
            continue
        if branch == "else":
            again = _elliptic_else(request, s, e, places, goals)
            if again:   # "…; otherwise to Teboil": the then-branch's question with the new end
                trace.append("conditional.else-elliptic")
                goals += again
                continue
        fired = len(trace)
        got = _clause_goals(request, s, e, places, terms, money, dists, goals, trace, conditional=branch == "if")
        if not got and len(trace) == fired and request[s:e].strip(" ,.;:!?-–—") \
                and not (branch != "if" and ANSWERED_BY_CONDITION.search(request[s:e])):   # (a rule that fired may only add)
            trace.append("conditional.unread")
            unread.append(f"what {UNREAD_PART[branch]} '{request[s:e].strip(' ,.;:!?')}' asks (I could not read it; "
                          "say it as e.g. 'the road distance from A to B' or 'the nearest school to A')")
        for g in got:
            g.branch = branch
            goals.append(g)
    _kind_of_condition(goals)
    _place_of_condition(goals)
    _route_from_condition(goals)
    cond = request[m.start("cond"):m.end("cond")]
    if lead:   # the count said first, the comparison after "if": the test reads both
        cond = request[lead[0]:lead[1]] + " " + cond
    first = next((g for g in goals if g.branch == "if"), None)
    test = condition_test(cond, first is not None and first.intent in ("within", "count", "exists", "find"))
    if m.group("kw").casefold() == "unless":   # "unless there are chargers": if there are none
        test["op"] = NEGATED[test["op"]]
    return goals, test


#: an otherwise branch that is only a new end for the then-branch's question: "otherwise to X", "else from X",
#: "or else to X instead"; Finnish names the end by its case ("muuten Teboiliin", "muuten Kiasmasta")
_ELLIPTIC_END = re.compile(r"^\s*(?:(?:just|then|rather|instead|please|sitten|vain)\s+)*(?:(?P<dir>to|from|into|towards|for)\s+"
                           r"(?:the\s+)?)?(?P<place>.+?)(?:\s+(?:instead|then|please|sitten|sen sijaan))?\s*$", re.I | re.S)


def _elliptic_else(request: str, s: int, e: int, places: list[Place], goals: list[Goal]) -> list[Goal]:
    """"If …, tell me the road distance from A to B; otherwise to C": an otherwise branch made of a
    direction word and one place of the data repeats the then-branch's one route (or nearest search)
    with that end: "to C" its destination, "from C" its origin (a search's start place). Finnish says the
    end by its case ("muuten C:hen", "muuten C:stä"). [] when the branch is anything more."""
    text = request[s:e].strip(" ,.;:!?-–—")
    m = _ELLIPTIC_END.match(text)
    inside_places = [p for p in places if s <= p.start and p.end <= e]
    then = [g for g in goals if g.branch == "then"]
    if m is None or len(inside_places) != 1 or not inside_places[0].found or inside_places[0].kind == "region" \
            or len(then) != 1 or then[0].intent not in ("route", "nearest"):
        return []
    p = inside_places[0]
    if normalise(m.group("place")) != normalise(p.written):
        return []   # more than the place: a question of its own, read (or asked about) as such
    way = (m.group("dir") or "").casefold()
    if not way:
        way = "from" if _FROM_CASE.search(p.written) else "to" if _TO_CASE.search(p.written) else ""
    g = then[0]
    if g.intent == "route" and way in ("to", "into", "towards", "for"):
        slots = {**g.slots, "destination": p.id}
    elif g.intent == "route" and way == "from":
        slots = {**g.slots, "origin": p.id}
    elif g.intent == "nearest" and way in ("to", "from", "for"):
        slots = {**g.slots, "place": p.id}   # "the nearest pharmacy to A; otherwise to B": from B
    else:
        return []
    return [Goal(g.intent, slots, request[s:e].strip(), "else")]


def _place_of_condition(goals: list[Goal]) -> None:
    """"is there a fuel station near X, say within 1 km? if yes …, if not how many car parks are within
    1 km": a branch's search around a place that names none searches around the place the condition is
    about (X), as the reader would otherwise ask for a start place the request has already given."""
    cond = next((g for g in goals if g.branch == "if" and g.intent in ("within", "nearest")
                 and g.slots.get("place") and not str(g.slots["place"]).startswith("$goal")), None)
    if cond is None:
        return
    for g in goals:
        if g.branch in ("then", "else") and g.intent == "within" and g.slots.get("place") is None:
            g.slots["place"] = cond.slots["place"]


def _route_from_condition(goals: list[Goal]) -> None:
    """"if there's a school within 1 km of X give me the nearest one, else the distance to Y", "…; muuten matka
    Y:hyn", "…; otherwise how far Y is": a branch's route with one end unsaid, or an end that is what the other
    branch found (which never ran when this one runs), starts at the place the condition is about (X)."""
    cond = next((g for g in goals if g.branch == "if" and (g.slots.get("place") or g.slots.get("origin"))), None)
    where = cond and (cond.slots.get("place") or cond.slots.get("origin"))
    if not where or str(where).startswith("$goal"):
        return
    for g in goals:
        if g.branch not in ("then", "else") or g.intent != "route":
            continue
        other = {f"$goal:{k}" for k, h in enumerate(goals) if h.branch in ("then", "else") and h.branch != g.branch}
        ends = [g.slots.get("origin"), g.slots.get("destination")]
        if not any(e in other for e in ends) and not (None in ends and any(ends)):
            continue
        if None in ends:   # "how far Y is": from X to Y
            g.slots["origin"], g.slots["destination"] = where, next(e for e in ends if e is not None)
        else:
            g.slots["origin" if ends[0] in other else "destination"] = where


#: the intents of a branch that search for a kind, and so take the kind the condition counted
_KIND_SEARCHES = ("nearest", "within", "find", "count", "exists")


def _kind_of_condition(goals: list[Goal]) -> None:
    """"Jos Karhulassa on vähintään kaksi huoltoasemaa, kerro lähin Kerrostalosta": a branch's search
    that names no kind of its own searches for the kind the condition counted (fuel stations)."""
    cond = next((g for g in goals if g.branch == "if" and g.intent in _KIND_SEARCHES and g.slots.get("category")), None)
    if cond is None:
        return
    for g in goals:
        if g.branch in ("then", "else") and g.intent in _KIND_SEARCHES and not g.slots.get("category") \
                and not g.slots.get("word") and not g.slots.get("name"):
            g.slots.update({k: cond.slots[k] for k in ("category", "tag", "word") if k in cond.slots})


def _clause_goals(request: str, s: int, e: int, places: list[Place], terms: list[CategoryTerm], money: list[Money],
                  dists: list[tuple[int, int, float]], before: list[Goal], trace: list[str],
                  conditional: bool = False) -> list[Goal]:
    """The goals of one clause; facility words joined by "and" / "or" / "," ("banks and
    pharmacies within 300 m of Forum", "nearest pharmacy and car park to Kiasma") make one
    place query per word, each answered."""
    ct = [t for t in terms if inside(t.start, s, e)]
    run = ct[:1]
    for t in ct[1:]:
        if t.start >= run[-1].end and JOINED.fullmatch(request[run[-1].end:t.start]):
            run.append(t)
        elif len(run) < 2:
            run = [t]
    # "the road distance between the school and the fuel station": two ends of one route, not two searches
    between = bool(run) and re.search(r"\bbetween\s+the\s+$", request[max(s, run[0].start - 14):run[0].start], re.I)
    if len(run) >= 2 and len({(t.category, t.tags) for t in run}) == len(run) and not between:
        out: list[Goal] = []
        fired = ["clause.joined-kinds"]
        for t in run:
            own = [x for x in terms if x is t or x not in run]
            got = read_clause(Clause(request, s, e, places, own, money, dists, before + out, conditional), fired)
            if not got or any(g.intent not in ("nearest", "within", "find", "count", "exists", "route") for g in got):
                break
            out += got
        else:
            trace.extend(fired)
            return out
    return read_clause(Clause(request, s, e, places, terms, money, dists, before, conditional), trace)


def _total_of_joined_kinds(request: str, goals: list[Goal], trace: list[str]) -> None:
    """"cafés/shops/restaurants on Eteläranta: how many?", "how many pharmacies and dentists within 400 m of
    Stockmann?": kinds joined in one count (each kind one goal, in one clause, counted in one area or around one
    place) are also counted together, each place once, before the split: the first goal of the run carries the
    kinds (``total_kinds``; a goal of its own would renumber the "$goal:N" after it). Not where each kind is asked
    apart or compared ("how many of each", "more cafés or shops?", "montako kutakin"), nor in a condition."""
    i = 0
    while i < len(goals):
        g = goals[i]
        where = ("area", "place", "radius_m")
        run = [g]
        for h in goals[i + 1:]:
            if h.clause != g.clause or h.intent != g.intent or h.branch \
                    or any(h.slots.get(k) != g.slots.get(k) for k in where):
                break
            run.append(h)
        i += len(run)
        kinds = [{"category": h.slots.get("category"), "tag": h.slots.get("tag")} for h in run]
        start = request.find(g.clause)
        sentence = sentence_at(request, max(start, 0), max(start, 0) + len(g.clause))
        if len(run) < 2 or g.branch or g.intent not in ("count", "within") or not all(k["category"] for k in kinds) \
                or len({(k["category"], k["tag"]) for k in kinds}) < len(kinds) or W["kinds_apart"].search(sentence) \
                or (g.intent == "within" and not W["how_many"].search(sentence.casefold())):
            continue
        g.slots["total_kinds"] = [{**{k: v for k, v in kind.items() if v}, "word": h.slots.get("word") or kind["category"]}
                                  for kind, h in zip(kinds, run, strict=True)]
        trace.append("count.kinds-total")


def _missing(goals: list[Goal], region: str | None, ent: dict[str, Any]) -> list[str]:
    """Task-defining inputs the request lacks (never filled in by assumption)."""
    if not goals:
        if ent.get("places_absent") or ent.get("categories_absent"):
            return []
        if ent.get("budgets_keur"):   # "0,5 M€ please": money is for a plan, of which kind?
            return [KIND_QUESTION] + \
                (["the region (helsinki or kotka)"] if region is None else [])
        return ["what you want to know (a place query, a route or a plan)"]
    miss: list[str] = []
    for g in goals:
        if g.absent:
            continue   # answered with "X is not in the data"
        miss += INTENT_CLASSES[g.intent].missing(g.slots)
    if region is None and any(INTENT_CLASSES[g.intent].needs_region for g in goals):
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
