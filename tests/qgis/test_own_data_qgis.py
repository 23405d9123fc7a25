"""A planner's own, non-OSM-shaped layers through processing.run (tests/own_city.py): Web
Mercator and WGS 84 inputs are measured in the local UTM zone (areas within 1 % of geodesic),
the land-use codes are mapped with the LANDUSE_MAP matrix, every assumption reaches
``feedback.pushWarning``, and bad input is a one-line QgsProcessingException."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from pyproj import Geod

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import own_city  # noqa: E402

pytestmark = pytest.mark.qgis
GEOD = Geod(ellps="WGS84")
MATRIX = [c for pair in (e.split("=") for e in own_city.LANDUSE_MAP.split(",")) for c in pair]


@pytest.fixture(scope="module")
def provider(cityplanner_provider):
    return cityplanner_provider


@pytest.fixture(scope="module")
def gpkgs(tmp_path_factory):
    base = tmp_path_factory.mktemp("own_qgis")
    return {c: own_city.write(base / c.replace(":", ""), c) for c in ("EPSG:3857", "EPSG:4326")}


def lyr(g: Path, name: str):
    from qgis.core import QgsVectorLayer

    layer = QgsVectorLayer(f"{g}|layername={name}", name, "ogr")
    assert layer.isValid()
    return layer


def run(alg: str, params: dict) -> tuple[dict, list[str]]:
    import processing
    from qgis.core import QgsProcessingFeedback

    class Collect(QgsProcessingFeedback):
        def __init__(self):
            super().__init__()
            self.warnings: list[str] = []

        def pushWarning(self, text):  # noqa: N802 (QGIS API name)
            self.warnings.append(text)

    fb = Collect()
    return processing.run(f"cityplanner:{alg}", params, feedback=fb), fb.warnings


def geodesic_areas(layer) -> np.ndarray:
    from qgis.core import QgsCoordinateReferenceSystem, QgsCoordinateTransform, QgsProject
    from shapely import wkt

    t = QgsCoordinateTransform(layer.crs(), QgsCoordinateReferenceSystem("EPSG:4326"), QgsProject.instance())
    out = []
    for f in layer.getFeatures():
        g = f.geometry()
        g.transform(t)
        out.append(abs(GEOD.geometry_area_perimeter(wkt.loads(g.asWkt()))[0]))
    return np.array(out)


@pytest.mark.parametrize("crs", ["EPSG:3857", "EPSG:4326"])
def test_city_model_of_own_layers_in_any_crs(provider, gpkgs, tmp_path, crs):
    g = gpkgs[crs]
    r, warnings = run("buildcitymodel", {
        "ROADS": lyr(g, "katu"), "BUILDINGS": lyr(g, "rakennus"), "POIS": lyr(g, "palvelut"),
        "CATEGORY_FIELD": "luokka", "FACES": str(tmp_path / "f.gpkg"), "OUTPUT_ROADS": str(tmp_path / "r.gpkg"),
        "JUNCTIONS": str(tmp_path / "j.gpkg"), "DEMAND": str(tmp_path / "d.gpkg")})
    faces = _layer(r["FACES"])
    assert faces.crs().authid() == "EPSG:32635" and faces.featureCount() == 20
    areas = np.array([f["area"] for f in faces.getFeatures()])
    assert np.allclose(areas, geodesic_areas(faces), rtol=0.01)
    text = " | ".join(warnings)
    assert "working CRS EPSG:32635" in text and "no building type field" in text and "'bakery'" in text


def _layer(path):
    from qgis.core import QgsVectorLayer

    layer = QgsVectorLayer(str(path), "t", "ogr")
    assert layer.isValid(), path
    return layer


def test_land_from_coded_parcels_solves_and_revises(provider, gpkgs, tmp_path):
    ids = {}
    for crs, g in gpkgs.items():
        r, warnings = run("buildlandinstance", {
            "PARCELS": lyr(g, "kiinteisto"), "LANDUSE_FIELD": "kaavamerkinta", "LANDUSE_MAP": MATRIX,
            "NEED": "school=1,green_s=1,business=1", "WORKSPACE": str(tmp_path / f"ws{crs[5:]}"),
            "CANDIDATES": str(tmp_path / f"c{crs[5:]}.gpkg")})
        cands = _layer(r["CANDIDATES"])
        assert cands.crs().authid() == "EPSG:32635"
        ids[crs] = sorted(f["id"] for f in cands.getFeatures())
        assert any("mapped to 'ignore'" in w for w in warnings)
    assert ids["EPSG:3857"] == ids["EPSG:4326"] and len(ids["EPSG:3857"]) == 40
    s, _ = run("solveland", {"WORKSPACE": str(tmp_path / "ws3857"), "METHOD": 1, "TIME_LIMIT": 2,
                             "OUTPUT": str(tmp_path / "p.gpkg")})
    assert s["VALID"] is True
    p, warnings = run("participatoryrevision", {
        "INPUT": lyr(gpkgs["EPSG:4326"], "kiinteisto"), "FIELD": "kaavamerkinta", "LANDUSE_MAP": MATRIX,
        "RESIDENTS": 100, "ROUNDS": 1, "SPEAKERS": 10, "COMMUNITIES": 2, "OUTPUT": str(tmp_path / "rev.gpkg"),
        "METRICS": str(tmp_path / "m.json"), "TRANSCRIPT": str(tmp_path / "t.jsonl")})
    assert _layer(p["OUTPUT"]).crs().authid() == "EPSG:32635"
    assert any("working CRS" in w for w in warnings)


def test_bad_own_layers_are_one_line(provider, gpkgs, tmp_path):
    from qgis.core import QgsFeature, QgsGeometry, QgsProcessingException, QgsVectorLayer

    g = gpkgs["EPSG:3857"]
    no_crs = QgsVectorLayer("LineString?crs=none", "nocrs", "memory")
    f = QgsFeature()
    f.setGeometry(QgsGeometry.fromWkt("LINESTRING(0 0, 100 0)"))
    no_crs.dataProvider().addFeatures([f])
    out = {"WORKSPACE": str(tmp_path / "w"), "CANDIDATES": str(tmp_path / "c.gpkg")}
    cases = [
        ({"PARCELS": lyr(g, "kiinteisto"), "LANDUSE_FIELD": "kaavamerkinta", "NEED": "school=1"},
         "unknown land-use values 9100101"),
        ({"PARCELS": lyr(g, "kiinteisto"), "LANDUSE_FIELD": "kaavamerkinta", "LANDUSE_MAP": ["9100101", "park"],
          "NEED": "school=1"}, "'park' is not a planning type"),
        ({"ROADS": no_crs}, "no valid CRS"),
        ({"ROADS": lyr(g, "katu"), "DEMAND_LAYER": lyr(g, "asukkaat"), "DEMAND_FIELD": "nimi"}, "missing field nimi"),
    ]
    for params, said in cases:
        with pytest.raises(QgsProcessingException) as e:
            run("buildlandinstance", {**params, **out})
        assert said in str(e.value) and "\n" not in str(e.value).strip()
    assert not (tmp_path / "w").exists()


def test_participation_dock_maps_coded_parcels(gpkgs, qgis_app, qgis_new_project, qtbot):
    """The dock's mapping table lists the field's values with their counts (none implied for
    cadastral codes); mapped, the run works and its layers sit in the working CRS."""
    from qgis.core import QgsApplication, QgsProject

    from cityplanner.plugin.gui.participation_dock import ParticipationDock

    layer = lyr(gpkgs["EPSG:3857"], "kiinteisto")
    QgsProject.instance().addMapLayer(layer)
    dock = ParticipationDock()
    dock.layer.setLayer(layer)
    dock.field.setField("kaavamerkinta")
    rows = {dock.mapping.item(r, 0).text(): int(dock.mapping.item(r, 1).text()) for r in range(dock.mapping.rowCount())}
    codes = own_city.frames()["kiinteisto"]["kaavamerkinta"].value_counts()
    assert rows == {str(k): int(n) for k, n in codes.items()}
    assert dock.landuse_map() == {}
    wanted = dict(e.split("=") for e in own_city.LANDUSE_MAP.split(","))
    for r in range(dock.mapping.rowCount()):
        dock.mapping.cellWidget(r, 2).setCurrentText(wanted[dock.mapping.item(r, 0).text()])
    assert dock.landuse_map() == wanted
    for key, v in {"residents": 60, "rounds": 1, "speakers": 5, "communities": 1}.items():
        dock.spins[key].setValue(v)
    dock.run_btn.click()
    qtbot.waitUntil(lambda: dock.task is None, timeout=30_000)
    assert QgsApplication.taskManager().countActiveTasks() == 0
    text = dock.log.toPlainText()
    assert "warning: " in text and "after:" in text, text
    out = [x for x in QgsProject.instance().mapLayers().values() if x.name() == "Participation parcels"]
    assert out and out[0].crs().authid() == "EPSG:32635"
    dock.deleteLater()
