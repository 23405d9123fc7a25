"""Held-out evaluation in the shape of the paper's Table 4 (feasibility / score per task).

Rows: ``base`` (the GGUF as shipped), ``sft`` and ``grpo`` (the exported adapters, loaded by
llama.cpp exactly as the agent loads them) on single atomic turns of the test split —
greedy decoding, no grammar, so the row measures the model itself — and, when
``eval.refinement_rounds`` > 0, ``+ refinement``: the agent's BuildPlan → ImprovePlan loop
(``plugin.agent.loop``) with the GRPO adapter and no solver fallback.
Feasibility = share of episodes whose plan is valid (and attempted, see ``render``);
score = mean evaluator score over the feasible ones.
"""
from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ..agent.backend import make_backend
from ..util.io import append_jsonl, atomic_write_json, atomic_write_text
from .config import Section
from .render import AtomicTask, run_episode

ROW_NAMES = {"base": "base model", "sft": "+SFT", "grpo": "+SFT+GRPO (atomic tasks)",
             "refine": "+ iterative refinement"}


def evaluate_variants(cfg: Section, model_path: Path, adapters: dict[str, Path | None],
                      tasks: list[AtomicTask], out: Path, encode: Callable[[str], list[int]]) -> dict[str, Any]:
    """Run every configured variant on the test tasks; writes eval.json, eval_table.md,
    eval_episodes.jsonl and returns {"table": …, "adapter_effect": …}."""
    (out / "eval_episodes.jsonl").unlink(missing_ok=True)
    rows: dict[str, list[dict[str, Any]]] = {}
    for variant in cfg.eval.variants:
        lora = adapters[variant]
        backend = make_backend(str(model_path), lora=None if lora is None else str(lora),
                               threads=cfg.model.threads, seed=cfg.run.seed)
        try:
            rows[variant] = []
            for task in tasks:
                res = backend.chat(task.messages, max_tokens=cfg.eval.max_tokens, temperature=0.0)
                ep = {"variant": variant, **run_episode(task, res.text), "text": res.text[:2000]}
                append_jsonl(out / "eval_episodes.jsonl", ep)
                rows[variant].append(ep)
        finally:
            backend.close()
    if cfg.eval.refinement_rounds > 0 and "grpo" in adapters:
        rows["refine"] = _refinement(cfg, model_path, adapters["grpo"], tasks, out)
    table = {v: aggregate(eps) for v, eps in rows.items()}
    effect = {v: adapter_effect(rows, encode, v) for v in rows if v in ("sft", "grpo") and "base" in rows}
    atomic_write_json(out / "eval.json", {"table": table, "adapter_effect": effect})
    atomic_write_text(out / "eval_table.md", table_markdown(table))
    return {"table": table, "adapter_effect": effect}


def _refinement(cfg: Section, model_path: Path, adapter: Path | None, tasks: list[AtomicTask],
                out: Path) -> list[dict[str, Any]]:
    from ..agent.loop import AgentSettings, run_agent
    from ..sandbox.workspace import write_workspace

    backend = make_backend(str(model_path), lora=None if adapter is None else str(adapter),
                           threads=cfg.model.threads, seed=cfg.run.seed)
    eps = []
    try:
        for k, task in enumerate(t for t in tasks if t.goal == "build"):
            ws = out / "workspaces" / "refine" / f"{k:03d}"
            shutil.rmtree(ws, ignore_errors=True)
            write_workspace(task.inst, ws, "build")
            res = run_agent(backend, ws, AgentSettings(rounds=cfg.eval.refinement_rounds, fallback=None,
                                                       seed=cfg.run.seed, max_tokens=cfg.eval.max_tokens))
            ep = {"variant": "refine", "task": task.inst.task, "goal": "refine", "instance": task.inst.instance_id,
                  "valid": bool(res["valid"] and res["candidate_ids"]), "score": res["score"]}
            append_jsonl(out / "eval_episodes.jsonl", ep)
            eps.append(ep)
    finally:
        backend.close()
    return eps


def aggregate(episodes: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per ``task.goal``: episodes, feasibility (valid share) and mean score of the feasible ones."""
    out = {}
    for key in sorted({(e["task"], e["goal"]) for e in episodes}):
        eps = [e for e in episodes if (e["task"], e["goal"]) == key]
        scores = [e["score"] for e in eps if e["valid"]]
        out[".".join(key)] = {"n": len(eps), "feasible": round(float(np.mean([e["valid"] for e in eps])), 4),
                              "score": round(float(np.mean(scores)), 4) if scores else None}
    return out


GOAL_HEADINGS = {"build": "BuildPlan", "improve": "ImprovePlan", "refine": "BuildPlan + iterative refinement"}


def table_markdown(table: dict[str, dict[str, dict[str, Any]]]) -> str:
    """One Table-4-shaped table per atomic goal: rows = model variants, columns = task feasibility / score."""
    keys = {k for row in table.values() for k in row}
    parts = []
    for goal in [g for g in GOAL_HEADINGS if any(k.endswith("." + g) for k in keys)]:
        tasks = sorted({k.split(".")[0] for k in keys if k.endswith("." + goal)})
        lines = [f"### {GOAL_HEADINGS[goal]}", "",
                 "| model | " + " | ".join(f"{t} feasible | {t} score" for t in tasks) + " |",
                 "|---|" + "---|---|" * len(tasks)]
        for variant, row in table.items():
            if not any(f"{t}.{goal}" in row for t in tasks):
                continue
            cells = []
            for t in tasks:
                r = row.get(f"{t}.{goal}")
                cells += ["–", "–"] if r is None else [f"{r['feasible']:.0%} (n={r['n']})",
                                                       "–" if r["score"] is None else f"{r['score']:.3f}"]
            lines.append(f"| {ROW_NAMES.get(variant, variant)} | " + " | ".join(cells) + " |")
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def token_edit_distance(a: list[int], b: list[int]) -> int:
    """Levenshtein distance between two token sequences."""
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def adapter_effect(rows: dict[str, list[dict[str, Any]]], encode: Callable[[str], list[int]],
                   variant: str) -> list[dict[str, Any]]:
    """How ``variant``'s greedy turn differs from the base model's on each test prompt: first
    differing token position (None = identical) and token edit distance."""
    out = []
    for base, other in zip(rows.get("base", []), rows.get(variant, []), strict=False):
        a, b = encode(base["text"]), encode(other["text"])
        tail = None if len(a) == len(b) else min(len(a), len(b))  # one is a prefix of the other
        first = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), tail)
        out.append({"instance": base["instance"], "goal": base["goal"], "base_tokens": len(a), "tokens": len(b),
                    "first_difference": first, "edit_distance": token_edit_distance(a, b)})
    return out
