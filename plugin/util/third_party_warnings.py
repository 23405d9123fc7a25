"""Warnings other packages raise on import that a planner can do nothing about, each silenced
only for the module that raises it (QGIS shows every DeprecationWarning as a "Python warning"
at start: its qgis.utils sets ``warnings.simplefilter("default")``). Never a global filter:
our own warnings, and new ones from these packages, still show."""
from __future__ import annotations

import warnings

#: (category, message regex, regex of the module the warning is attributed to)
KNOWN: tuple[tuple[type[Warning], str, str], ...] = (
    # Debian 13's geopandas 1.0.1 imports the deprecated shapely.geos (geopandas/_compat.py).
    # shapely warns one frame up from its import, which inside QGIS is QGIS's import hook
    # (qgis/utils.py `_import`), outside it geopandas/_compat.py: the filter names both.
    (DeprecationWarning, r"The 'shapely\.geos' module is deprecated", r"(geopandas\._compat|qgis\.utils)\Z"),
)


def quiet_known_third_party_warnings() -> None:
    """Install the filters of KNOWN (idempotent: the warnings module replaces an equal filter)."""
    for category, message, module in KNOWN:
        warnings.filterwarnings("ignore", message=message, category=category, module=module)
