"""``python -m plugin ask "REQUEST" [--region R] [--model M] [--endpoint URL]``: answer or clarify."""
from __future__ import annotations

import argparse
import contextlib
import tempfile
from pathlib import Path
from typing import Any

from . import add_lora_argument
from .layer_options import add_city_layer_arguments


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("request", help="the request in plain words")
    parser.add_argument("--region", default=None, help="bundled region (helsinki, kotka)")
    parser.add_argument("--model", default=None, help="GGUF path or 'default' (SmolLM2-135M)")
    parser.add_argument("--endpoint", default=None, help="OpenAI-compatible base URL instead of a local model")
    add_lora_argument(parser)
    parser.add_argument("--threads", type=int, default=None, help="llama threads (default: cores − 1)")
    parser.add_argument("--root", default=None,
                        help="folder for workspaces the tools build (default: a temporary one, removed at the end)")
    parser.add_argument("--allow-read", action="append", default=[], help="folder tools may read (repeatable)")
    parser.add_argument("--max-tokens", type=int, default=160, help="tokens per model call (default 160)")
    parser.add_argument("--model-sentence", action="store_true",
                        help="add one checked sentence in the model's words after the facts (for a strong model)")
    parser.add_argument("--trace", action="store_true", help="include the full trace")
    add_city_layer_arguments(parser)


def run(args: argparse.Namespace) -> dict[str, Any]:
    from ..agent.ask import ask
    from ..agent.model_files import resolve_lora
    from ..city import REGIONS
    from ..city.inputs import CityInputs, city_from_inputs, source_gpkg
    from ..errors import InputError

    inputs = CityInputs.from_args(args)
    lora = None if args.endpoint else resolve_lora(args.lora)
    own = bool(inputs.roads or inputs.area or inputs.demand)
    if args.region is not None and args.region not in REGIONS and not own:
        raise InputError(f"unknown region '{args.region}' (bundled: {', '.join(REGIONS)}; "
                         "or your own layers with --roads PATH[:LAYER] …)")
    with contextlib.ExitStack() as stack:  # without --root the tools' workspaces live as long as the command
        root = args.root or stack.enter_context(tempfile.TemporaryDirectory(prefix="cityplanner-ask-"))
        regions, warnings, region = {}, [], args.region
        if own:  # the planner's layers become one more region the tools can read, under the layers' name
            city = city_from_inputs(inputs)
            regions = {city.name: source_gpkg(city, Path(root) / "own-layers" / f"{city.name}.gpkg")}
            warnings, region = city.warnings, city.name
        backend = None
        if lora:   # ask() makes a plain model itself; with an adapter the command makes it (started lazily)
            from ..agent.backend import make_backend
            from ..agent.timebox import BoxedBackend

            backend = stack.enter_context(contextlib.closing(BoxedBackend(
                lambda: make_backend(args.model, None, lora=lora, threads=args.threads))))
        out = ask(args.request, region, backend, root=root, read_roots=tuple(args.allow_read), model=args.model,
                  endpoint=args.endpoint, threads=args.threads, max_tokens=args.max_tokens, regions=regions,
                  model_sentence=args.model_sentence)
    out["warnings"] = warnings
    if args.root is None:
        out["workspace_root"] = None
    if not args.trace:
        out.pop("trace")
        out.pop("layers")
    return out
