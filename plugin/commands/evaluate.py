"""``python -m plugin evaluate WS [PLAN.json]``: print the evaluator JSON of a plan."""
from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("workspace", help="workspace folder written by `python -m plugin instance`")
    parser.add_argument("plan", nargs="?", default=None, help="plan JSON (default WS/outputs/final_plan.json)")


def run(args: argparse.Namespace) -> int:
    from ..sandbox.evaluator import main
    from ..sandbox.workspace import PLAN_FILE, load_instance

    ws = Path(args.workspace)
    load_instance(ws)  # a missing or broken workspace is one InputError line, not an invalid plan
    return main([args.plan or str(ws / PLAN_FILE)], workspace=ws)
