"""Name forms the resolver alone does not read right, fixed on the places ``cognition`` found:

* a Finnish genitive before a facility noun is ONE name ("Vallilan kirjasto", "Kaartinkaupungin
  uimahalli"): the genitive is no descriptor of the district or shop it inflects, so the phrase is
  the facility the data so names, or absent — never the district ("Stockmann department store"
  stays Stockmann: there the name is written as it is, not inflected);
* a data name with a place noun joined by a hyphen ("Seepra-kortteli", "Leijona-kortteli") is that
  name (the block itself), as the instruction resolver reads "the Leijona block".

Each function takes the places and gives them back changed; nothing else in the reading moves."""
from __future__ import annotations

import re
from functools import cache

from ...city import lexicon
from ...city.names import Match, NamedFeature, NameIndex, normalise
from ...city.region_names import region_as_area, region_of_word
from ...city.vocabulary import category_terms, matches_tags
from .reading import AREA_KINDS, Place, sentence_at
from .wording import CUES, PLAN_NOUN

#: a capitalised word in the genitive (ends in -n) and the lowercase word after it
_GENITIVE_NOUN = re.compile(r"([A-ZÅÄÖ][\w-]*n)\s+([a-zåäö][\w-]*)\b")


@cache
def _landmark_word() -> re.Pattern[str]:
    """A lowercase word ending in a landmark noun, with any Finnish case ending ("uimahallissa")."""
    return re.compile(rf"[a-zåäö-]*(?:{lexicon.landmark_nouns_pattern()})\w*", re.I)


def _facility_noun(word: str) -> bool:
    """``word`` names a kind of facility or landmark ("kirjasto", "uimahalli", "terveysasemalta")
    in the singular: a nominative plural ("koulut", "apteekit") is the kind in that district; a plan
    noun ("latausasemasuunnitelma": a charging-station plan) is a task word, never a facility's name."""
    if word.endswith("t") or PLAN_NOUN.fullmatch(word):
        return False
    return bool(category_terms(word)) or _landmark_word().fullmatch(word) is not None


def _base_form(noun: str) -> str:
    """The noun without a Finnish case ending when what is left still names the facility
    ("terveysasemalta" → "terveysasema", "uimahallista" → "uimahalli"); else as written."""
    for end in reversed(lexicon.name_case_endings()):   # shortest first: "uimahallista" is -sta, not -ista
        stem = noun[:-len(end)]
        if noun.endswith(end) and len(stem) >= 4 and stem[-1] in "aeiouyäö" and stem[-1] != stem[-2] \
                and _facility_noun(stem):   # a nominative ends in one vowel ("kirjastoon" is no "kirjastoo")
            return stem[:-3] + "s" if stem.endswith("kse") else stem   # "kauppakeskukse-" is "kauppakeskus"
    return noun


def _fits(feature_category: str, feature_tags: dict[str, str], noun: str) -> bool:
    """The feature is of the kind the noun names ("Apteekki Bulevardia" is a pharmacy)."""
    return any(t.category == feature_category and matches_tags(feature_tags, t.tag_filter())
               for t in category_terms(noun))


def facility_word_heads(request: str, places: list[Place], idx: NameIndex) -> list[Place]:
    """"lähin apteekki Kluuvin kauppakeskuksesta": a name matched inexactly ("apteekki Kluuvin" as
    the words of Kluuvin Apteekki) that starts with a lower-case facility word asked for is no name
    with that word: the word is the kind asked for, the name what follows it (read again)."""
    out = []
    for p in places:
        head = re.match(r"([a-zåäö][\w-]*)\s+", p.written)
        if not (p.found and p.match is not None and p.match.how not in ("exact", "alias") and head
                and category_terms(head.group(1))):
            out.append(p)
            continue
        start = p.start + head.end()
        rest = request[start:p.end]
        res = idx.resolve(rest)
        f = res.feature if res.status == "found" else None
        out.append(Place(start, p.end, rest, f.name, f.id, f.kind, match=res.candidates[0]) if f is not None
                   else Place(start, p.end, rest, "", "", "", res.message))
    return out


def genitive_names(request: str, places: list[Place], idx: NameIndex) -> list[Place]:
    """"Vallilan kirjasto": a found name written in the genitive (inflected, not as the data writes
    it) right before a singular facility noun is read with the noun as one name, when the name is a
    district or area or a feature of another kind than the noun's. The whole phrase is then what
    the resolver makes of it: the facility so named, or absent with its message."""
    out = []
    for p in places:
        m = _GENITIVE_NOUN.match(request, p.start)
        if not (p.found and p.match is not None and p.kind != "region" and m and m.end(1) <= p.end):
            out.append(p)
            continue
        genitive, noun = m.group(1), m.group(2)
        f = p.match.feature
        own = normalise(p.match.matched).split()
        inflected = normalise(genitive) not in own and normalise(noun) not in own and not idx.is_name(genitive) \
            and not idx.is_name(request[p.start:m.end()])   # "Heleniuksen talo" is a data name as written
        # a district, street or area with any facility noun; a shop or building only with a kind it is not
        # ("Vallilan kirjasto": the shop Vallila is no library; "Stockmannin tavaratalo" is Stockmann)
        district = f.kind in AREA_KINDS or any(normalise(m.feature.name) == normalise(p.match.matched)
                                               for m in idx.lookup(p.match.matched, kinds=AREA_KINDS, limit=2))
        if not inflected or not _facility_noun(noun) or (not district and (
                not category_terms(noun) or _fits(f.category, dict(f.tags), noun))):
            out.append(p)
            continue
        end = m.end()
        written = request[p.start:end]
        said = request[p.start:m.start(2)] + _base_form(noun)   # "Kluuvin terveysasemalta" → "… terveysasema"
        fronted = f"{_base_form(noun)} {p.match.matched}"   # "Kluuvin kauppakeskus": the data's "Kauppakeskus Kluuvi"
        res = idx.resolve(fronted if idx.is_name(fronted) else said)
        g = res.feature if res.status == "found" else None
        if g is not None and g.id != f.id and g.kind != "region" and res.candidates[0].how != "contains":
            out.append(Place(p.start, end, written, g.name, g.id, g.kind, match=res.candidates[0]))
        else:
            out.append(Place(p.start, end, written, "", "", "", res.message if res.status == "missing"
                             else f"'{said}' is not in the {idx.region} data."))
    return _drop_covered(out)


def _drop_covered(places: list[Place]) -> list[Place]:
    """Places inside a longer one made here are part of it ("kirjasto" of "Vallilan kirjasto")."""
    return [p for p in places if not any(q is not p and q.start <= p.start and p.end <= q.end
                                         and (q.end - q.start) > (p.end - p.start) for q in places)]


@cache
def _hyphen_place_noun() -> re.Pattern[str]:
    return re.compile(rf"(.+?)-(?:{lexicon.place_nouns_pattern()})", re.I)


def hyphen_place_nouns(places: list[Place], idx: NameIndex) -> list[Place]:
    """"Seepra-kortteli": an absent name that is a data name joined by a hyphen to a place noun
    (block, plot, kortteli, tontti …) is that name, whose outline is meant."""
    out = []
    for p in places:
        m = _hyphen_place_noun().fullmatch(p.written.strip()) if not p.found else None
        if m and idx.is_name(m.group(1)):
            res = idx.resolve(m.group(1))
            if res.status == "found" and res.feature is not None:
                f = res.feature
                p = Place(p.start, p.end, p.written, f.name, f.id, f.kind, match=res.candidates[0])
        out.append(p)
    return out




#: a name joined by a hyphen to a lower-case noun with any ending: "Kalat-patsaalta", "Havis Amanda -patsaalle"
#: the tags that say what a feature is, named when a kind noun after its name disagrees
_DEFINING = ("tourism", "leisure", "amenity", "shop", "office", "healthcare", "building", "landuse", "natural")
_HYPHEN_NOUN = re.compile(r"(?P<name>\S.*?)\s?-(?P<noun>[a-zåäö][\w]*)")


@cache
def _kind_nouns() -> tuple[tuple[re.Pattern[str], tuple[str, ...], dict[str, tuple[str, ...] | None]], ...]:
    return tuple((re.compile(rf"(?:{rx})", re.I), kinds, tags) for rx, kinds, tags in lexicon.kind_nouns())


def kind_agrees(f: NamedFeature, noun: str) -> bool | None:
    """Whether the kind noun ``noun`` (any case: "patsaalta", "kirjastosta", "museoon") fits the feature
    ``f``: its kind or OSM tags (lexicon ``kind_nouns``), the category a facility word names, or the
    noun in one of its own names ("Museum of Modern Art Kiasma" is a museum whatever its tags say).
    None when ``noun`` is no kind noun at all."""
    base = _base_form(noun)
    said = False
    # the noun or the last part of a compound of it ("taidemuseoon": an art museum, "pronssipatsaalta")
    parts = [noun, base, *(noun[i:] for i in range(3, len(noun) - 3))]
    for rx, kinds, tags in _kind_nouns():
        if any(rx.fullmatch(w) for w in parts):
            said = True
            if f.kind in kinds or any(f.tag(k) and (vals is None or f.tag(k) in vals) for k, vals in tags.items()):
                return True
            if any(rx.fullmatch(w) for n in (f.name, *f.aliases) for w in normalise(n).split()):
                return True
    if category_terms(base) or category_terms(noun):
        said = True
        if _fits(f.category, dict(f.tags), base) or _fits(f.category, dict(f.tags), noun):
            return True
    return False if said else None


def hyphen_kind_name(text: str, idx: NameIndex) -> tuple[NamedFeature | None, str]:
    """"Kalat-patsaalta", "Oodi-kirjastosta", "Havis Amanda -patsaalle": a data name (as written, or an
    alias) joined by a hyphen to its own kind noun in any Finnish case is that place when the noun
    agrees with it (``kind_agrees``). Gives (the feature, "") then; (None, a message naming the data
    name) when the noun names another kind; (None, "") when ``text`` is no such form."""
    m = _HYPHEN_NOUN.fullmatch(text.strip())
    if m is None or not idx.is_name(m.group("name")):
        return None, ""
    res = idx.resolve(m.group("name"))
    f = res.feature if res.status == "found" else None
    if f is None or f.kind == "region":
        return None, ""
    same = [g for g in idx.features if normalise(g.name) == normalise(f.name)] or [f]
    agree = [kind_agrees(g, m.group("noun")) for g in same]
    if any(agree):
        return next(g for g, a in zip(same, agree, strict=True) if a), ""
    if all(a is None for a in agree):
        return None, ""
    tags = ", ".join(f"{k}={v}" for k, v in f.tags if k in _DEFINING) or f.kind
    return None, (f"'{text.strip()}' is not in the {idx.region} data — {f.name} there is {tags}, not the kind "
                  f"'{m.group('noun')}' names; did you mean {f.name}?")


def hyphen_kind_nouns(places: list[Place], idx: NameIndex) -> list[Place]:
    """An absent name that is a data name and its own kind noun joined by a hyphen (``hyphen_kind_name``)
    is that place; with a kind noun that names another kind it stays absent, its message naming the
    data name (never "outside the loaded regions")."""
    out = []
    for p in places:
        if not p.found:
            f, message = hyphen_kind_name(p.written, idx)
            if f is not None:
                p = Place(p.start, p.end, p.written, f.name, f.id, f.kind, match=Match(f, 95.0, "alias", f.name))
            elif message:
                p = Place(p.start, p.end, p.written, "", "", "", message)
        out.append(p)
    return out


@cache
def _area_words() -> tuple[re.Pattern[str], re.Pattern[str]]:
    words = lexicon.load("tasks")["region_area_words"]
    return (re.compile(rf"(?:(?:the|koko)\s+)?(?:(?:{words['before']})(?:\s+|-))+$", re.I),
            re.compile(rf"(?:\s+|-)(?:{words['after']})\b", re.I))


def region_areas(request: str, places: list[Place], idx: NameIndex) -> list[Place]:
    """"a land-use plan for the Helsinki area", "koko Kotkan alueelle", "greater Helsinki": a name run
    that is the asked region said as an area (``region_names.region_as_area``, with the area words
    around it) is the region itself, never a place the data lacks (nor one it has, "Helsinki" of a
    "Helsinki area tax office")."""
    region = next((f for f in idx.features if f.kind == "region"), None)
    if region is None:
        return places
    before, after = _area_words()
    out = []
    for p in places:
        b = before.search(request, 0, p.start)
        a = after.match(request, p.end)
        s, e = (b.start() if b else p.start), (a.end() if a else p.end)
        head, _, last = p.written.strip().rpartition(" ")
        named_on = re.match(r"\s*-?\s*[A-ZÅÄÖ]", request[e:]) is not None   # "the Helsinki Area Tax Office": a name
        if p.kind != "region" and not named_on and region_as_area(request[s:e], [idx.region]) == idx.region:
            p = Place(s, e, request[s:e], region.name, region.id, region.kind,
                      match=Match(region, 95.0, "alias", region.name))
        elif not p.found and region_as_area(p.written, [idx.region], centre=True) == idx.region \
                and re.search(CUES["plan"], sentence_at(request, p.start, p.end).casefold()):
            # "a plan for the Helsinki city centre with 250 000 euros": the plan's area, the region itself (a plan
            # covers the whole region), never a name to look up; a count there keeps the name
            p = Place(p.start, p.end, p.written, region.name, region.id, region.kind,
                      match=Match(region, 95.0, "alias", region.name))
        elif not p.found and head and region_of_word(last, [idx.region]) == idx.region:
            # "Tikankatu Kotkassa", "Koulukatu Tampereella": a name, then the region it is in
            res = idx.resolve(head)
            f = res.feature if res.status == "found" else None
            if f is not None and f.kind != "region" and res.candidates[0].how in ("exact", "alias"):
                p = Place(p.start, p.start + len(head), head, f.name, f.id, f.kind, match=res.candidates[0])
        out.append(p)
    return _drop_covered(out)


@cache
def _the_place_noun() -> re.Pattern[str]:
    nouns = lexicon.place_nouns_pattern()
    return re.compile(rf"\b(?:to|from|of|near|around|inside|by)\s+(?:the|that|this)\s+(?:city\s+)?(?P<noun>{nouns})\b",
                      re.I)


def place_noun_refs(request: str, places: list[Place]) -> list[Place]:
    """"Seepra-kortteli: …, and which theatre is nearest to the block?": "the block", "that
    building" (a place noun after to / from / of / near …) with no name of its own is the place
    named last before it (a found one, not the region), added as a place at the noun's span."""
    out = list(places)
    for m in _the_place_noun().finditer(request):
        if m.group("noun").endswith("s") or any(p.start < m.end() and m.start("noun") < p.end for p in places):
            continue   # "the blocks": several; a name already there
        ref = next((p for p in sorted(places, key=lambda p: -p.start) if p.end <= m.start() and p.found
                    and p.kind != "region"), None)
        if ref is not None:
            out.append(Place(m.start("noun"), m.end("noun"), m.group("noun"), ref.name, ref.id, ref.kind,
                             match=ref.match, area_name=ref.area_name))
    return sorted(out, key=lambda p: p.start)


def inner_suggestions(places: list[Place], idx: NameIndex) -> list[Place]:
    """"Ateneum Art Museum" (the data has Ateneum, with no such alias): the name stays absent — the
    index is what says which English names a feature answers to — but the data name it starts with
    is the first "did you mean"."""
    for p in places:
        words = p.written.split()
        if p.found or len(words) < 2 or "did you mean" not in p.message and not p.message.endswith("data."):
            continue
        inner = next((" ".join(words[:k]) for k in range(len(words) - 1, 0, -1) if idx.is_name(" ".join(words[:k]))),
                     None)
        if inner is None:
            continue
        name = idx.resolve(inner).feature
        if name is None or name.name in p.message.partition("did you mean")[2]:
            continue
        near = [name.name] + [n for n in idx.suggestions(p.written) if n != name.name][:2]
        p.message = f"'{p.written}' is not in the {idx.region} data — did you mean {' or '.join(near)}?"
    return places


def leading_words_said_before(places: list[Place]) -> list[Place]:
    """"how far is Minuuttibaari from Dubliner Kaivopiha? and how many pubs are around the Dubliner":
    a name the data lacks that is the leading word(s) of one place found earlier in the same request is
    that place (only then: two earlier places so starting, or none, leave it absent)."""
    out = list(places)
    for i, p in enumerate(out):
        words = normalise(re.sub(r"^(?:the|that)\s+", "", p.written, flags=re.I)).split()
        if p.found or not words:
            continue
        earlier = {q.id: q for q in out[:i] if q.found and q.kind != "region" and q.end <= p.start
                   and len(normalise(q.name).split()) > len(words)
                   and normalise(q.name).split()[:len(words)] == words}
        if len(earlier) == 1:
            q = next(iter(earlier.values()))
            out[i] = Place(p.start, p.end, p.written, q.name, q.id, q.kind, match=q.match, area_name=q.area_name)
    return out


#: Finnish local cases by what they say of a place: "Töölöstä" (from), "Haminaan", "Espoolle" (to)
FROM_ENDINGS = r"sta|stä|lta|ltä"
TO_ENDINGS = r"aan|ään|een|iin|oon|uun|yyn|öön|hin|seen"
#: Finnish local cases: "Kalliossa" (in), "Töölöstä" (from), "Vantaalla" (at), "Espoolle" (to)
_LOCATIVE = re.compile(rf"[A-ZÅÄÖ][\w-]{{2,}}(?:ssa|ssä|lla|llä|lle|{FROM_ENDINGS}|{TO_ENDINGS})")


def locative(written: str) -> bool:
    """``written`` is one capitalised word in a Finnish local case ("Kalliossa", "Haminaan"): a
    district or town the request places something in, from or to — an area's place."""
    return _LOCATIVE.fullmatch(written.strip()) is not None


def name_forms(request: str, places: list[Place], idx: NameIndex) -> list[Place]:
    """All of the above but ``leading_words_said_before``, in order, on the places found in ``request``. That one
    runs once, in ``cognition``, after the reading has set districts apart ("around the Dubliner" is first read
    as a part of a building's name, said to be absent, then found again as the Dubliner Kaivopiha said before)."""
    places = hyphen_place_nouns(genitive_names(request, facility_word_heads(request, places, idx), idx), idx)
    places = region_areas(request, hyphen_kind_nouns(places, idx), idx)
    return inner_suggestions(place_noun_refs(request, places), idx)


__all__ = ["facility_word_heads", "genitive_names", "hyphen_kind_name", "hyphen_kind_nouns", "hyphen_place_nouns",
           "inner_suggestions", "kind_agrees", "leading_words_said_before", "locative", "name_forms", "place_noun_refs",
           "region_areas"]
