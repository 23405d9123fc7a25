"""Install missing requirements into the profile's dependencies folder with pip.

Run by the plugin's "Install dependencies" action (in a QgsTask) and by tests. Rules:
- pip runs as a separate process with a real Python interpreter (inside QGIS
  ``sys.executable`` is the QGIS binary) of the same version as QGIS's;
- ``--prefix`` into ``<profile>/python/dependencies``: not the system environment, so PEP 668
  (externally managed) does not apply and no root rights are needed;
- packages already importable at an accepted version are pinned to what is there
  (``-c``): numpy stays the one QGIS's GDAL was built against (1.x on Debian 12, 2.x on
  Debian 13), and nothing the distribution provides is shadowed;
- on Linux shapely and pyogrio must use QGIS's own GEOS/GDAL (the registry wheels bundle
  other copies that clash inside QGIS): built from source, or taken from a wheelhouse made
  by ``make wheelhouse``;
- ``find_links`` (a wheelhouse folder) installs offline: ``--no-index --find-links DIR``.

Bounded and isolated (issue 30): the whole install has one time limit (``time_limit_s``);
pip runs in its own process group (its build subprocesses too), which is ended with the
install — finished, failed, cancelled or out of time — and on Linux pip dies with the
process that started it (PR_SET_PDEATHSIG), so a killed QGIS leaves no pip installing into
the profile. pip gets ``--isolated`` (no ``PIP_*`` variables, no pip.conf) and exactly one
index: the one chosen (``index_url``, default the public registry) or the wheelhouse. The
interpreter runs with ``-I`` and the prefix's folders join ``sys.path`` only after start-up,
so a ``sitecustomize.py`` or ``.pth`` file in the prefix never runs inside pip.
The log's ``$`` line is a command that works when pasted (each argument shell-quoted:
``pip install 'pandas>=1.5,<3'``); a package compiled from source is reported as its own
stage with a rough duration (``COMPILE_MINUTES``).
"""
from __future__ import annotations

import json
import os
import queue
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..util.spawned import python_executable
from .features import FEATURES
from .paths import activate, site_dirs
from .requirements import Requirement

# their wheels bundle GEOS/GDAL: on Linux they must link the distribution's (QGIS's) copies
LINK_QGIS_LIBS = ("shapely", "pyogrio")


DEFAULT_INDEX = "https://pypi.org/simple"
#: the whole install, compiling included (llama-cpp-python alone builds ~10 min on 2 cores)
INSTALL_LIMIT_S = 45 * 60
#: rough build times on a 2-core machine, for the "compiling X, about N min" stage
COMPILE_MINUTES = {"llama-cpp-python": 10, "llama_cpp_python": 10, "shapely": 2, "pyogrio": 3}

# Runs pip in the child: die with the parent (Linux), then put the prefix's folders (and a
# pip wheel, when Python has no pip) on sys.path *after* start-up — a sitecustomize.py or a
# .pth file in the prefix is never executed — and run pip with the remaining arguments.
_BOOT = """import json, runpy, sys
if sys.platform.startswith("linux"):
    try:
        import ctypes, signal
        ctypes.CDLL(None).prctl(1, int(signal.SIGKILL), 0, 0, 0)
    except Exception:
        pass
paths = json.loads(sys.argv[1])
sys.path[:0] = paths
sys.argv = ["pip"] + sys.argv[2:]
runpy.run_module("pip", run_name="__main__", alter_sys=True)
"""


def pip_launcher(python: str, find_links: Path | None, prefix: Path | None = None) -> list[str]:
    """The command that runs pip: ``python -I -c BOOT PATHS`` with the prefix's site folders (and
    a pip wheel from the wheelhouse when Python has no pip) added after start-up."""
    extra = [str(d) for d in site_dirs(prefix)] if prefix is not None else []
    probe = subprocess.run([python, "-I", "-c", "import pip"], capture_output=True)
    if probe.returncode != 0:
        wheels = sorted(find_links.glob("pip-*.whl")) if find_links else []
        if not wheels:
            raise RuntimeError("this Python has no pip: install it (Debian/Ubuntu: sudo apt install python3-pip) "
                               "or use the offline wheelhouse, which carries pip")
        extra.insert(0, str(wheels[-1]))
    return [python, "-I", "-c", _BOOT, json.dumps(extra)]


def paste_command(python: str, args: list[str]) -> str:
    """``python -m pip ARGS`` as one line that works when pasted into a shell (each argument
    quoted where needed: ``'pandas>=1.5,<3'``, never a bare ``<`` the shell would read)."""
    cmd = [python, "-m", "pip", *args]
    return subprocess.list2cmdline(cmd) if os.name == "nt" else shlex.join(cmd)


def compile_stage(line: str) -> str | None:
    """"compiling llama-cpp-python, about 10 min" for pip's line that starts building a wheel from
    source ("Building wheel for llama-cpp-python (pyproject.toml): started"), else None."""
    m = re.match(r"\s*Building wheels? for ([A-Za-z0-9._-]+)", line)
    if not m or "finished" in line:
        return None
    name = m.group(1)
    minutes = COMPILE_MINUTES.get(name.lower())
    return f"compiling {name}, about {minutes} min" if minutes else f"compiling {name} (a few minutes)"


@dataclass
class InstallPlan:
    prefix: Path
    requirements: list[Requirement]
    find_links: Path | None = None
    pins: list[str] = field(default_factory=list)  # name==version of what is already fine here
    index_url: str | None = None                   # the one index (None: the public registry)
    time_limit_s: float = INSTALL_LIMIT_S

    def pip_args(self, with_deps: bool) -> list[str]:
        reqs = [r.spec for r in self.requirements if r.no_deps != with_deps]
        if not reqs:
            return []
        # --isolated: no PIP_* variables and no pip.conf (an inherited extra index mixes sources);
        # bounded network waits so the overall limit is rarely what ends an install
        args = ["install", "--isolated", "--prefix", str(self.prefix), "--no-warn-script-location",
                "--disable-pip-version-check", "--progress-bar", "off", "--timeout", "30", "--retries", "2"]
        if self.find_links is not None:
            args += ["--no-index", "--find-links", str(self.find_links)]
        else:
            args += ["--index-url", self.index_url or DEFAULT_INDEX]
            if sys.platform.startswith("linux"):
                args += ["--no-binary", ",".join(LINK_QGIS_LIBS)]
        return args + ([] if with_deps else ["--no-deps"]) + reqs


def installed_pins(groups: tuple[str, ...]) -> list[str]:
    """``name==version`` for every declared requirement already satisfied here (never shadowed)."""
    pins = {}
    for f in FEATURES.values():
        if f.group in groups:
            for r in f.requirements:
                v = r.installed()
                if v is not None and r.accepts(v):
                    pins[r.dist] = f"{r.dist}=={v}"
    return sorted(pins.values())


def plan(prefix: Path, requirements: list[Requirement], find_links: Path | None = None,
         index_url: str | None = None, time_limit_s: float = INSTALL_LIMIT_S) -> InstallPlan:
    return InstallPlan(Path(prefix), list(requirements), find_links,
                       installed_pins(("core", "llm")), index_url, time_limit_s)


BUILD_HINT = (" — compiling needs a C compiler and QGIS's library headers (Debian/Ubuntu: sudo apt install "
              "python3-dev g++ libgeos-dev libgdal-dev), or install from a wheelhouse folder instead")
_STEP = re.compile(r"^(Collecting|Processing|Building wheel|Installing collected)")


@dataclass
class InstallResult:
    ok: bool
    message: str
    log: str
    restart_needed: bool = False


def _start(cmd: list[str], env: dict[str, str]) -> subprocess.Popen:
    """pip in a process group of its own (its compiler and build backends join it)."""
    extra = {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP} if os.name == "nt" else {"start_new_session": True}
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            text=True, encoding="utf-8", errors="replace", env=env, **extra)


def _end(proc: subprocess.Popen) -> None:
    """End pip's whole process group (a no-op for a group that is already gone)."""
    if os.name == "nt":  # pragma: no cover - Windows
        if proc.poll() is None:
            proc.kill()
    else:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover - a process the kernel has not reaped yet
        pass


def _pump(proc: subprocess.Popen, lines: "queue.Queue[str | None]") -> None:
    # the pipe is closed at EOF: QGIS shows an unclosed one as a "Python warning" (ResourceWarning)
    with proc.stdout:
        for line in proc.stdout:
            lines.put(line)
    lines.put(None)


def run(p: InstallPlan, progress: Callable[[float, str], None] | None = None,
        cancelled: Callable[[], bool] | None = None) -> InstallResult:
    """Run pip for ``p``; ``progress(fraction, line)`` per pip step (``line`` is pip's, or
    "compiling NAME, about N min" when a package builds from source). Activates the prefix after."""
    python = python_executable()
    launcher = pip_launcher(python, p.find_links, p.prefix)
    loaded_old = [r.import_name for r in p.requirements if r.installed() is not None and r.import_name in sys.modules]
    # nothing of this process's pip or Python settings reaches pip (-I ignores PYTHON* too)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON"))}
    env.update(PYTHONNOUSERSITE="1")
    log: list[str] = []
    steps, expected = 0, max(2 * len(p.requirements), 1)
    deadline = time.monotonic() + p.time_limit_s
    with tempfile.TemporaryDirectory() as tmp:
        constraints = Path(tmp) / "constraints.txt"
        constraints.write_text("\n".join(p.pins) + "\n")
        for with_deps in (True, False):
            args = p.pip_args(with_deps)
            if not args:
                continue
            args = args + ["-c", str(constraints)]
            log.append("$ " + paste_command(python, args))
            proc = _start(launcher + args, env)
            lines: queue.Queue[str | None] = queue.Queue()
            threading.Thread(target=_pump, args=(proc, lines), daemon=True).start()
            try:
                while True:
                    if cancelled and cancelled():
                        return InstallResult(False, "installation cancelled", "\n".join(log))
                    if time.monotonic() > deadline:
                        limit = (f"{p.time_limit_s / 60:.0f} min" if p.time_limit_s >= 120
                                 else f"{p.time_limit_s:.0f} s")
                        return InstallResult(False, f"installation stopped: not finished within {limit} (a slow "
                                             "index or a long build); retry, or install from a wheelhouse folder",
                                             "\n".join(log))
                    try:
                        line = lines.get(timeout=0.5)
                    except queue.Empty:
                        continue
                    if line is None:
                        break
                    line = line.rstrip()
                    log.append(line)
                    stage = compile_stage(line)
                    if _STEP.match(line):
                        steps += 1
                    if progress and (stage or _STEP.match(line)):
                        progress(min(0.95, steps / expected), stage or line)
                code = proc.wait()
            finally:
                _end(proc)   # the group ends with the install: no build left running
            if code != 0:
                last = next((ln for ln in reversed(log) if ln.strip().lower().startswith("error")), log[-1])
                hint = BUILD_HINT if any(ln.startswith(("Failed to build", "Failed building wheel")) for ln in log) else ""
                log.append("to retry by hand: " + paste_command(python, p.pip_args(with_deps)))
                return InstallResult(False, f"pip failed: {last.strip()}{hint}", "\n".join(log))
    activate(p.prefix)
    if progress:
        progress(1.0, "done")
    names = ", ".join(r.dist for r in p.requirements)
    if loaded_old:
        return InstallResult(True, f"installed {names}; restart QGIS to use them "
                             f"(older {', '.join(loaded_old)} already loaded)", "\n".join(log), True)
    return InstallResult(True, f"installed {names}", "\n".join(log))
