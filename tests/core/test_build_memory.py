"""Issue 30 item 1: memory bounded by design in the instance builders. Each input kind of
``plugin.bench.big_inputs`` at 20,000 features is built by the real CLI in a child process whose
own peak resident set (``os.wait4``) must stay under 2 GB; layers above the documented limits
(docs/limits.md) are refused in one line within 10 s. Before: 20,000 parcels 5.5 GB, 20,000 own
links past 5.4 GB (then std::bad_alloc under a 6 GB cap), one 5-million-vertex road 4.9 GB,
200,000 tiny roads past 120 s and 2 GB."""
from __future__ import annotations

import json

import pytest

from cityplanner.plugin.bench.big_inputs import instance_args, measure, write_input
from cityplanner.plugin.bench.scale import MEMORY_BOUND_MB

CAP = 8 * 2**30   # address-space cap of the child: a regression fails here instead of taking the machine


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["parcels",   # the others take minutes each: make test-scale
                                  *(pytest.param(k, marks=pytest.mark.scale) for k in ("roads", "links", "residents"))])
def test_20000_feature_inputs_build_within_2_gb(kind, tmp_path):
    path = write_input(kind, 20_000, tmp_path)
    out = tmp_path / "out"
    r = measure(instance_args(kind, path, out), timeout=1200, max_bytes=CAP)
    assert r["rc"] == 0, r
    assert r["peak_mb"] < MEMORY_BOUND_MB, r
    if kind == "residents":
        assert (out / "metrics.json").is_file()
        return
    exported = json.loads((out / "input" / "export.json").read_text())
    ids = [c["id"] for c in exported["candidates"]]
    assert len(ids) == len(set(ids)) > 0
    if kind == "parcels":   # every 5th parcel is 'feasible' (k % 5 == 1): 4,000 parcels offered
        parcels = {i.rsplit("-", 1)[0] for i in ids}
        assert len(parcels) == 4_000
    if kind == "links":     # candidates are the proposed links (duplicates of a node pair included)
        assert len(ids) <= 20_000 and exported["meta"]["dropped_links"] + len(ids) <= 20_000


@pytest.mark.slow
@pytest.mark.parametrize("kind, n, words", [
    ("roads", 200_000, "200,000 features, more than the 100,000 a layer may hold"),
    ("parcels", 200_000, "200,000 features, more than the 100,000 a layer may hold"),
    ("links", 200_000, "200,000 features, more than the 100,000 a layer may hold"),
    ("long_road", 5_000_000, "vertices, more than the 2,000,000 a layer may hold"),
])
def test_layers_over_the_limits_are_refused_in_one_line_within_10_s(kind, n, words, tmp_path):
    path = write_input(kind, n, tmp_path)
    r = measure(instance_args(kind, path, tmp_path / "out"), timeout=60, max_bytes=CAP)
    assert r["rc"] == 2 and r["stderr_lines"] == 1 and words in r["stderr"], r
    assert r["seconds"] < 10, r
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_scale_bench_memory_rows(tmp_path, capsys):
    """``bench --suite scale --tasks memory --sizes 200000``: one row per input kind with the
    child's peak MB and seconds (here: the one-line refusal, timed); scale.md carries the table;
    rows of other sizes already in OUT are kept."""
    from cityplanner.plugin.bench.scale import MEMORY_KINDS
    from cityplanner.plugin.cli import main

    old = {"kind": "parcels", "features": 20_000, "rc": 0, "seconds": 1.0, "timed_out": False, "peak_mb": 300.0,
           "stderr": "", "stderr_lines": 0, "result": "built"}
    (tmp_path / "scale.json").write_text(json.dumps({"cells": [], "runs": [], "memory": [old]}))
    assert main(["bench", "--suite", "scale", "--tasks", "memory", "--sizes", "200000", "--out", str(tmp_path)]) == 0
    rows = json.loads((tmp_path / "scale.json").read_text())["memory"]
    assert rows[0] == old
    new = rows[1:]
    assert [r["kind"] for r in new] == list(MEMORY_KINDS) and {r["features"] for r in new} == {200_000}
    assert all(r["result"] == "refused" and r["seconds"] < 10 and 0 < r["peak_mb"] < 1000 for r in new), new
    md = (tmp_path / "scale.md").read_text()
    assert "| input | features | peak MB | seconds | result | message |" in md and "| links | 200,000 |" in md
