"""The guided first run, played in a real QGIS desktop window: makes the user guide's screenshots
(docs/guide/*.png) and records what each step showed (tour.json) for tests/qgis/test_tour.py.

    make guide        (or, by hand:)
    source scripts/qgis_env.sh; unset QT_QPA_PLATFORM
    CITYPLANNER_TOUR_OUT=docs/guide xvfb-run -a -s "-screen 0 1600x1000x24" \\
        qgis --nologo --noversioncheck --code docs/tour.py

Steps (docs/guide.md tells them to a planner): the Processing Toolbox; Build city model of the
bundled Helsinki region (styled: blocks under the roads); Build station placement instance
with the "Bundled region" choice; the Planner dock's `default` run (score, bound, gap); a hand
edit evaluated (valid), an over-budget edit (drawn hatched red, INVALID); the `agent` run (the
real model, one round) that must not replace the better plan; Cancel of a long run; every Ask
example and a clarification answered in a follow-up line; a participation run on a bundled
sample region; the report's map over blocks and roads.

Environment: CITYPLANNER_TOUR_OUT (folder, default docs/guide), CITYPLANNER_TOUR_AGENT_S (the
agent's time limit, default 90). The window is 1600 × 1000 (Xvfb has no window manager).
"""
import json
import os
import shutil
import tempfile
import time
import traceback
from pathlib import Path

import qgis.utils
from qgis.core import QgsProject
from qgis.PyQt.QtCore import QTimer
from qgis.PyQt.QtGui import QTextCursor
from qgis.PyQt.QtWidgets import QApplication, QTextEdit

# run by ``qgis --code`` (exec'd: no __file__): the default folder is docs/guide of the plugin
OUT = Path(os.environ.get("CITYPLANNER_TOUR_OUT") or Path(qgis.utils.home_plugin_path) / "cityplanner/docs/guide")
AGENT_SECONDS = int(os.environ.get("CITYPLANNER_TOUR_AGENT_S", "90"))
facts: dict = {"shots": [], "error": None, "progress": []}
started = time.monotonic()


def shot(name: str) -> None:
    """The whole X screen (the main window and any dialog over it)."""
    QApplication.processEvents()
    QApplication.primaryScreen().grabWindow(0).save(str(OUT / f"{name}.png"))
    facts["shots"].append(f"{name}.png")


def finish(error: str | None = None) -> None:
    facts["error"] = error
    facts["seconds"] = round(time.monotonic() - started, 1)
    (OUT / "tour.json").write_text(json.dumps(facts, indent=1, default=str))
    os._exit(0)  # a throwaway profile: skip QGIS's "save project?" prompt and 3.22's exit crash


def zoom_to(layer, margin: float = 400.0) -> None:
    extent = layer.extent()
    extent.grow(margin)
    qgis.utils.iface.mapCanvas().setExtent(extent)
    qgis.utils.iface.mapCanvas().refresh()


def evaluate(layer, ws: Path) -> dict:
    """Evaluate plan on a layer, loaded and styled like a user's run."""
    import processing

    res = processing.runAndLoadResults("cityplanner:evaluateplan", {"INPUT": layer, "WORKSPACE": str(ws),
                                                                    "OUTPUT": "TEMPORARY_OUTPUT"})
    out = QgsProject.instance().mapLayer(res["OUTPUT"])
    return {"valid": res["VALID"], "score": res["SCORE"], "errors": res["ERRORS"],
            "plan_valid": sorted({f["plan_valid"] for f in out.getFeatures()}), "layer": out.name(),
            "rules": [r.label() for r in out.renderer().rootRule().children()]}


def steps():
    """The tour; each ``yield (condition, seconds, what)`` waits until the condition holds."""
    import processing

    from cityplanner.plugin.gui.planner_dock import ASK_EXAMPLES, PLAN_LAYER, SOURCES

    iface = qgis.utils.iface
    iface.mainWindow().setGeometry(0, 0, 1600, 1000)
    if "cityplanner" not in qgis.utils.plugins:
        qgis.utils.loadPlugin("cityplanner")
        qgis.utils.startPlugin("cityplanner")
    plugin = qgis.utils.plugins["cityplanner"]
    tmp = Path(tempfile.mkdtemp(prefix="cityplanner-tour-"))
    ws = tmp / "station"

    # 1. the Toolbox
    toolbox = qgis.utils.plugins["processing"].toolbox
    toolbox.show()
    toolbox.searchBox.setText("CityPlanner")
    facts["toolbar_icons"] = [a.icon().cacheKey() for a in plugin.actions]
    yield None, 2, "toolbox"
    shot("01-toolbox")

    # 2. Build city model of the bundled region: styled, blocks under roads
    city = processing.runAndLoadResults("cityplanner:buildcitymodel", {
        "REGION": 1, "FACES": "TEMPORARY_OUTPUT", "OUTPUT_ROADS": "TEMPORARY_OUTPUT",
        "JUNCTIONS": "TEMPORARY_OUTPUT", "DEMAND": "TEMPORARY_OUTPUT"})
    names = {k: QgsProject.instance().mapLayer(v) for k, v in city.items() if isinstance(v, str)}
    order = [n.layer().name() for n in QgsProject.instance().layerTreeRoot().findLayers()]
    facts["city"] = {"renderers": {k: lyr.renderer().type() for k, lyr in names.items() if lyr},
                     "order": order, "faces_last": order[-1] == names["FACES"].name()}
    zoom_to(names["FACES"], 0)
    yield None, 2, "city"
    shot("02-city-model")

    # 3. Build station placement instance: the dialog with its bundled-region choice, then the run
    dialog = processing.createAlgorithmDialog("cityplanner:buildstationinstance", {"REGION": 1, "SEED": 0})
    dialog.show()
    yield None, 2, "dialog"
    shot("03-build-dialog")
    dialog.close()
    toolbox.hide()  # room for the docks
    built = processing.runAndLoadResults("cityplanner:buildstationinstance", {
        "REGION": 1, "SIZE": 0, "SEED": 0, "WORKSPACE": str(ws), "CANDIDATES": "TEMPORARY_OUTPUT"})
    candidates = QgsProject.instance().mapLayer(built["CANDIDATES"])
    facts["build"] = {"instance": built["INSTANCE_ID"], "candidates": built["CANDIDATE_COUNT"]}

    # 4. the Planner dock: default (certified)
    dock = plugin.dock
    dock.show()
    dock.source.setCurrentText(SOURCES[0])
    dock.workspace.setText(str(ws))
    dock.method.setCurrentText("default")
    dock.time_limit.setValue(10)
    task = dock.start()
    t0 = time.monotonic()

    def sample_progress() -> bool:
        if dock.last_result is not None:  # the task object is gone once it has ended
            return True
        facts["progress"].append((round(time.monotonic() - t0, 1), round(task.progress(), 1)))
        return False
    yield sample_progress, 120, "default run"
    facts["default"] = {k: dock.last_result.get(k) for k in ("run", "best", "replaced", "cancelled")}
    facts["default"]["summary"] = dock.summary.text()
    zoom_to(QgsProject.instance().mapLayersByName(PLAN_LAYER)[0], 600)
    yield None, 2, "render"
    shot("04-default-run")

    # 5. a hand edit of the best plan (drop one station): evaluated, valid, lower score
    best_layer = QgsProject.instance().mapLayersByName(PLAN_LAYER)[0]
    edit = dock.keep_layer()
    edit.startEditing()
    first = next(edit.getFeatures())
    edit.changeAttributeValue(first.id(), edit.fields().indexOf("selected"), False)
    edit.commitChanges()
    facts["hand_edit"] = evaluate(edit, ws)
    # … and an over-budget edit: the largest charger configuration ticked at every site
    candidates.startEditing()
    idx = candidates.fields().indexOf("selected")
    for f in candidates.getFeatures():
        candidates.changeAttributeValue(f.id(), idx, str(f["id"]).endswith("c3"))
    candidates.commitChanges()
    # run as a planner does, in the algorithm's dialog: its log says the plan is INVALID and why
    ev_dialog = processing.createAlgorithmDialog("cityplanner:evaluateplan", {
        "INPUT": candidates, "WORKSPACE": str(ws), "OUTPUT": "TEMPORARY_OUTPUT"})
    ev_dialog.show()
    ev_dialog.setGeometry(0, 560, 760, 440)  # bottom left: the map above it stays in view
    ev_dialog.runAlgorithm()
    yield ev_dialog.wasExecuted, 120, "evaluate in its dialog"
    log = ev_dialog.findChild(QTextEdit, "txtLog")
    if log is not None:
        log.moveCursor(QTextCursor.MoveOperation.Start)
        log.find("INVALID")  # scrolls the log to the line that says why
    res = ev_dialog.results()
    out = QgsProject.instance().mapLayer(res["OUTPUT"])
    facts["over_budget"] = {"valid": res["VALID"], "score": res["SCORE"], "errors": res["ERRORS"],
                            "plan_valid": sorted({f["plan_valid"] for f in out.getFeatures()}), "layer": out.name(),
                            "rules": [r.label() for r in out.renderer().rootRule().children()]}
    for lyr in (candidates, edit):
        QgsProject.instance().layerTreeRoot().findLayer(lyr.id()).setItemVisibilityChecked(False)
    yield None, 2, "render"
    shot("05-hand-edit-invalid")
    ev_dialog.close()
    facts["best_layer_features"] = best_layer.featureCount()
    for name in (facts["hand_edit"]["layer"], facts["over_budget"]["layer"]):
        for lyr in QgsProject.instance().mapLayersByName(name):  # the next shots show the best plan alone
            QgsProject.instance().layerTreeRoot().findLayer(lyr.id()).setItemVisibilityChecked(False)

    # 6. the agent: the real model, one round; it must not replace the better plan
    dock.method.setCurrentText("agent")
    dock.rounds.setValue(1)
    dock.threads.setValue(1)
    dock.time_limit.setValue(AGENT_SECONDS)
    dock.start()
    yield lambda: dock.last_result is not None, AGENT_SECONDS + 120, "agent run"
    facts["agent"] = {k: dock.last_result.get(k) for k in ("run", "best", "replaced", "cancelled", "error")}
    facts["agent"]["final_plan"] = json.loads((ws / "outputs" / "final_plan.json").read_text())["candidate_ids"]
    facts["agent"]["summary"] = dock.summary.text()
    facts["agent"]["last_line"] = dock.turns.toPlainText().splitlines()[-1]
    shot("06-agent-run")

    # 7. Cancel a long run
    dock.method.setCurrentText("alns")
    dock.time_limit.setValue(600)
    dock.start()
    yield None, 3, "let it run"
    dock.cancel()
    yield lambda: dock.last_result is not None, 60, "cancel"
    facts["cancel"] = {"last_line": dock.turns.toPlainText().splitlines()[-1],
                       "cancelled": dock.last_result.get("cancelled")}
    shot("07-cancel")
    report = dock.export_report()
    facts["report"] = {"html": str(report), "backdrop": dock.last_result.get("backdrop") is not None}
    shutil.copy(report.with_suffix(".png"), OUT / "10-report-map.png")
    facts["shots"].append("10-report-map.png")

    # 8. Ask: every example, then a clarification answered in a follow-up line
    dock.tabs.setCurrentIndex(1)
    facts["ask"] = []
    for example in ASK_EXAMPLES:
        dock.ask(example)
        yield lambda: dock.ask_task is None, 400, f"ask {example}"
        facts["ask"].append({"request": example, **{k: dock.last_answer.get(k) for k in
                                                    ("clarification", "answer", "error")}})
    dock.places.region.setCurrentText("helsinki")      # look up a place as the data spells it
    dock.places.text.setText("kamppi")
    dock.places.lookup()
    yield lambda: "helsinki" in dock.places.indexes, 300, "the helsinki names"
    facts["lookup"] = dock.places.lookup()
    shot("08-ask")
    dock.new_conversation()
    dock.ask("Where should new charging stations go?")
    yield lambda: dock.ask_task is None, 400, "ask a vague request"
    question = dock.last_answer.get("clarification")
    dock.request.setText("in kotka with a budget of 300 k€")
    dock.ask()
    yield lambda: dock.ask_task is None, 400, "answer the question"
    facts["follow_up"] = {"question": question, "sent": dock.last_request,
                          "clarification": dock.last_answer.get("clarification"),
                          "answer": dock.last_answer.get("answer"), "shown": dock.answer.toPlainText()}
    shot("08b-ask-follow-up")

    # 9. participation on a bundled sample region
    dock.hide()
    part = plugin.participation_dock
    part.show()
    part.sample.setCurrentIndex(1)  # hlg
    for key, value in {"residents": 300, "rounds": 1, "speakers": 10, "communities": 2}.items():
        part.spins[key].setValue(value)
    facts["participation_field"] = part.field.currentField()
    part.start()
    yield lambda: part.task is None, 300, "participation"
    facts["participation"] = {"log": part.log.toPlainText()[-3000:],
                              "layers": [lyr.name() for lyr in QgsProject.instance().mapLayers().values()
                                         if lyr.name().startswith("Participation ")]}
    for lyr in QgsProject.instance().mapLayers().values():
        node = QgsProject.instance().layerTreeRoot().findLayer(lyr.id())
        if node is not None:
            node.setItemVisibilityChecked(lyr.name() in ("Participation parcels", "Participation residents"))
    zoom_to(QgsProject.instance().mapLayersByName("Participation parcels")[0], 100)
    yield None, 3, "render"
    shot("09-participation")


def drive() -> None:
    """Run ``steps`` on QTimers: the event loop keeps running while tasks work. A step yields
    (condition, seconds, what): wait until the condition holds (at most ``seconds``), or with
    condition None simply let ``seconds`` pass (rendering, a run to cancel)."""
    gen = steps()

    def wait(cond, deadline: float, what: str) -> None:
        try:
            if cond is None and time.monotonic() < deadline or cond is not None and not cond():
                if cond is not None and time.monotonic() > deadline:
                    finish(f"timed out waiting for: {what}")
                QTimer.singleShot(250, lambda: wait(cond, deadline, what))
                return
            cond, seconds, what = next(gen)
            wait(cond, time.monotonic() + seconds, what)
        except StopIteration:
            finish()
        except Exception:  # noqa: BLE001 - recorded for the test
            finish(traceback.format_exc()[-3000:])

    wait(lambda: True, 0.0, "start")


OUT.mkdir(parents=True, exist_ok=True)
QTimer.singleShot(3000, drive)
