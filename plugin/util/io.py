"""Atomic file writes and crash-safe JSON-lines appends.

Every file the product writes goes through here so that a crash or a cancel never leaves a
half-written output behind: write to a temporary file in the same folder, fsync, rename.
"""
from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

try:  # fcntl is POSIX-only; on Windows appends rely on O_APPEND atomicity alone
    import fcntl
except ImportError:  # pragma: no cover - exercised only on Windows
    fcntl = None


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically (temporary file in the same folder, fsync, rename; mode 0644); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; outputs are meant to be shared and published
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def atomic_write_text(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` as UTF-8, atomically (``atomic_write_bytes``)."""
    return atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: str | os.PathLike, obj: Any, indent: int | None = 2) -> Path:
    """Write ``obj`` as JSON with a final newline, atomically; numpy values, paths and sets are written plainly."""
    return atomic_write_text(path, json.dumps(obj, indent=indent, default=_json_default) + "\n")


def append_jsonl(path: str | os.PathLike, record: dict, timestamp: bool = True) -> None:
    """Append one JSON line with a single write under an exclusive lock.

    One write() of a complete line on an O_APPEND descriptor means a crash can at worst lose
    the line being written, never corrupt earlier ones; the lock keeps concurrent writers
    (bench workers, the agent's worker) from interleaving.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if timestamp and "ts" not in record:
        record = {"ts": round(time.time(), 3), **record}
    line = (json.dumps(record, default=_json_default) + "\n").encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, line)
        os.fsync(fd)
    finally:
        os.close(fd)


def read_jsonl(path: str | os.PathLike) -> list[dict]:
    """Read a JSON-lines file, skipping a torn last line if a crash left one."""
    out = []
    p = Path(path)
    if not p.exists():
        return out
    for line in p.read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


def _json_default(o: Any) -> Any:
    # numpy scalars/arrays and paths show up in results; serialise them plainly
    if hasattr(o, "tolist"):
        return o.tolist()
    if isinstance(o, (Path, set, frozenset)):
        return str(o) if isinstance(o, Path) else sorted(o)
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")
