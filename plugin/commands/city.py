"""``python -m plugin city --region helsinki|kotka|PATH --out DIR`` (or own layers: ``--roads
PATH[:LAYER] …``): city model → GeoPackage; the JSON names the working CRS and the warnings."""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from .layer_options import add_city_layer_arguments


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--region", help="bundled region (helsinki, kotka), .osm.pbf or GeoPackage")
    add_city_layer_arguments(p)
    p.add_argument("--out", required=True, help="output folder; the GeoPackage is <region>.gpkg inside it")


def run(args: argparse.Namespace) -> dict:
    from ..city import write_gpkg
    from ..city.inputs import CityInputs, city_from_inputs

    t0 = time.perf_counter()
    city = city_from_inputs(CityInputs.from_args(args))
    built = time.perf_counter() - t0
    path = write_gpkg(city, Path(args.out) / f"{city.name}.gpkg")
    return {**city.counts(), "gpkg": str(path), "seconds_build": round(built, 2),
            "seconds": round(time.perf_counter() - t0, 2)}
