"""The city inputs of a command: a region (bundled, .osm.pbf, GeoPackage) or the planner's own
layers (``PATH[:LAYER]`` with field names), plus a study area, a demand layer and ``--crs``.

``CityInputs`` mirrors the CLI flags and the Processing parameters one to one;
``city_from_inputs`` reads, checks and builds the City (warnings on ``city.warnings``).
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import geopandas as gpd

from ..errors import InputError
from .build import build_city
from .model import City
from .regions import _name, load_city, read_region, region_path
from .sources import (
    area_polygon,
    buildings_frame,
    demand_frame,
    parse_layer_spec,
    pois_frame,
    read_layer,
    roads_frame,
)

SOURCE_LAYERS = ("roads", "buildings", "features", "demand")


@dataclass(frozen=True)
class CityInputs:
    region: str | None = None
    roads: str | None = None
    highway_field: str | None = None
    buildings: str | None = None
    building_field: str | None = None
    levels_field: str | None = None
    pois: str | None = None
    category_field: str | None = None
    demand: str | None = None
    demand_field: str | None = None
    area: str | None = None
    crs: str | None = None

    @classmethod
    def from_args(cls, args: Any) -> CityInputs:
        """From an argparse namespace (missing attributes are None)."""
        return cls(**{f.name: getattr(args, f.name, None) for f in fields(cls)})

    def given(self) -> bool:
        return bool(self.region or self.roads)


def read_extras(inp: CityInputs, warnings: list[str]) -> tuple[gpd.GeoDataFrame | None, gpd.GeoDataFrame | None]:
    """The study area and the demand layer of ``inp`` (None when not given)."""
    area = demand = None
    if inp.area:
        spec = parse_layer_spec(inp.area, "--area")
        area = area_polygon(read_layer(spec, "polygon", warnings=warnings))
    if inp.demand:
        spec = parse_layer_spec(inp.demand, "--demand")
        demand = demand_frame(read_layer(spec, "point or polygon", warnings=warnings), inp.demand_field,
                              f"--demand {spec}", warnings)
    return area, demand


def own_layers(inp: CityInputs, warnings: list[str]) -> dict[str, gpd.GeoDataFrame]:
    """roads / buildings / features frames from the own-layer flags."""
    spec = parse_layer_spec(inp.roads, "--roads")
    raw = {"roads": roads_frame(read_layer(spec, "line", "roads", warnings), inp.highway_field, f"--roads {spec}",
                                warnings)}
    if inp.buildings:
        spec = parse_layer_spec(inp.buildings, "--buildings")
        raw["buildings"] = buildings_frame(read_layer(spec, "polygon", "buildings", warnings), inp.building_field,
                                           inp.levels_field, f"--buildings {spec}", warnings)
    if inp.pois:
        spec = parse_layer_spec(inp.pois, "--pois")
        raw["features"] = pois_frame(read_layer(spec, "point or polygon", "pois", warnings), inp.category_field,
                                     f"--pois {spec}", warnings)
    return raw


def city_from_inputs(inp: CityInputs) -> City:
    """The City of a region or of own layers, clipped to the study area, with its warnings."""
    if inp.region and inp.roads:
        raise InputError("give --region or --roads (own layers), not both")
    if not inp.given():
        raise InputError("give --region (helsinki, kotka, an .osm.pbf or a GeoPackage) or your own layers "
                         "with --roads PATH[:LAYER] (and --buildings, --pois)")
    for flag, layer_flag in (("building_field", "buildings"), ("levels_field", "buildings"),
                             ("category_field", "pois"), ("demand_field", "demand")):
        if getattr(inp, flag) and not getattr(inp, layer_flag):
            raise InputError(f"--{flag.replace('_', '-')} needs --{layer_flag}")
    if inp.highway_field and not inp.roads:
        raise InputError("--highway-field needs --roads")
    if inp.region and not (inp.area or inp.demand or inp.crs):
        return load_city(inp.region)
    warnings: list[str] = []
    if inp.region:
        raw, _, warnings = read_region(region_path(inp.region))
        name = _name(inp.region)
    else:
        raw = own_layers(inp, warnings)
        name = Path(str(parse_layer_spec(inp.roads, "--roads").path)).stem
    area, demand = read_extras(inp, warnings)
    if demand is not None:
        raw["demand"] = demand
    return build_city(raw, name, area=area, assume_crs=inp.crs, warnings=warnings)


def source_gpkg(city: City, path: Path) -> Path:
    """The city's source layers (in its working CRS, clipped to its area) as a GeoPackage that
    ``load_city`` reads back into the same city: roads, buildings, features, demand."""
    path.parent.mkdir(parents=True, exist_ok=True)
    for name, layer in city.raw.items():
        if name in SOURCE_LAYERS and len(layer):
            layer.to_file(path, layer=name, driver="GPKG", engine="pyogrio")
    return path
