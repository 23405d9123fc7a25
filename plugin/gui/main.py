"""The plugin object QGIS creates: registers the Processing provider (and, with a GUI, docks).

Under qgis_process ``iface`` is None: only ``initProcessing`` is called."""
from __future__ import annotations

from qgis.core import QgsApplication

from plugin.gui.dependencies import missing_dependencies


class CityPlannerPlugin:
    def __init__(self, iface):
        self.iface = iface
        self.provider = None

    def initProcessing(self) -> None:  # noqa: N802 (QGIS API name)
        missing = missing_dependencies()
        if missing:
            from qgis.core import Qgis, QgsMessageLog

            QgsMessageLog.logMessage(f"CityPlanner needs: {', '.join(missing)} (pip install them into "
                                     "QGIS's Python, or run 'make qgis')", "CityPlanner", Qgis.Critical)
            return
        from processing_algorithms.provider import CityPlannerProvider

        self.provider = CityPlannerProvider()
        QgsApplication.processingRegistry().addProvider(self.provider)

    def initGui(self) -> None:  # noqa: N802 (QGIS API name)
        self.initProcessing()

    def unload(self) -> None:
        if self.provider is not None:
            QgsApplication.processingRegistry().removeProvider(self.provider)
            self.provider = None
