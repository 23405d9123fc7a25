"""Instruction training data and benchmark scoring: held-out phrasings and places stay out of
training, every answer fits the model schema, exact match reads equivalent forms as equal."""
from __future__ import annotations

import jsonschema

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
