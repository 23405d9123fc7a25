"""QGIS startup script that produced docs/planner_dock.png (a real QGIS desktop window).

    source scripts/qgis_env.sh; unset QT_QPA_PLATFORM
    xvfb-run -a -s "-screen 0 1600x1000x24" qgis --nologo --noversioncheck --code docs/make_dock_screenshot.py

It enables the plugin, opens the Planner dock, adds the Helsinki roads as a backdrop, builds a
small station instance from the bundled region, runs Greedy in the dock's QgsTask, zooms to
the styled best-plan layer, grabs the main window to ``CITYPLANNER_SHOT`` (default
docs/planner_dock.png) and quits.
"""
import os
import tempfile
from pathlib import Path

import qgis.utils
from qgis.core import QgsProject, QgsVectorLayer
from qgis.PyQt.QtCore import QTimer

OUT = Path(os.environ.get("CITYPLANNER_SHOT", Path(qgis.utils.home_plugin_path) / "cityplanner/docs/planner_dock.png"))


def main() -> None:
    if "cityplanner" not in qgis.utils.plugins:
        qgis.utils.loadPlugin("cityplanner")
        qgis.utils.startPlugin("cityplanner")
    from cityplanner.plugin.city import load_city, write_gpkg
    from cityplanner.plugin.gui.planner_dock import PLAN_LAYER
    from cityplanner.plugin.qgis_io.maps import apply_style

    iface = qgis.utils.iface
    iface.mainWindow().resize(1600, 1000)
    tmp = Path(tempfile.mkdtemp(prefix="cityplanner-shot-"))
    roads = QgsVectorLayer(f"{write_gpkg(load_city('helsinki'), tmp / 'helsinki.gpkg')}|layername=roads",
                           "Helsinki roads", "ogr")
    apply_style(roads, "city_roads")
    QgsProject.instance().addMapLayer(roads)
    dock = qgis.utils.plugins["cityplanner"].dock
    dock.show()
    dock.source.setCurrentText("Bundled region")
    dock.region.setCurrentText("helsinki")
    dock.task_kind.setCurrentText("station")
    dock.size.setCurrentText("small")
    dock.workspace.setText(str(tmp / "station"))
    dock.method.setCurrentText("greedy")
    dock.time_limit.setValue(10)

    def shoot() -> None:
        layers = QgsProject.instance().mapLayersByName(PLAN_LAYER)
        if layers:
            extent = layers[0].extent()
            extent.grow(1500)
            iface.mapCanvas().setExtent(extent)
            iface.mapCanvas().refresh()
        QTimer.singleShot(4000, save)

    def save() -> None:
        iface.mainWindow().grab().save(str(OUT))
        print(f"screenshot: {OUT}", flush=True)
        os._exit(0)  # a throwaway profile: skip QGIS's "save project?" prompt on exit

    def done(_result: dict) -> None:
        QTimer.singleShot(1000, shoot)

    dock.start()
    if dock.task is not None:
        dock.task.ended.connect(done)


QTimer.singleShot(3000, main)
