"""Communities and fishbowl rounds.

The region is split into communities by k-means on parcel centroids (seeded; communities are
numbered west to east). A community's participants are the residents who live in it or
within 500 m of one of its plannable parcels. Per round, M participants sit in the inner
circle and speak; the others listen. A seeded rotation brings new speakers each round (it
wraps around only when a community has fewer than N·M participants). After each round the
opinions are condensed into a summary, and only that summary reaches the next round's
speakers and, in the end, the planner: context never grows with the population.

A summary holds a short text plus ``demand``: the stated needs aggregated by (home parcel,
type, view) — a speaker names what they need and which non-residential parcels they see
within 500 m — with counts and vulnerable counts. Its size is bounded by the round's
speakers (and parcels × types × distinct views), not by the population; it is what the
deterministic planner turns into its objective.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Callable

import numpy as np
from scipy.cluster.vq import kmeans2

from ..errors import Cancelled, InputError
from ..tasks.land import TYPES

from .population import Population
from .region import Region

TOP = 3            # missed types, requests and quotes kept in a summary text
QUOTE_CHARS = 160


def split_communities(region: Region, k: int, seed: int) -> np.ndarray:
    """(parcels,) community label 0..k-1, by k-means on centroids, numbered west to east."""
    if k < 1:
        raise InputError(f"--communities must be at least 1, got {k}")
    if k > int(region.plannable.sum()):
        raise InputError(f"--communities {k} exceeds the {int(region.plannable.sum())} plannable parcels")
    if k == 1:
        return np.zeros(len(region.xy), dtype=int)
    centers, labels = kmeans2(region.xy, k, seed=seed, minit="++")
    order = np.lexsort((centers[:, 1], centers[:, 0]))
    return np.argsort(order)[labels]


def participants(region: Region, pop: Population, community: np.ndarray, c: int) -> np.ndarray:
    """Residents living in community c or within 500 m of one of its plannable parcels."""
    parcels = community == c
    home_in = parcels[pop.home]
    near_plan = (pop.near & (parcels & region.plannable)).any(axis=1)
    return np.flatnonzero(home_in | near_plan)


@dataclass
class Opinion:
    resident: int
    text: str
    needs: list[str]
    unmet: list[str]
    proposal: dict | None = None       # {"parcel": id, "type": t}
    source: str = "rules"


@dataclass
class Summary:
    community: int
    round: int
    speakers: int
    vulnerable: int
    unmet: dict[str, int]
    requests: list[dict]
    demand: list[dict]
    text: str
    source: str = "rules"

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class Discussion:
    """What one community's fishbowl produced."""

    community: int
    participants: int
    summaries: list[Summary] = field(default_factory=list)
    opinions: list[list[Opinion]] = field(default_factory=list)


class RulePersona:
    """Deterministic residents and an extractive summariser (no model)."""

    name = "rules"

    def speak(self, region: Region, pop: Population, plan: np.ndarray, parcels: np.ndarray, i: int,
              previous: Summary | None) -> Opinion:
        """Needs, what of them is missing within 500 m, a proposal on the community's nearest
        plannable parcel for the first missing need, and support for a previous request."""
        needs = [t for t, n in zip(TYPES, pop.needs[i]) if n]
        reach = reach_one(pop, plan, i)
        unmet = [t for t in needs if not reach[TYPES.index(t)]]
        proposal = propose(region, pop, plan, parcels, i, unmet)
        parts = [f"I am {pop.describe(i)}. I need {', '.join(needs)}."]
        parts.append(f"Missing within 500 m: {', '.join(unmet)}." if unmet else "All I need is within reach.")
        if proposal:
            parts.append(f"Parcel {proposal['parcel']} (now {proposal['from']}) should become {proposal['type']}.")
        seconded = [r for r in (previous.requests if previous else []) if r["type"] in unmet]
        if seconded:
            parts.append(f"I support parcel {seconded[0]['parcel']} becoming {seconded[0]['type']}.")
        return Opinion(int(i), " ".join(parts), needs, unmet, proposal)

    def summarize(self, summary: Summary, opinions: list[Opinion], previous: Summary | None) -> tuple[str, str]:
        """(text, source) of a round summary."""
        return extractive_text(summary, opinions), self.name


def reach_one(pop: Population, plan: np.ndarray, i: int) -> np.ndarray:
    near = pop.near[i]
    return np.array([(near & (plan == t)).any() for t in TYPES])


def propose(region: Region, pop: Population, plan: np.ndarray, parcels: np.ndarray, i: int,
            unmet: list[str]) -> dict | None:
    """The community's nearest plannable parcel in view whose type this resident does not
    need, turned into the first unmet type."""
    if not unmet:
        return None
    needs = {t for t, n in zip(TYPES, pop.needs[i]) if n}
    ok = np.flatnonzero(parcels & region.plannable & pop.near[i] & ~np.isin(plan, list(needs)))
    if not len(ok):
        return None
    j = ok[np.argmin(((region.xy[ok] - pop.xy[i]) ** 2).sum(axis=1))]
    return {"parcel": region.ids[j].item(), "from": str(plan[j]), "type": unmet[0]}


def extractive_text(s: Summary, opinions: list[Opinion]) -> str:
    """Counts, the top requests and two quotes (vulnerable voices first)."""
    missed = ", ".join(f"{t} ({n})" for t, n in list(s.unmet.items())[:TOP]) or "nothing"
    reqs = "; ".join(f"parcel {r['parcel']} -> {r['type']} ({r['support']})" for r in s.requests[:TOP]) or "none"
    quotes = [o.text[:QUOTE_CHARS] for o in opinions if o.unmet][:2]
    return (f"Community {s.community}, round {s.round}: {s.speakers} speakers ({s.vulnerable} vulnerable). "
            f"Most missed: {missed}. Requests: {reqs}." + "".join(f' "{q}"' for q in quotes))


def condense(region: Region, pop: Population, c: int, r: int, opinions: list[Opinion]) -> Summary:
    """The structured part of a round summary (counts, requests, aggregated demand)."""
    unmet = Counter(t for o in opinions for t in o.unmet)
    req = Counter((o.proposal["parcel"], o.proposal["type"]) for o in opinions if o.proposal)
    vul = pop.vulnerable
    agg: dict[tuple[int, str, tuple], list[int]] = {}
    for o in opinions:
        view = tuple(region.ids[pop.near[o.resident] & region.plannable].tolist())
        for t in o.needs:
            agg.setdefault((int(pop.home[o.resident]), t, view), []).append(o.resident)
    demand = [{"parcel": region.ids[h].item(), "type": t, "n": len(who), "vulnerable": int(vul[who].sum()),
               "view": list(view)} for (h, t, view), who in sorted(agg.items())]
    return Summary(c, r, len(opinions), int(vul[[o.resident for o in opinions]].sum()),
                   dict(unmet.most_common()), [{"parcel": p, "type": t, "support": n} for (p, t), n in req.most_common(10)],
                   demand, "")


def discuss(region: Region, pop: Population, plan: np.ndarray, community: np.ndarray, c: int, rounds: int,
            speakers: int, persona: RulePersona, seed: int,
            on_round: Callable[[Summary, list[Opinion]], None] | None = None,
            cancel: Callable[[], bool] | None = None) -> Discussion:
    """N fishbowl rounds in community c about ``plan``."""
    who = participants(region, pop, community, c)
    disc = Discussion(c, len(who))
    if not len(who):
        return disc
    order = np.random.default_rng([seed, c]).permutation(who)
    m = min(speakers, len(order))
    parcels = community == c
    previous = None
    for r in range(rounds):
        if cancel is not None and cancel():
            raise Cancelled("participation cancelled")
        circle = np.take(order, np.arange(r * m, (r + 1) * m), mode="wrap")
        opinions = [persona.speak(region, pop, plan, parcels, int(i), previous) for i in circle]
        s = condense(region, pop, c, r + 1, opinions)
        s.text, s.source = persona.summarize(s, opinions, previous)
        disc.summaries.append(s)
        disc.opinions.append(opinions)
        if on_round is not None:
            on_round(s, opinions)
        previous = s
    return disc
