"""Solve <task>: a workspace (or the same inputs as Build) → the plan as a layer + numbers + HTML."""
from __future__ import annotations

from pathlib import Path

from qgis.core import (QgsProcessingException, QgsProcessingOutputBoolean, QgsProcessingOutputNumber,
                       QgsProcessingOutputString, QgsProcessingParameterEnum, QgsProcessingParameterFile,
                       QgsProcessingParameterFileDestination, QgsProcessingParameterNumber)

from ..plugin.qgis_io.plans import GEOMETRY, crs_of, plan_frame
from ..plugin.city.streets import namer_for_city, namer_for_workspace, site_label
from ..plugin.qgis_io.legends import explain_score
from ..plugin.qgis_io.report_map import backdrop_frames, memory_layer, render_plan_map
from ..plugin.qgis_io.reports import solve_report
from ..plugin.qgis_io.workspace_memory import remember_workspace
from ..plugin.sandbox.evaluator import evaluate_plan_file
from ..plugin.sandbox.workspace import PLAN_FILE, load_instance
from ..plugin.solvers import solve
from ..plugin.tasks import spec
from ..plugin.util.io import atomic_write_json, atomic_write_text
from ..plugin.util.words import result_sentence, sites_sentence

from .audit_output import FLAGS_HELP, audit_json
from ..plugin.qgis_io.compat import ProcessingFileParameterBehavior, ProcessingNumberParameterType
from .task_base import TaskAlgorithm

METHODS = ("default", "greedy", "grasp", "sa", "alns", "milp")


class SolveTask(TaskAlgorithm):
    """Shared by the three "Solve <task>" algorithms (``TASK`` set by each subclass)."""

    WORKSPACE = "WORKSPACE"
    METHOD = "METHOD"
    TIME_LIMIT = "TIME_LIMIT"
    OUTPUT = "OUTPUT"
    REPORT = "REPORT"
    VALID, SCORE, UPPER_BOUND, GAP, STATUS = "VALID", "SCORE", "UPPER_BOUND", "GAP", "STATUS"
    FLAGS = "FLAGS"

    def name(self) -> str:
        return f"solve{self.TASK}"

    def displayName(self) -> str:
        return self.tr(f"Solve {spec(self.TASK).title}")

    def shortHelpString(self) -> str:
        return self.tr(
            f"Finds a {spec(self.TASK).title} plan within the time limit.\n\n"
            "Give a workspace made by 'Build … instance', or the same city inputs as that algorithm "
            "(the instance is then built on the fly).\n\n"
            "Methods: default (greedy → ALNS → local search → MILP, the strongest), greedy, grasp, "
            "sa (simulated annealing), alns, milp (exact or a proven bound, HiGHS). Every method "
            "returns its best plan so far when the time is up; the MILP's bound gives UPPER_BOUND "
            "and GAP = (bound − score) / |bound|.\n\n"
            "OUTPUT holds the selected candidates with their contribution (score lost if removed). "
            "With a workspace, the plan is also written to outputs/final_plan.json and evaluated "
            "there (eval_history.jsonl). A cancelled run writes nothing.")

    def initAlgorithm(self, config=None) -> None:
        ws = QgsProcessingParameterFile(self.WORKSPACE, self.tr("Workspace folder (from Build … instance)"),
                                        behavior=ProcessingFileParameterBehavior.Folder, optional=True)
        ws.setHelp(self.tr("Leave empty to build the instance from the city inputs below."))
        self.addParameter(ws)
        self.add_instance_parameters()
        method = QgsProcessingParameterEnum(self.METHOD, self.tr("Method"), options=list(METHODS), defaultValue=0)
        method.setHelp(self.tr("default, greedy, grasp, sa, alns or milp."))
        self.addParameter(method)
        limit = QgsProcessingParameterNumber(self.TIME_LIMIT, self.tr("Time limit (seconds)"),
                                             ProcessingNumberParameterType.Double, defaultValue=60.0, minValue=0.1)
        limit.setHelp(self.tr("Wall-clock limit; the best plan found so far is returned."))
        self.addParameter(limit)
        self.add_layer_sink(self.OUTPUT, "Plan", "The selected candidates with contribution and score fields.")
        report = QgsProcessingParameterFileDestination(self.REPORT, self.tr("Report"), "HTML files (*.html)",
                                                       optional=True, createByDefault=True)
        report.setHelp(self.tr("Result, score components and solver notes."))
        self.addParameter(report)
        self.addOutput(QgsProcessingOutputBoolean(self.VALID, self.tr("Plan is valid")))
        self.addOutput(QgsProcessingOutputNumber(self.SCORE, self.tr("Score")))
        self.addOutput(QgsProcessingOutputNumber(self.UPPER_BOUND, self.tr("Upper bound on the score")))
        self.addOutput(QgsProcessingOutputNumber(self.GAP, self.tr("Gap to the bound")))
        self.addOutput(QgsProcessingOutputString(self.STATUS, self.tr("Solver status")))
        self.addOutput(QgsProcessingOutputString(self.FLAGS, self.tr("Audit flags (JSON): ") + self.tr(FLAGS_HELP)))

    def process(self, parameters, context, feedback):
        ws = self.parameterAsFile(parameters, self.WORKSPACE, context)
        city = None
        if ws:
            inst = self.core(load_instance, ws)
            remember_workspace(ws)
            if inst.task != self.TASK:
                raise QgsProcessingException(f"workspace holds a {inst.task} instance, not {self.TASK}")
        elif self.has_instance_input(parameters, context):
            inst, city = self.instance_from_parameters(parameters, context, feedback)
        else:
            raise QgsProcessingException("give a workspace folder, an OSM extract or a road layer"
                                         + (" or a parcel layer" if self.TASK == "land" else ""))
        method = METHODS[self.parameterAsEnum(parameters, self.METHOD, context)]
        limit = self.parameterAsDouble(parameters, self.TIME_LIMIT, context)
        feedback.pushInfo(f"Solving {inst.instance_id} ({inst.n} candidates) with {method}, {limit:g} s")
        res = self.core(solve, inst, method, time_limit=limit, seed=self.parameterAsInt(parameters, self.SEED, context),
                        cancel=feedback.isCanceled, progress=lambda f: feedback.setProgress(100.0 * f))
        if feedback.isCanceled():
            raise QgsProcessingException("cancelled: no plan written")
        ev = inst.evaluate(res.ids)
        frame = plan_frame(inst, res.ids, method=[method] * len(ev.candidate_ids))
        dest = self.write_frame(parameters, self.OUTPUT, context, frame, GEOMETRY[inst.task][0], crs_of(inst), feedback,
                                f"plan_{inst.task}")
        if ws:
            evaluate_plan_file(ws, atomic_write_json(Path(ws) / PLAN_FILE, {"candidate_ids": res.ids}))
        row = {"method": method, "status": res.status, "valid": ev.valid, "score": ev.score,
               "upper_bound": res.upper_bound, "gap": res.gap, "seconds": res.seconds, "selected": len(res.ids)}
        sentence = result_sentence(row, inst.budget, ev.cost_ratio, inst.n)
        namer = namer_for_city(city) if city is not None else (namer_for_workspace(ws) if ws else None)
        chosen = inst.candidates[inst.candidates["id"].astype(str).isin([str(i) for i in ev.candidate_ids])]
        sites = namer.of_sites(chosen) if namer else {str(i): "" for i in chosen["id"]}
        for line in res.notes + ev.errors:
            feedback.pushInfo(line)
        feedback.pushInfo(sentence)
        words = explain_score(inst.task, ev.metrics, ev.score)
        if words:
            feedback.pushInfo(words)
        if sites:
            feedback.pushInfo(sites_sentence(site_label(i, st) for i, st in sites.items()))
        report = self.parameterAsFileOutput(parameters, self.REPORT, context)
        if report:
            args = (inst.task, inst.instance_id, row, ev.metrics, res.notes + ev.errors)
            kw = {"sentence": sentence, "sites": sites}
            atomic_write_text(report, solve_report(*args, **kw))   # complete without the map, should it fail
            # the map is drawn in postProcessAlgorithm: a print layout belongs to the main thread
            self._report_map = (report, args, kw, frame, inst, self.core(backdrop_frames, inst))
        flags = audit_json(inst, res.ids, feedback, ws, city)
        return {self.OUTPUT: dest, self.REPORT: report, self.VALID: ev.valid, self.SCORE: ev.score,
                self.UPPER_BOUND: res.upper_bound, self.GAP: res.gap, self.STATUS: res.status, self.FLAGS: flags}

    _report_map = None

    def postProcessAlgorithm(self, context, feedback):  # noqa: N802 (QGIS API name)
        """Main thread: draw the plan over blocks and roads into REPORT's PNG and link it."""
        if self._report_map is not None:
            report, args, kw, frame, inst, backdrop = self._report_map
            self._report_map = None
            try:
                png = Path(report).with_suffix(".png")
                layer = memory_layer(frame, "plan", inst.crs, f"plan_{inst.task}")
                render_plan_map(layer, backdrop, inst.crs, png, f"CityPlanner: {spec(inst.task).title} plan",
                                kw["sentence"][:110])
                atomic_write_text(report, solve_report(*args, **kw, map_png=png.name))
            except Exception as e:  # noqa: BLE001 - the report without its map is still the result
                feedback.pushWarning(f"report map not drawn: {type(e).__name__}: {e}")
        return {}
