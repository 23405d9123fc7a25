"""Shared set-up for the sandbox tests: a toy-task workspace and a real-task check."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from cityplanner.plugin.sandbox import write_workspace
from tests.toy_task import ToyCover, register

HAS_LAND = importlib.util.find_spec("cityplanner.plugin.tasks.land") is not None
needs_land = pytest.mark.skipif(not HAS_LAND, reason="cityplanner.plugin.tasks.land is not written yet")


def toy_workspace(path: Path, monkeypatch: pytest.MonkeyPatch, seed: int = 0, **kw) -> tuple[ToyCover, Path]:
    """A fresh workspace of the toy covering task at ``path`` (the toy task registered)."""
    register(monkeypatch)
    inst = ToyCover.build(seed=seed)
    return inst, write_workspace(inst, path, **kw)
