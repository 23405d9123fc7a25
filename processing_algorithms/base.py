"""Shared plumbing for CityPlanner algorithms: group, translation, error mapping."""
from __future__ import annotations

from qgis.core import QgsProcessingAlgorithm, QgsProcessingException
from qgis.PyQt.QtCore import QCoreApplication

from ..plugin.errors import Cancelled, InputError


class CityPlannerAlgorithm(QgsProcessingAlgorithm):
    GROUP = "City model"
    GROUP_ID = "citymodel"

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
