"""The plugin object QGIS creates: registers the Processing provider and, with a GUI, the
Planner and Participation docks with their toolbar toggles.

Under qgis_process ``iface`` is None: only ``initProcessing`` is called."""
from __future__ import annotations

from qgis.core import Qgis, QgsApplication, QgsMessageLog

from .dependencies import missing_dependencies


class CityPlannerPlugin:
    def __init__(self, iface):
        self.iface = iface
        self.provider = None
        self.dock = None  # the Planner dock
        self.participation_dock = None
        self.actions: list = []

    def initProcessing(self) -> None:  # noqa: N802 (QGIS API name)
        missing = missing_dependencies()
        if missing:
            QgsMessageLog.logMessage(f"CityPlanner needs: {', '.join(missing)} (pip install them into "
                                     "QGIS's Python, or run 'make qgis')", "CityPlanner", Qgis.Critical)
            return
        from ...processing_algorithms.provider import CityPlannerProvider

        self.provider = CityPlannerProvider()
        QgsApplication.processingRegistry().addProvider(self.provider)

    def initGui(self) -> None:  # noqa: N802 (QGIS API name)
        self.initProcessing()
        if self.iface is None or self.provider is None:
            return
        from .participation_dock import ParticipationDock
        from .planner_dock import PlannerDock

        self.dock = self._add_dock(PlannerDock(self.iface.mainWindow()), "CityPlanner Planner")
        self.participation_dock = self._add_dock(ParticipationDock(self.iface.mainWindow()), "CityPlanner Participation")

    def _add_dock(self, dock, title: str):
        from qgis.PyQt.QtCore import Qt
        from qgis.PyQt.QtGui import QIcon

        from .. import PLUGIN_ROOT

        self.iface.addDockWidget(Qt.RightDockWidgetArea, dock)
        dock.hide()
        action = dock.toggleViewAction()  # its checked state follows the dock's visibility
        action.setIcon(QIcon(str(PLUGIN_ROOT / "resources" / "icon.svg")))
        action.setText(title)
        self.iface.addToolBarIcon(action)
        self.actions.append(action)
        return dock

    def unload(self) -> None:
        for action in self.actions:
            self.iface.removeToolBarIcon(action)
        self.actions = []
        for dock in (self.dock, self.participation_dock):
            if dock is not None:
                dock.cancel()  # a running QgsTask must not outlive its dock
                self.iface.mainWindow().removeDockWidget(dock)
                dock.deleteLater()
        self.dock = self.participation_dock = None
        if self.provider is not None:
            QgsApplication.processingRegistry().removeProvider(self.provider)
            self.provider = None
