"""The Planner dock's instruction line: price an instruction, apply it, see both plans on the
map, list and remove it — with real QGIS, a real instance and the real MILP."""
from __future__ import annotations

import pytest
from qgis.core import QgsApplication, QgsProject

from cityplanner.plugin.constraints import store
from cityplanner.plugin.gui.instruction_panel import AFTER_LAYER, BEFORE_LAYER
from cityplanner.plugin.gui.planner_dock import PlannerDock

pytestmark = pytest.mark.qgis


@pytest.fixture
def dock(qgis_app, qtbot, tmp_path):
    from cityplanner.plugin.city import load_city
    from cityplanner.plugin.sandbox import write_workspace
    from cityplanner.plugin.tasks import task_class

    ws = write_workspace(task_class("station").build(load_city("helsinki"), "small", seed=0), tmp_path / "ws")
    d = PlannerDock()
    qtbot.addWidget(d)
    d.workspace.setText(str(ws))
    d.show()
    yield d
    QgsApplication.taskManager().cancelAll()
    for layer in QgsProject.instance().mapLayers().values():
        if layer.name().startswith("CityPlanner"):
            QgsProject.instance().removeMapLayer(layer.id())


def reply_of(panel, qtbot, apply: bool) -> dict:
    panel.last = None
    assert panel.run(apply=apply) is not None
    qtbot.waitUntil(lambda: panel.last is not None, timeout=120000)
    return panel.last


def test_price_apply_show_and_remove(dock, qtbot):
    panel = dock.instructions
    panel.line.setText("no site 3")
    priced = reply_of(panel, qtbot, apply=False)
    assert not priced["applied"] and store.load(dock.workspace.text()) == []
    assert "this instruction costs" in panel.price.text() and "%" in panel.price.text()
    before, after = (QgsProject.instance().mapLayersByName(n) for n in (BEFORE_LAYER, AFTER_LAYER))
    assert before[0].featureCount() == len(priced["plan"]["before_ids"])
    assert after[0].featureCount() == len(priced["plan"]["candidate_ids"])
    assert not any(i.startswith("s03") for i in priced["plan"]["candidate_ids"])
    applied = reply_of(panel, qtbot, apply=True)
    assert applied["applied"]
    if priced["certified"] and applied["certified"]:   # both optimal: the same price (a loaded machine may cut a solve)
        assert applied["price"] == pytest.approx(priced["price"], abs=1e-6)
    assert panel.stored.count() == 1 and panel.stored.item(0).text().startswith("c1: no candidate at no. 3")
    panel.stored.item(0).setSelected(True)
    panel.remove_selected()
    assert panel.stored.count() == 0 and store.load(dock.workspace.text()) == []


def test_unclear_instruction_asks(dock, qtbot):
    dock.instructions.line.setText("make it greener")
    reply = reply_of(dock.instructions, qtbot, apply=True)
    assert reply["clarification"] and "no measurable target" in dock.instructions.price.text()
    assert dock.instructions.stored.count() == 0


def test_selected_features_are_the_area(dock, qtbot):
    import shapely

    from cityplanner.plugin.constraints.compile import candidate_geometries
    from cityplanner.plugin.sandbox.workspace import load_instance

    inst = load_instance(dock.workspace.text())
    g = candidate_geometries(inst)
    box = shapely.box(*shapely.bounds(shapely.union_all(g[:20]))).buffer(1.0)   # around the first sites
    dock.instructions.selection = lambda ws: box.wkt
    dock.instructions.line.setText("only inside the selection")
    reply = reply_of(dock.instructions, qtbot, apply=False)
    assert reply["after"]["valid"] and reply["constraints"][0]["kind"] == "inside_area"
    inside = shapely.within(g, box)
    assert all(inside[inst.index[i]] for i in reply["plan"]["candidate_ids"])
    dock.instructions.selection = lambda ws: None
    assert "select the features" in reply_of(dock.instructions, qtbot, apply=False)["clarification"]


def test_an_instruction_draws_its_place_and_ring_and_zooms_there(dock, qtbot, qgis_iface):
    """"keep chargers at least 300 m away from Kaisaniemen puisto": the park and a 300 m ring
    around it, one layer group, the map on them."""
    import shapely

    from cityplanner.plugin.sandbox.workspace import load_instance

    from qgis.core import QgsCoordinateReferenceSystem

    crs = load_instance(dock.workspace.text()).crs
    qgis_iface.mapCanvas().setDestinationCrs(QgsCoordinateReferenceSystem(crs))
    panel = dock.instructions
    panel.line.setText("keep chargers at least 300 m away from Kaisaniemen puisto")
    reply = reply_of(panel, qtbot, apply=False)
    assert reply["places"] and reply["places"][0]["distance_m"] == 300
    group = QgsProject.instance().layerTreeRoot().children()[0]
    assert group.name().startswith("CityPlanner instruction · place · ")
    place, ring = (node.layer() for node in group.children())
    assert (place.name(), ring.name()) == ("place", "distance ring")
    assert place.crs().authid() == ring.crs().authid() == crs
    park = shapely.from_wkt(reply["places"][0]["wkt"])
    drawn = shapely.from_wkt(next(ring.getFeatures()).geometry().asWkt())
    # independently: every point of the ring's edge lies 300 m (± the buffer's facets) from the park
    edge = shapely.get_coordinates(drawn.boundary)
    assert all(296 <= park.distance(shapely.Point(x, y)) <= 300.5 for x, y in edge)
    ext = qgis_iface.mapCanvas().extent()
    minx, miny, maxx, maxy = drawn.bounds
    assert ext.xMinimum() <= minx and ext.xMaximum() >= maxx and ext.yMinimum() <= miny and ext.yMaximum() >= maxy
    assert ext.width() < 10 * (maxx - minx)
    QgsProject.instance().layerTreeRoot().removeChildNode(group)
