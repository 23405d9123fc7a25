"""Demand complete (plan mode): residents outside the street-enclosed blocks are counted to the
nearest block instead of being dropped; what is still dropped is said with its count and share.

``City.faces["demand"]`` counts only the residents whose building (or demand point) lies inside
a block. On a planner's own street layer many buildings sit outside every block: along the
network's open edge, beyond a dead end. Plan mode moves each such resident point to the nearest
block within ``ASSIGN_M`` (the walk to the nearest street corner and on), and keeps a note.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import shapely

#: a resident point farther than this from every block is outside the planned area (m)
ASSIGN_M = 250.0


def with_complete_demand(city) -> tuple[object, list[str]]:
    """(a City whose faces' ``demand`` includes the residents outside blocks, notes)."""
    pts = city.resident_points()
    faces = city.faces
    if not len(pts) or not len(faces):
        return city, []
    outside = pts[pts["face"].to_numpy() < 0]
    if not len(outside):
        return city, []
    total = float(pts["residents"].sum())
    geoms = shapely.points(outside[["x", "y"]].to_numpy(dtype=float))
    (pi, fi), dist = shapely.STRtree(faces.geometry.to_numpy()).query_nearest(
        geoms, max_distance=ASSIGN_M, return_distance=True, all_matches=False)
    demand = faces["demand"].to_numpy(dtype=float).copy()
    res = outside["residents"].to_numpy(dtype=float)
    np.add.at(demand, fi, res[pi])
    moved = float(res[pi].sum())
    dropped = np.setdiff1d(np.arange(len(outside)), pi)
    notes = [f"{len(pi)} of {len(pts)} demand points ({moved / total:.1%} of the residents) lie outside the "
             f"street-enclosed blocks: counted to the nearest block (within {ASSIGN_M:g} m)"]
    if len(dropped):
        lost = float(res[dropped].sum())
        notes.append(f"{len(dropped)} of {len(pts)} demand points ({lost / total:.1%} of the residents) are farther "
                     f"than {ASSIGN_M:g} m from every block: not counted")
    return dataclasses.replace(city, faces=faces.assign(demand=demand.round(3))), notes
