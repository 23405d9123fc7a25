"""Where the profile's packages live (QPIP convention) and putting them on ``sys.path``.

pip ``--prefix DIR`` lays files out by the interpreter's install scheme: ``lib/pythonX.Y/
site-packages`` on most systems, ``local/lib/pythonX.Y/dist-packages`` with Debian's
patched Python, ``Lib/site-packages`` on Windows. The candidates come from ``sysconfig``
so no layout is hard-coded per platform.
"""
from __future__ import annotations

import importlib
import sys
import sysconfig
from pathlib import Path


def dependencies_prefix(profile_dir: str | Path) -> Path:
    """``<profile>/python/dependencies``: where QPIP and our installer put packages."""
    return Path(profile_dir) / "python" / "dependencies"


def site_dirs(prefix: str | Path) -> list[Path]:
    """The folders under ``prefix`` that pip ``--prefix`` may have installed into (existing or not)."""
    prefix = str(prefix)
    schemes = [sysconfig.get_default_scheme()] + [s for s in ("posix_prefix", "nt") if s in sysconfig.get_scheme_names()]
    found: list[Path] = []
    for scheme in schemes:
        paths = sysconfig.get_paths(scheme, vars={"base": prefix, "platbase": prefix})
        for key in ("purelib", "platlib"):
            p = Path(paths[key])
            if p not in found and p.is_relative_to(prefix):
                found.append(p)
    return found


def activate(prefix: str | Path) -> list[str]:
    """Put the existing site folders of ``prefix`` first on ``sys.path`` (once); return those added."""
    added = [str(p) for p in site_dirs(prefix) if p.is_dir() and str(p) not in sys.path]
    sys.path[:0] = added
    if added:
        importlib.invalidate_caches()
    return added
