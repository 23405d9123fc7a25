"""Run by QGIS's own Python (no venv, no PYTHONPATH): start PyQGIS on the profile given by
QGIS_CUSTOM_CONFIG_PATH, load the ``cityplanner`` plugin from that profile the way QGIS does
(qgis.utils), and print JSON: loaded, provider registered, algorithms, CityPlanner log lines,
and the Python warnings QGIS desktop would show while the plugin loads and starts."""
import json
import sys
import warnings
from pathlib import Path

from qgis.core import QgsApplication

app = QgsApplication([], False)
app.initQgis()
messages: list[str] = []
QgsApplication.messageLog().messageReceived.connect(
    lambda msg, tag, level: messages.append(msg) if tag == "CityPlanner" else None)
sys.path.append("/usr/share/qgis/python/plugins")
from processing.core.Processing import Processing  # noqa: E402

Processing.initialize()
import qgis.utils  # noqa: E402

plugins = Path(QgsApplication.qgisSettingsDirPath()) / "python" / "plugins"
qgis.utils.plugin_paths = [str(plugins)]
sys.path.insert(0, str(plugins))  # what QGIS does for the profile's plugin folder
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("default")  # what QGIS desktop sets (qgis/utils.py) and shows as "Python warning"
    loaded = qgis.utils.loadPlugin("cityplanner") and qgis.utils.startPlugin("cityplanner")
provider = QgsApplication.processingRegistry().providerById("cityplanner")
print(json.dumps({"loaded": bool(loaded), "provider": provider is not None,
                  "algorithms": sorted(a.id() for a in provider.algorithms()) if provider else [],
                  "messages": messages,
                  "warnings": [f"{w.category.__name__}: {w.message} ({w.filename}:{w.lineno})" for w in caught]}))
sys.stdout.flush()
qgis.utils.unloadPlugin("cityplanner")
