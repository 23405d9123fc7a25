"""Participatory revision: parcel layer + land-use field → revised parcels, metrics, transcript."""
from __future__ import annotations

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterCrs,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSink,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterField,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterNumber,
    QgsProcessingParameterString,
)

from ..plugin.participation import Config, region_from_gdf, result_layers, run_with_voice
from ..plugin.participation.engine import changes_csv, transcript_text
from ..plugin.participation.program import parse_need
from ..plugin.qgis_io.city_source import INPUT_CRS, assumed_crs
from ..plugin.qgis_io.compat import ProcessingNumberParameterType, ProcessingParameterFlag, ProcessingSourceType, WkbType
from ..plugin.qgis_io.layers import qgs_fields, source_to_gdf, write_gdf
from ..plugin.qgis_io.parcel_source import landuse_map_from_parameters, landuse_map_parameter
from ..plugin.util.io import atomic_write_json, atomic_write_text
from .base import CityPlannerAlgorithm


def src_path(value) -> str | None:
    """The file behind an INPUT parameter value (a path or a layer), for the sibling
    objectives file of the DRL sample layout; None for memory layers."""
    source = getattr(value, "source", None)
    text = source() if callable(source) else (value if isinstance(value, str) else None)
    return text.split("|")[0] if text else None


class ParticipatoryRevision(CityPlannerAlgorithm):
    GROUP = "Participation"
    GROUP_ID = "participation"
    INPUT = "INPUT"
    FIELD = "FIELD"
    RESIDENTS = "RESIDENTS"
    ROUNDS = "ROUNDS"
    SPEAKERS = "SPEAKERS"
    COMMUNITIES = "COMMUNITIES"
    SEED = "SEED"
    BASELINES = "BASELINES"
    PERSONA = "PERSONA"
    MODEL = "MODEL"
    THREADS = "THREADS"
    MAX_TOKENS = "MAX_TOKENS"
    PERSONAS = ("rules", "llm")
    NEED = "NEED"
    MAX_CHANGES = "MAX_CHANGES"
    ECOLOGY_LOSS = "ECOLOGY_LOSS"
    CHANGES = "CHANGES"
    OUTPUT = "OUTPUT"
    METRICS = "METRICS"
    TRANSCRIPT = "TRANSCRIPT"

    def name(self) -> str:
        return "participatoryrevision"

    def displayName(self) -> str:
        return self.tr("Participatory revision")

    def shortHelpString(self) -> str:
        return self.tr(
            "Simulated residents (profiles from resources/participation) discuss the parcel layer's "
            "land-use plan in fishbowl rounds, community by community; the planner revises each "
            "community from the requests heard in the round summaries, within a program: type quotas "
            "(NEED, e.g. school=6,hospital_s=4; empty: the objectives_<name>.yaml beside the layer's file, else "
            "the current counts; a layer of only residential and feasible parcels first gets an initial plan), "
            "minimum site area per type, at most MAX_CHANGES parcel changes per community, Service not "
            "below the initial plan's and green kept green (Ecology cannot fall unless an Ecology loss is "
            "allowed).\n\nLand-use values: residential, feasible, business, "
            "office, green_l, green_s, school, hospital_l, hospital_s, recreation (or DRL codes); any other "
            "values through the land-use mapping (value → type, or ignore). The parcels may be in any CRS. "
            "Residential parcels are homes; the others may be re-planned.\n\n"
            "Outputs: the revised parcels (landuse_before, landuse, changed, community, satisfaction), "
            "metrics JSON (Service, Ecology, Satisfaction, Inclusion before and after, for speakers, "
            "residents who never spoke and a fresh population), the changes CSV (parcel, old → new type, "
            "the requests it answers, its score effect) and the transcript (JSON lines), with the LLM's calls, "
            "tokens and fallbacks when the LLM persona "
            "is chosen.\n\nPersona: rules (deterministic, default) or llm (the local GGUF model plays "
            "the speakers and the note-taker; advanced: model path or 'default', threads, maximum "
            "tokens per answer).")

    def initAlgorithm(self, config=None) -> None:
        self.addParameter(QgsProcessingParameterFeatureSource(
            self.INPUT, self.tr("Parcel layer"), [ProcessingSourceType.VectorPolygon]))
        self.addParameter(QgsProcessingParameterField(
            self.FIELD, self.tr("Land-use field"), parentLayerParameterName=self.INPUT))
        self.addParameter(landuse_map_parameter(self))
        crs = QgsProcessingParameterCrs(INPUT_CRS, self.tr("CRS of a parcel layer without one (optional)"),
                                        optional=True)
        crs.setFlags(crs.flags() | ProcessingParameterFlag.Advanced)
        self.addParameter(crs)
        for key, title, default in ((self.RESIDENTS, "Residents", 1000), (self.ROUNDS, "Rounds per community", 3),
                                    (self.SPEAKERS, "Speakers per round", 50), (self.COMMUNITIES, "Communities", 4),
                                    (self.SEED, "Random seed", 0)):
            self.addParameter(QgsProcessingParameterNumber(
                key, self.tr(title), ProcessingNumberParameterType.Integer, default, minValue=0 if key == self.SEED else 1))
        self.addParameter(QgsProcessingParameterString(
            self.NEED, self.tr("Type quotas, e.g. school=6,hospital_s=4 (empty: objectives file or current plan)"),
            optional=True))
        self.addParameter(QgsProcessingParameterNumber(
            self.MAX_CHANGES, self.tr("Parcel changes per community at most"), ProcessingNumberParameterType.Integer,
            3, minValue=0))
        loss = QgsProcessingParameterNumber(self.ECOLOGY_LOSS, self.tr("Ecology the planner may give up (0–1)"),
                                            ProcessingNumberParameterType.Double, 0.0, minValue=0.0, maxValue=1.0)
        loss.setFlags(loss.flags() | ProcessingParameterFlag.Advanced)
        self.addParameter(loss)
        self.addParameter(QgsProcessingParameterBoolean(self.BASELINES, self.tr("Score the baselines too"), False))
        self.addParameter(QgsProcessingParameterEnum(self.PERSONA, self.tr("Persona"), list(self.PERSONAS),
                                                     defaultValue=0))
        for p in (QgsProcessingParameterString(self.MODEL, self.tr("LLM model (GGUF path or 'default')"), "default"),
                  QgsProcessingParameterNumber(self.THREADS, self.tr("LLM threads"),
                                               ProcessingNumberParameterType.Integer, 1, minValue=1),
                  QgsProcessingParameterNumber(self.MAX_TOKENS, self.tr("LLM max tokens per answer"),
                                               ProcessingNumberParameterType.Integer, 96, minValue=16)):
            p.setFlags(p.flags() | ProcessingParameterFlag.Advanced)
            self.addParameter(p)
        self.addParameter(QgsProcessingParameterFeatureSink(self.OUTPUT, self.tr("Revised parcels"),
                                                            ProcessingSourceType.VectorPolygon))
        self.addParameter(QgsProcessingParameterFileDestination(self.METRICS, self.tr("Metrics"), "JSON (*.json)"))
        self.addParameter(QgsProcessingParameterFileDestination(self.TRANSCRIPT, self.tr("Transcript"),
                                                                "JSON lines (*.jsonl)"))
        self.addParameter(QgsProcessingParameterFileDestination(self.CHANGES, self.tr("Changes"), "CSV (*.csv)",
                                                                optional=True))

    def processAlgorithm(self, parameters, context, feedback):
        src = self.parameterAsSource(parameters, self.INPUT, context)
        fld = self.parameterAsString(parameters, self.FIELD, context)
        assume = assumed_crs(self, parameters, context)
        gdf = source_to_gdf(src, "parcel layer", "polygon", [fld], feedback, require_metric=False,
                            require_crs=not assume)
        warnings: list[str] = []
        region = self.core(region_from_gdf, gdf, fld, "parcel layer", landuse_map_from_parameters(self, parameters, context),
                           assume, warnings)
        feedback.pushInfo(f"working CRS: {region.parcels.crs.to_string() if region.parcels.crs else 'local metres'}")
        for w in warnings:
            feedback.pushWarning(w)
        cfg = Config(*(self.parameterAsInt(parameters, k, context)
                       for k in (self.RESIDENTS, self.ROUNDS, self.SPEAKERS, self.COMMUNITIES)),
                     persona=self.PERSONAS[self.parameterAsEnum(parameters, self.PERSONA, context)],
                     seed=self.parameterAsInt(parameters, self.SEED, context),
                     baselines=self.parameterAsBool(parameters, self.BASELINES, context),
                     need=self.core(parse_need, self.parameterAsString(parameters, self.NEED, context)),
                     max_changes=self.parameterAsInt(parameters, self.MAX_CHANGES, context),
                     ecology_loss=self.parameterAsDouble(parameters, self.ECOLOGY_LOSS, context))

        def on_event(rec: dict) -> None:
            if rec["event"] == "round":
                feedback.pushInfo(rec["summary"]["text"])
                feedback.setProgress(100.0 * (rec["community"] + rec["round"] / cfg.rounds) / cfg.communities)
            else:
                feedback.pushInfo(f"community {rec['community']}: {'accepted' if rec['accepted'] else 'kept'} "
                                  f"({rec['reason']}), {len(rec['changes'])} parcels changed")

        res = self.core(run_with_voice, region, cfg, self.parameterAsString(parameters, self.MODEL, context) or "default",
                        threads=self.parameterAsInt(parameters, self.THREADS, context),
                        max_tokens=self.parameterAsInt(parameters, self.MAX_TOKENS, context),
                        on_event=on_event, cancel=feedback.isCanceled,
                        parcels_path=src_path(parameters.get(self.INPUT)))
        for w in res.metrics.get("program", {}).get("notes", []):
            feedback.pushWarning(w)
        feedback.pushInfo(f"quotas from {res.metrics['program']['source']}")
        layer = result_layers(res)["parcels"]
        fields = qgs_fields(layer)
        wkb = WkbType.MultiPolygon if (layer.geom_type == "MultiPolygon").any() else WkbType.Polygon
        out_crs = (QgsCoordinateReferenceSystem.fromWkt(region.parcels.crs.to_wkt()) if region.parcels.crs is not None
                   else QgsCoordinateReferenceSystem())
        sink, dest = self.parameterAsSink(parameters, self.OUTPUT, context, fields, wkb, out_crs)
        write_gdf(layer, sink, fields, feedback)
        self.style_on_load(context, dest, "participation_parcels")
        metrics = self.parameterAsFileOutput(parameters, self.METRICS, context)
        transcript = self.parameterAsFileOutput(parameters, self.TRANSCRIPT, context)
        atomic_write_json(metrics, res.metrics)
        atomic_write_text(transcript, transcript_text(res.events))
        changes = self.parameterAsFileOutput(parameters, self.CHANGES, context)
        if changes:
            atomic_write_text(changes, changes_csv(res.changes))
        for when in ("before", "after"):
            feedback.pushInfo(f"{when}: " + ", ".join(f"{k} {v:.3f}" for k, v in res.metrics[when].items()))
        if "llm" in res.metrics:
            feedback.pushInfo("llm: " + ", ".join(f"{k} {v}" for k, v in res.metrics["llm"].items()))
        return {self.OUTPUT: dest, self.METRICS: metrics, self.TRANSCRIPT: transcript, self.CHANGES: changes}
