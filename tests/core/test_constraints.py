"""Planner instructions end to end: text → constraint → certified MILP plan that satisfies it →
the evaluator agrees; clarifications; storage the terminal cannot touch; removal."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest
import shapely

from cityplanner.plugin.city import load_city
from cityplanner.plugin.constraints import store
from cityplanner.plugin.constraints.compile import candidate_geometries, compile_constraints, demand_points
from cityplanner.plugin.constraints.constrained import constrain
from cityplanner.plugin.constraints.interpret import interpret
from cityplanner.plugin.constraints.roundtrip import certified_plan, instruct, price_text
from cityplanner.plugin.sandbox import VirtualTerminal
from cityplanner.plugin.sandbox.evaluator import evaluate_plan_file
from cityplanner.plugin.sandbox.workspace import write_workspace
from cityplanner.plugin.solvers import solve
from cityplanner.plugin.tasks import task_class
from cityplanner.plugin.util.io import atomic_write_json

TIME = 120.0   # generous: HiGHS needs far less on a quiet machine, a loaded one must not fail the test


@pytest.fixture(scope="module")
def station():
    return task_class("station").build(load_city("helsinki"), "small", seed=0)


@pytest.fixture(scope="module")
def land():
    return task_class("land").build(load_city("helsinki"), "small", seed=0)


@pytest.fixture(scope="module")
def base_plan(station):
    return certified_plan(station, [], TIME)


def _xy(inst, ids):
    g = candidate_geometries(inst)
    return g[[inst.index[i] for i in ids]]


def _dist(inst, ids, wkt):
    return shapely.distance(_xy(inst, ids), shapely.from_wkt(wkt))


def _site(i):
    return i[:3]


STATION_CASES = [
    ("Prohibit charging stations within 250 m of Helsingin yliopisto.", "exclude_near",
     lambda inst, c, ids: (_dist(inst, ids, c["geometry"]) > 250).all()),
    ("site 5 in", "lock_in", lambda inst, c, ids: any(i.startswith("s05") for i in ids)),
    ("no site 3", "lock_out", lambda inst, c, ids: not any(i.startswith("s03") for i in ids)),
    ("Selected sites must be at least 600 m apart.", "spacing_min",
     lambda inst, c, ids: all(shapely.distance(a, b) >= 600 for k, a in enumerate(_xy(inst, ids))
                              for b in _xy(inst, ids)[k + 1:])),
    ("Leave 30% of the budget unspent.", "budget_share_max",
     lambda inst, c, ids: inst.cost[[inst.index[i] for i in ids]].sum() <= 0.7 * inst.budget + 1e-9),
    ("no more than 3 stations in total", "count_max", lambda inst, c, ids: len(ids) <= 3),
    ("at least 2 chargers within 300 m of Q-Park Erottaja", "count_min",
     lambda inst, c, ids: (_dist(inst, ids, c["geometry"]) <= 300).sum() >= 2),
    ("only inside Helsingin päärautatieasema", "inside_area",
     lambda inst, c, ids: shapely.within(_xy(inst, ids), shapely.from_wkt(c["geometry"])).all()),
    # every charger within a radius of a street (inside_area with distance_m; it was stored as none within)
    ("every charger has to be w/in 600 m of Annankatu, no exceptions", "inside_area",
     lambda inst, c, ids: len(ids) > 0 and (_dist(inst, ids, c["geometry"]) <= 600 + 1e-6).all()),
    ("Every residential block shall be within 600 m of a charger.", "coverage",
     lambda inst, c, ids: (shapely.distance(shapely.points(demand_points(inst)[:, :2])[:, None],
                                            _xy(inst, ids)[None, :]).min(axis=1)
                           <= 600)[demand_points(inst)[:, 2] > 0].all()),
]


@pytest.mark.parametrize("text, kind, holds", STATION_CASES, ids=[c[1] for c in STATION_CASES])
def test_station_kind_end_to_end(station, base_plan, text, kind, holds):
    it = interpret(text, station)
    assert it.clarification is None and [c["kind"] for c in it.constraints] == [kind]
    c = it.constraints[0]
    assert c["source"] == "rules" and c["text"] == text
    after = certified_plan(station, it.constraints, TIME)
    assert after["valid"] and after["status"] == "optimal" and after["gap"] <= 1e-6
    assert holds(station, c, after["ids"])                       # the MILP plan satisfies it
    assert after["score"] <= base_plan["score"] + 1e-6            # a constraint never raises the optimum
    ci = constrain(station, compile_constraints(station, it.constraints))
    assert ci.evaluate(after["ids"]).valid                        # the evaluator agrees
    if not holds(station, c, base_plan["ids"]):                   # the constraint bites: named Ψ violation
        errors = ci.evaluate(base_plan["ids"]).errors
        assert any(e.startswith("instruction 1 broken") for e in errors), errors


def test_emphasis_changes_the_objective_not_the_price_measure(station, base_plan):
    it = interpret("focus on access rather than coverage", station)
    assert [c["term"] for c in it.constraints] == ["access"]
    after = certified_plan(station, it.constraints, TIME)
    e = constrain(station, compile_constraints(station, it.constraints)).compiled.emphasis
    idx = lambda ids: [station.index[i] for i in ids]  # noqa: E731
    # exact optima of S and S + w·E: the emphasised plan has at least the emphasised term's value
    assert e[idx(after["ids"])].sum() >= e[idx(base_plan["ids"])].sum() - 1e-9
    assert after["score"] == pytest.approx(station.score_mask(station.mask_of(after["ids"]))[0], abs=1e-6)
    assert after["objective"] <= after["score"] + 1e-9            # the emphasis term is ≤ 0


def test_land_types_blocks_and_heuristics(land):
    # the optimum without instructions: f5-school, f29-office, f32-hospital_s, f43-recreation
    text = ["block 1 should stay green", "parcel 32 out", "max 0 school"]
    cons = [c for t in text for c in interpret(t, land).constraints]
    assert [(c["kind"], c.get("type")) for c in cons] == [("lock_in", "green_s"), ("lock_out", None),
                                                          ("count_max", "school")]
    after = certified_plan(land, cons, TIME)
    assert after["valid"] and after["status"] == "optimal"
    types = land.candidates.set_index("id").loc[after["ids"], "type"]
    assert "f1-green_s" in after["ids"] and not any(i.startswith("f32-") for i in after["ids"])
    assert (types == "school").sum() == 0
    # two schools cost more than the budget (11161 + 18895 > 29991): proven infeasible, never a wrong plan
    two = interpret("At least two parcels must be allocated to school.", land).constraints
    assert certified_plan(land, two, TIME)["status"] == "infeasible"
    ci = constrain(land, compile_constraints(land, cons))
    for method in ("greedy", "alns"):     # heuristics respect the constraints: start repaired, moves refused
        res = solve(ci, method, time_limit=5)
        assert res.valid, (method, res.errors)
        assert res.score <= after["score"] + 1e-6


def test_road_links_in_and_out():
    road = task_class("road").build(load_city("helsinki"), "small", seed=0)
    cons = interpret("link 2 in, link 6 out", road).constraints
    assert [(c["kind"], c["target"]["id"]) for c in cons] == [("lock_in", "2"), ("lock_out", "6")]
    after = certified_plan(road, cons, TIME)
    assert after["valid"] and "n002" in after["ids"] and "n006" not in after["ids"]


@pytest.mark.parametrize("text, says", [
    ("Place one charger by Tennispalatsi.", "'Tennispalatsi' is not in the helsinki data — did you mean"),
    ("make it greener", "no measurable target"),
    ("site 99 in", "no candidate, site, parcel or link '99'"),
    ("the budget must be at most something", "what share of the budget"),
])
def test_clarifications(station, text, says):
    it = interpret(text, station)
    assert it.constraints == [] and says in it.clarification


def test_near_without_distance_asks_for_one(station):
    """"near X" with no distance is asked (issue 29: never a guessed radius); when X is not in the
    data either, that is said first."""
    it = interpret("one charger near Q-Park Erottaja", station)
    assert it.constraints == [] and "how near to Q-Park Erottaja" in it.clarification
    it = interpret("a charger next to Tennispalatsi", station)
    assert it.constraints == [] and it.clarification.startswith("'Tennispalatsi' is not in the helsinki data")
    assert "how near" in it.clarification


def test_a_keep_away_from_two_names_is_one_constraint_per_name(station):
    it = interpret("Don't place chargers within 150 m of Kiasma or Ateneum.", station)
    assert [(c["kind"], c["target"]["name"], c["distance_m"]) for c in it.constraints] == \
        [("exclude_near", "Kiasma", 150.0), ("exclude_near", "Ateneum", 150.0)]
    # a count over two places is no per-name count: asked, not split
    assert interpret("at most one charger within 150 m of Kiasma or Ateneum", station).clarification


def test_an_id_the_instance_lacks_is_already_out_but_cannot_be_in(station):
    """"site 99 out" holds for every plan (stored, compiled to no row, the reply says so); "site 99 in"
    cannot be met and is asked about (test_clarifications)."""
    assert not (station.candidates["site"] == "s99").any()
    it = interpret("Site 4 in. Site 99 out.", station)
    assert [(c["kind"], c["target"]["id"]) for c in it.constraints] == [("lock_in", "4"), ("lock_out", "99")]
    assert "nothing to keep out" in it.constraints[1]["note"]
    rows = compile_constraints(station, it.constraints)
    assert rows.A.shape[0] == 1 and set(rows.A.tocsr().indices) == {station.index[i] for i in station.ids
                                                                      if i.startswith("s04")}


def test_misspelt_name_is_read_as_the_data_name(station):
    c = interpret("no chargers inside Simonpuistiko", station).constraints[0]
    assert c["target"]["name"] == "Simonpuistikko" and "Simonpuistiko" in c["note"]


@pytest.mark.parametrize("text, said", [
    # a word both share ("puisto") carries the ratio; the name's own word is no misspelling of it
    ("no new links within 300 m of Hesperian puisto", "Hesperian puisto"),
    ("no chargers within 200 m of Hakaniemen puisto", "Hakaniemen puisto"),
    ("at least one charger within 400 m of Sinebrychoffin puisto", "Sinebrychoffin puisto"),
])
def test_a_name_not_in_the_data_is_said_so_not_read_as_a_look_alike(station, text, said):
    it = interpret(text, station)
    assert not it.constraints and f"'{said}' is not in the helsinki data" in it.clarification


@pytest.mark.parametrize("text, name", [
    ("at most one charger inside the city block Lohi", "Lohi"),
    ("no chargers inside the block Lohi", "Lohi"),
    ("no chargers within 100 m of the building Stockmann", "Stockmann"),
])
def test_a_place_noun_before_the_name_is_read_past(station, text, name):
    assert interpret(text, station).constraints[0]["target"]["name"] == name


@pytest.mark.parametrize("text, name, said", [
    # a Finnish case ending on a name: its stem, and a linking vowel after a consonant dropped
    ("vähintään kaksi latausasemaa 400 m säteellä Stockmannista", "Stockmann", "Stockmanni"),
    ("ei latausasemia 200 metrin säteellä Ateneumista", "Ateneum", "Ateneumi"),
    ("enintään kaksi latausasemaa Kaartinkaupungissa", "Kaartinkaupunki", "Kaartinkaupungi"),
])
def test_finnish_place_cases_resolve_to_the_data_name(station, text, name, said):
    c = interpret(text, station).constraints[0]
    assert c["target"]["name"] == name and f"'{said}'" in c["note"]


def test_a_district_noun_after_the_name_is_read_past(station):
    c = interpret("Within the Kluuvi district, no chargers may be built.", station).constraints[0]
    assert c["kind"] == "outside_area" and c["target"]["name"] == "Kluuvi"


def test_instruct_stores_prices_and_removes(station, base_plan, tmp_path):
    ws = write_workspace(station, tmp_path / "ws")
    reply = instruct(ws, "no site 3", station, apply=True, time_limit=TIME)
    assert reply["applied"] and reply["source"] == {"c1": "rules"}
    assert reply["before"]["score"] == pytest.approx(base_plan["score"], abs=1e-6)
    assert reply["price"] == pytest.approx(reply["before"]["score"] - reply["after"]["score"], abs=1e-6)
    assert reply["price"] > 0 and "costs" in price_text(reply)
    assert [c["key"] for c in store.load(ws)] == ["c1"]
    # the evaluator names the broken instruction; removing it makes the same plan valid again
    plan = atomic_write_json(ws / "outputs" / "old.json", {"candidate_ids": base_plan["ids"]})
    ev = evaluate_plan_file(ws, plan)
    assert not ev["valid"] and any("instruction c1 broken" in e for e in ev["errors"])
    assert store.remove(ws, "1")["kind"] == "lock_out" and store.load(ws) == []
    assert evaluate_plan_file(ws, plan)["valid"]


def test_storage_is_out_of_the_terminals_reach(station, tmp_path):
    ws = write_workspace(station, tmp_path / "ws")
    store.add(ws, [{"kind": "count_max", "count": 2, "text": "at most 2", "source": "manual"}])
    path = ws / store.FILE
    before = path.read_text()
    assert not os.access(path, os.W_OK) or os.geteuid() == 0 and not (path.stat().st_mode & 0o222)
    term = VirtualTerminal(ws)
    for cmd in ("echo '{}' > constraints/instructions.json", "echo x >> constraints/instructions.json",
                "cat > constraints/new.json <<'EOF'\n{}\nEOF", "rm constraints/instructions.json",
                "echo '{}' > ../ws/constraints/instructions.json"):
        out = term.run(cmd)
        assert "allowed only inside work/ and outputs/" in out or "not found" in out or "escapes" in out, out
    assert path.read_text() == before and sorted(p.name for p in path.parent.iterdir()) == ["instructions.json"]
    assert json.loads(before)["constraints"][0]["key"] == "c1"


def test_bad_constraints_are_refused(station):
    with pytest.raises(Exception, match="not a score term"):
        compile_constraints(station, [{"kind": "emphasis", "term": "beauty"}])
    from cityplanner.plugin.constraints.schema import schema_errors

    assert schema_errors({"kind": "count_max"}) == ["count_max needs 'count'"]
    assert schema_errors({"kind": "exec", "code": "rm -rf /"})                      # not a kind, no extra keys
    # more than the candidates: a row that even selecting everything cannot meet
    infeasible = compile_constraints(station, [{"kind": "count_min", "count": station.n + 1}])
    assert (infeasible.rows_of(np.ones(station.n, dtype=bool)) < infeasible.lo).all()


def test_tools_add_list_remove(station, tmp_path):
    from cityplanner.plugin.agent.tools import default_registry

    write_workspace(station, tmp_path / "root" / "ws")
    reg = default_registry(tmp_path / "root")
    ok = reg.call("add_constraint", {"workspace": "ws", "instruction": "Leave 30% of the budget unspent."})
    assert ok.ok and ok.result["applied"] and ok.result["price"] >= 0 and "score" in ok.result["price_text"]
    assert ok.result["after"]["valid"] and ok.result["constraints"][0]["share"] == 0.7
    unclear = reg.call("add_constraint", {"workspace": "ws", "instruction": "Place one charger by Tennispalatsi."})
    assert not unclear.ok and "Tennispalatsi" in unclear.error
    listed = reg.call("list_constraints", {"workspace": "ws"})
    assert [c["key"] for c in listed.result["constraints"]] == ["c1"]
    assert reg.call("remove_constraint", {"workspace": "ws", "key": "c1"}).result["remaining"] == []
    assert not reg.call("remove_constraint", {"workspace": "ws", "key": "c1"}).ok


@pytest.mark.model
def test_the_real_model_reads_what_the_rules_cannot(station):
    from cityplanner.plugin.agent.backend import make_backend
    from cityplanner.plugin.city.names import name_index

    backend = make_backend("default", threads=1, n_ctx=2048, seed=0)
    try:
        text = "Turn the Lapinlahti hospital grounds into a park."   # no rule reads this
        it = interpret(text, station, backend)
        again = interpret(text, station, backend)
    finally:
        backend.close()
    assert (it.clarification, it.constraints) == (again.clarification, again.constraints)   # seeded
    # whatever the model answered, nothing reaches the plan unchecked: a clarification, or
    # constraints from the model whose places are names in the data
    assert it.clarification or all(c["source"] == "model" for c in it.constraints)
    names = {f.name for f in name_index("helsinki").features}
    assert all(c["target"].get("name") in names for c in it.constraints if c.get("target", {}).get("name"))


def test_at_scale_form_keeps_the_instruction(station):
    """The station MILP's at-scale form (LP bound + MIP over the LP's support) under an
    instruction to use a site the unconstrained LP leaves out: its LP carries the planner's
    rows, so the support holds the site, the plan keeps the instruction, and the bound holds
    over the certified constrained optimum."""
    from cityplanner.plugin.solvers.milp import solve_milp

    it = interpret("site 5 in", station)
    ci = constrain(station, compile_constraints(station, it.constraints))
    res = solve_milp(ci, TIME, at_scale=True)
    exact = certified_plan(station, it.constraints, TIME)
    assert ci.hard_errors(res.mask) == [] and ci.score_mask(res.mask)[0] <= exact["score"] + 1e-6
    assert res.bound >= exact["score"] - 1e-6


def test_a_poi_in_an_unnamed_building_is_measured_from_that_building(station):
    """Q-Park Iso-Erottaja is a POI point with no outline of its name; OSM maps the (unnamed)
    building it lies in: distances are measured from that outline, and the note says so."""
    from cityplanner.plugin.city.names import name_index

    (c,) = interpret("no chargers within 100 m of Q-Park Iso-Erottaja", station).constraints
    shape = shapely.from_wkt(c["geometry"])
    poi = next(f for f in name_index("helsinki").features if f.name == "Q-Park Iso-Erottaja" and f.kind == "poi")
    assert shape.geom_type in ("Polygon", "MultiPolygon") and shape.area > 500.0
    assert shape.contains(shapely.Point(poi.x, poi.y)) and "building that holds" in c["note"]


class _Answers:
    """A stand-in model that always gives one fixed answer (deterministic: the point is what the
    interpreter does with a reading, not what a model reads; the real adapter is measured by
    ``bench --suite instructions`` and read in tests/core/test_instruction_adapter.py)."""

    def __init__(self, answer: dict):
        self.text = json.dumps(answer)

    def chat(self, messages, schema=None, max_tokens=0, temperature=0.0, seed=0):
        from cityplanner.plugin.agent.backend import ChatResult

        return ChatResult(self.text, 0, 0, 0.0, "stop")


def _flat(kind, **kw):
    return {"kind": kind, "target_name": None, "target_category": None, "target_id": None, "distance_m": None,
            "count": None, "share": None, "type": None, "term": None, **kw}


def test_a_model_reading_that_drops_the_name_the_planner_wrote_is_refused(station):
    """Rules cannot read the text; the model answers with a constraint that ignores the name written:
    that is not a reading of the instruction, so nothing is stored and the reply says why. A reading
    that keeps the name goes on (here to 'not in the data'), and a text without names is read."""
    text = "Reserve the old Pikkutalli yard for parking chargers, as discussed."
    dropped = interpret(text, station, _Answers({"constraints": [_flat("count_min", count=1.0)], "clarify": None}))
    assert not dropped.constraints and "left out 'Pikkutalli'" in dropped.clarification
    kept = interpret(text, station, _Answers({"constraints": [_flat("count_min", count=1.0, distance_m=100.0,
                                                                    target_name="Pikkutalli")], "clarify": None}))
    assert not kept.constraints and "Pikkutalli" in kept.clarification and "left out" not in kept.clarification
    vague = "the coverage of the plan matters above all, as discussed"
    # the rules read this text too: ask the model alone, so the reading checked is the model's
    read = interpret(vague, station, _Answers({"constraints": [_flat("emphasis", term="coverage")], "clarify": None}),
                     rules=False)
    assert [c["kind"] for c in read.constraints] == ["emphasis"]


def test_a_budget_share_of_a_road_kind_counts_only_that_kinds_cost():
    # round 15: "at most a tenth of the budget on new links" caps what the new links cost; rebuilds are not held to it
    # (the share was stored for every link). The compiled rows and verify agree on plans of each kind
    from cityplanner.plugin.constraints import verify

    road = task_class("road").build(load_city("helsinki"), "small", seed=0)
    [c] = interpret("spend no more than a tenth of the budget on new links", road).constraints
    assert (c["kind"], c["share"], c["type"]) == ("budget_share_max", 0.1, "new")

    def over_the_cap(kind: str) -> list[str]:
        ids, spent = [], 0.0
        for k in np.argsort(-road.cost):
            if road.candidates["kind"].iloc[k] == kind and spent <= c["share"] * road.budget:
                ids.append(road.ids[k])
                spent += float(road.cost[k])
        return ids

    def broken(ids: list[str], cons: list[dict]) -> tuple[bool, bool]:
        comp = compile_constraints(road, cons)
        r = comp.rows_of(road.mask_of(ids))
        rows = bool(((r < comp.lo - 1e-9) | (r > comp.hi + 1e-9)).any())
        return rows, verify.check(road, ids, cons)[0]["status"] == "broken"

    assert broken(over_the_cap("rebuild"), [c]) == (False, False)
    assert broken(over_the_cap("new"), [c]) == (True, True)
    assert broken(over_the_cap("rebuild"), [{**c, "type": None}]) == (True, True)   # a cap on every link
