"""'Build city model' through processing.run on real data and on bad input."""
import processing
import pytest
from qgis.core import QgsFeature, QgsGeometry, QgsProcessingException, QgsVectorLayer

from cityplanner.plugin import PLUGIN_ROOT
from cityplanner.plugin.city import load_city
from cityplanner.plugin.qgis_io.compat import GeometryType

pytestmark = pytest.mark.qgis
OUTS = {k: "TEMPORARY_OUTPUT" for k in ("FACES", "OUTPUT_ROADS", "JUNCTIONS", "DEMAND")}


def _run(params):
    return processing.run("cityplanner:buildcitymodel", {**OUTS, **params})


@pytest.fixture(scope="module")
def kotka_result(cityplanner_provider):
    return _run({"INPUT": str(PLUGIN_ROOT / "resources/data/kotka.osm.pbf")})


def test_outputs_have_expected_types_crs_and_counts(kotka_result):
    city = load_city("kotka")
    want = {"FACES": (GeometryType.Polygon, len(city.faces)),
            "OUTPUT_ROADS": (GeometryType.Line, len(city.edges)),
            "JUNCTIONS": (GeometryType.Point, len(city.nodes)),
            "DEMAND": (GeometryType.Point, len(city.faces))}
    for key, (gtype, count) in want.items():
        layer = kotka_result[key]
        assert layer.geometryType() == gtype, key
        assert layer.crs().authid() == "EPSG:32635", key
        assert layer.featureCount() == count > 10, key
    faces = kotka_result["FACES"]
    assert {"area", "demand", "entry_nodes", "vacant"} <= set(faces.fields().names())
    total = sum(f["demand"] for f in kotka_result["DEMAND"].getFeatures())
    assert total == pytest.approx(city.faces["demand"].sum())


def _memory_layer(kind, crs, fields, geoms):
    layer = QgsVectorLayer(f"{kind}?crs={crs}&" + "&".join(f"field={f}" for f in fields), "t", "memory")
    feats = []
    for g, attrs in geoms:
        f = QgsFeature(layer.fields())
        f.setGeometry(QgsGeometry.fromWkt(g))
        f.setAttributes(attrs)
        feats.append(f)
    layer.dataProvider().addFeatures(feats)
    return layer


def _grid(crs="EPSG:3067", field="highway:string"):
    lines = [f"LINESTRING(0 {y}, 300 {y})" for y in (0, 100, 200, 300)]
    lines += [f"LINESTRING({x} 0, {x} 300)" for x in (0, 100, 200, 300)]
    return _memory_layer("LineString", crs, [field], [(g, ["residential"]) for g in lines])


def test_user_layers_build_a_city(cityplanner_provider):
    b = _memory_layer("Polygon", "EPSG:3067", ["building:string", "levels:double"],
                      [("POLYGON((20 20, 40 20, 40 40, 20 40, 20 20))", ["house", 2.0])])
    r = _run({"ROADS": _grid(), "HIGHWAY_FIELD": "highway", "BUILDINGS": b, "BUILDING_FIELD": "building",
              "LEVELS_FIELD": "levels"})
    assert r["FACES"].featureCount() == 9
    assert sum(f["demand"] for f in r["DEMAND"].getFeatures()) == pytest.approx(800 / 40)


@pytest.mark.parametrize("params,msg", [
    ({}, "give an OSM extract or a road layer"),
    ({"ROADS": "NOCRS"}, "no valid CRS"),
    ({"ROADS": "EMPTY"}, "no features"),
    ({"INPUT": "MISSING"}, "missing file"),
])
def test_bad_input_raises_one_line(cityplanner_provider, tmp_path, params, msg):
    layers = {"NOCRS": _grid("none"), "EMPTY": _memory_layer("LineString", "EPSG:3067", ["highway:string"], []),
              "MISSING": str(tmp_path / "missing.osm.pbf")}
    params = {k: layers.get(v, v) if isinstance(v, str) else v for k, v in params.items()}
    with pytest.raises(QgsProcessingException, match=msg) as e:
        _run(params)
    assert "\n" not in str(e.value)
