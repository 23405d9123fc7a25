"""The last workspace the planner used, remembered across dialogs, docks and restarts.

The Planner dock, Build/Solve/Evaluate in Processing all write it when they use a workspace,
and read it where a workspace is asked for, so the path is typed once (QgsSettings, i.e. the
QGIS profile). Safe from a Processing worker thread (each call makes its own QgsSettings).
"""
from __future__ import annotations

from pathlib import Path

from qgis.core import QgsSettings

KEY = "cityplanner/last_workspace"


def remember_workspace(path: str | Path | None) -> None:
    """Remember ``path`` when it is a workspace (a folder with input/export.json)."""
    if path and (Path(path) / "input" / "export.json").is_file():
        QgsSettings().setValue(KEY, str(Path(path)))


def last_workspace() -> str:
    """The last workspace used, or "" (none yet, or it has gone)."""
    value = str(QgsSettings().value(KEY, "") or "")
    return value if value and (Path(value) / "input" / "export.json").is_file() else ""


__all__ = ["KEY", "last_workspace", "remember_workspace"]
