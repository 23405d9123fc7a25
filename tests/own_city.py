"""A small city of our own, NOT shaped like OSM, written as one GeoPackage in any CRS.

Layers and fields (none of them named as the toolkit's defaults):
  katu        streets: LineString, field ``gid`` only (no road class)
  rakennus    buildings: Polygon, field ``bid`` only (no type, no levels)
  kiinteisto  parcels: Polygon, integer cadastral code ``kaavamerkinta``
              (9100101 homes, 9100301 open for planning, 9100501 school, 9100701 park, 9100901 road reserve)
  palvelut    points of interest: ``luokka`` holding a category (school, parking, business)
  asukkaat    demand points: ``asukasluku`` (residents)
  alue        the study area (a polygon a bit smaller than the grid)

Geometry is laid out in UTM 35N metres near Helsinki (a 5 × 4 street grid of 120 m blocks)
and reprojected to the CRS asked for, so every CRS holds the same places.
"""
from __future__ import annotations

from pathlib import Path

import geopandas as gpd
import numpy as np
import shapely

UTM = "EPSG:32635"
X0, Y0, STEP, NX, NY = 385_000.0, 6_672_000.0, 120.0, 5, 4
CODES = {"home": 9100101, "open": 9100301, "school": 9100501, "park": 9100701, "reserve": 9100901}
LANDUSE_MAP = "9100101=residential,9100301=feasible,9100501=school,9100701=green_s,9100901=ignore"


def frames() -> dict[str, gpd.GeoDataFrame]:
    """The layers in UTM 35N."""
    xs, ys = X0 + STEP * np.arange(NX + 1), Y0 + STEP * np.arange(NY + 1)
    lines = [shapely.LineString([(x, ys[0]), (x, ys[-1])]) for x in xs]
    lines += [shapely.LineString([(xs[0], y), (xs[-1], y)]) for y in ys]
    streets = gpd.GeoDataFrame({"gid": np.arange(len(lines))}, geometry=lines, crs=UTM)
    blocks, bld, parcels, codes = [], [], [], []
    for j in range(NY):
        for i in range(NX):
            x, y = xs[i], ys[j]
            k = j * NX + i
            blocks.append((x, y))
            bld.append(shapely.box(x + 20, y + 20, x + 50, y + 40))
            if k % 3 != 1:
                bld.append(shapely.box(x + 65, y + 60, x + 100, y + 95))
            kind = "open" if k % 4 == 1 else "school" if k == 6 else "park" if k == 14 else "home"
            # two parcels per block: the west half carries the block's code, the east strip is road reserve
            parcels += [shapely.box(x + 5, y + 5, x + 85, y + 115), shapely.box(x + 85, y + 5, x + 115, y + 115)]
            codes += [CODES[kind], CODES["reserve"] if k % 2 else CODES["home"]]
    buildings = gpd.GeoDataFrame({"bid": np.arange(len(bld))}, geometry=bld, crs=UTM)
    plots = gpd.GeoDataFrame({"kaavamerkinta": np.array(codes, dtype=np.int64)}, geometry=parcels, crs=UTM)
    pts = [shapely.Point(X0 + 180, Y0 + 150), shapely.Point(X0 + 400, Y0 + 300), shapely.Point(X0 + 60, Y0 + 420),
           shapely.Point(X0 + 530, Y0 + 60)]
    pois = gpd.GeoDataFrame({"luokka": ["school", "parking", "business", "bakery"]}, geometry=pts, crs=UTM)
    homes = [shapely.Point(x + 40, y + 60) for x, y in blocks]
    demand = gpd.GeoDataFrame({"asukasluku": 20.0 + 5.0 * np.arange(len(homes))}, geometry=homes, crs=UTM)
    area = gpd.GeoDataFrame({"nimi": ["keskusta"]},
                            geometry=[shapely.box(X0 - 10, Y0 - 10, xs[3] + 10, ys[-1] + 10)], crs=UTM)
    return {"katu": streets, "rakennus": buildings, "kiinteisto": plots, "palvelut": pois, "asukkaat": demand,
            "alue": area}


def write(folder: Path, crs: str) -> Path:
    """mycity.gpkg in ``folder`` with every layer in ``crs``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "mycity.gpkg"
    for name, gdf in frames().items():
        gdf.to_crs(crs).to_file(path, layer=name, driver="GPKG", engine="pyogrio")
    return path
