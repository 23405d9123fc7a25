"""Path confinement for the virtual terminal: every path stays inside one workspace.

Paths are resolved lexically against the current directory and then checked again with
``realpath`` so that a symlink cannot lead outside. The agent sees the workspace as
``/workspace`` (what ``pwd`` prints), so absolute paths under it are accepted and every other
absolute path is refused. Writes are allowed only below ``work/`` and ``outputs/``.
"""
from __future__ import annotations

import fnmatch
import os
import time
from pathlib import Path, PurePosixPath
from typing import Callable

from ..util.io import atomic_write_text

VIRTUAL_ROOT = "/workspace"
WRITABLE = ("work", "outputs")
MAX_READ = 2_000_000   # bytes read from one file; larger files are cut with a note
MAX_WRITE = 2_000_000  # bytes one file may hold after a write


class SandboxError(Exception):
    """A refused or failed terminal operation; the message is one line for the agent."""


class Jail:
    """The workspace as the terminal sees it: a root, a current directory, safe file access."""

    def __init__(self, root: str | os.PathLike):
        self.root = Path(root).resolve()
        self.cwd = PurePosixPath(".")  # relative to root
        self.notes: list[str] = []  # messages for standard error (e.g. a file was cut)
        self.log: Callable[[dict], None] = lambda record: None  # the terminal's JSON-lines log
        self.deadline = float("inf")  # time.monotonic() after which long loops stop

    def check_time(self) -> bool:
        """False while time is left; raises once the command deadline has passed."""
        if time.monotonic() > self.deadline:
            raise SandboxError("time limit reached; the command was stopped")
        return False

    # ------------------------------------------------------------------ resolution
    def rel(self, path: str) -> PurePosixPath:
        """Workspace-relative path of ``path`` (lexical check only)."""
        if not path:
            raise SandboxError("empty path")
        if "\x00" in path:
            raise SandboxError("path contains a NUL byte")
        if path.startswith("~"):
            raise SandboxError(f"{path}: home directories are outside the workspace")
        if path.startswith("/"):
            if path != VIRTUAL_ROOT and not path.startswith(VIRTUAL_ROOT + "/"):
                raise SandboxError(f"{path}: absolute paths outside {VIRTUAL_ROOT} are not allowed")
            path = path[len(VIRTUAL_ROOT):].lstrip("/") or "."
            base = PurePosixPath(".")
        else:
            base = self.cwd
        parts: list[str] = []
        for part in (base / path).parts:
            if part == "..":
                if not parts:
                    raise SandboxError(f"{path}: escapes the workspace")
                parts.pop()
            elif part != ".":
                parts.append(part)
        return PurePosixPath(*parts) if parts else PurePosixPath(".")

    def resolve(self, path: str, write: bool = False) -> Path:
        """Real path of ``path``; refuses escapes, outside symlinks and writes outside work/outputs."""
        rel = self.rel(path)
        real = Path(os.path.realpath(self.root / rel))
        if real != self.root and self.root not in real.parents:
            raise SandboxError(f"{path}: a link points outside the workspace")
        if write:
            top = real.relative_to(self.root).parts[:1]
            if not top or top[0] not in WRITABLE or real.parent == self.root:
                raise SandboxError(f"{path}: writing is allowed only inside work/ and outputs/")
        return real

    def pwd(self) -> str:
        return VIRTUAL_ROOT if self.cwd == PurePosixPath(".") else f"{VIRTUAL_ROOT}/{self.cwd}"

    def chdir(self, path: str) -> None:
        real = self.resolve(path)
        if not real.is_dir():
            raise SandboxError(f"cd: {path}: not a directory")
        self.cwd = PurePosixPath(real.relative_to(self.root).as_posix())

    def glob(self, pattern: str) -> list[str]:
        """Names matching a shell pattern in one directory (no recursion); [] when none."""
        head, sep, tail = pattern.rpartition("/")
        if (sep and not head) or any(c in head for c in "*?["):
            return []
        try:
            folder = self.resolve(head if sep else ".")
        except SandboxError:
            return []
        if not folder.is_dir():
            return []
        names = sorted(n for n in os.listdir(folder) if fnmatch.fnmatchcase(n, tail)
                       and (tail.startswith(".") or not n.startswith(".")))
        return [f"{head}{sep}{n}" for n in names]

    # ------------------------------------------------------------------ file access
    def read(self, path: str) -> str:
        """Text of a file, cut at ``MAX_READ`` bytes (with a note)."""
        real = self.resolve(path)
        if real.is_dir():
            raise SandboxError(f"{path}: is a directory")
        if not real.is_file():
            raise SandboxError(f"{path}: no such file")
        try:
            with open(real, "rb") as fh:
                data = fh.read(MAX_READ + 1)
        except OSError as e:
            raise SandboxError(f"{path}: {e.strerror or 'cannot read'}") from None
        if len(data) > MAX_READ:
            self.notes.append(f"{path}: only the first {MAX_READ // 1_000_000} MB were read")
        return data[:MAX_READ].decode("utf-8", errors="replace")

    def write(self, path: str, text: str, append: bool = False) -> Path:
        real = self.resolve(path, write=True)
        if real.is_dir():
            raise SandboxError(f"{path}: is a directory")
        if append and real.is_file():
            text = self.read(path) + text
        if len(text.encode("utf-8")) > MAX_WRITE:
            raise SandboxError(f"{path}: file would exceed {MAX_WRITE // 1_000_000} MB")
        try:
            return atomic_write_text(real, text)
        except OSError as e:
            raise SandboxError(f"{path}: {e.strerror or 'cannot write'}") from None
