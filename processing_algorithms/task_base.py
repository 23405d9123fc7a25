"""Shared parameters and steps of the "Planning tasks" algorithms.

``TaskAlgorithm`` declares what every task algorithm needs (the city inputs, size, seed,
budget and the task's own knobs in its spec's ``knobs``) and builds an Instance from them.
``BuildInstance`` and ``SolveTask`` are parameterised by the class attribute ``TASK``;
one subclass per task lives in its own file (build_land_instance.py, solve_land.py, …).
"""
from __future__ import annotations

import traceback
from typing import ClassVar

from qgis.core import (QgsCoordinateReferenceSystem, QgsProcessingContext, QgsProcessingException,
                       QgsProcessingFeedback, QgsProcessingParameterBoolean, QgsProcessingParameterDefinition,
                       QgsProcessingParameterEnum,
                       QgsProcessingParameterFeatureSink, QgsProcessingParameterFeatureSource,
                       QgsProcessingParameterNumber, QgsProcessingParameterString)

from ..plugin.city import City
from ..plugin.errors import InputError
from ..plugin.parcels.landuse_map import parse_need as core_parse_need
from ..plugin.parcels.layer import with_need
from ..plugin.util.words import keur
from ..plugin.qgis_io.city_source import add_city_parameters, assumed_crs, city_from_parameters, has_city_input
from ..plugin.qgis_io.layers import qgs_fields, source_to_gdf, write_gdf
from ..plugin.qgis_io.parcel_source import add_parcel_parameters, has_parcels, land_from_parcels
from ..plugin.sandbox.notices import attach_warnings
from ..plugin.tasks.own_candidates import instance_from_frame
from ..plugin.tasks import Instance, spec, task_class
from ..plugin.tasks.base import BUILD_SIZES, mode_of
from ..plugin.tasks.needs import with_budget_for_needs
from ..plugin.tasks.land import TYPES

from .base import CityPlannerAlgorithm
from ..plugin.qgis_io.compat import ProcessingNumberParameterType, ProcessingParameterFlag, ProcessingSourceType

#: a spec's geometry kind -> the Processing layer type of its candidates
SINK_TYPES = {"polygon": ProcessingSourceType.VectorPolygon, "line": ProcessingSourceType.VectorLine,
              "point": ProcessingSourceType.VectorPoint}


SIZE_LABELS = {"all": "Whole area"}
#: the "Build mode" enum, plan first: a planner's own city is planned, not benchmarked
PROCESSING_MODES = ("plan", "benchmark")


def _set_help(p: QgsProcessingParameterDefinition, text: str, advanced: bool = False) -> QgsProcessingParameterDefinition:
    p.setHelp(text)
    if advanced:
        p.setFlags(p.flags() | ProcessingParameterFlag.Advanced)
    return p


def parse_need(text: str) -> dict[str, int]:
    """``"school=2, green_l=1"`` → {"school": 2, "green_l": 1}; one-line error otherwise."""
    try:
        return core_parse_need(text)
    except InputError as e:
        raise QgsProcessingException(str(e)) from None


class TaskAlgorithm(CityPlannerAlgorithm):
    GROUP = "Planning tasks"
    GROUP_ID = "planningtasks"
    TASK: ClassVar[str]

    SIZE = "SIZE"
    OWN_CANDIDATES = "OWN_CANDIDATES"
    SEED = "SEED"
    MODE = "MODE"
    ASSUME_VACANT = "ASSUME_VACANT"
    BUDGET = "BUDGET"
    NEED = "NEED"

    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802 (QGIS API name)
        try:
            return self.process(parameters, context, feedback)
        except QgsProcessingException:
            raise
        except Exception as e:  # noqa: BLE001 - a Python exception escaping into QGIS 3.22 can crash it
            feedback.pushDebugInfo(traceback.format_exc())
            raise QgsProcessingException(f"internal error: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")

    def process(self, parameters: dict, context: QgsProcessingContext, feedback: QgsProcessingFeedback) -> dict:
        """The algorithm's body (``processAlgorithm`` turns stray exceptions into one line)."""
        raise NotImplementedError

    def add_instance_parameters(self) -> None:
        """City inputs (land: or a parcel layer), size, seed, budget and the task's knobs."""
        add_city_parameters(self)
        if self.TASK == "land":
            add_parcel_parameters(self)
        self.addParameter(_set_help(QgsProcessingParameterEnum(
            self.SIZE, self.tr("Instance size"), options=[self.tr(SIZE_LABELS.get(s, s)) for s in BUILD_SIZES],
            defaultValue=0),
            self.tr("small / medium / large: the paper's candidate counts (land 85/119/199, "
                    "road 63/102/143, station 80/80/180). Whole area: every eligible candidate of the "
                    "area (or of the study-area polygon).")))
        self.addParameter(_set_help(QgsProcessingParameterEnum(
            self.MODE, self.tr("Build mode"), options=[self.tr(m) for m in PROCESSING_MODES], defaultValue=0),
            self.tr("plan: your city as it is (every street kept, vacancy measured, chargers on the curb). "
                    "benchmark: the paper's recipe (links cut and offered for rebuilding, sampled vacant blocks, "
                    "sites at junctions), for comparing methods. Own candidate layers always build in plan mode. "
                    "See docs/modes.md."), advanced=True))
        own = spec(self.TASK).own_layer
        if own is not None:
            self.addParameter(_set_help(QgsProcessingParameterFeatureSource(
                self.OWN_CANDIDATES, self.tr(own.title), [SINK_TYPES[own.geometry]], optional=True),
                self.tr(own.help)))
        self.addParameter(_set_help(QgsProcessingParameterNumber(
            self.SEED, self.tr("Random seed"), ProcessingNumberParameterType.Integer, defaultValue=42, minValue=0),
            self.tr("Seeds the instance sampling and the solver: the same seed gives the same result.")))
        self.addParameter(_set_help(QgsProcessingParameterNumber(
            self.BUDGET, self.tr("Budget in k€ (0 = the task's default)"), ProcessingNumberParameterType.Double,
            defaultValue=0.0, minValue=0.0),
            self.tr("Total cost the plan may spend. The default binds: not every useful candidate fits.")))
        for k in spec(self.TASK).knobs:
            kind = ProcessingNumberParameterType.Integer if k.integer else ProcessingNumberParameterType.Double
            self.addParameter(_set_help(QgsProcessingParameterNumber(
                k.name, self.tr(k.title), kind, defaultValue=0, minValue=0), self.tr(k.help), k.advanced))
        if self.TASK == "land":
            self.addParameter(_set_help(QgsProcessingParameterBoolean(
                self.ASSUME_VACANT, self.tr("Take every block without a land use as vacant (plan mode)"),
                defaultValue=False),
                self.tr("Plan mode measures vacancy from buildings or land use; without either, tick this to "
                        "offer every block (the log counts them), or give a building layer."), advanced=True))
            self.addParameter(_set_help(QgsProcessingParameterString(
                self.NEED, self.tr("Need per land-use type (e.g. school=2, green_l=1; empty = derived)"),
                optional=True),
                self.tr(f"How many parcels of each type the plan should hold; types: {', '.join(TYPES)}. "
                        "Raises the step limit to fit; the budget stays the size's default unless given. "
                        "Required with a parcel layer (then the default budget buys the cheapest plan "
                        "that meets it).")))

    def has_instance_input(self, parameters: dict, context: QgsProcessingContext) -> bool:
        return has_city_input(self, parameters, context) or (self.TASK == "land" and has_parcels(parameters))

    def instance_from_parameters(self, parameters: dict, context: QgsProcessingContext,
                                 feedback: QgsProcessingFeedback) -> tuple[Instance, City | None]:
        """The instance, and the city it was built from (None for a parcel layer)."""
        budget = self.parameterAsDouble(parameters, self.BUDGET, context) or None
        need = parse_need(self.parameterAsString(parameters, self.NEED, context) or "") if self.TASK == "land" else {}
        warnings: list[str] = []
        if self.TASK == "land" and has_parcels(parameters):
            inst, city = land_from_parcels(self, parameters, context, feedback, need, budget, warnings,
                                           assumed_crs(self, parameters, context)), None
            feedback.pushInfo(f"working CRS: {inst.crs}")
        else:
            city = city_from_parameters(self, parameters, context, feedback)  # pushes the city's warnings
            if feedback.isCanceled():
                raise QgsProcessingException("cancelled")
            feedback.setProgress(40)
            size = BUILD_SIZES[self.parameterAsEnum(parameters, self.SIZE, context)]
            seed = self.parameterAsInt(parameters, self.SEED, context)
            params = {}
            for k in spec(self.TASK).knobs:
                v = (self.parameterAsInt if k.integer else self.parameterAsDouble)(parameters, k.name, context)
                if v:
                    params[k.key] = v
            own = self.own_candidates(parameters, context, feedback)
            mode = PROCESSING_MODES[self.parameterAsEnum(parameters, self.MODE, context)]
            if self.TASK == "land" and mode == "plan" and self.parameterAsBoolean(parameters, self.ASSUME_VACANT, context):
                params["assume_vacant"] = True
            if own is not None:
                inst = self.core(instance_from_frame, self.TASK, city, own, seed, budget,
                                 spec(self.TASK).own_layer.title.lower())
                inst.meta["mode"] = "plan"
            else:
                inst = self.core(task_class(self.TASK).build, city, size=size, seed=seed, budget=budget, mode=mode,
                                 **params)
            inst = with_need(inst, need) if need else inst
        said: list[str] = []
        if mode_of(inst) == "plan":   # needs the default budget cannot buy: raised and said (docs/modes.md)
            inst, said = with_budget_for_needs(inst, automatic=budget is None)
        for w in attach_warnings(inst, [*(city.warnings if city is not None else warnings), *said]):
            if city is None or w not in city.warnings:
                feedback.pushWarning(w)
        feedback.pushInfo(f"{inst.instance_id}: built in {mode_of(inst)} mode (docs/modes.md); {inst.n} candidate "
                          f"sites, a budget of {keur(inst.budget)}, at most {inst.max_select} selections")
        return inst, city

    def own_candidates(self, parameters: dict, context: QgsProcessingContext,
                       feedback: QgsProcessingFeedback):
        """The planner's own candidate layer as a frame (its optional fields), or None."""
        own = spec(self.TASK).own_layer
        if own is None or parameters.get(self.OWN_CANDIDATES) in (None, ""):
            return None
        src = self.parameterAsSource(parameters, self.OWN_CANDIDATES, context)
        present = {f.name() for f in src.fields()} if src is not None else set()
        return source_to_gdf(src, own.title.lower(), own.geometry,
                             [f for f in own.fields if f in present], feedback, require_metric=False,
                             require_crs=False)

    def add_layer_sink(self, name: str, title: str, help_text: str, optional: bool = False) -> None:
        self.addParameter(_set_help(QgsProcessingParameterFeatureSink(
            name, self.tr(title), SINK_TYPES[spec(self.TASK).geometry], optional=optional, createByDefault=True),
            self.tr(help_text)))

    def write_frame(self, parameters: dict, name: str, context: QgsProcessingContext, frame, wkb_type: int,
                    crs: QgsCoordinateReferenceSystem, feedback: QgsProcessingFeedback, style: str) -> str | None:
        """Write a frame to the sink ``name`` and style the layer QGIS loads from it; returns its
        id (None for an optional sink the caller skipped)."""
        fields = qgs_fields(frame)
        sink, dest = self.parameterAsSink(parameters, name, context, fields, wkb_type, crs)
        if sink is None:
            if self.parameterDefinition(name).flags() & ProcessingParameterFlag.Optional:
                return None
            raise QgsProcessingException(self.invalidSinkError(parameters, name))
        write_gdf(frame, sink, fields, feedback)
        if feedback.isCanceled():
            raise QgsProcessingException("cancelled")
        self.style_on_load(context, dest, style)
        return dest
