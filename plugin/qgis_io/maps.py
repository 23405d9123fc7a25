"""Styles from resources/styles and PNG maps (title, legend, scale bar) rendered offscreen by QGIS."""
from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from qgis.core import (
    QgsLayoutExporter,
    QgsLayoutItemLabel,
    QgsLayoutItemLegend,
    QgsLayoutItemMap,
    QgsLayoutItemScaleBar,
    QgsLayoutPoint,
    QgsLayoutSize,
    QgsLegendRenderer,
    QgsMapLayer,
    QgsPrintLayout,
    QgsProject,
    QgsRectangle,
    QgsTextFormat,
    QgsVectorLayer,
)
from qgis.PyQt.QtGui import QFont

from .. import RESOURCES
from .compat import DistanceUnit, LayoutUnit, LegendComponent

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


def render_png(layers: Sequence[QgsMapLayer], path: str | os.PathLike, title: str, subtitle: str = "",
               extent: QgsRectangle | None = None, map_width_mm: float = 170.0, dpi: int = 150,
               margin: float = 0.03) -> Path:
    """Render ``layers`` (top first) as a titled map with a legend and a scale bar to a PNG,
    written atomically. Extent: ``extent`` or the layers' union, grown by ``margin``.

    The layout lives in a private QgsProject, never the user's; the layers are not added to
    it (a project would take ownership and delete them with itself)."""
    if extent is None:
        extent = QgsRectangle()
        extent.setMinimal()
        for lyr in layers:
            extent.combineExtentWith(lyr.extent())
    extent = QgsRectangle(extent)
    extent.grow(margin * max(extent.width(), extent.height()))
    map_h = map_width_mm * extent.height() / max(extent.width(), 1e-9)
    pad, head = 5.0, 20.0 if subtitle else 11.0   # a subtitle may wrap to a second line
    project = QgsProject()
    layout = QgsPrintLayout(project)
    layout.initializeDefaults()
    item_map = QgsLayoutItemMap(layout)
    item_map.setLayers(list(layers))
    item_map.setCrs(layers[0].crs())
    item_map.attemptMove(QgsLayoutPoint(pad, pad + head, LayoutUnit.Millimeters))
    item_map.attemptResize(QgsLayoutSize(map_width_mm, map_h, LayoutUnit.Millimeters))
    item_map.setExtent(extent)
    item_map.setFrameEnabled(True)
    layout.addLayoutItem(item_map)
    _label(layout, title, 13, True, pad, pad, map_width_mm)
    if subtitle:
        _label(layout, subtitle, 9, False, pad, pad + 7.5, map_width_mm, lines=2)
    legend = QgsLayoutItemLegend(layout)
    legend.setLinkedMap(item_map)
    legend.setAutoUpdateModel(False)
    root = legend.model().rootGroup()
    root.clear()
    for lyr in layers:
        root.addLayer(lyr)
    legend.setTitle("")
    legend.setLegendFilterByMapEnabled(True)  # only the symbols the map shows (no empty 'flagged')
    legend.setStyleFont(LegendComponent.SymbolLabel, QFont("Sans", 8))
    legend.setStyleFont(LegendComponent.Subgroup, QFont("Sans", 9, QFont.Weight.Bold))
    legend.attemptMove(QgsLayoutPoint(2 * pad + map_width_mm, pad + head, LayoutUnit.Millimeters))
    layout.addLayoutItem(legend)
    # the item knows its size only once painted: measure the legend to size the page
    legend_w = max(45.0, QgsLegendRenderer(legend.model(), legend.legendSettings()).minimumSize().width())
    layout.pageCollection().page(0).setPageSize(
        QgsLayoutSize(map_width_mm + legend_w + 3 * pad, map_h + head + 2 * pad, LayoutUnit.Millimeters))
    bar = QgsLayoutItemScaleBar(layout)
    bar.setStyle("Single Box")
    bar.setLinkedMap(item_map)
    bar.applyDefaultSize()
    bar.setUnits(DistanceUnit.Meters)
    bar_text = QgsTextFormat()
    bar_text.setFont(QFont("Sans"))
    bar_text.setSize(7)
    bar.setTextFormat(bar_text)
    bar.attemptMove(QgsLayoutPoint(2 * pad + map_width_mm, pad + head + map_h - 12, LayoutUnit.Millimeters))
    layout.addLayoutItem(bar)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".png", dir=path.parent)
    os.close(fd)
    try:
        settings = QgsLayoutExporter.ImageExportSettings()
        settings.dpi = dpi
        if QgsLayoutExporter(layout).exportToImage(tmp, settings) != QgsLayoutExporter.ExportResult.Success:
            raise RuntimeError(f"could not render {path}")
        os.chmod(tmp, 0o644)  # mkstemp's 0600 would hide the maps from a web server
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)
    return path


def _label(layout: QgsPrintLayout, text: str, size: int, bold: bool, x: float, y: float, width: float,
           lines: int = 1) -> None:
    """A text of ``lines`` lines at most (a longer one is cut at the item's edge)."""
    label = QgsLayoutItemLabel(layout)
    label.setText(text)
    label.setFont(QFont("Sans", size, QFont.Weight.Bold if bold else QFont.Weight.Normal))
    label.attemptMove(QgsLayoutPoint(x, y, LayoutUnit.Millimeters))
    label.attemptResize(QgsLayoutSize(width, size * 0.6 * lines, LayoutUnit.Millimeters))
    layout.addLayoutItem(label)
