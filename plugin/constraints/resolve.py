"""Place resolution for constraints: a target in words → a geometry in the instance's data.

Everything a constraint names is looked up in the data, never invented: candidate ids, sites,
parcels and links in the candidate table; place names through the shared place-name resolver
(``plugin.city.names``: POIs, streets, named areas and places of the region's OSM extract,
with aliases and misspellings), and POI categories in the City's POIs. A misspelt or partial
name is read as the one data name it stands for (the reply says so); a name that is not there
is a ``Clarify`` with the resolver's "X is not in the … data — did you mean …?", a name of
several different places one that lists them. ``resolve_target`` is the one entry point.

Geometry of a name: a street is its line (the City's road edges of that name; else the
resolver's corridor); a named polygon is itself; a place node is its point for a distance
and its approximate area (the resolver's Voronoi cell) for "inside"; a POI kept as a point
is measured from the OSM outline of that name when the data maps one (a building, a park),
else from its point, and the note says so. Features that share the found name exactly (a chain's shops, a place and its
station) are taken together.
"""
from __future__ import annotations

import contextlib
import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import shapely

from ..city import CATEGORIES, REGIONS, lexicon, load_city
from ..city.names import FUZZY_MIN, Match, NamedFeature, name_index, normalise
from ..city.osm import read_osm
from ..tasks.base import Instance
from . import own_places
from .compile import by_id, candidate_geometries
from .spelling import clearly_misspelt, said_form, spelling_distance

_FACILITIES = [(re.compile(p, re.I), c, t) for p, c, t in lexicon.facility_terms()]
#: a generic noun after a data name ("the Makasiinit block", "the Sanomatalo plot": resources/lexicon/facilities.json)
#: one or two of them, "city" before one: "the Kirahvi city block", "the Hopeatalo building footprint"
PLACE_NOUN = re.compile(r"(?:\s+(?:city\s+)?(?:" + lexicon.place_nouns_pattern() + r")){1,2}$", re.I)
#: a noun for the outline after a name, and one lower-case kind word before it ("the Kumparepuisto park
#: boundary", "the Lohi block edge", "Kumparepuiston reuna"): a named place is measured from its outline anyway
EDGE_NOUN = re.compile(r"(?:['’]s)?\s+(?:outer\s+)?(?i:" + lexicon.edge_nouns_pattern() + r")$")
KIND_EDGE_NOUN = re.compile(r"(?:['’]s)?\s+[a-zåäö]+\s+(?:outer\s+)?(?i:" + lexicon.edge_nouns_pattern() + r")$")
#: the edge noun before the name: "the edge of Kumparepuisto park", "the outline of the X building"
EDGE_OF = re.compile(r"^(?:the\s+)?(?:outer\s+)?(?i:" + lexicon.edge_nouns_pattern() + r")\s+of\s+(?:the\s+)?")
#: the same nouns before the name: "the city block Lohi", "kortteli Leijona" (the name capitalised)
PLACE_NOUN_BEFORE = re.compile(r"^(?i:(?:the\s+)?(?:city\s+)?(?:" + lexicon.place_nouns_pattern() + r"))\s+(?=[A-ZÅÄÖ])")
#: a kind noun after a name that the name lacks ("the Albert Edelfelt statue", "Kumparepuisto park"; lexicon
#: ``kind_nouns``), or a generic one ("place"): the name is looked up without it, and the kind must agree
KIND_NOUNS = [(re.compile(rf"(?:{rx})", re.I), kinds, tags) for rx, kinds, tags in lexicon.kind_nouns()]
GENERIC_KIND = re.compile(rf"(?:{lexicon.generic_kind_nouns_pattern()})", re.I)
KIND_NOUN_AFTER = re.compile(r"(?:['’]s)?\s+(?:" + "|".join(rx.pattern for rx, _, _ in KIND_NOUNS) + "|"
                             + GENERIC_KIND.pattern + r")$", re.I)
#: the kind noun before the name ("the park Kumparepuisto", "the school Helilän koulu") or joined to it with a hyphen
#: ("Kumparepuisto-puisto", of "Kumparepuisto-puistoon"): read past like one after it, and checked the same way
_KIND_ALTERNATION = "|".join(rx.pattern for rx, _, _ in KIND_NOUNS) + "|" + GENERIC_KIND.pattern
KIND_NOUN_BEFORE = re.compile(r"^(?:(?i:the)\s+)?(?i:" + _KIND_ALTERNATION + r")\s+(?=[A-ZÅÄÖ@])")
KIND_NOUN_HYPHEN = re.compile(r"(?<=\w)-(?:" + _KIND_ALTERNATION + r")$", re.I)
STREET_REACH_M = 150.0   # "the school on X street": a school this close to the street


class Clarify(Exception):
    """The target cannot be resolved without the planner: the message is the question."""


@dataclass
class Resolved:
    label: str               # the data's name for it (what the reply and the constraint record)
    wkt: str                 # its geometry in the instance CRS
    category: str | None = None
    note: str | None = None  # e.g. "read 'Simonpuistiko' as 'Simonpuistikko'"


def category_of(word: str | None) -> str | None:
    """The POI category a target word names ("pharmacy" → clinic, "car park" → parking,
    "stations" → charging), read with the lexicon's facility words; None for anything else."""
    w = re.sub(r"^(?:the|a|an|any|every|all|existing)\s+", "", str(word or "").strip().casefold())
    if not w:
        return None
    hit = next((c for rx, c, _ in _FACILITIES if rx.fullmatch(w)), None)
    if hit:
        return hit
    aliases = lexicon.target_aliases()
    single = re.sub(r"(?<=[a-z])s$", "", w)
    return aliases.get(w) or aliases.get(single) or (w if w in CATEGORIES else single if single in CATEGORIES else None)


def numbers_held(inst: Instance, show: int = 16) -> str:
    """The numbers a planner may give the instance's candidates by, for a question about one it lacks:
    its parcels / blocks (land faces), sites (station) or links (road: new, then rebuilt). A number
    is the candidate's own (the face, site or link id the layers show), never its place in a list:
    "block 8" where the instance has no face 8 is asked, not read as the eighth block."""
    cands = inst.candidates
    col, noun = ("face_id", "parcels / blocks") if "face_id" in cands else ("site", "sites") if "site" in cands \
        else ("id", "links")
    nums = sorted({int(m.group(1)) for v in cands[col].astype(str) if (m := re.match(r"^[a-z]*0*(\d+)", v, re.I))})
    if not nums:
        return f"ids look like {', '.join(inst.ids[:3])}"
    more = f" … ({len(nums)} in all)" if len(nums) > show else ""
    return f"its {noun} are numbered {', '.join(map(str, nums[:show]))}{more}"


def region_of(inst: Instance) -> str | None:
    region = str(inst.meta.get("region", ""))
    return region if region in REGIONS else None


def extent(inst: Instance, margin: float) -> Any:
    return shapely.box(*shapely.bounds(shapely.union_all(candidate_geometries(inst)))).buffer(margin)


def resolve_target(inst: Instance, target: dict[str, Any], reach: float = 0.0, area: bool = False) -> Resolved:
    """The geometry of ``target`` ({id, name, category}) in ``inst``'s data; raises Clarify.
    ``area``: the constraint means the inside of the place (a place node's approximate area)."""
    tid, name, cat = (str(target.get(k) or "").strip() for k in ("id", "name", "category"))
    if tid:
        m = by_id(inst, tid)
        if not m.any():
            raise Clarify(f"there is no candidate, site, parcel or link '{tid}' in this instance "
                          f"({numbers_held(inst)})")
        return Resolved(tid, shapely.union_all(candidate_geometries(inst)[m]).wkt)
    region = region_of(inst)
    own = own_places.source_of(inst) if region is None else None
    if own is not None:   # a city of the planner's own layers: its names, measured from its geometry
        return own_places.resolve_own(inst, own, target, area, Clarify, Resolved)
    if region is None:
        raise Clarify("this instance has no place data: name a candidate, site, parcel or link instead")
    if cat and not name:
        c = category_of(cat)
        if c is None:
            raise Clarify(f"'{cat}' is not a feature category in the data ({', '.join(CATEGORIES)})")
        pois = load_city(region).pois
        pts = pois.geometry.values[(pois["category"] == c).to_numpy()]
        pts = pts[shapely.intersects(pts, extent(inst, reach + 500.0))]
        return Resolved(f"any {c}", shapely.union_all(shapely.centroid(pts)).wkt, category=c)
    if not name:
        raise Clarify("which place do you mean? (a name in the data, a site, parcel or link, or a category)")
    return _named(region, name, category_of(cat), area)


def _named(region: str, name: str, cat: str | None, area: bool) -> Resolved:
    text = re.sub(r"^(?:the|a|an)\s+", "", name.strip(), flags=re.I).strip(" .,'\"")
    on = re.match(r"^(.+?)\s+(?:on|at|in)\s+(.+)$", text, re.I)
    if on and category_of(on.group(1)):                  # "the school on Lapinlahdenkatu"
        kind = category_of(on.group(1))
        street = _find(region, on.group(2), None, ("street",))
        line = _geometry(region, street, False)
        near = [f for f in name_index(region).features if f.kind == "poi" and f.category == kind
                and shapely.distance(shapely.Point(f.x, f.y), line) <= STREET_REACH_M]
        names = sorted({f.name for f in near})
        if not names:
            raise Clarify(f"no {kind} within {STREET_REACH_M:g} m of {street.name} in the {region} data")
        if len(names) > 1:
            raise Clarify(f"several places on {street.name}: {', '.join(names[:6])}; which one?")
        return Resolved(names[0], shapely.union_all([shapely.Point(f.x, f.y) for f in near]).wkt, kind,
                        _read_as(on.group(2), street))
    said = text
    try:
        f = _find(region, text, cat)
    except Clarify as missing:   # "the Leijona block", "the Pörssitalo outline": the name without its generic noun
        found = None
        for bare in _without_nouns(text):
            first = name_index(region).lookup(bare, limit=1)
            if first and first[0].how in ("words", "contains"):
                continue   # the name before the noun is a name, not a part of one ("Esplanadi park")
            with contextlib.suppress(Clarify):
                found, said = _find(region, bare, cat), bare
                break
        # a Finnish case ending or its linking vowel ("Stockmannista" → "Stockmanni" → Stockmann): the
        # name index's one reading of Finnish stems, only onto a name the data has as written
        stem = None if found else name_index(region).case_stem(text, linking_vowel=True)
        if stem:
            try:
                found = _find(region, stem, cat)
            except Clarify:   # the planner's words are what is not in the data
                raise missing from None
        if found is None:
            raise
        f = found
        _kind_agrees(region, f, text, said)
    geom = _geometry(region, f, area)
    # a distance from a point is said to be one (the data maps no outline of that feature), and one
    # from the building that holds a POI is said to be that
    point = None if area or geom.geom_type not in ("Point", "MultiPoint") else \
        f"distances measured from the point where the data places {f.name} (it maps no outline of it)"
    if not area and point is None and f.kind == "poi" and (f.area is None or f.approximate) \
            and normalise(f.name) not in _poi_outlines(region):
        point = f"distances measured from the outline of the building that holds {f.name}"
    if point is None and not area and _edge_said(text):   # "within 200 m of its outline": the reply says it is
        point = f"distances measured from the outline of {f.name} (its edge as the data maps it)"
    note = "; ".join(x for x in (_read_as(said, f), point) if x) or None
    return Resolved(f.name, geom.wkt, f.category if f.kind == "poi" else None, note)


def _kind_agrees(region: str, f: NamedFeature, text: str, bare: str) -> None:
    """Clarify when a kind noun the planner put after the name (``text`` less ``bare``) disagrees with the
    feature found: "the Albert Edelfelt statue" is the artwork, "Kiasma park" no park (asked); a facility
    word agrees with the feature's category, a generic noun ("place") with any feature."""
    removed = text.replace(bare, " ", 1) if bare in text else text
    kind = re.sub(r"^\s*(?:the|a|an)\s+|['’]s\b", " ", removed).strip()
    cat = category_of(kind) if " " in kind else None
    if cat:   # a facility kind of two words ("car park", "parking garage"): the feature's category, as one word's is
        same = [g for g in name_index(region).features if normalise(g.name) == normalise(f.name)] or [f]
        if not any(g.category == cat or _public_use(g, kind) or (g.kind in ("poi", "area") and not g.category
                                                                and not any(g.tag(k) for k in DEFINING_TAGS))
                   for g in same):
            raise _other_kind(region, f, text, kind)
        return
    for word in re.findall(r"[^\W\d_][\w-]*", re.sub(r"['’]s\b", "", removed)):
        if word.casefold() in ("the", "a", "an", "of", "city") or GENERIC_KIND.fullmatch(word):
            continue
        # every feature of the found name (as its geometry takes them together): one that fits, or one whose
        # tags say nothing of what it is ("Kansallisarkisto" is a building and an untagged point), is enough
        same = [g for g in name_index(region).features if normalise(g.name) == normalise(f.name)] or [f]
        fits = [_kind_of(region, g, word) for g in same]
        if all(v is False for v in fits):
            raise _other_kind(region, f, text, word)


def _other_kind(region: str, f: NamedFeature, text: str, kind: str) -> Clarify:
    """The question for a name whose kind noun disagrees with the feature found: the words said are not in
    the data ("Erottajan terveysasema", a health station of Erottaja), and what the found feature is."""
    return Clarify(f"'{text.strip()}' is not in the {region} data: {f.name} there is {_what(f)}, not a {kind} — "
                   f"which place do you mean? (say '{f.name}' alone for it)")


#: what a building tagged only as public may be used as (lexicon ``public_building_uses``)
PUBLIC_USE = re.compile(rf"(?:{lexicon.load('facilities')['public_building_uses']})", re.I)
#: the tags that say what a building is used for: a building with none of them says only that it is public
USE_TAGS = ("amenity", "tourism", "shop", "leisure", "office", "healthcare")


def _public_use(f: NamedFeature, kind: str) -> bool:
    """``kind`` ("museum", "school") is a use of ``f``, a building the data tags only as public ("the Kiasma museum":
    Kiasma is building=public): it names that building, as a kind its tags say nothing against."""
    return f.tag("building") in ("public", "civic", "government") and not any(f.tag(k) for k in USE_TAGS) \
        and bool(PUBLIC_USE.fullmatch(kind.strip()))


def _kind_of(region: str, f: NamedFeature, word: str) -> bool | None:
    """Whether the kind noun ``word`` fits ``f`` (None: ``word`` is no kind noun)."""
    if _public_use(f, word):
        return True
    said_nothing = f.kind in ("poi", "area") and not f.category and not any(f.tag(k) for k in DEFINING_TAGS)
    for rx, kinds, tags in KIND_NOUNS:
        if rx.fullmatch(word):
            if said_nothing:   # an untagged point or area ("Lundqvistin liiketalo"): nothing to disagree with
                return True
            if f.kind in kinds or any(f.tag(k) and (vals is None or f.tag(k) in vals) for k, vals in tags.items()):
                return True
            if "building" in kinds and f.kind == "poi":   # a shop or office inside a mapped building
                _, _, tree = _osm_shapes(region)
                return bool(len(tree.query(shapely.Point(f.x, f.y), predicate="within")))
            return False
    # a facility word names a service the data files under a category ("Erottajan terveysasema": a health
    # station of Erottaja): only a feature of that category is it — an untagged point of the name is
    # another place, asked, where a generic kind noun ("building", "block") above may still fit it
    cat = category_of(word)
    return None if cat is None else f.category == cat


#: the tags that say what a feature is (a kind noun after its name is checked against them)
DEFINING_TAGS = ("tourism", "leisure", "amenity", "shop", "office", "healthcare", "place", "building", "highway",
                 "landuse", "natural")


def _what(f: NamedFeature) -> str:
    """What a feature is, from its tags, for a question ("an artwork", "a building", "a park")."""
    for key in ("tourism", "leisure", "amenity", "shop", "office", "place", "building", "highway"):
        v = f.tag(key)
        if v and v not in ("yes",):
            v = v.replace("_", " ") + (" building" if key == "building" else "")
            return f"{'an' if v[0] in 'aeiou' else 'a'} {v}"
    return {"building": "a building", "street": "a street", "place": "a place", "area": "an area"}.get(f.kind, "a place")


def _edge_said(text: str) -> bool:
    """The planner named the place's outline ("UPM building's outline", "the edge of Kumparepuisto park",
    "the Kiasma footprint")."""
    return bool(EDGE_NOUN.search(text) or KIND_EDGE_NOUN.search(text) or EDGE_OF.match(text)
                or re.search(r"\bfootprints?$", text, re.I))


def _without_nouns(text: str) -> list[str]:
    """``text`` without the generic nouns after (or before) a name, most words kept first: an edge noun
    ("… park boundary" → "… park", then "…"), then the place nouns ("the Kirahvi city block" → "Kirahvi")."""
    out: list[str] = []
    edge_of = EDGE_OF.sub("", text)   # "the edge of Kumparepuisto park": the name, with or without its kind word
    for t in dict.fromkeys((EDGE_NOUN.sub("", text), KIND_EDGE_NOUN.sub("", text), edge_of,
                            re.sub(r"['’]s\s+", " ", text),   # "the Kiasma building's footprint"
                            re.sub(r"\s+[a-zåäö]+$", "", edge_of) if edge_of != text else text, text)):
        out += [t, PLACE_NOUN_BEFORE.sub("", PLACE_NOUN.sub("", t)), re.sub(r"\s+(?:park|garden)$", "", t),
                KIND_NOUN_AFTER.sub("", t),   # "the Albert Edelfelt statue": the kind is checked once found
                KIND_NOUN_BEFORE.sub("", t), KIND_NOUN_HYPHEN.sub("", t)]
        for facility in (re.match(r"^(.+?)(?:['’]s)?\s+([^\W\d_][\w-]*)$", t),
                         # a kind of two words ("the @ Metallitalo car park", "Q-Park Erottaja parking garage")
                         re.match(r"^(.+?)(?:['’]s)?\s+([^\W\d_][\w-]*\s+[^\W\d_][\w-]*)$", t)):
            if facility and category_of(facility.group(2)):   # "the Stockmann shop": the category is checked too
                out.append(facility.group(1))
    return [t for t in dict.fromkeys(out) if t.strip() and t != text]


def _find(region: str, text: str, cat: str | None, kinds: tuple[str, ...] | None = None) -> NamedFeature:
    """The feature ``text`` names (the shared resolver's decision; a category narrows it)."""
    idx = name_index(region)
    if cat:
        of_cat = [m for m in idx.lookup(text, kinds, limit=8) if m.feature.category == cat
                  and (m.how != "fuzzy" or clearly_misspelt(text, m.matched))]
        if of_cat and (len(of_cat) == 1 or of_cat[0].score > of_cat[1].score):
            return of_cat[0].feature
    r = idx.resolve(text, kinds)
    if r.status == "found" and r.candidates[0].how == "fuzzy" and not (
            _alike(text, r.candidates[0]) and clearly_misspelt(text, r.candidates[0].matched)):
        # a changed letter in a short name makes another place: "Hamina" (a town) is no misspelt Humina; a
        # word put in makes another place too: "Kaisaniemen uimaranta" (a beach) is no misspelt Kaisaniemenranta
        raise Clarify(f"'{text}' is not in the {region} data — did you mean {r.feature.name}?")
    if r.status == "found" and not _words_left_out(text, r.candidates[0]) and not _other_word(text, r.candidates[0]) \
            and not _only_the_last_word(text, r.candidates[0]):
        return r.feature
    if r.status == "found":   # "Karhula church" is not the fuel station "Teboil Karhula Tikankatu"
        hint = f" — did you mean {' or '.join(idx.suggestions(text))}?" if idx.suggestions(text) else ""
        raise Clarify(f"'{text}' is not in the {region} data{hint}")
    closest = one_closest_spelling(idx, text, kinds)
    if closest is not None:   # "Martilankatu": Marttilankatu is one letter off, Martankatu two
        return closest
    raise Clarify(r.message + ("; which one?" if r.status == "ambiguous" else ""))


#: the shortest name (letters, spaces not counted) a one-letter slip is read for: in shorter names
#: one letter makes another word
CLOSEST_MIN_LETTERS = 6
#: and the likeness a misspelt name needs in free text (``names.scan``'s bar): a changed letter in a
#: six-letter name makes another name ("Kamppi" is no misspelt "Komppi")
CLOSEST_MIN_RATIO = 0.86


def _alike(text: str, match: Any) -> bool:
    """A fuzzy match is read as the name it found only at free text's likeness bar (``CLOSEST_MIN_RATIO``)."""
    said = said_form(text)
    return any(difflib.SequenceMatcher(None, said, normalise(w), autojunk=False).ratio() >= CLOSEST_MIN_RATIO
               for w in (match.matched, match.feature.name) if w)


def one_closest_spelling(idx: Any, text: str, kinds: tuple[str, ...] | None = None) -> NamedFeature | None:
    """The data name ``text`` misspells when exactly one is a single slip away (a letter changed,
    added, dropped, or two swapped) and every other close name at least two: read as it, as the
    ask reader reads a close name that ranks alone. Two names equally close stay a did-you-mean;
    a name with no name one slip away stays "not in the data"."""
    said = said_form(text)
    if len(said.replace(" ", "")) < CLOSEST_MIN_LETTERS:
        return None
    near: dict[str, tuple[int, bool, NamedFeature]] = {}
    for m in idx.lookup(text, kinds, limit=16, fuzzy_min=0.75):
        if m.feature.kind == "region":
            continue
        name = normalise(m.feature.name)
        for written in (m.matched, m.feature.name):
            have = normalise(written)
            d = spelling_distance(said, have)
            if name not in near or d < near[name][0]:
                alike = difflib.SequenceMatcher(None, said, have, autojunk=False).ratio() >= CLOSEST_MIN_RATIO
                near[name] = (d, alike, m.feature, have)
    ranked = sorted(near.values(), key=lambda p: p[0])
    if ranked and ranked[0][0] == 1 and ranked[0][1] and (len(ranked) == 1 or ranked[1][0] >= 2):
        return ranked[0][2]
    # one written name one slip away that is one feature's name and another's alias ("Helsingin
    # päärautatieasema": the station building, and the alias of the station point "Helsinki"): one name,
    # read as that name spelt right would be (the feature whose own name it is), never a choice of two
    slip = {p[3] for p in ranked if p[0] == 1}
    if len(slip) == 1 and ranked[0][1] and all(p[0] >= 2 for p in ranked if p[3] not in slip):
        r = idx.resolve(next(iter(slip)), kinds)
        if r.status == "found" and normalise(r.feature.name) in slip:
            return r.feature
    return None


def _other_word(text: str, m: Match) -> bool:
    """A misspelt match carried by a word both share ("Hesperian puisto" ~ "Espan puisto": the
    "puisto" is the same, "hesperian" no misspelling of "espan"): the name's own word differs."""
    if m.how != "fuzzy":
        return False
    said, have = normalise(text).split(), normalise(m.matched).split()
    if len(said) != len(have) or not set(said) & set(have):
        return False
    return any(difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() < FUZZY_MIN
               for a, b in zip(said, have, strict=True) if a != b)


def _only_the_last_word(text: str, m: Match) -> bool:
    """One word that is only the last of a longer name ("Eira" and the studio "Valokuvaamo Studio Eira"):
    a business named after its district is not the district the planner names; a name's first word
    ("Teboil") still reads as it."""
    said, have = normalise(text).split(), normalise(m.feature.name).split()
    return m.how == "words" and len(said) == 1 and len(have) > 1 and said[0] == have[-1] and said[0] not in have[:-1]


def _words_left_out(text: str, m: Match) -> list[str]:
    """Words of a partial match ("words", "contains") that the matched name lacks: the planner
    named something more specific than what was found. Exact, alias and misspelt matches: none."""
    if m.how not in ("words", "contains"):
        return []
    have = normalise(m.matched).split() + normalise(m.feature.name).split()
    said = [w for w in normalise(text).split() if w not in ("the", "a", "an", "of")]
    return [w for w in said if not any(w == h or difflib.SequenceMatcher(None, w, h).ratio() >= 0.8 for h in have)]


@lru_cache(maxsize=4)
def _osm_shapes(region: str) -> tuple[dict[str, list[Any]], np.ndarray, shapely.STRtree]:
    """From one read of the region's OSM (not kept): the outlines of named POIs by normalised name
    (a park, a station building: the City and the name index keep a POI as a point, "inside
    <park>" needs its polygon), and every building outline with a tree to find the one at a point."""
    city = load_city(region)
    raw, _ = read_osm(REGIONS[region])
    f = raw["features"][["name", "geometry"]].to_crs(city.crs)
    named: dict[str, list[Any]] = {}
    for n, g in zip(f["name"], f.geometry.values, strict=False):
        if n and g is not None and g.geom_type in ("Polygon", "MultiPolygon"):
            named.setdefault(normalise(str(n)), []).append(shapely.make_valid(g))
    shapes = shapely.make_valid(raw["buildings"].to_crs(city.crs).geometry.values)
    return named, shapes, shapely.STRtree(shapes)


def _poi_outlines(region: str) -> dict[str, list[Any]]:
    """The OSM outlines of named POIs by normalised name (``_osm_shapes``)."""
    return _osm_shapes(region)[0]


def _read_as(text: str, f: NamedFeature) -> str | None:
    """The reply's note when the planner's words are not the data's name."""
    said = said_form(text)
    return None if said in {normalise(n) for n in (f.name, *f.aliases)} else f"read '{text.strip()}' as '{f.name}'"


def _geometry(region: str, f: NamedFeature, area: bool) -> Any:
    """The shape a constraint measures from (module docstring); every feature of that exact name."""
    idx = name_index(region)
    named = [g for g in idx.features if normalise(g.name) == normalise(f.name)]
    if f.kind == "street" and not area:
        edges = load_city(region).edges
        line = edges.geometry.values[(edges["name"] == f.name).to_numpy()]
        if len(line):
            return shapely.union_all(line)
    if area or f.kind == "region":
        shapes = [g for g in named if g.area is not None and (g.kind == f.kind or g.kind != "street")]
        shapes = [g for g in shapes if not g.approximate] or shapes    # a mapped outline before an estimate
        if shapes:
            return shapely.union_all([g.area for g in shapes])
        outline = _poi_outlines(region).get(normalise(f.name)) if f.kind == "poi" else None
        if not outline:
            raise Clarify(f"{f.name} is a point in the {region} data, not an area: "
                          f"say 'within N m of {f.name}' instead")
        return shapely.union_all(outline)
    same = [g for g in named if g.kind == f.kind] or [f]
    return shapely.union_all([_outline(region, g) for g in same])


def _outline(region: str, g: NamedFeature) -> Any:
    """What a distance is measured from: the feature's mapped outline (its own, or for a POI kept
    as a point the OSM polygon of that name: a building, a park; else the OSM building its point
    lies in: a shop, a car park, a swimming hall inside a building), else its point."""
    if g.area is not None and not g.approximate:
        return g.area
    if g.kind != "poi":
        return shapely.Point(g.x, g.y)
    outline = _poi_outlines(region).get(normalise(g.name))
    if outline:
        return shapely.union_all(outline)
    # a building of that very name that the data maps ("Kansallisarkisto": an untagged point and the building)
    built = [b.area for b in name_index(region).features if b.kind == "building" and b.area is not None
             and not b.approximate and normalise(b.name) == normalise(g.name)]
    if built:
        return shapely.union_all(built)
    _, shapes, tree = _osm_shapes(region)
    held = tree.query(shapely.Point(g.x, g.y), predicate="within")
    return shapely.union_all(shapes[held]) if len(held) else shapely.Point(g.x, g.y)
