"""The planning tasks: name -> the module holding its ``SPEC`` (a ``plugin.tasks.spec.TaskSpec``).

Adding a task = its folder under ``plugin/tasks/`` (with ``spec.py``) plus one line here.
Specs are imported on first use, so that building one task never pays for the others.
"""
from __future__ import annotations

import importlib

from .spec import TaskSpec

REGISTRY: dict[str, str] = {
    "land": ".land.spec",
    "road": ".road.spec",
    "station": ".station.spec",
}


def spec(name: str) -> TaskSpec:
    """The spec of task ``name`` (one-line InputError for an unknown task)."""
    from ..errors import InputError

    if name not in REGISTRY:
        raise InputError(f"unknown task '{name}' (choose {', '.join(REGISTRY)})")
    return importlib.import_module(REGISTRY[name], __package__).SPEC


def specs() -> list[TaskSpec]:
    """Every task's spec, in registry order."""
    return [spec(n) for n in REGISTRY]
