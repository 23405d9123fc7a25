"""The LLM voice: residents, note-taker and planner through the agent's model backend.

A small local model cannot be trusted with free text, so every answer is a small structure
under a JSON schema (grammar-constrained on llama.cpp), validated here and rendered to text:

* **Resident**: ``{"needs": [1–3 types], "reason": str, "place": parcel id or "none"}``. The
  type list is shuffled per resident, in the prompt and in the schema's enum, so the model's
  habit of copying the first items of a list does not become everyone's need. The structure
  is what the resident *says* (the heard requests); the resident's profile needs, which
  Satisfaction and Inclusion score, are never changed by it.
* **Note-taker**: a two-sentence summary text; the summary's structured requests are always
  the merged statements (``fishbowl.merge_requests``), never the model's words.
* **Planner**: up to K ``(parcel, type)`` changes from the summary's requests; every change is
  then checked against the Program's rules by the engine and dropped if it breaks one.

An answer that is cut, not JSON or out of schema falls back to the rule path for that
resident / summary / community and is labelled ``fallback`` (counted in ``usage()``), never
``llm``; so does a summary that is no sentence or names none of the missed types, and a
resident's reason that is no sentence is left out of the statement (``sensible``). ``usage()`` reports calls, tokens,
seconds and seconds per call.
"""
from __future__ import annotations

import json

import numpy as np

from ..tasks.land import TYPES

from .fishbowl import Opinion, RulePersona, Summary, opinion_from_needs, parcel_id, reach_one, short
from .population import Population
from .region import Region

MAX_STATED = 3        # needs a resident names in one statement
PROMPT_QUOTES = 8     # opinions shown to the note-taker (the counts cover everyone)
SUMMARY_SCHEMA = {"type": "object", "properties": {"summary": {"type": "string"}}, "required": ["summary"]}


def statement_schema(types: list[str], places: list[str]) -> dict:
    return {"type": "object", "properties": {
        "needs": {"type": "array", "items": {"type": "string", "enum": types}, "minItems": 1, "maxItems": MAX_STATED},
        "reason": {"type": "string"},
        "place": {"type": "string", "enum": places + ["none"]}},
        "required": ["needs", "reason", "place"]}


def planner_schema(parcel_ids: list[str], k: int) -> dict:
    return {"type": "object", "properties": {"changes": {"type": "array", "maxItems": k, "items": {
        "type": "object", "properties": {"parcel": {"type": "string", "enum": parcel_ids},
                                         "type": {"type": "string", "enum": list(TYPES)}},
        "required": ["parcel", "type"]}}}, "required": ["changes"]}


def sensible(text: object, must_mention: tuple[str, ...] = ()) -> bool:
    """Free text worth showing: at least four words of letters (a 135M model often answers
    "232" or repeats the prompt) and, when given, a mention of one of ``must_mention``."""
    if not isinstance(text, str):
        return False
    words = [w for w in text.split() if sum(ch.isalpha() for ch in w) >= 2]
    low = text.lower()
    return len(words) >= 4 and (not must_mention or any(m.replace("_", " ") in low.replace("_", " ")
                                                        for m in must_mention))


def _parse(text: str) -> dict | None:
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, TypeError):
        return None
    return obj if isinstance(obj, dict) else None


class LlmVoice(RulePersona):
    """Residents, note-taker and planner played by one chat backend."""

    name = "llm"

    def __init__(self, backend, max_tokens: int = 96, seed: int = 0):
        self.backend = backend
        self.max_tokens = int(max_tokens)
        self.seed = int(seed)
        self.counts = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "seconds": 0.0, "fallbacks": 0,
                       "speakers": 0, "summaries": 0, "plans": 0}

    @classmethod
    def open(cls, model: str | None = "default", endpoint: str | None = None, *, threads: int | None = None,
             max_tokens: int = 96, seed: int = 0) -> "LlmVoice":
        from ..agent.backend import make_backend

        return cls(make_backend(model, endpoint, threads=threads, n_ctx=2048, seed=seed), max_tokens, seed)

    def close(self) -> None:
        self.backend.close()

    def usage(self) -> dict:
        c = dict(self.counts)
        c["seconds_per_call"] = c["seconds"] / c["calls"] if c["calls"] else 0.0
        return {k: round(v, 3) if isinstance(v, float) else v for k, v in c.items()}

    def _ask(self, system: str, user: str, schema: dict, seed: int, max_tokens: int | None = None) -> dict | None:
        from ..agent.backend import BackendError

        try:
            r = self.backend.chat([{"role": "system", "content": system}, {"role": "user", "content": user}],
                                  schema=schema, max_tokens=max_tokens or self.max_tokens, temperature=0.7, seed=seed)
        except BackendError:
            return None
        c = self.counts
        c["calls"] += 1
        c["prompt_tokens"] += r.prompt_tokens
        c["completion_tokens"] += r.completion_tokens
        c["seconds"] += r.seconds
        return _parse(r.text) if r.finish_reason != "length" else None

    # ------------------------------------------------------------------ residents
    def speak(self, region: Region, pop: Population, plan: np.ndarray, parcels: np.ndarray, i: int,
              previous: Summary | None) -> Opinion:
        self.counts["speakers"] += 1
        rng = np.random.default_rng([self.seed, i])
        types = [TYPES[k] for k in rng.permutation(len(TYPES))]
        reach = reach_one(pop, plan, i)
        have = [t for t in types if reach[TYPES.index(t)]]
        view = np.flatnonzero(parcels & region.plannable & pop.near_row(i))
        places = [str(region.ids[j]) for j in view]
        user = (f"You are a resident: {pop.describe(i)}. Within 500 m of your home there is: "
                f"{', '.join(have) or 'nothing but housing'}. Land uses: {', '.join(types)}.\n"
                + (f"Last round's summary: {short(previous.text, 300)}\n" if previous else "")
                + f"Name up to {MAX_STATED} land uses you need most, why in one sentence, and the parcel "
                  f"({', '.join(places) or 'none'}) where one should go.")
        ans = self._ask("You take part in a neighbourhood planning meeting. Answer in JSON.", user,
                        statement_schema(types, places), self.seed * 100_003 + i)
        needs = [t for t in dict.fromkeys(ans.get("needs", []) if ans else []) if t in TYPES][:MAX_STATED]
        reason = ans.get("reason") if ans else None
        if not needs or not isinstance(reason, str):
            self.counts["fallbacks"] += 1
            op = super().speak(region, pop, plan, parcels, i, previous)
            op.source = "fallback"
            return op
        # a reason that is no sentence is left out; the structured needs still count as said
        op = opinion_from_needs(region, pop, plan, parcels, i, needs, previous,
                                short(reason, 200) if sensible(reason) else None, "llm")
        place = ans.get("place")
        if op.proposal and place in places:
            j = view[places.index(place)]
            op.proposal = {"parcel": parcel_id(region, j), "from": str(plan[j]), "type": op.proposal["type"]}
        return op

    def summarize(self, summary: Summary, opinions: list[Opinion], previous: Summary | None) -> tuple[str, str]:
        self.counts["summaries"] += 1
        quotes = "\n".join(f"- {short(o.text, 200)}" for o in opinions[:PROMPT_QUOTES])
        reqs = [f"block {r.block} wants {r.type} ({r.support} voices)" for r in summary.requests if r.kind == "missing"]
        user = (f"Round {summary.round}: {summary.speakers} residents spoke. Missing land uses named: "
                f"{json.dumps(summary.unmet)}. Requests: {'; '.join(reqs[:3]) or 'none'}.\n"
                + (f"Previous summary: {short(previous.text, 300)}\n" if previous else "")
                + f"Some voices:\n{quotes}\nSummarise the residents' needs in two sentences.")
        ans = self._ask("You are the note-taker of a planning meeting. Answer in JSON.", user, SUMMARY_SCHEMA,
                        self.seed * 7919 + summary.community * 101 + summary.round, 2 * self.max_tokens)
        text = ans.get("summary") if ans else None
        if not sensible(text, tuple(summary.unmet) or TYPES):
            self.counts["fallbacks"] += 1
            return super().summarize(summary, opinions, previous)[0], "fallback"
        return short(text, 800), "llm"

    # ------------------------------------------------------------------ planner
    def revise(self, region: Region, plan: np.ndarray, parcels: np.ndarray, summary: Summary,
               max_changes: int) -> tuple[np.ndarray, str]:
        """Up to ``max_changes`` (parcel, type) changes proposed from the summary's requests;
        the engine drops the ones that break a rule."""
        self.counts["plans"] += 1
        idx = np.flatnonzero(parcels & region.plannable)
        ids = [str(region.ids[j]) for j in idx]
        listing = "; ".join(f"{region.ids[j]}: {plan[j]}" for j in idx)
        reqs = "; ".join(f"block {r.block}: {r.kind} {r.type} ({r.support} voices)" for r in summary.requests)
        user = (f"Parcels you may change (id: current use): {listing}.\nResidents' requests: {reqs}\n"
                f"Summary: {short(summary.text, 400)}\nPropose at most {max_changes} changes of land use.")
        ans = self._ask("You are the urban planner of this community. Answer in JSON.", user,
                        planner_schema(ids, max(1, max_changes)), self.seed * 31 + int(idx[0]), 2 * self.max_tokens)
        changes = ans.get("changes") if ans else None
        if not isinstance(changes, list):
            self.counts["fallbacks"] += 1
            return plan.copy(), "fallback: the LLM planner's answer was unusable, plan kept"
        new = plan.copy()
        pos = dict(zip(ids, idx))
        bad = 0
        for ch in changes[:max_changes]:
            p, t = (ch.get("parcel"), ch.get("type")) if isinstance(ch, dict) else (None, None)
            if p in pos and t in TYPES:
                new[pos[p]] = t
            else:
                bad += 1
        return new, f"llm planner: {int((new != plan).sum())} change(s) proposed, {bad} malformed"
