"""Warnings of an instance: what was assumed or fell back while it was built, so that nothing
degraded is silent (CLI JSON ``warnings``, QGIS ``feedback.pushWarning``, workspace README).

Read from the instance's ``meta`` (every task records its target, candidate count and
fallbacks there) plus the warnings of the City or parcel layer it came from; stored in
``meta["warnings"]`` so export.json and the workspace README carry them.
"""
from __future__ import annotations

from collections.abc import Iterable

from ..tasks.base import Instance
from ..tasks.road.constants import LINK_RADIUS


def fallback_warnings(inst: Instance) -> list[str]:
    """The task's own fallbacks, from its meta."""
    m, out = inst.meta, []
    if m.get("short_of_target"):
        out.append(f"{inst.n} candidates, fewer than the size's target of {m.get('target')}: the area offers no more")
    if inst.task == "road" and float(m.get("link_radius_m", LINK_RADIUS)) > LINK_RADIUS:
        out.append(f"new links up to {m['link_radius_m']:g} m long (default {LINK_RADIUS:g} m): "
                   "the network is sparse, or the radius was raised")
    if m.get("note"):
        out.append(str(m["note"]))
    out += [str(n) for n in m.get("plan_notes", [])]
    if m.get("demand_units") == 0:
        out.append("no residential demand: the demand (service / ecology) terms of the score are 0")
    return out


def attach_warnings(inst: Instance, earlier: Iterable[str] = ()) -> list[str]:
    """Record ``earlier`` (city / layer warnings) and the fallbacks in ``inst.meta['warnings']``."""
    inst.meta["warnings"] = list(dict.fromkeys([*earlier, *inst.meta.get("warnings", []), *fallback_warnings(inst)]))
    return inst.meta["warnings"]
