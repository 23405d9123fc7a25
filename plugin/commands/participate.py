"""``python -m plugin participate --parcels PATH …``: residents discuss a parcel layer's plan in
fishbowl rounds, the planner revises it community by community within the quotas and at most
--max-changes parcels each; writes metrics.json, parcels.gpkg, changes.csv and
transcript.jsonl to --out (see plugin.participation.engine)."""
from __future__ import annotations

import argparse
from typing import Any

from . import seed


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--parcels", required=True, metavar="PATH[:LAYER]",
                        help="parcel layer (DRL GeoJSON, or any polygon file or GeoPackage layer)")
    parser.add_argument("--landuse-field", default=None, help="land-use field (default: type, landuse or land_use)")
    parser.add_argument("--landuse-map", metavar="MAP", help='"VALUE=TYPE,…" or a CSV file of value,type rows; '
                                                            "TYPE: residential, feasible, a facility type or ignore")
    parser.add_argument("--crs", metavar="EPSG:…", help="CRS of a parcel layer that has none")
    parser.add_argument("--residents", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--speakers", type=int, default=50, help="inner-circle speakers per round")
    parser.add_argument("--communities", type=int, default=4)
    parser.add_argument("--persona", choices=("rules", "llm"), default="rules")
    parser.add_argument("--planner", choices=("solver", "llm"), default="solver")
    parser.add_argument("--seed", type=seed, default=0)
    parser.add_argument("--baselines", action="store_true", help="also score Random, Centralized, Decentralized, GSCA")
    parser.add_argument("--profiles", default=None, help="folder with profiles.csv and needs.csv")
    parser.add_argument("--model", default="default", help="GGUF path or 'default' (llm persona/planner)")
    parser.add_argument("--endpoint", default=None, help="OpenAI-compatible endpoint instead of a local GGUF")
    parser.add_argument("--threads", type=int, default=None, help="llama threads")
    parser.add_argument("--max-tokens", type=int, default=96, help="per LLM answer")
    parser.add_argument("--need", default=None,
                        help="type quotas, e.g. school=2,green_s=1 (default: the objectives file, else the current plan)")
    parser.add_argument("--objectives", default=None,
                        help="DRL objectives YAML (counts, min_area); default objectives_<name>.yaml beside --parcels")
    parser.add_argument("--max-changes", type=int, default=3, help="parcel changes per community revision (K)")
    parser.add_argument("--ecology-loss", type=float, default=0.0, help="Ecology the planner may give up (0: none)")
    parser.add_argument("--quota-deviation", type=int, default=0, help="allowed distance from the type quotas")
    parser.add_argument("--missing-boost", type=float, default=1.0,
                        help="need bias toward types missing near home (1.0: none; see resources/participation)")
    parser.add_argument("--out", required=True, help="output folder")


def run(args: argparse.Namespace) -> dict[str, Any]:
    from ..participation.engine import Config, run_with_voice, write_outputs
    from ..participation.program import parse_need
    from ..participation.region import load_parcels

    warnings: list[str] = []
    cfg = Config(args.residents, args.rounds, args.speakers, args.communities, args.persona, args.planner,
                 args.seed, args.baselines, args.profiles, parse_need(args.need), args.objectives, args.max_changes,
                 args.ecology_loss, args.quota_deviation, args.missing_boost)
    cfg.check()   # the settings first: a refused run is one line before any layer is read
    region = load_parcels(args.parcels, args.landuse_field, args.landuse_map, args.crs, warnings)
    res = run_with_voice(region, cfg, args.model, args.endpoint, args.threads, args.max_tokens,
                         parcels_path=args.parcels)
    files = write_outputs(res, args.out)
    crs = region.parcels.crs.to_string() if region.parcels.crs is not None else "local metres"
    return {k: res.metrics[k] for k in ("before", "after", "timings")} | {"files": files, "crs": crs,
                                                                         "warnings": warnings}
