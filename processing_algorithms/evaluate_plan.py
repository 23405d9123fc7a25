"""Evaluate plan: a candidates layer + selection → VALID, SCORE, ERRORS and per-candidate contributions."""
from __future__ import annotations

import pandas as pd
from qgis.core import (QgsProcessingException, QgsProcessingFeatureSourceDefinition,
                       QgsProcessingOutputBoolean,
                       QgsProcessingOutputNumber, QgsProcessingOutputString, QgsProcessingParameterFeatureSink,
                       QgsProcessingParameterFeatureSource, QgsProcessingParameterField,
                       QgsProcessingParameterFile)

from ..plugin.qgis_io.layers import source_to_gdf
from ..plugin.qgis_io.plans import GEOMETRY, check_fields, flags, plan_ids
from ..plugin.sandbox.workspace import load_instance
from ..plugin.qgis_io.workspace_memory import last_workspace, remember_workspace
from ..plugin.util.words import result_sentence

from .audit_output import FLAGS_HELP, audit_json
from .task_base import TaskAlgorithm
from ..plugin.qgis_io.compat import ProcessingFileParameterBehavior, ProcessingSourceType


class EvaluatePlan(TaskAlgorithm):
    INPUT = "INPUT"
    WORKSPACE = "WORKSPACE"
    ID_FIELD = "ID_FIELD"
    SELECTION_FIELD = "SELECTION_FIELD"
    OUTPUT = "OUTPUT"
    VALID, SCORE, ERRORS, WARNINGS, FLAGS = "VALID", "SCORE", "ERRORS", "WARNINGS", "FLAGS"

    def name(self) -> str:
        return "evaluateplan"

    def displayName(self) -> str:
        return self.tr("Evaluate plan")

    def shortHelpString(self) -> str:
        return self.tr(
            "Scores a plan drawn on the map with the workspace's executable evaluator (the same one "
            "agents and solvers use).\n\n"
            "Which features are the plan: those whose selection field is true; with 'Selected "
            "features only' ticked, the features selected on the map. Left empty, the selection "
            "field is the layer's 'selected' field when it has one (candidates layers of 'Build … "
            "instance', 'Solve' and 'Evaluate plan' outputs do); otherwise the features selected "
            "on the map; with neither, the algorithm stops and says so — it never scores every "
            "candidate by accident. Edit the 'selected' field and re-run to see the new score.\n\n"
            "OUTPUT: the plan's features with contribution (score lost if the candidate is removed), "
            "flag (unknown id, duplicate, conflict: two candidates of one parcel or site) and "
            "plan_valid. An invalid plan (over budget, too many, a conflict) is marked in red (crosses, "
            "hatching) "
            "and ERRORS lists the hard violations that make it invalid.")

    def initAlgorithm(self, config=None) -> None:
        src = QgsProcessingParameterFeatureSource(self.INPUT, self.tr("Candidates layer"),
                                                  [ProcessingSourceType.VectorAnyGeometry])
        src.setHelp(self.tr("A candidates or plan layer with candidate ids."))
        self.addParameter(src)
        ws = QgsProcessingParameterFile(self.WORKSPACE, self.tr("Workspace folder (from Build … instance)"),
                                        behavior=ProcessingFileParameterBehavior.Folder,
                                        defaultValue=last_workspace() or None)   # typed once, not per dialog
        ws.setHelp(self.tr("The instance the ids refer to."))
        self.addParameter(ws)
        # optional: QGIS 3.22 rejects a missing field value even when the parameter has a default
        idf = QgsProcessingParameterField(self.ID_FIELD, self.tr("Candidate id field"), defaultValue="id",
                                          parentLayerParameterName=self.INPUT, optional=True)
        idf.setHelp(self.tr("Text or integer ids as in the workspace's candidates.csv (empty = id)."))
        self.addParameter(idf)
        sel = QgsProcessingParameterField(self.SELECTION_FIELD,
                                          self.tr("Selection field (empty = 'selected', else the map selection)"),
                                          parentLayerParameterName=self.INPUT, optional=True)
        sel.setHelp(self.tr("A boolean (or 0/1) field: true = in the plan."))
        self.addParameter(sel)
        out = QgsProcessingParameterFeatureSink(self.OUTPUT, self.tr("Contributions"))
        out.setHelp(self.tr("The plan's features with contribution and flag fields."))
        self.addParameter(out)
        self.addOutput(QgsProcessingOutputBoolean(self.VALID, self.tr("Plan is valid")))
        self.addOutput(QgsProcessingOutputNumber(self.SCORE, self.tr("Score")))
        self.addOutput(QgsProcessingOutputString(self.ERRORS, self.tr("Errors")))
        self.addOutput(QgsProcessingOutputString(self.WARNINGS, self.tr("Warnings")))
        self.addOutput(QgsProcessingOutputString(self.FLAGS, self.tr("Audit flags (JSON): ") + self.tr(FLAGS_HELP)))

    def plan_source(self, parameters, context, source, sel_field: str):
        """(source, selection field, words) of the plan: the named field, else 'Selected features
        only' when ticked, else the layer's ``selected`` field, else the map selection; words
        None when there is none of them."""
        if sel_field:
            return source, sel_field, f"the features whose '{sel_field}' field is true"
        given = parameters.get(self.INPUT)
        if isinstance(given, QgsProcessingFeatureSourceDefinition) and given.selectedFeaturesOnly:
            return source, "", f"the {source.featureCount()} features selected on the map"  # asked for
        if "selected" in source.fields().names():
            return source, "selected", "the features whose 'selected' field is true"
        layer = self.parameterAsVectorLayer(parameters, self.INPUT, context)
        if layer is not None and layer.selectedFeatureCount():
            chosen = self.parameterAsSource({**parameters, self.INPUT: QgsProcessingFeatureSourceDefinition(
                layer.id(), True)}, self.INPUT, context)
            if chosen is not None:
                return chosen, "", f"the {layer.selectedFeatureCount()} features selected on the map"
        return source, "", None

    def process(self, parameters, context, feedback):
        ws = self.parameterAsFile(parameters, self.WORKSPACE, context)
        inst = self.core(load_instance, ws)
        remember_workspace(ws)
        source = self.parameterAsSource(parameters, self.INPUT, context)
        if source is None:
            raise QgsProcessingException(self.invalidSourceError(parameters, self.INPUT))
        id_field = self.parameterAsString(parameters, self.ID_FIELD, context) or "id"
        sel_field = self.parameterAsString(parameters, self.SELECTION_FIELD, context) or ""
        source, sel_field, how = self.plan_source(parameters, context, source, sel_field)
        check_fields(source, "candidates layer", id_field, sel_field)
        gdf = source_to_gdf(source, "candidates layer", GEOMETRY[inst.task][1], [id_field, sel_field], feedback,
                            keep_invalid=True)
        if how is None:  # checked after the layer itself, so a wrong layer is named first
            raise QgsProcessingException(
                "no plan to score: the layer has no 'selected' field and no features selected on the map — "
                "name a selection field (true = in the plan) or select the plan's features")
        feedback.pushInfo(f"The plan: {how}.")
        if feedback.isCanceled():
            raise QgsProcessingException("cancelled")
        if sel_field:
            gdf = gdf[gdf[sel_field].fillna(False).astype(bool)]
        ids = plan_ids(gdf, id_field)
        ev = inst.evaluate(ids)
        feedback.setProgress(80)
        table = inst.candidates.drop(columns="wkt").set_index("id")
        out = pd.DataFrame({"id": ids}).join(table, on="id")
        out["contribution"] = [ev.contributions.get(i) for i in ids]
        out["flag"] = flags(inst, ids)
        out["selected"] = True      # the output is a plan layer too: edit it and evaluate it again
        out["plan_valid"] = ev.valid  # styled: every feature of an invalid plan is marked in red
        frame = out.assign(geometry=gdf.geometry.to_numpy()[:len(ids)])
        dest = self.write_frame(parameters, self.OUTPUT, context, frame, source.wkbType(), source.sourceCrs(), feedback,
                                f"plan_{inst.task}")
        for line in ev.errors:
            feedback.reportError(line)
        if not ev.valid:
            feedback.pushWarning(f"This plan is INVALID ({len(ev.errors)} hard rule(s) broken, listed above); "
                                 "its features are drawn hatched in red.")
        feedback.pushInfo(result_sentence({"valid": ev.valid, "score": ev.score, "selected": len(ev.candidate_ids)},
                                          inst.budget, ev.cost_ratio, inst.n))
        return {self.OUTPUT: dest, self.VALID: ev.valid, self.SCORE: ev.score, self.ERRORS: "; ".join(ev.errors),
                self.WARNINGS: "; ".join(ev.warnings), self.FLAGS: audit_json(inst, ids, feedback, ws)}
