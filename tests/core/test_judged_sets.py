"""Every judged set except the held-out TEST halves runs rules-only (no model) and must keep
its recorded score (tests/core/data/judged_scores.json): the ask sets (tuning, dev, v1,
dev2–dev4, and v3 — the third test half, retired to dev after its one held-out run; its file
keeps the name ask_v3_test.json) under the judge, the instruction dev half under the instruction
bench's exact-match and execution checks. A reader change that loses an item fails here, with the
items named. The TEST halves still held out (ask_test.json, instructions_test.json,
instructions_v3_test.json, *_v4_test.json) are never opened: a split is named by its dev name."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

RECORD = json.loads((Path(__file__).parent / "data" / "judged_scores.json").read_text(encoding="utf-8"))


def _never_a_test_half(split: str) -> None:
    assert split != "test" and not split.endswith("_test") and "test" not in split, split


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
def test_instruction_dev_half_keeps_its_recorded_score(tmp_path):
    from cityplanner.plugin.bench.instructions import run_instructions_bench

    rec = RECORD["instructions"]["dev"]
    got = run_instructions_bench(tmp_path, split="dev", readers=("rules",))
    (row,) = got["summary"]
    rows = json.loads((tmp_path / "instructions.json").read_text(encoding="utf-8"))["rows"]
    lost = [r["id"] for r in rows if not r["execution"]]
    assert row["items"] == rec["n"]
    assert row["exact_pct"] >= rec["exact_pct"] and row["execution_pct"] >= rec["execution_pct"], f"not executed: {lost}"
