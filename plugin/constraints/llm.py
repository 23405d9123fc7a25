"""The model reads an instruction the rules could not: JSON-schema constrained output.

The local GGUF (llama.cpp grammar) and an OpenAI-compatible endpoint (``response_format``)
both answer through ``plugin.agent.backend``. The schema is flat (no nesting beyond one
list, no patterns) so the grammar stays small; the answer is data: it is converted to the
neutral constraint form and then resolved and validated like the rules' output.
"""
from __future__ import annotations

import json
from typing import Any

#: the kinds the model may answer, in words it can use (require_near is count_min with a target)
MODEL_KINDS = {
    "lock_in": "keep the site/link/parcel target_id", "lock_out": "never use target_id",
    "exclude_near": "none within distance_m of the place", "count_min": "at least count (near a place if given)",
    "count_max": "at most count (near a place if given)", "spacing_min": "selected sites at least distance_m apart",
    "budget_share_max": "spend at most share of the budget", "emphasis": "favour a score term",
    "inside_area": "only inside the named area", "outside_area": "nothing inside the named area",
    "coverage": "every residential block within distance_m of target_category",
}
MODEL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "constraints": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "kind": {"enum": list(MODEL_KINDS)},
                    "target_name": {"type": ["string", "null"]},
                    "target_category": {"type": ["string", "null"]},
                    "target_id": {"type": ["string", "null"]},
                    "distance_m": {"type": ["number", "null"]},
                    "count": {"type": ["integer", "null"]},
                    "share": {"type": ["number", "null"]},
                    "type": {"type": ["string", "null"]},
                    "term": {"type": ["string", "null"]},
                },
                "required": ["kind", "target_name", "target_category", "target_id", "distance_m", "count", "share",
                             "type", "term"],
            },
        },
        "clarify": {"type": ["string", "null"]},
    },
    "required": ["constraints", "clarify"],
}
SYSTEM = (
    "Turn the planner's instruction for a {task} plan into JSON constraints. Kinds: "
    + "; ".join(f"{k} = {v}" for k, v in MODEL_KINDS.items()) + ". "
    "target_name: the place as written; target_id: the number of a site, link, parcel or block. "
    "type: {types}. term: {terms}. If no measurable target is given, set clarify to a question."
)


def task_words(task: str) -> tuple[str, str]:
    """(types, terms) of ``task`` for the prompt, from its spec: the type vocabulary ("none"
    when it has none) and one word per score term other than cost (the first of its aliases)."""
    from ..tasks.registry import spec

    s = spec(task)
    firsts = {}
    for word, metric in s.score_terms.items():
        if word != "cost":
            firsts.setdefault(metric, word)
    return ", ".join(s.types) or "none", ", ".join(firsts.values())


def messages(text: str, task: str) -> list[dict[str, str]]:
    """The chat the model answers (also the SFT prompt: training and inference share it)."""
    types, terms = task_words(task)
    system = SYSTEM.format(task=task, types=types, terms=terms)
    return [{"role": "system", "content": system}, {"role": "user", "content": text.strip()}]


def to_neutral(item: dict[str, Any]) -> dict[str, Any]:
    """One model item → the neutral constraint form (what the rules emit)."""
    return {"kind": item.get("kind"),
            "target": {"name": item.get("target_name"), "category": item.get("target_category"),
                       "id": item.get("target_id")},
            **{k: item.get(k) for k in ("distance_m", "count", "share", "type", "term")}}


def from_neutral(c: dict[str, Any]) -> dict[str, Any]:
    """The neutral form → the model's flat item (SFT targets)."""
    t = c.get("target") or {}
    return {"kind": c["kind"], "target_name": t.get("name"), "target_category": t.get("category"),
            "target_id": t.get("id"), **{k: c.get(k) for k in ("distance_m", "count", "share", "type", "term")}}


#: a model (or an endpoint) answering with more than this is not reading one instruction: refuse
#: it rather than compile thousands of rows (an endpoint's 20,000 kept ``instruct`` busy for minutes)
MAX_MODEL_CONSTRAINTS = 20
MAX_ANSWER_CHARS = 20_000
#: tokens the local model may write for one instruction: one constraint in the flat schema is ~80
#: tokens, three ~210. The raw model, constrained to the schema, fills any budget with a string that
#: never closes (400 tokens took 92 s an item on a loaded core): more tokens only cost waiting.
MAX_ANSWER_TOKENS = 240


def model_read(backend, text: str, task: str, seed: int = 0) -> tuple[list[dict[str, Any]], str | None]:
    """(constraints in neutral form, clarification) from the model; ([], reason) on bad output."""
    res = backend.chat(messages(text, task), schema=MODEL_SCHEMA, max_tokens=MAX_ANSWER_TOKENS, temperature=0.0, seed=seed)
    unreadable = "I could not read that instruction (the model's answer was {}); please rephrase"
    if not isinstance(res.text, str) or len(res.text) > MAX_ANSWER_CHARS:
        return [], unreadable.format("not a short JSON object")
    try:
        doc = json.loads(res.text)
    except (ValueError, RecursionError):  # RecursionError: absurdly deep nesting
        return [], unreadable.format("not complete JSON")
    if not isinstance(doc, dict):
        return [], unreadable.format("not a JSON object")
    raw = doc.get("constraints") or []
    if not isinstance(raw, list):
        return [], unreadable.format("without a list of constraints")
    if len(raw) > MAX_MODEL_CONSTRAINTS:
        return [], unreadable.format(f"{len(raw)} constraints, more than {MAX_MODEL_CONSTRAINTS} for one instruction")
    items = [to_neutral(x) for x in raw if isinstance(x, dict)]
    clar = doc.get("clarify")
    return items, (str(clar)[:500] if clar else None)
