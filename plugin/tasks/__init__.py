"""Planning tasks: land allocation, road construction, station placement.

Modules are imported lazily so that building one task never pays for the others.
"""
from __future__ import annotations

import importlib
from typing import Any

from .base import SIZES, Evaluation, Instance, SearchState

TASKS: dict[str, str] = {
    "land": ".land:LandAllocation",
    "road": ".road:RoadConstruction",
    "station": ".station:StationPlacement",
}


def task_class(name: str) -> type[Instance]:
    from ..errors import InputError

    if name not in TASKS:
        raise InputError(f"unknown task '{name}' (choose {', '.join(TASKS)})")
    mod, cls = TASKS[name].split(":")
    return getattr(importlib.import_module(mod, __package__), cls)


def instance_from_export(d: dict[str, Any]) -> Instance:
    return task_class(d["task"]).from_export(d)


__all__ = ["SIZES", "TASKS", "Evaluation", "Instance", "SearchState", "task_class", "instance_from_export"]
