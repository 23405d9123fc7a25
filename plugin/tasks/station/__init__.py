"""Station placement (SP): EV charging sites and their charger configurations (``task``)."""
from .constants import *  # noqa: F401,F403  the public names of the former single module
from .constants import __all__ as _constants
from .search import StationState
from .service import WAIT_A, WAIT_B, service_value
from .task import StationPlacement

__all__ = [*_constants, "StationPlacement", "StationState", "WAIT_A", "WAIT_B", "service_value"]
