"""Run inside a real QGIS desktop (``qgis --code``) on a fresh profile: install the ZIP named by
CP_ZIP through QGIS's own Plugin Manager code (Plugins › Manage and Install › Install from ZIP:
``pyplugin_installer``'s ``installFromZipFile``), record what QGIS and the plugin then show
(the Plugin Manager's message, the plugin's state, CityPlanner's message bar) and quit keeping
the settings, so that the next start is a restart of this installation."""
import os
import sys

sys.path.insert(0, os.environ["CP_SESSION_LIB"])

import desktop_common as dc  # noqa: E402
import pyplugin_installer  # noqa: E402  (QGIS's own plugin installer package)
from qgis.PyQt.QtWidgets import QPushButton  # noqa: E402
from qgis.utils import iface  # noqa: E402


@dc.guarded
def install() -> None:
    iface.mainWindow().setGeometry(0, 0, 1400, 900)  # Xvfb has no window manager to maximize it
    dc.state["before"] = dc.plugin_state()
    pyplugin_installer.instance().installFromZipFile(os.environ["CP_ZIP"])
    dc.state["after"] = dc.plugin_state()
    bar = iface.messageBar()
    dc.only_ours(bar)
    dc.state["bar"] = [b.text() for b in bar.findChildren(QPushButton)]
    dc.state["bar_text"] = dc.bar_text(bar)
    dc.shot("installed")
    dc.finish()


dc.start(install)
