"""QgsTask wrappers: planning work off the main thread (the worker never touches layers).

Progress and live events cross to the main thread as queued Qt signals; an exception in
``run`` is kept and reported by ``finished`` (which QGIS calls on the main thread). Plan
geometry is prepared here as a GeoDataFrame (``frame``), so that the main thread only turns
it into a memory layer.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from qgis.core import (QgsApplication, QgsProcessingAlgRunnerTask, QgsProcessingContext, QgsProcessingFeedback,
                       QgsProject, QgsTask)
from qgis.PyQt.QtCore import pyqtSignal

from ..errors import Cancelled


class _Feedback(QgsProcessingFeedback):
    """Keeps the algorithm's error lines (QgsProcessingAlgRunnerTask reports them here)."""

    def __init__(self):
        super().__init__()
        self.errors: list[str] = []

    def reportError(self, error: str, fatalError: bool = False) -> None:  # noqa: N802,N803 (QGIS API)
        self.errors.append(error)
        super().reportError(error, fatalError)


class PlannerTask(QgsTask):
    """Solve a workspace with a heuristic or run the planner agent on it.

    ``options``: workspace, method, time_limit, seed, and for the agent model, endpoint,
    threads, rounds. ``build_first`` makes the workspace first with a "Build <task> instance"
    algorithm (a subtask: the city from an OSM file or from the project's layers)."""

    live = pyqtSignal(object)       # a proposal / turn / solver progress, for the live view
    ended = pyqtSignal(object)     # the result JSON, or {"error": …} / {"cancelled": True}

    def __init__(self, options: dict[str, Any]):
        super().__init__(f"CityPlanner: {options['method']} on {Path(options['workspace']).name}",
                         QgsTask.CanCancel)
        self.options = options
        self.result: dict[str, Any] | None = None
        self.error: str | None = None
        self._build: tuple[QgsProcessingContext, _Feedback] | None = None
        self._inst = None
        self._best: tuple[bool, float | None] | None = None

    def build_first(self, task: str, params: dict[str, Any]) -> None:
        """Run ``cityplanner:build<task>instance`` with ``params`` before this task."""
        alg = QgsApplication.processingRegistry().createAlgorithmById(f"cityplanner:build{task}instance")
        if alg is None:
            raise RuntimeError("the CityPlanner processing provider is not loaded")
        context = QgsProcessingContext()
        context.setProject(QgsProject.instance())
        feedback = _Feedback()
        self._build = (context, feedback)  # both must outlive the subtask
        sub = QgsProcessingAlgRunnerTask(alg, {**params, "WORKSPACE": self.options["workspace"]}, context, feedback)
        self.addSubTask(sub, [], QgsTask.ParentDependsOnSubTask)

    def run(self) -> bool:
        try:
            from ..sandbox.workspace import load_instance

            self._inst = load_instance(self.options["workspace"])
            self.result = self._agent() if self.options["method"] == "agent" else self._solve()
            return True
        except Cancelled:
            self.result = {"cancelled": True}
            return True
        except Exception as e:  # noqa: BLE001 - reported on the main thread in finished()
            self.error = f"{type(e).__name__}: {e}"
            return False

    def _plan_frame(self, ids: list[str]):
        """The plan's candidates with contribution and flag fields (styled by plan_<task>.qml)."""
        from ..qgis_io.plans import candidate_frame

        inst = self._inst
        ev = inst.evaluate(list(ids))
        mask = inst.mask_of(ev.candidate_ids)
        return candidate_frame(inst, mask, contribution=[ev.contributions.get(i) for i in inst.ids_of(mask)],
                               flag=[""] * int(mask.sum()), plan_score=[ev.score] * int(mask.sum()))

    def _emit(self, ev: dict[str, Any]) -> None:
        """Forward a live event; a proposal that beats the best so far carries its plan frame."""
        from ..solvers.common import better

        if ev.get("event") == "proposal":
            key = (bool(ev["valid"]), ev["score"])
            if ev["valid"] and ev["ids"] and (self._best is None or better(key, self._best)):
                self._best = key
                ev = {**ev, "frame": self._plan_frame(ev["ids"]), "task": self._inst.task, "crs": self._inst.crs}
        self.live.emit(ev)

    def _solve(self) -> dict[str, Any]:
        from ..sandbox.evaluator import evaluate_plan_file
        from ..sandbox.workspace import PLAN_FILE
        from ..solvers import solve
        from ..util.io import atomic_write_json

        ws = Path(self.options["workspace"])
        o = self.options
        res = solve(self._inst, o["method"], time_limit=o["time_limit"], seed=o["seed"],
                    cancel=self.isCanceled, progress=lambda f: self.setProgress(100 * f))
        atomic_write_json(ws / PLAN_FILE, {"candidate_ids": res.ids})
        ev = evaluate_plan_file(ws, ws / PLAN_FILE)
        valid = bool(ev["valid"]) and bool(ev["candidate_ids"])
        self._emit({"event": "proposal", "goal": o["method"], "round": 1, "valid": valid,
                    "score": ev["score"], "errors": ev["errors"], "warnings": ev["warnings"],
                    "ids": ev["candidate_ids"]})
        return {"method": o["method"], "valid": valid, "score": ev["score"], "status": res.status,
                "seconds": res.seconds, "candidate_ids": ev["candidate_ids"], "errors": ev["errors"],
                "curve": [{"seconds": t, "best_score": s} for t, s in res.trace]}

    def _agent(self) -> dict[str, Any]:
        from ..agent.backend import make_backend
        from ..agent.loop import AgentSettings, run_agent

        o = self.options
        backend = make_backend(o.get("model"), o.get("endpoint"), threads=o.get("threads"), seed=o["seed"])
        try:
            res = run_agent(backend, o["workspace"],
                            AgentSettings(rounds=o.get("rounds", 5), seed=o["seed"], time_limit=o["time_limit"]),
                            cancel=self.isCanceled, on_event=self._emit)
        finally:
            backend.close()
        return {"method": "agent", **res}

    def finished(self, ok: bool) -> None:  # noqa: D401 - QgsTask API, runs on the main thread
        if self.isCanceled() and self.result is None:
            self.result = {"cancelled": True}
        if ok and self.result is not None:
            self.ended.emit(self.result)
            return
        build_errors = self._build[1].errors if self._build else []
        self.ended.emit({"error": self.error or "; ".join(build_errors) or "failed"})


class AskTask(QgsTask):
    """``plugin.agent.ask.ask`` in a worker; the record (with ``layers``) comes back by ``ended``."""

    ended = pyqtSignal(object)

    def __init__(self, request: str, options: dict[str, Any]):
        super().__init__(f"CityPlanner: ask '{request[:40]}'", QgsTask.CanCancel)
        self.request = request
        self.options = options
        self.result: dict[str, Any] | None = None
        self.error: str | None = None

    def run(self) -> bool:
        from ..agent.ask import ask

        try:
            self.result = ask(self.request, **self.options)
            return True
        except Exception as e:  # noqa: BLE001 - reported on the main thread in finished()
            self.error = f"{type(e).__name__}: {e}"
            return False

    def finished(self, ok: bool) -> None:  # noqa: D401 - QgsTask API, runs on the main thread
        self.ended.emit(self.result if ok and self.result is not None else {"error": self.error or "failed"})
