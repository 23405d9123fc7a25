"""The FLAGS output of the Solve and Evaluate algorithms: the plan audited on the map."""
from __future__ import annotations

import json

from qgis.core import QgsProcessingFeedback

from ..plugin.audit import AuditContext, audit_plan, context_for_workspace, flag_text
from ..plugin.errors import InputError

FLAGS_HELP = ("JSON {\"flags\": [{\"id\", \"reason\", \"value\", \"limit\"}], \"checked\": N}: selected sites "
              "or links that make no sense on the map (on the road reserve or water, outside the study "
              "area, narrower or smaller than their type needs, a new link through a building, a charger "
              "near a junction); a rule the city model lacks the data for is a flag of kind \"not_checked\" "
              "with its \"rule\" and \"why\".")


def audit_json(inst, ids: list, feedback: QgsProcessingFeedback, workspace: str = "", city=None) -> str:
    """Audit ``ids`` against ``city`` (or the workspace's saved city model); each flag is also
    pushed as a feedback warning. Without city geometry: an empty audit and an info line."""
    try:
        ctx = AuditContext.from_city(city) if city is not None else context_for_workspace(workspace, inst)
    except InputError as e:
        feedback.pushInfo(f"audit skipped: {e}")
        return json.dumps({"flags": [], "checked": 0})
    res = audit_plan(inst, ids, ctx)
    for f in res["flags"]:
        feedback.pushWarning(flag_text(f))
    feedback.pushInfo(f"audit: {len(res['flags'])} flags on {res['checked']} candidates")
    return json.dumps(res)
