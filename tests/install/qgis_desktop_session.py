"""Run inside a real QGIS desktop window (``qgis --code``) under Xvfb on a fresh profile:
screenshot the CityPlanner message bar, click its Install… button (the plugin's installer in
a QgsTask), wait, run Build + Solve station placement (``default``) through Processing, show
the provider in the Processing Toolbox, screenshot it, write session.json and quit.
CP_OUT names the folder for the screenshots and session.json."""
import json
import os
import time
import traceback
from pathlib import Path

from qgis.core import QgsApplication
from qgis.PyQt.QtCore import QTimer
from qgis.PyQt.QtWidgets import QApplication, QDockWidget, QLineEdit, QPushButton
import qgis.utils
from qgis.utils import iface, plugins

OUT = Path(os.environ["CP_OUT"])
PBF = os.environ["CP_PBF"]
state = {"messages": [], "bar": [], "steps": []}
QgsApplication.messageLog().messageReceived.connect(
    lambda msg, tag, level: state["messages"].append(msg[:2000]) if tag == "CityPlanner" else None)
started = time.monotonic()


def shot(name: str) -> None:
    QApplication.processEvents()
    iface.mainWindow().grab().save(str(OUT / name))
    state["steps"].append(name)


def finish(error: str | None = None) -> None:
    state["error"] = error
    state["seconds"] = round(time.monotonic() - started, 1)
    (OUT / "session.json").write_text(json.dumps(state, indent=1))
    os._exit(0)  # QGIS 3.22 can crash while tearing down Python at exit: the result is written


def guarded(fn):
    def run():
        try:
            fn()
        except Exception:  # noqa: BLE001 (recorded for the test to show)
            finish(traceback.format_exc()[-1500:])
    return run


def only_ours(bar) -> None:
    """Pop QGIS's own notices (3.40: a font download without network; "Task complete") that
    would stack on top of CityPlanner's message in the screenshot."""
    for item in bar.items():
        if "CityPlanner" not in item.title():
            bar.popWidget(item)


@guarded
def before_install() -> None:
    iface.mainWindow().setGeometry(0, 0, 1400, 900)  # Xvfb has no window manager to maximize it
    QApplication.processEvents()
    bar = iface.messageBar()
    only_ours(bar)
    state["bar"] = [w.text() for w in bar.findChildren(QPushButton)]
    state["bar_text"] = " ".join(lbl.text() for lbl in bar.findChildren(QLineEdit)) or ""
    from qgis.PyQt.QtWidgets import QLabel, QTextBrowser

    state["bar_text"] += " ".join(x.toPlainText() if isinstance(x, QTextBrowser) else x.text()
                                  for x in bar.findChildren((QLabel, QTextBrowser)))
    state["provider_before"] = QgsApplication.processingRegistry().providerById("cityplanner") is not None
    shot("1-message-bar.png")
    buttons = [b for b in bar.findChildren(QPushButton) if b.text() == "Install…"]
    if not buttons:
        return finish("no Install… button in the message bar")
    buttons[0].click()
    QTimer.singleShot(1000, wait_for_install)


@guarded
def wait_for_install() -> None:
    plugin = plugins["cityplanner"]
    if plugin.install_task is not None:
        if time.monotonic() - started > 900:
            return finish("install did not finish in 15 minutes")
        QTimer.singleShot(1000, wait_for_install)
        return
    state["provider_after"] = QgsApplication.processingRegistry().providerById("cityplanner") is not None
    if not state["provider_after"]:
        return finish("provider not registered after the install")
    import processing

    ws = OUT / "ws"
    b = processing.run("cityplanner:buildstationinstance",
                       {"INPUT": PBF, "WORKSPACE": str(ws), "CANDIDATES": str(OUT / "candidates.gpkg")})
    s = processing.run("cityplanner:solvestation", {"WORKSPACE": str(ws), "METHOD": 0, "TIME_LIMIT": 20,
                                                      "OUTPUT": str(OUT / "plan.gpkg")})
    state["solve"] = {"candidates": b["CANDIDATE_COUNT"], **{k: s[k] for k in ("VALID", "SCORE", "UPPER_BOUND", "GAP")}}
    toolbox = iface.mainWindow().findChild(QDockWidget, "ProcessingToolbox")
    toolbox.show()
    toolbox.raise_()
    search = toolbox.findChild(QLineEdit)
    if search is not None:
        search.setText("CityPlanner")
    QTimer.singleShot(1500, after_install)


@guarded
def after_install() -> None:
    only_ours(iface.messageBar())
    state["bar_after"] = [item.text() for item in iface.messageBar().items()]
    shot("2-installed-provider.png")
    finish()


def python_error(etype, value, tb, *args, **kwargs) -> None:
    """QGIS's Python error dialog is modal: record the error and end the session instead."""
    finish("".join(traceback.format_exception(etype, value, tb))[-1500:])


qgis.utils.showException = python_error
QTimer.singleShot(int(os.environ.get("CP_WATCHDOG_S", "1200")) * 1000, lambda: finish("watchdog: session took too long"))
QTimer.singleShot(4000, before_install)
