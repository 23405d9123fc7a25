"""Path confinement for the virtual terminal: every path stays inside one workspace.

Paths are resolved lexically against the current directory and then checked again with
``realpath`` so that a symlink cannot lead outside. The agent sees the workspace as
``/workspace`` (what ``pwd`` prints), so absolute paths under it are accepted and every other
absolute path is refused. Writes are allowed only below ``work/`` and ``outputs/``. Every
read and write is charged to the terminal's ``Budget``; a file system error (a name too long,
a folder where a file was expected) is a ``SandboxError`` naming the path as the agent wrote it,
never the host path.
"""
from __future__ import annotations

import fnmatch
import os
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from ..util.io import atomic_write_bytes
from .budget import Budget

VIRTUAL_ROOT = "/workspace"
WRITABLE = ("work", "outputs")
MAX_READ = 2_000_000   # bytes read from one file; larger files are cut with a note
MAX_WRITE = 2_000_000  # bytes one file may hold after a write


class SandboxError(Exception):
    """A refused or failed terminal operation; the message is one line for the agent."""


class Jail:
    """The workspace as the terminal sees it: a root, a current directory, safe file access."""

    def __init__(self, root: str | os.PathLike, budget: Budget | None = None):
        self.root = Path(root).resolve()
        self.cwd = PurePosixPath(".")  # relative to root
        self.notes: list[str] = []  # messages for standard error (e.g. a file was cut)
        self.log: Callable[[dict], None] = lambda record: None  # the terminal's JSON-lines log
        self.budget = budget or Budget()

    @property
    def deadline(self) -> float:
        """time.monotonic() at which the current command must stop."""
        return self.budget.deadline

    def check_time(self) -> bool:
        """False while time is left; raises ``BudgetExceeded`` once the command's time is spent."""
        return self.budget.check_time()

    # ------------------------------------------------------------------ resolution
    def rel(self, path: str) -> PurePosixPath:
        """Workspace-relative path of ``path`` (lexical check only)."""
        if not path:
            raise SandboxError("empty path")
        if "\x00" in path:
            raise SandboxError("path contains a NUL byte")
        if path.startswith("~"):
            raise SandboxError(f"{_short(path)}: home directories are outside the workspace")
        if path.startswith("/"):
            if path != VIRTUAL_ROOT and not path.startswith(VIRTUAL_ROOT + "/"):
                raise SandboxError(f"{_short(path)}: absolute paths outside {VIRTUAL_ROOT} are not allowed")
            path = path[len(VIRTUAL_ROOT):].lstrip("/") or "."
            base = PurePosixPath(".")
        else:
            base = self.cwd
        parts: list[str] = []
        for part in (base / path).parts:
            if part == "..":
                if not parts:
                    raise SandboxError(f"{_short(path)}: escapes the workspace")
                parts.pop()
            elif part != ".":
                parts.append(part)
        return PurePosixPath(*parts) if parts else PurePosixPath(".")

    def resolve(self, path: str, write: bool = False) -> Path:
        """Real path of ``path``; refuses escapes, outside symlinks and writes outside work/outputs."""
        rel = self.rel(path)
        try:
            os.fsencode(path)  # a lone surrogate cannot name a file
            real = Path(os.path.realpath(self.root / rel))
        except (OSError, ValueError) as e:
            raise SandboxError(f"{_short(path)}: {_reason(e, 'not a usable file name')}") from None
        if real != self.root and self.root not in real.parents:
            raise SandboxError(f"{_short(path)}: a link points outside the workspace")
        if write:
            top = real.relative_to(self.root).parts[:1]
            if not top or top[0] not in WRITABLE or real.parent == self.root:
                raise SandboxError(f"{_short(path)}: writing is allowed only inside work/ and outputs/")
        return real

    def pwd(self) -> str:
        return VIRTUAL_ROOT if self.cwd == PurePosixPath(".") else f"{VIRTUAL_ROOT}/{self.cwd}"

    def chdir(self, path: str) -> None:
        real = self.resolve(path)
        try:
            folder = real.is_dir()
        except OSError as e:
            raise SandboxError(f"cd: {_short(path)}: {_reason(e, 'cannot enter')}") from None
        if not folder:
            raise SandboxError(f"cd: {_short(path)}: not a directory")
        self.cwd = PurePosixPath(real.relative_to(self.root).as_posix())

    def glob(self, pattern: str) -> list[str]:
        """Names matching a shell pattern in one directory (no recursion); [] when none."""
        head, sep, tail = pattern.rpartition("/")
        if (sep and not head) or any(c in head for c in "*?["):
            return []
        try:
            folder = self.resolve(head if sep else ".")
            names = sorted(n for n in os.listdir(folder) if fnmatch.fnmatchcase(n, tail)
                           and (tail.startswith(".") or not n.startswith(".")))
        except (SandboxError, OSError):
            return []
        return [f"{head}{sep}{n}" for n in names]

    # ------------------------------------------------------------------ file access
    def read(self, path: str) -> str:
        """Text of a file, cut at ``MAX_READ`` bytes (with a note)."""
        real = self.resolve(path)
        try:
            if real.is_dir():
                raise SandboxError(f"{_short(path)}: is a directory")
            if not real.is_file():  # also refuses FIFOs and devices, which could block
                raise SandboxError(f"{_short(path)}: no such file")
            size = real.stat().st_size
            self.budget.spend(min(size, MAX_READ))
            with open(real, "rb") as fh:
                data = fh.read(MAX_READ + 1)
        except OSError as e:
            raise SandboxError(f"{_short(path)}: {_reason(e, 'cannot read')}") from None
        if len(data) > MAX_READ:
            self.notes.append(f"{_short(path)}: only the first {MAX_READ // 1_000_000} MB were read")
        return data[:MAX_READ].decode("utf-8", errors="replace")

    def write(self, path: str, text: str, append: bool = False) -> Path:
        real = self.resolve(path, write=True)
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:
            raise SandboxError(f"{_short(path)}: the text is not valid Unicode (a lone surrogate); "
                               "nothing was written") from None
        try:
            if real.is_dir():
                raise SandboxError(f"{_short(path)}: is a directory")
            old = real.stat().st_size if append and real.is_file() else 0
            if old + len(data) > MAX_WRITE:
                raise SandboxError(f"{_short(path)}: file would exceed {MAX_WRITE // 1_000_000} MB; nothing was written")
            self.budget.spend_write(len(data), new_file=not real.exists())
            if old:
                data = self.read(path).encode("utf-8") + data
            return atomic_write_bytes(real, data)
        except OSError as e:
            raise SandboxError(f"{_short(path)}: {_reason(e, 'cannot write')}") from None


def _short(path: str) -> str:
    """A path as quoted back to the agent: long names cut (the message stays one short line)."""
    return path if len(path) <= 80 else path[:60] + "…" + path[-10:]


def _reason(e: Exception, default: str) -> str:
    """The OS reason without the host path that ``str(OSError)`` would carry."""
    return (e.strerror if isinstance(e, OSError) else None) or default
