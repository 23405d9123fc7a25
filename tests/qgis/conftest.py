"""QGIS test helpers: the plugin loaded the way QGIS loads it (package ``cityplanner``)."""
import cityplanner_pkg
import pytest
from pytest_qgis.qgis_interface import QgisInterface

if not hasattr(QgisInterface, "removePluginMenu"):  # pytest-qgis 2.1's iface double lacks it (QGIS has it)
    QgisInterface.removePluginMenu = lambda self, name, action: None



def load_plugin_package():
    """The repo root as the package ``cityplanner``, as QGIS loads it from its plugin path."""
    return cityplanner_pkg.load()


@pytest.fixture(scope="module")
def cityplanner_provider(qgis_processing):
    """The plugin as qgis_process creates it (iface=None), with its provider registered."""
    plugin = load_plugin_package().classFactory(None)
    plugin.initProcessing()
    assert plugin.provider is not None, "provider did not load (missing dependencies?)"
    yield plugin.provider
    plugin.unload()
