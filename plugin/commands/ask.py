"""``python -m plugin ask "REQUEST" [--region R] [--model M] [--endpoint URL]``: answer or clarify."""
from __future__ import annotations

import argparse
import contextlib
import tempfile
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("request", help="the request in plain words")
    parser.add_argument("--region", default=None, help="bundled region (helsinki, kotka)")
    parser.add_argument("--model", default=None, help="GGUF path or 'default' (SmolLM2-135M)")
    parser.add_argument("--endpoint", default=None, help="OpenAI-compatible base URL instead of a local model")
    parser.add_argument("--threads", type=int, default=None, help="llama threads (default: cores − 1)")
    parser.add_argument("--root", default=None,
                        help="folder for workspaces the tools build (default: a temporary one, removed at the end)")
    parser.add_argument("--allow-read", action="append", default=[], help="folder tools may read (repeatable)")
    parser.add_argument("--max-tokens", type=int, default=160, help="tokens per model call (default 160)")
    parser.add_argument("--trace", action="store_true", help="include the full trace")


def run(args: argparse.Namespace) -> dict[str, Any]:
    from ..agent.ask import ask
    from ..city import REGIONS
    from ..errors import InputError

    if args.region is not None and args.region not in REGIONS:
        raise InputError(f"unknown region '{args.region}' (bundled: {', '.join(REGIONS)})")
    with contextlib.ExitStack() as stack:  # without --root the tools' workspaces live as long as the command
        root = args.root or stack.enter_context(tempfile.TemporaryDirectory(prefix="cityplanner-ask-"))
        out = ask(args.request, args.region, root=root, read_roots=tuple(args.allow_read), model=args.model,
                  endpoint=args.endpoint, threads=args.threads, max_tokens=args.max_tokens)
    if args.root is None:
        out["workspace_root"] = None
    if not args.trace:
        out.pop("trace")
        out.pop("layers")
    return out
