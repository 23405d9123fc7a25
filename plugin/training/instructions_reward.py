"""The execution reward of one instruction → constraint rollout (GRPO for ``train --task instructions``).

Does the compiled constraint, applied, give the plan the instruction meant? The model's answer
(the flat JSON of ``plugin.constraints.llm.MODEL_SCHEMA``) goes through the same path as at
inference — neutral form, resolution against the data, schema and compile checks
(``plugin.constraints.interpret.finish``) — and is judged by the benchmark's execution accuracy
(``plugin.bench.instructions.executes``) against the pair's gold constraint on the small
instance (seed 0) of the pair's region and task:

* 1.0 — it executes as the gold one (same rows, or its certified plan is valid and optimal
  under the gold constraints), or both ask for a clarification;
* ``FORMAT_REWARD`` — complete JSON that does not execute as meant;
* 0.0 — no complete JSON (cut off by the token limit, or not JSON).
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from ..constraints.llm import to_neutral

FORMAT_REWARD = 0.1


@lru_cache(maxsize=8)
def pair_instance(region: str, task: str):
    """The instance the benchmark reads instructions against (small, seed 0)."""
    from ..city import load_city
    from ..tasks import task_class

    return task_class(task).build(load_city(region), "small", seed=0)


def gold(answer: dict[str, Any]) -> Any:
    """A pair's answer as the benchmark's ``expect``: neutral constraints, or ``{"clarify": …}``."""
    if answer.get("clarify") and not answer.get("constraints"):
        return {"clarify": answer["clarify"]}
    return [to_neutral(c) for c in answer["constraints"]]


def answer_items(completion: str) -> list[dict[str, Any]] | None:
    """The neutral constraints of one model answer ([] for a clarification), None when it is not
    complete JSON of the answer's shape."""
    try:
        doc = json.loads(completion)
    except ValueError:
        return None
    if not isinstance(doc, dict):
        return None
    return [to_neutral(x) for x in doc.get("constraints") or [] if isinstance(x, dict)]


def prediction(items: list[dict[str, Any]], text: str, inst) -> list[dict[str, Any]] | None:
    """The checked constraints of an answer's items, None for a clarification."""
    from ..constraints.interpret import finish
    from ..constraints.resolve import Clarify

    if not items:
        return None
    try:
        return [finish(c, inst, text, "model") for c in items]
    except (Clarify, ValueError, TypeError, KeyError):   # not a constraint of this instance: a question
        return None


def execution_reward(completion: str, text: str, region: str, task: str, answer: dict[str, Any],
                     cache: dict | None = None) -> float:
    """The reward of ``completion`` for the pair (``text``, ``region``, ``task``, gold ``answer``);
    ``cache`` keeps the gold constraint's certified plan across the rollouts of one pair."""
    from ..bench.instructions import executes

    items = answer_items(completion)
    if items is None:
        return 0.0
    inst = pair_instance(region, task)
    pred = prediction(items, text, inst)
    return 1.0 if executes(pred, gold(answer), inst, text, {} if cache is None else cache) else FORMAT_REWARD
