"""QGIS startup script that produced docs/instruction_line.png (a real QGIS desktop window).

    source scripts/qgis_env.sh; unset QT_QPA_PLATFORM
    xvfb-run -a -s "-screen 0 1600x1000x24" qgis --nologo --noversioncheck --code docs/make_instruction_screenshot.py

It enables the plugin, opens the Planner dock on a small Helsinki station workspace, types an
instruction into the dock's instruction line and applies it (rules → constraint → certified
MILP re-plan in a QgsTask), shows the plans before and after on the map over the roads,
grabs the main window to ``CITYPLANNER_SHOT`` (default docs/instruction_line.png) and quits.
"""
import os
import tempfile
from pathlib import Path

import qgis.utils
from qgis.core import QgsProject, QgsVectorLayer
from qgis.PyQt.QtCore import QTimer

OUT = Path(os.environ.get("CITYPLANNER_SHOT",
                          Path(qgis.utils.home_plugin_path) / "cityplanner/docs/instruction_line.png"))
TEXT = os.environ.get("CITYPLANNER_INSTRUCTION", "Prohibit charging stations within 250 m of Helsingin yliopisto.")


def main() -> None:
    if "cityplanner" not in qgis.utils.plugins:
        qgis.utils.loadPlugin("cityplanner")
        qgis.utils.startPlugin("cityplanner")
    from cityplanner.plugin.city import load_city, write_gpkg
    from cityplanner.plugin.gui.instruction_panel import AFTER_LAYER
    from cityplanner.plugin.qgis_io.maps import apply_style
    from cityplanner.plugin.sandbox import write_workspace
    from cityplanner.plugin.tasks import task_class

    iface = qgis.utils.iface
    iface.mainWindow().resize(1600, 1000)
    tmp = Path(tempfile.mkdtemp(prefix="cityplanner-shot-"))
    city = load_city("helsinki")
    roads = QgsVectorLayer(f"{write_gpkg(city, tmp / 'helsinki.gpkg')}|layername=roads", "Helsinki roads", "ogr")
    apply_style(roads, "city_roads")
    QgsProject.instance().addMapLayer(roads)
    ws = write_workspace(task_class("station").build(city, "small", seed=0), tmp / "station")
    dock = qgis.utils.plugins["cityplanner"].dock
    dock.show()
    dock.source.setCurrentIndex(0)          # an existing workspace
    dock.workspace.setText(str(ws))
    panel = dock.instructions
    panel.line.setText(TEXT)

    def shoot() -> None:
        layers = QgsProject.instance().mapLayersByName(AFTER_LAYER)
        if layers:
            extent = layers[0].extent()
            extent.grow(700)
            iface.mapCanvas().setExtent(extent)
            iface.mapCanvas().refresh()
        QTimer.singleShot(4000, save)

    def save() -> None:
        iface.mainWindow().grab().save(str(OUT))
        print(f"screenshot: {OUT}", flush=True)
        os._exit(0)  # a throwaway profile: skip QGIS's "save project?" prompt on exit

    task = panel.run(apply=True)
    if task is not None:
        task.ended.connect(lambda _reply: QTimer.singleShot(1000, shoot))


QTimer.singleShot(3000, main)
