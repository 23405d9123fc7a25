"""Run inside a real QGIS desktop (``qgis --code``) under Xvfb, started again on the profile
the ZIP was installed into: record whether QGIS kept the plugin enabled and loaded it, screenshot
the CityPlanner message bar, click its Install… button (the plugin's installer in a QgsTask),
wait, run Build + Solve station placement (``default``) through Processing, show the provider in
the Processing Toolbox, screenshot it and quit (desktop_common writes the record)."""
import os
import sys
import time

sys.path.insert(0, os.environ["CP_SESSION_LIB"])

import desktop_common as dc  # noqa: E402
from qgis.core import QgsApplication  # noqa: E402
from qgis.PyQt.QtCore import QTimer  # noqa: E402
from qgis.PyQt.QtWidgets import QDockWidget, QLineEdit, QPushButton  # noqa: E402
from qgis.utils import iface, plugins  # noqa: E402

OUT = dc.OUT
PBF = os.environ["CP_PBF"]


@dc.guarded
def before_install() -> None:
    iface.mainWindow().setGeometry(0, 0, 1400, 900)  # Xvfb has no window manager to maximize it
    dc.state["at_start"] = dc.plugin_state()
    if not dc.state["at_start"]["active"]:
        return dc.finish("QGIS did not start the plugin after the restart")
    bar = iface.messageBar()
    dc.only_ours(bar)
    dc.state["bar"] = [w.text() for w in bar.findChildren(QPushButton)]
    dc.state["bar_text"] = dc.bar_text(bar)
    dc.state["provider_before"] = QgsApplication.processingRegistry().providerById("cityplanner") is not None
    dc.shot("message-bar")
    buttons = [b for b in bar.findChildren(QPushButton) if b.text() == "Install…"]
    if not buttons:
        return dc.finish("no Install… button in the message bar")
    buttons[0].click()
    QTimer.singleShot(1000, wait_for_install)


@dc.guarded
def wait_for_install() -> None:
    plugin = plugins["cityplanner"]
    if plugin.install_task is not None:
        if time.monotonic() - dc.started > 900:
            return dc.finish("install did not finish in 15 minutes")
        QTimer.singleShot(1000, wait_for_install)
        return
    dc.state["provider_after"] = QgsApplication.processingRegistry().providerById("cityplanner") is not None
    if not dc.state["provider_after"]:
        return dc.finish("provider not registered after the install")
    import processing

    ws = OUT / "ws"
    b = processing.run("cityplanner:buildstationinstance",
                       {"INPUT": PBF, "WORKSPACE": str(ws), "CANDIDATES": str(OUT / "candidates.gpkg")})
    s = processing.run("cityplanner:solvestation", {"WORKSPACE": str(ws), "METHOD": 0, "TIME_LIMIT": 20,
                                                      "OUTPUT": str(OUT / "plan.gpkg")})
    dc.state["solve"] = {"candidates": b["CANDIDATE_COUNT"],
                         **{k: s[k] for k in ("VALID", "SCORE", "UPPER_BOUND", "GAP", "STATUS")}}
    toolbox = iface.mainWindow().findChild(QDockWidget, "ProcessingToolbox")
    toolbox.show()
    toolbox.raise_()
    search = toolbox.findChild(QLineEdit)
    if search is not None:
        search.setText("CityPlanner")
    QTimer.singleShot(1500, after_install)


@dc.guarded
def after_install() -> None:
    dc.only_ours(iface.messageBar())
    dc.state["bar_after"] = [item.text() for item in iface.messageBar().items()]
    dc.shot("installed-provider")
    dc.finish()


dc.start(before_install)
