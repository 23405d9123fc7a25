"""Start Python workers, and run a call in a freshly spawned interpreter killed at a time limit.

``start_worker`` is the one way the plugin starts a Python worker process (the MILP call below,
the LLM worker in ``plugin.agent.backend``, anything later): the interpreter QGIS runs on
(``python_executable``) and the parent's ``sys.path`` as it is at the call, handed over by
``launch_child.py``. Inside QGIS the profile's ``python/dependencies`` is on ``sys.path`` only
(not in PYTHONPATH): a worker started any other way cannot import what the planner installed.

Why not fork: forking a multi-threaded host (the MCP server, QGIS desktop) copies locks held
by other threads, and the child can deadlock on them; daemonic processes (Dask workers) may
not fork children through multiprocessing at all. A spawned interpreter
(``plugin/util/spawned_child.py``) has none of these problems, works the same on every OS,
and dies with its parent (stdin EOF everywhere, PR_SET_PDEATHSIG on Linux). Inside QGIS
``sys.executable`` is the QGIS binary, so ``python_executable`` finds the interpreter.

The call and its result are pickled over the child's stdin/stdout (protocol 5: numpy arrays
and scipy sparse matrices travel as raw buffers); ``fn`` must be importable by name in the
child (a module-level function, a builtin, ``functools.partial`` of one).
"""
from __future__ import annotations

import json
import os
import pickle
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

CHILD_SCRIPT = Path(__file__).with_name("spawned_child.py")
LAUNCHER = Path(__file__).with_name("launch_child.py")
PATH_VARIABLE = "CITYPLANNER_WORKER_SYS_PATH"   # read by launch_child.py
STARTUP_S = 60.0   # an interpreter importing scipy on a loaded machine: seconds, not minutes
POLL_S = 0.1       # how often a waiting parent checks ``cancel``


def python_executable() -> str:
    """The interpreter QGIS runs on, as a program, to start workers and pip with. Inside QGIS
    ``sys.executable`` is the QGIS binary, or whatever ``python3`` comes first on PATH (a pyenv
    shim or conda Python of another installation): the one next to QGIS's stdlib is taken."""
    exe = Path(sys.executable)
    if sys.prefix != sys.base_prefix and "python" in exe.name.lower():
        return str(exe)  # a virtual environment: its own interpreter
    ver = f"{sys.version_info.major}.{sys.version_info.minor}"
    base = Path(sys.base_exec_prefix)
    for cand in (base / "bin" / f"python{ver}", base / "bin" / "python3", base / "python.exe", base / "python3.exe"):
        if cand.is_file():
            return str(cand)
    if "python" in exe.name.lower():
        return str(exe)
    raise RuntimeError(f"no Python {ver} interpreter found next to QGIS ({base})")


def start_worker(script: str | Path, *args: str, text: bool = False, stderr=subprocess.DEVNULL,
                 env: dict[str, str] | None = None, path_first: tuple[str, ...] = ()) -> subprocess.Popen:
    """Start ``script`` as ``__main__`` in the plugin's interpreter with this process's
    ``sys.path`` (``path_first`` folders before it: an unpacked copy of the plugin, for the
    sweep's local workers); stdin and stdout are pipes (binary, or UTF-8 line-buffered text with
    ``text``). ``env`` replaces the inherited environment (the import path is added to it)."""
    child_env = dict(os.environ if env is None else env)
    child_env[PATH_VARIABLE] = json.dumps([str(p) for p in (*path_first, *sys.path)])
    text_kw = {"text": True, "encoding": "utf-8", "bufsize": 1} if text else {}
    return subprocess.Popen([python_executable(), str(LAUNCHER), str(script), *map(str, args)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, env=child_env, **text_kw)


class SpawnedWorker:
    """One child interpreter for one call: start, ``wait_ready``, ``call``, ``close``."""

    def __init__(self, preload: tuple[str, ...] = (), path_first: tuple[str, ...] = ()):
        self._proc = start_worker(CHILD_SCRIPT, str(os.getpid()), path_first=path_first)
        self._answers: queue.Queue[tuple[str, Any]] = queue.Queue()
        # A reader thread gives portable timeouts (select() does not work on Windows pipes).
        threading.Thread(target=self._read, args=(self._proc.stdout, self._answers), daemon=True).start()
        self._send({"preload": list(preload)})

    @staticmethod
    def _read(stream, answers: "queue.Queue[tuple[str, Any]]") -> None:
        try:
            while True:
                answers.put(pickle.load(stream))
        except Exception:   # EOF or a torn pickle: the child is gone
            answers.put(("dead", None))

    def _send(self, obj: Any) -> None:
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))
            self._proc.stdin.flush()
        except OSError:   # the child died; the reader reports it
            pass

    def _wait(self, seconds: float, cancel: Callable[[], bool] | None) -> tuple[str, Any]:
        end = time.perf_counter() + max(seconds, 0.0)
        while True:
            if cancel is not None and cancel():
                return "cancelled", None
            left = end - time.perf_counter()
            if left <= 0:
                return "killed", None
            try:
                state, value = self._answers.get(timeout=min(left, POLL_S))
            except queue.Empty:
                continue
            if state == "dead":
                self._proc.wait()
                return "error", f"the worker process died (exit code {self._proc.returncode})"
            return state, value

    def wait_ready(self, seconds: float = STARTUP_S, cancel: Callable[[], bool] | None = None) -> tuple[str, Any]:
        """("ready", None) once the child has imported ``preload``; ("killed", None) after
        ``seconds``; ("error", message) or ("cancelled", None)."""
        return self._wait(seconds, cancel)

    def call(self, fn: Callable, args: tuple, seconds: float,
             cancel: Callable[[], bool] | None = None) -> tuple[str, Any]:
        """``fn(*args)`` in the child: ("ok", result), ("error", message), ("killed", None)
        after ``seconds`` or ("cancelled", None) as soon as ``cancel()`` is true."""
        self._send((fn, args))
        return self._wait(seconds, cancel)

    def close(self) -> None:
        """Kill the child (if still running) and reap it."""
        if self._proc.poll() is None:
            self._proc.kill()
        for stream in (self._proc.stdin, self._proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self._proc.wait()

    @property
    def pid(self) -> int:
        return self._proc.pid

    def __enter__(self) -> "SpawnedWorker":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def bounded_call(fn: Callable, args: tuple, seconds: float, cancel: Callable[[], bool] | None = None,
                 preload: tuple[str, ...] = (), path_first: tuple[str, ...] = ()) -> tuple[str, Any]:
    """``fn(*args)`` in a spawned interpreter killed ``seconds`` after it started the call
    (its start-up is not counted): ("ok", result), ("error", message), ("killed", None) or
    ("cancelled", None)."""
    with SpawnedWorker(preload, path_first) as worker:
        state, value = worker.wait_ready(STARTUP_S, cancel)
        if state != "ready":
            return state, value
        return worker.call(fn, args, seconds, cancel)


__all__ = ["SpawnedWorker", "bounded_call", "python_executable", "start_worker"]
