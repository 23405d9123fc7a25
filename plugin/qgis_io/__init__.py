"""Thin adapters between QGIS layers and the core's GeoDataFrames (imports qgis)."""
