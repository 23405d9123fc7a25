"""Build <task> instance: the city (extract or layers) → a workspace folder + candidates layer."""
from __future__ import annotations

from qgis.core import (QgsProcessingOutputNumber, QgsProcessingOutputString,
                       QgsProcessingParameterFolderDestination)

from ..plugin.qgis_io.workspace_memory import remember_workspace
from ..plugin.qgis_io.plans import GEOMETRY, candidate_frame, crs_of, network_frame, staged_workspace
from ..plugin.tasks import spec

from ..plugin.qgis_io.compat import WkbType
from .task_base import TaskAlgorithm


class BuildInstance(TaskAlgorithm):
    """Shared by the three "Build <task> instance" algorithms (``TASK`` set by each subclass)."""

    WORKSPACE = "WORKSPACE"
    CANDIDATES = "CANDIDATES"
    NETWORK = "NETWORK"
    INSTANCE_ID = "INSTANCE_ID"
    CANDIDATE_COUNT = "CANDIDATE_COUNT"

    def name(self) -> str:
        return f"build{self.TASK}instance"

    def displayName(self) -> str:
        return self.tr(f"Build {spec(self.TASK).title} instance")

    def shortHelpString(self) -> str:
        return self.tr(
            f"Turns a city into a {spec(self.TASK).title} planning instance.\n\n"
            "Input: an OpenStreetMap extract, or your own layers (roads, optional buildings and points "
            "of interest, in any CRS; optional study area and demand layer) with field mappings"
            + (", or your own parcel layer with its land-use field, the mapping of its values to planning "
               "types and the need per type" if self.TASK == "land"
               else "") + ".\n\n"
            "Output: a workspace folder (input/ with the candidate tables, export.json and the "
            "evaluator; work/; outputs/; logs/) that 'Solve' and 'Evaluate plan' read, and a "
            f"candidates layer: {spec(self.TASK).candidate_layer}. Tick the 'selected' field to draft a "
            "plan by hand and score it with 'Evaluate plan'.\n\n"
            + ("Network: the existing roads as the instance has them, without the links removed to "
               "create the gap (those are the 'rebuild' candidates).\n\n" if self.TASK == "road" else "")
            +
            "The workspace is written to a temporary folder and renamed at the end: a cancelled run "
            "leaves nothing behind.")

    def initAlgorithm(self, config=None) -> None:
        self.add_instance_parameters()
        ws = QgsProcessingParameterFolderDestination(self.WORKSPACE, self.tr("Workspace folder"))
        ws.setHelp(self.tr("An empty or new folder, or an older workspace (replaced)."))
        self.addParameter(ws)
        self.add_layer_sink(self.CANDIDATES, "Candidates", spec(self.TASK).candidate_layer)
        if self.TASK == "road":
            self.add_layer_sink(self.NETWORK, "Existing network (without the removed links)",
                                "The roads the instance keeps: draw it under the candidates to see the gaps.",
                                optional=True)
        self.addOutput(QgsProcessingOutputString(self.INSTANCE_ID, self.tr("Instance id")))
        self.addOutput(QgsProcessingOutputNumber(self.CANDIDATE_COUNT, self.tr("Number of candidates")))

    def process(self, parameters, context, feedback):
        inst, city = self.instance_from_parameters(parameters, context, feedback)
        target = self.parameterAsFileOutput(parameters, self.WORKSPACE, context)
        feedback.setProgress(60)
        out = {self.WORKSPACE: target, self.INSTANCE_ID: inst.instance_id, self.CANDIDATE_COUNT: inst.n}
        with staged_workspace(inst, target, city):
            frame = candidate_frame(inst, selected=[False] * inst.n)
            out[self.CANDIDATES] = self.write_frame(parameters, self.CANDIDATES, context, frame, GEOMETRY[inst.task][0],
                                                    crs_of(inst), feedback, f"candidates_{inst.task}")
            if self.TASK == "road":
                net = network_frame(inst, city.edges)
                multi = (net.geom_type == "MultiLineString").any()
                wkb = WkbType.MultiLineString if multi else WkbType.LineString
                out[self.NETWORK] = self.write_frame(parameters, self.NETWORK, context, net, wkb, crs_of(inst),
                                                     feedback, "city_roads")
        feedback.setProgress(100)
        remember_workspace(target)   # the next dialog (Solve, Evaluate) and the dock start from it
        return out
