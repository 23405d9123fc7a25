"""The plugin object QGIS creates: registers the Processing provider and, with a GUI, the
Planner and Participation docks with their toolbar toggles.

Under qgis_process ``iface`` is None: only ``initProcessing`` is called.

Missing Python packages never raise here: the profile's dependencies folder goes on
sys.path first, each feature is checked from package metadata (``plugin.deps``), and what is
missing is offered for installation in the message bar and the Plugins › CityPlanner menu.
"""
from __future__ import annotations

from qgis.core import Qgis, QgsApplication

from ..deps import status
from ..deps.features import unmet_requirements
from .dependencies import (InstallTask, activate_profile_packages, default_wheelhouse,
                           log_unavailable_features)

MENU = "&CityPlanner"


#: notices that third-party packages raise while importing themselves, not about anything a
#: planner or this plugin does: geopandas 1.0 (what pip picks for Debian 12's Python) imports
#: the ``shapely.geos`` module that shapely 2.1 deprecates. QGIS shows each such notice, with
#: a traceback through the plugin's imports, in the "Python warning" log at every start.
IMPORT_NOTICES = (r"The 'shapely\.geos' module is deprecated",)


def quiet_third_party_imports() -> None:
    """Import geopandas (and so shapely) once with those notices silenced; later imports are
    no-ops, and any other warning still reaches the log."""
    import warnings

    with warnings.catch_warnings():
        for pattern in IMPORT_NOTICES:
            warnings.filterwarnings("ignore", message=pattern, category=DeprecationWarning)
        import geopandas  # noqa: F401


class CityPlannerPlugin:
    def __init__(self, iface):
        self.iface = iface
        self.provider = None
        self.dock = None  # the Planner dock
        self.participation_dock = None
        self.actions: list = []
        self.menu_actions: list = []
        self.install_task = None
        self.offer = None  # the message bar item offering the install
        self.progress = None  # the message bar item showing a running install
        self.progress_label = None
        self.logged = False
        activate_profile_packages()

    def initProcessing(self) -> None:  # noqa: N802 (QGIS API name)
        if self.provider is not None:
            return
        if not self.logged:  # each disabled feature's reason + fix, once, also under qgis_process
            log_unavailable_features()
            self.logged = True
        if not status("processing").ok:
            return  # logged above, offered in the message bar
        quiet_third_party_imports()
        from ...processing_algorithms.provider import CityPlannerProvider

        self.provider = CityPlannerProvider()
        QgsApplication.processingRegistry().addProvider(self.provider)

    def initGui(self) -> None:  # noqa: N802 (QGIS API name)
        self.initProcessing()
        if self.iface is None:
            return
        self._add_menu_actions()
        missing = unmet_requirements("core")
        if missing:
            self._offer_install([r.dist for r in missing])
        self._add_docks()

    def _add_docks(self) -> None:
        if self.provider is None or self.dock is not None:
            return  # the docks drive the algorithms: they need the provider's packages
        from .participation_dock import ParticipationDock
        from .planner_dock import PlannerDock

        self.dock = self._add_dock(PlannerDock(self.iface.mainWindow()), "CityPlanner Planner", "icons/planner.svg")
        self.participation_dock = self._add_dock(ParticipationDock(self.iface.mainWindow()),
                                                 "CityPlanner Participation", "icons/participation.svg")

    def _add_dock(self, dock, title: str, icon: str):
        from qgis.PyQt.QtCore import Qt

        self.iface.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        dock.hide()
        action = dock.toggleViewAction()  # its checked state follows the dock's visibility
        action.setIcon(self._icon(icon))  # one icon per dock: the two buttons must not look alike
        action.setText(title)
        action.setToolTip(f"Show or hide the {title} dock")
        self.iface.addToolBarIcon(action)
        self.actions.append(action)
        return dock

    @staticmethod
    def _icon(name: str = "icon.svg"):
        from qgis.PyQt.QtGui import QIcon

        from .. import PLUGIN_ROOT

        return QIcon(str(PLUGIN_ROOT / "resources" / name))

    # ---------------------------------------------------------------- dependencies
    def _add_menu_actions(self) -> None:
        from qgis.PyQt.QtWidgets import QAction

        for text, slot in (("Install dependencies", lambda: self.install(("core",))),
                           ("Install dependencies from a folder…", self.install_from_folder),
                           ("Install local LLM support (llama-cpp-python)", lambda: self.install(("llm",)))):
            action = QAction(self._icon(), text, self.iface.mainWindow())
            action.triggered.connect(slot)
            self.iface.addPluginToMenu(MENU, action)
            self.menu_actions.append(action)

    def _offer_install(self, names: list[str]) -> None:
        from qgis.PyQt.QtWidgets import QPushButton

        bar = self.iface.messageBar()
        noun = "package" if len(names) == 1 else "packages"
        widget = bar.createMessage(f"CityPlanner needs {len(names)} {noun}", f"({', '.join(names)})")
        button = QPushButton("Install…", widget)
        button.clicked.connect(lambda: self.install(("core",)))
        widget.layout().addWidget(button)
        self.offer = bar.pushWidget(widget, Qgis.MessageLevel.Warning)

    def install_from_folder(self) -> None:
        from qgis.PyQt.QtWidgets import QFileDialog

        folder = QFileDialog.getExistingDirectory(self.iface.mainWindow(), "Folder with wheels (wheelhouse)")
        if folder:
            from pathlib import Path

            self.install(("core",), Path(folder))

    def install(self, groups: tuple[str, ...] = ("core",), find_links=None):
        """Start pip in a QgsTask for the unmet requirements of ``groups``; returns the task."""
        if self.install_task is not None:
            return self.install_task
        if not any(unmet_requirements(g) for g in groups):
            self.iface.messageBar().pushMessage("CityPlanner", "all packages are installed", Qgis.MessageLevel.Success, 5)
            return None
        self.install_task = InstallTask(groups, find_links or default_wheelhouse(), self._installed)
        self._show_progress(self.install_task)
        QgsApplication.taskManager().addTask(self.install_task)
        return self.install_task

    def _show_progress(self, task) -> None:
        """One message bar item for the whole install: a progress bar and the installer's current
        step (a compile says so, with its rough duration). The Install… offer goes away while it
        runs, and its buttons and menu actions are disabled, so nothing invites a second click."""
        from qgis.PyQt.QtWidgets import QLabel, QProgressBar

        bar = self.iface.messageBar()
        if self.offer is not None:
            bar.popWidget(self.offer)
            self.offer = None
        widget = bar.createMessage("CityPlanner", f"installing {len(task.plan.requirements)} packages …")
        progress = QProgressBar(widget)
        progress.setObjectName("CityPlannerInstallProgress")
        progress.setRange(0, 100)
        progress.setValue(0)
        progress.setMaximumWidth(260)
        label = QLabel("starting pip …", widget)
        label.setObjectName("CityPlannerInstallStage")
        widget.layout().addWidget(progress)
        widget.layout().addWidget(label)
        task.progressChanged.connect(lambda v: progress.setValue(int(v)))
        task.stage.connect(label.setText)
        for action in self.menu_actions:
            action.setEnabled(False)
        self.progress = bar.pushWidget(widget, Qgis.MessageLevel.Info)
        self.progress_label = label

    def _installed(self, result) -> None:
        self.install_task = None
        bar = self.iface.messageBar()
        for action in self.menu_actions:
            action.setEnabled(True)
        for item in (self.offer, self.progress):
            if item is not None:
                bar.popWidget(item)
        self.offer = self.progress = self.progress_label = None
        if not result.ok:
            bar.pushMessage("CityPlanner", f"{result.message} (details: View › Panels › Log Messages › CityPlanner)",
                            Qgis.MessageLevel.Critical, 0)
            return
        if result.restart_needed:
            bar.pushMessage("CityPlanner", result.message, Qgis.MessageLevel.Warning, 0)
            return
        self.initProcessing()
        self._add_docks()
        if self.dock is not None:
            self.dock.refresh_llm_note()   # "Local LLM … unavailable" must not outlive the install
        bar.pushMessage("CityPlanner", f"{result.message} — ready", Qgis.MessageLevel.Success, 10)

    def unload(self) -> None:
        for action in self.actions:
            self.iface.removeToolBarIcon(action)
        self.actions = []
        if self.iface is not None:
            for action in self.menu_actions:
                self.iface.removePluginMenu(MENU, action)
        self.menu_actions = []
        for dock in (self.dock, self.participation_dock):
            if dock is not None:
                dock.cancel()  # a running QgsTask must not outlive its dock
                self.iface.mainWindow().removeDockWidget(dock)
                dock.deleteLater()
        self.dock = self.participation_dock = None
        if self.provider is not None:
            QgsApplication.processingRegistry().removeProvider(self.provider)
            self.provider = None
