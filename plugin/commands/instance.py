"""``python -m plugin instance``: build a planning instance and write its workspace."""
from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError
from ..tasks import TASKS, Instance, spec, task_class
from ..tasks.base import BUILD_SIZES, MODES, mode_of
from . import seed
from .layer_options import add_city_layer_arguments, add_parcel_arguments


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
    parser.add_argument("--replace", action="store_true", help="replace a workspace that holds work (plans, runs)")
    add_city_layer_arguments(parser)
    add_parcel_arguments(parser)


def run(args: argparse.Namespace) -> dict[str, Any]:
    from ..bench.suites import build_item, suite
    from ..sandbox import write_workspace
    from ..sandbox.notices import attach_warnings
    from ..sandbox.workspace import refuse_replacing_work

    t0 = time.perf_counter()
    if args.suite and args.list:
        return {"suite": args.suite, "instances": [{"name": i.name, "task": i.task, "size": i.size, "split": i.split}
                                                   for i in suite(args.suite)]}
    if not args.out:
        raise InputError("--out is required")
    refuse_replacing_work(args.out, args.replace)
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
        from ..tasks.needs import with_budget_for_needs

        inst, said = with_budget_for_needs(inst, automatic=args.budget is None)
        warnings = [*warnings, *said]
    warnings = attach_warnings(inst, warnings)
    base = random_plan(inst, args.seed) if args.goal == "improve" else None
    from ..city.inputs import source_gpkg
    from ..constraints.own_places import SOURCE_KEY

    places = _places_file(args.out, city)
    if places is not None:   # where a constraint finds the names of the planner's own city (constraints/own_places.py)
        inst.meta[SOURCE_KEY] = str(places)
    ws = write_workspace(inst, args.out, goal=args.goal, base_plan=base, city=city)
    if places is not None:
        places.unlink(missing_ok=True)
        source_gpkg(city, places)
    return {"workspace": str(ws), "task": inst.task, "mode": mode_of(inst), "instance_id": inst.instance_id,
            "goal": args.goal,
            "candidates": inst.n, "budget": inst.budget, "step_limit": inst.max_select, "crs": inst.crs,
            "warnings": warnings, "seconds": round(time.perf_counter() - t0, 2)}


def _places_file(out: str, city: Any) -> Path | None:
    """The GeoPackage beside the workspace's input that keeps a city's own layers (names, street lines)
    for the instructions a planner gives later ("no charger within 200 m of Puistokatu"); None for a
    bundled region (its names are in the plugin), for parcels alone and for layers without names."""
    from ..city import REGIONS

    if city is None or city.name in REGIONS:
        return None
    named = any("name" in layer and layer["name"].fillna("").astype(str).str.strip().ne("").any()
                for layer in (city.raw.get("roads"), city.raw.get("features")) if layer is not None)
    return Path(out).resolve() / "places" / f"{city.name}.gpkg" if named else None   # no names: nothing to keep


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


@dataclass
class Inputs:
    """Everything ``instance`` reads, read once in one stage (``read_inputs``) before anything
    is built: a parcel layer (with building coverage when --buildings is given), or a City and,
    optionally, the planner's own candidate layer; plus the warnings of reading them."""

    need: dict[str, int]
    warnings: list[str] = field(default_factory=list)
    parcels: Any = None            # parcels frame (land from --parcels)
    parcels_name: str = ""
    city: Any = None               # plugin.city.City (everything else)
    own: Any = None                # the own candidate layer's frame (--sites / --links)
    own_label: str = ""


def check_flags(args: argparse.Namespace, mode: str) -> None:
    """Every flag combination that cannot work: one-line InputError before anything is read."""
    if args.parcels:
        if args.task != "land":
            raise InputError("--parcels builds a land instance: use --task land")
        if args.region or args.roads:
            raise InputError("give --parcels or the city inputs (--region / --roads), not both")
    else:
        for flag in ("landuse_field", "landuse_map", "id_field"):
            if getattr(args, flag):
                raise InputError(f"--{flag.replace('_', '-')} needs --parcels")
    for task in TASKS:
        layer = spec(task).own_layer
        if layer and getattr(args, layer.flag.lstrip("-"), None) and args.task != task:
            raise InputError(f"{layer.flag} is for --task {task}")
    if args.need and args.task != "land":
        raise InputError("--need is for --task land")
    if getattr(args, "assume_vacant", False) and (args.task != "land" or mode != "plan" or args.parcels):
        raise InputError("--assume-vacant is for --task land in plan mode on a city (parcels carry their land use)")


def read_inputs(args: argparse.Namespace, mode: str) -> Inputs:
    """Check the flags, then read every input layer once: the parcels (and buildings) or the
    city (``city_from_inputs``) and the own candidate layer."""
    from ..city.inputs import CityInputs, city_from_inputs
    from ..city.sources import check_layer_count, parse_layer_spec, read_layer
    from ..parcels.landuse_map import parse_need

    check_flags(args, mode)
    got = Inputs(need=parse_need(args.need))
    if args.parcels:
        from ..parcels.layer import read_parcels, with_building_coverage

        got.parcels, got.parcels_name = read_parcels(args.parcels, args.landuse_field, args.landuse_map,
                                                     args.id_field, args.crs, got.warnings)
        if args.buildings:   # vacancy measured: built-over parcels are not vacant whatever their land use
            where = parse_layer_spec(args.buildings, "--buildings")
            got.parcels = with_building_coverage(got.parcels, read_layer(where, "polygon", "buildings", got.warnings),
                                                 f"--parcels {got.parcels_name}", got.warnings)
        return got
    layer = spec(args.task).own_layer
    own = layer and getattr(args, layer.flag.lstrip("-"), None)
    if own:   # an oversized own layer is refused before the city is built
        check_layer_count(parse_layer_spec(own, layer.flag))
    got.city = city_from_inputs(CityInputs.from_args(args))
    got.warnings = list(got.city.warnings)
    if own:
        where = parse_layer_spec(own, layer.flag)
        got.own, got.own_label = read_layer(where, layer.geometry, warnings=got.warnings), f"{layer.flag} {where}"
    return got


def build_instance(args: argparse.Namespace, mode: str = "benchmark") -> tuple[Instance, list[str], Any]:
    """The instance of a region / own layers, or (land) of a parcel layer, in ``mode``, its
    warnings and the City it was built from (None for parcels; saved in the workspace for ``audit``).
    Reading is one stage (``read_inputs``), building the next."""
    from ..parcels.layer import with_need

    got = read_inputs(args, mode)
    if got.parcels is not None:
        from ..parcels.layer import land_instance

        return land_instance(got.parcels, got.need, args.budget, got.parcels_name), got.warnings, None
    if got.own is not None:
        from ..tasks.own_candidates import instance_from_frame

        inst = instance_from_frame(args.task, got.city, got.own, args.seed, args.budget, got.own_label)
        inst.meta["mode"] = "plan"
        return inst, got.warnings, got.city
    extra = {"assume_vacant": True} if getattr(args, "assume_vacant", False) else {}
    inst = task_class(args.task).build(got.city, size=args.size, seed=args.seed, budget=args.budget, mode=mode,
                                       **extra)
    if got.need:
        inst = with_need(inst, got.need)
    return inst, got.warnings, got.city


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
