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
    parser.add_argument("--steps", type=int, default=None, help="instructions: SFT steps (overrides the config)")
    parser.add_argument("--batch", type=int, default=None, help="instructions: pairs per SFT step (overrides the config)")
    parser.add_argument("--rank", type=int, default=None, help="instructions: LoRA rank (overrides the config)")
    parser.add_argument("--grpo-steps", type=int, default=None,
                        help="instructions: GRPO steps with the execution reward after SFT (overrides the config)")
    parser.add_argument("--group", type=int, default=None, help="instructions: GRPO rollouts per pair (overrides the config)")
    parser.add_argument("--max-new-tokens", type=int, default=None,
                        help="instructions: longest sampled GRPO answer in tokens (overrides the config)")


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
        return _instructions(args)
    cfg = load_config(args.config, overrides)
    try:
        from ..training.trainer import train
    except ImportError as e:  # torch / llama_cpp are optional for the rest of the plugin
        raise InputError(f"training needs torch and llama-cpp-python: {e}") from e
    return train(cfg, args.out, resume=args.resume)


def _instructions(args: argparse.Namespace) -> dict[str, Any]:
    """``--task instructions``: the config's ``[instructions]`` table (``cpu-instructions`` when the
    config is left at its planner default), the command-line values over it."""
    from ..errors import InputError

    for name in ("batch", "rank", "group", "max_new_tokens", "threads"):
        if getattr(args, name) is not None and getattr(args, name) < 1:
            raise InputError(f"--{name.replace('_', '-')} must be at least 1, got {getattr(args, name)}")
    for name in ("steps", "grpo_steps"):
        if getattr(args, name) is not None and getattr(args, name) < 0:
            raise InputError(f"--{name.replace('_', '-')} must be at least 0, got {getattr(args, name)}")
    try:
        from ..training.instructions import load_instruction_config, train_instructions
    except ImportError as e:  # torch / llama_cpp are optional for the rest of the plugin
        raise InputError(f"training needs torch and llama-cpp-python: {e}") from e
    cfg = load_instruction_config("cpu-instructions" if args.config == "cpu-smoke" else args.config,
                                  steps=args.steps, batch=args.batch, rank=args.rank, grpo_steps=args.grpo_steps,
                                  group=args.group, max_new_tokens=args.max_new_tokens, threads=args.threads,
                                  seed=args.seed)
    if cfg.steps + cfg.grpo_steps < 1:
        raise InputError("steps and grpo_steps must not both be 0")
    return train_instructions(args.out, cfg, resume=args.resume)
