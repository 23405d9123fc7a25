"""``ask``: a planner's free-text request answered by a tool-using agent that asks for missing
inputs before acting and answers only from tool observations (docs/reference.md#urbanagent-and-urbaneval)."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from ..backend import make_backend
from ..timebox import BoxedBackend, explicit_model
from .agent import MAX_CALLS, MAX_SECONDS, answer_request


def ask(request: str, region: str | None = None, backend: Any = None, *, root: str | os.PathLike | None = None,
        read_roots: tuple[str | os.PathLike, ...] = (), model: str | None = None, endpoint: str | None = None,
        threads: int | None = None, max_tokens: int = 160, seed: int = 0,
        regions: dict[str, Path] | None = None, model_sentence: bool = False) -> dict[str, Any]:
    """Answer ``request`` (QGIS-free; the Planner dock's Ask box calls this in a worker).

    ``backend``: an object with ``chat`` (plugin.agent.backend); when None one is made from
    ``model``/``endpoint`` only when the planner named one (the default fallback is skipped) and
    only if the request needs it, under the time box (``agent.timebox``), and closed afterwards.
    Workspaces built by tools go under ``root`` (default: a new temporary folder); files under
    ``read_roots`` (e.g. a parcels layer) may be read. Returns the JSON record with
    ``clarification`` or ``answer``, ``tool_calls``, ``tokens``, ``seconds``, ``layers``, ``trace``.
    ``regions``: more regions the tools may use (name → .osm.pbf / GeoPackage), e.g. the
    planner's own layers (``plugin.city.inputs.source_gpkg``). ``model_sentence``: after the
    facts, one checked sentence in the model's words (off by default: see ``agent.synthesize``)."""
    from ..tools import default_registry

    if not request or not request.strip():
        from ...errors import InputError

        raise InputError("empty request")
    root = Path(root) if root else Path(tempfile.mkdtemp(prefix="cityplanner-ask-"))
    registry = default_registry(root, read_roots, regions)
    lazy = None
    if backend is None and explicit_model(model, endpoint):   # the default fallback is skipped (agent/timebox.py)
        lazy = BoxedBackend(lambda: make_backend(model, endpoint, threads=threads, seed=seed))
    try:
        out = answer_request(request.strip(), registry, backend or lazy, region, max_tokens=max_tokens, seed=seed,
                             model_sentence=model_sentence)
    finally:
        if lazy is not None:
            lazy.close()
    out["workspace_root"] = str(root)
    return out


__all__ = ["MAX_CALLS", "MAX_SECONDS", "ask"]
