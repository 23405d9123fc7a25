"""The plugin object QGIS creates: registers the Processing provider (and, with a GUI, docks).

Under qgis_process ``iface`` is None: only ``initProcessing`` is called."""
from __future__ import annotations

from qgis.core import QgsApplication

from plugin.gui.dependencies import missing_dependencies


class CityPlannerPlugin:
    def __init__(self, iface):
        self.iface = iface
        self.provider = None
        self.dock = None
        self.action = None

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
        if self.iface is None:
            return
        from qgis.PyQt.QtCore import Qt
        from qgis.PyQt.QtGui import QIcon

        from plugin import PLUGIN_ROOT
        from plugin.gui.planner_dock import PlannerDock

        self.dock = PlannerDock(self.iface.mainWindow())
        self.iface.addDockWidget(Qt.RightDockWidgetArea, self.dock)
        self.dock.hide()
        self.action = self.dock.toggleViewAction()  # checked state follows the dock's visibility
        self.action.setIcon(QIcon(str(PLUGIN_ROOT / "resources" / "icon.svg")))
        self.action.setText("CityPlanner Planner")
        self.iface.addToolBarIcon(self.action)

    def unload(self) -> None:
        if self.dock is not None:
            self.dock.cancel()
            self.iface.removeToolBarIcon(self.action)
            self.iface.removeDockWidget(self.dock)
            self.dock.deleteLater()
            self.dock = self.action = None
        if self.provider is not None:
            QgsApplication.processingRegistry().removeProvider(self.provider)
            self.provider = None
