"""Land allocation (LA): assign land-use types to vacant or redevelopable parcels.

The type vocabulary, the five service kinds and the Service / Ecology rules are those of the
participation regions (docs/reference.md#service-and-ecology), so that participatory planning
can reuse this evaluator on the Beijing parcels (``LandAllocation.from_parcels``) and the
coverage rules as plain functions (``service_coverage``, ``service_score``,
``ecology_score``, ``ecology_polygons``).
"""
from .constants import *  # noqa: F401,F403  the public names of the former single module
from .constants import __all__ as _constants
from .coverage import ecology_polygons, ecology_score, ecology_served, facilities_by_kind, service_coverage, service_score, within
from .search import LandState
from .task import LandAllocation

__all__ = [*_constants, "LandAllocation", "LandState", "ecology_polygons", "ecology_score", "ecology_served",
           "facilities_by_kind", "service_coverage", "service_score", "within"]
