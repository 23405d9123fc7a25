"""The tool registry: region and layer queries, instance building, solving, evaluation,
participation metrics (shared by the ``ask`` agent and the MCP server)."""
from __future__ import annotations

import os
from pathlib import Path

from .registry import Observation, Registry, Tool, ToolContext, ToolFailure, dumps


def default_registry(root: str | os.PathLike, read_roots: tuple[str | os.PathLike, ...] = (),
                     regions: dict[str, Path] | None = None) -> Registry:
    """Every tool over the bundled regions (and ``regions``: name → file); workspaces live under ``root``."""
    from . import constraints, places, planning, streets

    ctx = ToolContext(Path(root), read_roots=tuple(Path(p) for p in read_roots))
    ctx.regions.update(regions or {})
    return Registry(places.tools(ctx) + streets.tools(ctx) + planning.tools(ctx) + constraints.tools(ctx), ctx)


__all__ = ["Observation", "Registry", "Tool", "ToolContext", "ToolFailure", "default_registry", "dumps"]
