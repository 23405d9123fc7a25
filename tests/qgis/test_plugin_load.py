"""The plugin loads and unloads the way QGIS and qgis_process load it."""
import configparser
import os
import subprocess

import pytest
from qgis.core import QgsApplication

from cityplanner.plugin import PLUGIN_ROOT

from .conftest import load_plugin_package

pytestmark = pytest.mark.qgis


def test_metadata_is_complete():
    cfg = configparser.ConfigParser()
    cfg.read(PLUGIN_ROOT / "metadata.txt")
    g = cfg["general"]
    for key in ("name", "qgisMinimumVersion", "description", "about", "version", "author", "email",
                "repository", "tracker", "icon", "hasProcessingProvider", "license"):
        assert g.get(key), key
    assert g["qgisMinimumVersion"] == "3.22" and g["hasProcessingProvider"] == "yes"
    assert (PLUGIN_ROOT / g["icon"]).is_file()


def test_class_factory_without_iface_registers_and_unload_removes(qgis_processing):
    reg = QgsApplication.processingRegistry()
    plugin = load_plugin_package().classFactory(None)
    plugin.initProcessing()
    assert reg.providerById("cityplanner") is not None
    assert reg.algorithmById("cityplanner:buildcitymodel") is not None
    plugin.unload()
    assert reg.providerById("cityplanner") is None
    assert plugin.provider is None


def _qgis_process(*args, timeout=240):
    env = dict(os.environ, CITYPLANNER_QGIS_HOME=str(PLUGIN_ROOT / "build" / "qgis-home-test"))
    cmd = f'source "{PLUGIN_ROOT}/scripts/qgis_env.sh" && qgis_process.bin {" ".join(args)}'
    return subprocess.run(["bash", "-c", cmd], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=timeout)


def test_qgis_process_help_describes_algorithm():
    r = _qgis_process("help", "cityplanner:buildcitymodel")
    assert r.returncode == 0, r.stderr[-500:]
    assert "Build city model" in r.stdout and "INPUT" in r.stdout and "FACES" in r.stdout


def test_qgis_process_runs_on_bundled_region(tmp_path):
    out = {k: tmp_path / f"{k.lower()}.gpkg" for k in ("FACES", "OUTPUT_ROADS", "JUNCTIONS", "DEMAND")}
    args = ["run", "cityplanner:buildcitymodel", "--",
            f"INPUT={PLUGIN_ROOT / 'resources/data/kotka.osm.pbf'}"] + [f"{k}={v}" for k, v in out.items()]
    r = _qgis_process(*args)
    assert r.returncode == 0, (r.stdout + r.stderr)[-800:]
    assert all(p.exists() for p in out.values())


def test_gui_load_adds_docks_and_unload_leaves_nothing(qgis_processing, qgis_iface):
    from qgis.gui import QgsDockWidget

    main = qgis_iface.mainWindow()
    before = {d.objectName() for d in main.findChildren(QgsDockWidget)}
    plugin = load_plugin_package().classFactory(qgis_iface)
    plugin.initGui()
    names = {d.objectName() for d in main.findChildren(QgsDockWidget)} - before
    assert {"CityPlannerParticipationDock"} <= names and len(names) == 2
    assert len(plugin.actions) == 2 and all(not a.isChecked() for a in plugin.actions)
    plugin.actions[0].trigger()  # the toggle shows its dock
    assert not plugin.dock.isHidden()  # (the test main window itself is never shown)
    plugin.unload()
    QgsApplication.processEvents()
    from qgis.PyQt.QtCore import QCoreApplication, QEvent

    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert {d.objectName() for d in main.findChildren(QgsDockWidget)} == before
    assert QgsApplication.processingRegistry().providerById("cityplanner") is None
    assert plugin.actions == [] and plugin.dock is None and plugin.participation_dock is None
