"""The Planner dock: build or open a workspace, run a heuristic or the planner agent on it,
watch it live, and ask the planner questions in plain words.

Work runs in QgsTasks (``PlannerTask``, ``AskTask``); this widget only reacts to their queued
signals on the main thread, so the GUI never waits on the model. A workspace comes from an
existing folder, or is built first by the "Build <task> instance" algorithm from a bundled
region, an OSM file or the project's layers. Settings persist in QgsSettings.
"""
from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from qgis.core import (Qgis, QgsApplication, QgsJsonUtils, QgsProcessing, QgsProject, QgsSettings, QgsVectorLayer,
                       QgsWkbTypes)
from qgis.gui import QgsDockWidget, QgsFieldComboBox, QgsMapLayerComboBox
from qgis.PyQt.QtCore import QPointF, Qt, QUrl
from qgis.PyQt.QtGui import QBrush, QColor, QDesktopServices, QPainter, QPen, QPolygonF
from qgis.PyQt.QtWidgets import (QComboBox, QDoubleSpinBox, QFileDialog, QFormLayout, QHBoxLayout, QLabel,
                                 QLineEdit, QListWidget, QPlainTextEdit, QPushButton, QSizePolicy, QSpinBox,
                                 QStackedWidget, QTableWidget, QTableWidgetItem, QTabWidget, QTextBrowser,
                                 QVBoxLayout, QWidget)

from ..city.regions import REGIONS
from ..qgis_io.legends import COLUMN_HELP, explain_score
from ..qgis_io.report_map import qgs_crs
from ..sandbox.best_plan import describe
from ..util.words import gap_text, percent
from .budget_curve import BudgetCurvePanel
from .instruction_panel import InstructionPanel
from .place_lookup import PlaceLookup
from .tasks import AskTask, PlannerTask
from ..tasks import SIZES, TASKS
from ..qgis_io.compat import LayerFilter

SETTINGS = "cityplanner/planner/"
METHODS = ("default", "greedy", "alns", "milp", "agent")
SOURCES = ("Workspace folder", "Bundled region", "OSM file", "Project layers")
PLAN_LAYER = "CityPlanner best plan"
REPORT_FILE = "outputs/planner_report.html"
COLUMNS = ("goal", "round", "valid", "score", "bound", "gap", "diagnostics")
INVALID_ROW = QColor("#f8d7da")
#: the Ask tab's examples (a test asks every one of them: each must get a real answer)
ASK_EXAMPLES = ("How far is the nearest school from Kamppi in helsinki by road?",
                "What is the nearest school to Stockmann in helsinki?",
                "Where should new charging stations go in kotka with a budget of 300 k€?")


class ScoreChart(QWidget):
    """Best-so-far score per proposal, as a step line (no plotting library needed in QGIS)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.values: list[float] = []
        self.setMinimumHeight(80)

    def set_values(self, values: list[float]) -> None:
        self.values = values
        self.update()

    def paintEvent(self, _event) -> None:  # noqa: N802 (Qt API)
        p = QPainter(self)
        p.fillRect(self.rect(), Qt.GlobalColor.white)
        if len(self.values) < 1:
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "this run's best-so-far score")
            return
        lo, hi = min(self.values), max(self.values)
        span = (hi - lo) or 1.0
        w, h, n = self.width() - 10, self.height() - 10, max(len(self.values) - 1, 1)
        pts = [QPointF(5 + w * k / n, 5 + h * (1 - (v - lo) / span)) for k, v in enumerate(self.values)]
        p.setPen(QPen(Qt.GlobalColor.darkGreen, 2))
        p.drawPolyline(QPolygonF(pts))
        p.setPen(Qt.GlobalColor.black)
        p.drawText(8, 16, f"this run's best so far {self.values[-1]:.4f}")


def llm_note() -> str:
    """Empty when the local LLM can run; else its one-line reason, fix and the endpoint route."""
    from ..deps import features

    st = features.status("llm")
    return "" if st.ok else st.message


class PlannerDock(QgsDockWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__("CityPlanner Planner", parent)
        self.setObjectName("CityPlannerPlannerDock")
        self.task: PlannerTask | None = None
        self.ask_task: AskTask | None = None
        self.best: list[float] = []
        self.best_frame: dict[str, Any] | None = None   # {"frame", "task", "crs"} of the workspace's best plan
        self.run_frame: dict[str, Any] | None = None    # the same for the last run's own plan ("Keep plan")
        self.conversation: list[str] = []               # Ask: the request and the answers to its questions
        self.last_request = ""                          # … as sent, in one line
        self.rows: list[dict[str, Any]] = []            # proposals, for the report
        self.last_result: dict[str, Any] | None = None
        self.last_answer: dict[str, Any] | None = None
        self.last_error = ""                            # the last error shown (message bar + summary)
        self.run_group: str | None = None               # the layer group of the last run
        tabs = QTabWidget()
        tabs.addTab(self._plan_tab(), "Plan")
        tabs.addTab(self._ask_tab(), "Ask")
        self.tabs = tabs
        self.setWidget(tabs)
        self.load_settings()
        self._source_changed()

    # ---------------------------------------------------------------- layout
    def _plan_tab(self) -> QWidget:
        body = QWidget()
        lay = QVBoxLayout(body)
        form = QFormLayout()
        self.source = QComboBox()
        self.source.addItems(SOURCES)
        self.source.currentIndexChanged.connect(self._source_changed)
        form.addRow("Source", self.source)
        self.inputs = QStackedWidget()
        self.inputs.addWidget(QWidget())  # an existing workspace needs nothing more
        self.region = QComboBox()
        self.region.addItems(list(REGIONS))
        self.inputs.addWidget(self.region)
        self.osm_file = QLineEdit()
        self.inputs.addWidget(_with_browse(self.osm_file, lambda: self._pick_file(self.osm_file)))
        self.inputs.addWidget(self._layer_inputs())
        form.addRow("", self.inputs)
        self.workspace = QLineEdit()
        self.workspace.setToolTip("an existing workspace, or the folder the new one is written to")
        form.addRow("Workspace", _with_browse(self.workspace, self._browse))
        self.task_kind = QComboBox()
        self.task_kind.addItems(list(TASKS))
        self.size = QComboBox()
        self.size.addItems(list(SIZES))
        self.seed = _spin(0, 1_000_000, 0)
        self.budget = QDoubleSpinBox()
        self.budget.setRange(0, 1e9)
        self.budget.setSpecialValueText("task default")
        self.instance_row = _row(self.task_kind, self.size, self.seed, self.budget)
        form.addRow("Task, size, seed, budget", self.instance_row)
        self.method = QComboBox()
        self.method.addItems(METHODS)
        form.addRow("Method", self.method)
        self.model = QLineEdit("default")
        self.model.setToolTip("'default' (SmolLM2-135M) or a GGUF path")
        form.addRow("Model", _with_browse(self.model, lambda: self._pick_file(self.model, "GGUF (*.gguf)")))
        # the route for machines where llama-cpp-python cannot be installed (no compiler, no wheel)
        self.endpoint = QLineEdit()
        self.endpoint.setPlaceholderText("optional: http://127.0.0.1:8080/v1 (llama.cpp server, Ollama, vLLM)")
        self.endpoint.setToolTip("an OpenAI-compatible server used instead of the local model for the agent and Ask")
        form.addRow("Endpoint", self.endpoint)
        self.llm_note = QLabel(llm_note())
        self.llm_note.setWordWrap(True)
        self.llm_note.setVisible(bool(self.llm_note.text()))
        form.addRow("", self.llm_note)
        self.threads = _spin(1, 64, 1)
        self.rounds = _spin(0, 50, 3)
        self.time_limit = _spin(1, 3600, 30)
        form.addRow("Threads, rounds, time (s)", _row(self.threads, self.rounds, self.time_limit))
        lay.addLayout(form)
        buttons = QHBoxLayout()
        self.run_button = QPushButton("Run")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.keep_button = QPushButton("Keep plan")
        self.open_button = QPushButton("Open folder")
        self.report_button = QPushButton("Report")
        for b, slot in ((self.run_button, self.start), (self.cancel_button, self.cancel),
                        (self.keep_button, self.keep_layer), (self.open_button, self.open_folder),
                        (self.report_button, self.export_report)):
            b.clicked.connect(slot)
            buttons.addWidget(b)
        lay.addLayout(buttons)
        # planner instructions → constraints with their price (plugin/gui/instruction_panel.py)
        self.instructions = InstructionPanel(lambda: self.workspace.text().strip(), lambda: self.model.text().strip())
        self.workspace.editingFinished.connect(self.instructions.refresh)
        self.instructions.changed.connect(self.refresh_best)
        lay.addWidget(self.instructions)
        # what each budget buys, point by point in a QgsTask (plugin/gui/budget_curve.py)
        self.curve = BudgetCurvePanel(lambda: self.workspace.text().strip(), lambda: float(self.time_limit.value()))
        self.curve.changed.connect(self.refresh_best)
        lay.addWidget(self.curve)
        self.keep_button.setToolTip("add the last run's own plan as a layer that later runs leave alone")
        self.report_button.setToolTip("an HTML report of the last run: map over roads and blocks, the score in words")
        self.summary = QLabel("Run a method to get a plan. The workspace keeps its best plan: a run replaces it "
                              "only with a better one.")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(self.summary)
        self.proposals = QTableWidget(0, len(COLUMNS))
        self.proposals.setHorizontalHeaderLabels(list(COLUMNS))
        for c, name in enumerate(COLUMNS):
            self.proposals.horizontalHeaderItem(c).setToolTip(COLUMN_HELP[name])
        lay.addWidget(self.proposals)
        self.chart = ScoreChart()
        lay.addWidget(self.chart)
        self.turns = QPlainTextEdit()
        self.turns.setReadOnly(True)
        self.turns.setPlaceholderText("the agent's analysis and plan, turn by turn")
        lay.addWidget(self.turns)
        return body

    def _layer_inputs(self) -> QWidget:
        """Roads (+ class field), buildings (+ type field), POIs (+ category field) of the project."""
        box = QWidget()
        form = QFormLayout(box)
        form.setContentsMargins(0, 0, 0, 0)
        #: (layer parameter, field parameter, layer combo, field combo) of the build algorithm
        self.layer_inputs: list[tuple[str, str, QgsMapLayerComboBox, QgsFieldComboBox]] = []
        for key, title, kind, field_key in (("ROADS", "Roads", LayerFilter.LineLayer, "HIGHWAY_FIELD"),
                                            ("BUILDINGS", "Buildings", LayerFilter.PolygonLayer,
                                             "BUILDING_FIELD"),
                                            ("POIS", "POIs", LayerFilter.PointLayer, "CATEGORY_FIELD")):
            layers, field = QgsMapLayerComboBox(), QgsFieldComboBox()
            layers.setFilters(kind)
            layers.setAllowEmptyLayer(key != "ROADS")
            field.setAllowEmptyFieldName(True)
            field.setLayer(layers.currentLayer())
            layers.layerChanged.connect(field.setLayer)
            self.layer_inputs.append((key, field_key, layers, field))
            form.addRow(title, _row(layers, field))
        return box

    def _ask_tab(self) -> QWidget:
        body = QWidget()
        lay = QVBoxLayout(body)
        row = QHBoxLayout()
        self.request = QLineEdit()
        self.request.setPlaceholderText(f"e.g. {ASK_EXAMPLES[0]}")
        self.request.returnPressed.connect(self.ask)
        self.ask_button = QPushButton("Ask")
        self.ask_button.clicked.connect(self.ask)
        self.new_button = QPushButton("New question")
        self.new_button.setToolTip("forget the conversation: the next line starts a new request")
        self.new_button.clicked.connect(self.new_conversation)
        row.addWidget(self.request)
        row.addWidget(self.ask_button)
        row.addWidget(self.new_button)
        lay.addLayout(row)
        self.examples = QListWidget()
        self.examples.addItems(list(ASK_EXAMPLES))
        self.examples.setToolTip("click an example to ask it")
        self.examples.setMaximumHeight(70)
        self.examples.itemClicked.connect(lambda item: self.ask(item.text()))
        lay.addWidget(QLabel("Examples (click to ask):"))
        lay.addWidget(self.examples)
        self.places = PlaceLookup()
        self.places.picked.connect(self.request.insert)  # the data's own spelling, at the cursor
        lay.addWidget(self.places)
        self.answer = QTextBrowser()
        self.answer.setPlaceholderText("the answer, or the question the planner needs answered first — "
                                       "answer it in the line above: the conversation is kept")
        lay.addWidget(self.answer)
        self.tool_calls = QListWidget()
        lay.addWidget(self.tool_calls)
        return body

    # ---------------------------------------------------------------- settings
    def _fields(self) -> dict[str, Any]:
        return {"source": self.source, "region": self.region, "osm_file": self.osm_file,
                "workspace": self.workspace, "task": self.task_kind, "size": self.size, "seed": self.seed,
                "budget": self.budget, "method": self.method, "model": self.model, "endpoint": self.endpoint,
                "threads": self.threads,
                "rounds": self.rounds, "time_limit": self.time_limit}

    def load_settings(self) -> None:
        """The dock's last values; the workspace is the last one used anywhere (a Processing
        dialog counts), so the path is typed once."""
        from ..qgis_io.workspace_memory import last_workspace

        s = QgsSettings()
        for key, w in self._fields().items():
            value = s.value(SETTINGS + key)
            if value is None:
                continue
            if isinstance(w, QSpinBox):
                w.setValue(int(value))
            elif isinstance(w, QDoubleSpinBox):
                w.setValue(float(value))
            elif isinstance(w, QComboBox):
                w.setCurrentText(str(value))
            else:
                w.setText(str(value))
        last = last_workspace()
        if last:
            self.workspace.setText(last)

    def save_settings(self) -> None:
        from ..qgis_io.workspace_memory import remember_workspace

        remember_workspace(self.workspace.text().strip())
        s = QgsSettings()
        for key, w in self._fields().items():
            s.setValue(SETTINGS + key, w.value() if isinstance(w, (QSpinBox, QDoubleSpinBox)) else
                       w.currentText() if isinstance(w, QComboBox) else w.text())

    # ---------------------------------------------------------------- inputs
    def _source_changed(self) -> None:
        k = self.source.currentIndex()
        self.inputs.setCurrentIndex(k)
        for i in range(self.inputs.count()):  # the stack takes the height of the shown page only
            policy = QSizePolicy.Policy.Preferred if i == k else QSizePolicy.Policy.Ignored
            self.inputs.widget(i).setSizePolicy(policy, policy)
        self.inputs.adjustSize()
        self.inputs.setVisible(k > 0)
        self.instance_row.setEnabled(k > 0)  # an existing workspace already fixes task and size

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Workspace", self.workspace.text())
        if folder:
            self.workspace.setText(folder)

    def _pick_file(self, line: QLineEdit, filter_: str = "OpenStreetMap (*.pbf *.osm)") -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Choose a file", line.text(), filter_)
        if path:
            line.setText(path)

    def build_parameters(self) -> dict[str, Any] | None:
        """The build algorithm's parameters for the chosen source; None for an existing workspace."""
        k = self.source.currentIndex()
        if k == 0:
            return None
        params: dict[str, Any] = {"SIZE": self.size.currentIndex(), "SEED": self.seed.value(),
                                  "BUDGET": self.budget.value(), "CANDIDATES": QgsProcessing.TEMPORARY_OUTPUT}
        if k == 1:
            params["INPUT"] = str(REGIONS[self.region.currentText()])
        elif k == 2:
            params["INPUT"] = self.osm_file.text().strip()
        else:
            for key, field_key, layers, field in self.layer_inputs:
                if layers.currentLayer() is not None:
                    params[key] = layers.currentLayer().id()
                    params[field_key] = field.currentField()
        return params

    def _input_error(self, ws: str, params: dict[str, Any] | None) -> str | None:
        if not ws:
            return "choose a workspace folder"
        if params is None and not (Path(ws) / "input" / "export.json").is_file():
            return f"not a workspace: {ws} (choose a region source to build one)"
        if params is not None and "INPUT" in params and not Path(params["INPUT"]).is_file():
            return f"OSM file not found: {params['INPUT'] or '(empty)'}"
        if params is not None and "INPUT" not in params and "ROADS" not in params:
            return "choose a road layer"
        return None

    # ---------------------------------------------------------------- run
    def start(self) -> PlannerTask | None:
        if self.task is not None:
            return None
        ws = self.workspace.text().strip()
        params = self.build_parameters()
        error = self._input_error(ws, params)
        if error:
            self.turns.appendPlainText(error)
            self.show_error(error)
            return None
        self.save_settings()
        self.proposals.setRowCount(0)
        self.best, self.rows, self.last_result, self.run_frame, self.run_group = [], [], None, None, None
        self.chart.set_values([])
        self.turns.clear()
        self.task = PlannerTask({"workspace": ws, "method": self.method.currentText(), "model": self.model.text(),
                                 "endpoint": self.endpoint.text().strip() or None,
                                 "threads": self.threads.value(), "rounds": self.rounds.value(),
                                 "time_limit": float(self.time_limit.value()), "seed": self.seed.value()})
        if params is not None:
            try:
                self.task.build_first(self.task_kind.currentText(), params)
            except RuntimeError as e:
                self.turns.appendPlainText(str(e))
                self.show_error(str(e))
                self.task = None
                return None
            self.turns.appendPlainText(f"building the {self.task_kind.currentText()} instance in {ws} …")
        self.task.live.connect(self.on_event)
        self.task.ended.connect(self.on_done)
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        QgsApplication.taskManager().addTask(self.task)
        return self.task

    def cancel(self) -> None:
        for task in (self.task, self.ask_task):
            if task is not None:
                task.cancel()

    def on_event(self, ev: dict) -> None:
        if ev.get("event") == "turn":
            self.turns.appendPlainText(f"[{ev['goal']} {ev['round']}.{ev['turn']}] {ev['analysis']}\n  plan: {ev['plan']}"
                                       f"\n  $ " + "  $ ".join(c.strip() for c in ev["commands"]))
            return
        if ev.get("event") != "proposal":
            return
        diag = "; ".join(ev.get("errors", []) + ev.get("warnings", []))
        row = {"goal": ev["goal"], "round": ev["round"], "valid": ev["valid"], "score": ev["score"],
               "bound": ev.get("upper_bound"), "gap": ev.get("gap"), "diagnostics": diag}
        self.rows.append(row)
        r = self.proposals.rowCount()
        self.proposals.insertRow(r)
        for c, v in enumerate([row["goal"], row["round"], "yes" if ev["valid"] else "NO", _num(row["score"]),
                               _num(row["bound"]), percent(row["gap"]) if row["gap"] is not None else "", diag]):
            item = QTableWidgetItem(str(v))
            if not ev["valid"]:
                item.setBackground(QBrush(INVALID_ROW))
            self.proposals.setItem(r, c, item)
        if "frame" in ev:  # a plan better than the workspace's best so far: show it live
            self.best_frame = {k: ev[k] for k in ("frame", "task", "crs")}
            self.show_plan()
        if ev["valid"] and ev["score"] is not None:
            self.best.append(max([ev["score"]] + self.best[-1:]))
            self.chart.set_values(self.best)

    def show_error(self, text: str, summary: bool = True) -> None:
        """An error where the planner looks: the QGIS message bar (stays until closed) and the
        dock's summary, which replaces the previous run's — never only in the turn log, which can
        sit below the screen edge in a docked panel."""
        from qgis.utils import iface

        line = " ".join(str(text).split())
        if summary:
            self.summary.setText(f"<b style='color:#b00000'>{self.tr('Error')}:</b> {html.escape(line)}")
        if iface is not None and iface.messageBar() is not None:
            iface.messageBar().pushMessage("CityPlanner", line, Qgis.MessageLevel.Critical, 0)
        self.last_error = line

    def refresh_llm_note(self) -> str:
        """Re-check the local LLM (after an install, without a restart) and show what is missing."""
        import importlib

        importlib.invalidate_caches()   # new packages in a folder already on sys.path
        text = llm_note()
        self.llm_note.setText(text)
        self.llm_note.setVisible(bool(text))
        return text

    def on_done(self, result: dict) -> None:
        self.last_result = result
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.task = None
        if "error" in result:
            self.turns.appendPlainText(f"error: {result['error']}")
            self.show_error(result["error"])
            return
        best = result.get("best")
        if "best_frame" in result:
            self.best_frame = {"frame": result["best_frame"], "task": result["task"], "crs": result["crs"]}
            self.run_frame = {"frame": result["run_frame"], "task": result["task"], "crs": result["crs"]}
            self.show_plan()
        if "run_frame" in result and not result.get("cancelled"):
            self.keep_layer()   # this run's own layer group, saved in the workspace
        if result.get("cancelled"):
            self.turns.appendPlainText(f"cancelled — best plan so far kept: {describe(best)}")
        else:
            verdict = ("it is the workspace's new best plan" if result.get("replaced") else
                       f"the workspace keeps its better plan — {describe(best)}")
            self.turns.appendPlainText(f"done — {describe(result['run'])}; {verdict}")
        self.summary.setText(self._summary_html(result))

    def _summary_html(self, result: dict) -> str:
        """The last run against the workspace's best, with bound and gap, and the score in words."""
        best, run = result.get("best"), result.get("run")
        lines = [f"<b>Workspace best</b> — {html.escape(describe(best))}"]
        if run is not None:
            state = "cancelled, " if result.get("cancelled") else ""
            lines.append(f"<b>This run</b> ({state}{html.escape(run['file'])}) — {html.escape(describe(run))}")
        if result.get("default_score") is not None:   # an agent run: default on the same instance and time
            gap = result.get("default_gap")
            lines.append(self.tr("<b>default</b> (same instance and time) — score {0:.4f}{1}").format(
                result["default_score"], "" if gap is None else ", " + gap_text(gap)))
        if best is not None and best.get("valid"):
            lines.append(html.escape(explain_score(result.get("task", ""), result.get("best_metrics", {}),
                                                   best["score"])))
        return "<br>".join(lines)

    # ---------------------------------------------------------------- map
    def frame_layer(self, name: str, which: dict[str, Any] | None = None) -> QgsVectorLayer | None:
        """A memory layer of a plan frame (default: the best plan), styled with plan_<task>.qml."""
        from ..qgis_io.plans import GEOMETRY
        from ..qgis_io.report_map import memory_layer
        from ..tasks.registry import spec

        which = which or self.best_frame
        if which is None:
            return None
        task = which["task"]
        return memory_layer(which["frame"], name, which["crs"], spec(task).style, GEOMETRY[task][0])

    def refresh_best(self) -> dict[str, Any] | None:
        """Re-judge the workspace's best plan under the constraints in force now (call it after
        the planner's instructions change) and show it: layer and summary. Returns its row."""
        from ..qgis_io.plans import plan_frame
        from ..sandbox import best_plan

        ws = self.workspace.text().strip()
        if not (Path(ws) / "input" / "export.json").is_file():
            return None
        inst = best_plan.instance_in_force(ws)
        best = best_plan.current_best(ws, inst)
        if best is None:
            return None
        self.best_frame = {"frame": plan_frame(inst, best["candidate_ids"]), "task": inst.task, "crs": inst.crs}
        self.show_plan()
        row = {k: v for k, v in best.items() if k != "candidate_ids"}
        self.summary.setText(self._summary_html({"best": row, "task": inst.task,
                                                 "best_metrics": inst.evaluate(best["candidate_ids"]).metrics}))
        return row

    def show_plan(self) -> None:
        """Show the best plan in the live best-plan layer (main thread only). The layer keeps its
        place, visibility and id: its features are swapped; only a plan of another task (another
        geometry type) replaces the layer."""
        layer = self.frame_layer(PLAN_LAYER)
        if layer is None:
            return
        project = QgsProject.instance()
        olds = project.mapLayersByName(PLAN_LAYER)
        if olds and olds[0].wkbType() == layer.wkbType() and olds[0].fields().names() == layer.fields().names():
            old = olds[0]
            old.dataProvider().truncate()
            old.dataProvider().addFeatures(list(layer.getFeatures()))
            old.updateExtents()
            old.triggerRepaint()
            return
        project.removeMapLayers([old.id() for old in olds])
        project.addMapLayer(layer)

    def keep_layer(self) -> QgsVectorLayer | None:
        """The last run's own plan in the run's layer group, saved into the workspace's
        GeoPackage (it survives a restart; later runs leave it alone). Done for every finished
        run; pressing Keep plan again replaces the group's copy, never adds a second one."""
        from ..qgis_io.run_layers import run_group_name, save_run_group

        res = self.last_result or {}
        which = self.run_frame or self.best_frame
        method = res.get("method", self.method.currentText())
        score = res.get("score")
        label = f"CityPlanner plan ({method}" + (f", score {score:.4f})" if score is not None else ")")
        layer = self.frame_layer(label, which)
        if layer is None:
            return None
        # the live best-plan layer labels the sites: a kept copy on the same points would draw
        # every label again over itself
        layer.setLabelsEnabled(False)
        if self.run_group is None:
            self.run_group = run_group_name((which or {}).get("task", ""), method)
        try:
            return save_run_group(self.workspace.text().strip(), self.run_group, [layer])[0]
        except RuntimeError as e:   # a read-only workspace: the plan stays on the map for this session
            self.show_error(f"{e} — the plan is shown as a temporary layer")
            QgsProject.instance().addMapLayer(layer)
            return layer

    def open_folder(self) -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(self.workspace.text()))

    def export_report(self) -> Path | None:
        """An HTML report of the last run in the workspace: this run against the workspace's best
        (score, bound, gap), the score in words, the best plan mapped over blocks and roads, the
        proposals and the best-so-far curve."""
        from ..qgis_io.report_map import render_plan_map
        from ..qgis_io.reports import page, table
        from ..util.io import atomic_write_text

        res = self.last_result
        if not res or "error" in res or "run" not in res:
            self.turns.appendPlainText("no finished run to report")
            return None
        path = Path(self.workspace.text()) / REPORT_FILE
        rows = [{"plan": "this run", **res["run"]}, {"plan": "workspace best", **res["best"]}]
        body = table(rows, ("plan", "method", "valid", "score", "upper_bound", "gap", "selected", "file"))
        body += f"<p>{html.escape(explain_score(res['task'], res.get('best_metrics', {}), res['best']['score']))}</p>"
        layer = self.frame_layer("best plan")
        if layer is not None:
            png = path.with_suffix(".png")
            best = res["best"]
            render_plan_map(layer, res.get("backdrop"), res["crs"], png, f"CityPlanner: best {res['task']} plan",
                            describe(best))
            body += f"<img src='{png.name}' alt='best plan over blocks and roads'>"
            if res.get("backdrop") is None:
                body += "<p>No blocks or roads behind the plan: the workspace does not name a bundled region " \
                        "or a readable OSM extract.</p>"
        body += "<h2>Proposals</h2>" + table(self.rows, ("goal", "round", "valid", "score", "bound", "gap", "diagnostics"))
        body += "<h2>Best so far</h2>" + table(res.get("curve", []), ("seconds", "best_score"))
        atomic_write_text(path, page(f"CityPlanner: {res.get('method', '')} run", body))
        self.turns.appendPlainText(f"report: {path}")
        return path

    # ---------------------------------------------------------------- ask
    def ask(self, text: str | None = None) -> AskTask | None:
        """Ask ``text`` (default: the request line). After a clarification question the line is
        the answer to it: the request sent is the conversation so far plus this line."""
        text = (text if isinstance(text, str) else self.request.text()).strip()
        if not text or self.ask_task is not None:
            return None
        follow_up = bool(self.last_answer and self.last_answer.get("clarification") and self.conversation)
        self.conversation = [*self.conversation, text] if follow_up else [text]
        region = self.region.currentText() if self.source.currentIndex() == 1 else None
        root = Path(self.workspace.text().strip() or QgsApplication.qgisSettingsDirPath()) / "ask"
        self.request.clear()
        self._show_conversation("thinking …")
        self.tool_calls.clear()
        self.last_request = joined(self.conversation)
        self.ask_task = AskTask(self.last_request, {"region": region, "root": str(root),
                                                              "model": self.model.text(),
                                                              "endpoint": self.endpoint.text().strip() or None,
                                                              "threads": self.threads.value()})
        self.ask_task.ended.connect(self.on_answer)
        self.ask_button.setEnabled(False)
        QgsApplication.taskManager().addTask(self.ask_task)
        return self.ask_task

    def new_conversation(self) -> None:
        self.conversation, self.last_answer = [], None
        self.answer.clear()
        self.request.setFocus()

    def _show_conversation(self, reply: str) -> None:
        """The conversation: the planner's lines and the replies (questions marked as such)."""
        lines = []
        for k, line in enumerate(self.conversation):
            lines.append(f"<p><b>You:</b> {html.escape(line)}</p>")
            if k < len(self.conversation) - 1:
                lines.append("<p><i>(the planner asked a question; your next line answered it)</i></p>")
        lines.append(f"<p>{reply}</p>")
        self.answer.setHtml("".join(lines))

    def on_answer(self, out: dict) -> None:
        self.last_answer = out
        self.ask_task = None
        self.ask_button.setEnabled(True)
        if "error" in out:
            self._show_conversation(f"<b>error:</b> {html.escape(out['error'])}")
            self.show_error(out["error"], summary=False)
            return
        if out.get("clarification"):
            self._show_conversation(f"<b>Question:</b> {html.escape(out['clarification'])}<br>"
                                    "<i>Type your answer in the line above and press Ask.</i>")
        else:
            limits = "".join(f"<li>{html.escape(x)}</li>" for x in out.get("limitations", []))
            self._show_conversation(f"<b>Answer:</b> {html.escape(out.get('answer', ''))}"
                                    + (f"<br>Limitations:<ul>{limits}</ul>" if limits else ""))
        for c in out.get("tool_calls", []):
            status = "ok" if c.get("status") == "ok" else f"failed: {c.get('error')}"
            self.tool_calls.addItem(f"{c.get('tool')}({json.dumps(c.get('params', {}), ensure_ascii=False)}) → {status}")
        self.show_answer_layers([layer for spec in out.get("layers", []) if (layer := geojson_layer(spec))])

    def show_answer_layers(self, layers: list[QgsVectorLayer]) -> list[QgsVectorLayer]:
        """An answer's places, radius, route or sites as one layer group (saved into the
        workspace's GeoPackage when a workspace is open), and the map zoomed to them."""
        from ..qgis_io.run_layers import run_group_name, save_run_group

        if not layers:
            return []
        group = run_group_name("ask", "answer")
        ws = self.workspace.text().strip()
        if ws and (Path(ws) / "input" / "export.json").is_file():
            try:
                layers = save_run_group(ws, group, layers)
            except RuntimeError:
                layers = add_group(group, layers)
        else:
            layers = add_group(group, layers)
        zoom_to_layers(layers)
        return layers

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        self.save_settings()
        super().closeEvent(event)


def joined(conversation: list[str]) -> str:
    """The conversation as one request: each earlier line loses its closing punctuation, so
    "Where should new charging stations go?" + "in kotka with a budget of 300 k€" reads as one
    sentence (the request reader takes a plan's kind, region and budget from one sentence)."""
    return " ".join([line.rstrip(" ?.!") for line in conversation[:-1]] + conversation[-1:])


def geojson_layer(spec: dict[str, Any]) -> QgsVectorLayer | None:
    """A memory layer from a tool result's ``{name, crs, geojson}`` (main thread only)."""
    text = json.dumps(spec["geojson"])
    fields = QgsJsonUtils.stringToFields(text)
    feats = QgsJsonUtils.stringToFeatureList(text, fields)
    if not feats:
        return None
    kind = QgsWkbTypes.displayString(feats[0].geometry().wkbType())
    crs = qgs_crs(spec["crs"])
    layer = QgsVectorLayer(f"{kind}?crs={crs.authid() or crs.toWkt()}", f"CityPlanner: {spec['name']}", "memory")
    layer.dataProvider().addAttributes(list(fields))
    layer.updateFields()
    layer.dataProvider().addFeatures(feats)
    layer.updateExtents()
    return layer


def add_group(group: str, layers: list[QgsVectorLayer]) -> list[QgsVectorLayer]:
    """``layers`` as a new top group of the project (replacing one of the same name)."""
    project = QgsProject.instance()
    root = project.layerTreeRoot()
    old = root.findGroup(group)
    if old is not None:
        project.removeMapLayers(old.findLayerIds())
        root.removeChildNode(old)
    node = root.insertGroup(0, group)
    for layer in layers:
        project.addMapLayer(layer, False)
        node.addLayer(layer)
    return layers


def zoom_to_layers(layers: list[QgsVectorLayer], margin_m: float = 150.0) -> None:
    """Zoom the map canvas to what ``layers`` hold (in the canvas's CRS), with a margin."""
    from qgis.core import QgsCoordinateTransform, QgsRectangle
    from qgis.utils import iface

    canvas = iface.mapCanvas() if iface is not None else None
    if canvas is None or not layers:
        return
    dest = canvas.mapSettings().destinationCrs()
    extent = QgsRectangle()
    extent.setMinimal()
    for layer in layers:
        box = layer.extent()
        if dest.isValid() and layer.crs().isValid() and layer.crs() != dest:
            box = QgsCoordinateTransform(layer.crs(), dest, QgsProject.instance()).transformBoundingBox(box)
        extent.combineExtentWith(box)
    if extent.isNull():
        return
    floor = margin_m / 111_000.0 if dest.isGeographic() else margin_m   # a single point still gets context
    extent.grow(max(floor, 0.1 * max(extent.width(), extent.height())))
    canvas.setExtent(extent)
    canvas.refresh()


def _num(v: float | None) -> str:
    return "" if v is None else f"{v:.4f}"


def _spin(lo: int, hi: int, value: int) -> QSpinBox:
    s = QSpinBox()
    s.setRange(lo, hi)
    s.setValue(value)
    return s


def _row(*widgets: QWidget) -> QWidget:
    holder = QWidget()
    lay = QHBoxLayout(holder)
    lay.setContentsMargins(0, 0, 0, 0)
    for w in widgets:
        lay.addWidget(w)
    return holder


def _with_browse(line: QLineEdit, pick) -> QWidget:
    button = QPushButton("…")
    button.setMaximumWidth(30)
    button.clicked.connect(pick)
    return _row(line, button)
