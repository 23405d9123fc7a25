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
from pathlib import Path
from typing import Any

import numpy as np

from plugin.agent.backend import make_backend
from plugin.util.io import append_jsonl, atomic_write_json, atomic_write_text

from .config import Section
from .render import AtomicTask, run_episode

ROW_NAMES = {"base": "base model", "sft": "+SFT", "grpo": "+SFT+GRPO (atomic tasks)",
             "refine": "+ iterative refinement"}


def evaluate_variants(cfg: Section, model_path: Path, adapters: dict[str, Path | None],
                      tasks: list[AtomicTask], out: Path) -> dict[str, Any]:
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
    atomic_write_json(out / "eval.json", table)
    atomic_write_text(out / "eval_table.md", table_markdown(table))
    return table


def _refinement(cfg: Section, model_path: Path, adapter: Path | None, tasks: list[AtomicTask],
                out: Path) -> list[dict[str, Any]]:
    from plugin.agent.loop import AgentSettings, run_agent
    from plugin.sandbox.workspace import write_workspace

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
    """Per task: episodes, feasibility (valid share) and mean score of the feasible ones."""
    out = {}
    for task in sorted({e["task"] for e in episodes}):
        eps = [e for e in episodes if e["task"] == task]
        scores = [e["score"] for e in eps if e["valid"]]
        out[task] = {"n": len(eps), "feasible": round(float(np.mean([e["valid"] for e in eps])), 4),
                     "score": round(float(np.mean(scores)), 4) if scores else None}
    return out


def table_markdown(table: dict[str, dict[str, dict[str, Any]]]) -> str:
    tasks = sorted({t for row in table.values() for t in row})
    head = "| model | " + " | ".join(f"{t} feasible | {t} score" for t in tasks) + " |"
    sep = "|---|" + "---|---|" * len(tasks)
    lines = [head, sep]
    for variant, row in table.items():
        cells = []
        for t in tasks:
            r = row.get(t)
            cells += ["–", "–"] if r is None else [f"{r['feasible']:.0%} (n={r['n']})",
                                                   "–" if r["score"] is None else f"{r['score']:.3f}"]
        lines.append(f"| {ROW_NAMES.get(variant, variant)} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
