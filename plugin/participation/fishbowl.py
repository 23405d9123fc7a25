"""Communities and fishbowl rounds: what the residents say, and what the planner hears.

The region is split into communities by k-means on parcel centroids (seeded; numbered west to
east). A community's participants are the residents who live in it or within 500 m of one of
its plannable parcels. Per round, M participants sit in the inner circle and speak; the others
listen. A seeded rotation brings new speakers each round (it wraps around only when a
community has fewer than N·M participants).

**Heard, not known.** A speaker says where they live (their block = home parcel), which of
their needs are missing within 500 m (with a proposed parcel) and which nearby facilities
they want kept. Those statements become **requests** ``(type, block)`` — "residents of block
B want a T within 500 m" — with the number of supporting voices and how many of them are
vulnerable. The round summary carries the requests forward: the next round's speakers see
them and second the ones they share (a speaker whose missing type matches a carried request
of a block within 500 m of theirs adds a voice to it instead of opening a new one), and the
summary of round r holds the merged requests of rounds 1..r, cut to the ``SUMMARY_REQUESTS``
best supported missing ones and ``SUMMARY_KEEPS`` kept ones. The planner reads only the last
summary of each community; the residents' full need lists are never shown to it (they are
what Satisfaction and Inclusion score).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Callable

import numpy as np
from scipy.cluster.vq import kmeans2

from ..errors import Cancelled, InputError
from ..tasks.land import SERVICE_RADIUS, TYPES, within

from .population import Population
from .region import Region

SUMMARY_REQUESTS = 12   # missing-facility requests a summary carries
SUMMARY_KEEPS = 6       # keep-this-facility requests a summary carries
QUOTE_CHARS = 160       # quotes are cut at a word boundary below this length


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
    near_plan = pop.near_any(parcels & region.plannable)
    return np.flatnonzero(home_in | near_plan)


def parcel_id(region: Region, j: int):
    """Parcel j's id as a plain Python value (ids may be integers or strings)."""
    v = region.ids[j]
    return v.item() if isinstance(v, np.generic) else v


def block_view(region: Region) -> np.ndarray:
    """(parcels, parcels) bool: parcel j's centroid within 500 m of block i's centroid (what a
    speaker who names block i as home can be served by, in the planner's eyes)."""
    return within(region.xy, region.xy, SERVICE_RADIUS)


@dataclass
class Request:
    """Residents of ``block`` want a ``type`` within 500 m (``kind`` missing) or want the one
    they have kept (``kind`` keep)."""

    type: str
    block: int | str      # parcel id of the speakers' home block
    kind: str             # "missing" | "keep"
    support: int = 0
    vulnerable: int = 0
    place: int | str | None = None          # the parcel most speakers proposed (missing) or named (keep)
    places: dict = field(default_factory=dict)   # parcel id -> voices

    @property
    def key(self) -> tuple[str, int, str]:
        return self.type, self.block, self.kind

    def to_json(self) -> dict:
        d = asdict(self)
        d["places"] = {str(k): v for k, v in self.places.items()}
        return d


@dataclass
class Opinion:
    resident: int
    text: str
    needs: list[str]                  # what the speaker said they need (heard)
    unmet: list[str]
    proposal: dict | None = None      # {"parcel": id, "from": type, "type": t}
    keep: list[dict] = field(default_factory=list)   # [{"parcel": id, "type": t}]
    seconded: dict | None = None      # {"block": id, "type": t} of a carried request
    source: str = "rules"


@dataclass
class Summary:
    community: int
    round: int
    speakers: int
    vulnerable: int
    unmet: dict[str, int]
    requests: list[Request]
    text: str
    source: str = "rules"

    def to_json(self) -> dict:
        return {"community": self.community, "round": self.round, "speakers": self.speakers,
                "vulnerable": self.vulnerable, "unmet": self.unmet, "requests": [r.to_json() for r in self.requests],
                "text": self.text, "source": self.source}


@dataclass
class Discussion:
    """What one community's fishbowl produced."""

    community: int
    participants: int
    summaries: list[Summary] = field(default_factory=list)
    opinions: list[list[Opinion]] = field(default_factory=list)

    @property
    def speakers(self) -> np.ndarray:
        return np.unique([o.resident for ops in self.opinions for o in ops]).astype(int)


def short(text: str, limit: int = QUOTE_CHARS) -> str:
    """``text`` cut at the last word boundary before ``limit`` characters, with an ellipsis."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0].rstrip(",;:.")
    return cut + "…"


class RulePersona:
    """Deterministic residents and an extractive summariser (no model)."""

    name = "rules"

    def speak(self, region: Region, pop: Population, plan: np.ndarray, parcels: np.ndarray, i: int,
              previous: Summary | None) -> Opinion:
        """Needs, what of them is missing within 500 m (with a proposed parcel), what they
        want kept, and support for a carried request they share."""
        needs = [t for t, n in zip(TYPES, pop.needs[i]) if n]
        return opinion_from_needs(region, pop, plan, parcels, i, needs, previous, None, self.name)

    def summarize(self, summary: Summary, opinions: list[Opinion], previous: Summary | None) -> tuple[str, str]:
        """(text, source) of a round summary."""
        return extractive_text(summary, opinions), self.name


def opinion_from_needs(region: Region, pop: Population, plan: np.ndarray, parcels: np.ndarray, i: int,
                       needs: list[str], previous: Summary | None, reason: str | None, source: str) -> Opinion:
    """A speaker's statement from the needs they voice (the rule persona's profile needs, or
    the LLM's structured answer): missing ones with a proposal, kept ones, seconding."""
    reach = reach_one(pop, plan, i)
    unmet = [t for t in needs if not reach[TYPES.index(t)]]
    proposal = propose(region, pop, plan, parcels, i, unmet)
    keep = kept(region, pop, plan, i, [t for t in needs if reach[TYPES.index(t)]])
    home = parcel_id(region, pop.home[i])
    parts = [f"I live in block {home}; I am {pop.describe(i)}. I need {', '.join(needs)}."]
    if reason:
        parts.append(reason.strip())
    parts.append(f"Missing within 500 m: {', '.join(unmet)}." if unmet else "All I need is within reach.")
    if proposal:
        parts.append(f"Parcel {proposal['parcel']} (now {proposal['from']}) could become {proposal['type']}.")
    if keep:
        parts.append("Please keep " + ", ".join(f"the {k['type']} on parcel {k['parcel']}" for k in keep[:2]) + ".")
    seconded = second(region, pop, i, unmet, previous)
    if seconded:
        parts.append(f"I support block {seconded['block']}'s request for {seconded['type']}.")
    return Opinion(int(i), " ".join(parts), needs, unmet, proposal, keep, seconded, source)


def reach_one(pop: Population, plan: np.ndarray, i: int) -> np.ndarray:
    near = pop.near_row(i)
    return np.array([(near & (plan == t)).any() for t in TYPES])


def propose(region: Region, pop: Population, plan: np.ndarray, parcels: np.ndarray, i: int,
            unmet: list[str]) -> dict | None:
    """The community's nearest plannable parcel in view whose type this resident does not
    need, turned into the first unmet type."""
    if not unmet:
        return None
    needs = {t for t, n in zip(TYPES, pop.needs[i]) if n}
    ok = np.flatnonzero(parcels & region.plannable & pop.near_row(i) & ~np.isin(plan, list(needs)))
    if not len(ok):
        return None
    j = ok[np.argmin(((region.xy[ok] - pop.xy[i]) ** 2).sum(axis=1))]
    return {"parcel": parcel_id(region, j), "from": str(plan[j]), "type": unmet[0]}


def kept(region: Region, pop: Population, plan: np.ndarray, i: int, met: list[str]) -> list[dict]:
    """The nearest parcel serving each met need (what the speaker asks to keep)."""
    out = []
    near = pop.near_row(i)
    for t in met:
        js = np.flatnonzero(near & (plan == t))
        j = js[np.argmin(((region.xy[js] - pop.xy[i]) ** 2).sum(axis=1))]
        out.append({"parcel": parcel_id(region, j), "type": t})
    return out


def second(region: Region, pop: Population, i: int, unmet: list[str], previous: Summary | None) -> dict | None:
    """A carried missing request of the same type for a block within 500 m of the speaker's."""
    if previous is None or not unmet:
        return None
    pos = {pid: k for k, pid in enumerate(region.ids.tolist())}
    home_xy = region.xy[pop.home[i]]
    for r in previous.requests:
        if r.kind == "missing" and r.type in unmet and r.block in pos:
            if ((region.xy[pos[r.block]] - home_xy) ** 2).sum() <= SERVICE_RADIUS ** 2:
                return {"block": r.block, "type": r.type}
    return None


def extractive_text(s: Summary, opinions: list[Opinion]) -> str:
    """Counts, the top requests and two quotes (vulnerable voices first)."""
    missed = ", ".join(f"{t} ({n})" for t, n in list(s.unmet.items())[:3]) or "nothing"
    reqs = "; ".join(f"block {r.block} wants {r.type} ({r.support} voices"
                     + (f", {r.vulnerable} vulnerable" if r.vulnerable else "") + ")"
                     for r in s.requests if r.kind == "missing")
    keeps = "; ".join(f"keep {r.type} for block {r.block} ({r.support})" for r in s.requests if r.kind == "keep")
    quotes = [short(o.text) for o in opinions if o.unmet][:2]
    return (f"Community {s.community}, round {s.round}: {s.speakers} speakers ({s.vulnerable} vulnerable). "
            f"Most missed: {missed}. Requests so far: {reqs or 'none'}."
            + (f" Asked to keep: {keeps}." if keeps else "") + "".join(f' "{q}"' for q in quotes))


def merge_requests(region: Region, pop: Population, opinions: list[Opinion],
                   previous: Summary | None) -> list[Request]:
    """The carried requests plus this round's statements, merged by (type, block, kind) and
    cut to the best supported (vulnerable voices count double in the ranking)."""
    reqs: dict[tuple, Request] = {r.key: Request(r.type, r.block, r.kind, r.support, r.vulnerable, r.place,
                                                 dict(r.places))
                                  for r in (previous.requests if previous else [])}
    vul = pop.vulnerable

    def add(t: str, block: int, kind: str, who: int, place: int | None) -> None:
        r = reqs.setdefault((t, block, kind), Request(t, block, kind))
        r.support += 1
        r.vulnerable += int(vul[who])
        if place is not None:
            r.places[place] = r.places.get(place, 0) + 1
            r.place = max(sorted(r.places), key=r.places.__getitem__)   # ties: the lowest id

    for o in opinions:
        home = parcel_id(region, pop.home[o.resident])
        for t in o.unmet:
            if o.seconded and o.seconded["type"] == t:
                add(t, o.seconded["block"], "missing", o.resident, None)
            else:
                add(t, home, "missing", o.resident,
                    o.proposal["parcel"] if o.proposal and o.proposal["type"] == t else None)
        for k in o.keep:
            add(k["type"], home, "keep", o.resident, k["parcel"])

    def rank(kind: str, n: int) -> list[Request]:
        sel = [r for r in reqs.values() if r.kind == kind]
        return sorted(sel, key=lambda r: (-(r.support + r.vulnerable), r.type, r.block))[:n]

    return rank("missing", SUMMARY_REQUESTS) + rank("keep", SUMMARY_KEEPS)


def condense(region: Region, pop: Population, c: int, r: int, opinions: list[Opinion],
             previous: Summary | None = None) -> Summary:
    """The structured part of a round summary (counts and the carried, merged requests)."""
    unmet = Counter(t for o in opinions for t in o.unmet)
    vul = pop.vulnerable
    return Summary(c, r, len(opinions), int(vul[[o.resident for o in opinions]].sum()),
                   dict(unmet.most_common()), merge_requests(region, pop, opinions, previous), "")


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
        s = condense(region, pop, c, r + 1, opinions, previous)
        s.text, s.source = persona.summarize(s, opinions, previous)
        disc.summaries.append(s)
        disc.opinions.append(opinions)
        if on_round is not None:
            on_round(s, opinions)
        previous = s
    return disc
