"""Budget curve in QGIS: the Processing algorithm (table + chart in the HTML report) and the
Planner dock's button (a QgsTask, progress per point, cancel keeps the points done)."""
from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

from tests.core.test_sweep import kotka_ws  # noqa: F401 - the Kotka station workspace fixture
from tests.qgis.test_task_algorithms import provider, run  # noqa: F401 - the processing provider fixture

pytestmark = pytest.mark.qgis


def test_budget_curve_algorithm(provider, kotka_ws, tmp_path):  # noqa: F811 - fixtures
    from qgis.core import QgsVectorLayer

    alg = next(a for a in provider.algorithms() if a.name() == "budgetcurve")
    assert alg.shortHelpString() and all(p.help() for p in alg.parameterDefinitions())
    res = run("budgetcurve", {"INPUT": str(kotka_ws), "BUDGETS": "200,400,640,900", "TIME_LIMIT": 30, "WORKERS": 2,
                              "OUTPUT": str(tmp_path / "curve.csv"), "REPORT": str(tmp_path / "curve.html")})
    table = QgsVectorLayer(res["OUTPUT"], "curve", "ogr")
    assert table.isValid() and table.featureCount() == 4
    rows = sorted(({f.name(): v for f, v in zip(table.fields(), feat.attributes(), strict=True)}
                   for feat in table.getFeatures()), key=lambda r: float(r["budget"]))
    scores = [float(r["score"]) for r in rows]
    assert [float(r["budget"]) for r in rows] == [200, 400, 640, 900]
    assert all(b >= a - 1e-9 for a, b in zip(scores, scores[1:], strict=False)), scores
    assert all(0 <= float(r["gap"]) <= 0.01 for r in rows)
    assert all(r["sites_by_street"] for r in rows)
    assert res["MONOTONE"] and res["POINTS_DONE"] == 4 and res["MAX_GAP"] <= 0.01
    page = Path(res["REPORT"]).read_text()
    png = base64.b64decode(re.search(r"data:image/png;base64,([A-Za-z0-9+/=]+)", page).group(1))
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000


def test_budget_curve_bad_budgets_is_one_line(provider, kotka_ws, tmp_path):  # noqa: F811 - fixtures
    from qgis.core import QgsProcessingException

    with pytest.raises(QgsProcessingException) as e:
        run("budgetcurve", {"INPUT": str(kotka_ws), "BUDGETS": "200,lots", "OUTPUT": str(tmp_path / "c.csv")})
    assert "\n" not in str(e.value).strip() and not (tmp_path / "c.csv").exists()


def test_dock_button_cancel_keeps_the_points_done(qgis_app, qtbot, kotka_ws):  # noqa: F811 - fixture
    """Three budgets, one point at a time; cancel once the first is back: that point is kept
    (rows, chart), the rest are not run, and the dock says so."""
    from cityplanner.plugin.gui import budget_curve
    from cityplanner.plugin.gui.planner_dock import SOURCES, PlannerDock

    dock = PlannerDock()
    qtbot.addWidget(dock)
    dock.source.setCurrentText(SOURCES[0])
    dock.workspace.setText(str(kotka_ws))
    dock.time_limit.setValue(20)
    dock.curve.budgets.setText("200,400,640")
    progress: list[float] = []
    old = budget_curve.WORKERS
    budget_curve.WORKERS = 1
    try:
        task = dock.curve.start()
    finally:
        budget_curve.WORKERS = old
    assert task is not None
    task.progressChanged.connect(progress.append)
    task.point.connect(lambda ev: dock.curve.cancel())   # cancel as soon as one point is back
    qtbot.waitUntil(lambda: dock.curve.last_result is not None, timeout=240_000)
    res = dock.curve.last_result
    assert "error" not in res, res
    assert res["cancelled"] and 1 <= res["done"] < 3 and len(res["rows"]) == res["done"]
    assert all(r["valid"] and r["gap"] is not None for r in res["rows"])
    assert any(p >= 100.0 / 3 - 1e-6 for p in progress)
    assert (kotka_ws / budget_curve.CURVE_DIR / "sweep.png").is_file()
    assert "cancelled, points done kept" in dock.curve.status.text()
    assert dock.curve.run_button.isEnabled() and not dock.curve.cancel_button.isEnabled()


def test_budget_curve_algorithm_cancel_keeps_points(provider, kotka_ws, tmp_path):  # noqa: F811 - fixtures
    """Cancel in Processing once the first point is in: the table holds the points done."""
    from qgis.core import QgsProcessingFeedback, QgsVectorLayer

    class CancelAfterFirst(QgsProcessingFeedback):
        def setProgress(self, progress: float) -> None:  # noqa: N802 (QGIS API name)
            super().setProgress(progress)
            if progress > 0:
                self.cancel()

    res = run("budgetcurve", {"INPUT": str(kotka_ws), "BUDGETS": "200,400,640", "TIME_LIMIT": 20, "WORKERS": 1,
                              "OUTPUT": str(tmp_path / "curve.csv"), "REPORT": str(tmp_path / "curve.html")},
              CancelAfterFirst())
    table = QgsVectorLayer(res["OUTPUT"], "curve", "ogr")
    assert 1 <= res["POINTS_DONE"] < 3 and table.featureCount() == res["POINTS_DONE"]
    assert "Cancelled" in Path(res["REPORT"]).read_text()
