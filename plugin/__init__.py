"""CityPlanner core and adapters.

Core subpackages (city, tasks, sandbox, solvers, agent, participation, training) never
import qgis or PyQt5; plugin.qgis_io and plugin.gui are the thin QGIS-facing adapters.
"""
from pathlib import Path

PLUGIN_ROOT = Path(__file__).resolve().parent.parent
RESOURCES = PLUGIN_ROOT / "resources"
