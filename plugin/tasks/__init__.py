"""Planning tasks: land allocation, road construction, station placement.

Each task is a folder with a ``spec.py`` (``plugin.tasks.spec.TaskSpec``) listed in
``registry.REGISTRY``; ``TASKS`` is that registry. Modules are imported lazily so that
building one task never pays for the others.
"""
from __future__ import annotations

import importlib
from typing import Any

from .base import SIZES, Evaluation, Instance, SearchState
from .registry import REGISTRY, spec, specs

#: task name -> module of its spec (the registry itself: registering a task here registers it)
TASKS: dict[str, str] = REGISTRY


def task_class(name: str) -> type[Instance]:
    """The Instance class of task ``name`` (one-line InputError for an unknown task)."""
    mod, cls = spec(name).instance.split(":")
    return getattr(importlib.import_module(mod, __package__), cls)


def instance_from_export(d: dict[str, Any]) -> Instance:
    return task_class(d["task"]).from_export(d)


__all__ = ["SIZES", "TASKS", "spec", "specs", "Evaluation", "Instance", "SearchState", "task_class", "instance_from_export"]
