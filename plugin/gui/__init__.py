"""QGIS GUI: plugin class, docks, QgsTask wrappers."""
