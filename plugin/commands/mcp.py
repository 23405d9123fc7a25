"""``python -m plugin mcp [--root DIR] [--allow-read DIR …]``: the planning tools over MCP (stdio)."""
from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", default="cityplanner-workspaces",
                        help="the only folder tools write workspaces into (default ./cityplanner-workspaces)")
    parser.add_argument("--allow-read", action="append", default=[],
                        help="a folder whose files (e.g. parcels GeoJSON) tools may read; repeatable")


def run(args: argparse.Namespace) -> int:
    import anyio

    from ..agent.mcp_server import serve

    # stdout is the protocol channel: nothing else may print there
    anyio.run(serve, args.root, tuple(args.allow_read))
    return 0
