"""QgsTask wrappers: planning work off the main thread (the worker never touches layers).

Progress and live events cross to the main thread as queued Qt signals; an exception in
``run`` is kept and reported by ``finished`` (which QGIS calls on the main thread).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from qgis.core import QgsTask
from qgis.PyQt.QtCore import pyqtSignal

from plugin.errors import Cancelled


class PlannerTask(QgsTask):
    """Solve a workspace with a heuristic or run the planner agent on it.

    ``options``: workspace, method, time_limit, seed, and for the agent model, endpoint,
    threads, rounds."""

    live = pyqtSignal(dict)        # a proposal / turn / solver progress, for the live view
    ended = pyqtSignal(dict)       # the result JSON, or {"error": …} / {"cancelled": True}

    def __init__(self, options: dict[str, Any]):
        super().__init__(f"CityPlanner: {options['method']} on {Path(options['workspace']).name}",
                         QgsTask.CanCancel)
        self.options = options
        self.result: dict[str, Any] | None = None
        self.error: str | None = None

    def run(self) -> bool:
        try:
            self.result = self._agent() if self.options["method"] == "agent" else self._solve()
            return True
        except Cancelled:
            self.result = {"cancelled": True}
            return True
        except Exception as e:  # noqa: BLE001 - reported on the main thread in finished()
            self.error = f"{type(e).__name__}: {e}"
            return False

    def _solve(self) -> dict[str, Any]:
        from plugin.sandbox.evaluator import evaluate_plan_file
        from plugin.sandbox.workspace import PLAN_FILE, load_instance
        from plugin.solvers import solve
        from plugin.util.io import atomic_write_json

        ws = Path(self.options["workspace"])
        o = self.options
        res = solve(load_instance(ws), o["method"], time_limit=o["time_limit"], seed=o["seed"],
                    cancel=self.isCanceled, progress=lambda f: self.setProgress(100 * f))
        atomic_write_json(ws / PLAN_FILE, {"candidate_ids": res.ids})
        ev = evaluate_plan_file(ws, ws / PLAN_FILE)
        self.live.emit({"event": "proposal", "goal": o["method"], "round": 1, "valid": ev["valid"],
                         "score": ev["score"], "errors": ev["errors"], "warnings": ev["warnings"],
                         "ids": ev["candidate_ids"]})
        return {"valid": ev["valid"], "score": ev["score"], "status": res.status, "seconds": res.seconds,
                "candidate_ids": ev["candidate_ids"], "curve": [{"seconds": t, "best_score": s} for t, s in res.trace]}

    def _agent(self) -> dict[str, Any]:
        from plugin.agent.backend import make_backend
        from plugin.agent.loop import AgentSettings, run_agent

        o = self.options
        backend = make_backend(o.get("model"), o.get("endpoint"), threads=o.get("threads"), seed=o["seed"])
        try:
            return run_agent(backend, o["workspace"],
                             AgentSettings(rounds=o.get("rounds", 5), seed=o["seed"], time_limit=o["time_limit"]),
                             cancel=self.isCanceled, on_event=self.live.emit)
        finally:
            backend.close()

    def finished(self, ok: bool) -> None:  # noqa: D401 - QgsTask API, runs on the main thread
        if self.isCanceled() and self.result is None:
            self.result = {"cancelled": True}
        self.ended.emit(self.result if ok and self.result is not None else {"error": self.error or "failed"})
