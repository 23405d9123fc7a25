"""A loaded region as an instruction says it first ("In Tampere, …", "Kotkassa, …", "For Helsinki: …"): the
region's own name in its languages and Finnish case forms, derived from the loaded regions — a bundled region's
key and the aliases ``names.REGION_ALIASES`` gives it in another language ("Helsingfors"), a planner's own
region's key written as a name ("tampere" → Tampere) — never a list of cities in the lexicon, so a planner's own
city is read as the bundled ones are.

A minimal reader of its own for the instruction reader (issue 29, round 13); the ask reader's helper does the
same for requests (``plugin/city/region_names.py`` where it is merged): the lead merges the two.
"""
from __future__ import annotations

from collections.abc import Iterable

from ..city import lexicon
from ..city.names import REGION_ALIASES, _strong_grades, finnish_stem, normalise


def region_names(region: str) -> tuple[str, ...]:
    """The names an instruction may say region ``region`` by, first in a sentence: its key as a name and its
    aliases that are that name in another language ("Helsingfors"). An alias that names a part of the city
    ("Karhula", the district the Kotka extract covers; "central Helsinki") is no lead: "In Karhula, …" is a
    place. A one-word alias that starts as the key does ("hel…") is the city's name in another language."""
    key = normalise(region)
    other = [a for a in REGION_ALIASES.get(region, ()) if " " not in a.strip() and normalise(a)[:3] == key[:3]]
    return tuple(dict.fromkeys((region.replace("_", " ").title(), *other)))


def _stems(word: str) -> list[str]:
    """Nominatives a Finnish word (normal form) with a case ending cut may be where ``finnish_stem`` has none: an
    -e name's long stem ("tampereella" → "tamperee" → "tampere"), an -i name's e-stem ("lahdessa" → "lahde" →
    "lahti", each consonant grade)."""
    out: list[str] = []
    for end in lexicon.name_case_endings():
        stem = word[: len(word) - len(end)]
        if not word.endswith(end) or len(stem) < 4:
            continue
        if stem.endswith("ee"):
            out.append(stem[:-1])
        if stem.endswith("e"):
            out += [f"{g[:-1]}i" for g in (stem, *_strong_grades(stem))]
    return out


def region_of_word(word: str, regions: Iterable[str]) -> str | None:
    """The region among ``regions`` that ``word`` names as written or in a Finnish case ("Kotkassa",
    "Helsingissä", "Tampereella", "Helsingfors"); None when it names none."""
    q = normalise(word)
    if not q:
        return None
    for r in dict.fromkeys(regions):
        names = {normalise(n) for n in region_names(r)}
        if q in names or finnish_stem(q, names) is not None or any(s in names for s in _stems(q)):
            return r
    return None


__all__ = ["region_names", "region_of_word"]
