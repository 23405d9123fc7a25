"""How close a name said is to a data name: the slips between two spellings, and whether a name said
in an instruction is clearly a misspelling of one data name (so a correction may be applied) or names
another place (asked). Shared by the bundled regions' resolver (``resolve``) and a planner's own
layers (``own_places``)."""
from __future__ import annotations

import re

from ..city.names import area_genitive_forms, case_stems, normalise


def said_form(text: str) -> str:
    """The planner's name as compared with the data's: normalised, without a leading article."""
    return normalise(re.sub(r"^(?:the|a|an)\s+", "", text.strip(), flags=re.I))


def spelling_distance(a: str, b: str) -> int:
    """Letters to change, add, drop or swap (two neighbours) to turn ``a`` into ``b`` (the optimal
    string alignment distance: a swap of two letters, "Marttilanaktu", is one slip, not two).
    Written here (rapidfuzz's ``OSA`` computes the same) because the names compared are a few words long
    and no other code needs the library: one compiled wheel fewer for the user's QGIS Python to install."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


#: the slips a misspelt name may hold, by its length in letters: one below ten letters, two from ten
#: ("Helilän hautuumaa" for "Helilän hautausmaa"); a whole word put in, dropped or changed is more
MISSPELT_LONG_LETTERS = 10


def _forms_said(said: str) -> list[str]:
    """``said`` (a normal form) and the stems it may be with a Finnish case ending or "alue" after a
    genitive ("Piisamikadulta" → "piisamikadu", "piisamikatu"; "Kaisaniemmen alueella" → "kaisaniemme",
    "kaisaniemmi"): the misspelt name is compared in the form the data has it."""
    return list(dict.fromkeys([said, *case_stems(said, min_letters=3), *area_genitive_forms(said)]))


def clearly_misspelt(text: str, name: str) -> bool:
    """Whether the planner's ``text`` is clearly a misspelling of the data name ``name`` (or of its alias),
    as an instruction needs before a correction is applied: the same words, each a slip or two off, in all
    at most one slip below ``MISSPELT_LONG_LETTERS`` letters and two from it — or the same letters with
    only a space put in or taken out ("Kaisaniemen ranta") and one slip more at most. A word put in,
    dropped or swapped for another ("Kaisaniemen uimaranta" for Kaisaniemenranta, "Kumparepuistikko" for
    Kumparepuisto) names another place: asked, never applied."""
    have = normalise(name)
    letters = len(have.replace(" ", ""))
    for said in _forms_said(said_form(text)):
        slips = spelling_distance(said.replace(" ", ""), have.replace(" ", ""))
        if said.count(" ") != have.count(" "):   # words run together or split: the letters alone, one slip
            if slips <= 1:
                return True
            continue
        words_close = all(spelling_distance(a, b) <= (1 if len(b) < 8 else 2)
                          for a, b in zip(said.split(), have.split(), strict=True))
        if words_close and slips <= (1 if letters < MISSPELT_LONG_LETTERS else 2):
            return True
    return False
