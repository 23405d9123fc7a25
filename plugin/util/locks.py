"""Cross-process file locks: one writer at a time for a workspace's shared records.

Several processes may work on one workspace at once (two ``solve`` runs, the dock and an
``instruct --apply`` in a terminal, bench workers). Atomic renames keep each file whole, but
a read-change-write of the constraint store or of ``runs/`` needs mutual exclusion, or two
writers hand out the same key or file number and one change is lost.

``workspace_lock(ws)`` is an advisory lock on ``ws/.lock`` (``fcntl.flock`` on POSIX,
``msvcrt.locking`` on Windows): the kernel releases it when the holder dies, so a killed
process never leaves the workspace locked. It is re-entrant within one process (a thread that
holds it may take it again: ``record_run`` reads the store, which also takes it), and threads
of one process exclude each other through a per-path ``RLock`` — ``flock`` alone would not,
since it belongs to an open file, not a thread.

A standard-library lock rather than the ``filelock`` package: the core must run in QGIS's own
Python with only the runtime requirements, and these ~60 lines are all it needs.
"""
from __future__ import annotations

import os
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..errors import InputError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None
    import msvcrt

LOCK_FILE = ".lock"
WAIT_S = 120.0   # a writer holds the lock for one evaluation or one JSON write: seconds at most
_POLL_S = 0.01

_guard = threading.Lock()
_locks: dict[str, "_PathLock"] = {}


class _PathLock:
    """One lock file: an RLock between this process's threads, the OS lock between processes."""

    def __init__(self, path: str):
        self.path = path
        self.rlock = threading.RLock()
        self.depth = 0
        self.fd: int | None = None

    def acquire(self, wait_s: float) -> None:
        deadline = time.monotonic() + wait_s
        if not self.rlock.acquire(timeout=wait_s):
            raise InputError(f"{Path(self.path).parent} is busy (another writer held it for {wait_s:g} s)")
        if self.depth == 0:
            try:
                self.fd = _os_lock(self.path, deadline, wait_s)
            except BaseException:
                self.rlock.release()
                raise
        self.depth += 1

    def release(self) -> None:
        self.depth -= 1
        if self.depth == 0 and self.fd is not None:
            _os_unlock(self.fd)
            self.fd = None
        self.rlock.release()


def _os_lock(path: str, deadline: float, wait_s: float) -> int:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    while True:
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            else:  # pragma: no cover - Windows
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return fd
        except OSError:
            if time.monotonic() >= deadline:
                os.close(fd)
                raise InputError(f"{Path(path).parent} is busy (another process held it for {wait_s:g} s)") from None
            time.sleep(_POLL_S)


def _os_unlock(fd: int) -> None:
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_UN)
        else:  # pragma: no cover - Windows
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    finally:
        os.close(fd)


@contextmanager
def workspace_lock(ws: str | os.PathLike, wait_s: float = WAIT_S) -> Iterator[None]:
    """Hold the workspace's write lock (``ws/.lock``) for the ``with`` block.

    Raises ``InputError`` (one line) when another writer keeps it longer than ``wait_s``."""
    path = str((Path(ws) / LOCK_FILE).resolve())
    with _guard:
        lock = _locks.setdefault(path, _PathLock(path))
    lock.acquire(wait_s)
    try:
        yield
    finally:
        lock.release()
