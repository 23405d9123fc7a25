"""Road construction (RC): close gaps in a drivable network under a budget (``task``)."""
from .constants import *  # noqa: F401,F403  the public names of the former single module
from .constants import __all__ as _constants
from .graph import _csr
from .search import RoadState
from .task import RoadConstruction

__all__ = [*_constants, "RoadConstruction", "RoadState", "_csr"]
