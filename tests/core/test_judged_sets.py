"""Every judged set except the held-out TEST halves runs rules-only (no model) and must keep
its recorded score (tests/core/data/judged_scores.json): the ask sets (tuning, dev, v1,
dev2–dev4, v3 … v7 — the ask third to seventh halves, retired to dev after their one
held-out run; their files keep the names ask_v3_test.json … ask_v7_test.json)
under the judge, the instruction dev half and the instruction third to seventh halves (each
retired to dev after its one held-out run) under the instruction bench's exact-match and execution
checks. A reader change that
loses an item fails here, with the items named. The TEST halves still held out (ask_test.json,
instructions_test.json, *_v8_test.json) are never opened."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

RECORD = json.loads((Path(__file__).parent / "data" / "judged_scores.json").read_text(encoding="utf-8"))


def _never_a_test_half(split: str, retired: bool = False) -> None:
    """A TEST half is never run here; a half retired to dev after its one held-out run is named so
    in its record (``split``: the instruction third to seventh halves, ``v3_test`` … ``v7_test``)."""
    assert retired or "test" not in split, split
    assert split not in ("test", "v8", "v8_test"), split   # the halves still held out


@pytest.mark.slow
@pytest.mark.parametrize("split", sorted(RECORD["ask"]))
def test_ask_set_keeps_its_recorded_score(split, tmp_path):
    from cityplanner.plugin.agent.ask.bench import load_heldout, run_heldout
    from cityplanner.plugin.agent.tools import default_registry

    _never_a_test_half(split)
    rows = run_heldout(default_registry(tmp_path / "ws"), None, load_heldout(split), tmp_path / "out")
    failed = [r["id"] for r in rows if not r["success"]]
    assert len(rows) == RECORD["ask"][split]["n"]
    assert len(rows) - len(failed) >= RECORD["ask"][split]["success"], f"{split}: now failing {failed}"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(k for k in RECORD["instructions"] if not k.startswith("_")))
def test_instruction_set_keeps_its_recorded_score(name, tmp_path):
    from cityplanner.plugin.bench.instructions import run_instructions_bench

    rec = RECORD["instructions"][name]
    split = rec.get("split", name)
    _never_a_test_half(split, retired="split" in rec)
    got = run_instructions_bench(tmp_path, split=split, readers=("rules",))
    (row,) = got["summary"]
    rows = json.loads((tmp_path / "instructions.json").read_text(encoding="utf-8"))["rows"]
    lost = [r["id"] for r in rows if not r["execution"]]
    inexact = [r["id"] for r in rows if not r["exact"]]
    assert row["items"] == rec["n"]
    assert row["exact_pct"] >= rec["exact_pct"], f"{name}: not exact {inexact}"
    assert row["execution_pct"] >= rec["execution_pct"], f"{name}: not executed {lost}"
