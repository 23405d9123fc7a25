"""One module per ``python -m plugin`` command: ``add_arguments(parser)`` and ``run(args)``.

The argparse types below check numbers where they are parsed, so a bad value is argparse's
one-line error (exit 2) and never a NaN time limit or a negative seed deep inside a solver.
"""
from __future__ import annotations

import argparse
import math

MAX_SEED = 2**32 - 1  # numpy's SeedSequence accepts any non-negative int; solvers pass seeds to 32-bit RNGs


def seconds(text: str) -> float:
    """A positive, finite number of seconds (``nan`` and ``inf`` are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text[:40]}' is not a number of seconds") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive, finite number of seconds, got {text[:40]}")
    return value


def seed(text: str) -> int:
    """A random seed: an integer from 0 to 2**32 - 1."""
    if not (text.isascii() and text.isdigit() and len(text) <= 10 and int(text) <= MAX_SEED):
        raise argparse.ArgumentTypeError(f"must be an integer from 0 to {MAX_SEED}, got {text[:40]}")
    return int(text)


def add_lora_argument(parser: argparse.ArgumentParser) -> None:
    """``--lora`` of the commands that read instructions with the local model (instruct, ask, agent);
    resolved by ``plugin.agent.model_files.resolve_lora``."""
    parser.add_argument("--lora", default="auto",
                        help="LoRA adapter for the local model: auto (default: the shipped instruction adapter "
                             "when its held-out measurement enabled it), none, shipped, or a GGUF path")
