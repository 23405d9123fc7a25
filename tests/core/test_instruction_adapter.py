"""The shipped instruction adapter: which adapter ``--lora`` resolves to, the bench's ``--readers`` and
``--limit``, and (model) the shipped adapter read by llama.cpp answering one instruction."""
from __future__ import annotations

import json

import pytest

from cityplanner.plugin.agent import model_files
from cityplanner.plugin.agent.model_files import SHIPPED_ADAPTER, adapter_manifest, resolve_lora
from cityplanner.plugin.cli import main
from cityplanner.plugin.errors import InputError


def test_lora_none_auto_shipped_and_paths(tmp_path, monkeypatch):
    assert resolve_lora("none") is None
    with pytest.raises(InputError, match="not found"):
        resolve_lora(str(tmp_path / "missing.gguf"))
    own = tmp_path / "own.gguf"
    own.write_bytes(b"GGUF")
    assert resolve_lora(str(own)) == str(own)
    # auto follows the manifest's held-out verdict; shipped takes the file whatever it says
    monkeypatch.setattr(model_files, "SHIPPED_ADAPTER", own)
    for verdict, expected in ((True, str(own)), (False, None)):
        own.with_suffix(".json").write_text(json.dumps({"fallback": verdict}))
        assert resolve_lora("auto") == expected and resolve_lora(None) == expected
        assert resolve_lora("shipped") == str(own)
    own.with_suffix(".json").unlink()
    assert resolve_lora("auto") is None                          # no manifest: never on by default
    monkeypatch.setattr(model_files, "SHIPPED_ADAPTER", tmp_path / "gone.gguf")
    with pytest.raises(InputError, match="no adapter is shipped"):
        resolve_lora("shipped")


def test_shipped_adapter_is_small_and_documented():
    assert SHIPPED_ADAPTER.is_file() and SHIPPED_ADAPTER.read_bytes()[:4] == b"GGUF"
    assert SHIPPED_ADAPTER.stat().st_size < 8 * 2**20
    doc = adapter_manifest()
    assert {"config", "data_sha256", "training", "command", "fallback", "bench"} <= set(doc)
    assert "--config cpu-instructions" in doc["command"] and doc["training"]["sft_steps"] > 0

    # the data hash is the recipe's: regenerate the training pairs and hash them
    from cityplanner.plugin.training.instructions import InstructionTraining, data_hash, training_pairs

    cfg = InstructionTraining(**{k: tuple(v) if isinstance(v, list) else v for k, v in doc["config"].items()})
    assert data_hash(training_pairs(cfg)[1]) == doc["data_sha256"]
    # on by default only when it helped on held-out data: far better than the raw model on the first
    # 16 items, and rules + trained never below rules, on the first 16 nor on every item measured
    rows = {r["reader"]: r["execution_pct"] for r in doc["bench"]["summary"]}
    every = {r["reader"]: r["execution_pct"] for r in doc["bench"].get("all_items", doc["bench"]["summary"])}
    helped = (rows["trained adapter"] >= rows["raw model"] + 30 and rows["rules + trained"] >= rows["rules"]
              and every["rules + trained"] >= every["rules"])
    assert doc["fallback"] == helped


@pytest.mark.parametrize("argv,msg", [
    (["--readers", "raw model,oracle"], "unknown reader(s) 'oracle'"),
    (["--readers", " , "], "unknown reader(s) (none given)"),
    (["--readers", "rules", "--limit", "0"], "--limit must be at least 1"),
])
def test_bench_refuses_bad_readers_and_limits(tmp_path, capsys, argv, msg):
    assert main(["bench", "--suite", "instructions", *argv, "--out", str(tmp_path / "o")]) == 2
    assert msg in capsys.readouterr().err and not (tmp_path / "o").exists()


def test_bench_runs_only_the_readers_asked_on_the_first_items(tmp_path, capsys):
    assert main(["bench", "--suite", "instructions", "--split", "dev", "--readers", "rules", "--limit", "2",
                 "--out", str(tmp_path / "o")]) == 0
    doc = json.loads((tmp_path / "o" / "instructions.json").read_text())
    dev = json.loads(SHIPPED_ADAPTER.parents[1].joinpath("heldout", "instructions_dev.json").read_text())["items"]
    assert [r["id"] for r in doc["rows"]] == [it["id"] for it in dev[:2]]
    assert [s["reader"] for s in doc["summary"]] == ["rules"] and doc["summary"][0]["items"] == 2
    assert 0.0 <= doc["summary"][0]["execution_pct"] <= 100.0


@pytest.mark.model
def test_the_shipped_adapter_loads_and_reads_one_instruction():
    """llama.cpp loads the shipped LoRA on the shipped model and answers one instruction with complete
    JSON of the model schema carrying the instruction's number (the raw model, at the same token
    limit, never completed its JSON in the bench). The kind is not asserted: the shipped adapter
    (42 SFT steps) still confuses kinds, which is why it is off by default (see its manifest)."""
    from cityplanner.plugin.agent.backend import make_backend
    from cityplanner.plugin.constraints.llm import MODEL_KINDS, model_read

    backend = make_backend(None, None, lora=resolve_lora("shipped"), threads=1)
    try:
        items, clarify = model_read(backend, "keep 400 m between stations", "station")
    finally:
        backend.close()
    assert clarify is None and len(items) == 1
    assert items[0]["kind"] in MODEL_KINDS and items[0]["distance_m"] == 400
