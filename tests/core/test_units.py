"""Spatial units: a synthetic town with a dual carriageway, a roundabout and an open edge."""
import geopandas as gpd
import pytest
import shapely
from shapely.geometry import LineString, Point, box

from cityplanner.plugin.city import build_city
from cityplanner.plugin.city.nonbuildable import RESERVE_WIDTH_M, sea
from cityplanner.plugin.city.units import inscribed_width
from cityplanner.plugin.tasks import task_class
from cityplanner.plugin.tasks.site_rules import SITE_RULES

CRS = "EPSG:3067"
MEDIAN = box(0, 200, 400, 214)          # between the two carriageways (centre lines 14 m apart)
ISLAND = Point(300, 100).buffer(25)     # inside the roundabout
MARGIN = box(0, 300, 400, 400)          # above the last cross street: closed by the data's edge only
POND = box(120, 20, 180, 80)


def _town() -> dict[str, gpd.GeoDataFrame]:
    ring = ISLAND.exterior
    rows = [("primary", "", LineString([(0, 200), (400, 200)])), ("primary", "", LineString([(400, 214), (0, 214)]))]
    rows += [("residential", "", LineString([(x, 0), (x, 400)])) for x in (0, 100, 200, 400)]
    rows += [("residential", "", LineString([(0, y), (400, y)])) for y in (0, 300)]
    # the cross street at y=100 and the street at x=300 stop at the roundabout
    rows += [("residential", "", LineString([(0, 100), (275, 100)])), ("residential", "", LineString([(325, 100), (400, 100)])),
             ("residential", "", LineString([(300, 0), (300, 75)])), ("residential", "", LineString([(300, 125), (300, 400)])),
             ("residential", "roundabout", ring)]
    roads = gpd.GeoDataFrame({"highway": [r[0] for r in rows], "junction": [r[1] for r in rows]},
                             geometry=[r[2] for r in rows], crs=CRS)
    houses = [box(x + 20, y + 20, x + 40, y + 40) for x in (0, 200) for y in (0, 214)]
    buildings = gpd.GeoDataFrame({"building": ["apartments"] * len(houses), "levels": [4.0] * len(houses)},
                                 geometry=houses, crs=CRS)
    masks = gpd.GeoDataFrame({"kind": ["water"]}, geometry=[POND], crs=CRS)
    return {"roads": roads, "buildings": buildings, "masks": masks}


@pytest.fixture(scope="module")
def town():
    return build_city(_town(), "town")


def test_units_leave_out_median_island_margin_and_water(town):
    f = town.faces.geometry.to_numpy()
    for where, shape in (("median", MEDIAN), ("island", ISLAND), ("margin", MARGIN)):
        assert not shapely.intersects(f, shape.buffer(-0.5)).any(), where
    assert shapely.area(shapely.intersection(f, POND)).sum() < 1e-6
    # a plain block between residential streets keeps 100 − 2·6 m on each side
    half = RESERVE_WIDTH_M["residential"] / 2
    plain = town.faces[town.faces.contains(Point(50, 50))].iloc[0]
    assert plain["area"] == pytest.approx((100 - 2 * half) ** 2, rel=0.02)
    assert plain["width"] == pytest.approx(100 - 2 * half, abs=1.0)
    assert plain["entry_nodes"]  # the way in is still the block's junctions
    # the study area in effect: what the streets enclose, not the margin
    assert town.extent.contains(Point(50, 50)) and not town.extent.contains(Point(50, 350))


def test_land_candidates_fit_their_type_and_avoid_non_land(town):
    inst = task_class("land").build(town, size="small", seed=0)
    geoms = shapely.from_wkt(inst.candidates["wkt"].to_numpy())
    for where, shape in (("median", MEDIAN), ("island", ISLAND), ("margin", MARGIN), ("water", POND)):
        assert not shapely.intersects(geoms, shape.buffer(-0.5)).any(), where
    width = inscribed_width(geoms)
    for t, a, w in zip(inst.candidates["type"], shapely.area(geoms), width, strict=False):
        assert a >= SITE_RULES[t].min_area and w >= SITE_RULES[t].min_width - 0.5, t


def test_inscribed_width_hand_computed():
    assert inscribed_width([box(0, 0, 10, 200)])[0] == pytest.approx(10.0, abs=0.5)
    assert inscribed_width([Point(0, 0).buffer(20, quad_segs=64)])[0] == pytest.approx(40.0, abs=0.5)
    # an L of two 10 m arms: the widest circle sits in the corner, touching both outer sides and the
    # inner corner: r = √2·(10 − r) → 2r = 20√2 / (1 + √2) ≈ 11.72 m
    l_shape = box(0, 0, 10, 100).union(box(0, 0, 100, 10))
    assert inscribed_width([l_shape])[0] == pytest.approx(20 * 2 ** 0.5 / (1 + 2 ** 0.5), abs=0.5)


def test_sea_is_on_the_right_of_the_coastline():
    frame = box(0, 0, 100, 100)
    coast = gpd.GeoSeries([LineString([(0, 50), (100, 50)])], crs=CRS)  # heading east: sea to the south
    water = sea(coast, frame)
    assert len(water) == 1 and water[0].contains(Point(50, 25)) and not water[0].contains(Point(50, 75))


def test_study_area_polygon_keeps_margin_blocks_clipped():
    area = gpd.GeoDataFrame(geometry=[box(-10, -10, 410, 360)], crs=CRS)
    city = build_city(_town(), "town", area=area)
    top = city.faces[city.faces.intersects(MARGIN)]
    assert len(top) and (top.geometry.bounds["maxy"] <= 360 + 1e-6).all()  # clipped to the polygon
    assert city.extent.equals(area.geometry.iloc[0])
