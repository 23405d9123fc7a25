"""The one street-naming helper (``plugin.city.streets``): nearest named road within a limit,
any geometry kind, a candidates table, a workspace's saved city model, and "<id> on <Street>"."""
from __future__ import annotations

import geopandas as gpd
import pandas as pd
import shapely

from cityplanner.plugin.city.streets import StreetNamer, namer_for_workspace, site_label

# two named streets 100 m apart (y = 0 and y = 100), one unnamed lane at y = 50
ROADS = gpd.GeoDataFrame({"name": ["Annankatu", None, "Bulevardi"]},
                         geometry=[shapely.LineString([(0, 0), (200, 0)]), shapely.LineString([(0, 50), (200, 50)]),
                                   shapely.LineString([(0, 100), (200, 100)])], crs="EPSG:3067")


def test_nearest_named_road_skips_unnamed_and_far_ones():
    n = StreetNamer(ROADS, max_m=60)
    assert n.near(100, 10) == "Annankatu"
    assert n.near(100, 52) == "Bulevardi"      # the unnamed lane at 2 m is not a street name
    assert n.near(100, 48) == "Annankatu"
    assert n.near(100, 400) == ""              # 300 m from Bulevardi: beyond max_m
    assert n.near_many([(10, 95), (10, 5)]) == ["Bulevardi", "Annankatu"]


def test_geometries_and_candidate_tables():
    n = StreetNamer(ROADS)
    assert n.of_geometry(shapely.LineString([(50, 80), (150, 90)])) == "Bulevardi"   # middle at y = 85
    assert n.of_geometry(shapely.box(20, 5, 60, 30)) == "Annankatu"
    by_xy = pd.DataFrame({"id": ["s1", "s2"], "x": [5.0, 5.0], "y": [3.0, 99.0]})
    assert n.of_sites(by_xy) == {"s1": "Annankatu", "s2": "Bulevardi"}
    by_wkt = pd.DataFrame({"id": ["r7"], "wkt": ["LINESTRING (0 70, 200 70)"]})
    assert n.of_sites(by_wkt) == {"r7": "Bulevardi"}
    assert not StreetNamer(ROADS.iloc[[1]]) and StreetNamer(ROADS.iloc[[1]]).near(0, 50) == ""


def test_labels():
    assert site_label("s07", "Mannerheimintie") == "s07 on Mannerheimintie"
    assert site_label("s07", "") == "s07" and site_label(3, None) == "3"


def test_a_workspace_names_streets_from_its_saved_city_model(tmp_path):
    from cityplanner.plugin.city import load_city
    from cityplanner.plugin.cli import main

    assert namer_for_workspace(tmp_path) is None
    ws = tmp_path / "ws"
    assert main(["instance", "--region", "helsinki", "--task", "station", "--size", "small", "--seed", "0",
                 "--out", str(ws)]) == 0
    namer = namer_for_workspace(ws)
    assert namer
    city = load_city("helsinki")
    cands = pd.read_csv(ws / "input" / "candidates.csv")
    got = namer.of_sites(cands)
    # independently: the nearest named edge of the bundled city by brute force over every edge
    named = city.edges[city.edges["name"].fillna("") != ""]
    for cid, wkt in list(zip(cands["id"].astype(str), cands["wkt"]))[:15]:
        p = shapely.from_wkt(wkt)
        d = named.geometry.distance(p)
        want = str(named["name"].iloc[int(d.to_numpy().argmin())]) if d.min() <= 250 else ""
        assert got[cid] == want, (cid, got[cid], want)
    assert sum(bool(s) for s in got.values()) >= len(got) // 2
