"""Which Python packages the plugin needs that QGIS's Python lacks (checked on load)."""
from __future__ import annotations

import importlib.util

REQUIRED = ("numpy", "scipy", "pandas", "geopandas", "shapely", "pyproj", "pyogrio", "networkx")


def missing_dependencies() -> list[str]:
    return [m for m in REQUIRED if importlib.util.find_spec(m) is None]
