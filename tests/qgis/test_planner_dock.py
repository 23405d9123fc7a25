"""The Planner dock opens, runs a heuristic job in a QgsTask, shows results, cancels, keeps settings."""
from __future__ import annotations

import pytest
from qgis.core import QgsProject, QgsSettings

from plugin.gui.planner_dock import PLAN_LAYER, SETTINGS, PlannerDock
from tests.core.sandbox_helpers import toy_workspace

pytestmark = pytest.mark.qgis


@pytest.fixture
def dock(qgis_app, qtbot, tmp_path, monkeypatch):
    _, ws = toy_workspace(tmp_path / "ws", monkeypatch)
    d = PlannerDock()
    qtbot.addWidget(d)
    d.workspace.setText(str(ws))
    d.show()
    yield d
    d.cancel()


def test_runs_a_heuristic_and_shows_the_best_plan(dock, qtbot, tmp_path):
    from plugin.sandbox import write_workspace
    from tests.core.test_task_station import hand  # a station instance with point geometries

    dock.workspace.setText(str(write_workspace(hand(), tmp_path / "station")))
    dock.method.setCurrentText("greedy")
    dock.time_limit.setValue(5)
    assert dock.start() is not None
    qtbot.waitUntil(lambda: dock.last_result is not None, timeout=20000)
    assert dock.last_result["valid"] and dock.proposals.rowCount() == 1
    assert dock.proposals.item(0, 2).text() == "yes" and dock.chart.values
    layers = QgsProject.instance().mapLayersByName(PLAN_LAYER)
    assert len(layers) == 1 and layers[0].featureCount() == len(dock.last_result["candidate_ids"])
    assert QgsSettings().value(SETTINGS + "method") == "greedy"


def test_cancel_stops_a_long_run(dock, qtbot):
    dock.method.setCurrentText("alns")
    dock.time_limit.setValue(600)
    task = dock.start()
    qtbot.waitUntil(lambda: dock.cancel_button.isEnabled(), timeout=5000)
    dock.cancel()
    qtbot.waitUntil(lambda: dock.last_result is not None, timeout=20000)
    assert dock.run_button.isEnabled() and not dock.cancel_button.isEnabled()
    assert task is not None


def test_not_a_workspace_is_one_clear_line(dock):
    dock.workspace.setText("/nonexistent")
    assert dock.start() is None and "not a workspace" in dock.turns.toPlainText()
