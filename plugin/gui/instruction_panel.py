"""The Planner dock's instruction line: words → constraints → a certified re-plan and its price.

Type an instruction ("no station within 300 m of Kansallisteatteri"), *Price* it (nothing is
stored) or *Apply* it (stored in the workspace's ``constraints/``); the reply says what it
costs ("this instruction costs 0.012 score (3.2 %)") or asks what is unclear, and the plans
before and after go on the map side by side. The stored instructions are listed; *Remove*
and *Clear* edit the list (to change one, remove it and type it again). The work runs in a
QgsTask; the rules read common forms, the dock's model the rest (in its worker process).
"Only inside the selection" / "nothing in the selected area" use the features selected in the
active layer as the area.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from qgis.core import QgsApplication, QgsCoordinateTransform, QgsGeometry, QgsProject, QgsTask, QgsVectorLayer
from qgis.PyQt.QtCore import Qt, pyqtSignal
from qgis.PyQt.QtGui import QColor
from qgis.PyQt.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from ..util.words import gap_text

BEFORE_LAYER = "CityPlanner: plan before the instruction"
AFTER_LAYER = "CityPlanner: plan after the instruction"


def selection_wkt(workspace: str) -> str | None:
    """The union of the active layer's selected features in the workspace's CRS (main thread),
    or None when nothing is selected: the area "the selection" names in an instruction."""
    from qgis.utils import iface

    from ..qgis_io.report_map import qgs_crs

    layer = iface.activeLayer() if iface is not None else None
    if not isinstance(layer, QgsVectorLayer) or not layer.selectedFeatureCount():
        return None
    crs = json.loads((Path(workspace) / "input" / "city_state.json").read_text(encoding="utf-8"))["crs"]
    xf = QgsCoordinateTransform(layer.crs(), qgs_crs(crs), QgsProject.instance())
    geoms = []
    for f in layer.selectedFeatures():
        g = QgsGeometry(f.geometry())
        g.transform(xf)
        geoms.append(g)
    return QgsGeometry.unaryUnion(geoms).asWkt()


class InstructTask(QgsTask):
    """``instruct`` off the main thread; the plan frames are made here too."""

    ended = pyqtSignal(object)   # the reply with "frames", or {"error": …}

    def __init__(self, workspace: str, text: str, apply: bool, model: str | None, selection: str | None = None):
        super().__init__(f"CityPlanner: instruction on {Path(workspace).name}", QgsTask.Flag.CanCancel)
        self.workspace, self.text, self.apply, self.model = workspace, text, apply, model
        self.selection = selection
        self.reply: dict[str, Any] | None = None
        self.error: str | None = None

    def run(self) -> bool:
        from ..agent.backend import make_backend
        from ..agent.timebox import BoxedBackend, explicit_model
        from ..constraints.roundtrip import instruct
        from ..qgis_io.plans import plan_frame
        from ..sandbox.workspace import load_instance

        # the default fallback is skipped; a model the planner chose is tried under the time box
        backend = BoxedBackend(lambda: make_backend(self.model or None)) if explicit_model(self.model, None) else None
        try:
            inst = load_instance(self.workspace)
            reply = instruct(self.workspace, self.text, inst, backend, apply=self.apply, selection=self.selection)
            if reply["plan"]:
                reply["frames"] = {"task": inst.task, "crs": inst.crs,
                                   "before": plan_frame(inst, reply["plan"]["before_ids"]),
                                   "after": plan_frame(inst, reply["plan"]["candidate_ids"])}
            self.reply = reply
            return True
        except Exception as e:  # noqa: BLE001 - reported on the main thread in finished()
            self.error = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            return False
        finally:
            if backend is not None:
                backend.close()

    def finished(self, ok: bool) -> None:  # noqa: D401 - QGIS calls this on the main thread
        self.ended.emit(self.reply if ok and self.reply is not None else {"error": self.error or "cancelled"})


class InstructionPanel(QWidget):
    """The instruction line, the price, and the editable list of stored instructions."""

    changed = pyqtSignal()   # the stored instructions changed: the dock re-judges the workspace's best plan

    def __init__(self, workspace: Callable[[], str], model: Callable[[], str], parent: QWidget | None = None):
        super().__init__(parent)
        self.workspace, self.model = workspace, model
        self.selection: Callable[[str], str | None] = selection_wkt   # "inside the selection"
        self.task: InstructTask | None = None
        self.last: dict[str, Any] | None = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        self.line = QLineEdit()
        self.line.setPlaceholderText(self.tr("Instruction, e.g. keep 400 m between stations"))
        self.line.returnPressed.connect(lambda: self.run(apply=False))
        self.price_button = QPushButton(self.tr("Price"))
        self.price_button.setToolTip(self.tr("re-plan with the instruction and show what it costs; nothing is stored"))
        self.apply_button = QPushButton(self.tr("Apply"))
        self.apply_button.setToolTip(self.tr("store the instruction in the workspace and re-plan"))
        self.price_button.clicked.connect(lambda: self.run(apply=False))
        self.apply_button.clicked.connect(lambda: self.run(apply=True))
        for w in (self.line, self.price_button, self.apply_button):
            row.addWidget(w)
        lay.addLayout(row)
        self.price = QLabel(self.tr("Instructions become constraints the solver must meet; their price is "
                                    "the score they cost."))
        self.price.setWordWrap(True)
        self.price.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(self.price)
        self.stored = QListWidget()
        self.stored.setMaximumHeight(90)
        self.stored.setToolTip(self.tr("instructions stored in the workspace (the agent's terminal cannot change them)"))
        lay.addWidget(self.stored)
        edit = QHBoxLayout()
        self.remove_button = QPushButton(self.tr("Remove"))
        self.clear_button = QPushButton(self.tr("Clear"))
        self.remove_button.clicked.connect(self.remove_selected)
        self.clear_button.clicked.connect(self.clear)
        edit.addWidget(self.remove_button)
        edit.addWidget(self.clear_button)
        edit.addStretch(1)
        lay.addLayout(edit)

    # ---------------------------------------------------------------- list
    def refresh(self) -> None:
        from ..constraints import store
        from ..constraints.schema import summary

        self.stored.clear()
        ws = self.workspace()
        if not ws or not (Path(ws) / "input" / "export.json").is_file():
            return
        for c in store.load(ws):
            item = QListWidgetItem(f"{c['key']}: {summary(c)}  [{c.get('source', '?')}]")
            item.setData(Qt.ItemDataRole.UserRole, c["key"])
            item.setToolTip(c.get("text", ""))
            self.stored.addItem(item)

    def remove_selected(self) -> None:
        from ..constraints import store

        for item in self.stored.selectedItems():
            store.remove(self.workspace(), item.data(Qt.ItemDataRole.UserRole))
        self.refresh()
        self.changed.emit()

    def clear(self) -> None:
        from ..constraints import store

        if self.workspace():
            store.clear(self.workspace())
        self.refresh()
        self.changed.emit()

    # ---------------------------------------------------------------- run
    def run(self, apply: bool) -> InstructTask | None:
        text, ws = self.line.text().strip(), self.workspace()
        if not text or not ws or not (Path(ws) / "input" / "export.json").is_file():
            self.price.setText(self.tr("Type an instruction and open a workspace first."))
            return None
        if self.task is not None:
            return None
        self.task = InstructTask(ws, text, apply, self.model(), self.selection(ws))
        self.task.ended.connect(self.on_reply)
        self.price_button.setEnabled(False)
        self.apply_button.setEnabled(False)
        self.price.setText(self.tr("Reading the instruction and re-planning …"))
        QgsApplication.taskManager().addTask(self.task)
        return self.task

    def on_reply(self, reply: dict[str, Any]) -> None:
        from ..constraints.roundtrip import price_text

        self.task = None
        self.last = reply
        self.price_button.setEnabled(True)
        self.apply_button.setEnabled(True)
        if "error" in reply:
            self.price.setText(self.tr("Failed: ") + reply["error"])
            return
        said = [c["summary"] + f" <i>({c['source']})</i>" for c in reply["constraints"]]
        lines = [f"<b>{price_text(reply)}</b>"] + said + [f"<i>{n}</i>" for n in reply.get("notes", [])]
        after = reply.get("after") or {}
        if after.get("score") is not None:
            lines.append(f"score {reply['before']['score']:.4f} → {after['score']:.4f}, bound "
                         f"{after['upper_bound']:.4f}, {gap_text(after.get('gap'), 2)}"
                         + ("" if reply["applied"] else " — not stored: Apply keeps it"))
        self.price.setText("<br>".join(lines))
        frames = reply.get("frames")
        if frames:
            self.show_plans(frames)
        if reply.get("places") and frames:
            self.show_places(reply["places"], frames["crs"])
        self.refresh()
        if reply.get("applied"):
            self.changed.emit()

    def show_places(self, places: list[dict[str, Any]], crs: str) -> list[QgsVectorLayer]:
        """What the instruction refers to — the place and, for a distance rule, the ring of that
        radius around it — as one layer group, and the map zoomed to it."""
        import geopandas as gpd
        import shapely

        from ..qgis_io.report_map import memory_layer
        from ..qgis_io.run_layers import run_group_name
        from .planner_dock import add_group, zoom_to_layers

        geoms = [shapely.from_wkt(p["wkt"]) for p in places]
        names = [str(p.get("target") or p.get("key") or "place") for p in places]
        layers = [memory_layer(gpd.GeoDataFrame({"name": names}, geometry=geoms, crs=crs or None), "place", crs)]
        rings = [(n, g.buffer(float(p["distance_m"])), float(p["distance_m"]))
                 for n, g, p in zip(names, geoms, places, strict=False) if p.get("distance_m")]
        if rings:
            ring = gpd.GeoDataFrame({"name": [r[0] for r in rings], "distance_m": [r[2] for r in rings]},
                                    geometry=[r[1] for r in rings], crs=crs or None)
            layer = memory_layer(ring, "distance ring", crs)
            layer.renderer().symbol().setColor(QColor(0, 0, 0, 0))   # an outline: the plan stays readable
            layer.renderer().symbol().symbolLayer(0).setStrokeColor(QColor("#b00020"))
            layer.renderer().symbol().symbolLayer(0).setStrokeWidth(0.6)
            layers.append(layer)
        layers = add_group(run_group_name("instruction", "place"), layers)
        zoom_to_layers(layers)
        return layers

    def show_plans(self, frames: dict[str, Any]) -> None:
        """The plans before and after the instruction as two layers, side by side in the legend."""
        from ..qgis_io.plans import GEOMETRY
        from ..qgis_io.report_map import memory_layer
        from ..tasks.registry import spec

        project = QgsProject.instance()
        for name in (BEFORE_LAYER, AFTER_LAYER):
            project.removeMapLayers([layer.id() for layer in project.mapLayersByName(name)])
        task = frames["task"]
        before = memory_layer(frames["before"], BEFORE_LAYER, frames["crs"], spec(task).style, GEOMETRY[task][0])
        after = memory_layer(frames["after"], AFTER_LAYER, frames["crs"], spec(task).style, GEOMETRY[task][0])
        before.setOpacity(0.45)   # the old plan stays visible under the new one
        before.setLabelsEnabled(False)   # shared sites: one label each (the plan after's)
        project.addMapLayer(before)
        project.addMapLayer(after)
