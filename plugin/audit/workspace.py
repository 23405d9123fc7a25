"""Audit a workspace's plan: the ``audit`` command and the warnings ``evaluate`` adds."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .context import CITY_MODEL_FILE, AuditContext, context_for_workspace
from .rules import audit_plan


def audit_workspace(ws: str | Path, inst, ids: list) -> dict[str, Any]:
    """The audit JSON of ``ids`` against the workspace's city model (or its bundled region)."""
    return audit_plan(inst, ids, context_for_workspace(ws, inst))


def audit_warnings(ws: str | Path, inst, ids: list) -> list[str]:
    """One evaluator warning per audit flag; none when the workspace saved no city model
    (rebuilding a region on every evaluation would be too slow for a search loop)."""
    path = Path(ws) / CITY_MODEL_FILE
    if not path.is_file():
        return []
    return [flag_text(f) for f in audit_plan(inst, ids, AuditContext.read(path))["flags"]]


def flag_text(flag: dict[str, Any]) -> str:
    if flag.get("kind") == "not_checked":
        return f"audit: {flag['rule']} not checked ({flag['why']})"
    return f"audit: {flag['id']} {flag['reason']} ({flag['value']:g}; limit {flag['limit']:g})"
