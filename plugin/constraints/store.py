"""Instructions of one workspace: ``constraints/instructions.json`` beside ``input/``.

The folder is outside ``work/`` and ``outputs/``, the only places the agent's virtual terminal
may write (``plugin.sandbox.confine.WRITABLE``), and its files are read-only (r--) between
writes, so model text cannot edit or delete a planner's constraints; only this
module (the ``instruct`` command, the dock, the constraint tools) changes it. Next to it,
``certified.json`` remembers the certified plan of the current constraint set, so the next
instruction's "before" needs no second solve, and ``proposed.json`` holds the constraints the
planner agent proposed (keys p1, p2, …; the terminal's ``constrain`` verb): they steer the
agent's own solver calls only — plans are still judged under the planner's instructions —
and the verb can remove only those, never a planner's.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..tasks.base import Instance
from ..util.io import atomic_write_json
from ..util.locks import workspace_lock

FOLDER = "constraints"
FILE = f"{FOLDER}/instructions.json"
CERTIFIED = f"{FOLDER}/certified.json"
PROPOSED = f"{FOLDER}/proposed.json"
PREFIX = {FILE: "c", PROPOSED: "p"}   # key letters: a planner's c<N>, the agent's p<N>


def load(ws: str | os.PathLike, file: str = FILE) -> list[dict[str, Any]]:
    """The stored constraints (each with its ``key``), [] when there are none."""
    p = Path(ws) / file
    if not p.is_file():
        return []
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
        return list(doc["constraints"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise InputError(f"cannot read {file} ({type(e).__name__}: {e})") from None


def _doc(ws: Path, file: str = FILE) -> dict[str, Any]:
    p = ws / file
    if p.is_file():
        doc = json.loads(p.read_text(encoding="utf-8"))
        return {"next": int(doc.get("next", len(doc["constraints"]) + 1)), "constraints": list(doc["constraints"])}
    return {"next": 1, "constraints": []}


@contextmanager
def _writable(ws: Path) -> Iterator[None]:
    # files r--r--r-- between writes; the folder stays removable with its workspace
    folder = ws / FOLDER
    folder.mkdir(exist_ok=True)
    for f in folder.iterdir():
        f.chmod(0o644)
    try:
        yield
    finally:
        for f in folder.iterdir():
            f.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)


def _require_ws(ws: str | os.PathLike) -> Path:
    ws = Path(ws)
    if not (ws / "input" / "export.json").is_file():
        raise InputError(f"{ws} is not a workspace (no input/export.json)")
    return ws


def add(ws: str | os.PathLike, constraints: list[dict[str, Any]], file: str = FILE) -> list[dict[str, Any]]:
    """Append ``constraints`` (keys c<N>, or p<N> in PROPOSED, assigned here); returns them as stored."""
    ws = _require_ws(ws)
    # read, change and write under the workspace lock: parallel applies get distinct keys, none is lost
    with workspace_lock(ws), _writable(ws):
        doc = _doc(ws, file)
        out = []
        for c in constraints:
            c = {"key": f"{PREFIX[file]}{doc['next']}", **{k: v for k, v in c.items() if k != "key"}}
            doc["next"] += 1
            doc["constraints"].append(c)
            out.append(c)
        atomic_write_json(ws / file, doc)
    return out


def remove(ws: str | os.PathLike, key: str, file: str = FILE) -> dict[str, Any]:
    """Remove the constraint ``key`` (c3, or its position 3); returns it."""
    ws = _require_ws(ws)
    with workspace_lock(ws):
        doc = _doc(ws, file)
        keys = [c["key"] for c in doc["constraints"]]
        letter = PREFIX[file]
        k = f"{letter}{key}" if str(key).isdigit() and f"{letter}{key}" in keys else str(key)
        if k not in keys:
            raise InputError(f"no instruction '{key}' in {ws.name} (stored: {', '.join(keys) or 'none'})")
        with _writable(ws):
            gone = doc["constraints"].pop(keys.index(k))
            atomic_write_json(ws / file, doc)
    return gone


def clear(ws: str | os.PathLike, file: str = FILE) -> int:
    ws = _require_ws(ws)
    with workspace_lock(ws):
        doc = _doc(ws, file)
        with _writable(ws):
            atomic_write_json(ws / file, {"next": doc["next"], "constraints": []})
    return len(doc["constraints"])


def fingerprint(inst: Instance, constraints: list[dict[str, Any]]) -> str:
    body = json.dumps([inst.instance_id, [{k: v for k, v in c.items() if k != "key"} for c in constraints]],
                      sort_keys=True, default=str)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def enforced_fingerprint(inst: Instance) -> str:
    """The fingerprint of the instruction set ``inst`` enforces: the constraints its compiled rows
    came from (none for a plain instance). A solve remembers it from its start, so a write can
    tell that the instructions changed while it ran (``plugin.sandbox.best_plan``)."""
    compiled = getattr(inst, "compiled", None)
    return fingerprint(inst, list(compiled.constraints) if compiled is not None else [])


def certified(ws: str | os.PathLike, inst: Instance, constraints: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The remembered certified result of exactly this constraint set, or None."""
    p = Path(ws) / CERTIFIED
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc.get("result") if doc.get("fingerprint") == fingerprint(inst, constraints) else None


def remember(ws: str | os.PathLike, inst: Instance, constraints: list[dict[str, Any]], result: dict[str, Any]) -> None:
    ws = _require_ws(ws)
    with workspace_lock(ws), _writable(ws):
        atomic_write_json(ws / CERTIFIED, {"fingerprint": fingerprint(inst, constraints), "result": result})


def apply(inst: Instance, ws: str | os.PathLike) -> Instance:
    """``inst`` under the workspace's stored constraints (``inst`` itself when none)."""
    p = Path(ws) / FILE
    try:
        body = p.read_bytes()
    except OSError:
        return inst
    # keyed by the file's content, not its mtime: two writes within one clock tick (a few ms on
    # many file systems) share an mtime, and a stale compile would judge under the wrong set
    return _applied(inst, body)


@lru_cache(maxsize=16)
def _applied(inst: Instance, body: bytes) -> Instance:
    # evaluations repeat with the same instance object and file content: compile once
    from .compile import compile_constraints
    from .constrained import constrain

    try:
        cons = list(json.loads(body.decode("utf-8"))["constraints"])
    except (ValueError, KeyError, TypeError) as e:
        raise InputError(f"cannot read {FILE} ({type(e).__name__}: {e})") from None
    return constrain(inst, compile_constraints(inst, cons)) if cons else inst


def steered(inst: Instance, ws: str | os.PathLike) -> Instance:
    """``inst`` under the planner's instructions and the agent's proposals together: what the
    agent's solver calls optimise (a plan of it meets the planner's instructions too)."""
    from .compile import compile_constraints
    from .constrained import constrain

    cons = load(ws) + load(ws, PROPOSED)
    return constrain(inst, compile_constraints(inst, cons)) if cons else inst
