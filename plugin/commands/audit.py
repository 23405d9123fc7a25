"""``python -m plugin audit WS [PLAN.json]``: flag sites and links that make no sense on the map.

Prints ``{"flags": [{"id", "reason", "value", "limit"}], "checked": N}`` and exits 0 also
when there are flags (they are findings, not errors); a missing workspace or plan: exit 2.
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..errors import InputError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("workspace", help="workspace folder written by `python -m plugin instance`")
    parser.add_argument("plan", nargs="?", default=None, help="plan JSON (default WS/outputs/final_plan.json)")


def run(args: argparse.Namespace) -> dict[str, Any]:
    from ..audit import audit_workspace
    from ..sandbox.evaluator import resolve_plan_path
    from ..sandbox.workspace import PLAN_FILE, load_instance, read_plan

    ws = Path(args.workspace)
    inst = load_instance(ws)
    ids, err = read_plan(resolve_plan_path(ws, args.plan) if args.plan else ws / PLAN_FILE)
    if err is not None:
        raise InputError(err)
    return audit_workspace(ws, inst, ids)
