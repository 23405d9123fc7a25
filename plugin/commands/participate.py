"""``python -m plugin participate --parcels PATH …``: residents discuss a parcel layer's plan in
fishbowl rounds, the planner revises it community by community; writes metrics.json,
parcels.gpkg and transcript.jsonl to --out (see plugin.participation.engine)."""
from __future__ import annotations

import argparse
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--parcels", required=True, help="parcel layer (DRL GeoJSON or any polygon file)")
    parser.add_argument("--landuse-field", default=None, help="land-use field (default: type, landuse or land_use)")
    parser.add_argument("--residents", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--speakers", type=int, default=50, help="inner-circle speakers per round")
    parser.add_argument("--communities", type=int, default=4)
    parser.add_argument("--persona", choices=("rules", "llm"), default="rules")
    parser.add_argument("--planner", choices=("solver", "llm"), default="solver")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--baselines", action="store_true", help="also score Random, Centralized, Decentralized, GSCA")
    parser.add_argument("--profiles", default=None, help="folder with profiles.csv and needs.csv")
    parser.add_argument("--model", default="default", help="GGUF path or 'default' (llm persona/planner)")
    parser.add_argument("--endpoint", default=None, help="OpenAI-compatible endpoint instead of a local GGUF")
    parser.add_argument("--threads", type=int, default=None, help="llama threads")
    parser.add_argument("--max-tokens", type=int, default=96, help="per LLM answer")
    parser.add_argument("--out", required=True, help="output folder")


def run(args: argparse.Namespace) -> dict[str, Any]:
    from ..participation.engine import Config, run_with_voice, write_outputs
    from ..participation.region import load_parcels

    region = load_parcels(args.parcels, args.landuse_field)
    cfg = Config(args.residents, args.rounds, args.speakers, args.communities, args.persona, args.planner,
                 args.seed, args.baselines, args.profiles)
    res = run_with_voice(region, cfg, args.model, args.endpoint, args.threads, args.max_tokens)
    files = write_outputs(res, args.out)
    return {k: res.metrics[k] for k in ("before", "after", "timings")} | {"files": files}
