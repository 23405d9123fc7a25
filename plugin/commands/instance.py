"""``python -m plugin instance``: build a planning instance and write its workspace."""
from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from ..errors import InputError
from ..tasks import SIZES, TASKS, Instance, task_class
from . import seed


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--region", help="bundled region (helsinki, kotka) or a .osm.pbf/.gpkg path")
    parser.add_argument("--task", choices=sorted(TASKS))
    parser.add_argument("--suite", help="take the instance from a suite (quick | full | tiny) by --name "
                                        "instead of --region/--task/--size/--seed")
    parser.add_argument("--name", help="instance name within --suite (see --list)")
    parser.add_argument("--list", action="store_true", help="with --suite: list its instances and splits")
    parser.add_argument("--size", default="small", choices=SIZES)
    parser.add_argument("--seed", type=seed, default=0)
    parser.add_argument("--budget", type=float, default=None, help="override the task's default budget")
    parser.add_argument("--goal", default="build", choices=("build", "improve"),
                        help="atomic goal; improve preloads a random feasible plan of about half the limits")
    parser.add_argument("--out", help="workspace folder (empty, new or an older workspace)")


def run(args: argparse.Namespace) -> dict[str, Any]:
    from ..bench.suites import build_item, suite
    from ..city import load_city
    from ..sandbox import write_workspace

    t0 = time.perf_counter()
    if args.suite and args.list:
        return {"suite": args.suite, "instances": [{"name": i.name, "task": i.task, "size": i.size, "split": i.split}
                                                   for i in suite(args.suite)]}
    if not args.out:
        raise InputError("--out is required")
    if args.budget is not None and not args.budget > 0:
        raise InputError(f"--budget must be positive, got {args.budget:g}")
    if args.suite:
        items = {i.name: i for i in suite(args.suite)}
        if args.name not in items:
            raise InputError(f"no instance '{args.name}' in suite {args.suite} (see --list)")
        inst = build_item(items[args.name])
    elif args.region and args.task:
        inst = task_class(args.task).build(load_city(args.region), size=args.size, seed=args.seed, budget=args.budget)
    else:
        raise InputError("give --region and --task, or --suite and --name")
    base = random_plan(inst, args.seed) if args.goal == "improve" else None
    ws = write_workspace(inst, args.out, goal=args.goal, base_plan=base)
    return {"workspace": str(ws), "task": inst.task, "instance_id": inst.instance_id, "goal": args.goal,
            "candidates": inst.n, "budget": inst.budget, "step_limit": inst.max_select,
            "seconds": round(time.perf_counter() - t0, 2)}


def random_plan(inst: Instance, seed: int) -> list[str]:
    """A seeded feasible plan using about half the budget and step limit (an ImprovePlan start)."""
    rng = np.random.default_rng(seed)
    st = inst.state()
    for i in rng.permutation(inst.n):
        if st.cost >= inst.budget / 2 or st.count >= max(1, inst.max_select // 2):
            break
        if st.can_add(int(i)):
            st.add(int(i))
    if not st.count:
        raise InputError(f"{inst.instance_id}: no feasible candidate to start an ImprovePlan from")
    return inst.ids_of(st.mask)
