"""The issue's comparison table: raw model without tools, the loop with tools, default and Greedy.

``python -m plugin.agent.compare --out DIR [--sizes small] [--model …|--endpoint …]`` runs,
on each item of ``plugin.bench.suites.suite("quick")`` of the chosen sizes: Greedy; the
model answering from the candidate table alone (``text_only.propose``); the planner
loop with its tools (``run_agent``); and ``default`` on the same workspace and time limit
(the loop's reference run), with the gaps of the agent and ``default`` to one certified
bound. One row per (item, method) goes to DIR/compare.jsonl as it is measured, the per-task
table to DIR/compare.md; the JSON summary is printed. The distance between the first two
rows of each task is what training must close.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..util.io import append_jsonl, atomic_write_text

METHODS = ("text_only", "agent", "default", "greedy")


def run_item(item, backend, out: Path, rounds: int, max_turns: int, time_limit: float, seed: int) -> list[dict]:
    from ..bench.suites import build_item
    from ..sandbox.workspace import write_workspace
    from ..solvers import solve
    from .loop import AgentSettings, run_agent
    from .text_only import propose

    inst = build_item(item)
    key = {"item": item.name, "task": item.task, "size": item.size}
    g = solve(inst, "greedy", time_limit=time_limit, seed=seed)
    rows = [{**key, "method": "greedy", "valid": g.valid, "score": g.score, "seconds": g.seconds}]
    t = propose(backend, inst, seed=seed)
    rows.append({**key, "method": "text_only", "valid": t["valid"], "score": t["score"], "seconds": t["seconds"],
                 "error": t["error"], "tokens": t["tokens"]})
    ws = write_workspace(inst, out / "workspaces" / item.name)
    a = run_agent(backend, ws, AgentSettings(rounds=rounds, max_turns=max_turns, seed=seed, time_limit=time_limit,
                                             reference="default"))
    rows.append({**key, "method": "agent", "valid": a["valid"], "score": a["score"], "seconds": a["seconds"],
                 "upper_bound": a["upper_bound"], "gap": a["gap"], "turns": a["turns"], "parse_rate": a["parse_rate"],
                 "fallback_used": a["fallback_used"], "best_from": a["best_from"], "tokens": a["tokens"]})
    rows.append({**key, "method": "default", "valid": a["default_valid"], "score": a["default_score"],
                 "seconds": a["default_seconds"], "upper_bound": a["upper_bound"], "gap": a["default_gap"]})
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    """Markdown: per task × method, feasibility (valid / items), mean score of valid plans and
    mean gap to the certified bound (where one was proven)."""
    lines = ["| task | method | feasible | mean score (valid) | mean gap % | mean seconds |",
             "|---|---|---|---|---|---|"]
    for task in sorted({r["task"] for r in rows}):
        for m in METHODS:
            rs = [r for r in rows if r["task"] == task and r["method"] == m]
            if not rs:
                continue
            ok = [r["score"] for r in rs if r["valid"] and r["score"] is not None]
            secs = [r["seconds"] for r in rs if r.get("seconds") is not None]
            gaps = [r["gap"] for r in rs if r.get("gap") is not None]
            score = f"{sum(ok) / len(ok):.4f}" if ok else "–"
            gap = f"{100 * sum(gaps) / len(gaps):.1f}" if gaps else "–"
            seconds = f"{sum(secs) / len(secs):.1f}" if secs else "–"
            lines.append(f"| {task} | {m} | {len(ok)}/{len(rs)} | {score} | {gap} | {seconds} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    from ..bench.suites import suite
    from .backend import make_backend

    p = argparse.ArgumentParser(prog="python -m plugin.agent.compare", description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--sizes", default="small", help="comma-separated: small,medium,large")
    p.add_argument("--model", default="default")
    p.add_argument("--endpoint", default=None)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--rounds", type=int, default=1, help="ImprovePlan rounds of the loop")
    p.add_argument("--max-turns", type=int, default=6)
    p.add_argument("--time-limit", type=float, default=180.0, help="seconds per method per item")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    out = Path(a.out)
    sizes = set(a.sizes.split(","))
    items = [it for it in suite("quick") if it.size in sizes]
    backend = make_backend(a.model, a.endpoint, threads=a.threads, n_ctx=8192, seed=a.seed)
    rows: list[dict[str, Any]] = []
    try:
        for item in items:
            for r in run_item(item, backend, out, a.rounds, a.max_turns, a.time_limit, a.seed):
                append_jsonl(out / "compare.jsonl", r)
                rows.append(r)
    finally:
        backend.close()
    md = table(rows)
    atomic_write_text(out / "compare.md", md)
    print(json.dumps({"items": [it.name for it in items], "table": md, "rows": rows}, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
