"""Shared plumbing for CityPlanner algorithms: group, translation, error mapping, output styles."""
from __future__ import annotations

from collections import OrderedDict

from qgis.core import (
    QgsProcessingAlgorithm,
    QgsProcessingContext,
    QgsProcessingException,
    QgsProcessingLayerPostProcessorInterface,
)
from qgis.PyQt.QtCore import QCoreApplication

from ..plugin.errors import Cancelled, InputError
from ..plugin.qgis_io.maps import apply_style


class CityPlannerAlgorithm(QgsProcessingAlgorithm):
    GROUP = "City model"
    GROUP_ID = "citymodel"

    def style_on_load(self, context: QgsProcessingContext, dest: str, style: str, bottom: bool = False) -> None:
        """Style the output ``dest`` with resources/styles/<style>.qml when QGIS loads it;
        ``bottom``: put it under the other layers (blocks must not hide the roads)."""
        if not context.willLoadLayerOnCompletion(dest):
            return
        styler = OutputStyler(dest, style, bottom)
        _PENDING[dest] = styler
        while len(_PENDING) > MAX_PENDING:  # outputs never loaded (a failed run) are dropped oldest first
            _PENDING.popitem(last=False)
        context.layerToLoadOnCompletionDetails(dest).setPostProcessor(styler)

    def tr(self, text: str) -> str:
        return QCoreApplication.translate(type(self).__name__, text)

    def createInstance(self):
        return type(self)()

    def group(self) -> str:
        return self.tr(self.GROUP)

    def groupId(self) -> str:
        return self.GROUP_ID

    def helpUrl(self) -> str:
        return "https://github.com/cityplanner-qgis/cityplanner#readme"

    @staticmethod
    def core(fn, *args, **kwargs):
        """Run core code, turning its one-line user errors into QgsProcessingException."""
        try:
            return fn(*args, **kwargs)
        except InputError as e:
            raise QgsProcessingException(str(e)) from None
        except Cancelled as e:
            raise QgsProcessingException(f"cancelled: {e}") from None


#: post-processors waiting for QGIS to load their layer. QGIS keeps only a pointer, and the
#: algorithm object that made them is a copy that QGIS deletes when the run ends, before the
#: outputs load: so they live here, by destination, until they have run.
_PENDING: OrderedDict[str, QgsProcessingLayerPostProcessorInterface] = OrderedDict()
MAX_PENDING = 256


class OutputStyler(QgsProcessingLayerPostProcessorInterface):
    """Applies a style to an output layer once QGIS has added it to the project."""

    def __init__(self, dest: str, style: str, bottom: bool = False):
        super().__init__()
        self.dest = dest
        self.style = style
        self.bottom = bottom

    def postProcessLayer(self, layer, context, feedback) -> None:  # noqa: N802 (QGIS API name)
        _PENDING.pop(self.dest, None)
        apply_style(layer, self.style)
        node = context.project().layerTreeRoot().findLayer(layer.id()) if context.project() else None
        if self.bottom and node is not None:
            parent = node.parent()
            parent.addChildNode(node.clone())   # appended = drawn last = under the others
            parent.removeChildNode(node)
