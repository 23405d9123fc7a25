"""Styles from resources/styles and PNG maps rendered offscreen by QGIS."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Sequence

from qgis.core import (QgsMapLayer, QgsMapRendererSequentialJob, QgsMapSettings, QgsRectangle,
                       QgsVectorLayer)
from qgis.PyQt.QtCore import QSize
from qgis.PyQt.QtGui import QColor

from plugin import RESOURCES

STYLES = RESOURCES / "styles"


def style_path(name: str) -> Path:
    p = STYLES / f"{name}.qml"
    if not p.is_file():
        raise FileNotFoundError(f"no style {name} in {STYLES}")
    return p


def apply_style(layer: QgsVectorLayer, name: str) -> None:
    """Load resources/styles/<name>.qml onto ``layer``; a broken style is an error, not a grey map."""
    msg, ok = layer.loadNamedStyle(str(style_path(name)))
    if not ok:
        raise RuntimeError(f"style {name}: {msg}")
    layer.triggerRepaint()


def render_png(layers: Sequence[QgsMapLayer], path: str | os.PathLike, width: int = 1000,
               extent: QgsRectangle | None = None, margin: float = 0.03) -> Path:
    """Render ``layers`` (top first) to a PNG, written atomically; extent = their union."""
    if extent is None:
        extent = QgsRectangle()
        extent.setMinimal()
        for lyr in layers:
            extent.combineExtentWith(lyr.extent())
    extent = QgsRectangle(extent)
    extent.grow(margin * max(extent.width(), extent.height()))
    height = max(1, round(width * extent.height() / max(extent.width(), 1e-9)))
    settings = QgsMapSettings()
    settings.setLayers(list(layers))
    settings.setDestinationCrs(layers[0].crs())
    settings.setExtent(extent)
    settings.setOutputSize(QSize(width, height))
    settings.setBackgroundColor(QColor(255, 255, 255))
    settings.setFlag(QgsMapSettings.Antialiasing, True)
    job = QgsMapRendererSequentialJob(settings)
    job.start()
    job.waitForFinished()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".png", dir=path.parent)
    os.close(fd)
    try:
        if not job.renderedImage().save(tmp, "PNG"):
            raise RuntimeError(f"could not write {path}")
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)
    return path
