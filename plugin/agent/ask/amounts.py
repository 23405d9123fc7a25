"""Amounts of money as a request states them for a plan: a share of a budget said whole ("take a
fifth of our two-million-euro budget", "20 % of 1.5 M€", "half of our 600k") is the share, in k€.

The share is read here, for the ask reader only: the instruction language keeps "a fifth of the
budget" as a constraint on the plan's spending (``plugin.constraints``), so ``money_amounts``
itself stays the amount written."""
from __future__ import annotations

import re
from functools import cache

from ...city import lexicon
from ...city.vocabulary import Money


@cache
def _share_before() -> re.Pattern[str]:
    """A share right before an amount: "a fifth of our ", "20 % of the ", "half of "."""
    n = lexicon.number_words_pattern()
    pct = r"(?:\d+(?:[.,]\d+)?|" + n + r")\s*(?:%|per ?cent|pct|prosenttia)"
    return re.compile(r"(?P<share>" + lexicon.fraction_pattern() + "|" + pct + r")\s+of\s+"
                      r"(?:(?:our|the|a|an|my|your|this|that|its|total|whole|entire|overall|annual|full)\s+)*$", re.I)


@cache
def _share_after() -> re.Pattern[str]:
    """A share of an amount said just before ("2 M€ total, 30 % of it on roads", "we have 2 M€; spend
    a fifth of it on chargers"): the share, then "of it / that / this / the budget"."""
    n = lexicon.number_words_pattern()
    pct = r"(?:\d+(?:[.,]\d+)?|" + n + r")\s*(?:%|per ?cent|pct|prosenttia)"
    return re.compile(r"^[^.?!\d€]{0,40}?\b(?P<share>" + lexicon.fraction_pattern() + "|" + pct + r")\s+of\s+"
                      r"(?:it|that|this|that sum|that amount|the (?:budget|money|total|sum|amount))\b", re.I)


@cache
def _share_of_said() -> re.Pattern[str]:
    """A share of the amount said in an earlier sentence ("We have 2,4 M€ for streets. Take a quarter
    of that, build a road plan with it"; "Meillä on 2 M€. Käytä siitä puolet asemasuunnitelmaan"):
    the share, then "of that / it / the money" (Finnish "siitä" before or after the share)."""
    n = lexicon.number_words_pattern()
    pct = r"(?:\d+(?:[.,]\d+)?|" + n + r")\s*(?:%|per ?cent|pct|prosenttia)"
    share = r"(?P<share>" + lexicon.fraction_pattern() + "|" + pct + r")"
    whole = r"(?:(?:the|that|this|our)\s+(?:money|sum|amount|budget|total|funds?)|it|that|this)\b"
    return re.compile(r"\b(?:" + share + r"\s+of\s+" + whole
                      + r"|siit[äa]\s+" + share.replace("?P<share>", "?P<fi1>")
                      + r"|" + share.replace("?P<share>", "?P<fi2>") + r"\s+siit[äa])", re.I)


def _share_of_earlier(request: str, mo: Money) -> Money | None:
    """The one amount of a request, a sentence stop, then a share of it and a plan asked after the
    share: the share is the plan's money ("2,4 M€ for streets this year. Take a quarter of that, build
    a road plan with it" → 600 k€). Only where a plan's kind or the word plan follows the share."""
    rest = request[mo.end:]
    stop = re.search(r"[.;!?]\s", rest)
    if not stop:
        return None
    m = _share_of_said().search(rest, stop.end())
    if not m or m.start() - stop.end() > 40:
        return None
    after = rest[m.end():].casefold()
    if not (re.search(r"\b(?:plan|suunnitelm)", after)
            or any(re.search(pat, after) for _, pat in lexicon.task_patterns())):
        return None
    part = _share(m.group("share") or m.group("fi1") or m.group("fi2"))
    if part is None or not 0 < part < 1:
        return None
    return Money(mo.start, mo.end, mo.written, round(mo.keur * part, 3))


def _share(phrase: str) -> float | None:
    frac = lexicon.fraction_value(phrase)
    if frac is not None:
        return float(frac)
    pct = lexicon.percentages(phrase)
    return pct[0][2] if pct else None


def budget_shares(request: str, money: list[Money]) -> list[Money]:
    """Each amount said as a share of a whole ("a fifth of our 2 M€") becomes that share; one said
    as the part kept back ("keep a fifth of our 500k in reserve") the rest. Other amounts stay."""
    out = []
    unspent = re.compile(r"\b(?:" + lexicon.unspent_pattern() + r")\b", re.I)
    for mo in money:
        before = re.sub(r"(?<=\w)-(?=\w)", " ", request[max(0, mo.start - 60):mo.start])   # "two-thirds of"
        m = _share_before().search(before)
        share = _share(m.group("share")) if m else None
        if m is None or share is None or not 0 < share < 1:
            after = _share_after().search(request[mo.end:mo.end + 80]) if len(money) == 1 else None
            # … and only for a kind of plan ("30 % of it on roads"), not where ("half of it near Kiasma")
            rest = request[mo.end + after.end():mo.end + after.end() + 40].casefold() if after else ""
            part = _share(after.group("share")) \
                if after and re.match(r"\s*(?:for|on|to|into|in)\b", rest) \
                and any(re.search(pat, rest) for _, pat in lexicon.task_patterns()) else None
            # the one amount of the request, then a share of it: the share is the plan's money
            earlier = _share_of_earlier(request, mo) if len(money) == 1 and not part else None
            if earlier is not None:
                out.append(earlier)
                continue
            out.append(Money(mo.start, mo.end, mo.written, round(mo.keur * part, 3)) if part and 0 < part < 1 else mo)
            continue
        start = max(0, mo.start - 60) + m.start()
        clause = re.split(r"[.;?!]", request[mo.end:])[0] + " " + re.split(r"[.;?!]", request[:start])[-1]
        if unspent.search(clause):
            share = 1.0 - share
        out.append(Money(start, mo.end, request[start:mo.end], round(mo.keur * share, 3)))
    return out


__all__ = ["budget_shares"]
