"""``python -m plugin train --config cpu-smoke|gpu|FILE.toml --out DIR``: SFT + GRPO training of
the planner model on BuildPlan / ImprovePlan atomic tasks (see ``plugin.training``).

The config format is documented in ``plugin/training/config.py`` and in the shipped
``resources/training/*.toml``. ``--resume`` continues from ``DIR/checkpoint.pt``.
"""
from __future__ import annotations

import argparse
from typing import Any

from . import seed


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", default="cpu-smoke",
                        help="shipped config name (cpu-smoke, gpu) or a TOML file (default cpu-smoke)")
    parser.add_argument("--out", required=True, help="output folder: log, checkpoint, adapters, curves, evaluation")
    parser.add_argument("--resume", action="store_true", help="continue from OUT/checkpoint.pt")
    parser.add_argument("--seed", type=seed, default=None, help="override run.seed")
    parser.add_argument("--threads", type=int, default=None, help="override model.threads")
    parser.add_argument("--task", choices=("planner", "instructions"), default="planner",
                        help="planner: BuildPlan/ImprovePlan (the config); instructions: instruction → constraint "
                             "SFT (plugin.training.instructions)")
    parser.add_argument("--steps", type=int, default=300, help="instructions: SFT steps (default 300)")
    parser.add_argument("--batch", type=int, default=4, help="instructions: pairs per SFT step (default 4)")
    parser.add_argument("--rank", type=int, default=8, help="instructions: LoRA rank (default 8)")
    parser.add_argument("--grpo-steps", type=int, default=0,
                        help="instructions: GRPO steps with the execution reward after SFT (default 0)")
    parser.add_argument("--group", type=int, default=4, help="instructions: GRPO rollouts per pair (default 4)")
    parser.add_argument("--max-new-tokens", type=int, default=160,
                        help="instructions: longest sampled GRPO answer in tokens (default 160)")


def run(args: argparse.Namespace) -> dict[str, Any]:
    from ..errors import InputError
    from ..training.config import load_config

    overrides: dict[str, dict[str, Any]] = {}
    if args.seed is not None:
        overrides["run"] = {"seed": args.seed}
    if args.threads is not None:
        if args.threads < 1:
            raise InputError(f"--threads must be at least 1, got {args.threads}")
        overrides["model"] = {"threads": args.threads}
    if args.task == "instructions":
        for name in ("batch", "rank", "group", "max_new_tokens"):
            if getattr(args, name) < 1:
                raise InputError(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
        if args.steps < 0 or args.grpo_steps < 0 or args.steps + args.grpo_steps < 1:
            raise InputError("--steps and --grpo-steps must be ≥ 0, and one of them at least 1")
        from ..training.instructions import InstructionTraining, train_instructions

        return train_instructions(args.out, InstructionTraining(
            steps=args.steps, batch=args.batch, rank=args.rank, grpo_steps=args.grpo_steps, group=args.group,
            max_new_tokens=args.max_new_tokens, threads=args.threads or 2, seed=0 if args.seed is None else args.seed))
    cfg = load_config(args.config, overrides)
    try:
        from ..training.trainer import train
    except ImportError as e:  # torch / llama_cpp are optional for the rest of the plugin
        raise InputError(f"training needs torch and llama-cpp-python: {e}") from e
    return train(cfg, args.out, resume=args.resume)
