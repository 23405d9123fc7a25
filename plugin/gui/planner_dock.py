"""The Planner dock: run a heuristic or the planner agent on a workspace, watch it live.

The work runs in a ``PlannerTask`` (QgsTask); this widget only reacts to its queued signals
on the main thread, so the GUI never waits on the model. Settings persist in QgsSettings.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from qgis.core import QgsApplication, QgsFeature, QgsGeometry, QgsProject, QgsSettings, QgsVectorLayer
from qgis.gui import QgsDockWidget
from qgis.PyQt.QtCore import QPointF, Qt, QUrl
from qgis.PyQt.QtGui import QDesktopServices, QPainter, QPen, QPolygonF
from qgis.PyQt.QtWidgets import (QComboBox, QFileDialog, QFormLayout, QHBoxLayout, QLineEdit, QPlainTextEdit,
                                 QPushButton, QSpinBox, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from plugin.gui.tasks import PlannerTask

SETTINGS = "cityplanner/planner/"
METHODS = ("default", "greedy", "alns", "milp", "agent")
PLAN_LAYER = "CityPlanner best plan"


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
        p.fillRect(self.rect(), Qt.white)
        if len(self.values) < 1:
            p.drawText(self.rect(), Qt.AlignCenter, "best-so-far score")
            return
        lo, hi = min(self.values), max(self.values)
        span = (hi - lo) or 1.0
        w, h, n = self.width() - 10, self.height() - 10, max(len(self.values) - 1, 1)
        pts = [QPointF(5 + w * k / n, 5 + h * (1 - (v - lo) / span)) for k, v in enumerate(self.values)]
        p.setPen(QPen(Qt.darkGreen, 2))
        p.drawPolyline(QPolygonF(pts))
        p.setPen(Qt.black)
        p.drawText(8, 16, f"best {self.values[-1]:.4f}")


class PlannerDock(QgsDockWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__("CityPlanner Planner", parent)
        self.setObjectName("CityPlannerPlannerDock")
        self.task: PlannerTask | None = None
        self.best: list[float] = []
        self.last_result: dict[str, Any] | None = None
        body = QWidget()
        lay = QVBoxLayout(body)
        form = QFormLayout()
        self.workspace = QLineEdit()
        browse = QPushButton("…")
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.workspace)
        row.addWidget(browse)
        form.addRow("Workspace", row)
        self.method = QComboBox()
        self.method.addItems(METHODS)
        form.addRow("Method", self.method)
        self.model = QLineEdit("default")
        self.model.setToolTip("'default' (SmolLM2-135M) or a GGUF path")
        form.addRow("Model", self.model)
        self.threads = _spin(1, 64, 1)
        form.addRow("Threads", self.threads)
        self.rounds = _spin(0, 50, 3)
        form.addRow("Rounds", self.rounds)
        self.time_limit = _spin(1, 3600, 30)
        form.addRow("Time limit (s)", self.time_limit)
        lay.addLayout(form)
        buttons = QHBoxLayout()
        self.run_button = QPushButton("Run")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.open_button = QPushButton("Open folder")
        self.keep_button = QPushButton("Keep plan as layer")
        for b in (self.run_button, self.cancel_button, self.open_button, self.keep_button):
            buttons.addWidget(b)
        self.run_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        self.open_button.clicked.connect(lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(self.workspace.text())))
        self.keep_button.clicked.connect(self.keep_layer)
        lay.addLayout(buttons)
        self.proposals = QTableWidget(0, 5)
        self.proposals.setHorizontalHeaderLabels(["goal", "round", "valid", "score", "diagnostics"])
        lay.addWidget(self.proposals)
        self.chart = ScoreChart()
        lay.addWidget(self.chart)
        self.turns = QPlainTextEdit()
        self.turns.setReadOnly(True)
        self.turns.setPlaceholderText("the agent's analysis and plan, turn by turn")
        lay.addWidget(self.turns)
        self.setWidget(body)
        self.load_settings()

    # ---------------------------------------------------------------- settings
    def _fields(self) -> dict[str, Any]:
        return {"workspace": self.workspace, "method": self.method, "model": self.model, "threads": self.threads,
                "rounds": self.rounds, "time_limit": self.time_limit}

    def load_settings(self) -> None:
        s = QgsSettings()
        for key, w in self._fields().items():
            value = s.value(SETTINGS + key)
            if value is None:
                continue
            if isinstance(w, QSpinBox):
                w.setValue(int(value))
            elif isinstance(w, QComboBox):
                w.setCurrentText(str(value))
            else:
                w.setText(str(value))

    def save_settings(self) -> None:
        s = QgsSettings()
        for key, w in self._fields().items():
            s.setValue(SETTINGS + key, w.value() if isinstance(w, QSpinBox) else
                       w.currentText() if isinstance(w, QComboBox) else w.text())

    # ---------------------------------------------------------------- run
    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Workspace", self.workspace.text())
        if folder:
            self.workspace.setText(folder)

    def start(self) -> PlannerTask | None:
        ws = self.workspace.text().strip()
        if not (Path(ws) / "input" / "export.json").is_file():
            self.turns.appendPlainText(f"not a workspace: {ws or '(empty)'} (make one with 'Build instance')")
            return None
        self.save_settings()
        self.proposals.setRowCount(0)
        self.best = []
        self.chart.set_values([])
        self.turns.clear()
        self.task = PlannerTask({"workspace": ws, "method": self.method.currentText(), "model": self.model.text(),
                                 "threads": self.threads.value(), "rounds": self.rounds.value(),
                                 "time_limit": float(self.time_limit.value()), "seed": 0})
        self.task.live.connect(self.on_event)
        self.task.ended.connect(self.on_done)
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        QgsApplication.taskManager().addTask(self.task)
        return self.task

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()

    def on_event(self, ev: dict) -> None:
        if ev.get("event") == "turn":
            self.turns.appendPlainText(f"[{ev['goal']} {ev['round']}.{ev['turn']}] {ev['analysis']}\n  plan: {ev['plan']}"
                                       f"\n  $ " + "  $ ".join(ev["commands"]))
            return
        if ev.get("event") != "proposal":
            return
        r = self.proposals.rowCount()
        self.proposals.insertRow(r)
        diag = "; ".join(ev.get("errors", []) + ev.get("warnings", []))
        for c, v in enumerate([ev["goal"], ev["round"], "yes" if ev["valid"] else "no",
                               "" if ev["score"] is None else f"{ev['score']:.4f}", diag]):
            self.proposals.setItem(r, c, QTableWidgetItem(str(v)))
        if ev["valid"] and ev["score"] is not None and (not self.best or ev["score"] > self.best[-1]):
            self.show_plan(ev["ids"])
        if ev["valid"] and ev["score"] is not None:
            self.best.append(max([ev["score"]] + self.best[-1:]))
            self.chart.set_values(self.best)

    def on_done(self, result: dict) -> None:
        self.last_result = result
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        if "error" in result:
            self.turns.appendPlainText(f"error: {result['error']}")
        elif result.get("cancelled"):
            self.turns.appendPlainText("cancelled")
        else:
            self.turns.appendPlainText(f"done: valid={result.get('valid')} score={result.get('score')}")
        self.task = None

    # ---------------------------------------------------------------- map
    def plan_layer(self, ids: list[str], name: str = PLAN_LAYER) -> QgsVectorLayer | None:
        """A memory layer of the plan's candidates (from the workspace's candidate geometries)."""
        from plugin.sandbox.workspace import load_instance

        inst = load_instance(self.workspace.text())
        if "wkt" not in inst.candidates:
            return None
        rows = inst.candidates[inst.candidates["id"].astype(str).isin(set(ids))]
        kind = QgsGeometry.fromWkt(str(rows["wkt"].iloc[0])).type() if len(rows) else 0
        layer = QgsVectorLayer(f"{['Point', 'LineString', 'Polygon'][min(int(kind), 2)]}?crs={inst.crs}"
                               "&field=id:string&field=cost:double", name, "memory")
        feats = []
        for _, row in rows.iterrows():
            f = QgsFeature(layer.fields())
            f.setGeometry(QgsGeometry.fromWkt(str(row["wkt"])))
            f.setAttributes([str(row["id"]), float(row["cost"])])
            feats.append(f)
        layer.dataProvider().addFeatures(feats)
        layer.updateExtents()
        return layer

    def show_plan(self, ids: list[str]) -> None:
        """Replace the live best-plan layer (main thread only)."""
        layer = self.plan_layer(ids)
        if layer is None:
            return
        project = QgsProject.instance()
        for old in project.mapLayersByName(PLAN_LAYER):
            project.removeMapLayer(old.id())
        layer.renderer().symbol().setColor(Qt.red)
        project.addMapLayer(layer)

    def keep_layer(self) -> None:
        """Copy the live best plan into a layer that the next run does not replace."""
        ids = (self.last_result or {}).get("candidate_ids")
        if ids:
            layer = self.plan_layer(ids, f"CityPlanner plan ({self.method.currentText()})")
            if layer is not None:
                QgsProject.instance().addMapLayer(layer)

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt API)
        self.save_settings()
        super().closeEvent(event)


def _spin(lo: int, hi: int, value: int) -> QSpinBox:
    s = QSpinBox()
    s.setRange(lo, hi)
    s.setValue(value)
    return s
