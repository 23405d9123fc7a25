"""The working CRS: one projected CRS in metres whose scale error over the study area is small.

Rule (docs/cli.md#your-own-data): the input CRS is kept when it is projected, in metres, and its
point scale factors (``pyproj.Proj.get_factors``: meridional and parallel scale) at the
area's centre and four corners stay within ``MAX_SCALE_ERROR`` (0.5 %) of 1. Otherwise —
geographic input, Web Mercator away from the equator, feet, a grid far from its zone — the
layers are reprojected to the local UTM zone (WGS 84) of the area's centre. Layers in other
CRSs are reprojected to the working one; each change is a warning, never silent.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import geopandas as gpd
import numpy as np
import shapely
from pyproj import CRS, Proj, Transformer
from pyproj.aoi import AreaOfInterest
from pyproj.database import query_utm_crs_info
from pyproj.exceptions import CRSError, ProjError

from ..errors import InputError

MAX_SCALE_ERROR = 0.005
GRID_M = 0.001  # coordinates of reprojected layers are rounded to this grid (metres)
CRS_HINT = "give the CRS of layers without one with --crs EPSG:…"
#: what GDAL calls the CRS of a GeoPackage layer stored without one (srs_id 0 / -1)
UNDEFINED = ("Undefined geographic SRS", "Undefined Cartesian SRS")
MAX_COORDINATE = 1e8   # metres or degrees: beyond any real place in any CRS


@dataclass
class WorkingCrs:
    """The chosen CRS (``crs``: 'EPSG:…' or WKT), its worst scale error over the area, warnings."""

    crs: str
    scale_error: float
    warnings: list[str] = field(default_factory=list)


def crs_label(crs: CRS) -> str:
    """'EPSG:3857' when the CRS has an EPSG code, else its name."""
    code = crs.to_epsg(min_confidence=70)
    return f"EPSG:{code}" if code else crs.name


def crs_text(crs: CRS) -> str:
    """A text that reads back as ``crs``: 'EPSG:…' when it has a code, else its WKT (a custom
    CRS's name alone, e.g. "My grid", is no CRS to pyproj: CRSError further on)."""
    code = crs.to_epsg(min_confidence=70)
    return f"EPSG:{code}" if code else crs.to_wkt()


def parse_crs(text: str) -> CRS:
    """A user CRS string (EPSG:…, WKT, PROJ); one-line InputError otherwise."""
    try:
        return CRS.from_user_input(text)
    except CRSError:  # its message is PROJ's multi-line text
        raise InputError(f"--crs: '{text}' is not a CRS (e.g. EPSG:3067)") from None


def area_points(lonlat_bounds: tuple[float, float, float, float]) -> tuple[np.ndarray, np.ndarray]:
    """Longitudes and latitudes of the centre and the four corners of a lon/lat box."""
    x0, y0, x1, y1 = lonlat_bounds
    return np.array([(x0 + x1) / 2, x0, x1, x0, x1]), np.array([(y0 + y1) / 2, y0, y0, y1, y1])


def scale_error(crs: CRS, lonlat_bounds: tuple[float, float, float, float]) -> float:
    """Largest |k − 1| over meridional and parallel scale at the area's centre and corners."""
    lon, lat = area_points(lonlat_bounds)
    f = Proj(crs).get_factors(lon, lat)
    k = np.concatenate([np.asarray(f.meridional_scale), np.asarray(f.parallel_scale)])
    return float(np.nanmax(np.abs(k - 1.0))) if np.isfinite(k).any() else float("inf")


def utm_for(lonlat_bounds: tuple[float, float, float, float]) -> CRS:
    """The WGS 84 UTM zone of the area's centre (what geopandas' estimate_utm_crs picks)."""
    lon, lat = (lonlat_bounds[0] + lonlat_bounds[2]) / 2, (lonlat_bounds[1] + lonlat_bounds[3]) / 2
    info = query_utm_crs_info(datum_name="WGS 84", area_of_interest=AreaOfInterest(lon, lat, lon, lat))
    if not info:
        raise InputError(f"no UTM zone for the area around {lon:.3f}, {lat:.3f} (polar?)")
    return CRS.from_epsg(info[0].code)


def _metres(crs: CRS) -> bool:
    return crs.is_projected and bool(crs.axis_info) and crs.axis_info[0].unit_name in ("metre", "meter")


def choose(input_crs: CRS, lonlat_bounds: tuple[float, float, float, float]) -> WorkingCrs:
    """Keep ``input_crs`` if it is metric with ≤ 0.5 % scale error over the area, else local UTM."""
    if _metres(input_crs):
        err = scale_error(input_crs, lonlat_bounds)
        if err <= MAX_SCALE_ERROR:
            return WorkingCrs(crs_text(input_crs), err)
        why = f"its scale is off by up to {err:.1%} over the area (limit {MAX_SCALE_ERROR:.1%})"
    elif input_crs.is_geographic:
        why = "it is geographic (degrees)"
    else:
        why = f"its unit is {input_crs.axis_info[0].unit_name if input_crs.axis_info else 'unknown'}"
    utm = utm_for(lonlat_bounds)
    err = scale_error(utm, lonlat_bounds)
    note = f"input CRS {crs_label(input_crs)} not used for measuring ({why}): working CRS {crs_label(utm)} ({utm.name})"
    out = WorkingCrs(crs_label(utm), err, [note])
    if err > MAX_SCALE_ERROR:
        out.warnings.append(f"the area is wide: {crs_label(utm)} is off by up to {err:.1%} at its edges")
    return out


def lonlat_bounds(gdf: gpd.GeoDataFrame) -> tuple[float, float, float, float]:
    """The layer's bounding box in WGS 84 longitude / latitude (densified edges)."""
    crs = CRS.from_user_input(gdf.crs)
    b = gdf.total_bounds
    # no place on Earth is 10^8 m from any projection's origin: 1e300 is a broken feature, and
    # GEOS raised on it further on
    if not np.isfinite(b).all() or np.abs(b).max() > MAX_COORDINATE:
        raise InputError(f"coordinates out of range (up to {np.abs(b).max():.3g}): a feature lies far off the "
                         "map or the layer's CRS is wrong")
    if crs.is_geographic:
        _check_degrees(b)
        return tuple(float(v) for v in b)
    try:
        t = Transformer.from_crs(crs, "EPSG:4326", always_xy=True)
        box = tuple(float(v) for v in t.transform_bounds(*b, densify_pts=11))
    except (ProjError, CRSError) as e:
        raise InputError(f"the layer's CRS ({crs_label(crs)}) cannot be related to longitude/latitude "
                         f"({str(e).splitlines()[0] if str(e) else type(e).__name__}): {CRS_HINT}") from None
    if not np.isfinite(box).all():
        raise InputError(f"the layer's extent has no longitude/latitude in {crs_label(crs)}: the CRS is wrong "
                         f"({CRS_HINT})")
    return box


def _check_degrees(b: np.ndarray) -> None:
    if b[0] < -180 or b[2] > 180 or b[1] < -90 or b[3] > 90:
        raise InputError("coordinates are out of range for a geographic CRS: the layer's CRS is wrong "
                         "(" + CRS_HINT + ", or fix it in the file)")


def _overlap(a, b) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def gather(layers: dict[str, gpd.GeoDataFrame], assume: str | None = None,
           reference: str | None = None) -> tuple[dict[str, gpd.GeoDataFrame], WorkingCrs]:
    """Bring ``layers`` (name → frame; None entries skipped) into one working CRS.

    ``assume`` is the CRS of layers that have none (--crs); a layer without CRS and no
    ``assume`` is an InputError asking for it. The working CRS is chosen from the
    ``reference`` layer (default: the first) over the union of all layers' extents; a layer
    that does not overlap the reference is an InputError (a wrong CRS, most likely)."""
    layers = {k: v for k, v in layers.items() if v is not None}
    if not layers:
        raise InputError("no input layers")
    fixed = {}
    for name, gdf in layers.items():
        if gdf.crs is None or CRS.from_user_input(gdf.crs).name in UNDEFINED:
            if not assume:
                raise InputError(f"{name}: layer has no CRS; {CRS_HINT}")
            gdf = gdf.set_crs(parse_crs(assume), allow_override=True)
        fixed[name] = gdf
    ref = reference if reference in fixed else next(iter(fixed))
    boxes = {k: lonlat_bounds(v) for k, v in fixed.items() if len(v)}
    for k, box in boxes.items():
        if ref in boxes and not _overlap(box, boxes[ref]):
            raise InputError(f"{k} ({crs_label(CRS.from_user_input(fixed[k].crs))}) does not overlap {ref} "
                             f"({crs_label(CRS.from_user_input(fixed[ref].crs))}): check the layers' CRS")
    if not boxes:
        raise InputError(f"{ref}: no features")
    allb = np.array(list(boxes.values()))
    union = (allb[:, 0].min(), allb[:, 1].min(), allb[:, 2].max(), allb[:, 3].max())
    work = choose(CRS.from_user_input(fixed[ref].crs), union)
    target = CRS.from_user_input(work.crs)
    out = {}
    for k, gdf in fixed.items():
        src = CRS.from_user_input(gdf.crs)
        if src != target:
            if k != ref and CRS.from_user_input(fixed[ref].crs) != src:
                work.warnings.append(f"{k}: reprojected from {crs_label(src)} (another CRS than {ref})")
            gdf = gdf.to_crs(target)
            # reprojection leaves nanometre noise; on the 1 mm grid the same places in any input
            # CRS get the same coordinates (ties in sampling and sorting then break the same way)
            gdf = gdf.set_geometry(shapely.set_precision(gdf.geometry.values, GRID_M, mode="pointwise"))
        out[k] = gdf
    return out, work
