"""resources/models/land_build_solve_evaluate.model3 loads and runs build → solve → evaluate."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.qgis.test_task_algorithms import PBF, ROOT, layer, provider  # noqa: F401 (fixture)

pytestmark = pytest.mark.qgis
MODEL = ROOT / "resources" / "models" / "land_build_solve_evaluate.model3"


def test_model_runs(provider, tmp_path):  # noqa: F811
    import processing
    from qgis.core import QgsProcessingModelAlgorithm

    model = QgsProcessingModelAlgorithm()
    assert model.fromFile(str(MODEL))
    assert [c.algorithmId() for c in sorted(model.childAlgorithms().values(), key=lambda c: c.position().y())] == [
        "cityplanner:buildlandinstance", "cityplanner:solveland", "cityplanner:evaluateplan"]
    r = processing.run(model, {"osm": str(PBF), "method": 1, "time_limit": 2,
                               "build:Workspace": str(tmp_path / "ws"), "build:Candidates": str(tmp_path / "c.gpkg"),
                               "solve:Plan": str(tmp_path / "p.gpkg"), "solve:Report": str(tmp_path / "r.html"),
                               "evaluate:Contributions": str(tmp_path / "e.gpkg")})
    assert (Path(r["build:Workspace"]) / "input" / "export.json").is_file()
    plan = layer(r["solve:Plan"])
    scores = {f["plan_score"] for f in plan.getFeatures()}
    contrib = layer(r["evaluate:Contributions"])
    assert contrib.featureCount() == plan.featureCount() > 0 and len(scores) == 1
    assert "contribution" in contrib.fields().names()
