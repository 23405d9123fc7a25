"""``python -m plugin sweep WS --budgets B1,B2,… | --range LO:HI:N [--time-limit S]
[--scheduler ADDR] [--scenarios NAME=INSTRUCTION[;…] …] --out DIR``: a certified budget curve.

One row per scenario × budget (score, upper_bound, gap as a fraction, selected, the sites by
street, seconds, marginal score per 100 k€, price of the scenario); the reply's ``rows`` on
stdout, DIR/sweep.csv, DIR/sweep.json and DIR/sweep.png. Points run on Dask: a local cluster
of processes unless ``--scheduler`` names one (docs/sweep.md), or ``--backend local`` for plain
local processes without Dask.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..errors import InputError
from . import seconds, seed


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("workspace", help="workspace folder (made by 'python -m plugin instance')")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--budgets", help="comma-separated budgets in k€, e.g. 200,400,800")
    which.add_argument("--range", dest="span", metavar="LO:HI:N", help="N evenly spaced budgets from LO to HI k€")
    parser.add_argument("--time-limit", type=seconds, default=60.0, help="seconds per point (default 60)")
    parser.add_argument("--scheduler", default=None, help="Dask scheduler address, e.g. tcp://10.0.0.5:8786 "
                                                          "(default: a local cluster of processes)")
    parser.add_argument("--workers", type=int, default=None, help="local workers (default: half the CPUs)")
    parser.add_argument("--backend", choices=("dask", "local"), default="dask",
                        help="dask (default) or local: spawned processes without Dask")
    parser.add_argument("--scenarios", nargs="+", default=None, metavar="NAME=INSTRUCTION",
                        help="named instruction sets, e.g. spaced='keep 400 m between stations' "
                             "(several instructions: separate with ';'), or one JSON file {name: [instructions]}")
    parser.add_argument("--gap", type=float, default=0.01, help="the gap a point should reach (fraction, default 0.01)")
    parser.add_argument("--seed", type=seed, default=42)
    parser.add_argument("--out", required=True, help="output folder (sweep.csv, sweep.json, sweep.png)")


def run(args: argparse.Namespace) -> dict[str, Any]:
    from ..sandbox.workspace import load_instance
    from ..sweep import parse_budgets, read_scenarios, sweep
    from ..sweep.run import write_outputs

    budgets = parse_budgets(args.budgets, args.span)
    scenarios = read_scenarios(args.scenarios)
    if args.workers is not None and args.workers < 1:
        raise InputError(f"--workers must be at least 1, got {args.workers}")
    if not 0 <= args.gap < 1:
        raise InputError(f"--gap is a fraction from 0 to 1, got {args.gap}")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out} is a file, not a folder")
    load_instance(args.workspace)   # a bad workspace is one line before any worker starts

    def progress(row: dict[str, Any], done: int, total: int) -> None:
        score = "–" if row["score"] is None else f"{row['score']:.4f}"
        print(f"[{done}/{total}] {row['scenario']} @ {row['budget']:g} k€: score {score}"
              f"{' (retried)' if row.get('retries') else ''}", file=sys.stderr, flush=True)

    result = sweep(args.workspace, budgets, time_limit=args.time_limit, scenarios=scenarios, scheduler=args.scheduler,
                   workers=args.workers, backend=args.backend, target_gap=args.gap, seed=args.seed, on_row=progress)
    result["files"] = write_outputs(result, out)
    return result
