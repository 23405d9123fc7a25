"""Known third-party import warnings are silenced for the module that raises them only."""
from __future__ import annotations

import warnings

from cityplanner.plugin.util.third_party_warnings import quiet_known_third_party_warnings

GEOS = ("The 'shapely.geos' module is deprecated, and will be removed in a future version. All attributes "
        "of 'shapely.geos' are available directly from the top-level 'shapely' namespace (since shapely 2.0.0).")


def shown(message: str, module: str, category=DeprecationWarning) -> list[str]:
    """What QGIS desktop would show (its filter is "default") for one warning from `module`."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        quiet_known_third_party_warnings()
        quiet_known_third_party_warnings()  # a second plugin start adds nothing
        warnings.warn_explicit(message, category, f"/x/{module.replace('.', '/')}.py", 7, module=module,
                               registry={})
    return [str(w.message) for w in caught]


def test_geopandas_import_warning_is_silenced_there():
    assert shown(GEOS, "geopandas._compat") == []  # plain Python
    assert shown(GEOS, "qgis.utils") == []  # inside QGIS, whose import hook is the frame warned at


def test_the_same_warning_elsewhere_and_other_warnings_still_show():
    assert shown(GEOS, "cityplanner.plugin.city") == [GEOS]
    assert shown(GEOS, "geopandas._compat_extra") == [GEOS]  # the module pattern is anchored
    assert shown("something else is deprecated", "geopandas._compat") == ["something else is deprecated"]
    assert shown(GEOS, "geopandas._compat", category=UserWarning) == [GEOS]


def test_no_global_filter_is_installed():
    with warnings.catch_warnings():
        quiet_known_third_party_warnings()
        ours = [f for f in warnings.filters if f[0] == "ignore" and f[3] is not None
                and "geopandas" in getattr(f[3], "pattern", "")]
        assert len(ours) == 1 and ours[0][1] is not None  # tied to a module and a message
