"""Build city model: OSM extract or road + building layers → faces, roads, junctions, demand."""
from __future__ import annotations

import geopandas as gpd
from qgis.core import (QgsCoordinateReferenceSystem, QgsFeatureSink, QgsProcessing,
                       QgsProcessingException, QgsProcessingParameterFeatureSink,
                       QgsProcessingParameterFeatureSource, QgsProcessingParameterField,
                       QgsProcessingParameterFile, QgsWkbTypes)

from plugin.city import build_city, load_city
from plugin.city.export import city_layers
from plugin.qgis_io.layers import qgs_fields, source_to_gdf, write_gdf

from .base import CityPlannerAlgorithm


class BuildCityModel(CityPlannerAlgorithm):
    INPUT = "INPUT"
    ROADS = "ROADS"
    HIGHWAY_FIELD = "HIGHWAY_FIELD"
    BUILDINGS = "BUILDINGS"
    BUILDING_FIELD = "BUILDING_FIELD"
    LEVELS_FIELD = "LEVELS_FIELD"
    FACES = "FACES"
    OUTPUT_ROADS = "OUTPUT_ROADS"
    JUNCTIONS = "JUNCTIONS"
    DEMAND = "DEMAND"
    #: output name -> (City layer, geometry type, display name)
    OUTPUTS = {FACES: ("faces", QgsProcessing.TypeVectorPolygon, "Faces (urban blocks)"),
               OUTPUT_ROADS: ("roads", QgsProcessing.TypeVectorLine, "Drivable roads"),
               JUNCTIONS: ("junctions", QgsProcessing.TypeVectorPoint, "Junctions"),
               DEMAND: ("demand", QgsProcessing.TypeVectorPoint, "Residential demand")}

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
            "(lines, projected CRS in metres) with an optional building layer.\n\n"
            "Demand = residential floor area / 40 m² per resident, floor area = footprint × "
            "levels (from the levels field or a default per building type).")

    def initAlgorithm(self, config=None) -> None:
        self.addParameter(QgsProcessingParameterFile(
            self.INPUT, self.tr("OpenStreetMap extract (.osm.pbf) — or leave empty and give layers"),
            behavior=QgsProcessingParameterFile.File, fileFilter="OpenStreetMap (*.pbf *.osm)", optional=True))
        self.addParameter(QgsProcessingParameterFeatureSource(
            self.ROADS, self.tr("Road layer"), [QgsProcessing.TypeVectorLine], optional=True))
        self.addParameter(QgsProcessingParameterField(
            self.HIGHWAY_FIELD, self.tr("Road class field (OSM highway values; empty = every road drivable)"),
            parentLayerParameterName=self.ROADS, optional=True))
        self.addParameter(QgsProcessingParameterFeatureSource(
            self.BUILDINGS, self.tr("Building layer"), [QgsProcessing.TypeVectorPolygon], optional=True))
        self.addParameter(QgsProcessingParameterField(
            self.BUILDING_FIELD, self.tr("Building type field (OSM building values)"),
            parentLayerParameterName=self.BUILDINGS, optional=True))
        self.addParameter(QgsProcessingParameterField(
            self.LEVELS_FIELD, self.tr("Number of levels field"), parentLayerParameterName=self.BUILDINGS,
            type=QgsProcessingParameterField.Numeric, optional=True))
        for key, (_, gtype, title) in self.OUTPUTS.items():
            self.addParameter(QgsProcessingParameterFeatureSink(key, self.tr(title), gtype))

    def processAlgorithm(self, parameters, context, feedback):
        pbf = self.parameterAsFile(parameters, self.INPUT, context)
        roads_src = self.parameterAsSource(parameters, self.ROADS, context)
        if pbf:
            feedback.pushInfo(f"Reading {pbf}")
            city = self.core(load_city, pbf)
        elif roads_src is not None:
            city = self.core(build_city, self._layers(parameters, context, feedback, roads_src), "layers")
        else:
            raise QgsProcessingException("give an OSM extract or a road layer")
        feedback.setProgress(60)
        if feedback.isCanceled():
            return {}
        layers = city_layers(city)
        layers["demand"] = gpd.GeoDataFrame(
            city.faces[["demand", "residential_floor_area"]].reset_index(),
            geometry=gpd.points_from_xy(city.faces["cx"], city.faces["cy"]), crs=city.crs)
        crs = QgsCoordinateReferenceSystem(city.crs)
        results = {}
        for k, (key, (name, _, _)) in enumerate(self.OUTPUTS.items()):
            gdf = layers[name]
            fields = qgs_fields(gdf)
            sink, dest = self.parameterAsSink(parameters, key, context, fields,
                                              _wkb_type(gdf), crs)
            write_gdf(gdf, sink, fields, feedback)
            results[key] = dest
            feedback.setProgress(60 + 10 * (k + 1))
        for key, value in city.counts().items():
            feedback.pushInfo(f"{key}: {value}")
        return results

    def _layers(self, parameters, context, feedback, roads_src) -> dict[str, gpd.GeoDataFrame]:
        hw = self.parameterAsString(parameters, self.HIGHWAY_FIELD, context)
        roads = source_to_gdf(roads_src, "road layer", "line", [hw], feedback)
        roads["highway"] = roads.pop(hw).fillna("residential").astype(str) if hw else "residential"
        raw = {"roads": roads}
        b_src = self.parameterAsSource(parameters, self.BUILDINGS, context)
        if b_src is not None:
            bf = self.parameterAsString(parameters, self.BUILDING_FIELD, context)
            lf = self.parameterAsString(parameters, self.LEVELS_FIELD, context)
            b = source_to_gdf(b_src, "building layer", "polygon", [bf, lf], feedback)
            b["building"] = b.pop(bf).fillna("yes").astype(str) if bf else "yes"
            b["levels"] = b.pop(lf) if lf else None
            raw["buildings"] = b.to_crs(roads.crs)
        return raw


def _wkb_type(gdf: gpd.GeoDataFrame):
    return {"Polygon": QgsWkbTypes.Polygon, "LineString": QgsWkbTypes.LineString,
            "Point": QgsWkbTypes.Point}[gdf.geom_type.iloc[0] if len(gdf) else "Point"]
