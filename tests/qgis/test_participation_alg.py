"""The "Participatory revision" Processing algorithm in real QGIS (offscreen)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.qgis


def parcel_layer(uses):
    from qgis.core import QgsFeature, QgsField, QgsGeometry, QgsVectorLayer

    from cityplanner.plugin.qgis_io.compat import field_type

    layer = QgsVectorLayer("Polygon?crs=EPSG:3857", "parcels", "memory")
    layer.dataProvider().addAttributes([QgsField("use", field_type("string"))])
    layer.updateFields()
    feats = []
    for k, use in enumerate(uses):
        x, y = (k % 6) * 200, (k // 6) * 200
        f = QgsFeature(layer.fields())
        f.setGeometry(QgsGeometry.fromWkt(f"POLYGON(({x} {y},{x+190} {y},{x+190} {y+190},{x} {y+190},{x} {y}))"))
        f.setAttributes([use])
        feats.append(f)
    layer.dataProvider().addFeatures(feats)
    return layer


USES = ["residential", "business", "office", "school", "residential", "recreation",
        "green_l", "residential", "hospital_s", "green_s", "residential", "hospital_l"]


ALG = "cityplanner:participatoryrevision"  # by id: a bare algorithm object passed to processing.run
# is taken over by QGIS and freed twice at interpreter exit (segfault)


def test_participatory_revision_algorithm(cityplanner_provider, tmp_path):
    import processing
    from qgis.core import QgsProcessingException, QgsVectorLayer

    params = {"INPUT": parcel_layer(USES), "FIELD": "use", "RESIDENTS": 120, "ROUNDS": 2, "SPEAKERS": 10,
              "COMMUNITIES": 2, "SEED": 0, "BASELINES": False, "PERSONA": 0, "OUTPUT": str(tmp_path / "revised.gpkg"),
              "METRICS": str(tmp_path / "m.json"), "TRANSCRIPT": str(tmp_path / "t.jsonl")}
    out = processing.run(ALG, params)
    layer = QgsVectorLayer(out["OUTPUT"], "revised", "ogr")
    assert layer.featureCount() == len(USES)
    assert {"landuse_before", "landuse", "changed", "satisfaction"} <= set(layer.fields().names())
    m = json.loads((tmp_path / "m.json").read_text())
    assert set(m["before"]) == {"service", "ecology", "satisfaction", "inclusion"}
    assert m["config"]["persona"] == "rules" and "llm" not in m
    assert len((tmp_path / "t.jsonl").read_text().splitlines()) == 2 * 2 + 2
    assert m["program"]["source"] == "the layer's current plan" and m["config"]["max_changes"] == 3
    # a layer still open when a later run fails is kept alive by the traceback and crashes
    # QGIS's exit (segfault, exit code 139): close it first
    del layer
    with pytest.raises(QgsProcessingException, match="unknown land-use values park"):
        processing.run(ALG, {**params, "INPUT": parcel_layer(["park"] + USES[1:])})
    # the LLM persona with a model file that is not there: one clear line, before any work
    with pytest.raises(QgsProcessingException, match="model file not found"):
        processing.run(ALG, {**params, "PERSONA": 1, "MODEL": str(tmp_path / "none.gguf")})


def test_bundled_sample_with_its_objectives_and_bounded_changes(cityplanner_provider, tmp_path):
    """The bundled HLG sample: quotas from objectives_hlg.yaml beside it, at most K = 1 change per
    community (4), the changes CSV written, quota counts kept."""
    import csv

    import processing
    from qgis.core import QgsVectorLayer

    from cityplanner.plugin import RESOURCES

    # the DRL file mixes parcels, roads and junctions: QGIS opens its polygons with this filter
    path = str(RESOURCES / "participation" / "samples" / "hlg.geojson") + "|geometrytype=Polygon"
    out = processing.run(ALG, {"INPUT": path, "FIELD": "type", "RESIDENTS": 300, "ROUNDS": 2, "SPEAKERS": 20,
                               "COMMUNITIES": 4, "SEED": 1, "MAX_CHANGES": 1, "OUTPUT": str(tmp_path / "r.gpkg"),
                               "METRICS": str(tmp_path / "m.json"), "TRANSCRIPT": str(tmp_path / "t.jsonl"),
                               "CHANGES": str(tmp_path / "c.csv")})
    m = json.loads((tmp_path / "m.json").read_text())
    assert m["program"]["source"] == "objectives file objectives_hlg.yaml"
    rows = list(csv.DictReader(Path(out["CHANGES"]).read_text().splitlines()))
    assert len(rows) == m["changed_parcels"] <= 4
    layer = QgsVectorLayer(out["OUTPUT"], "r", "ogr")
    before = sorted(f["landuse_before"] for f in layer.getFeatures())
    after = sorted(f["landuse"] for f in layer.getFeatures())
    assert before == after   # the type counts hold
    del layer
    with pytest.raises(Exception, match="is not TYPE=COUNT"):
        processing.run(ALG, {"INPUT": path, "FIELD": "type", "NEED": "school:2", "RESIDENTS": 50, "SPEAKERS": 5,
                             "OUTPUT": "memory:", "METRICS": str(tmp_path / "m2.json"),
                             "TRANSCRIPT": str(tmp_path / "t2.jsonl")})


def test_llm_options_are_advanced():
    from cityplanner.plugin.qgis_io.compat import ProcessingParameterFlag
    from cityplanner.processing_algorithms.participatory_revision import ParticipatoryRevision

    alg = ParticipatoryRevision()
    alg.initAlgorithm()
    assert alg.parameterDefinition("PERSONA").defaultValue() == 0   # rules
    for name in ("MODEL", "THREADS", "MAX_TOKENS", "ECOLOGY_LOSS"):
        assert alg.parameterDefinition(name).flags() & ProcessingParameterFlag.Advanced, name
