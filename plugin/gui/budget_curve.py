"""The Planner dock's "Budget curve" row: the workspace's curve in a QgsTask, point by point.

A line for the budgets (k€: ``200,400,800`` or ``LO:HI:N``), a button and a cancel. The
sweep (``plugin.sweep``) runs its points in local spawned processes — no Dask needed inside
QGIS — two at a time, each with the dock's time limit; progress moves one step per point
and the row shows each point as it comes back. Cancel stops the sweep and keeps the points
already done: their rows, chart and CSV are written all the same (WS/outputs/budget_curve/).
The worker thread never touches widgets or layers: rows cross as queued signals.
"""
from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import Any

from qgis.core import QgsApplication, QgsTask
from qgis.PyQt.QtCore import QUrl, pyqtSignal
from qgis.PyQt.QtGui import QDesktopServices
from qgis.PyQt.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

#: where a curve is written, inside the workspace
CURVE_DIR = "outputs/budget_curve"
WORKERS = 2


class BudgetCurveTask(QgsTask):
    """``plugin.sweep.sweep`` on local processes; ``point`` per point, ``ended`` with the result."""

    point = pyqtSignal(object)   # {"row": row, "done": k, "total": n}
    ended = pyqtSignal(object)   # the sweep result (with "files"), or {"error": …}

    def __init__(self, workspace: str, budgets: list[float], time_limit: float, workers: int = WORKERS):
        super().__init__(f"CityPlanner: budget curve of {Path(workspace).name}", QgsTask.Flag.CanCancel)
        self.workspace, self.budgets, self.time_limit, self.workers = workspace, budgets, time_limit, workers
        self.result: dict[str, Any] | None = None
        self.error: str | None = None

    def run(self) -> bool:
        from ..sweep import sweep
        from ..sweep.run import write_outputs

        try:
            res = sweep(self.workspace, self.budgets, time_limit=self.time_limit, backend="local",
                        workers=self.workers, on_row=self._row, cancel=self.isCanceled)
            res["files"] = write_outputs(res, Path(self.workspace) / CURVE_DIR)
            self.result = res
            return True
        except Exception as e:  # noqa: BLE001 - reported on the main thread in finished()
            self.error = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            return False

    def _row(self, row: dict[str, Any], done: int, total: int) -> None:
        self.setProgress(100.0 * done / total)
        self.point.emit({"row": {k: row.get(k) for k in ("scenario", "budget", "score", "valid")},
                         "done": done, "total": total})

    def finished(self, ok: bool) -> None:  # noqa: D401 - QgsTask API, runs on the main thread
        self.ended.emit(self.result if ok and self.result is not None else {"error": self.error or "failed"})


class BudgetCurvePanel(QWidget):
    """Budgets, "Budget curve" and "Cancel curve", and a line saying where the curve stands."""

    changed = pyqtSignal()   # a curve finished: the workspace's best plan may have changed

    def __init__(self, workspace: Callable[[], str], time_limit: Callable[[], float], parent: QWidget | None = None):
        super().__init__(parent)
        self._workspace, self._time_limit = workspace, time_limit
        self.task: BudgetCurveTask | None = None
        self.last_result: dict[str, Any] | None = None
        self.budgets = QLineEdit()
        self.budgets.setPlaceholderText("budgets, k€: 200,400,800 or 200:1000:5")
        self.budgets.setToolTip("one solve per budget, each with the time limit above; the curve shows what "
                                "each budget buys and how far each plan is from the best possible")
        self.run_button = QPushButton("Budget curve")
        self.cancel_button = QPushButton("Cancel curve")
        self.cancel_button.setEnabled(False)
        self.run_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.status.setOpenExternalLinks(False)
        self.status.linkActivated.connect(lambda url: QDesktopServices.openUrl(QUrl(url)))
        row = QHBoxLayout()
        for w in (self.budgets, self.run_button, self.cancel_button):
            row.addWidget(w)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(row)
        lay.addWidget(self.status)

    def start(self) -> BudgetCurveTask | None:
        from ..errors import InputError
        from ..sweep import budgets_of

        ws = self._workspace()
        if not ws or not (Path(ws) / "input" / "export.json").is_file():
            self.status.setText("choose a workspace first (build one with Run)")
            return None
        try:
            budgets = budgets_of(self.budgets.text())
        except InputError as e:
            self.status.setText(html.escape(str(e)))
            return None
        self.last_result = None
        self.task = BudgetCurveTask(ws, budgets, float(self._time_limit()), workers=WORKERS)
        self.task.point.connect(self.on_point)
        self.task.ended.connect(self.on_done)
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.status.setText(f"budget curve: {len(budgets)} points, {WORKERS} at a time …")
        QgsApplication.taskManager().addTask(self.task)
        return self.task

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()

    def on_point(self, ev: dict[str, Any]) -> None:
        r = ev["row"]
        score = "no valid plan" if r["score"] is None or not r["valid"] else f"score {r['score']:.4f}"
        self.status.setText(f"budget curve: {ev['done']} of {ev['total']} points — {r['budget']:g} k€: {score}")

    def on_done(self, res: dict[str, Any]) -> None:
        self.task = None
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.last_result = res
        if "error" in res:
            self.status.setText(f"budget curve failed: {html.escape(res['error'])}")
            return
        png = next((f for f in res["files"] if f.endswith(".png")), None)
        done = f"{res['done']} of {res['points']} points (cancelled, points done kept)" if res["cancelled"] \
            else f"{res['done']} points"
        scores = ", ".join(f"{r['budget']:g} k€ → {r['score']:.3f}" for r in res["rows"] if r["score"] is not None)
        link = f" <a href='{QUrl.fromLocalFile(png).toString()}'>chart</a>" if png else " (no chart: matplotlib missing)"
        self.status.setText(f"budget curve: {done}: {html.escape(scores)}.{link}")
        self.changed.emit()
