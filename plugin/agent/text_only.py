"""The raw model without tools: one prompt with the candidate table, one JSON plan back.

This is the "text-only" baseline of the quick-suite table: the model sees the task, the
limits, the score formula and every candidate's attributes (``resources/prompts/text_only.md``)
and answers ``{"candidate_ids": [...]}`` under JSON-schema constrained decoding. Nothing
checks or repairs its choice: the plan is scored as given.
"""
from __future__ import annotations

import inspect
import json
from typing import Any

from ..tasks.base import Instance
from .backend import Backend, BackendError
from .protocol import PLAN_SCHEMA, render

HIDDEN_COLUMNS = ("wkt",)  # geometry text is long and says nothing the other columns don't


def candidate_table(inst: Instance) -> str:
    """The candidates as CSV, numbers rounded to 2 decimals (fewer tokens, same ranking)."""
    df = inst.candidates.drop(columns=[c for c in HIDDEN_COLUMNS if c in inst.candidates.columns])
    return df.round(2).to_csv(index=False).strip()


def text_only_prompt(inst: Instance) -> str:
    return render("text_only", task=inst.task, instance_id=inst.instance_id, budget=f"{inst.budget:g}",
                  max_select=inst.max_select, formula=inspect.cleandoc(inst.describe()) or "(not documented)",
                  table=candidate_table(inst))


def propose(backend: Backend, inst: Instance, *, seed: int = 0, max_tokens: int = 256) -> dict[str, Any]:
    """One constrained answer, scored as given: valid, score, ids, tokens, seconds, error."""
    messages = [{"role": "user", "content": text_only_prompt(inst)}]
    try:
        res = backend.chat(messages, schema=PLAN_SCHEMA, max_tokens=max_tokens, temperature=0.0, seed=seed)
    except BackendError as e:
        return {"valid": False, "score": None, "ids": [], "error": str(e), "tokens": None, "seconds": None}
    try:
        ids = json.loads(res.text).get("candidate_ids", [])
    except (json.JSONDecodeError, AttributeError):
        ids = None
    ev = inst.evaluate(ids if isinstance(ids, list) else None)
    valid = ev.valid and bool(ev.candidate_ids)  # an empty plan is no answer
    error = None if valid else ("; ".join(ev.errors) or "empty plan")
    return {"valid": valid, "score": ev.score, "ids": ev.candidate_ids, "error": error,
            "tokens": {"prompt": res.prompt_tokens, "completion": res.completion_tokens},
            "seconds": round(res.seconds, 2), "finish_reason": res.finish_reason}
