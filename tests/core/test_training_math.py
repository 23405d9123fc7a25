"""GRPO math, config validation and the GGUF reader/writer on hand-made data (no model)."""
import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")  # training code: marked torch, so not in make test-fast
pytestmark = pytest.mark.torch

from cityplanner.plugin.errors import InputError  # noqa: E402
from cityplanner.plugin.training.config import load_config, validate  # noqa: E402
from cityplanner.plugin.training.gguf_io import GGUFFile, _dequantize, write_gguf  # noqa: E402
from cityplanner.plugin.training.grpo import group_advantages, grpo_loss, sft_loss  # noqa: E402


def test_group_advantages_are_normalised():
    adv = group_advantages(torch.tensor([1.0, 0.0, -1.0, 0.0]))
    # mean 0, population std sqrt(0.5): (1 - 0) / 0.7071
    assert torch.allclose(adv, torch.tensor([math.sqrt(2), 0.0, -math.sqrt(2), 0.0]), atol=1e-6)
    assert abs(float(adv.mean())) < 1e-7 and abs(float(adv.std(unbiased=False)) - 1.0) < 1e-6


def test_equal_rewards_give_zero_advantages():
    assert torch.equal(group_advantages(torch.tensor([-1.0, -1.0, -1.0])), torch.zeros(3))


def test_clipped_objective_on_toy_tensors():
    # two sequences of one token each; ratios 1.5 (A = +1) and 1.5 (A = -1), clip 0.2, beta 0
    old = torch.zeros(2, 1)
    logp = torch.full((2, 1), math.log(1.5))
    mask = torch.ones(2, 1)
    loss, stats = grpo_loss(logp, old, logp, torch.tensor([1.0, -1.0]), mask, clip=0.2, beta=0.0)
    # A>0: min(1.5, 1.2) = 1.2; A<0: min(-1.5, -1.2) = -1.5; loss = -(1.2 - 1.5) / 2
    assert float(loss) == pytest.approx(0.15)
    assert stats["clip_frac"] == pytest.approx(1.0)


def test_kl_term_and_padding_mask():
    logp = torch.tensor([[math.log(0.5), 0.0]])
    ref = torch.tensor([[math.log(0.25), 123.0]])   # second token is padding
    mask = torch.tensor([[1.0, 0.0]])
    loss, stats = grpo_loss(logp, logp.detach(), ref, torch.tensor([0.0]), mask, clip=0.2, beta=0.5)
    d = math.log(0.25) - math.log(0.5)
    k3 = math.exp(d) - d - 1
    assert stats["kl"] == pytest.approx(k3)
    assert float(loss) == pytest.approx(0.5 * k3)


def test_sft_loss_is_token_mean_nll():
    logp = torch.tensor([[-1.0, -3.0, 0.0]])
    assert float(sft_loss(logp, torch.tensor([[1.0, 1.0, 0.0]]))) == pytest.approx(2.0)


def test_shipped_configs_load_and_bad_keys_are_refused():
    assert load_config("cpu-smoke").model.device == "cpu"
    long = load_config("cpu-long")
    assert long.data.compact_prompt and 0 < long.sft.tool_share < 1 and "build" in long.eval.goals
    gpu = load_config("gpu")
    assert gpu.model.device == "cuda" and gpu.model.dtype == "bfloat16" and gpu.grpo.group >= 8
    with pytest.raises(InputError, match="unknown key"):
        validate({"grpo": {"groups": 4}})
    with pytest.raises(InputError, match="must be int"):
        validate({"grpo": {"group": "4"}})
    with pytest.raises(InputError, match="among"):
        validate({"data": {"goals": ["build", "refine"]}})
    with pytest.raises(InputError, match="not found"):
        load_config("no-such-config")


def test_gguf_roundtrip(tmp_path):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    b = np.full((5,), -2.5, dtype=np.float32)
    write_gguf(tmp_path / "t.gguf", {"general.type": "adapter", "adapter.lora.alpha": 8.0, "n": 3},
               {"a": a, "b": b})
    g = GGUFFile(tmp_path / "t.gguf")
    assert g.kv["general.type"] == "adapter" and g.kv["adapter.lora.alpha"] == 8.0 and g.kv["n"] == 3
    assert np.array_equal(g.tensor("a"), a) and np.array_equal(g.tensor("b"), b)
    (tmp_path / "bad.gguf").write_bytes(b"nope")
    with pytest.raises(InputError):
        GGUFFile(tmp_path / "bad.gguf")


def test_q4_1_dequantisation_by_hand():
    # one block: d = 0.5, m = -1, nibbles: low = j % 16, high = 15 - j % 16
    qs = np.array([(j & 0xF) | ((15 - j) << 4) for j in range(16)], dtype=np.uint8)
    block = np.concatenate([np.frombuffer(np.float16(0.5).tobytes() + np.float16(-1.0).tobytes(), np.uint8), qs])
    out = _dequantize("Q4_1", block, 32)
    expected = np.array([0.5 * j - 1 for j in range(16)] + [0.5 * (15 - j) - 1 for j in range(16)], np.float32)
    assert np.allclose(out, expected)


def test_share_keys_are_bounded():
    assert validate({"sft": {"tool_share": 1}}).sft.tool_share == 1.0
    with pytest.raises(InputError, match="share"):
        validate({"sft": {"tool_share": 1.5}})


def test_sft_batch_mixes_tool_and_explicit_demonstrations():
    from cityplanner.plugin.training.trainer import sft_batch

    demos = {"tool": [("t0", "T0"), ("t1", "T1")], "explicit": [("e0", "E0")]}
    drawn = [kind for step in range(200) for _, kind, _ in sft_batch(demos, step, 2, 0.7, 0)]
    assert 0.6 < drawn.count("tool") / len(drawn) < 0.8
    assert sft_batch(demos, 5, 2, 0.7, 0) == sft_batch(demos, 5, 2, 0.7, 0)   # resumable: same draw
    assert {k for _, k, _ in sft_batch({"tool": [], "explicit": [("e", "E")]}, 0, 4, 1.0, 0)} == {"explicit"}
    assert all(k == "tool" for step in range(20) for _, k, _ in sft_batch(demos, step, 2, 1.0, 0))


def test_table_and_adapter_effect_on_toy_episodes():
    from cityplanner.plugin.training.evaluate import adapter_effect, aggregate, table_markdown, token_edit_distance

    assert token_edit_distance([1, 2, 3], [1, 3]) == 1 and token_edit_distance([], [4, 5]) == 2
    eps = [{"task": "land", "goal": "build", "valid": True, "score": 0.5},
           {"task": "land", "goal": "build", "valid": False, "score": None},
           {"task": "land", "goal": "improve", "valid": False, "score": None}]
    table = {"base": aggregate(eps)}
    assert table["base"]["land.build"] == {"n": 2, "feasible": 0.5, "score": 0.5}
    md = table_markdown(table)
    assert "### BuildPlan" in md and "### ImprovePlan" in md and "| base model | 50% (n=2) | 0.500 |" in md
    rows = {"base": [{"instance": "i", "goal": "build", "text": "abc"}],
            "grpo": [{"instance": "i", "goal": "build", "text": "abd"}]}
    effect = adapter_effect(rows, lambda s: [ord(c) for c in s], "grpo")
    assert effect[0]["first_difference"] == 2 and effect[0]["edit_distance"] == 1
