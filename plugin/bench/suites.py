"""Instance suites for benchmarks.

* ``quick``: one instance per task × size on the whole ``helsinki`` region, seed 0 (9 items).
* ``full``: per task × size at least ``FULL_MIN`` instances from 800 m windows every 400 m
  (``plugin.city.tiles``) over ``helsinki`` and ``kotka``, each with seeds 0..k−1, k the
  smallest count that reaches ``FULL_MIN``.
* ``tiny``: one small land instance on one helsinki window (smoke tests).

Train/test split (``full``): by tile, never by instance. A tile goes to ``test`` when
sha256("region:minx,miny,maxx,maxy" with bounds rounded to the metre) mod 100 < 20, else to
``train`` (≈ 80/20, as in the paper). All tasks, sizes and seeds of one tile share its
split, so no tile leaks across splits; the hash depends only on the region and the tile,
so the split is the same on every machine and run.
"""
from __future__ import annotations

import hashlib
import math
from typing import NamedTuple

from ..errors import InputError
from ..tasks import SIZES, TASKS, Instance, task_class

Bounds = tuple[float, float, float, float]
FULL_REGIONS = ("helsinki", "kotka")
TILE_M, STEP_M = 800.0, 400.0
FULL_MIN = 30
TEST_PERCENT = 20


class SuiteItem(NamedTuple):
    task: str
    size: str
    region: str
    window_bounds: Bounds | None
    seed: int
    split: str          # 'train' | 'test'
    name: str


def split_of(region: str, bounds: Bounds | None) -> str:
    key = f"{region}:{','.join(str(round(b)) for b in bounds) if bounds else 'all'}"
    h = int(hashlib.sha256(key.encode()).hexdigest(), 16)
    return "test" if h % 100 < TEST_PERCENT else "train"


def _item(task: str, size: str, region: str, bounds: Bounds | None, seed: int) -> SuiteItem:
    where = "all" if bounds is None else f"{round(bounds[0])}_{round(bounds[1])}"
    return SuiteItem(task, size, region, bounds, seed, split_of(region, bounds),
                     f"{region}-{where}-{task}-{size}-s{seed}")


def _quick() -> list[SuiteItem]:
    return [_item(t, s, "helsinki", None, 0) for t in TASKS for s in SIZES]


def _full() -> list[SuiteItem]:
    from ..city import load_city, tiles

    windows = [(r, b) for r in FULL_REGIONS for b in tiles(load_city(r), TILE_M, STEP_M)]
    seeds = math.ceil(FULL_MIN / len(windows))
    return [_item(t, s, r, b, seed) for t in TASKS for s in SIZES for r, b in windows for seed in range(seeds)]


def _tiny() -> list[SuiteItem]:
    from ..city import load_city, tiles

    return [_item("land", "small", "helsinki", tiles(load_city("helsinki"), TILE_M, STEP_M)[0], 0)]


SUITES = {"quick": _quick, "full": _full, "tiny": _tiny}


def suite(name: str) -> list[SuiteItem]:
    if name not in SUITES:
        raise InputError(f"unknown suite '{name}' (choose {', '.join(SUITES)})")
    return SUITES[name]()


def first_per_cell(items: list[SuiteItem], limit: int | None) -> list[SuiteItem]:
    """The first ``limit`` items of each task × size, in suite order (deterministic: a reduced
    run of a big suite); all items when ``limit`` is None."""
    if limit is None:
        return list(items)
    if limit < 1:
        raise InputError(f"--limit must be at least 1, got {limit}")
    seen: dict[tuple[str, str], int] = {}
    out = []
    for it in items:
        k = seen.get((it.task, it.size), 0)
        if k < limit:
            out.append(it)
        seen[(it.task, it.size)] = k + 1
    return out


def build_item(item: SuiteItem) -> Instance:
    """The instance of one suite item (cities are cached per region by ``load_city``)."""
    from ..city import load_city

    city = load_city(item.region)
    if item.window_bounds is not None:
        city = city.window(tuple(item.window_bounds))
    return task_class(item.task).build(city, size=item.size, seed=item.seed)
