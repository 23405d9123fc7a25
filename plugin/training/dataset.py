"""Atomic tasks from the instance suites: training only ever sees the ``train`` split.

The suites split by tile (``plugin.bench.suites.split_of``); ``suite_items`` filters on that
split and on the configured tasks and sizes, then takes a seeded sample of
``per_task`` instances per task, so a run is reproducible and the held-out tiles stay
held out.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..bench.suites import SuiteItem, build_item, suite
from ..errors import InputError
from .render import AtomicTask, make_task

SPLITS = ("train", "test")


def suite_items(suite_name: str, split: str, tasks: list[str], sizes: list[str], per_task: int,
                seed: int) -> list[SuiteItem]:
    """Up to ``per_task`` items per task of one split of a suite, for the given sizes, drawn with ``seed``."""
    if split not in SPLITS:
        raise InputError(f"unknown split '{split}'")
    rng = np.random.default_rng(seed)
    chosen: list[SuiteItem] = []
    for task in tasks:
        pool = [it for it in suite(suite_name) if it.split == split and it.task == task and it.size in sizes]
        if not pool and per_task:
            raise InputError(f"suite '{suite_name}' has no {split} instances of task '{task}' in sizes {sizes}")
        chosen += [pool[i] for i in sorted(rng.permutation(len(pool))[:per_task])]
    return chosen


def atomic_tasks(items: list[SuiteItem], goals: list[str], root: str | os.PathLike, show: int,
                 seed: int, compact: bool = False) -> list[AtomicTask]:
    """One workspace and chat per (item, goal) under ``root``; demonstrations come later."""
    rng = np.random.default_rng(seed)
    out = []
    for k, item in enumerate(items):
        inst = build_item(item)
        out += [make_task(inst, goal, Path(root) / f"{k:03d}-{goal}", show, rng, compact) for goal in goals]
    return out
