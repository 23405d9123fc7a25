"""A loaded region as planners say it: its names, their Finnish case forms, and the region said as an
area ("the Helsinki area", "in the Kotka region", "greater Helsinki", "koko Kotkan alueelle",
"Tampereen seudulla").

Everything is derived from the loaded regions — a bundled region's names (``names.REGION_ALIASES``), an
own region's key written as a name ("tampere" → Tampere) — and from the lexicon's generic Finnish
case endings and area words (``tasks.json`` ``region_area_words``): no list of cities, so a planner's
own city works as the bundled ones do. The ask reader and the instruction reader both call
``region_of_word`` (the instruction reader for a region said first, with ``lead=True``) / ``region_as_area``."""
from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from . import lexicon
from .names import REGION_ALIASES, finnish_stem, normalise, strong_grades


def region_names(region: str) -> tuple[str, ...]:
    """The names a loaded region answers to: the bundled region's own ("Helsinki", "Helsingfors", …), else
    its key written as a name ("tampere" → "Tampere"); the key itself last."""
    own = REGION_ALIASES.get(region, (region.capitalize(),))
    return tuple(dict.fromkeys((*own, region)))


def region_lead_names(region: str) -> tuple[str, ...]:
    """The names an instruction may say region ``region`` by first in a sentence ("In Tampere, …",
    "Helsingfors: …"): its key as a name and the one-word aliases that are that name in another language
    (they start as the key does). An alias naming a part of the city ("Karhula", the district the Kotka
    extract covers; "central Helsinki") is no lead: "In Karhula, …" is a place there."""
    key = normalise(region)
    other = [a for a in REGION_ALIASES.get(region, ()) if " " not in a.strip() and normalise(a)[:3] == key[:3]]
    return tuple(dict.fromkeys((region.replace("_", " ").title(), *other)))


def _stems(word: str) -> list[str]:
    """Nominatives a Finnish word (normal form) with its case ending cut may be, beyond ``finnish_stem``'s:
    an -e name's long stem ("tampereella" → "tamperee" → "tampere") and an -i name's e-stem ("lahden" →
    "lahde" → "lahti", each consonant grade)."""
    out = []
    for end in lexicon.name_case_endings():
        stem = word[: len(word) - len(end)]
        if not word.endswith(end) or len(stem) < 4:
            continue
        if stem.endswith("ee"):
            out.append(stem[:-1])
        if stem.endswith("e"):
            out += [f"{g[:-1]}i" for g in (stem, *strong_grades(stem))]
    return out


def region_of_word(word: str, regions: Iterable[str], *, lead: bool = False) -> str | None:
    """The loaded region that ``word`` names, as written or in a Finnish case ("Helsingin", "Kotkassa",
    "Tampereella", "Helsingfors"); None when it names none. A whole phrase is compared as one name. With
    ``lead`` only the names a region is said by first in an instruction count (``region_lead_names``)."""
    q = normalise(word)
    if not q:
        return None
    for r in dict.fromkeys(regions):
        names = {normalise(n) for n in (region_lead_names(r) if lead else region_names(r))}
        if q in names or finnish_stem(q, names) is not None or any(s in names for s in _stems(q)):
            return r
    return None


@cache
def _area_res(words_key: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    words = lexicon.load("tasks")[words_key]
    before = re.compile(rf"^(?:(?:{words['before']})(?:\s+|-))+", re.I)
    after = re.compile(rf"(?:\s+|-)(?:{words['after']})$", re.I)
    return before, after


def region_as_area(text: str, regions: Iterable[str], *, centre: bool = False) -> str | None:
    """The loaded region that ``text`` says as an area: "the Helsinki area", "Kotka region", "greater
    Helsinki", "the city of Kotka", "koko Kotkan alueelle", "Helsingin alueella", "Tampereen seudulla",
    "Helsingin kaupungissa" (the lexicon's ``region_area_words`` before or after a region's name, which
    may be in a Finnish case); None for anything else — a district's area ("Kallion alueella") stays a
    place. At least one area word must be said: a bare region name is read where names are. With
    ``centre`` the words are those of its centre ("the Helsinki city centre", "Kotka town centre",
    ``region_centre_words``), which only a plan's area is read as (the caller says where)."""
    before, after = _area_res("region_centre_words" if centre else "region_area_words")
    t = re.sub(r"^(?:the|in|for|of)\s+(?:the\s+)?", "", text.strip(), flags=re.I)
    b = before.match(t)
    t = t[b.end():] if b else t
    a = after.search(t)
    t = t[: a.start()] if a else t
    if not (a or b) or not t.strip():
        return None
    return region_of_word(t, list(regions))


__all__ = ["region_as_area", "region_lead_names", "region_names", "region_of_word"]
