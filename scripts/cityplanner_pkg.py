"""Import the repository root as the package ``cityplanner``, as QGIS does from its plugin
path, for scripts that run outside QGIS's plugin loader (demo, screenshots, tests)."""
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load():
    """The ``cityplanner`` package (registered once per process)."""
    if "cityplanner" not in sys.modules:
        spec = importlib.util.spec_from_file_location("cityplanner", ROOT / "__init__.py",
                                                      submodule_search_locations=[str(ROOT)])
        mod = importlib.util.module_from_spec(spec)
        sys.modules["cityplanner"] = mod
        spec.loader.exec_module(mod)
    return sys.modules["cityplanner"]
