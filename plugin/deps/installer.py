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
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..util.spawned import python_executable
from .features import FEATURES
from .paths import activate, site_dirs
from .requirements import Requirement

# their wheels bundle GEOS/GDAL: on Linux they must link the distribution's (QGIS's) copies
LINK_QGIS_LIBS = ("shapely", "pyogrio")


def pip_launcher(python: str, find_links: Path | None) -> list[str]:
    """``python -m pip``, or pip run from a pip wheel in the wheelhouse when Python has no pip."""
    probe = subprocess.run([python, "-c", "import pip"], capture_output=True)
    if probe.returncode == 0:
        return [python, "-m", "pip"]
    wheels = sorted(find_links.glob("pip-*.whl")) if find_links else []
    if wheels:
        return [python, str(wheels[-1] / "pip")]
    raise RuntimeError("this Python has no pip: install it (Debian/Ubuntu: sudo apt install python3-pip) "
                       "or use the offline wheelhouse, which carries pip")


@dataclass
class InstallPlan:
    prefix: Path
    requirements: list[Requirement]
    find_links: Path | None = None
    pins: list[str] = field(default_factory=list)  # name==version of what is already fine here

    def pip_args(self, with_deps: bool) -> list[str]:
        reqs = [r.spec for r in self.requirements if r.no_deps != with_deps]
        if not reqs:
            return []
        args = ["install", "--prefix", str(self.prefix), "--no-warn-script-location",
                "--disable-pip-version-check", "--progress-bar", "off"]
        if self.find_links is not None:
            args += ["--no-index", "--find-links", str(self.find_links)]
        elif sys.platform.startswith("linux"):
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


def plan(prefix: Path, requirements: list[Requirement], find_links: Path | None = None) -> InstallPlan:
    return InstallPlan(Path(prefix), list(requirements), find_links,
                       installed_pins(("core", "llm")))


BUILD_HINT = (" — compiling needs a C compiler and QGIS's library headers (Debian/Ubuntu: sudo apt install "
              "python3-dev g++ libgeos-dev libgdal-dev), or install from a wheelhouse folder instead")
_STEP = re.compile(r"^(Collecting|Processing|Building wheel|Installing collected)")


@dataclass
class InstallResult:
    ok: bool
    message: str
    log: str
    restart_needed: bool = False


def run(p: InstallPlan, progress: Callable[[float, str], None] | None = None,
        cancelled: Callable[[], bool] | None = None) -> InstallResult:
    """Run pip for ``p``; ``progress(fraction, line)`` per pip step. Activates the prefix after."""
    python = python_executable()
    launcher = pip_launcher(python, p.find_links)
    loaded_old = [r.import_name for r in p.requirements if r.installed() is not None and r.import_name in sys.modules]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(str(d) for d in site_dirs(p.prefix)),
               PYTHONNOUSERSITE="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PIP_REQUIRE_VIRTUALENV", None)
    log: list[str] = []
    steps, expected = 0, max(2 * len(p.requirements), 1)
    with tempfile.TemporaryDirectory() as tmp:
        constraints = Path(tmp) / "constraints.txt"
        constraints.write_text("\n".join(p.pins) + "\n")
        for with_deps in (True, False):
            args = p.pip_args(with_deps)
            if not args:
                continue
            cmd = launcher + args + ["-c", str(constraints)]
            log.append("$ " + " ".join(cmd))
            # a context: the pipe is closed on every way out (QGIS shows an unclosed one as a
            # "Python warning", ResourceWarning, when it is collected)
            with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env) as proc:
                for line in proc.stdout:
                    line = line.rstrip()
                    log.append(line)
                    if _STEP.match(line):
                        steps += 1
                        if progress:
                            progress(min(0.95, steps / expected), line)
                    if cancelled and cancelled():
                        proc.terminate()
                        proc.wait()
                        return InstallResult(False, "installation cancelled", "\n".join(log))
                status = proc.wait()
            if status != 0:
                last = next((ln for ln in reversed(log) if ln.strip().lower().startswith("error")), log[-1])
                hint = BUILD_HINT if any(ln.startswith(("Failed to build", "Failed building wheel")) for ln in log) else ""
                return InstallResult(False, f"pip failed: {last.strip()}{hint}", "\n".join(log))
    activate(p.prefix)
    if progress:
        progress(1.0, "done")
    names = ", ".join(r.dist for r in p.requirements)
    if loaded_old:
        return InstallResult(True, f"installed {names}; restart QGIS to use them "
                             f"(older {', '.join(loaded_old)} already loaded)", "\n".join(log), True)
    return InstallResult(True, f"installed {names}", "\n".join(log))
