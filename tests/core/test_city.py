"""City model on the bundled real OSM extracts and on handmade layers."""
import json

import geopandas as gpd
import numpy as np
import pyogrio
import pytest
import shapely
from shapely.geometry import LineString, Polygon, box

from cityplanner.plugin.city import build_city, load_city, tiles, write_gpkg
from cityplanner.plugin.city.build import M2_PER_RESIDENT
from cityplanner.plugin.city.units import ENTRY_REACH_M
from cityplanner.plugin.errors import InputError


@pytest.fixture(scope="module", params=["helsinki", "kotka"])
def city(request):
    return load_city(request.param)


def test_real_region_is_metric_and_nontrivial(city):
    assert city.crs == "EPSG:32635"  # both extracts lie in UTM zone 35N
    c = city.counts()
    assert c["faces"] >= 20 and c["roads"] >= 250 and c["buildings"] >= 400
    assert c["dead_ends"] > 0 and c["demand"] > 1000
    assert set(city.faces.geom_type) == {"Polygon"}
    assert set(city.edges.geom_type) == {"LineString"}
    assert (city.faces["area"] >= 300).all()


def test_graph_matches_edge_table(city):
    g = city.graph
    assert g.number_of_nodes() == len(city.nodes)
    deg = city.nodes["degree"]
    # node degree counts edge ends; the simple graph may merge parallel edges, never add
    assert all(g.degree(n) <= d for n, d in deg.items())
    assert abs(city.edges["length"].sum() - shapely.length(city.edges.geometry.values).sum()) < 1e-6


def test_demand_formula_and_face_assignment(city):
    b = city.buildings[city.buildings["face_id"] >= 0]
    res = (b["floor_area"] * b["residential_share"]).groupby(b["face_id"]).sum()
    f = city.faces.loc[res.index]
    assert np.allclose(f["residential_floor_area"], res)
    assert np.allclose(f["demand"], res / M2_PER_RESIDENT)
    # every entry node lies on the street that bounds its face: across the road reserve at most
    reach = ENTRY_REACH_M
    for _fid, row in city.faces.head(10).iterrows():
        for n in row["entry_nodes"]:
            assert city.nodes.geometry[n].distance(row.geometry) <= reach


def test_tiles_and_window(city):
    ts = tiles(city, 800, 400)
    assert ts and ts == tiles(city, 800, 400)  # deterministic
    w = city.window(ts[0])
    minx, miny, maxx, maxy = ts[0]
    assert w.faces.total_bounds[0] >= minx - 1e-6 and w.faces.total_bounds[2] <= maxx + 1e-6
    assert 0 < len(w.faces) <= len(city.faces) + 5


def test_gpkg_roundtrip(tmp_path):
    city = load_city("kotka")
    p = write_gpkg(city, tmp_path / "kotka.gpkg")
    layers = dict(pyogrio.list_layers(p))
    assert {"faces", "roads", "junctions", "buildings", "pois", "masks", "study_area"} <= set(layers)
    faces = gpd.read_file(p, layer="faces")
    assert len(faces) == len(city.faces)
    assert json.loads(faces["entry_nodes"][0]) == list(city.faces["entry_nodes"].iloc[0])
    assert not list(tmp_path.glob(".*"))  # no temp file left behind


def _grid_roads(n=3, step=100.0):
    lines = [LineString([(0, i * step), (n * step, i * step)]) for i in range(n + 1)]
    lines += [LineString([(i * step, 0), (i * step, n * step)]) for i in range(n + 1)]
    return gpd.GeoDataFrame({"highway": ["residential"] * len(lines)}, geometry=lines, crs="EPSG:3067")


def test_handmade_grid_city():
    roads = _grid_roads()
    house = box(20, 20, 40, 40)  # 400 m² footprint, 2 levels, residential
    office = box(120, 20, 160, 60)  # 1600 m², non-residential
    b = gpd.GeoDataFrame({"building": ["house", "office"], "levels": [2.0, np.nan]},
                         geometry=[house, office], crs="EPSG:3067")
    city = build_city({"roads": roads, "buildings": b}, "grid")
    assert city.crs == "EPSG:3067"
    assert len(city.faces) == 9  # a 3×3 block grid
    # degree-2 corners are merged away (line_merge); T-junctions on the edge, crossings inside
    assert (city.nodes["degree"] == 3).sum() == 8
    assert (city.nodes["degree"] == 4).sum() == 4
    assert len(city.edges) == 20
    f = city.faces[city.faces.contains(shapely.Point(30, 30))].iloc[0]
    assert f["residential_floor_area"] == pytest.approx(800.0)
    assert f["demand"] == pytest.approx(800.0 / M2_PER_RESIDENT)
    assert city.faces["demand"].sum() == pytest.approx(800.0 / M2_PER_RESIDENT)
    assert len(f["entry_nodes"]) == 3  # corner block: two T-junctions and one crossing


def test_invalid_geometry_is_repaired_not_fatal():
    roads = _grid_roads()
    bowtie = Polygon([(10, 10), (50, 50), (50, 10), (10, 50)])  # self-intersecting
    b = gpd.GeoDataFrame({"building": ["apartments"], "levels": [3.0]}, geometry=[bowtie], crs="EPSG:3067")
    city = build_city({"roads": roads, "buildings": b}, "grid")
    assert city.buildings.geometry.is_valid.all()
    assert city.faces["demand"].sum() > 0


@pytest.mark.parametrize("make,msg", [
    (lambda: {"roads": _grid_roads().iloc[:0]}, "no roads"),
    (lambda: {"roads": _grid_roads().assign(highway="footway")}, "no drivable roads"),
    (lambda: {"roads": _grid_roads().iloc[:1]}, "no blocks"),
    (lambda: {"roads": _grid_roads().set_crs("EPSG:4326", allow_override=True).iloc[:0]}, "no roads"),
])
def test_bad_layers_give_one_line_errors(make, msg):
    with pytest.raises(InputError, match=msg) as e:
        build_city(make(), "bad")
    assert "\n" not in str(e.value)


def test_bad_files(tmp_path):
    with pytest.raises(InputError, match="unknown region or missing file"):
        load_city(tmp_path / "nope.osm.pbf")
    junk = tmp_path / "junk.osm.pbf"
    junk.write_bytes(b"not a pbf")
    with pytest.raises(InputError, match="cannot read"):
        load_city(junk)


def test_city_without_buildings_has_numeric_zero_demand():
    city = build_city({"roads": _grid_roads()}, "grid")
    for col in ("building_area", "coverage", "floor_area", "residential_floor_area", "demand"):
        assert city.faces[col].dtype == float and (city.faces[col] == 0).all(), col
