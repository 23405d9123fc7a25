"""Instruction training data and benchmark scoring: held-out phrasings and places stay out of
training, every answer fits the model schema, exact match reads equivalent forms as equal;
the GRPO execution reward judges an answer by its effect; one GRPO step runs on the real model."""
from __future__ import annotations

import json

import jsonschema
import pytest

from cityplanner.plugin.bench.instructions import exact
from cityplanner.plugin.constraints.llm import MODEL_SCHEMA, to_neutral
from cityplanner.plugin.training.instructions import HOLDOUT_EVERY, _dev_places, generate


def test_generated_pairs_keep_held_out_phrasings_and_places_out():
    pairs = generate(seed=0, per_template=2)
    train = [p for p in pairs if not p.held_out]
    assert len(train) > 300 and len(pairs) - len(train) > 50
    assert all(int(p.template.split(":")[1]) % HOLDOUT_EVERY != HOLDOUT_EVERY - 1 for p in train)
    dev = _dev_places()
    named = [c["target_name"] for p in train for c in p.expect["constraints"] if c["target_name"]]
    assert named and not dev & set(named)               # no dev place is trained on
    for p in pairs:
        jsonschema.validate(p.expect, MODEL_SCHEMA)
        assert [to_neutral(c)["kind"] for c in p.expect["constraints"]] or p.expect["clarify"]
    assert generate(seed=0, per_template=2)[0].text == pairs[0].text   # seeded


def test_exact_match_reads_equivalent_forms():
    near = {"kind": "exclude_near", "target": {"name": "Otsonkallio", "category": None, "id": None},
            "distance_m": 200, "count": None, "share": None, "type": None, "term": None}
    assert exact([{**near, "distance_m": 200.0, "target": {"name": "otsonkallio"}}], [near])
    as_count = {"kind": "count_max", "target": {"name": "Otsonkallio"}, "distance_m": 200, "count": 0}
    assert exact([as_count], [near])
    assert not exact([{**near, "distance_m": 250}], [near])
    park = {"kind": "count_max", "target": {"name": "Kumparepuisto"}, "count": 0, "type": "business", "area": True}
    assert exact([{"kind": "outside_area", "target": {"name": "Kumparepuisto"}, "type": "business"}], [park])
    green = {"kind": "lock_in", "target": {"id": "5"}, "type": "green_s", "note": "green_s or green_l"}
    assert exact([{"kind": "lock_in", "target": {"id": "5"}, "type": "green_l"}], [green])
    assert not exact([{"kind": "lock_in", "target": {"id": "5"}, "type": "school"}], [green])
    assert exact([{"kind": "budget_share_max", "share": 0.667}], [{"kind": "budget_share_max", "share": 0.6667}])
    assert exact(None, {"clarify": "unknown place"}) and not exact([near], {"clarify": "unknown place"})


def _answer(**kw) -> dict:
    item = {"kind": None, "target_name": None, "target_category": None, "target_id": None, "distance_m": None,
            "count": None, "share": None, "type": None, "term": None}
    return {"constraints": [{**item, **kw}], "clarify": None}


@pytest.mark.slow  # judged like the instruction benchmark: each answer compiled, applied and solved
def test_execution_reward_compiles_applies_and_compares_with_the_gold_effect():
    from cityplanner.plugin.training.instructions_reward import FORMAT_REWARD, execution_reward

    text = "no charger within 300 m of Q-Park Erottaja"
    gold = _answer(kind="exclude_near", target_name="Q-Park Erottaja", distance_m=300.0)
    cache: dict = {}
    reward = lambda completion, answer=gold: execution_reward(completion, text, "helsinki", "station",  # noqa: E731
                                                              answer, cache)
    assert reward(json.dumps(gold)) == 1.0
    # the same effect in another form: at most 0 within 300 m of it
    assert reward(json.dumps(_answer(kind="count_max", count=0, target_name="Q-Park Erottaja",
                                     distance_m=300.0))) == 1.0
    # complete JSON with the opposite effect, or a place not in the data: format reward only
    assert reward(json.dumps(_answer(kind="count_min", count=2, target_name="Q-Park Erottaja",
                                     distance_m=300.0))) == FORMAT_REWARD
    assert reward(json.dumps(_answer(kind="exclude_near", target_name="Tennispalatsi", distance_m=300.0))) \
        == FORMAT_REWARD
    assert reward('{"constraints": [{"kind": "exclude_near", "target_name": "Q-P') == 0.0    # cut off
    vague = {"constraints": [], "clarify": "which target?"}
    assert reward(json.dumps(vague), vague) == 1.0 and reward(json.dumps(gold), vague) == FORMAT_REWARD


@pytest.mark.model
@pytest.mark.torch
@pytest.mark.slow
def test_one_grpo_step_on_the_real_model(tmp_path):
    import torch

    from cityplanner.plugin.agent.model_files import resolve_model
    from cityplanner.plugin.training.instructions import InstructionTraining, Pair, grpo_instructions
    from cityplanner.plugin.training.model import load_gguf_model
    from cityplanner.plugin.training.policy import ChatTokenizer
    from cityplanner.plugin.util.io import read_jsonl

    path = resolve_model(None)
    tok, net = ChatTokenizer(path), load_gguf_model(path, rank=4, seed=0)
    pair = Pair("keep 400 m between stations", "station", "helsinki", _answer(kind="spacing_min", distance_m=400.0),
                "spacing_min:0", False)
    before = {k: v.detach().clone() for k, v in net.lora_state().items()}
    cfg = InstructionTraining(grpo_steps=1, group=2, max_new_tokens=24, threads=2)
    rewards = grpo_instructions(net, tok, [pair], cfg, tmp_path / "log.jsonl")
    rec = read_jsonl(tmp_path / "log.jsonl")[0]
    assert len(rewards) == 2 and all(r in (0.0, 0.1, 1.0) for r in rewards) and rec["rewards"] == rewards
    assert rec["tokens"] > 0 and rec["kl"] >= 0.0
    moved = any(not torch.equal(before[k], v) for k, v in net.lora_state().items())
    # equal rewards carry no advantage; the KL term to the reference starts at 0: then nothing moves
    assert moved == (len(set(rewards)) > 1)
