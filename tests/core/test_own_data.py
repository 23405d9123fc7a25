"""A planner's own data through the CLI (``python -m plugin`` from the repository root): a
small city that is not OSM-shaped (other layer and field names, streets without class,
buildings without type or levels, parcels with integer cadastral codes) in Web Mercator,
WGS 84 and UTM. Areas and lengths match geodesic values (pyproj.Geod) within 1 %, candidate
ids are the same whatever the input CRS, every assumption is a warning, bad input is one
line with exit 2 and no output."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pyogrio
import pytest
import shapely
from pyproj import Geod

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import own_city  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CRSS = ("EPSG:3857", "EPSG:4326", "EPSG:32635")
GEOD = Geod(ellps="WGS84")


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "plugin", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def ok(*args: str) -> dict:
    p = cli(*args)
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr[-800:]
    return json.loads(p.stdout)


@pytest.fixture(scope="module")
def gpkgs(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("own")
    return {c: own_city.write(base / c.replace(":", ""), c) for c in CRSS}


def city_args(g: Path) -> list[str]:
    return ["--roads", f"{g}:katu", "--buildings", f"{g}:rakennus", "--pois", f"{g}:palvelut",
            "--category-field", "luokka"]


def parcel_args(g: Path) -> list[str]:
    return ["--parcels", f"{g}:kiinteisto", "--landuse-field", "kaavamerkinta", "--landuse-map", own_city.LANDUSE_MAP]


def geodesic_area(geoms: gpd.GeoSeries) -> np.ndarray:
    return np.array([abs(GEOD.geometry_area_perimeter(g)[0]) for g in geoms.to_crs("EPSG:4326")])


def geodesic_length(geoms: gpd.GeoSeries) -> np.ndarray:
    return np.array([GEOD.geometry_length(g) for g in geoms.to_crs("EPSG:4326")])


@pytest.fixture(scope="module")
def cities(gpkgs, tmp_path_factory) -> dict[str, tuple[dict, Path]]:
    out = {}
    for c, g in gpkgs.items():
        d = tmp_path_factory.mktemp("city")
        out[c] = ok("city", *city_args(g), "--out", str(d)), d / "mycity.gpkg"
    return out


@pytest.mark.parametrize("crs", CRSS)
def test_city_measures_geodesic_and_warns(cities, crs):
    res, path = cities[crs]
    assert res["crs"] == "EPSG:32635" and res["faces"] == 20 and res["dead_ends"] == 0
    faces = pyogrio.read_dataframe(path, layer="faces")
    assert np.allclose(faces["area"], geodesic_area(faces.geometry), rtol=0.01)
    roads = pyogrio.read_dataframe(path, layer="roads")
    assert np.allclose(roads["length"], geodesic_length(roads.geometry), rtol=0.01)
    # the grid's 6 × 480 m + 5 × 600 m of street, on the ground
    assert res["road_km"] == pytest.approx(5.88, rel=0.01)
    b = pyogrio.read_dataframe(path, layer="buildings")
    assert np.allclose(b["area"], geodesic_area(b.geometry), rtol=0.01)
    assert set(b["levels"]) == {3.0} and set(b["building"]) == {"yes"}
    # by hand: 20 footprints of 30 × 20 m and 13 of 35 × 35 m, 3 levels, share 0.5, 40 m² each
    assert res["demand"] == pytest.approx((20 * 600 + 13 * 1225) * 3 * 0.5 / 40, abs=0.1)
    w = " | ".join(res["warnings"])
    for said in ("no road class field", "no building type field", "no levels field", "'bakery'"):
        assert said in w
    assert ("working CRS EPSG:32635" in w) == (crs != "EPSG:32635")


def test_web_mercator_is_not_taken_as_metres(cities):
    """The first thing the issue saw: EPSG:3857 read as metres inflates areas ~2.4× at 60° N."""
    _, path = cities["EPSG:3857"]
    faces = pyogrio.read_dataframe(path, layer="faces")
    merc = faces.to_crs("EPSG:3857").area.to_numpy()
    assert (merc / faces["area"].to_numpy()).min() > 2.3


def instance_ids(ws: Path) -> pd.DataFrame:
    return pd.read_csv(ws / "input" / "candidates.csv")


@pytest.fixture(scope="module")
def workspaces(gpkgs, tmp_path_factory) -> dict[str, dict[str, tuple[dict, Path]]]:
    out: dict[str, dict] = {}
    for c, g in gpkgs.items():
        d = tmp_path_factory.mktemp("ws")
        out[c] = {
            "land": (ok("instance", "--task", "land", *city_args(g), "--out", str(d / "land")), d / "land"),
            "station": (ok("instance", "--task", "station", "--roads", f"{g}:katu", "--demand", f"{g}:asukkaat",
                           "--demand-field", "asukasluku", "--area", f"{g}:alue", "--out", str(d / "st")), d / "st"),
            "parcels": (ok("instance", "--task", "land", *parcel_args(g), "--need", "school=1,green_s=1,business=1",
                           "--out", str(d / "p")), d / "p"),
        }
    return out


@pytest.mark.slow  # the workspaces fixture builds nine instances through the CLI
@pytest.mark.parametrize("kind", ["land", "station", "parcels"])
def test_same_candidates_whatever_the_input_crs(workspaces, kind):
    tables = {c: instance_ids(workspaces[c][kind][1]) for c in CRSS}
    ref = tables["EPSG:32635"]
    for c in CRSS:
        t = tables[c]
        assert list(t["id"]) == list(ref["id"]), c
        here = shapely.get_coordinates(shapely.centroid(shapely.from_wkt(t["wkt"].to_numpy())))
        there = shapely.get_coordinates(shapely.centroid(shapely.from_wkt(ref["wkt"].to_numpy())))
        assert np.allclose(here, there, atol=0.05), c
        assert np.allclose(t["cost"], ref["cost"], rtol=1e-4), c


@pytest.mark.slow  # the workspaces fixture builds nine instances through the CLI
def test_area_and_demand_layer_feed_the_station_instance(workspaces, gpkgs):
    res, ws = workspaces["EPSG:4326"]["station"]
    exp = json.loads((ws / "input" / "export.json").read_text())
    area = own_city.frames()["alue"].geometry.iloc[0]
    pts = own_city.frames()["asukkaat"]
    inside = pts[pts.within(area)]
    # the demand regions hold exactly the residents of the demand points inside the study area
    assert sum(exp["data"]["demand"]["residents"]) == pytest.approx(inside["asukasluku"].sum())
    assert 0 < len(inside) < len(pts)
    sites = shapely.from_wkt(instance_ids(ws)["wkt"].to_numpy())
    assert shapely.within(sites, area.buffer(0.5)).all()  # every site inside the study area
    assert not any("no residential demand" in w for w in res["warnings"])
    readme = (ws / "input" / "README.md").read_text()
    assert "working CRS: EPSG:32635" in readme and "warning: " in readme


@pytest.mark.slow  # the workspaces fixture builds nine instances through the CLI
def test_parcels_instance_solves_and_participates(workspaces, gpkgs, tmp_path):
    res, ws = workspaces["EPSG:3857"]["parcels"]
    assert res["crs"] == "EPSG:32635"
    assert any("mapped to 'ignore'" in w for w in res["warnings"])
    cands = instance_ids(ws)
    parcels = own_city.frames()["kiinteisto"]
    open_area = parcels[parcels["kaavamerkinta"] == own_city.CODES["open"]].geometry
    geod = geodesic_area(open_area.to_crs("EPSG:3857"))
    assert np.allclose(np.sort(cands.groupby("face_id")["face_area"].first()), np.sort(geod), rtol=0.01)
    s = ok("solve", str(ws), "--method", "default", "--time-limit", "5")
    assert s["valid"] is True and s["selected"] == 3
    p = ok("participate", *parcel_args(gpkgs["EPSG:3857"]), "--residents", "100", "--speakers", "10", "--rounds",
           "1", "--communities", "2", "--out", str(tmp_path / "part"))
    assert p["crs"] == "EPSG:32635" and any("working CRS" in w for w in p["warnings"])
    assert (tmp_path / "part" / "parcels.gpkg").is_file()


# ------------------------------------------------------------------ bad input: one line, exit 2, nothing written
def _bad_layers(base: Path) -> dict[str, Path]:
    f = own_city.frames()
    g = base / "bad.gpkg"
    f["katu"].iloc[:0].to_file(g, layer="empty", engine="pyogrio")
    f["rakennus"].to_file(g, layer="polygons", engine="pyogrio")
    f["rakennus"].set_crs("EPSG:2393", allow_override=True).to_file(g, layer="elsewhere", engine="pyogrio")
    f["katu"].set_crs(None, allow_override=True).to_file(g, layer="nocrs", engine="pyogrio")
    bow = gpd.GeoDataFrame({"bid": [1]}, geometry=[shapely.Polygon([(385000, 6672000), (385010, 6672010),
                                                                    (385010, 6672000), (385000, 6672010)])],
                           crs=own_city.UTM)
    bow.to_file(g, layer="bowtie", engine="pyogrio")
    n = 100_000
    side = int(np.ceil(np.sqrt(n)))
    x, y = np.divmod(np.arange(n), side)
    plots = gpd.GeoDataFrame({"code": np.arange(n) + 1_000_000},
                             geometry=shapely.box(385000 + x * 2.0, 6672000 + y * 2.0, 385001.5 + x * 2.0,
                                                  6672001.5 + y * 2.0), crs=own_city.UTM)
    plots.to_file(g, layer="codes", engine="pyogrio")
    return {"g": g}


BAD = [
    ("empty layer", ["city", "--roads", "{g}:empty"], "layer is empty"),
    ("wrong geometry", ["city", "--roads", "{g}:polygons"], "expected line geometries"),
    ("mixed CRS", ["city", "--roads", "{own}:katu", "--buildings", "{g}:elsewhere"], "does not overlap"),
    ("no CRS", ["city", "--roads", "{g}:nocrs"], "layer has no CRS; give the CRS of layers without one with --crs"),
    ("bad --crs", ["city", "--roads", "{g}:nocrs", "--crs", "EPSG:nope"], "is not a CRS"),
    ("invalid geometry", ["city", "--roads", "{own}:katu", "--buildings", "{g}:bowtie"], "invalid geometry"),
    ("unnamed layer", ["city", "--roads", "{own}"], "--roads mycity.gpkg:katu"),
    ("missing field", ["city", "--roads", "{own}:katu", "--highway-field", "luokka"], "no field 'luokka'"),
    ("unmapped codes", ["instance", "--task", "land", "--parcels", "{own}:kiinteisto", "--landuse-field",
                        "kaavamerkinta", "--need", "school=1"],
     f"unknown land-use values 9100101 ({(own_city.frames()['kiinteisto']['kaavamerkinta'] == 9100101).sum()}), 9100901"),
    ("100,000 codes", ["instance", "--task", "land", "--parcels", "{g}:codes", "--landuse-field", "code",
                       "--need", "school=1"], "and 99,980 more"),
    ("no need", ["instance", "--task", "land", *["--parcels", "{own}:kiinteisto", "--landuse-field",
                                                 "kaavamerkinta", "--landuse-map", own_city.LANDUSE_MAP]],
     "need per land-use type"),
]


@pytest.fixture(scope="module")
def bad(tmp_path_factory, gpkgs):
    return {**_bad_layers(tmp_path_factory.mktemp("bad")), "own": gpkgs["EPSG:32635"]}


@pytest.mark.parametrize("case,args,said", BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_one_line_and_writes_nothing(bad, tmp_path, case, args, said):
    out = tmp_path / "out"
    p = cli(*(a.format(**bad) for a in args), "--out", str(out))
    err = p.stderr.strip().splitlines()
    assert p.returncode == 2 and len(err) == 1 and err[0].startswith("error:"), p.stderr[-600:]
    assert said in err[0]
    assert not out.exists()
    if case == "100,000 codes":
        listed = err[0].rsplit("full list: ", 1)[1]
        assert "is it an id field" in err[0]
        assert len(Path(listed).read_text().splitlines()) == 100_001  # header + every distinct value
        Path(listed).unlink()


def test_ask_reads_own_layers(gpkgs):
    """``ask`` passes the layer options through: the tools answer from the planner's layers."""
    g = gpkgs["EPSG:3857"]
    res = ok("ask", "how many schools are there?", *city_args(g))
    assert res["region"] == "mycity" and res["answer"].startswith("There is 1 school in the mycity data")
    assert any("working CRS EPSG:32635" in w for w in res["warnings"])


def test_region_geopackage_without_osm_fields(tmp_path):
    """``--region X.gpkg`` with layers named roads / buildings but no highway, building or levels
    field (a KeyError and exit 1 before): the documented defaults, each a warning."""
    f = own_city.frames()
    g = tmp_path / "plain.gpkg"
    f["katu"].to_file(g, layer="roads", engine="pyogrio")
    f["rakennus"].to_file(g, layer="buildings", engine="pyogrio")
    res = ok("city", "--region", str(g), "--out", str(tmp_path / "o"))
    assert res["faces"] == 20 and res["buildings"] == 33 and res["crs"] == "EPSG:32635"
    assert res["demand"] == pytest.approx((20 * 600 + 13 * 1225) * 3 * 0.5 / 40, abs=0.1)
    assert sum("no road class field" in w or "no building type field" in w or "no levels field" in w
               for w in res["warnings"]) == 3


def test_crs_flag_names_a_missing_crs(bad, tmp_path):
    res = ok("city", "--roads", f"{bad['g']}:nocrs", "--crs", "EPSG:32635", "--out", str(tmp_path / "o"))
    assert res["crs"] == "EPSG:32635" and res["faces"] == 20
