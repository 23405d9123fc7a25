"""The participation style shows what changed: a changed parcel gets a dark-red outline and the
label "before → after"; an unchanged one neither (rendered for real, pixels counted)."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.qgis

RED = (0xB0, 0x00, 0x20)


def parcels():
    from qgis.core import QgsFeature, QgsGeometry, QgsVectorLayer

    lyr = QgsVectorLayer("Polygon?crs=EPSG:3067&field=id:string&field=landuse_before:string&field=landuse:string"
                         "&field=changed:boolean", "Participation parcels", "memory")
    rows = [("p1", "residential", "school", True, "POLYGON((0 0, 100 0, 100 100, 0 100, 0 0))"),
            ("p2", "residential", "residential", False, "POLYGON((300 0, 400 0, 400 100, 300 100, 300 0))")]
    feats = []
    for pid, before, after, changed, wkt in rows:
        f = QgsFeature(lyr.fields())
        f.setAttributes([pid, before, after, changed])
        f.setGeometry(QgsGeometry.fromWkt(wkt))
        feats.append(f)
    lyr.dataProvider().addFeatures(feats)
    lyr.updateExtents()
    return lyr


def red_pixels(img, x0: int, x1: int) -> int:
    """Pixels of the change colour (a little tolerance for antialiasing) in columns x0..x1."""
    n = 0
    for x in range(x0, x1):
        for y in range(img.height()):
            c = img.pixelColor(x, y)
            n += abs(c.red() - RED[0]) < 40 and c.green() < 60 and abs(c.blue() - RED[2]) < 50
    return n


def test_changed_parcels_are_outlined_and_labelled_before_to_after(qgis_app):
    from qgis.core import (QgsExpressionContext, QgsExpressionContextUtils, QgsMapRendererSequentialJob,
                           QgsMapSettings, QgsRectangle, QgsRuleBasedLabeling)
    from qgis.PyQt.QtCore import QSize
    from qgis.PyQt.QtGui import QColor

    from cityplanner.plugin.qgis_io.maps import apply_style

    lyr = parcels()
    apply_style(lyr, "participation_parcels")
    labeling = lyr.labeling()
    assert lyr.labelsEnabled() and isinstance(labeling, QgsRuleBasedLabeling)
    rule = labeling.rootRule().children()[0]
    assert rule.filterExpression() == '"changed"'
    texts = {}
    for f in lyr.getFeatures():
        ctx = QgsExpressionContext(QgsExpressionContextUtils.globalProjectLayerScopes(lyr))
        ctx.setFeature(f)
        from qgis.core import QgsExpression

        texts[f["id"]] = (QgsExpression(rule.settings().fieldName).evaluate(ctx),
                          QgsExpression(rule.filterExpression()).evaluate(ctx))
    assert texts["p1"] == ("residential → school", True)
    assert texts["p2"][1] is False   # not labelled
    settings = QgsMapSettings()
    settings.setLayers([lyr])
    settings.setDestinationCrs(lyr.crs())
    settings.setExtent(QgsRectangle(-50, -50, 450, 150))
    settings.setOutputSize(QSize(500, 200))
    settings.setBackgroundColor(QColor("white"))
    job = QgsMapRendererSequentialJob(settings)
    job.start()
    job.waitForFinished()
    img = job.renderedImage()
    # the map is 500 px for 500 m: p1 spans columns 50..150, p2 350..450
    assert red_pixels(img, 40, 160) > 200       # outline and label of the changed parcel
    assert red_pixels(img, 340, 460) == 0       # the unchanged one: neither
