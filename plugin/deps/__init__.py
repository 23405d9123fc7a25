"""Which Python packages each CityPlanner feature needs, whether the running Python has them,
and how to install the missing ones into the QGIS profile (the QPIP convention).

Core: no qgis/PyQt import, and nothing heavy is imported to check a package — versions come
from ``importlib.metadata``, so a too-old copy (Debian 12's shapely 1.8) is reported, not
loaded. The GUI side (message bar, Install dependencies action, QgsTask) is
``plugin.gui.dependencies``.
"""
from .features import FEATURES, Feature, FeatureStatus, require, status, statuses
from .requirements import Requirement

__all__ = ["FEATURES", "Feature", "FeatureStatus", "Requirement", "require", "status", "statuses"]
