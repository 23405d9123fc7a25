"""Issue 30, item 1 (the part outside the instance builders): centroid-distance matrices are
built in blocks. Before: ``within`` made a (len a, len b, 2) float64 array — 600 MB of peak for
5,000 × 5,000 points, 6.3 GB then a MemoryError for participation on 20,000 parcels."""
from __future__ import annotations

import tracemalloc

import numpy as np
from scipy.spatial.distance import cdist

from cityplanner.plugin.tasks.land.coverage import BLOCK_CELLS, within, within_any, within_count


def _points(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.round(rng.uniform(0, 3000, (n, 2)))   # whole metres: many pairs exactly 500 m apart


def test_within_matches_scipy_distances_including_the_boundary():
    a, b = _points(700, 1), _points(900, 2)
    b[:3] = a[0] + np.array([[500.0, 0.0], [0.0, -500.0], [300.0, 400.0]])   # exactly on the circle
    expect = cdist(a, b) <= 500.0
    got = within(a, b, 500.0)
    assert got[0, :3].all()
    assert np.array_equal(got, expect)
    assert np.array_equal(within_any(a, b, 500.0), expect.any(axis=1))
    assert np.array_equal(within_count(a, b, 500.0), expect.sum(axis=1))


def test_far_and_empty_inputs():
    a = np.array([[1e300, 0.0], [np.nan, 0.0], [0.0, 0.0]])
    b = np.array([[0.0, 1.0]])
    assert within(a, b, 10.0).tolist() == [[False], [False], [True]]
    assert within(np.empty((0, 2)), b, 10.0).shape == (0, 1) and within_any(a, np.empty((0, 2)), 1.0).tolist() == [
        False] * 3


def test_peak_memory_is_the_answer_plus_one_block():
    a, b = _points(4000, 3), _points(4000, 4)
    tracemalloc.start()
    m = within(a, b, 500.0)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    block = BLOCK_CELLS * 8 * 2            # one block of float64 distances and its square
    assert peak < m.nbytes + block + 8_000_000, peak          # before: 4000²·2·8 B = 256 MB and more
    tracemalloc.start()
    within_any(a, b, 500.0)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < block + 8_000_000, peak                      # no matrix at all
