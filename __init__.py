"""CityPlanner QGIS plugin entry point (the repository root is the plugin folder ``cityplanner``).

Nothing is added to ``sys.path``: inside QGIS every module is ``cityplanner.…`` (relative
imports), so no other plugin can shadow ours or be shadowed by them. Heavy packages are
loaded only after the dependency check of ``plugin.deps`` lets a feature start.
"""


def classFactory(iface):  # noqa: N802 (QGIS API name)
    from .plugin.util.third_party_warnings import quiet_known_third_party_warnings

    quiet_known_third_party_warnings()  # before anything imports geopandas
    from .plugin.gui.main import CityPlannerPlugin

    return CityPlannerPlugin(iface)
