"""Street names on the road graph's edges: an edge never spans two streets, and each edge
carries the name of the source lines it lies on (``plugin.city.build._graph``)."""
from __future__ import annotations

import geopandas as gpd
import numpy as np
import pytest
import shapely
from shapely import LineString

from cityplanner.plugin.city import build as B
from cityplanner.plugin.city.regions import load_city

# Alphakatu and Betakatu meet end to end at (100, 0); Crosskatu crosses Alphakatu at (50, 0) and
# ends on Ringtie at (50, 100); Ringtie starts where Alphakatu starts and ends where Betakatu
# ends; Silmukka is a closed line that touches the streets at (250, 0), a vertex in its middle
# (merged back from its two noded pieces, it must start and end there, not at (250, -50)).
ROADS = [
    ("Alphakatu", "residential", [(0, 0), (100, 0)]),
    ("Betakatu", "residential", [(100, 0), (250, 0)]),
    ("Crosskatu", "residential", [(50, -80), (50, 100)]),
    ("Ringtie", "residential", [(0, 0), (0, 100), (250, 100), (250, 0)]),
    ("Silmukka", "residential", [(250, -50), (250, 0), (300, 0), (300, -50), (250, -50)]),
]
# the edges a planner sees, written out by hand: name -> the paths between junctions
WANT = {
    "Alphakatu": [[(0, 0), (50, 0)], [(50, 0), (100, 0)]],
    "Betakatu": [[(100, 0), (250, 0)]],
    "Crosskatu": [[(50, -80), (50, 0)], [(50, 0), (50, 100)]],
    "Ringtie": [[(0, 0), (0, 100), (50, 100)], [(50, 100), (250, 100), (250, 0)]],
    "Silmukka": [[(250, 0), (300, 0), (300, -50), (250, -50), (250, 0)]],
}


def _ends(g) -> frozenset:
    xy = shapely.get_coordinates(g)
    return frozenset({tuple(np.round(xy[0], 6)), tuple(np.round(xy[-1], 6))})


def _max_off(geom, target) -> float:
    """The largest distance from any point of ``geom`` (every metre) to ``target``."""
    return float(shapely.distance(shapely.points(shapely.get_coordinates(shapely.segmentize(geom, 1.0))),
                                  target).max())


@pytest.fixture(scope="module")
def tiny_city(tmp_path_factory):
    path = tmp_path_factory.mktemp("graph_names") / "tiny.gpkg"
    roads = gpd.GeoDataFrame({"name": [r[0] for r in ROADS], "highway": [r[1] for r in ROADS]},
                             geometry=[LineString(r[2]) for r in ROADS], crs="EPSG:3067")
    roads.to_file(path, layer="roads", driver="GPKG")
    houses = gpd.GeoDataFrame({"building": ["house"]}, geometry=[shapely.box(120, 30, 140, 50)], crs="EPSG:3067")
    houses.to_file(path, layer="buildings", driver="GPKG")
    return load_city(path)


def test_each_edge_carries_its_own_street_name_and_length(tiny_city):
    e = tiny_city.edges
    got = sorted((n, round(float(length), 6), _ends(g)) for n, length, g in zip(e["name"], e["length"], e.geometry,
                                                                                 strict=True))
    want = sorted((n, round(LineString(p).length, 6), frozenset({p[0], p[-1]})) for n, ps in WANT.items() for p in ps)
    assert got == want
    # each edge runs along its own street and no other: compared with the source lines by name
    src = {n: shapely.union_all([LineString(r[2]) for r in ROADS if r[0] == n]) for n in WANT}
    for n, g in zip(e["name"], e.geometry, strict=True):
        assert _max_off(g, src[n]) < 1e-6, n
        assert shapely.length(shapely.intersection(g, src[n])) == pytest.approx(g.length)
    # the loop is one edge from its junction back to it (u == v), not a ring starting mid-way
    loop = e[e["name"] == "Silmukka"].iloc[0]
    junction = tiny_city.nodes.geometry.loc[loop["u"]]
    assert loop["u"] == loop["v"] and junction.distance(shapely.Point(250, 0)) < 0.02
    # the degree-2 point where Alphakatu becomes Betakatu stays a node, as a name change
    at = tiny_city.nodes[tiny_city.nodes.geometry.distance(shapely.Point(100, 0)) < 0.02]
    assert list(at["degree"]) == [2]


def test_same_street_pieces_merge_across_a_bend_only():
    """Two lines of one street meeting end to end make one edge; the same with another class
    (a name kept, the road class changed) stays two edges."""
    lines = [LineString([(0, 0), (40, 0)]), LineString([(40, 0), (40, 30)])]
    for classes, want in ((["residential", "residential"], ["residential"]),
                          (["residential", "tertiary"], ["residential", "tertiary"])):
        drive = gpd.GeoDataFrame({"name": ["Kaari", "Kaari"], "highway": classes}, geometry=lines, crs="EPSG:3067")
        nodes, edges = B._graph(drive, "EPSG:3067")
        assert sorted(edges["highway"]) == want and edges["length"].sum() == pytest.approx(70.0)
        assert len(nodes) == len(want) + 1


@pytest.mark.parametrize("region", ["helsinki", "kotka"])
def test_bundled_edges_lie_on_source_lines_of_their_own_name(region):
    city = load_city(region)
    raw = city.raw["roads"]
    drive = raw[raw["highway"].isin(B.DRIVABLE) & ~raw["service"].fillna("").isin(B.NOT_DRIVABLE_SERVICE)]
    src = {n: shapely.union_all(g.values) for n, g in drive.geometry.groupby(drive["name"].fillna("").to_numpy())}
    e = city.edges
    off = [(n, round(_max_off(g, src.get(n, shapely.Point())), 1)) for n, g in zip(e["name"].fillna(""), e.geometry,
                                                                                   strict=True)]
    assert [o for o in off if o[1] > 1.0] == []
    # and the named edges add up to the named drivable lines, street by street (within 1 m)
    got = e.groupby(e["name"].fillna(""))["length"].sum()
    for n, line in src.items():
        if n:
            assert got.get(n, 0.0) == pytest.approx(line.length, abs=1.0), n


@pytest.mark.parametrize("region", ["helsinki", "kotka"])
def test_a_place_joins_the_network_at_its_nearest_road(region):
    """A named place joins the drivable graph at the nearer end of its nearest road edge (City.node_near),
    not at the nearest node, which can lie on another road: in kotka, Ekami malminki's nearest node is in
    an 11-node pocket cut off at the extract's edge, 126 m off, while Malminginkatu (main network) is 40 m
    away; Helilän koulu's nearest road is a piece of its own and stays so (no road reaches it). The nearest
    edge is found here by brute force over every edge with shapely."""
    from cityplanner.plugin.agent.tools.places import _index
    from cityplanner.plugin.city.regions import REGIONS

    city = load_city(region)
    idx = _index(str(REGIONS[region]), region)
    geoms = city.edges.geometry.to_numpy()
    for p in idx.pois:
        pt = shapely.Point(p.x, p.y)
        d = shapely.distance(geoms, pt)
        near = np.flatnonzero(d <= d.min() + 1e-6)
        ends = {int(n) for k in near for n in (city.edges.iloc[k].u, city.edges.iloc[k].v)}
        assert idx.node(p) in ends, p.name
    if region == "kotka":
        import networkx as nx
        main = max(nx.connected_components(city.graph), key=len)
        assert idx.node(idx.named("Ekami malminki")[0]) in main
        assert idx.node(idx.named("Helilän koulu")[0]) not in main
