"""Every judged set except the held-out TEST halves runs rules-only (no model) and must keep
its recorded score (tests/core/data/judged_scores.json): the ask sets (tuning, dev, v1,
dev2–dev4, v3 … v16 — the ask third to sixteenth halves, retired to dev after their one
held-out run; their files keep the names ask_v3_test.json … ask_v16_test.json)
under the judge, the instruction dev half and the instruction third to seventh halves (each
retired to dev after its one held-out run) under the instruction bench's exact-match and execution
checks. A reader change that
loses an item fails here, with the items named. The TEST halves still held out (ask_test.json,
instructions_test.json, the next half: ``bench.halves.STILL_HELD_OUT``) are never opened.

The sets selected in a run are started together in worker processes (``judged_pool``: a whole set per
worker, as one process ran it) when the first of these tests needs one; each test then judges its
own set's rows."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cityplanner.plugin.bench.halves import STILL_HELD_OUT

from . import judged_pool

RECORD = json.loads((Path(__file__).parent / "data" / "judged_scores.json").read_text(encoding="utf-8"))


def _never_a_test_half(split: str, retired: bool = False) -> None:
    """A TEST half is never run here; a half retired to dev after its one held-out run is named so
    in its record (``split``: the instruction third to sixteenth halves, ``v3_test`` … ``v16_test``)."""
    assert retired or "test" not in split, split
    assert split not in STILL_HELD_OUT, split   # the halves still held out


ASK_TEST, INSTRUCTION_TEST = "test_ask_set_keeps_its_recorded_score", "test_instruction_set_keeps_its_recorded_score"


@pytest.fixture(scope="module")
def judged(request, tmp_path_factory):
    """The rows of every judged set this run selected, computed in worker processes (largest set
    first), keyed ``ask:<split>`` / ``instructions:<name>``; a set's failure fails its test only."""
    jobs = []
    for item in request.session.items:
        name = getattr(item, "originalname", "")
        if name == ASK_TEST:
            split = item.callspec.params["split"]
            _never_a_test_half(split)
            jobs.append((RECORD["ask"][split]["n"], f"ask:{split}", judged_pool.ask_rows,
                         (split, str(tmp_path_factory.mktemp(f"ask-{split}")))))
        elif name == INSTRUCTION_TEST:
            key = item.callspec.params["name"]
            rec = RECORD["instructions"][key]
            split = rec.get("split", key)
            _never_a_test_half(split, retired="split" in rec)
            jobs.append((rec["n"], f"instructions:{key}", judged_pool.instruction_rows,
                         (split, str(tmp_path_factory.mktemp(f"instructions-{key}")))))
    pool, futures = judged_pool.start([job[1:] for job in sorted(jobs, key=lambda j: -j[0])])
    try:
        yield futures
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


@pytest.mark.slow
@pytest.mark.parametrize("split", sorted(RECORD["ask"]))
def test_ask_set_keeps_its_recorded_score(split, judged):
    _never_a_test_half(split)
    rows = judged[f"ask:{split}"].result()
    failed = [r["id"] for r in rows if not r["success"]]
    assert len(rows) == RECORD["ask"][split]["n"]
    assert len(rows) - len(failed) >= RECORD["ask"][split]["success"], f"{split}: now failing {failed}"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(k for k in RECORD["instructions"] if not k.startswith("_")))
def test_instruction_set_keeps_its_recorded_score(name, judged):
    rec = RECORD["instructions"][name]
    _never_a_test_half(rec.get("split", name), retired="split" in rec)
    got = judged[f"instructions:{name}"].result()
    (row,) = got["summary"]
    lost = [r["id"] for r in got["rows"] if not r["execution"]]
    inexact = [r["id"] for r in got["rows"] if not r["exact"]]
    assert row["items"] == rec["n"]
    assert row["exact_pct"] >= rec["exact_pct"], f"{name}: not exact {inexact}"
    assert row["execution_pct"] >= rec["execution_pct"], f"{name}: not executed {lost}"


def test_every_retired_half_has_a_line_and_the_next_none():
    """Retiring a half (``bench.halves.RETIRED_TO``) needs its recorded line in both records; the next half,
    still held out, has none (its files are never opened here)."""
    from cityplanner.plugin.bench.halves import ASK_RETIRED, INSTRUCTION_SPLITS, NEXT

    splits = {rec.get("split", key) for key, rec in RECORD["instructions"].items() if not key.startswith("_")}
    assert set(ASK_RETIRED) <= set(RECORD["ask"])
    assert set(INSTRUCTION_SPLITS[2:-1]) <= splits
    assert f"v{NEXT}" not in RECORD["ask"] and f"v{NEXT}_test" not in splits and INSTRUCTION_SPLITS[-1] == f"v{NEXT}_test"
