"""Plan audit: does a plan's land, site or link make sense on the map (no qgis import)."""
from .context import CITY_MODEL_FILE, AuditContext, context_for_workspace
from .rules import audit_plan
from .workspace import audit_warnings, audit_workspace, flag_text

__all__ = ["CITY_MODEL_FILE", "AuditContext", "audit_plan", "audit_warnings", "audit_workspace",
           "context_for_workspace", "flag_text"]
