"""CityPlanner core and adapters.

Core subpackages (city, tasks, sandbox, solvers, agent, participation, training) never
import qgis or PyQt5; plugin.qgis_io and plugin.gui are the thin QGIS-facing adapters.

One namespace: every import inside the package is relative, so the same code is
``cityplanner.plugin`` inside QGIS (the plugin folder is the package ``cityplanner``) and
``plugin`` for ``python -m plugin`` from the repository root. A process must use one of the
two names only: two copies of the package would carry two copies of every class (an
``except InputError`` would miss the other copy's errors), so a second load is refused.
"""
import sys
from pathlib import Path

PLUGIN_ROOT = Path(__file__).resolve().parent.parent
RESOURCES = PLUGIN_ROOT / "resources"

for _other in ("plugin", "cityplanner.plugin"):
    _mod = sys.modules.get(_other)
    if _other != __name__ and _mod is not None and getattr(_mod, "PLUGIN_ROOT", None) == PLUGIN_ROOT:
        raise ImportError(f"CityPlanner is already loaded as '{_other}'; import it as '{_other}' only, "
                          f"not also as '{__name__}'")
