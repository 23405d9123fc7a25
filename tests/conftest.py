"""Test-wide settings: QGIS/Qt run offscreen; QGIS's own Python plugins are importable."""
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp/runtime-cityplanner")
os.makedirs(os.environ["XDG_RUNTIME_DIR"], mode=0o700, exist_ok=True)
if "/usr/share/qgis/python/plugins" not in sys.path:
    sys.path.append("/usr/share/qgis/python/plugins")

# The package is imported as ``cityplanner`` (as QGIS names the plugin folder) in every test:
# one import name per process (plugin/__init__.py refuses a second one).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
import cityplanner_pkg  # noqa: E402

cityplanner_pkg.load()
