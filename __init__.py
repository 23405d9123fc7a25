"""CityPlanner QGIS plugin entry point (the repository root is the plugin folder)."""
import os
import sys

# Core code imports itself as the top-level packages ``plugin`` and ``processing_algorithms``
# (the same names ``python -m plugin`` uses), so the plugin folder goes on sys.path.
_ROOT = os.path.dirname(os.path.abspath(__file__))
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)


def classFactory(iface):  # noqa: N802 (QGIS API name)
    from plugin.gui.main import CityPlannerPlugin

    return CityPlannerPlugin(iface)
