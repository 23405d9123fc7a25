"""Participatory planning (docs/reference.md#participatory-urban-planning): residents, communities, fishbowl rounds, planner
revision, Service / Ecology / Satisfaction / Inclusion and the paper's baselines.

Entry points: ``load_parcels`` / ``region_from_gdf`` (a parcel layer), ``Config`` + ``run``
(one revision; ``run_with_voice`` opens the LLM persona when asked), ``write_outputs`` (metrics.json, parcels.gpkg,
transcript.jsonl).
"""
from .engine import Config, Result, result_layers, run, run_with_voice, write_outputs
from .region import Region, load_parcels, region_from_gdf

__all__ = ["Config", "Region", "Result", "load_parcels", "region_from_gdf", "result_layers", "run", "run_with_voice",
           "write_outputs"]
