"""The Participation dock: builds offscreen, runs a small revision, shows layers and metrics."""
from __future__ import annotations

import pytest

from plugin.participation import Config, region_from_gdf, result_layers, run

from .test_participation_alg import USES, parcel_layer

pytestmark = pytest.mark.qgis


def test_dock_shows_a_result(qgis_app, qgis_new_project):
    from qgis.core import QgsProject

    from plugin.gui.participation_dock import ParticipationDock
    from plugin.qgis_io.layers import source_to_gdf

    layer = parcel_layer(USES)
    QgsProject.instance().addMapLayer(layer)
    dock = ParticipationDock()
    dock.layer.setLayer(layer)
    dock.field.setField("use")
    assert dock.config().residents == 1000
    res = run(region_from_gdf(source_to_gdf(layer, "p", "polygon", ["use"]), "use"),
              Config(residents=60, rounds=1, speakers=5, communities=1))
    out = dock.show_result(res, result_layers(res), layer.crs())
    assert [lyr.featureCount() for lyr in out] == [len(USES), 60]
    assert "after:" in dock.log.toPlainText()
    dock.cancel()
    dock.deleteLater()
