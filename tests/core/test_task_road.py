"""Road construction: hand-computed scores, Ψ, incremental == full, export, real builds."""
from __future__ import annotations

import json

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cityplanner.plugin.city import load_city, tiles
from cityplanner.plugin.errors import InputError
from cityplanner.plugin.tasks import task_class
from cityplanner.plugin.tasks.road import TARGET, RoadConstruction
from tests.core.task_checks import replay_moves


def handmade(groups: list[int] | None = None, budget: float = 100.0, max_select: int = 3) -> RoadConstruction:
    """Existing roads 1–2 (100 m), 3–4 (40 m), 5–6 (30 m); groups A {1}, B {3}, C {6}.
    Candidates r0 2–3 (20 m, cost 20), n0 1–4 (150 m, 60), n1 4–5 (50 m, 30),
    n2 2–5 (200 m, 10); n0 and n2 cross."""
    ids = ["r0", "n0", "n1", "n2"]
    cands = pd.DataFrame({"id": ids, "cost": [20.0, 60.0, 30.0, 10.0], "group": groups or [-1] * 4,
                          "wkt": ["LINESTRING (0 0, 1 1)"] * 4})
    data = {"edges": [[1, 2, 100.0], [3, 4, 40.0], [5, 6, 30.0]],
            "groups": [{"face_id": k, "demand": 1.0, "entry_nodes": e} for k, e in enumerate([[1], [3], [6]])],
            "segments": {"r0": [2, 3, 20.0], "n0": [1, 4, 150.0], "n1": [4, 5, 50.0], "n2": [2, 5, 200.0]},
            "crossings": [["n0", "n2"]]}
    return RoadConstruction("hand", cands, budget, max_select, "EPSG:3857", {}, data)


def random_instance(seed: int, n: int = 8, n_groups: int = 4, n_nodes: int = 16) -> RoadConstruction:
    """A random small network (sparse, often disconnected), groups and segments."""
    rng = np.random.default_rng(seed)
    xy = rng.uniform(0, 100, (n_nodes, 2))
    length = lambda a, b: round(float(np.hypot(*(xy[a] - xy[b]))) + 1.0, 1)  # noqa: E731
    edges = [[a, b, length(a, b)] for a in range(n_nodes) for b in range(a + 1, n_nodes) if rng.random() < 0.12]
    groups = [{"face_id": k, "demand": 1.0,
               "entry_nodes": sorted(rng.choice(n_nodes, int(rng.integers(1, 3)), replace=False).tolist())}
              for k in range(n_groups)]
    ends = [rng.choice(n_nodes, 2, replace=False) for _ in range(n)]
    ids = [f"s{i}" for i in range(n)]
    cands = pd.DataFrame({
        "id": ids, "cost": rng.integers(1, 10, n).astype(float),
        "group": [i // 2 if i < 4 and rng.random() < 0.5 else -1 for i in range(n)],
        "wkt": [f"LINESTRING ({xy[a][0]:.1f} {xy[a][1]:.1f}, {xy[b][0]:.1f} {xy[b][1]:.1f})" for a, b in ends]})
    data = {"edges": edges, "groups": groups,
            "segments": {ids[i]: [int(a), int(b), length(a, b)] for i, (a, b) in enumerate(ends)},
            "crossings": [[ids[i], ids[j]] for i in range(n) for j in range(i + 1, n) if rng.random() < 0.1]}
    return RoadConstruction(f"rand-{seed}", cands, 0.5 * float(cands["cost"].sum()),
                            int(rng.integers(2, n + 1)), "EPSG:3857", {}, data)


def greedy(inst: RoadConstruction) -> np.ndarray:
    st_ = inst.state()
    while True:
        gains = [(st_.gain_add(i), i) for i in np.flatnonzero(~st_.mask) if st_.can_add(i)]
        best = max(gains, default=(0.0, -1))
        if best[0] <= 1e-12:
            return st_.mask
        st_.add(best[1])


# ---------------------------------------------------------------- hand-computed scores
def test_handmade_scores():
    inst = handmade()
    # ideal (all four): A–B 1-2-3 = 120, A–C 1-4-5-6 = 230, B–C 3-4-5-6 = 120 → D_ideal = 470/3
    assert inst.d_ideal == pytest.approx(470 / 3, abs=1e-9)
    # existing only: nothing connected → Γ = 0, Q = −1
    s, c, _ = inst.score_mask(inst.mask_of([]))
    assert (s, c["Gamma"], c["Q"]) == (pytest.approx(-1.0, abs=1e-9), 0.0, -1.0)
    # {r0}: only A–B (120) → Γ = 1/3, Q = −2/3, ρ = 20/100
    s, c, w = inst.score_mask(inst.mask_of(["r0"]))
    assert c["Gamma"] == pytest.approx(1 / 3, abs=1e-9) and c["Q"] == pytest.approx(-2 / 3, abs=1e-9)
    assert s == pytest.approx(-2 / 3 - 0.1 * 0.2, abs=1e-9) and any("disconnected" in x for x in w)
    # {r0, n1}: A–B 120, A–C 1-2-3-4-5-6 = 240, B–C 120 → D = 160, ratio 480/470, Δ = 46/47, ρ = 0.5
    s, c, _ = inst.score_mask(inst.mask_of(["r0", "n1"]))
    assert c["Gamma"] == 1.0 and c["distance_ratio"] == pytest.approx(48 / 47, abs=1e-9)
    assert c["Delta"] == pytest.approx(46 / 47, abs=1e-9) and c["V"] == 0.0
    assert s == pytest.approx(46 / 47 - 0.05, abs=1e-9)
    # {n0, n1, n2}: A–B 1-4-3 = 190, A–C 230, B–C 120 → D = 180, Δ = 2 − 54/47 = 40/47;
    # ρ = 100/100; n0 × n2 cross → V = 0.05
    s, c, w = inst.score_mask(inst.mask_of(["n0", "n1", "n2"]))
    assert c["Delta"] == pytest.approx(40 / 47, abs=1e-9) and c["crossings"] == 1.0
    assert c["V"] == pytest.approx(0.05, abs=1e-9) and c["rho"] == pytest.approx(1.0, abs=1e-9)
    assert s == pytest.approx(40 / 47 - 0.1 - 0.05, abs=1e-9) and any("cross" in x for x in w)


def test_delta_clipped_at_zero():
    # two groups {1}, {2}, no roads; parallel links a (10 m, ideal) and b (30 m):
    # with b alone D_P / D_ideal = 3 ≥ 2 → Δ = 0, Q = 0, S = −0.1·1/10
    cands = pd.DataFrame({"id": ["a", "b"], "cost": [5.0, 1.0], "group": [-1, -1], "wkt": ["POINT (0 0)"] * 2})
    data = {"edges": [], "groups": [{"entry_nodes": [1]}, {"entry_nodes": [2]}],
            "segments": {"a": [1, 2, 10.0], "b": [1, 2, 30.0]}, "crossings": []}
    inst = RoadConstruction("clip", cands, 10.0, 2, "EPSG:3857", {}, data)
    s, c, _ = inst.score_mask(inst.mask_of(["b"]))
    assert (c["Gamma"], c["Delta"], c["Q"]) == (1.0, 0.0, 0.0) and s == pytest.approx(-0.01, abs=1e-9)
    s, c, _ = inst.score_mask(inst.mask_of(["a"]))
    assert c["Delta"] == pytest.approx(1.0, abs=1e-9) and s == pytest.approx(1.0 - 0.05, abs=1e-9)


# ---------------------------------------------------------------- Ψ and the evaluator convention
def test_hard_rules_name_the_offenders():
    inst = handmade()
    assert not inst.evaluate(["r0", "n1"]).errors
    ev = inst.evaluate(["r0", "n0", "n1"])  # cost 110 > 100
    assert not ev.valid and any("budget exceeded" in e for e in ev.errors)
    big = handmade(budget=1000.0, max_select=3)
    ev = big.evaluate(["r0", "n0", "n1", "n2"])
    assert not ev.valid and any("step limit" in e for e in ev.errors)
    grouped = handmade(groups=[0, 0, -1, -1])
    ev = grouped.evaluate(["r0", "n0"])
    assert not ev.valid and any("r0" in e and "n0" in e for e in ev.errors)


def test_unknown_and_duplicate_ids():
    inst = handmade()
    ev = inst.evaluate(["r0", "zz9"])
    assert not ev.valid and any("zz9" in e for e in ev.errors)
    ev = inst.evaluate(["r0", "n1", "r0"])
    assert ev.valid and ev.candidate_ids == ["r0", "n1"] and any("duplicate" in w for w in ev.warnings)
    assert ev.score == pytest.approx(round(46 / 47 - 0.05, 6))
    assert set(ev.metrics) == set(RoadConstruction.components)


# ---------------------------------------------------------------- incremental == full
@settings(max_examples=250, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 99),
                                                              st.integers(0, 99)), min_size=1, max_size=25))
def test_incremental_matches_full(seed, moves):
    replay_moves(random_instance(seed, n=int(np.random.default_rng(seed).integers(3, 12))), moves)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10_000), picks=st.lists(st.tuples(st.booleans(), st.integers(0, 99)), min_size=1,
                                                    max_size=20))
def test_removals_keep_every_distance_exact(seed, picks):
    # a removal recomputes only the rows of D whose shortest paths may use the segment:
    # G, Dg and all of D must still equal a fresh computation
    inst = random_instance(seed, n=int(np.random.default_rng(seed).integers(3, 12)))
    state = inst.state()
    for add, a in picks:
        pool = np.flatnonzero(~state.mask if add else state.mask)
        if len(pool):
            (state.add if add else state.remove)(int(pool[a % len(pool)]))
        fresh = inst.state(state.mask)
        for mine, want in ((state.G, fresh.G), (state.Dg, fresh.Dg), (state.D, fresh.D)):
            np.testing.assert_allclose(mine, want, rtol=1e-9, atol=1e-6)


def test_distances_match_networkx():
    inst = RoadConstruction.build(load_city("kotka"), "small", seed=3)
    g0 = nx.Graph()
    for u, v, w in inst.data["edges"]:
        if u != v and w < g0.get_edge_data(u, v, {"weight": np.inf})["weight"]:
            g0.add_edge(u, v, weight=max(w, 1e-6))
    rng = np.random.default_rng(0)
    for _ in range(3):
        mask = rng.random(inst.n) < 0.3
        g = g0.copy()
        for cid in inst.ids_of(mask):
            u, v, w = inst.data["segments"][cid]
            if w < g.get_edge_data(u, v, {"weight": np.inf})["weight"]:
                g.add_edge(u, v, weight=w)
        (G,) = inst.distances(np.flatnonzero(mask))
        for a, ga in enumerate(inst.data["groups"]):
            d = nx.multi_source_dijkstra_path_length(g, [e for e in ga["entry_nodes"] if e in g])
            for b, gb in enumerate(inst.data["groups"]):
                ref = min((d[e] for e in gb["entry_nodes"] if e in d), default=np.inf)
                assert G[a, b] == pytest.approx(ref, abs=1e-6)


# ---------------------------------------------------------------- export
def test_export_round_trip():
    inst = RoadConstruction.build(load_city("helsinki"), "small", seed=2)
    back = task_class("road").from_export(json.loads(json.dumps(inst.to_export())))
    rng = np.random.default_rng(1)
    for _ in range(5):
        mask = rng.random(inst.n) < 0.2
        assert back.score_mask(mask) == inst.score_mask(mask)
    assert back.budget == inst.budget and back.max_select == inst.max_select


# ---------------------------------------------------------------- real cities
@pytest.mark.parametrize("region", ["helsinki", "kotka"])
@pytest.mark.parametrize("size", ["small", "medium", "large"])
def test_build_real(region, size):
    inst = RoadConstruction.build(load_city(region), size, seed=0)
    assert 0.6 * TARGET[size] <= inst.n <= TARGET[size]
    assert inst.meta["short_of_target"] == (inst.n < TARGET[size])
    assert inst.meta["gamma_existing"] < 1.0  # the gaps disconnect some demand pairs
    for col in ("id", "cost", "group", "wkt", "kind", "length_m", "parcels"):
        assert col in inst.candidates
    assert inst.candidates["id"].is_unique and (inst.cost > 0).all()
    mask = greedy(inst)
    assert mask.any() and not inst.hard_errors(mask)
    assert RoadConstruction.build(load_city(region), size, seed=0).ids == inst.ids  # deterministic
    assert RoadConstruction.build(load_city(region), size, seed=1).ids != inst.ids or \
        RoadConstruction.build(load_city(region), size, seed=1).budget != inst.budget


@pytest.mark.parametrize("region", ["helsinki", "kotka"])
def test_build_windows(region):
    city = load_city(region)
    for bounds in tiles(city, 800.0):
        inst = RoadConstruction.build(city.window(bounds), "medium", seed=0)
        assert 0 < inst.n <= TARGET["medium"] and inst.n_pairs > 0
        assert not inst.hard_errors(greedy(inst))


def test_nothing_to_plan_is_an_input_error():
    city = load_city("kotka")
    x, y = city.bounds[0], city.bounds[1]
    with pytest.raises(InputError):
        RoadConstruction.build(city.window((x, y, x + 40.0, y + 40.0)), "small")
