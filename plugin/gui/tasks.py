"""QgsTask wrappers: planning work off the main thread (the worker never touches layers).

Progress and live events cross to the main thread as queued Qt signals; an exception in
``run`` is kept and reported by ``finished`` (which QGIS calls on the main thread). Plan
geometry is prepared here as a GeoDataFrame (``frame``), so that the main thread only turns
it into a memory layer.
"""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from qgis.core import QgsApplication, QgsProcessingAlgRunnerTask, QgsProcessingContext, QgsProcessingFeedback, QgsProject, QgsTask
from qgis.PyQt.QtCore import pyqtSignal

from ..errors import Cancelled
from ..sandbox.best_plan import gap
from ..solvers import bound_note


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
                         QgsTask.Flag.CanCancel)
        self.options = options
        self.result: dict[str, Any] | None = None
        self.error: str | None = None
        self._build: tuple[QgsProcessingContext, _Feedback] | None = None
        self._inst = None
        self._best: tuple[bool, float | None] | None = None   # the plan the live best-plan layer shows
        self._bound: float | None = None                      # proven bound under the constraints in force

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
        self.addSubTask(sub, [], QgsTask.SubTaskDependency.ParentDependsOnSubTask)

    def run(self) -> bool:
        from ..sandbox import best_plan

        stop = threading.Event()
        ticker = threading.Thread(target=self._tick, args=(stop,), daemon=True)
        ticker.start()
        ws = Path(self.options["workspace"])
        try:
            self._inst = best_plan.instance_in_force(ws)  # the planner's constraints included
            best_plan.adopt_existing(ws, self._inst)
            before = best_plan.current_best(ws, self._inst)
            self._best = (before["valid"], before["score"]) if before else None
            self._bound = best_plan.known_bound(ws, self._inst)
            ids, extra = self._agent() if self.options["method"] == "agent" else self._solve()
            self.result = self._settle(ids, extra)
            return True
        except Cancelled:
            self.result = {"cancelled": True, "best": best_plan.current_best(ws, self._inst) if self._inst else None}
            return True
        except Exception as e:  # noqa: BLE001 - reported on the main thread in finished()
            self.error = f"{type(e).__name__}: {e}"
            return False
        finally:
            stop.set()

    def _tick(self, stop: threading.Event) -> None:
        """Progress = share of the time limit used (solvers and the agent run until it, or stop
        early and jump to 100 %), capped at 99 % until the run has really ended. Solver-reported
        fractions are not used: a pipeline stage reaching its own 100 % is not the run's end.
        (A build subtask has finished before ``run`` starts: ParentDependsOnSubTask.)"""
        t0, limit = time.perf_counter(), max(float(self.options["time_limit"]), 1e-3)
        while not stop.wait(0.25):
            self.setProgress(min(99.0, 100.0 * (time.perf_counter() - t0) / limit))

    def _plan_frame(self, ids: list[str]):
        """The plan as a frame styled by plan_<task>.qml (made here, off the main thread)."""
        from ..qgis_io.plans import plan_frame

        return plan_frame(self._inst, ids)

    def _emit(self, ev: dict[str, Any]) -> None:
        """Forward a live event; a proposal that beats the workspace's best carries its plan frame
        (so the live best-plan layer is never replaced by a worse plan)."""
        from ..solvers.common import better

        if ev.get("event") == "proposal":
            ev = {**ev, "upper_bound": self._bound,
                  "gap": gap(self._bound, ev["score"], bool(ev["valid"])),
                  # the score's ceiling as the bound: the dock says "no bound yet", not its gap
                  "bound_note": bound_note(self._inst, self._bound, ev["score"], float(self.options.get("time_limit") or 0))
                  if ev["valid"] else None}
            key = (bool(ev["valid"]), ev["score"])
            if ev["valid"] and ev["ids"] and (self._best is None or better(key, self._best)):
                self._best = key
                ev = {**ev, "frame": self._plan_frame(ev["ids"]), "task": self._inst.task, "crs": self._inst.crs}
        self.live.emit(ev)

    def _solve(self) -> tuple[list[str], dict[str, Any]]:
        from ..solvers import solve

        o = self.options
        res = solve(self._inst, o["method"], time_limit=o["time_limit"], seed=o["seed"], cancel=self.isCanceled)
        if res.upper_bound is not None:
            self._bound = res.upper_bound if self._bound is None else min(self._bound, res.upper_bound)
        return res.ids, {"status": res.status, "seconds": res.seconds, "upper_bound": res.upper_bound,
                         "curve": [{"seconds": t, "best_score": s} for t, s in res.trace]}

    def _agent(self) -> tuple[list[str], dict[str, Any]]:
        from ..agent.backend import make_backend
        from ..agent.loop import AgentSettings, run_agent

        o = self.options
        backend = make_backend(o.get("model"), o.get("endpoint"), threads=o.get("threads"), seed=o["seed"])
        try:
            res = run_agent(backend, o["workspace"],
                            # default on the same instance and time, so the agent's gap stands beside its
                            AgentSettings(rounds=o.get("rounds", 5), seed=o["seed"], time_limit=o["time_limit"],
                                          reference="default"),
                            cancel=self.isCanceled, on_event=self._emit)
        finally:
            backend.close()
        return res["candidate_ids"], {k: v for k, v in res.items() if k not in ("candidate_ids", "valid", "score")}

    def _settle(self, ids: list[str], extra: dict[str, Any]) -> dict[str, Any]:
        """Record the run in the workspace (runs/, best plan rule) and describe it for the dock:
        its own row and frame (for "Keep plan") and the workspace's best with its frame."""
        from ..qgis_io.report_map import backdrop_frames
        from ..sandbox import best_plan
        from ..sandbox.evaluator import evaluate_plan_file

        o, ws = self.options, Path(self.options["workspace"])
        cancelled = self.isCanceled() or extra.get("status") == "cancelled" or extra.get("stop_reason") == "cancelled"
        rec = best_plan.record_run(ws, o["method"], ids, upper_bound=extra.pop("upper_bound", None),
                                   status="cancelled" if cancelled else extra.get("status", "done"),
                                   seconds=extra.get("seconds"), inst=self._inst)
        ev = evaluate_plan_file(ws, ws / rec["run"]["file"])  # the run's evaluation joins eval_history.jsonl
        run = rec["run"]
        if o["method"] != "agent":  # the agent's proposals were shown live
            self._emit({"event": "proposal", "goal": o["method"], "round": 1, "valid": run["valid"],
                        "score": run["score"], "errors": ev["errors"], "warnings": ev["warnings"], "ids": rec["run_ids"]})
        return {**extra, "method": o["method"], "valid": run["valid"], "score": run["score"],
                "upper_bound": run["upper_bound"], "gap": run["gap"], "candidate_ids": rec["run_ids"],
                "errors": run["errors"], "cancelled": cancelled, "run": run, "best": rec["best"],
                "replaced": rec["replaced"], "run_frame": self._plan_frame(rec["run_ids"]),
                "best_frame": self._plan_frame(rec["best_ids"]), "task": self._inst.task, "crs": self._inst.crs,
                "best_metrics": self._inst.evaluate(rec["best_ids"]).metrics, "backdrop": backdrop_frames(self._inst, ws)}

    def finished(self, ok: bool) -> None:  # noqa: D401 - QgsTask API, runs on the main thread
        if self.isCanceled() and self.result is None:
            self.result = {"cancelled": True, "best": None}
        if ok and self.result is not None:
            self.ended.emit(self.result)
            return
        build_errors = self._build[1].errors if self._build else []
        self.ended.emit({"error": self.error or "; ".join(build_errors) or "failed"})


class AskTask(QgsTask):
    """``plugin.agent.ask.ask`` in a worker; the record (with ``layers``) comes back by ``ended``."""

    ended = pyqtSignal(object)

    def __init__(self, request: str, options: dict[str, Any]):
        super().__init__(f"CityPlanner: ask '{request[:40]}'", QgsTask.Flag.CanCancel)
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

