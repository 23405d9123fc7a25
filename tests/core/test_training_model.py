"""The torch policy on the real shipped GGUF: one SFT and one GRPO step change the LoRA, and the
exported GGUF adapter loads in llama-cpp-python (the agent's backend) and changes its output."""
from types import SimpleNamespace

import pytest
import torch

pytest.importorskip("llama_cpp")
pytestmark = [pytest.mark.model, pytest.mark.torch]

from cityplanner.plugin.agent.backend import make_backend  # noqa: E402
from cityplanner.plugin.agent.model_files import default_model_path  # noqa: E402
from cityplanner.plugin.training.export import export_adapter  # noqa: E402
from cityplanner.plugin.training.gguf_io import GGUFFile  # noqa: E402
from cityplanner.plugin.training.model import load_gguf_model  # noqa: E402
from cityplanner.plugin.training.policy import ChatTokenizer, sample  # noqa: E402
from cityplanner.plugin.training.trainer import grpo_step, prepare_group, sft_step  # noqa: E402

MESSAGES = [{"role": "system", "content": "Answer with one JSON object."},
            {"role": "user", "content": "Write the plan with ids a1 and b2."}]
DEMO = '{"analysis": "ok", "plan": "set", "commands": [{"keystrokes": "plan set a1 b2\\n", "duration": 0.1}], ' \
       '"task_complete": true}'


@pytest.fixture(scope="module")
def policy():
    torch.set_num_threads(1)
    path = default_model_path()
    return path, load_gguf_model(path, rank=2, alpha=4.0, seed=0), ChatTokenizer(path)


def _snapshot(model):
    return {k: v.detach().clone() for k, v in model.lora_state().items()}


def _changed(model, before):
    return sum(not torch.equal(v, before[k]) for k, v in model.lora_state().items())


def test_one_sft_step_and_one_grpo_step_change_the_adapter(policy):
    _, model, tok = policy
    before = _snapshot(model)
    opt = torch.optim.AdamW(list(model.lora_state().values()), lr=1e-3)
    loss, tokens = sft_step(model, tok, [(SimpleNamespace(messages=MESSAGES), DEMO)], opt)
    assert loss > 0 and tokens == len(tok.completion(DEMO))
    assert _changed(model, before) == len(before)   # every lora_a / lora_b moved

    ref, after_sft = _snapshot(model), _snapshot(model)
    prompt = tok.chat_prompt(MESSAGES)
    comps = sample(model, prompt, 2, 6, 1.0, tok.end, torch.Generator().manual_seed(0))
    assert len(comps) == 2 and all(1 <= len(c) <= 6 for c in comps)
    group = prepare_group(model, ref, prompt, comps, [1.0, -1.0])
    assert torch.equal(group[2], torch.tensor([1.0, -1.0]))
    opt = torch.optim.AdamW(list(model.lora_state().values()), lr=1e-3)
    loss, stats = grpo_step(model, opt, [group], clip=0.2, beta=0.04)
    assert stats["kl"] == pytest.approx(0.0, abs=1e-6)   # policy == reference before the step
    assert _changed(model, after_sft) > 0


def test_exported_adapter_loads_in_llama_cpp_and_changes_greedy_output(policy, tmp_path):
    path, model, _ = policy
    with torch.no_grad():
        for name, p in model.lora_state().items():
            if name.endswith("lora_b"):
                p.normal_(0.0, 0.05, generator=torch.Generator().manual_seed(1))
    adapter = export_adapter(model, tmp_path / "adapter.gguf")
    g = GGUFFile(adapter)
    assert g.kv["general.type"] == "adapter" and g.kv["adapter.type"] == "lora"
    assert g.kv["adapter.lora.alpha"] == 4.0 and "blk.29.ffn_down.weight.lora_b" in g.tensors
    assert g.tensors["blk.0.attn_k.weight.lora_b"][0] == (192, 2)   # (out, r) in numpy order

    texts = []
    for lora in (None, str(adapter)):
        backend = make_backend(str(path), lora=lora, threads=1, n_ctx=512, seed=0)
        try:
            texts.append(backend.chat(MESSAGES, max_tokens=12, temperature=0.0).text)
        finally:
            backend.close()
    assert texts[0] and texts[1] and texts[0] != texts[1]
