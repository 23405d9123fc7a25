"""One layer group per run, saved into the workspace's GeoPackage (it survives a restart), and
replaced — not stacked — when the same run is saved again."""
from __future__ import annotations

from datetime import datetime

import geopandas as gpd
import pyogrio
import pytest
import shapely

pytestmark = pytest.mark.qgis


def plan_layer(n: int, name: str = "plan"):
    from cityplanner.plugin.qgis_io.report_map import memory_layer

    frame = gpd.GeoDataFrame({"id": [f"s{i}" for i in range(n)], "contribution": [0.1 * i for i in range(n)]},
                             geometry=[shapely.Point(500000 + 10 * i, 6700000) for i in range(n)], crs="EPSG:3067")
    return memory_layer(frame, name, "EPSG:3067", "plan_station")


def test_a_run_group_is_saved_and_replaced(qgis_app, tmp_path):
    from qgis.core import QgsProject

    from cityplanner.plugin.qgis_io.run_layers import GPKG, run_group_name, save_run_group

    project = QgsProject()
    group = run_group_name("station", "default", datetime(2026, 12, 1, 14, 5, 31))
    assert group == "CityPlanner station · default · 14:05:31"
    layers = save_run_group(tmp_path, group, [plan_layer(3), plan_layer(2, "sites by street")], project)
    gpkg = tmp_path / GPKG
    tables = {name for name, _ in pyogrio.list_layers(gpkg)}
    assert tables == {"station_default_14_05_31_plan", "station_default_14_05_31_sites_by_street"}
    back = gpd.read_file(gpkg, layer="station_default_14_05_31_plan")   # what a restarted QGIS reads
    assert list(back["id"]) == ["s0", "s1", "s2"] and back.crs.to_epsg() == 3067
    node = project.layerTreeRoot().findGroup(group)
    assert [c.name() for c in node.children()] == ["plan", "sites by street"]
    assert all(lyr.providerType() == "ogr" and str(gpkg) in lyr.source() for lyr in layers)
    assert layers[0].renderer().type() == plan_layer(1).renderer().type()
    # the same run again: one group, one copy of each layer, the new content
    save_run_group(tmp_path, group, [plan_layer(4)], project)
    groups = [g for g in project.layerTreeRoot().children() if g.name() == group]
    assert len(groups) == 1 and [c.name() for c in groups[0].children()] == ["plan"]
    assert len(project.mapLayersByName("plan")) == 1 and project.mapLayersByName("plan")[0].featureCount() == 4
    other = run_group_name("station", "greedy", datetime(2026, 12, 1, 14, 6, 0))
    save_run_group(tmp_path, other, [plan_layer(1)], project)
    assert [g.name() for g in project.layerTreeRoot().children()][:2] == [other, group]   # newest on top
    assert len(gpd.read_file(gpkg, layer="station_default_14_05_31_plan")) == 4


def test_answer_layers_form_one_group_and_the_map_zooms_to_them(qgis_app, qgis_iface, qtbot, tmp_path, monkeypatch):
    """An Ask answer's layers: one group per answer in the workspace's GeoPackage, the map on them."""
    from qgis.core import QgsCoordinateReferenceSystem, QgsProject

    from cityplanner.plugin.gui.planner_dock import SOURCES, PlannerDock
    from tests.core.sandbox_helpers import toy_workspace

    _, ws = toy_workspace(tmp_path / "ws", monkeypatch)
    dock = PlannerDock()
    qtbot.addWidget(dock)
    dock.source.setCurrentText(SOURCES[0])
    dock.workspace.setText(str(ws))
    canvas = qgis_iface.mapCanvas()
    canvas.setDestinationCrs(QgsCoordinateReferenceSystem("EPSG:3067"))
    layers = dock.show_answer_layers([plan_layer(3, "sites"), plan_layer(1, "place")])
    root = QgsProject.instance().layerTreeRoot()
    group = root.children()[0]
    assert group.name().startswith("CityPlanner ask · answer · ")
    assert [c.name() for c in group.children()] == ["sites", "place"]
    assert all(str(ws / "outputs" / "layers.gpkg") in lyr.source() for lyr in layers)
    ext = canvas.extent()
    # the points span x 500000..500020 at y 6700000: the view holds them, and is not the world
    assert ext.xMinimum() <= 500000 and ext.xMaximum() >= 500020 and ext.yMinimum() <= 6700000 <= ext.yMaximum()
    assert ext.width() < 5000
    QgsProject.instance().removeMapLayers([lyr.id() for lyr in layers])
    root.removeChildNode(group)


def test_the_last_workspace_is_remembered_by_dialogs_and_the_dock(qgis_app, qtbot, tmp_path, monkeypatch,
                                                                    cityplanner_provider):
    from qgis.core import QgsApplication

    from cityplanner.plugin.gui.planner_dock import PlannerDock
    from cityplanner.plugin.qgis_io.workspace_memory import last_workspace, remember_workspace
    from tests.core.sandbox_helpers import toy_workspace

    _, ws = toy_workspace(tmp_path / "ws", monkeypatch)
    remember_workspace(tmp_path / "not-a-workspace")      # only a real workspace is remembered
    remember_workspace(ws)
    remember_workspace(tmp_path)
    assert last_workspace() == str(ws)
    alg = QgsApplication.processingRegistry().createAlgorithmById("cityplanner:evaluateplan")
    assert alg.parameterDefinition("WORKSPACE").defaultValue() == str(ws)   # a new dialog starts there
    dock = PlannerDock()
    qtbot.addWidget(dock)
    assert dock.workspace.text() == str(ws)


def test_no_label_is_drawn_twice_over_a_kept_plan(qgis_app, qtbot, tmp_path, monkeypatch):
    """The live best plan and the run's kept copy show the same sites: only one labels them."""
    from qgis.core import QgsProject

    from cityplanner.plugin.gui.planner_dock import PLAN_LAYER, SOURCES, PlannerDock
    from cityplanner.plugin.sandbox import write_workspace
    from tests.core.test_task_station import hand

    ws = write_workspace(hand(), tmp_path / "station")
    dock = PlannerDock()
    qtbot.addWidget(dock)
    dock.source.setCurrentText(SOURCES[0])
    dock.workspace.setText(str(ws))
    dock.method.setCurrentText("greedy")
    dock.time_limit.setValue(2)
    assert dock.start() is not None
    qtbot.waitUntil(lambda: dock.last_result is not None, timeout=60000)
    live = QgsProject.instance().mapLayersByName(PLAN_LAYER)
    kept = [lyr for lyr in QgsProject.instance().mapLayers().values() if lyr.name().startswith("CityPlanner plan (")]
    assert len(live) == 1 and len(kept) == 1
    assert {f["id"] for f in kept[0].getFeatures()} <= {f["id"] for f in live[0].getFeatures()} | set(
        dock.last_result["candidate_ids"])
    labelled = [lyr for lyr in live + kept if lyr.labelsEnabled()]
    assert len(labelled) <= 1 and not kept[0].labelsEnabled()
    dock.keep_layer()   # pressing Keep plan again: still one kept copy
    assert len([lyr for lyr in QgsProject.instance().mapLayers().values()
                if lyr.name().startswith("CityPlanner plan (")]) == 1
    QgsProject.instance().removeMapLayers([lyr.id() for lyr in QgsProject.instance().mapLayers().values()
                                           if lyr.name().startswith("CityPlanner")])
