"""Test-wide settings: QGIS/Qt run offscreen; QGIS's own Python plugins are importable."""
import os
import sys

import pytest

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

_EXIT: dict[str, int] = {}


def pytest_sessionfinish(session, exitstatus):
    _EXIT["status"] = int(exitstatus)


@pytest.hookimpl(tryfirst=True)
def pytest_unconfigure(config):
    """Leave without the interpreter's teardown once the results are reported: QGIS 3.22's
    bindings can segfault while objects a test kept alive are destroyed at exit, which turns
    a run whose every test passed into a failed command."""
    if "status" in _EXIT and "qgis.core" in sys.modules:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_EXIT["status"])
