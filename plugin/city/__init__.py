"""City model from OpenStreetMap or user layers (no QGIS import)."""
from .build import build_city
from .export import write_gpkg
from .model import CATEGORIES, City
from .regions import REGIONS, load_city, region_path, tiles

__all__ = ["CATEGORIES", "City", "REGIONS", "build_city", "load_city", "region_path",
           "tiles", "write_gpkg"]
