"""``python -m plugin bench --suite quick|full|tiny|speed | --instances WS1,WS2 --out DIR``.

Writes DIR/results.json (rows: task, size, instance, method, seed, valid, score,
upper_bound, gap, seconds, …), DIR/table.md and PNG plots; prints the summary as JSON.
``--suite ask`` runs the UrbanEval-style request set through the ask agent
(plugin.agent.ask.bench: TSR, MIR, TIC, IOA, tokens) with ``--model`` / ``--endpoint``.
``--suite scale`` grows n from 100 to 4,000 candidates per task on the synthetic city
(plugin.bench.scale): time to a 1 % gap, gaps at 60 s and 120 s, peak memory, DIR/scale.md,
scale.json, scale.png and the fitted exponent of time ∝ n^k; runs one at a time; then the peak
memory of building 20,000- and 200,000-feature inputs (``--tasks memory`` alone: only that table).
``--suite speed`` measures the evaluators instead (plugin.bench.speed): DIR/speed.json and
DIR/speed.md with full-evaluation ms and add / remove / swap µs per task on medium instances.
``--suite sweep`` times budget curves (plugin.bench.sweep): a 12-point Kotka station curve on 1
and on 2 local Dask workers, and the time to a 4-point curve on a 1,000-candidate instance.
``--suite fuzz`` runs ``--turns`` generated hostile turns through the virtual terminal of a small
land workspace (plugin.bench.fuzz): DIR/fuzz.json with turns, failures, max turn time and peak
memory; exit code 1 when an invariant broke.
``--suite instructions`` reads the held-out planner instructions (plugin.bench.instructions): exact
match and execution accuracy for the rules, the raw model, the trained adapter (--lora) and both.
``--suite participation`` compares our participatory revision with the four baselines, the DRL
plan and the paper on the bundled HLG / DHM regions (plugin.bench.participation; --seeds, default 5).
"""
from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from ..bench.halves import ASK_SPLITS
from ..solvers import SOLVERS
from . import seconds, seed


def add_arguments(parser: argparse.ArgumentParser) -> None:
    src = parser.add_mutually_exclusive_group(required=True)
    src.add_argument("--suite", help="quick | full | tiny | scale (certificate vs n) | speed (evaluator timings, "
                                     "no solving) | ask | sweep (budget curves, 1 vs 2 workers) | "
                                     "fuzz (hostile terminal turns) | instructions")
    src.add_argument("--instances", help="comma-separated workspace folders")
    parser.add_argument("--methods", default="greedy,grasp,sa,alns,default",
                        help=f"comma-separated, from {','.join(SOLVERS)}")
    parser.add_argument("--time-limit", type=seconds, default=10.0, help="seconds per solve (default 10)")
    parser.add_argument("--bound-time-limit", type=seconds, default=60.0,
                        help="seconds for the MILP bound of each instance (default 60)")
    parser.add_argument("--limit", type=int, default=None,
                        help="only the first N instances of each task × size of the suite (deterministic); "
                             "instructions suite: only the first N items")
    parser.add_argument("--seeds", type=int, default=1, help="seeds per method: 42, 43, … (default 1)")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: CPU count)")
    parser.add_argument("--scheduler", default=None, help="Dask scheduler address, e.g. tcp://host:8786")
    parser.add_argument("--model", default=None, help="GGUF for the agent / ask suites (default: shipped model)")
    parser.add_argument("--endpoint", default=None, help="OpenAI-compatible server URL for the agent / ask suites")
    parser.add_argument("--turns", type=int, default=10_000, help="fuzz suite: generated turns (default 10000)")
    parser.add_argument("--seed", type=seed, default=0, help="fuzz suite: generator seed (default 0)")
    parser.add_argument("--lora", default=None, help="instructions suite: the adapter of train --task instructions "
                                                     "(a GGUF path, or 'shipped')")
    parser.add_argument("--readers", default=None,
                        help="instructions suite: comma-separated readers to run, e.g. \"raw model,trained adapter\" "
                             "(default: rules, rules + raw model, raw model, trained adapter, rules + trained)")
    parser.add_argument("--tasks", default=None,
                        help="scale suite: comma-separated tasks to run, and/or 'memory' (peak memory of building "
                             "20,000- and 200,000-feature inputs); the other rows already in OUT are kept")
    parser.add_argument("--sizes", default=None,
                        help="scale suite: comma-separated candidate counts to run (default 100 … 4000); with "
                             "--tasks memory, feature counts (default 20000,200000)")
    parser.add_argument("--split", default="test",
                        choices=ASK_SPLITS,
                        help="instructions and ask suites: held-out half (default test); "
                             "ask only: v1, v3 …, the retired first and third to later test halves; "
                             "dev2 … dev4: more dev sets")
    parser.add_argument("--out", required=True, help="output folder")


def _scale(args: argparse.Namespace) -> dict[str, Any]:
    """The scale suite: the at-scale solves per task and size, and/or the memory rows."""
    from ..bench.scale import MEMORY_N, SCALE_N, run_scale
    from ..errors import InputError

    tasks = tuple(t.strip() for t in args.tasks.split(",")) if args.tasks else (*SCALE_N, "memory")
    if not set(tasks) <= {*SCALE_N, "memory"}:
        raise InputError(f"--tasks: choose from {', '.join(SCALE_N)}, memory")
    memory = "memory" in tasks
    tasks = tuple(t for t in tasks if t != "memory")
    sizes = None
    if args.sizes:
        try:
            ns = tuple(int(x) for x in args.sizes.split(","))
        except ValueError:
            raise InputError(f"--sizes: comma-separated whole numbers, got '{args.sizes}'") from None
        sizes = {t: ns for t in tasks}
    return run_scale(args.out, tasks, sizes, memory=memory, memory_sizes=ns if args.sizes else MEMORY_N)


def _instructions(args: argparse.Namespace) -> dict[str, Any]:
    """The instructions suite with the readers and adapter asked for."""
    from ..bench.instructions import READERS, run_instructions_bench

    readers = tuple(r.strip() for r in args.readers.split(",") if r.strip()) if args.readers else READERS
    lora = args.lora
    if lora == "shipped":
        from ..agent.model_files import resolve_lora

        lora = resolve_lora("shipped")
    return run_instructions_bench(args.out, split=args.split, model=args.model, endpoint=args.endpoint,
                                  lora=lora, readers=readers, limit=args.limit)


def run(args: argparse.Namespace) -> dict[str, Any]:
    from ..bench.report import write_report
    from ..bench.runner import run_bench
    from ..bench.suites import first_per_cell, suite
    from ..errors import InputError

    if args.suite == "speed":
        return _speed(Path(args.out))
    if args.suite == "sweep":
        from ..bench.sweep import run_sweep_bench

        return run_sweep_bench(args.out)
    if args.suite == "scale":
        return _scale(args)
    if args.suite == "fuzz":
        return _fuzz(Path(args.out), args.turns, args.seed)
    if args.suite == "participation":
        from ..bench.participation import run_participation_bench

        return run_participation_bench(args.out, seeds=args.seeds if args.seeds > 1 else 5)
    if args.suite == "instructions":
        return _instructions(args)
    if args.suite == "ask":
        from ..agent.ask.bench import run_ask_bench

        return run_ask_bench(args.out, model=args.model, endpoint=args.endpoint, split=args.split)
    if args.model or args.endpoint:  # read by the agent solver in each worker process
        os.environ.update({k: v for k, v in (("CITYPLANNER_MODEL", args.model),
                                               ("CITYPLANNER_ENDPOINT", args.endpoint)) if v})
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    unknown = [m for m in methods if m not in SOLVERS]
    if unknown or not methods:
        raise InputError(f"unknown method(s) {', '.join(unknown) or '(none)'} (choose from {', '.join(SOLVERS)})")
    if args.time_limit <= 0 or args.seeds < 1 or (args.workers is not None and args.workers < 1):
        raise InputError("--time-limit must be positive, --seeds and --workers at least 1")
    if args.suite:
        sources = first_per_cell(suite(args.suite), args.limit)
    else:
        sources = [p.strip() for p in args.instances.split(",") if p.strip()]
        missing = [p for p in sources if not (Path(p) / "input" / "export.json").exists()]
        if missing:
            raise InputError(f"not a workspace (no input/export.json): {', '.join(missing)}")
    results = run_bench(sources, methods, args.out, time_limit=args.time_limit, seeds=args.seeds,
                        workers=args.workers, scheduler=args.scheduler, bound_time_limit=args.bound_time_limit)
    report = write_report(results, args.out)
    return {"rows": len(results["rows"]), "winners": report["winners"], "files": report["files"]}


def _speed(out: Path) -> dict[str, Any]:
    from ..bench.speed import speed_markdown, speed_table
    from ..util.io import atomic_write_json, atomic_write_text

    rows = speed_table()
    atomic_write_json(out / "speed.json", rows)
    atomic_write_text(out / "speed.md", speed_markdown(rows))
    return {"rows": rows, "files": [str(out / "speed.json"), str(out / "speed.md")]}


def _fuzz(out: Path, turns: int, seed_: int) -> int:
    import contextlib
    import json

    from ..bench.fuzz import run_fuzz
    from ..bench.suites import build_item, suite
    from ..errors import InputError
    from ..sandbox import write_workspace
    from ..util.io import atomic_write_json

    if turns < 1:
        raise InputError(f"--turns must be at least 1, got {turns}")
    ws = write_workspace(build_item(suite("tiny")[0]), out / "fuzz-workspace")
    cwd = out / "fuzz-cwd"  # the run's current folder, which nothing but an escape may change
    cwd.mkdir(exist_ok=True)
    with contextlib.chdir(cwd):
        res = run_fuzz(ws.resolve(), turns, seed_, check_every=10)
    atomic_write_json(out / "fuzz.json", res)
    print(json.dumps(res, indent=2))
    return 1 if res["failure_count"] else 0
