"""GUI side of the dependency check: the message bar offer, the Install dependencies actions
and the QgsTask that runs pip (``plugin.deps.installer``) off the main thread."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

from qgis.core import Qgis, QgsApplication, QgsMessageLog, QgsTask
from qgis.PyQt.QtCore import pyqtSignal

from ..deps import statuses
from ..deps.features import unmet_requirements
from ..deps.installer import InstallResult, plan, run
from ..deps.paths import activate, dependencies_prefix

LOG_TAG = "CityPlanner"


def profile_prefix() -> Path:
    """``<active QGIS profile>/python/dependencies`` (the QPIP folder)."""
    return dependencies_prefix(QgsApplication.qgisSettingsDirPath())


def activate_profile_packages() -> list[str]:
    """Put the profile's installed packages first on sys.path, before anything heavy is imported."""
    return activate(profile_prefix())


def default_wheelhouse() -> Path | None:
    """An offline wheelhouse: $CITYPLANNER_WHEELHOUSE, or a ``wheelhouse`` folder in the plugin."""
    from .. import PLUGIN_ROOT

    for cand in (os.environ.get("CITYPLANNER_WHEELHOUSE"), PLUGIN_ROOT / "wheelhouse"):
        if cand and Path(cand).is_dir():
            return Path(cand)
    return None


def log_unavailable_features() -> list[str]:
    """Log each disabled feature's one-line reason + fix; return the lines."""
    lines = [s.message for s in statuses() if not s.ok and s.feature.group != "dev"]
    for line in lines:
        QgsMessageLog.logMessage(line, LOG_TAG, Qgis.MessageLevel.Warning)
    return lines


class InstallTask(QgsTask):
    """pip into the profile's dependencies folder; ``done(result)`` is called on the main thread.
    ``stage`` carries the installer's line for each step (e.g. that a compile is under way and
    about how long it takes), delivered to the main thread for the progress bar's label."""

    stage = pyqtSignal(str)

    def __init__(self, groups: tuple[str, ...], find_links: Path | None,
                 done: Callable[[InstallResult], None]):
        reqs = [r for g in groups for r in unmet_requirements(g)]
        super().__init__(f"CityPlanner: installing {len(reqs)} packages", QgsTask.Flag.CanCancel)
        self.plan = plan(profile_prefix(), reqs, find_links)
        self.done = done
        self.result: InstallResult | None = None

    def run(self) -> bool:  # worker thread: no GUI, no project access
        try:
            self.result = run(self.plan, self._progress, self.isCanceled)
        except Exception as e:  # noqa: BLE001 (reported in finished(), on the main thread)
            self.result = InstallResult(False, str(e).splitlines()[0] if str(e) else type(e).__name__, "")
        return self.result.ok

    def _progress(self, fraction: float, line: str) -> None:  # worker thread
        self.setProgress(100 * fraction)
        if line:
            self.stage.emit(" ".join(str(line).split())[:160])

    def finished(self, ok: bool) -> None:  # main thread
        if self.result is None:
            self.result = InstallResult(False, "installation cancelled", "")
        if self.result.log:
            QgsMessageLog.logMessage(self.result.log, LOG_TAG, Qgis.MessageLevel.Info)
        activate_profile_packages()
        self.done(self.result)
