"""Participation dock: run a participatory revision on a parcel layer in a QgsTask.

The plugin class adds it to the main window and removes it on unload. The worker thread
only runs core code; layers are made and added on the main thread in ``_finished``. The two
bundled sample regions (resources/participation/samples, MIT) can be put on the map from the
dock, so a first run needs no data of one's own.
"""
from __future__ import annotations

from pathlib import Path

from qgis.core import (QgsApplication, QgsCoordinateReferenceSystem, QgsProject, QgsTask, QgsVectorLayer)
from qgis.gui import QgsDockWidget, QgsFieldComboBox, QgsMapLayerComboBox
from qgis.PyQt.QtWidgets import (QComboBox, QFormLayout, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton,
                                 QSpinBox, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from .. import RESOURCES
from ..errors import Cancelled, InputError
from ..qgis_io.compat import LayerFilter

SAMPLES_DIR = RESOURCES / "participation" / "samples"
#: sample key -> (file, what it is); the DRL urban-planning regions (MIT, see the folder's README)
SAMPLES = {"hlg": ("hlg.geojson", "Huilongguan, Beijing (sample)"),
           "dhm": ("dhm.geojson", "Dahongmen, Beijing (sample)")}
SAMPLE_FIELD = "type"       # the samples' land-use codes (1 feasible, 4 residential, 5 business, …)
#: field names that usually hold a parcel's land use, best first
LANDUSE_FIELDS = ("landuse", "land_use", "type", "use", "zoning", "lu", "kind")
MAPPING_ROWS = 200     # the most frequent values shown in the mapping table
LLM_THREADS = 1        # the dock shares the machine with QGIS itself
LLM_MAX_TOKENS = 64
MEASURES = (
    "What the measures mean (each from 0 to 1, higher is better):\n"
    "– Service: residential parcels' share of the five services (shops, work, school, medical, "
    "recreation) with a facility within 500 m.\n"
    "– Ecology: share of the residential area within 300 m of a park of at least 2,000 m².\n"
    "– Satisfaction: the average resident's share of their own needed facility types within 500 m of home.\n"
    "– Inclusion: the same for vulnerable residents only (elderly, disabled, low income, …).\n"
    "'speakers' are the residents who spoke in a fishbowl round; 'fresh population' is a new sample of "
    "residents of the same region, who never took part: a plan that only pleases the speakers shows "
    "here. A revision changes at most a few parcels per community, keeps the type quotas and does not "
    "lower Ecology, so the 'after' values move in small steps from 'before'.")


class ParticipationDock(QgsDockWidget):
    def __init__(self, parent=None):
        super().__init__("Participation", parent)
        self.setObjectName("CityPlannerParticipationDock")
        self.task: QgsTask | None = None
        self.last_result = None
        w = QWidget()
        form = QFormLayout()
        self.sample = QComboBox()
        self.sample.addItem("a layer of the project", None)
        for key, (_, title) in SAMPLES.items():
            self.sample.addItem(f"sample {key}: {title}", key)
        self.sample.setToolTip("the two bundled sample regions (DRL urban-planning project, MIT licence): "
                               "choosing one adds it to the map")
        self.sample.currentIndexChanged.connect(self._sample_chosen)
        form.addRow("Parcels from", self.sample)
        self.layer = QgsMapLayerComboBox()
        self.layer.setFilters(LayerFilter.PolygonLayer)
        self.field = QgsFieldComboBox()
        self.layer.layerChanged.connect(self._layer_changed)
        self._layer_changed(self.layer.currentLayer())
        form.addRow("Parcel layer", self.layer)
        form.addRow("Land-use field", self.field)
        self.mapping = QTableWidget(0, 3)
        self.mapping.setHorizontalHeaderLabels(["value", "parcels", "planning type"])
        self.mapping.setToolTip("the field's values, most frequent first: choose what each one is (residential, "
                                "feasible = may be re-planned, a facility type, or ignore); names and the sample "
                                "codes come pre-filled")
        self.field.fieldChanged.connect(self._fill_mapping)
        self._fill_mapping(self.field.currentField())
        form.addRow("Land-use mapping", self.mapping)
        self.spins = {}
        for key, lo, hi, val in (("residents", 1, 100000, 1000), ("rounds", 1, 20, 3), ("speakers", 1, 1000, 50),
                                 ("communities", 1, 50, 4), ("seed", 0, 10**6, 0)):
            s = QSpinBox()
            s.setRange(lo, hi)
            s.setValue(val)
            s.valueChanged.connect(self._update_estimate)
            self.spins[key] = s
            form.addRow(key.capitalize(), s)
        self.persona = QComboBox()
        self.persona.addItems(["rules", "llm"])
        self.persona.setToolTip("rules: residents speak from their profile (fast); llm: the local language "
                                "model voices them (slow: see the estimate below)")
        self.persona.currentIndexChanged.connect(self._update_estimate)
        form.addRow("Persona", self.persona)
        self.estimate = QLabel()
        self.estimate.setWordWrap(True)
        form.addRow("", self.estimate)
        self.run_btn, self.cancel_btn = QPushButton("Run"), QPushButton("Cancel")
        self.cancel_btn.setEnabled(False)
        self.run_btn.clicked.connect(self.start)
        self.cancel_btn.clicked.connect(self.cancel)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_btn)
        buttons.addWidget(self.cancel_btn)
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.log.setPlaceholderText(MEASURES)
        box = QVBoxLayout(w)
        box.addLayout(form)
        box.addLayout(buttons)
        box.addWidget(self.log)
        # one row per changed parcel: what it was, what it becomes, the requests it answers
        self.changes = QTableWidget(0, len(CHANGE_COLUMNS))
        self.changes.setHorizontalHeaderLabels(list(CHANGE_COLUMNS))
        self.changes.horizontalHeader().setStretchLastSection(True)
        self.changes.setToolTip("each parcel the revision changed, before → after, with the residents' "
                                "requests it answers and its effect on the planner's objective")
        box.addWidget(self.changes)
        self.setWidget(w)
        self._update_estimate()

    # ------------------------------------------------------------------ inputs
    def _sample_chosen(self) -> None:
        key = self.sample.currentData()
        if key is not None:
            self.load_sample(key)

    def load_sample(self, key: str) -> QgsVectorLayer:
        """Put sample region ``key`` on the map (once) and choose it with its land-use field."""
        from ..qgis_io.maps import apply_style

        path = SAMPLES_DIR / SAMPLES[key][0]
        name = f"Sample parcels {key}"
        found = QgsProject.instance().mapLayersByName(name)
        layer = found[0] if found else QgsVectorLayer(f"{path}|geometrytype=Polygon", name, "ogr")
        if not found:
            if not layer.isValid():
                raise InputError(f"cannot open the sample region {path.name}")
            layer.setSubsetString('"existence" = 1')  # the DRL files keep removed features
            # no CRS in the files (OGR labels GeoJSON WGS 84): local metres, drawn as they are
            layer.setCrs(QgsCoordinateReferenceSystem())
            apply_style(layer, "participation_samples")
            QgsProject.instance().addMapLayer(layer)
        self.layer.setLayer(layer)
        self.field.setField(SAMPLE_FIELD)
        return layer

    def _layer_changed(self, layer) -> None:
        """Pre-select the field that most likely holds the land use (never an id field)."""
        self.field.setLayer(layer)
        if layer is None:
            return
        names = layer.fields().names()
        for name in LANDUSE_FIELDS:
            match = next((n for n in names if n.lower() == name), None)
            if match:
                self.field.setField(match)
                return

    def _fill_mapping(self, name: str) -> None:
        """One row per distinct value of the field (count, most frequent first), the planning type
        pre-selected where the value implies it (plugin.parcels.landuse_map.default_targets)."""
        from ..parcels.landuse_map import TARGETS, default_targets, value_counts
        from ..qgis_io.layers import field_values

        self.mapping.setRowCount(0)
        layer = self.layer.currentLayer()
        if layer is None or not name or layer.fields().indexOf(name) < 0:
            return
        counts = value_counts(field_values(layer, name)).iloc[:MAPPING_ROWS]
        implied = default_targets(counts.index)
        self.mapping.setRowCount(len(counts))
        for row, (value, n) in enumerate(counts.items()):
            self.mapping.setItem(row, 0, QTableWidgetItem(str(value)))
            self.mapping.setItem(row, 1, QTableWidgetItem(str(int(n))))
            combo = QComboBox()
            combo.addItems(["", *TARGETS])
            combo.setCurrentText(implied.get(value, ""))
            self.mapping.setCellWidget(row, 2, combo)

    def landuse_map(self) -> dict[str, str]:
        """The table's chosen types (rows left empty are unmapped)."""
        out = {}
        for row in range(self.mapping.rowCount()):
            target = self.mapping.cellWidget(row, 2).currentText()
            if target:
                out[self.mapping.item(row, 0).text()] = target
        return out

    def config(self):
        from ..participation import Config

        v = {k: s.value() for k, s in self.spins.items()}
        return Config(residents=v["residents"], rounds=v["rounds"], speakers=v["speakers"],
                      communities=v["communities"], persona=self.persona.currentText(), planner="solver",
                      seed=v["seed"])

    def _update_estimate(self) -> None:
        from ..participation.engine import LLM_CALL_SECONDS, estimate_llm_seconds

        secs = estimate_llm_seconds(self.config())
        if secs <= 0:
            self.estimate.setText("Rules persona: a run takes seconds.")
        else:
            self.estimate.setText(f"LLM persona: about {_duration(secs)} of model time before the result "
                                  f"({secs / LLM_CALL_SECONDS:.0f} calls × {LLM_CALL_SECONDS:g} s, measured "
                                  "on 2 cores); fewer speakers, rounds or communities make it shorter.")

    def _parcels_path(self, layer) -> str | None:
        """The layer's file when it is one (a sample's objectives file sits beside it)."""
        path = Path(layer.source().split("|")[0])
        return str(path) if path.is_file() else None

    # ------------------------------------------------------------------ running
    def start(self) -> None:
        layer, fld = self.layer.currentLayer(), self.field.currentField()
        if layer is None or not fld:
            self.log.appendPlainText("error: choose a parcel layer and its land-use field "
                                     "(or a bundled sample region above)")
            return
        from ..qgis_io.layers import source_to_gdf

        try:
            gdf = source_to_gdf(layer, layer.name(), "polygon", [fld], require_metric=False, require_crs=False)
        except Exception as e:  # QgsProcessingException: a one-line message about the layer
            self.log.appendPlainText(f"error: {e}")
            return
        cfg, path, table = self.config(), self._parcels_path(layer), self.landuse_map()
        crs = layer.crs().toWkt() if layer.crs().isValid() else ""
        self.log.clear()
        from ..participation.engine import estimate_llm_seconds

        secs = estimate_llm_seconds(cfg)
        self.log.appendPlainText(f"running on {layer.name()} (field {fld})" +
                                 (f"; the LLM voice needs about {_duration(secs)}" if secs else ""))
        self.task = QgsTask.fromFunction("Participatory revision", self._work, gdf, fld, cfg, path, table,
                                         on_finished=lambda exc, res=None: self._finished(exc, res, crs))
        self.run_btn.setEnabled(False)
        self.cancel_btn.setEnabled(True)
        QgsApplication.taskManager().addTask(self.task)

    @staticmethod
    def _work(task: QgsTask, gdf, fld, cfg, path, table):
        """Worker thread: core code only (no layers, no widgets)."""
        from ..participation import region_from_gdf, result_layers, run_with_voice

        steps = cfg.communities * (cfg.rounds + 1)  # a round record per round, a revision per community
        done = [0]

        def tick(_rec) -> None:
            done[0] += 1
            task.setProgress(min(99.0, 100.0 * done[0] / steps))

        warnings: list[str] = []
        region = region_from_gdf(gdf, fld, "parcel layer", table, None, warnings)
        res = run_with_voice(region, cfg, threads=LLM_THREADS,
                             max_tokens=LLM_MAX_TOKENS, cancel=task.isCanceled, on_event=tick, parcels_path=path)
        return res, result_layers(res), warnings

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()

    def _finished(self, exc, result, crs) -> None:
        self.task = None
        self.run_btn.setEnabled(True)
        self.cancel_btn.setEnabled(False)
        if exc is not None or result is None:
            msg = str(exc) if isinstance(exc, (InputError, Cancelled)) else f"{type(exc).__name__}: {exc}"
            self.log.appendPlainText(f"error: {msg}" if exc is not None else "cancelled")
            if exc is not None:   # where the planner looks, not only in the log box
                from qgis.core import Qgis
                from qgis.utils import iface

                if iface is not None and iface.messageBar() is not None:
                    iface.messageBar().pushMessage("CityPlanner", " ".join(msg.split()), Qgis.MessageLevel.Critical, 0)
            return
        res, layers, warnings = result
        self.last_result = res
        for w in warnings:
            self.log.appendPlainText(f"warning: {w}")
        self.show_result(res, layers, crs)

    def show_changes(self, changes: list[dict]) -> None:
        """Fill the change table, one row per changed parcel."""
        rows = change_rows(changes)
        self.changes.setRowCount(len(rows))
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                self.changes.setItem(r, c, QTableWidgetItem(text))
        self.changes.resizeRowsToContents()

    def show_result(self, res, layers, crs) -> list[QgsVectorLayer]:
        """Transcript, metrics with what they mean, and two map layers: revised land use and
        resident satisfaction, in the CRS the revision worked in (e.g. UTM for a Web Mercator
        layer), else the layer's (``crs``, WKT; "" = none: local metres)."""
        from ..qgis_io.report_map import memory_layer

        for rec in res.events:
            if rec["event"] == "round":
                self.log.appendPlainText(rec["summary"]["text"])
            elif rec["event"] == "initial_plan":
                self.log.appendPlainText(f"== initial plan: {rec['reason']} ({len(rec['changes'])} parcels)")
            elif rec["event"] == "revision":
                self.log.appendPlainText(f"== community {rec['community']}: "
                                         f"{'revised' if rec['accepted'] else 'kept'} ({rec['reason']}), "
                                         f"{len(rec['changes'])} parcels changed")
        for when in ("before", "after"):
            self.log.appendPlainText(f"{when}: " + ", ".join(f"{k} {v:.3f}" for k, v in res.metrics[when].items()))
        voice = res.metrics.get("by_voice", {}).get("after")
        if voice:
            self.log.appendPlainText("after, by who spoke: " + "; ".join(
                f"{who.replace('_', '-')} ({v['residents']}) satisfaction {v['satisfaction']:.3f}, "
                f"inclusion {v['inclusion']:.3f}" for who, v in voice.items()))
        fresh = res.metrics.get("fresh_population", {}).get("after")
        if fresh:
            self.log.appendPlainText("fresh population, after: " + ", ".join(f"{k} {v:.3f}" for k, v in fresh.items()))
        self.log.appendPlainText(f"{res.metrics.get('changed_parcels', 0)} parcels changed.\n\n{MEASURES}")
        self.show_changes(res.changes)
        out = []
        for name, style in (("parcels", "participation_parcels"), ("residents", "participation_residents")):
            frame = layers[name]
            lyr = memory_layer(frame, f"Participation {name}", frame.crs.to_wkt() if frame.crs else crs, style)
            QgsProject.instance().addMapLayer(lyr)
            out.append(lyr)
        return out


CHANGE_COLUMNS = ("parcel", "before → after", "community", "answers", "effect")


def change_rows(changes: list[dict]) -> list[tuple[str, ...]]:
    """The change table's rows: parcel, "before → after", community, the requests it answers
    (one per line), its effect on the objective."""
    return [(str(c["parcel"]), f"{c['from']} → {c['to']}", str(c["community"]),
             "\n".join(c.get("answers") or ()) or "–", f"{c['effect']:+.4f}" if c.get("effect") is not None else "–")
            for c in changes]


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"
