"""``python -m plugin instance``: build a planning instance and write its workspace."""
from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from ..errors import InputError
from ..tasks import TASKS, Instance, spec, task_class
from ..tasks.base import BUILD_SIZES, MODES, mode_of

from .layer_options import add_city_layer_arguments, add_parcel_arguments
from . import seed


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--region", help="bundled region (helsinki, kotka) or a .osm.pbf/.gpkg path")
    parser.add_argument("--task", choices=sorted(TASKS))
    parser.add_argument("--suite", help="take the instance from a suite (quick | full | tiny) by --name "
                                        "instead of --region/--task/--size/--seed")
    parser.add_argument("--name", help="instance name within --suite (see --list)")
    parser.add_argument("--list", action="store_true", help="with --suite: list its instances and splits")
    parser.add_argument("--size", default="small", choices=BUILD_SIZES,
                        help="small / medium / large: the paper's candidate counts; all: every eligible candidate "
                             "of the area (or of the --area polygon)")
    parser.add_argument("--sites", metavar="PATH[:LAYER]",
                        help="station: your candidate sites (points; optional fields configs = \"4/0/0;0/4/2\", "
                             "cost k€, capacity = most chargers, kind, name) instead of generated ones")
    parser.add_argument("--links", metavar="PATH[:LAYER]",
                        help="road: your proposed links (lines; optional field cost k€) instead of generated ones")
    parser.add_argument("--mode", choices=MODES,
                        help="benchmark: the paper's recipe (default for --suite and for a region at small / "
                             "medium / large); plan: the planner's question of this city (default for --size all; "
                             "always with own layers --roads / --parcels / --sites / --links). See docs/modes.md")
    parser.add_argument("--assume-vacant", action="store_true",
                        help="land, plan mode, no buildings and no land use: take every block as free to build on "
                             "(otherwise vacancy must be measured)")
    parser.add_argument("--seed", type=seed, default=0)
    parser.add_argument("--budget", type=float, default=None, help="override the task's default budget")
    parser.add_argument("--goal", default="build", choices=("build", "improve"),
                        help="atomic goal; improve preloads a random feasible plan of about half the limits")
    parser.add_argument("--out", help="workspace folder (empty, new or an older workspace)")
    add_city_layer_arguments(parser)
    add_parcel_arguments(parser)


def run(args: argparse.Namespace) -> dict[str, Any]:
    from ..bench.suites import build_item, suite
    from ..sandbox import write_workspace
    from ..sandbox.notices import attach_warnings

    t0 = time.perf_counter()
    if args.suite and args.list:
        return {"suite": args.suite, "instances": [{"name": i.name, "task": i.task, "size": i.size, "split": i.split}
                                                   for i in suite(args.suite)]}
    if not args.out:
        raise InputError("--out is required")
    if args.budget is not None and not args.budget > 0:
        raise InputError(f"--budget must be positive, got {args.budget:g}")
    mode = build_mode(args)
    if args.suite:
        items = {i.name: i for i in suite(args.suite)}
        if args.name not in items:
            raise InputError(f"no instance '{args.name}' in suite {args.suite} (see --list)")
        inst, warnings, city = build_item(items[args.name]), [], None
    elif args.task and (args.region or args.roads or args.parcels):
        inst, warnings, city = build_instance(args, mode)
    else:
        raise InputError("give --task with --region, --roads (own layers) or --parcels (land), "
                         "or --suite and --name")
    if mode_of(inst) == "plan":   # benchmark exports stay as they were
        from ..tasks.needs import budget_warnings

        warnings = [*warnings, *budget_warnings(inst)]
    warnings = attach_warnings(inst, warnings)
    base = random_plan(inst, args.seed) if args.goal == "improve" else None
    ws = write_workspace(inst, args.out, goal=args.goal, base_plan=base, city=city)
    return {"workspace": str(ws), "task": inst.task, "mode": mode_of(inst), "instance_id": inst.instance_id,
            "goal": args.goal,
            "candidates": inst.n, "budget": inst.budget, "step_limit": inst.max_select, "crs": inst.crs,
            "warnings": warnings, "seconds": round(time.perf_counter() - t0, 2)}


def own_layer_flags(args: argparse.Namespace) -> list[str]:
    """The own-layer flags given (each builds in plan mode)."""
    return [f"--{f}" for f in ("roads", "parcels", "sites", "links") if getattr(args, f, None)]


def build_mode(args: argparse.Namespace) -> str:
    """The mode of the build (docs/modes.md): a suite is the benchmark; own layers are always
    planned; otherwise ``--mode``, else plan for ``--size all`` and benchmark for the paper's sizes."""
    own = own_layer_flags(args)
    if args.suite:
        if args.mode == "plan":
            raise InputError("--suite builds the paper's benchmark: drop --mode plan, or use --region")
        return "benchmark"
    if own:
        if args.mode == "benchmark":
            raise InputError(f"{own[0]} is your own layer: it builds in plan mode (drop --mode benchmark)")
        return "plan"
    return args.mode or ("plan" if args.size == "all" else "benchmark")


def build_instance(args: argparse.Namespace, mode: str = "benchmark") -> tuple[Instance, list[str], Any]:
    """The instance of a region / own layers, or (land) of a parcel layer, in ``mode``, its
    warnings and the City it was built from (None for parcels; saved in the workspace for ``audit``)."""
    from ..city.inputs import CityInputs, city_from_inputs
    from ..parcels.landuse_map import parse_need
    from ..parcels.layer import with_need

    need = parse_need(args.need)
    if args.parcels:
        from ..parcels.layer import land_instance, read_parcels

        if args.task != "land":
            raise InputError("--parcels builds a land instance: use --task land")
        if args.region or args.roads:
            raise InputError("give --parcels or the city inputs (--region / --roads), not both")
        warnings: list[str] = []
        parcels, name = read_parcels(args.parcels, args.landuse_field, args.landuse_map, args.id_field, args.crs,
                                     warnings)
        if args.buildings:   # vacancy measured: built-over parcels are not vacant whatever their land use
            from ..city.sources import parse_layer_spec, read_layer
            from ..parcels.layer import with_building_coverage

            where = parse_layer_spec(args.buildings, "--buildings")
            parcels = with_building_coverage(parcels, read_layer(where, "polygon", "buildings", warnings),
                                             f"--parcels {name}", warnings)
        return land_instance(parcels, need, args.budget, name), warnings, None
    for flag in ("landuse_field", "landuse_map", "id_field"):
        if getattr(args, flag):
            raise InputError(f"--{flag.replace('_', '-')} needs --parcels")
    city = city_from_inputs(CityInputs.from_args(args))
    own = {t: getattr(args, spec(t).own_layer.flag.lstrip("-"), None) for t in TASKS if spec(t).own_layer}
    for task, given in own.items():
        if given and args.task != task:
            raise InputError(f"{spec(task).own_layer.flag} is for --task {task}")
    if own.get(args.task):
        from ..tasks.own_candidates import instance_from_layer

        warnings = list(city.warnings)
        inst = instance_from_layer(args.task, city, own[args.task], args.seed, args.budget, warnings)
        inst.meta["mode"] = "plan"
        return inst, warnings, city
    extra = {"assume_vacant": True} if getattr(args, "assume_vacant", False) else {}
    if extra and (args.task != "land" or mode != "plan"):
        raise InputError("--assume-vacant is for --task land in plan mode")
    inst = task_class(args.task).build(city, size=args.size, seed=args.seed, budget=args.budget, mode=mode, **extra)
    if need:
        if args.task != "land":
            raise InputError("--need is for --task land")
        inst = with_need(inst, need)
    return inst, list(city.warnings), city


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
