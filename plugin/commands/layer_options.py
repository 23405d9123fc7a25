"""The own-layer options shared by ``city``, ``instance``, ``participate`` and ``ask``: they
mirror the Processing parameters (docs/cli.md#your-own-data)."""
from __future__ import annotations

import argparse

LAYER_HELP = "PATH[:LAYER] (a file, or one layer of a GeoPackage)"


def add_city_layer_arguments(parser: argparse.ArgumentParser, demand: bool = True) -> None:
    """--roads … --crs: the planner's own city layers (instead of --region)."""
    g = parser.add_argument_group("own layers (instead of --region)")
    g.add_argument("--roads", metavar="PATH[:LAYER]", help=f"road lines, {LAYER_HELP}")
    g.add_argument("--highway-field", metavar="F", help="road class field with OSM highway values "
                                                         "(default: highway, else all residential)")
    g.add_argument("--buildings", metavar="PATH[:LAYER]", help=f"building polygons, {LAYER_HELP}")
    g.add_argument("--building-field", metavar="F", help="building type field (default: building, else mixed use)")
    g.add_argument("--levels-field", metavar="F", help="number of levels field (default: levels, else by type)")
    g.add_argument("--pois", metavar="PATH[:LAYER]", help=f"points of interest, {LAYER_HELP}")
    g.add_argument("--category-field", metavar="F", help="POI category field (default: category)")
    if demand:
        g.add_argument("--demand", metavar="PATH[:LAYER]",
                       help="demand points or polygons with a weight (replaces the buildings' demand)")
        g.add_argument("--demand-field", metavar="F", help="weight field of --demand (default: weight, else 1)")
    add_area_crs_arguments(g)


def add_area_crs_arguments(g) -> None:
    g.add_argument("--area", metavar="PATH[:LAYER]", help="study-area polygon: everything is clipped to it")
    g.add_argument("--crs", metavar="EPSG:…", help="CRS of input layers that have none")


def add_parcel_arguments(parser: argparse.ArgumentParser, required: bool = False) -> None:
    """--parcels with its land-use field, mapping and need."""
    g = parser.add_argument_group("parcels")
    g.add_argument("--parcels", metavar="PATH[:LAYER]", required=required, help=f"parcel polygons, {LAYER_HELP}")
    g.add_argument("--landuse-field", metavar="F", help="land-use field (default: type, landuse or land_use)")
    g.add_argument("--landuse-map", metavar="MAP", help='"VALUE=TYPE,…" or a CSV file of value,type rows; TYPE: '
                                                       "residential, feasible, a facility type or ignore")
    g.add_argument("--id-field", metavar="F", help="parcel id field (default: id, else feature order)")
    g.add_argument("--need", metavar="TYPE=N,…", help="parcels of each type the plan should hold, e.g. school=2,green_s=1")
