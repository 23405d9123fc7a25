"""Participation dock: run a participatory revision on a parcel layer in a QgsTask.

The plugin class adds it to the main window and removes it on unload. The worker thread
only runs core code; layers are made and added on the main thread in ``_finished``.
"""
from __future__ import annotations

from qgis.core import (QgsApplication, QgsCategorizedSymbolRenderer, QgsGraduatedSymbolRenderer,
                       QgsMapLayerProxyModel, QgsProject, QgsRendererCategory, QgsStyle, QgsSymbol, QgsTask,
                       QgsVectorLayer)
from qgis.gui import QgsDockWidget, QgsFieldComboBox, QgsMapLayerComboBox
from qgis.PyQt.QtGui import QColor
from qgis.PyQt.QtWidgets import (QComboBox, QFormLayout, QHBoxLayout, QPlainTextEdit, QPushButton, QSpinBox,
                                 QVBoxLayout, QWidget)

from ..errors import Cancelled, InputError

COLORS = {"residential": "#f5e6a8", "feasible": "#dddddd", "business": "#e4572e", "office": "#6c5b7b",
          "green_l": "#2e8b57", "green_s": "#8fd19e", "school": "#f3a712", "hospital_l": "#c0392b",
          "hospital_s": "#ff7f7f", "recreation": "#29a3d6"}
LLM_THREADS = 1        # the dock shares the machine with QGIS itself
LLM_MAX_TOKENS = 64


class ParticipationDock(QgsDockWidget):
    def __init__(self, parent=None):
        super().__init__("Participation", parent)
        self.setObjectName("CityPlannerParticipationDock")
        self.task: QgsTask | None = None
        w = QWidget()
        form = QFormLayout()
        self.layer = QgsMapLayerComboBox()
        self.layer.setFilters(QgsMapLayerProxyModel.PolygonLayer)
        self.field = QgsFieldComboBox()
        self.field.setLayer(self.layer.currentLayer())
        self.layer.layerChanged.connect(self.field.setLayer)
        form.addRow("Parcel layer", self.layer)
        form.addRow("Land-use field", self.field)
        self.spins = {}
        for key, lo, hi, val in (("residents", 1, 100000, 1000), ("rounds", 1, 20, 3), ("speakers", 1, 1000, 50),
                                 ("communities", 1, 50, 4), ("seed", 0, 10**6, 0)):
            s = QSpinBox()
            s.setRange(lo, hi)
            s.setValue(val)
            self.spins[key] = s
            form.addRow(key.capitalize(), s)
        self.persona = QComboBox()
        self.persona.addItems(["rules", "llm"])
        form.addRow("Persona", self.persona)
        self.run_btn, self.cancel_btn = QPushButton("Run"), QPushButton("Cancel")
        self.cancel_btn.setEnabled(False)
        self.run_btn.clicked.connect(self.start)
        self.cancel_btn.clicked.connect(self.cancel)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_btn)
        buttons.addWidget(self.cancel_btn)
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        box = QVBoxLayout(w)
        box.addLayout(form)
        box.addLayout(buttons)
        box.addWidget(self.log)
        self.setWidget(w)

    # ------------------------------------------------------------------ running
    def config(self):
        from ..participation import Config

        v = {k: s.value() for k, s in self.spins.items()}
        return Config(v["residents"], v["rounds"], v["speakers"], v["communities"], self.persona.currentText(),
                      "solver", v["seed"])

    def start(self) -> None:
        layer, fld = self.layer.currentLayer(), self.field.currentField()
        if layer is None or not fld:
            self.log.appendPlainText("error: choose a parcel layer and its land-use field")
            return
        from ..qgis_io.layers import source_to_gdf

        try:
            gdf = source_to_gdf(layer, layer.name(), "polygon", [fld])
        except Exception as e:  # QgsProcessingException: a one-line message about the layer
            self.log.appendPlainText(f"error: {e}")
            return
        cfg, crs = self.config(), layer.crs()
        self.log.clear()
        self.task = QgsTask.fromFunction("Participatory revision", self._work, gdf, fld, cfg,
                                         on_finished=lambda exc, res=None: self._finished(exc, res, crs))
        self.run_btn.setEnabled(False)
        self.cancel_btn.setEnabled(True)
        QgsApplication.taskManager().addTask(self.task)

    @staticmethod
    def _work(task: QgsTask, gdf, fld, cfg):
        """Worker thread: core code only (no layers, no widgets)."""
        from ..participation import region_from_gdf, result_layers, run_with_voice

        res = run_with_voice(region_from_gdf(gdf, fld, "parcel layer"), cfg, threads=LLM_THREADS,
                             max_tokens=LLM_MAX_TOKENS, cancel=task.isCanceled,
                             on_event=lambda rec: task.setProgress(min(99.0, task.progress() + 1)))
        return res, result_layers(res)

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
            return
        res, layers = result
        self.show_result(res, layers, crs)

    def show_result(self, res, layers, crs) -> list[QgsVectorLayer]:
        """Transcript, metrics, and two map layers: revised land use, resident satisfaction."""
        for rec in res.events:
            if rec["event"] == "round":
                self.log.appendPlainText(rec["summary"]["text"])
            else:
                self.log.appendPlainText(f"== community {rec['community']}: {'revised' if rec['accepted'] else 'kept'}"
                                         f" ({rec['reason']}), {len(rec['changes'])} parcels changed")
        for when in ("before", "after"):
            self.log.appendPlainText(f"{when}: " + ", ".join(f"{k} {v:.3f}" for k, v in res.metrics[when].items()))
        out = []
        for name, field, renderer in (("parcels", "landuse", _landuse_renderer), ("residents", "satisfaction", _sat_renderer)):
            gdf = layers[name]
            lyr = QgsVectorLayer(gdf.to_json(drop_id=True), f"Participation {name}", "ogr")
            lyr.setCrs(crs)
            lyr.setRenderer(renderer(lyr, field))
            QgsProject.instance().addMapLayer(lyr)
            out.append(lyr)
        return out


def _landuse_renderer(layer: QgsVectorLayer, field: str):
    cats = []
    for value, color in COLORS.items():
        sym = QgsSymbol.defaultSymbol(layer.geometryType())
        sym.setColor(QColor(color))
        cats.append(QgsRendererCategory(value, sym, value))
    return QgsCategorizedSymbolRenderer(field, cats)


def _sat_renderer(layer: QgsVectorLayer, field: str):
    """Red (unsatisfied) to green, five equal classes of 0..1."""
    r = QgsGraduatedSymbolRenderer(field)
    r.setSourceSymbol(QgsSymbol.defaultSymbol(layer.geometryType()))
    r.setSourceColorRamp(QgsStyle.defaultStyle().colorRamp("RdYlGn"))
    r.updateClasses(layer, QgsGraduatedSymbolRenderer.EqualInterval, 5)
    return r
