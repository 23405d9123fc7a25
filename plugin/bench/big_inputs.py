"""Large input layers made up deterministically, and the peak memory of building an instance
from them in a child process (issue 30: memory bounded by design; ``bench --suite scale``).

Kinds (each a GeoPackage in UTM 35N written by ``write_input``; ``n`` features in the layer
that is large):

* ``parcels``: ``n`` square parcels (``PARCEL_M`` wide) on a square grid, field ``landuse``:
  every 5th ``feasible``, every 37th ``school``, every 41st ``park``, the rest ``residential``;
  built with ``instance --task land --parcels``.
* ``roads``: a street grid (``STREET_M`` blocks) cut into ``n`` street segments, one feature each,
  field ``highway`` = ``residential``, every 9th vertical block side with a 16 m gap (new links
  worth building); built with ``instance --task road --roads`` (plan mode).
* ``links``: the bundled ``helsinki`` region and ``n`` proposed straight links between two of its
  network nodes 40–250 m apart (seeded); built with ``instance --task road --region helsinki --links``.
* ``residents``: the ``parcels`` layer of ``n`` parcels discussed by ``n`` simulated residents
  (``participate``, 1 round of 50 speakers);
* ``long_road``: one road of ``n`` vertices (a zig-zag) beside a 3 × 3 street grid.

``measure`` runs the real CLI (``python -m plugin instance …``) in a child and reads that
child's own peak resident set from ``os.wait4`` (no sibling's peak mixes in), with a wall limit.
"""
from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Any

import numpy as np

from .. import PLUGIN_ROOT
from ..util.spawned import python_executable

CRS = "EPSG:32635"
X0, Y0 = 385_000.0, 6_672_000.0
PARCEL_M = 40.0
STREET_M = 100.0
KINDS = ("parcels", "roads", "links", "residents", "long_road")


def _write(path: Path, frames: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    for layer, gdf in frames.items():
        gdf.to_file(path, layer=layer, driver="GPKG", engine="pyogrio")
    return path


def parcels_frame(n: int):
    """``n`` grid parcels with a ``landuse`` field (module docstring)."""
    import geopandas as gpd
    import shapely

    side = int(np.ceil(np.sqrt(n)))
    k = np.arange(n)
    x, y = X0 + PARCEL_M * (k % side), Y0 + PARCEL_M * (k // side)
    landuse = np.where(k % 5 == 1, "feasible", np.where(k % 37 == 3, "school",
                                                        np.where(k % 41 == 7, "park", "residential")))
    return gpd.GeoDataFrame({"id": k, "landuse": landuse},
                            geometry=shapely.box(x + 1, y + 1, x + PARCEL_M - 1, y + PARCEL_M - 1), crs=CRS)


def street_grid(n: int):
    """A street grid cut into ``n`` one-block segments, ``highway`` residential; every 9th
    vertical block side has a 16 m gap (two dead ends a new link may join: a whole grid offers
    no link worth building)."""
    import geopandas as gpd

    k = max(1, int(np.ceil((-1 + np.sqrt(1 + 2 * n)) / 2)))
    while len(lines := _grid_lines(k)) < n:
        k += 1
    return gpd.GeoDataFrame({"highway": ["residential"] * n}, geometry=lines[:n], crs=CRS)


def _grid_lines(k: int) -> np.ndarray:
    import shapely

    i, j = np.meshgrid(np.arange(k + 1), np.arange(k), indexing="ij")
    i, j = i.ravel(), j.ravel()
    xa, ya = X0 + STREET_M * i, Y0 + STREET_M * j
    gap = np.arange(len(xa)) % 9 == 4
    half = (STREET_M - 16.0) / 2
    vertical = shapely.linestrings(np.stack([np.c_[xa, ya], np.c_[xa, ya + STREET_M]], axis=1))[~gap]
    stubs = np.r_[shapely.linestrings(np.stack([np.c_[xa, ya], np.c_[xa, ya + half]], axis=1)[gap]),
                  shapely.linestrings(np.stack([np.c_[xa, ya + STREET_M - half], np.c_[xa, ya + STREET_M]], axis=1)[gap])]
    horizontal = shapely.linestrings(np.stack([np.c_[ya - Y0 + X0, xa - X0 + Y0],
                                               np.c_[ya - Y0 + X0 + STREET_M, xa - X0 + Y0]], axis=1))
    return np.r_[vertical, stubs, horizontal]


def links_frame(n: int, seed: int = 0):
    """``n`` straight links between two nodes of the bundled helsinki network, 40–250 m apart."""
    import geopandas as gpd
    import shapely
    from scipy.spatial import cKDTree

    from ..city.regions import load_city

    city = load_city("helsinki")
    xy = city.nodes[["x", "y"]].to_numpy(dtype=float)
    pairs = np.array(sorted(cKDTree(xy).query_pairs(250.0)))
    pairs = pairs[np.hypot(*(xy[pairs[:, 0]] - xy[pairs[:, 1]]).T) >= 40.0]
    pick = np.random.default_rng(seed).choice(len(pairs), size=n, replace=len(pairs) < n)
    ends = xy[pairs[pick]]
    return gpd.GeoDataFrame({"cost": np.full(n, np.nan)}, geometry=shapely.linestrings(ends), crs=city.crs)


def long_road_frames(n: int):
    """One road of ``n`` vertices (a zig-zag 1 m wide, along a street) beside a 3 × 3 grid."""
    import geopandas as gpd
    import pandas as pd
    import shapely

    grid = street_grid(24)
    t = np.arange(n, dtype=float)
    xy = np.c_[X0 - 50.0 + 0.5 * np.sin(t), Y0 + 300.0 * t / max(n - 1, 1)]
    road = gpd.GeoDataFrame({"highway": ["residential"]}, geometry=[shapely.LineString(xy)], crs=CRS)
    return gpd.GeoDataFrame(pd.concat([grid, road], ignore_index=True), crs=CRS)


def write_input(kind: str, n: int, folder: Path) -> Path:
    """The GeoPackage of ``kind`` with ``n`` features (module docstring), written under ``folder``."""
    path = Path(folder) / f"{kind}-{n}.gpkg"
    if kind in ("parcels", "residents"):
        return _write(path, {"parcels": parcels_frame(n)})
    if kind == "roads":
        return _write(path, {"roads": street_grid(n)})
    if kind == "links":
        return _write(path, {"links": links_frame(n)})
    if kind == "long_road":
        return _write(path, {"roads": long_road_frames(n)})
    raise ValueError(f"unknown input kind {kind!r} (choose {', '.join(KINDS)})")


def n_of(path: Path) -> int:
    """The feature count in a ``write_input`` file name (``KIND-N.gpkg``)."""
    return int(Path(path).stem.rsplit("-", 1)[1])


def instance_args(kind: str, path: Path, out: Path) -> list[str]:
    """The command line that builds ``kind`` from ``path`` into ``out`` (``instance``; residents:
    ``participate``)."""
    common = ["--out", str(out), "--seed", "0", "--replace"]
    if kind == "parcels":
        return ["instance", "--task", "land", "--parcels", f"{path}:parcels", "--landuse-field", "landuse",
                "--landuse-map", "park=green_s", "--need", "school=5,green_s=5,business=5,office=5", *common]
    if kind == "residents":
        return ["participate", "--parcels", f"{path}:parcels", "--landuse-field", "landuse", "--landuse-map",
                "park=green_s", "--need", "school=5,green_s=5,business=5", "--residents", str(n_of(path)),
                "--rounds", "1", "--speakers", "50", "--persona", "rules", "--seed", "0", "--out", str(out)]
    if kind in ("roads", "long_road"):
        return ["instance", "--task", "road", "--roads", f"{path}:roads", *common]
    if kind == "links":
        return ["instance", "--task", "road", "--region", "helsinki", "--links", f"{path}:links", *common]
    raise ValueError(f"unknown input kind {kind!r} (choose {', '.join(KINDS)})")


def measure(args: list[str], timeout: float = 600.0, max_bytes: int | None = None) -> dict[str, Any]:
    """Run ``python -m plugin ARGS`` in a child (nice'd): exit code, wall seconds, the child's own
    peak resident set in MB (``os.wait4``: no other child's peak mixes in), the last stderr line.
    Killed at ``timeout`` (``timed_out``); ``max_bytes`` caps its address space (a build that
    would take the machine's memory fails with MemoryError instead)."""
    import resource
    import tempfile

    def start() -> None:
        os.nice(10)
        if max_bytes:
            resource.setrlimit(resource.RLIMIT_AS, (max_bytes, max_bytes))

    t0 = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([python_executable(), "-m", "plugin", *args], cwd=PLUGIN_ROOT,
                                stdout=subprocess.DEVNULL, stderr=err, preexec_fn=start)
        timed_out, status, usage = False, 0, None
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - t0 > timeout:
                proc.kill()
                _, status, usage = os.wait4(proc.pid, 0)
                timed_out = True
                break
            time.sleep(0.05)
        proc.returncode = os.waitstatus_to_exitcode(status)   # reaped here: Popen must not wait again
        err.seek(0)
        lines = err.read().decode("utf-8", "replace").strip().splitlines()
    return {"rc": proc.returncode, "seconds": round(time.perf_counter() - t0, 1), "timed_out": timed_out,
            "peak_mb": round(usage.ru_maxrss / 1024.0, 1), "stderr": lines[-1] if lines else "",
            "stderr_lines": len(lines)}
