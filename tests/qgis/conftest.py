"""QGIS test helpers: the plugin loaded the way QGIS loads it (package ``cityplanner``)."""
import importlib.util
import sys

import pytest

from plugin import PLUGIN_ROOT


def load_plugin_package():
    """Import the repo root as the package ``cityplanner``, as QGIS does from its plugin path."""
    if "cityplanner" in sys.modules:
        return sys.modules["cityplanner"]
    spec = importlib.util.spec_from_file_location("cityplanner", PLUGIN_ROOT / "__init__.py",
                                                  submodule_search_locations=[str(PLUGIN_ROOT)])
    mod = importlib.util.module_from_spec(spec)
    sys.modules["cityplanner"] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def cityplanner_provider(qgis_processing):
    """The plugin as qgis_process creates it (iface=None), with its provider registered."""
    plugin = load_plugin_package().classFactory(None)
    plugin.initProcessing()
    assert plugin.provider is not None, "provider did not load (missing dependencies?)"
    yield plugin.provider
    plugin.unload()
