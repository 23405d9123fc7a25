"""``python -m plugin agent WS``: BuildPlan / ImprovePlan with a language model on a workspace.

Prints the JSON result (valid, score, rounds, turns, tokens, seconds, best-so-far curve); the
agent's plan is in WS/runs/NNN-agent.json, the workspace's best plan (replaced only by a better
one) in WS/outputs/final_plan.json, and the trace in WS/logs/agent.jsonl. The run starts from
the workspace's best plan when there is one, and ends with ``default`` on the same instance and
time limit: ``gap`` and ``default_gap`` are both measured to ``upper_bound``, the tightest
bound proven for the instructions in force (``--reference none`` skips that solve).
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..errors import InputError
from . import add_lora_argument, seconds, seed


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("workspace", help="workspace folder (made by 'python -m plugin instance')")
    parser.add_argument("--model", default="default", help="GGUF path, or 'default' (SmolLM2-135M); "
                                                           "with --endpoint: the model name on the server")
    parser.add_argument("--endpoint", default=None, help="OpenAI-compatible base URL (e.g. http://127.0.0.1:8080/v1)")
    add_lora_argument(parser)
    parser.add_argument("--rounds", type=int, default=5, help="ImprovePlan round budget (default 5)")
    parser.add_argument("--patience", type=int, default=3)
    parser.add_argument("--max-turns", type=int, default=20, help="turns per atomic episode (at most 20)")
    parser.add_argument("--max-tokens", type=int, default=384)
    parser.add_argument("--temperature", type=float, default=0.7)
    parser.add_argument("--threads", type=int, default=None, help="llama threads (default: cores - 1, 1 on ≤ 2 cores)")
    parser.add_argument("--seed", type=seed, default=0)
    parser.add_argument("--time-limit", type=seconds, default=None, help="seconds for the whole run")
    parser.add_argument("--unconstrained", action="store_true", help="no JSON-schema constrained decoding")
    parser.add_argument("--no-fallback", action="store_true", help="never run greedy when BuildPlan fails")
    parser.add_argument("--reference", choices=("default", "milp", "none"), default="default",
                        help="solver run after the agent on the same instance and time limit, for the gap "
                             "comparison (default: default)")
    parser.add_argument("--compact-prompt", action="store_true",
                        help="the short system prompt adapters from 'train' are trained on (use with --lora)")


def run(args: argparse.Namespace) -> dict[str, Any]:
    from ..agent.backend import make_backend
    from ..agent.loop import AgentSettings, run_agent
    from ..agent.model_files import resolve_lora
    from ..sandbox import best_plan

    if args.rounds < 0 or not 1 <= args.max_turns <= 20:
        raise InputError("--rounds must be ≥ 0 and --max-turns between 1 and 20")
    if args.threads is not None and args.threads < 1:
        raise InputError(f"--threads must be ≥ 1, got {args.threads}")
    inst = best_plan.instance_in_force(args.workspace)  # a bad workspace fails before the model loads
    best_plan.adopt_existing(args.workspace, inst)
    settings = AgentSettings(rounds=args.rounds, patience=args.patience, max_turns=args.max_turns,
                             max_tokens=args.max_tokens, temperature=args.temperature, seed=args.seed,
                             constrained=not args.unconstrained, time_limit=args.time_limit,
                             fallback=None if args.no_fallback else "greedy", compact_prompt=args.compact_prompt,
                             reference=None if args.reference == "none" else args.reference)
    lora = None if args.endpoint else resolve_lora(args.lora)
    backend = make_backend(args.model, args.endpoint, lora=lora, threads=args.threads, seed=args.seed)
    try:
        result = run_agent(backend, args.workspace, settings)
    finally:
        backend.close()
    if not result["replies"] and result["backend_errors"]:  # no plan of the model's: say why, fail
        raise InputError(f"the model never answered: {result['backend_error']}")
    # the agent's plan is kept in runs/; final_plan.json keeps the workspace's best plan
    rec = best_plan.record_run(args.workspace, "agent", result["candidate_ids"], seconds=result["seconds"], inst=inst)
    return {**result, "upper_bound": rec["run"]["upper_bound"], "gap": rec["run"]["gap"],
            "plan": str(Path(args.workspace) / rec["run"]["file"]), "best": rec["best"], "best_replaced": rec["replaced"]}
