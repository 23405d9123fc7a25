"""Shared by the session scripts that run inside a real QGIS desktop (``qgis --code``): the
record a session writes (CP_OUT/CP_NAME.json), screenshots, the guard that turns an exception
into a recorded error, a watchdog, and the quit that keeps QGIS's settings (a restart reads them).

A session script does ``sys.path.insert(0, os.environ["CP_SESSION_LIB"])`` and imports this."""
import json
import os
import time
import traceback
from pathlib import Path

import qgis.utils
from qgis.core import QgsApplication, QgsSettings
from qgis.PyQt.QtCore import QTimer
from qgis.PyQt.QtWidgets import QApplication

OUT = Path(os.environ["CP_OUT"])
NAME = os.environ["CP_NAME"]
state: dict = {"messages": [], "steps": [], "error": None}
started = time.monotonic()


def _log(msg: str, tag: str, level) -> None:
    if tag == "CityPlanner" or "cityplanner" in msg.lower():
        state["messages"].append(f"{tag}: {msg[:2000]}")


QgsApplication.messageLog().messageReceived.connect(_log)


def shot(name: str) -> None:
    """A screenshot of the main window as ``CP_NAME-<name>.png``."""
    QApplication.processEvents()
    qgis.utils.iface.mainWindow().grab().save(str(OUT / f"{NAME}-{name}.png"))
    state["steps"].append(name)


def finish(error: str | None = None) -> None:
    """Write the record and leave. QGIS 3.22 can crash while tearing Python down at exit, so the
    settings are written out first (the next start reads them) and the process ends here."""
    state["error"] = error
    state["seconds"] = round(time.monotonic() - started, 1)
    QgsSettings().sync()
    (OUT / f"{NAME}.json").write_text(json.dumps(state, indent=1, default=str))
    os._exit(0)


def guarded(fn):
    """Run `fn` from a timer; any exception ends the session with its traceback recorded."""
    def run():
        try:
            fn()
        except Exception:  # noqa: BLE001 (recorded for the test to show)
            finish(traceback.format_exc()[-1500:])
    return run


def only_ours(bar) -> None:
    """Pop QGIS's own notices (a font download without network; "Task complete") that would
    stack on top of CityPlanner's message in a screenshot."""
    for item in bar.items():
        if "CityPlanner" not in item.title():
            bar.popWidget(item)


def bar_text(bar) -> str:
    """All text the message bar's widgets show (labels, line edits, text browsers)."""
    from qgis.PyQt.QtWidgets import QLabel, QLineEdit, QTextBrowser

    return " ".join(x.toPlainText() if isinstance(x, QTextBrowser) else x.text()
                    for x in bar.findChildren((QLabel, QLineEdit, QTextBrowser)))


def plugin_state() -> dict:
    """Whether QGIS has the plugin enabled (its setting) and loaded and started (qgis.utils)."""
    return {"enabled": QgsSettings().value("PythonPlugins/cityplanner", False, bool),
            "loaded": "cityplanner" in qgis.utils.plugins,
            "active": "cityplanner" in qgis.utils.active_plugins}


def python_error(etype, value, tb, *args, **kwargs) -> None:
    """QGIS's Python error dialog is modal: record the error and end the session instead."""
    finish("".join(traceback.format_exception(etype, value, tb))[-1500:])


def start(first_step, delay_ms: int = 4000) -> None:
    """Hook the error dialog, arm the watchdog (CP_WATCHDOG_S, default 1200 s) and run
    `first_step` once QGIS has settled."""
    qgis.utils.showException = python_error
    QTimer.singleShot(int(os.environ.get("CP_WATCHDOG_S", "1200")) * 1000,
                      lambda: finish("watchdog: session took too long"))
    QTimer.singleShot(delay_ms, first_step)
