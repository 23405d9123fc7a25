"""The Participation dock in real QGIS (offscreen): Run in a QgsTask end to end, and Cancel."""
from __future__ import annotations

import pytest

from .test_participation_alg import USES, parcel_layer

pytestmark = pytest.mark.qgis

TASK_TIMEOUT_MS = 20_000


def dock_on(layer, **values):
    from cityplanner.plugin.gui.participation_dock import ParticipationDock

    dock = ParticipationDock()
    dock.layer.setLayer(layer)
    dock.field.setField("use")
    for key, v in values.items():
        dock.spins[key].setValue(v)
    dock.persona.setCurrentText("rules")
    return dock


def participation_layers():
    from qgis.core import QgsProject

    return [lyr for lyr in QgsProject.instance().mapLayers().values() if lyr.name().startswith("Participation ")]


def test_dock_runs_task_end_to_end(qgis_app, qgis_new_project, qtbot):
    from qgis.core import QgsApplication, QgsProject

    layer = parcel_layer(USES)
    QgsProject.instance().addMapLayer(layer)
    dock = dock_on(layer, residents=60, rounds=1, speakers=5, communities=1)
    dock.run_btn.click()
    assert dock.task is not None and not dock.run_btn.isEnabled() and dock.cancel_btn.isEnabled()
    qtbot.waitUntil(lambda: dock.task is None, timeout=TASK_TIMEOUT_MS)
    assert QgsApplication.taskManager().countActiveTasks() == 0
    text = dock.log.toPlainText()
    assert "round 1" in text and "before:" in text and "after:" in text, text
    counts = {lyr.name(): lyr.featureCount() for lyr in participation_layers()}
    assert counts == {"Participation parcels": len(USES), "Participation residents": 60}
    assert dock.run_btn.isEnabled() and not dock.cancel_btn.isEnabled()
    # the change table: one row per parcel whose land use differs before → after on the layer
    parcels = next(lyr for lyr in participation_layers() if lyr.name() == "Participation parcels")
    changed = {f["id"]: f"{f['landuse_before']} → {f['landuse']}" for f in parcels.getFeatures()
               if f["landuse_before"] != f["landuse"]}
    table = {dock.changes.item(r, 0).text(): dock.changes.item(r, 1).text() for r in range(dock.changes.rowCount())}
    assert table and {str(k): v for k, v in changed.items()} == table
    assert all(dock.changes.item(r, 3).text() for r in range(dock.changes.rowCount()))
    assert parcels.labelsEnabled()   # the style labels changed parcels "before → after"
    dock.deleteLater()


def test_dock_cancel_mid_run(qgis_app, qgis_new_project, qtbot):
    """A run long enough to be caught running (many residents and rounds); Cancel stops it at
    the next round: no layers, the log says so, the buttons come back."""
    from qgis.core import QgsProject, QgsTask

    layer = parcel_layer(USES)
    QgsProject.instance().addMapLayer(layer)
    dock = dock_on(layer, residents=20000, rounds=20, speakers=1000, communities=2)
    dock.run_btn.click()
    task = dock.task
    qtbot.waitUntil(lambda: task.status() == QgsTask.TaskStatus.Running, timeout=TASK_TIMEOUT_MS)
    dock.cancel_btn.click()
    qtbot.waitUntil(lambda: dock.task is None, timeout=TASK_TIMEOUT_MS)
    assert "error: participation cancelled" in dock.log.toPlainText()   # Cancelled raised inside the run
    assert "after:" not in dock.log.toPlainText()
    assert participation_layers() == []
    assert dock.run_btn.isEnabled() and not dock.cancel_btn.isEnabled()
    dock.deleteLater()


def test_dock_runs_on_a_bundled_sample_and_explains_it(qgis_app, qgis_new_project, qtbot):
    """The hlg sample is offered, mapped and chosen with its land-use field; the LLM estimate is
    shown before a run; the result says what its measures mean."""
    from cityplanner.plugin.gui.participation_dock import ParticipationDock
    from cityplanner.plugin.participation.engine import LLM_CALL_SECONDS

    dock = ParticipationDock()
    dock.sample.setCurrentIndex(dock.sample.findData("hlg"))
    assert dock.layer.currentLayer().name() == "Sample parcels hlg" and dock.field.currentField() == "type"
    for key, v in dict(residents=200, rounds=1, speakers=8, communities=2).items():
        dock.spins[key].setValue(v)
    dock.persona.setCurrentText("llm")
    calls = 2 * 1 * (8 + 1)  # communities × rounds × (speakers + the round summary)
    assert f"{calls} calls × {LLM_CALL_SECONDS:g} s" in dock.estimate.text()
    dock.persona.setCurrentText("rules")
    dock.run_btn.click()
    qtbot.waitUntil(lambda: dock.task is None, timeout=TASK_TIMEOUT_MS * 3)
    text = dock.log.toPlainText()
    assert "after:" in text and "What the measures mean" in text and "fresh population" in text, text[-2000:]
    assert {lyr.name() for lyr in participation_layers()} == {"Participation parcels", "Participation residents"}
    # the sample has no CRS (local metres): the result must draw on a map in any project CRS
    from qgis.core import QgsCoordinateReferenceSystem, QgsMapRendererSequentialJob, QgsMapSettings
    from qgis.PyQt.QtCore import QSize

    parcels = next(lyr for lyr in participation_layers() if lyr.name() == "Participation parcels")
    settings = QgsMapSettings()
    settings.setLayers([parcels])
    settings.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:32635"))
    settings.setExtent(parcels.extent())
    settings.setOutputSize(QSize(100, 100))
    job = QgsMapRendererSequentialJob(settings)
    job.start()
    job.waitForFinished()
    image = job.renderedImage()
    drawn = sum(image.pixelColor(x, y).name() != "#ffffff" for x in range(0, 100, 5) for y in range(0, 100, 5))
    assert drawn > 100, drawn
    dock.deleteLater()
