"""Kinds joined in one count, counted together ("cafés/shops/restaurants on Eteläranta: how many?"): the
first goal of such a run carries the kinds (``total_kinds``, set by ``cognition._total_of_joined_kinds``);
its intent (``count`` in an area, ``within`` around a place) adds these calls after its own and writes these
lines before its own, so the answer gives the total first (each place once), then each kind's count."""
from __future__ import annotations

from typing import Any

from ....city import lexicon
from ...tools import Observation
from ..synthesis import _names_list
from .base import Facts


def together_calls(tool: str, args: dict[str, Any], slots: dict[str, Any]) -> list[tuple[str, dict]]:
    """The call of ``tool`` (``args``: where it counts) for every kind of the run at once, and, where the kinds
    are one category each narrowed by a tag, one for that whole category: planners who list kinds of one
    category ("shops and cafés") may mean the category ("business": the restaurants, pubs … there too), so its
    count is a tool result the answer can give beside the kinds asked."""
    kinds = slots.get("total_kinds")
    if not kinds:
        return []
    calls = [(tool, {**args, "kinds": [{k: v for k, v in kind.items() if k in ("category", "tag")} for kind in kinds]})]
    categories = {kind["category"] for kind in kinds}
    if len(categories) == 1 and all(kind.get("tag") for kind in kinds):
        calls.append((tool, {**args, "category": categories.pop()}))
    return calls


def together_facts(f: Facts, where: str) -> list[str]:
    """"Cafés, shops and restaurants on Eteläranta together: 17 (each place counted once)." and, where the
    kinds share a category that holds more there, "Counting every kind of the category business (any tag),
    there are 19 on Eteläranta; besides the kinds asked: …" (names only where both lists are whole)."""
    kinds = f.s.get("total_kinds")
    total = _result(f.good, lambda p: bool(p.get("kinds")))
    if not kinds or total is None:
        return []
    words = [f"'{k['word']}'" if lexicon.is_finnish(k["word"]) else k["word"] for k in kinds]   # as _what says them
    said = ", ".join(words[:-1]) + f" and {words[-1]}"
    out = [f"{said[:1].upper() + said[1:]}{where} together: {total['count']} (each place counted once)."]
    category = kinds[0]["category"]
    whole = _result(f.good, lambda p: p.get("category") == category and not p.get("tag") and not p.get("kinds"))
    if whole is None or whole["count"] <= total["count"]:
        return out
    line = (f"Counting every kind of the category {category} (any tag), there "
            f"{'is' if whole['count'] == 1 else 'are'} {whole['count']}{where}")
    complete = all(r["listed"] == r["count"] for r in (total, whole))
    asked = {x["id"] for x in total["features"]}
    others = [x for x in whole["features"] if x["id"] not in asked]
    if complete and others:
        line += f"; besides the kinds asked: {_names_list(others, len(others), with_street=False)}"
    return out + [line + "."]


def _result(good: list[Observation], params: Any) -> dict[str, Any] | None:
    """The result of the first good call after the goal's own whose parameters fit ``params``."""
    return next((o.result for o in good[1:] if params(o.params)), None)
