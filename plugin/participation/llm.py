"""The LLM persona, summariser and planner, through the agent's model backend.

Every answer is asked for under a JSON schema and validated here; an answer that is cut,
not JSON, or names unknown types / parcels falls back to the rule-based path for that
resident, summary or community, and is counted (``usage()['fallbacks']``). A speaker's
needs come from the model on their first turn and are then fixed (seeded per resident, so a
run repeats); residents who never speak keep their rule-based needs.
"""
from __future__ import annotations

import json

import numpy as np

from ..tasks.land import TYPES

from .fishbowl import Opinion, RulePersona, Summary, reach_one, propose
from .planner import changes_between
from .population import MAX_NEEDS, MIN_NEEDS, Population
from .region import Region

OPINION_SCHEMA = {
    "type": "object",
    "properties": {"needs": {"type": "array", "items": {"type": "string", "enum": list(TYPES)},
                             "minItems": MIN_NEEDS, "maxItems": MAX_NEEDS},
                   "comment": {"type": "string"}},
    "required": ["needs", "comment"],
}
SUMMARY_SCHEMA = {"type": "object", "properties": {"summary": {"type": "string"}}, "required": ["summary"]}
MAX_CHANGES = 5
PROMPT_QUOTES = 8    # opinions shown to the summariser (the counts cover everyone)


def planner_schema(parcel_ids: list[int]) -> dict:
    return {"type": "object", "properties": {"changes": {"type": "array", "maxItems": MAX_CHANGES, "items": {
        "type": "object", "properties": {"parcel": {"type": "integer", "enum": parcel_ids},
                                         "type": {"type": "string", "enum": list(TYPES)}},
        "required": ["parcel", "type"]}}}, "required": ["changes"]}


def _parse(text: str) -> dict | None:
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, TypeError):
        return None
    return obj if isinstance(obj, dict) else None


class LlmVoice(RulePersona):
    """Residents, summariser and planner played by one chat backend."""

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
        return {k: round(v, 3) if isinstance(v, float) else v for k, v in self.counts.items()}

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
        reach = reach_one(pop, plan, i)
        have = [t for t, ok in zip(TYPES, reach) if ok]
        user = (f"You are a resident: {pop.describe(i)}. Within 500 m of your home there is: "
                f"{', '.join(have) or 'nothing but housing'}. Missing: "
                f"{', '.join(t for t in TYPES if t not in have) or 'nothing'}.\n"
                + (f"Last round's summary: {previous.text}\n" if previous else "")
                + f"Name the {MIN_NEEDS}-{MAX_NEEDS} land uses you need most (from {', '.join(TYPES)}) "
                  "and say in one sentence why.")
        ans = self._ask("You take part in a neighbourhood planning meeting. Answer in JSON.", user, OPINION_SCHEMA,
                        self.seed * 100_003 + i)
        needs = [t for t in dict.fromkeys(ans.get("needs", []) if ans else []) if t in TYPES]
        comment = ans.get("comment") if ans else None
        if len(needs) < MIN_NEEDS or not isinstance(comment, str) or not comment.strip():
            self.counts["fallbacks"] += 1
            return super().speak(region, pop, plan, parcels, i, previous)
        if pop.needs_source[i] != "llm":   # first turn: the stated needs become this resident's
            pop.needs[i] = np.isin(TYPES, needs[:MAX_NEEDS])
            pop.needs_source[i] = "llm"
        stated = [t for t, n in zip(TYPES, pop.needs[i]) if n]
        unmet = [t for t in stated if not reach[TYPES.index(t)]]
        return Opinion(int(i), comment.strip()[:400], stated, unmet, propose(region, pop, plan, parcels, i, unmet), "llm")

    def summarize(self, summary: Summary, opinions: list[Opinion], previous: Summary | None) -> tuple[str, str]:
        self.counts["summaries"] += 1
        quotes = "\n".join(f"- {o.text[:200]}" for o in opinions[:PROMPT_QUOTES])
        user = (f"Round {summary.round}: {summary.speakers} residents spoke. Missing land uses named: "
                f"{json.dumps(summary.unmet)}. Requests: {json.dumps(summary.requests[:3])}.\n"
                + (f"Previous summary: {previous.text}\n" if previous else "")
                + f"Some voices:\n{quotes}\nSummarise the residents' needs in two sentences.")
        ans = self._ask("You are the note-taker of a planning meeting. Answer in JSON.", user, SUMMARY_SCHEMA,
                        self.seed * 7919 + summary.community * 101 + summary.round, 2 * self.max_tokens)
        text = ans.get("summary") if ans else None
        if not isinstance(text, str) or not text.strip():
            self.counts["fallbacks"] += 1
            return super().summarize(summary, opinions, previous)
        return text.strip()[:800], "llm"

    # ------------------------------------------------------------------ planner
    def revise(self, region: Region, plan: np.ndarray, parcels: np.ndarray,
               summaries: list[Summary]) -> tuple[np.ndarray, str]:
        """Up to MAX_CHANGES (parcel, type) changes from the summaries; invalid ones dropped."""
        self.counts["plans"] += 1
        idx = np.flatnonzero(parcels & region.plannable)
        ids = [region.ids[j].item() for j in idx]
        listing = "; ".join(f"{region.ids[j]}: {plan[j]}" for j in idx)
        notes = "\n".join(s.text for s in summaries)
        user = (f"Parcels you may change (id: current use): {listing}.\nResidents said:\n{notes}\n"
                f"Propose at most {MAX_CHANGES} changes of land use that meet the residents' needs.")
        ans = self._ask("You are the urban planner of this community. Answer in JSON.", user, planner_schema(ids),
                        self.seed * 31 + int(idx[0]), 2 * self.max_tokens)
        changes = ans.get("changes") if ans else None
        if not isinstance(changes, list):
            self.counts["fallbacks"] += 1
            return plan.copy(), "llm planner answer unusable: plan kept"
        new = plan.copy()
        pos = dict(zip(ids, idx))
        dropped = 0
        for ch in changes[:MAX_CHANGES]:
            p, t = (ch.get("parcel"), ch.get("type")) if isinstance(ch, dict) else (None, None)
            if isinstance(p, int) and p in pos and t in TYPES:
                new[pos[p]] = t
            else:
                dropped += 1
        return new, f"llm planner: {len(changes_between(region, plan, new))} changes, {dropped} invalid dropped"
