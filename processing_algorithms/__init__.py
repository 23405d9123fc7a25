"""QGIS Processing provider and algorithms (one file per algorithm)."""
