"""One layer group per run, kept in the workspace's GeoPackage so it survives a restart.

A run's layers (the plan, the answer's places) are written as tables of
``<workspace>/outputs/layers.gpkg`` and loaded back from there: not "temporary scratch layers"
that QGIS drops at exit. They sit in one group named after the run ("CityPlanner station ·
default · 14:05:31"); a group of the same name is replaced, never stacked, so a repeated
action adds no second copy (and no label drawn twice over itself). Main thread only.
"""
from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from qgis.core import (QgsCoordinateTransformContext, QgsLayerTreeGroup, QgsProject, QgsVectorFileWriter,
                       QgsVectorLayer)

GPKG = "outputs/layers.gpkg"
PREFIX = "CityPlanner"


def run_group_name(task: str, method: str, when: datetime | None = None) -> str:
    """"CityPlanner station · default · 14:05:31" (task, method, local time of the run)."""
    return f"{PREFIX} {task} · {method} · {(when or datetime.now()).strftime('%H:%M:%S')}"


def table_name(group: str, layer_name: str) -> str:
    """A GeoPackage table name for a layer of a group (letters, digits, underscores)."""
    text = f"{group.removeprefix(PREFIX)}_{layer_name}".lower()
    return re.sub(r"[^0-9a-z]+", "_", text).strip("_")[:60]


def save_run_group(workspace: str | Path, group: str, layers: list[QgsVectorLayer],
                   project: QgsProject | None = None, top: bool = True) -> list[QgsVectorLayer]:
    """Write ``layers`` into the workspace's GeoPackage and show them, from there, as the layer
    group ``group`` (replacing one of that name); returns the loaded layers, styled as given."""
    project = project or QgsProject.instance()
    path = Path(workspace) / GPKG
    path.parent.mkdir(parents=True, exist_ok=True)
    root = project.layerTreeRoot()
    old = root.findGroup(group)
    if old is not None:   # the same run saved again: replace, never stack
        project.removeMapLayers(old.findLayerIds())
        root.removeChildNode(old)
    loaded = []
    for layer in layers:
        table = table_name(group, layer.name())
        opts = QgsVectorFileWriter.SaveVectorOptions()
        opts.driverName = "GPKG"
        opts.layerName = table
        opts.actionOnExistingFile = (QgsVectorFileWriter.ActionOnExistingFile.CreateOrOverwriteLayer if path.exists()
                                     else QgsVectorFileWriter.ActionOnExistingFile.CreateOrOverwriteFile)
        err = QgsVectorFileWriter.writeAsVectorFormatV3(layer, str(path), QgsCoordinateTransformContext(), opts)
        if err[0] != QgsVectorFileWriter.WriterError.NoError:
            raise RuntimeError(f"could not save {layer.name()} into {path.name}: {err[1]}")
        saved = QgsVectorLayer(f"{path}|layername={table}", layer.name(), "ogr")
        if not saved.isValid():
            raise RuntimeError(f"could not read {table} back from {path.name}")
        saved.setRenderer(layer.renderer().clone())
        if layer.labeling() is not None:
            saved.setLabeling(layer.labeling().clone())
        saved.setLabelsEnabled(layer.labelsEnabled())
        loaded.append(saved)
    node = QgsLayerTreeGroup(group)
    root.insertChildNode(0 if top else -1, node)
    for saved in loaded:
        project.addMapLayer(saved, False)
        node.addLayer(saved)
    return loaded


__all__ = ["GPKG", "run_group_name", "save_run_group", "table_name"]
