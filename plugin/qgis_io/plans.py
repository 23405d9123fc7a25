"""Planning instances and plans as QGIS features: candidate layers out, plans back in.

A candidates layer holds one feature per candidate: the instance's candidate table (``id``
first, then cost, group and task columns) with the candidate geometry (land: the parcel
polygon, road: the segment line, station: the site point), plus the fields a plan adds
(``selected``, ``contribution``, ``flag``). Plans come back as the ids of features whose
selection field is true, or of every feature (the source may be "selected features only").
"""
from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely
from qgis.core import QgsCoordinateReferenceSystem, QgsFeatureSource, QgsProcessingException

from ..sandbox import write_workspace
from ..tasks import Instance
from .compat import WkbType, field_type

#: a spec's geometry kind -> the WKB type of its candidate layer
WKB_TYPES = {"polygon": WkbType.MultiPolygon, "line": WkbType.MultiLineString, "point": WkbType.Point}


class _Geometry(dict):
    """task -> (WKB type of its candidate layer, geometry kind as source_to_gdf names it), read
    from the task's spec on first use (a dict so that ``GEOMETRY[task]`` reads as before)."""

    def __missing__(self, task: str) -> tuple:
        from ..tasks.registry import spec

        kind = spec(task).geometry
        self[task] = (WKB_TYPES[kind], kind)
        return self[task]


GEOMETRY = _Geometry()
_ID_TYPES = tuple(field_type(k) for k in ("string", "int", "int64", "uint", "uint64"))
_BOOL_TYPES = tuple(field_type(k) for k in ("bool", "int", "int64"))


def crs_of(inst: Instance) -> QgsCoordinateReferenceSystem:
    crs = QgsCoordinateReferenceSystem(inst.crs)
    if not crs.isValid():
        crs = QgsCoordinateReferenceSystem.fromWkt(inst.crs)
    return crs


def candidate_frame(inst: Instance, mask: np.ndarray | None = None, **columns: Iterable) -> gpd.GeoDataFrame:
    """The candidates (all, or the rows of ``mask``) as a GeoDataFrame in the instance CRS.

    ``columns`` are extra per-row values (aligned with the chosen rows). Geometries are made
    multi-part for polygons and lines so that every feature fits one layer type."""
    rows = np.arange(inst.n) if mask is None else np.flatnonzero(mask)
    df = inst.candidates.iloc[rows].reset_index(drop=True)
    geoms = shapely.from_wkt(df.pop("wkt").to_numpy())
    kind = GEOMETRY[inst.task][1]
    if kind == "polygon":
        geoms = np.array([g if g.geom_type == "MultiPolygon" else shapely.MultiPolygon([g]) for g in geoms])
    elif kind == "line":
        geoms = np.array([g if g.geom_type == "MultiLineString" else shapely.MultiLineString([g]) for g in geoms])
    for name, values in columns.items():
        df[name] = list(values)
    return gpd.GeoDataFrame(df, geometry=geoms, crs=None)


def plan_frame(inst: Instance, ids: list[str], **columns: Iterable) -> gpd.GeoDataFrame:
    """A plan as a layer frame: its candidates with selected (true), contribution, flag,
    plan_score and plan_valid (plan_<task>.qml hatches the features of an invalid plan)."""
    ev = inst.evaluate(list(ids))
    mask = inst.mask_of(ev.candidate_ids)
    n = int(mask.sum())
    return candidate_frame(inst, mask, selected=[True] * n,
                           contribution=[ev.contributions.get(i) for i in inst.ids_of(mask)],
                           flag=[""] * n, plan_score=[ev.score] * n, plan_valid=[ev.valid] * n,
                           **{k: list(v) for k, v in columns.items()})


def network_frame(inst: Instance, roads: gpd.GeoDataFrame) -> gpd.GeoDataFrame:
    """The road network a road instance keeps: the city's road rows (``u``, ``v``, geometry)
    whose junction pair is an edge of the instance, so the links removed to create the gap
    (the 'rebuild' candidates) and the self-loops the graph drops are absent."""
    kept = {(min(u, v), max(u, v)) for u, v, _ in inst.data["edges"]}
    pair = pd.Series(list(zip(np.minimum(roads["u"], roads["v"]), np.maximum(roads["u"], roads["v"]))),
                     index=roads.index)
    return roads[pair.isin(kept).to_numpy()].reset_index(drop=True)


def _field_type(source: QgsFeatureSource, name: str) -> int:
    return source.fields().field(source.fields().indexOf(name)).type()


def check_fields(source: QgsFeatureSource, name: str, id_field: str, selection_field: str) -> None:
    """One-line errors for a missing or wrongly typed id / selection field."""
    names = set(source.fields().names())
    for f in (id_field, selection_field):
        if f and f not in names:
            raise QgsProcessingException(f"{name}: missing field {f}")
    if _field_type(source, id_field) not in _ID_TYPES:
        raise QgsProcessingException(f"{name}: id field {id_field} must be text or integer")
    if selection_field and _field_type(source, selection_field) not in _BOOL_TYPES:
        raise QgsProcessingException(f"{name}: selection field {selection_field} must be boolean (or 0/1 integer)")


def plan_ids(frame: pd.DataFrame, id_field: str) -> list[str]:
    """The ids of every row, in layer order, as text (integer-valued numbers without '.0';
    a NULL id becomes '' and is reported as unknown)."""
    return ["" if v is None or v != v else str(int(v)) if isinstance(v, (float, np.floating)) and float(v).is_integer()
            else str(v) for v in frame[id_field]]


def flags(inst: Instance, ids: list[str]) -> list[str]:
    """Per submitted id: '' (fine), 'unknown', 'duplicate' or 'conflict' (shares an exclusive group)."""
    known = [i for i in ids if i in inst.index]
    groups = pd.Series([int(inst.group[inst.index[i]]) for i in dict.fromkeys(known)])
    clash = set(groups[(groups >= 0) & groups.duplicated(keep=False)])
    out, seen = [], set()
    for i in ids:
        if i not in inst.index:
            out.append("unknown")
        elif i in seen:
            out.append("duplicate")
        else:
            out.append("conflict" if int(inst.group[inst.index[i]]) in clash else "")
        seen.add(i)
    return out


@contextmanager
def staged_workspace(inst: Instance, target: str | os.PathLike, city=None) -> Iterator[Path]:
    """Write the workspace into a temporary folder next to ``target`` and yield it; when the
    block ends without an error it is renamed into place, otherwise removed, so that a
    cancel or an error leaves ``target`` as it was. ``target`` may be missing, empty or an
    older workspace (which is replaced). ``city``: saved with it for the audit."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists() and any(target.iterdir()) and not (target / "input" / "export.json").is_file():
        raise QgsProcessingException(f"{target} is not empty and not a workspace; choose an empty or new folder")
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    old = tmp.with_name(tmp.name + ".old")
    try:
        write_workspace(inst, tmp, city=city)
        yield tmp
        if target.exists():
            target.rename(old)
        tmp.rename(target)
    finally:
        for p in (tmp, old):
            if p.exists():
                _remove_tree(p)


def _remove_tree(path: Path) -> None:
    """rmtree a workspace whose input/ is read-only (its folders must be writable first)."""
    for d, _, _ in os.walk(path):
        os.chmod(d, 0o755)
    shutil.rmtree(path)
