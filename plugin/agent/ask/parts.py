"""Requests written as several terse parts: where a clause splits further than ``wording.SPLIT``
says, so that each part is read (and answered) on its own, in order.

* a line break or a bullet ("helsinki\\n• apteekit: how many\\n• hammaslääkärit: how many",
  "- cafés near Oodi: how many", "• nearest pharmacy to Kiasma • nearest bank to Kiasma");
* a count mark after a comma or slash ("helsinki: # latausasemat, # koulut", "# kahvilat / # pankit");
* a Finnish question word after a comma ("montako koulua, montako pysäköintialuetta?");
* "plus" before a question of its own ("how many cafés in Kluuvi plus how many banks").

Several routes in one clause ("Luckan → Avoin olohuone, Luckan → LillaLuckan: road metres each")
are not split here (the text they share, "road metres each", belongs to both): the rule
``route.legs`` reads one route per leg."""
from __future__ import annotations

import re

from ...city.vocabulary import category_terms

PART_SPLIT = re.compile(
    r"(?<!\s)(?:"   # a part mark starts where a run of spaces starts (else a long run is searched quadratically)
    r"\s*\n[\s\n]*(?:[•*·‣▪–—-]\s*|\d{1,2}[.)]\s+)?"        # a new line, with its bullet or number
    r"|\s*[•·‣▪]\s*"                                          # an inline bullet
    r"|\s*[,/;]\s*(?=#\s*[^\W\d])|\s+(?:and|ja|&)\s+(?=#\s*[^\W\d])"   # "…, # koulut", "… and # banks in …"
    r"|\s*,\s*(?=(?:entä\s+)?(?:montako(?!\s+(?:kilo)?metri)|kuinka|missä|mikä|mitkä|lähin|lähimm\w*|onko|paljonko)\b)"
    r"|\s+ja\s+(?=(?:entä\s+)?(?:montako(?!\s+(?:kilo)?metri)|kuinka|missä|mikä|mitkä|lähin|lähimm\w*|onko|paljonko)\b)"
    r"|(?:^|\s+)[a-h]\)\s+"                                   # "a) nearest school b) nearest fuel station"
    r"|\s+plus\s+(?=(?:how|what|which|where|count|list|nearest|closest|the (?:nearest|closest|number)|montako|lähin)\b)"
    # "banks within 300 m of X and cafés within 100 m of it": after a part with its own radius and
    # place, "and <kind> within <distance>" is a second search ("pharmacies and cafés within 300 m
    # of X", with no radius before the "and", stays one)
    r"|(?<=\w)(?P<and_kind>\s+(?:and|ja)\s+)(?=[^\W\d][\w'’-]*(?:\s+[^\W\d][\w'’-]*)?\s+(?:within|under|inside)\s+"
    r"(?:\d|an?\s|one\b|two\b|three\b|four\b|five\b|six\b|seven\b|eight\b|nine\b|ten\b|hundred\b))"
    # "cafés on Yrjönkatu and restaurants on Bulevardi: how many each?": after a part with its own street or
    # area, "and <kind> on / along / in <Name>" is a second search (each answered, not the first only)
    r"|(?<=\w)(?P<and_area>\s+(?:and|ja)\s+)(?=(?P<area_kind>(?-i:[a-zåäö])[\w'’-]*(?:\s+[^\W\d][\w'’-]*)?)"
    r"\s+(?:on|along|in)\s+(?-i:[A-ZÅÄÖ])))",
    re.I)
#: a part that already has its own radius and place ("banks within 300 m of X"): only after one does
#: the "and <kind> within …" mark split
_OWN_RADIUS = re.compile(r"\b(?:within|under|inside)\s+\S+.*\b(?:of|from|around)\s+\S", re.I)
#: a part that already has its own street, area or place ("cafés on Yrjönkatu", "nearest pharmacy to Kiasma"):
#: only after one does the "and <kind> on <Name>" mark split ("cafés and bars on Yrjönkatu" stays one part, two kinds)
_OWN_AREA = re.compile(r"\b(?:on|along|in|to|of|from|near|around)\s+[A-ZÅÄÖ]")


#: what a part holds when it is only a kind of place waiting for the rest ("cafés + bars near Kiasma")
_BARE_KIND_FILLER = re.compile(r"[\s#,.:;!?-]*(?:how many|number of|montako)?[\s#,.:;!?-]*", re.I)
#: the joins after which such a part takes the next one's place and question
_KIND_JOIN = re.compile(r"\s*(?:\+|&|/)\s*")   # "banks / pharmacies within 300 m of X": one part, two kinds


def merge_bare_kinds(request: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """"cafés + bars near Kiasma?": a part that is only a kind of place, joined by "+", "&" or "/" to the
    next, is read with it (the kinds then share its place and question), not alone over the region."""
    out = list(spans)
    for k in range(len(out) - 2, -1, -1):
        (a, b), (c, d) = out[k], out[k + 1]
        text = request[a:b]
        terms = category_terms(text)
        rest = text
        for t in sorted(terms, key=lambda t: -t.start):
            rest = rest[:t.start] + " " + rest[t.end:]
        counted = "/" in request[b:c] and request[c:d].lstrip().startswith("#")   # "# latausasemat / # koulut": counts each
        if terms and _BARE_KIND_FILLER.fullmatch(rest) and _KIND_JOIN.fullmatch(request[b:c]) and not counted:
            out[k:k + 2] = [(a, d)]
    return out


def part_spans(request: str, s: int, e: int) -> list[tuple[int, int]]:
    """The clause [s, e) split at each part mark of ``PART_SPLIT``; parts with no word are dropped
    (a leading bullet, an empty line)."""
    out, pos = [], s
    for m in PART_SPLIT.finditer(request, s, e):
        if (m.group("and_kind") and not _OWN_RADIUS.search(request[pos:m.start()])) \
                or (m.group("and_area") and not (_OWN_AREA.search(request[pos:m.start()])
                                                 and category_terms(m.group("area_kind")))):   # a kind, not a name
            continue
        if m.start() > pos:
            out.append((pos, m.start()))
        pos = max(pos, m.end())
    if pos < e:
        out.append((pos, e))
    return [(a, b) for a, b in out if re.search(r"\w", request[a:b])] or [(s, e)]


#: an arrow written between two names without spaces ("Kiasma->Oodi"): the name scan reads words
#: with their hyphens, so "Kiasma-" would hide the name
TIGHT_ARROW = re.compile(r"(?<=\w)->(?=\w)")


def spaced_arrows(request: str) -> str:
    """"Kiasma->Oodi" → "Kiasma→ Oodi" (same length, so every offset stays valid)."""
    return TIGHT_ARROW.sub("→ ", request)
