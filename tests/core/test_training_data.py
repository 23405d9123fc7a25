"""Training data: reward vs the evaluator, demonstrations, and the train/test split."""
import numpy as np
import pytest

from cityplanner.plugin.bench.suites import build_item, suite
from cityplanner.plugin.sandbox.evaluator import evaluate_plan_file
from cityplanner.plugin.sandbox.workspace import PLAN_FILE
from cityplanner.plugin.training.dataset import suite_items
from cityplanner.plugin.training.render import (
    TOOL_CALLS,
    atomic_reward,
    checked_demonstrations,
    demonstration,
    make_task,
    run_episode,
    turn,
)
from cityplanner.plugin.training.trainer import tile_key
from cityplanner.plugin.util.io import atomic_write_json

EVAL = "python input/evaluate_plan.py outputs/final_plan.json\n"


@pytest.fixture(scope="module")
def land():
    item = next(i for i in suite("full") if i.split == "train" and i.task == "land" and i.size == "small")
    return build_item(item)


def test_reward_matches_the_evaluator(land, tmp_path):
    task = make_task(land, "build", tmp_path / "ws", 12, np.random.default_rng(0))
    cheap = [land.ids[int(np.argmin(land.cost))]]
    res = run_episode(task, turn("a", "b", [f"plan set {cheap[0]}\n", EVAL], True))
    atomic_write_json(tmp_path / "ws" / PLAN_FILE, {"candidate_ids": cheap})
    ev = evaluate_plan_file(tmp_path / "ws", tmp_path / "ws" / PLAN_FILE)
    assert ev["valid"] and res["valid"] and res["reward"] == pytest.approx(ev["score"])
    # over budget: every candidate at once is invalid -> R_fail
    assert atomic_reward(task, list(land.ids)) == (land.r_fail, False, None)
    assert not land.evaluate(list(land.ids)).valid
    # an empty BuildPlan, unknown ids and a malformed turn fail
    assert atomic_reward(task, [])[0] == land.r_fail
    assert atomic_reward(task, ["no-such-id"])[0] == land.r_fail
    assert run_episode(task, "not json")["reward"] == land.r_fail


def test_improve_demonstration_raises_the_score_and_unchanged_plan_fails(land, tmp_path):
    task = make_task(land, "improve", tmp_path / "ws", 24, np.random.default_rng(1))
    base = land.evaluate(task.base_plan)
    assert base.valid and task.base_plan
    assert atomic_reward(task, task.base_plan)[0] == land.r_fail   # no edit made
    demo = demonstration(task)
    assert demo is not None and "plan " in demo
    res = run_episode(task, demo)
    assert res["protocol_ok"] and res["valid"] and res["score"] > base.score


def test_build_demonstration_is_a_valid_plan(land, tmp_path):
    task = make_task(land, "build", tmp_path / "ws", 24, np.random.default_rng(0))
    res = run_episode(task, demonstration(task))
    assert res["valid"] and res["reward"] == res["score"] > 0
    assert [m["role"] for m in task.messages] == ["system", "user", "assistant", "user"]


def test_tool_demonstrations_call_the_solver_and_reach_a_valid_plan(land, tmp_path):
    build = make_task(land, "build", tmp_path / "b", 6, np.random.default_rng(0), compact=True)
    improve = make_task(land, "improve", tmp_path / "i", 6, np.random.default_rng(1), compact=True)
    demos = checked_demonstrations([build, improve], "tool")
    assert [t.goal for t, _ in demos] == ["build", "improve"]   # both solved, ImprovePlan improved
    for (task, text), goal in zip(demos, ("build", "improve"), strict=False):
        assert TOOL_CALLS[goal] in text
        res = run_episode(task, text)
        assert res["protocol_ok"] and res["valid"] and res["reward"] == res["score"]
    # the compact system prompt names the solver tool and is much shorter than the agent's default
    from cityplanner.plugin.agent.protocol import system_prompt
    assert "solve [--method" in build.messages[0]["content"]
    assert len(build.messages[0]["content"]) < len(system_prompt()) / 2


def test_split_never_leaks_a_tile():
    items = suite("full")
    train = suite_items("full", "train", ["land", "road", "station"], ["small", "medium", "large"], 10_000, 0)
    test = suite_items("full", "test", ["land", "road", "station"], ["small", "medium", "large"], 10_000, 0)
    assert train and test and all(i.split == "train" for i in train) and all(i.split == "test" for i in test)
    assert not {tile_key(i) for i in train} & {tile_key(i) for i in test}
    # every tile has one split across tasks, sizes and seeds
    splits = {}
    for i in items:
        assert splits.setdefault(tile_key(i), i.split) == i.split
