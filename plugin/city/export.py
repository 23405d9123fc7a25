"""Write a City as a GeoPackage (atomically: temp file, then rename)."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import geopandas as gpd

from .model import City

LAYERS = ("faces", "roads", "junctions", "buildings", "pois", "masks", "study_area")


def city_layers(city: City) -> dict[str, gpd.GeoDataFrame]:
    faces = city.faces.reset_index()
    faces["entry_nodes"] = faces["entry_nodes"].map(json.dumps)
    layers = {"faces": faces, "roads": city.edges, "junctions": city.nodes.reset_index(),
              "buildings": city.buildings, "pois": city.pois}
    if city.masks is not None:  # water and non-buildable land left out of the faces
        layers["masks"] = city.masks
    if city.extent is not None:
        layers["study_area"] = gpd.GeoDataFrame({"name": ["study area"]}, geometry=[city.extent], crs=city.crs)
    return layers


def write_gpkg(city: City, path: str | Path, extra: dict[str, gpd.GeoDataFrame] | None = None) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(suffix=".gpkg", dir=path.parent, prefix=f".{path.stem}.")
    os.close(fd)
    os.unlink(tmp)  # GDAL refuses to create a GeoPackage over an existing empty file
    try:
        for name, layer in {**city_layers(city), **(extra or {})}.items():
            if len(layer):
                layer.to_file(tmp, layer=name, driver="GPKG", engine="pyogrio")
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)
    return path
