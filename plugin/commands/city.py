"""``python -m plugin city --region helsinki|kotka|PATH --out DIR``: city model → GeoPackage."""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from ..city import load_city, write_gpkg


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--region", required=True, help="bundled region (helsinki, kotka), .osm.pbf or GeoPackage")
    p.add_argument("--out", required=True, help="output folder; the GeoPackage is <region>.gpkg inside it")


def run(args: argparse.Namespace) -> dict:
    t0 = time.perf_counter()
    city = load_city(args.region)
    built = time.perf_counter() - t0
    path = write_gpkg(city, Path(args.out) / f"{city.name}.gpkg")
    return {**city.counts(), "gpkg": str(path), "seconds_build": round(built, 2),
            "seconds": round(time.perf_counter() - t0, 2)}
