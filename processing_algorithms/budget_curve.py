"""Budget curve: a workspace → one row per scenario × budget (score, bound, gap, sites by street,
marginal score per 100 k€, price of each scenario) as a table, and the chart in the HTML report."""
from __future__ import annotations

import base64
import html
import tempfile
from pathlib import Path

from qgis.core import (
    QgsFeature,
    QgsFeatureSink,
    QgsField,
    QgsFields,
    QgsProcessingException,
    QgsProcessingOutputBoolean,
    QgsProcessingOutputNumber,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFile,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
)

from ..plugin.qgis_io.compat import (
    ProcessingFileParameterBehavior,
    ProcessingNumberParameterType,
    ProcessingSourceType,
    WkbType,
    field_type,
)
from ..plugin.qgis_io.reports import page, table
from ..plugin.sweep import budgets_of, read_scenarios, sweep
from ..plugin.sweep.chart import draw
from .base import CityPlannerAlgorithm

#: the table's columns: (field, compat.field_type kind)
COLUMNS = (("scenario", "string"), ("budget", "double"), ("score", "double"),
           ("upper_bound", "double"), ("gap", "double"), ("selected", "int"),
           ("sites_by_street", "string"), ("seconds", "double"),
           ("marginal_per_100k", "double"), ("price", "double"),
           ("price_pct", "double"), ("retries", "int"), ("why", "string"))


class BudgetCurve(CityPlannerAlgorithm):
    """Processing wrapper of ``plugin.sweep.sweep`` (docs/sweep.md)."""

    GROUP = "Planning tasks"
    GROUP_ID = "planningtasks"
    INPUT = "INPUT"
    BUDGETS = "BUDGETS"
    TIME_LIMIT = "TIME_LIMIT"
    SCENARIOS = "SCENARIOS"
    WORKERS = "WORKERS"
    SCHEDULER = "SCHEDULER"
    OUTPUT = "OUTPUT"
    REPORT = "REPORT"
    MONOTONE = "MONOTONE"
    MAX_GAP = "MAX_GAP"
    POINTS_DONE = "POINTS_DONE"

    def name(self) -> str:
        return "budgetcurve"

    def displayName(self) -> str:
        return self.tr("Budget curve")

    def shortHelpString(self) -> str:
        return self.tr(
            "What each budget buys: the workspace's instance solved at every budget (the default method: "
            "greedy → ALNS → MILP), each point with its proven upper bound and gap.\n\n"
            "BUDGETS: comma-separated k€ (200,400,800) or LO:HI:N (N budgets from LO to HI).\n"
            "SCENARIOS (optional): one per line, NAME=instruction; instruction … in the words of the "
            "instruction line (e.g. spaced=keep 400 m between stations). Each scenario gets its own curve and "
            "its price at each budget (the score its instructions cost).\n\n"
            "Scores never fall as the budget grows: a point whose plan scores below a smaller budget's "
            "takes that plan (a smaller budget's plan fits a larger one). A point whose gap stays above 1 % "
            "says why in the 'why' field.\n\n"
            "Points run in parallel in local processes (WORKERS at a time; no Dask needed), or on a Dask "
            "cluster when SCHEDULER names one (tcp://host:8786). Cancel keeps the points already done.\n\n"
            "OUTPUT: one row per scenario × budget. REPORT: the table and the chart (score against budget, "
            "the proven bound as a band, the score bought per 100 k€, the scenarios' prices).")

    def initAlgorithm(self, config=None) -> None:
        ws = QgsProcessingParameterFile(self.INPUT, self.tr("Workspace folder (from Build … instance)"),
                                        behavior=ProcessingFileParameterBehavior.Folder)
        ws.setHelp(self.tr("The instance to sweep; its stored instructions hold on every curve."))
        self.addParameter(ws)
        budgets = QgsProcessingParameterString(self.BUDGETS, self.tr("Budgets (k€: B1,B2,… or LO:HI:N)"))
        budgets.setHelp(self.tr("e.g. 200,400,640,900 or 200:1000:5"))
        self.addParameter(budgets)
        limit = QgsProcessingParameterNumber(self.TIME_LIMIT, self.tr("Time limit per point (seconds)"),
                                             ProcessingNumberParameterType.Double, defaultValue=60.0, minValue=1.0)
        limit.setHelp(self.tr("Each point's solve stops here; its gap says how close it got."))
        self.addParameter(limit)
        sc = QgsProcessingParameterString(self.SCENARIOS, self.tr("Scenarios (NAME=instruction; …, one per line)"),
                                          multiLine=True, optional=True)
        sc.setHelp(self.tr("Leave empty for the workspace's own curve only."))
        self.addParameter(sc)
        workers = QgsProcessingParameterNumber(self.WORKERS, self.tr("Points at a time (local processes)"),
                                               ProcessingNumberParameterType.Integer, defaultValue=2, minValue=1)
        workers.setHelp(self.tr("Each point also runs HiGHS in a process of its own."))
        self.addParameter(workers)
        sched = QgsProcessingParameterString(self.SCHEDULER, self.tr("Dask scheduler address (optional)"),
                                             optional=True)
        sched.setHelp(self.tr("tcp://host:8786 of a running Dask cluster (docs/sweep.md); needs the "
                              "'distributed' package in QGIS's Python."))
        self.addParameter(sched)
        out = QgsProcessingParameterFeatureSink(self.OUTPUT, self.tr("Budget curve"), ProcessingSourceType.Vector)
        out.setHelp(self.tr("One row per scenario × budget."))
        self.addParameter(out)
        report = QgsProcessingParameterFileDestination(self.REPORT, self.tr("Report"), "HTML files (*.html)",
                                                       optional=True, createByDefault=True)
        report.setHelp(self.tr("The table and the chart."))
        self.addParameter(report)
        self.addOutput(QgsProcessingOutputBoolean(self.MONOTONE, self.tr("Scores never fall as the budget grows")))
        self.addOutput(QgsProcessingOutputNumber(self.MAX_GAP, self.tr("Largest gap of a point")))
        self.addOutput(QgsProcessingOutputNumber(self.POINTS_DONE, self.tr("Points done")))

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802 (QGIS API name)
        ws = self.parameterAsFile(parameters, self.INPUT, context)
        budgets = self.core(budgets_of, self.parameterAsString(parameters, self.BUDGETS, context))
        lines = [x.strip() for x in self.parameterAsString(parameters, self.SCENARIOS, context).splitlines() if x.strip()]
        scenarios = self.core(read_scenarios, lines)
        scheduler = self.parameterAsString(parameters, self.SCHEDULER, context).strip() or None

        def progress(row, done, total):
            score = "–" if row["score"] is None else f"{row['score']:.4f}"
            feedback.pushInfo(f"[{done}/{total}] {row['scenario']} at {row['budget']:g} k€: score {score}")
            feedback.setProgress(100.0 * done / total)

        res = self.core(sweep, ws, budgets, time_limit=self.parameterAsDouble(parameters, self.TIME_LIMIT, context),
                        scenarios=scenarios, scheduler=scheduler,
                        workers=self.parameterAsInt(parameters, self.WORKERS, context),
                        backend="dask" if scheduler else "local", on_row=progress, cancel=feedback.isCanceled)
        if res["cancelled"]:
            feedback.pushWarning(f"cancelled: {res['done']} of {res['points']} points done, kept")
        fields = QgsFields()
        for name, typ in COLUMNS:
            fields.append(QgsField(name, field_type(typ)))
        sink, dest = self.parameterAsSink(parameters, self.OUTPUT, context, fields, WkbType.NoGeometry)
        if sink is None:
            raise QgsProcessingException(self.invalidSinkError(parameters, self.OUTPUT))
        for r in res["rows"]:
            f = QgsFeature(fields)
            f.setAttributes([r.get(name) for name, _ in COLUMNS])
            sink.addFeature(f, QgsFeatureSink.Flag.FastInsert)
            if r.get("why"):
                feedback.pushWarning(f"{r['scenario']} at {r['budget']:g} k€: {r['why']}")
        report = self.parameterAsFileOutput(parameters, self.REPORT, context)
        if report:
            Path(report).write_text(curve_report(res), encoding="utf-8")
        gaps = [r["gap"] for r in res["rows"] if r["gap"] is not None]
        return {self.OUTPUT: dest, self.REPORT: report, self.MONOTONE: res["monotone"],
                self.MAX_GAP: max(gaps) if gaps else None, self.POINTS_DONE: res["done"]}


def curve_report(res: dict) -> str:
    """The HTML report: the chart (embedded PNG) above the table."""
    try:
        with tempfile.TemporaryDirectory() as tmp:
            png = draw(res, Path(tmp) / "curve.png").read_bytes()
        img = f"<img style='max-width:100%' alt='budget curve' src='data:image/png;base64,{base64.b64encode(png).decode()}'>"
    except ImportError:   # matplotlib is not a runtime requirement: the table still tells it all
        img = "<p>(No chart: install matplotlib in QGIS's Python to draw it.)</p>"
    cols = [name for name, _ in COLUMNS]
    note = "" if not res["cancelled"] else f"<p><b>Cancelled</b>: {res['done']} of {res['points']} points done.</p>"
    body = (f"<p>Instance <code>{html.escape(res['instance'])}</code>, its own budget {res['workspace_budget']:g} k€, "
            f"{res['time_limit']:g} s per point.</p>{note}{img}" + table(res["rows"], cols))
    return page("CityPlanner: budget curve", body)
