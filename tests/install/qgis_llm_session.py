"""Run inside a real QGIS desktop window (``qgis --code``) under Xvfb on a fresh profile with
the plugin from the ZIP: the planner's LLM round. Click the message bar's Install… (core
packages), then Plugins › CityPlanner › Install local LLM support (the same installer, the
same profile folder: pip from $CITYPLANNER_WHEELHOUSE), watch the one progress bar, then run
the Planner dock's agent for one round on a station workspace, in this QGIS process — its LLM
worker is a child of QGIS that must find llama_cpp in the profile's python/dependencies.
CP_OUT names the folder for screenshots and llm_session.json."""
import json
import os
import time
import traceback
from pathlib import Path

from qgis.core import QgsApplication
from qgis.PyQt.QtCore import QTimer
from qgis.PyQt.QtWidgets import QApplication, QProgressBar, QPushButton
import qgis.utils
from qgis.utils import iface, plugins

OUT = Path(os.environ["CP_OUT"])
PBF = os.environ["CP_PBF"]
LLM_ACTION = "Install local LLM support (llama-cpp-python)"
PROGRESS = "CityPlannerInstallProgress"   # the plugin's own bar (QgsMessageBar has a countdown one)
state = {"messages": [], "steps": [], "stages": []}
QgsApplication.messageLog().messageReceived.connect(
    lambda msg, tag, level: state["messages"].append(msg[:2000]) if tag == "CityPlanner" else None)
clock = {"start": time.monotonic()}


def shot(name: str) -> None:
    QApplication.processEvents()
    iface.mainWindow().grab().save(str(OUT / name))
    state["steps"].append(name)


def finish(error: str | None = None) -> None:
    state["error"] = error
    state["seconds"] = round(time.monotonic() - clock["start"], 1)
    (OUT / "llm_session.json").write_text(json.dumps(state, indent=1))
    os._exit(0)  # QGIS 3.22 can crash while tearing down Python at exit: the result is written


def guarded(fn):
    def run():
        try:
            fn()
        except Exception:  # noqa: BLE001 (recorded for the test to show)
            finish(traceback.format_exc()[-1500:])
    return run


def warnings_so_far() -> int:
    """Lines in python_warnings.jsonl (written by the test's startup.py from QGIS's start)."""
    path = OUT / "python_warnings.jsonl"
    return len(path.read_text().splitlines()) if path.is_file() else 0


def bar_texts() -> list[str]:
    return [item.text() for item in iface.messageBar().items()]


@guarded
def install_core() -> None:
    iface.mainWindow().setGeometry(0, 0, 1400, 900)  # Xvfb has no window manager to maximize it
    buttons = [b for b in iface.messageBar().findChildren(QPushButton) if b.text() == "Install…"]
    if not buttons:
        return finish("no Install… button in the message bar")
    state["warnings_at_start"] = warnings_so_far()
    clock["core"] = time.monotonic()
    buttons[0].click()
    QTimer.singleShot(1000, wait_core)


def watch_install(plugin, suffix: str, png: str) -> None:
    """While an install runs: is the plugin's progress bar shown, is an Install… button still
    offered, is any CityPlanner menu action still enabled (all recorded as "ever seen")."""
    bar = iface.messageBar()
    offered = [b for b in bar.findChildren(QPushButton) if b.text() == "Install…" and b.isVisible()]
    for key, seen in (("progress_seen", bool(bar.findChildren(QProgressBar, PROGRESS))),
                      ("offer_during", bool(offered)),
                      ("actions_enabled_during", any(a.isEnabled() for a in plugin.menu_actions))):
        state[key + suffix] = bool(state.get(key + suffix)) or seen
    if png not in state["steps"]:
        shot(png)


@guarded
def wait_core() -> None:
    plugin = plugins["cityplanner"]
    if plugin.install_task is not None:
        watch_install(plugin, "_core", "2-core-installing.png")
        if time.monotonic() - clock["core"] > 900:
            return finish("core install did not finish in 15 minutes")
        QTimer.singleShot(1000, wait_core)
        return
    state["core_install_s"] = round(time.monotonic() - clock["core"], 1)
    state["bar_after_core"] = bar_texts()
    if plugin.dock is None:
        return finish("no Planner dock after the core install")
    state["llm_note_before"] = plugin.dock.llm_note.text()
    action = next((a for a in plugin.menu_actions if a.text() == LLM_ACTION), None)
    if action is None:
        return finish(f"no menu action '{LLM_ACTION}'")
    clock["llm"] = time.monotonic()
    action.trigger()   # what the planner clicks in Plugins › CityPlanner
    plugin.install_task.stage.connect(lambda s: state["stages"].append(s) if s not in state["stages"] else None)
    QTimer.singleShot(300, watch_llm)


@guarded
def watch_llm() -> None:
    plugin = plugins["cityplanner"]
    if plugin.install_task is not None:
        watch_install(plugin, "", "3-llm-installing.png")
        if time.monotonic() - clock["llm"] > 1500:
            return finish("LLM install did not finish in 25 minutes")
        QTimer.singleShot(500, watch_llm)
        return
    state["llm_install_s"] = round(time.monotonic() - clock["llm"], 1)
    state["warnings_before_agent"] = warnings_so_far()
    state["bar_after_llm"] = bar_texts()
    state["llm_note_after"] = plugin.dock.llm_note.text()
    import processing

    ws = OUT / "ws"
    processing.run("cityplanner:buildstationinstance",
                   {"INPUT": PBF, "WORKSPACE": str(ws), "CANDIDATES": str(OUT / "candidates.gpkg")})
    dock = plugin.dock
    dock.show()
    dock.source.setCurrentIndex(0)   # an existing workspace
    dock.workspace.setText(str(ws))
    dock.method.setCurrentText("agent")
    dock.model.setText("default")
    dock.threads.setValue(1)
    dock.rounds.setValue(1)
    dock.time_limit.setValue(20)
    clock["agent"] = time.monotonic()
    if dock.start() is None:
        return finish("the dock did not start the agent: " + dock.summary.text())
    QTimer.singleShot(1000, wait_agent)


@guarded
def wait_agent() -> None:
    dock = plugins["cityplanner"].dock
    if dock.last_result is None:
        if time.monotonic() - clock["agent"] > 900:
            return finish("the agent did not finish in 15 minutes")
        QTimer.singleShot(1000, wait_agent)
        return
    res = dock.last_result
    state["agent_s"] = round(time.monotonic() - clock["agent"], 1)
    state["agent"] = {"error": res.get("error"), "valid": res.get("valid"), "score": res.get("score"),
                      "method": res.get("method"), "proposals": len(dock.rows),
                      "turns": dock.turns.toPlainText()[-1500:], "summary": dock.summary.text()[:600]}
    shot("4-agent-round.png")
    finish()


def python_error(etype, value, tb, *args, **kwargs) -> None:
    """QGIS's Python error dialog is modal: record the error and end the session instead."""
    finish("".join(traceback.format_exception(etype, value, tb))[-1500:])


qgis.utils.showException = python_error
QTimer.singleShot(int(os.environ.get("CP_WATCHDOG_S", "2700")) * 1000, lambda: finish("watchdog: session took too long"))
QTimer.singleShot(4000, install_core)
