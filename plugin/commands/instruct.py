"""``python -m plugin instruct WS "text" [--apply]``: a planner instruction → constraints → a
certified re-plan and the instruction's price (plugin/constraints/README.md).

``--list`` / ``--remove K`` / ``--clear`` manage the instructions stored in the workspace
(WS/constraints/, which the agent's terminal cannot write). Without ``--apply`` the
instruction is priced but not stored.
"""
from __future__ import annotations

import argparse
from typing import Any

from ..errors import InputError
from . import add_lora_argument, seconds


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("workspace", help="workspace folder (made by 'python -m plugin instance')")
    parser.add_argument("text", nargs="?", default=None, help="the instruction, e.g. \"keep 400 m between stations\"")
    parser.add_argument("--apply", action="store_true", help="store the constraints (default: price them only)")
    parser.add_argument("--list", action="store_true", help="list the stored instructions")
    parser.add_argument("--remove", metavar="K", help="remove the stored instruction K (c3 or 3)")
    parser.add_argument("--clear", action="store_true", help="remove every stored instruction")
    parser.add_argument("--model", default=None, help="GGUF path or 'default' for text the rules cannot read")
    parser.add_argument("--endpoint", default=None, help="OpenAI-compatible base URL instead of the local model")
    add_lora_argument(parser)
    parser.add_argument("--rules-only", action="store_true", help="never call a model")
    parser.add_argument("--area", default=None,
                        help="a polygon layer file (GPKG, GeoJSON, SHP): the area \"inside the area\" means")
    parser.add_argument("--time-limit", type=seconds, default=30.0, help="seconds per MILP solve (default 30)")


def run(args: argparse.Namespace) -> dict[str, Any]:
    from ..constraints import store
    from ..constraints.interpret import check_instruction
    from ..constraints.roundtrip import instruct
    from ..constraints.schema import summary
    from ..sandbox.workspace import load_instance

    inst = load_instance(args.workspace)
    modes = sum(bool(x) for x in (args.text, args.list, args.remove, args.clear))
    if modes != 1:
        raise InputError("give exactly one of: an instruction text, --list, --remove K, --clear")
    if args.text is not None:
        check_instruction(args.text)   # too long or a number no reader may take: one line, exit 2
    if args.list:
        return {"constraints": [{**{k: v for k, v in c.items() if k != "geometry"}, "summary": summary(c)}
                                for c in store.load(args.workspace)]}
    if args.remove:
        gone = store.remove(args.workspace, args.remove)
        return {"removed": {k: v for k, v in gone.items() if k != "geometry"},
                "remaining": [c["key"] for c in store.load(args.workspace)]}
    if args.clear:
        return {"removed": store.clear(args.workspace), "remaining": []}
    backend, source = None, "model"
    if not args.rules_only:
        from ..agent.backend import make_backend
        from ..agent.model_files import resolve_lora
        from ..agent.timebox import BoxedBackend, explicit_model

        lora = None if args.endpoint else resolve_lora(args.lora)
        if explicit_model(args.model, args.endpoint, lora):   # the default fallback is skipped (agent/timebox.py)
            backend = BoxedBackend(lambda: make_backend(args.model, args.endpoint, lora=lora))
        source = "endpoint" if args.endpoint else "model"
    try:
        return instruct(args.workspace, args.text, inst, backend, source, apply=args.apply, time_limit=args.time_limit,
                        selection=area_wkt(args.area, inst.crs) if args.area else None)
    finally:
        if backend is not None:
            backend.close()


def area_wkt(path: str, crs: str) -> str:
    """The union of a polygon layer's features in the instance CRS (WKT)."""
    import geopandas as gpd
    import numpy as np
    import shapely

    try:
        frame = gpd.read_file(path)
    except Exception as e:  # noqa: BLE001 - any unreadable file is one line for the user
        raise InputError(f"cannot read --area {path}: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
    from ..city.crs import UNDEFINED

    # a GeoPackage "without CRS" reads as an 'Undefined … SRS', not None: reprojecting it made a
    # NaN polygon that excluded every candidate
    if frame.crs is None or frame.crs.name in UNDEFINED or not len(frame):
        raise InputError(f"--area {path}: {'no features' if not len(frame) else 'the layer has no CRS'}")
    geom = shapely.union_all(frame.to_crs(crs).geometry.values)
    if geom.is_empty or not np.isfinite(shapely.bounds(geom)).all():
        raise InputError(f"--area {path}: the area has no place in the workspace's CRS (check the layer's CRS)")
    if geom.geom_type not in ("Polygon", "MultiPolygon"):
        raise InputError(f"--area {path}: the features are not polygons ({geom.geom_type})")
    return geom.wkt
