"""Build city model: OSM extract or road + building layers → faces, roads, junctions, demand."""
from __future__ import annotations

import geopandas as gpd
from qgis.core import QgsCoordinateReferenceSystem, QgsProcessingException, QgsProcessingParameterFeatureSink

from ..plugin.city.export import city_layers
from ..plugin.qgis_io.city_source import add_city_parameters, city_from_parameters
from ..plugin.qgis_io.compat import ProcessingSourceType, WkbType
from ..plugin.qgis_io.layers import qgs_fields, write_gdf
from .base import CityPlannerAlgorithm


class BuildCityModel(CityPlannerAlgorithm):
    FACES = "FACES"
    OUTPUT_ROADS = "OUTPUT_ROADS"
    JUNCTIONS = "JUNCTIONS"
    DEMAND = "DEMAND"
    #: output name -> (City layer, geometry type, display name, style in resources/styles)
    OUTPUTS = {FACES: ("faces", ProcessingSourceType.VectorPolygon, "Faces (urban blocks)", "city_faces"),
               OUTPUT_ROADS: ("roads", ProcessingSourceType.VectorLine, "Drivable roads", "city_roads"),
               JUNCTIONS: ("junctions", ProcessingSourceType.VectorPoint, "Junctions", "city_junctions"),
               DEMAND: ("demand", ProcessingSourceType.VectorPoint, "Residential demand", "city_demand")}
    WKB = {"Polygon": WkbType.Polygon, "LineString": WkbType.LineString, "Point": WkbType.Point}

    def name(self) -> str:
        return "buildcitymodel"

    def displayName(self) -> str:
        return self.tr("Build city model")

    def shortHelpString(self) -> str:
        return self.tr(
            "Builds the city model every planning task starts from: the drivable road graph, "
            "urban faces (blocks enclosed by streets, the planning parcels), junctions with "
            "their degree, and residential demand per face.\n\n"
            "Input is either an OpenStreetMap extract (.osm.pbf) or your own road layer "
            "(lines, any CRS) with optional building and POI layers, an optional study area that clips "
            "everything and an optional demand layer. Measuring happens in the input CRS when it is "
            "metric with at most 0.5 % scale error over the area, else in the local UTM zone; every "
            "assumption (CRS, default fields) is a warning in the log.\n\n"
            "Demand = residential floor area / 40 m² per resident, floor area = footprint × "
            "levels (from the levels field or a default per building type).")

    def initAlgorithm(self, config=None) -> None:
        add_city_parameters(self)
        for key, (_, gtype, title, _) in self.OUTPUTS.items():
            self.addParameter(QgsProcessingParameterFeatureSink(key, self.tr(title), gtype))

    def processAlgorithm(self, parameters, context, feedback):
        city = city_from_parameters(self, parameters, context, feedback)
        feedback.setProgress(60)
        if feedback.isCanceled():
            raise QgsProcessingException("cancelled")
        layers = city_layers(city)
        layers["demand"] = gpd.GeoDataFrame(
            city.faces[["demand", "residential_floor_area"]].reset_index(),
            geometry=gpd.points_from_xy(city.faces["cx"], city.faces["cy"]), crs=city.crs)
        crs = QgsCoordinateReferenceSystem(city.crs)
        results = {}
        for k, (key, (name, _, _, style)) in enumerate(self.OUTPUTS.items()):
            gdf = layers[name]
            fields = qgs_fields(gdf)
            sink, dest = self.parameterAsSink(parameters, key, context, fields,
                                              self.WKB[gdf.geom_type.iloc[0]], crs)
            write_gdf(gdf, sink, fields, feedback)
            self.style_on_load(context, dest, style, bottom=key == self.FACES)
            results[key] = dest
            feedback.setProgress(60 + 10 * (k + 1))
        for key, value in city.counts().items():
            feedback.pushInfo(f"{key}: {value}")
        return results
