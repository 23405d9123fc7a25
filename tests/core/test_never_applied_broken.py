"""No instruction is ever reported applied while its plan breaks it (issue 29 item 4).

Every item of the newest dev half, the fifteenth (``v15_test``, retired to dev after its one held-out
run), and a seeded sample of the older halves' items (the dev half, the third to fourteenth halves),
sized so that the test's time stays what it was before the fifth joined, is instructed rules-only
with ``apply`` on its small instance (seed 0), the real round trip: the reader, the resolver, the
MILP and ``verify``. The sample is drawn per task in the older halves' proportions; every older item
is still read by ``tests/core/test_judged_sets.py``. For each applied reply:

* the stored constraints hold on the after-plan as ``verify`` judges them (its own reading of each
  constraint's meaning) AND as the compiled rows judge them (compile.py's reading): the two must
  agree constraint by constraint, on the after-plan and on the plan before (the unconstrained
  optimum, where an instruction is usually broken, so the agreement is tested where it matters);
* the item's expected constraints (its author's meaning, written before any reader ran) hold on the
  after-plan, judged the same two ways: a reading that lost a road kind or read a coverage the wrong
  way round is caught here even when the stored constraint itself holds;
* where the stored constraints are of the author's kinds one for one, their shares, counts and distances are the
  author's, and each names a kind (a type) where the author's does: a stored constraint stricter than meant holds
  wherever the meant one does (v14-in-32 "Keep a fifth of the budget free." stored as spend at most 20 %, meant 80 %;
  v15-in-27 "… korkeintaan neljännes uusiin yhteyksiin" stored as a quarter of the budget on every link, meant on new
  links), so only the parameters, compared without the compiler, catch it;
* a place its author wrote as absent from the data ("… is not in the … data") is never applied: a
  name read as another place's (v13-in-35 "Kaisaniemen uimaranta" as Kaisaniemenranta) keeps its
  stored constraint on the plan and still means something else.

The round trips of the selected items run in worker processes (``judged_pool``: each worker keeps
its instances, and a certified "before" plan is solved once per worker and instance); the checks run
in the test process on the reply and the workspace each one wrote.

The TEST half (instructions_test.json) is never opened."""
from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from cityplanner.plugin.bench.instructions import load_items
from cityplanner.plugin.city import load_city
from cityplanner.plugin.constraints import store, verify
from cityplanner.plugin.constraints.compile import compile_constraints
from cityplanner.plugin.constraints.interpret import finish
from cityplanner.plugin.constraints.resolve import Clarify
from cityplanner.plugin.errors import InputError
from cityplanner.plugin.tasks import task_class

from . import judged_pool

#: the dev half, the third to fourteenth halves (retired after their one run)
OLDER = ("dev", "v3_test", "v4_test", "v5_test", "v6_test", "v7_test", "v8_test", "v9_test", "v10_test", "v11_test",
         "v12_test", "v13_test", "v14_test")
NEWEST = "v15_test"                      # the fifteenth half, retired to dev after its one run: every item
#: measured on the shared 2-core machine: the 122 older items took 498 s; the fifth whole with 82 older
#: 622 s; with 56 older 497 s (the same as before). Rounds trips vary with load; the first items also
#: carry the one-off builds of the instances and name indexes
N_ITEMS = 96
HALVES = ("id-", "v3-in-", "v4-in-", "v5-in-", "v6-in-", "v7-in-", "v8-in-", "v9-in-", "v10-in-",
          "v11-in-", "v12-in-", "v13-in-", "v14-in-", "v15-in-")   # item ids of the dev halves
SEED = 29


def _items() -> list[dict]:
    """Every item of the newest dev half and a seeded sample of the older ones, drawn per task so
    the mix of station, road and land round trips (and so the time) stays that of the older halves."""
    newest, older = load_items(NEWEST), [it for split in OLDER for it in load_items(split)]
    rng = random.Random(SEED)
    keep: list[int] = []
    for task in ("station", "road", "land"):
        of_task = [k for k, it in enumerate(older) if it["task"] == task]
        keep += rng.sample(of_task, round(len(of_task) * (N_ITEMS - len(newest)) / len(older)))
    return [older[k] for k in sorted(keep)] + newest


ITEMS = _items()


@cache
def _instance(region: str, task: str):
    return task_class(task).build(load_city(region), "small", seed=0)


def _broken_by_rows(inst, ids: list[str], constraints: list[dict]) -> set[int]:
    """Indices of the constraints whose compiled rows the plan ``ids`` breaks."""
    comp = compile_constraints(inst, constraints)
    r = comp.rows_of(inst.mask_of(ids))
    bad = (r < comp.lo - 1e-9) | (r > comp.hi + 1e-9)
    return set(np.asarray(comp.owner)[bad].tolist())


def _broken_by_verify(inst, ids: list[str], constraints: list[dict]) -> set[int]:
    return {k for k, row in enumerate(verify.check(inst, ids, constraints)) if row["status"] == "broken"}


def _expected(item: dict, inst) -> list[dict] | None:
    """The author's constraints resolved on the instance; None where they cannot apply to it
    (a question is expected, or an id the small instance lacks)."""
    if isinstance(item["expect"], dict):
        return None
    try:
        return [finish({k: v for k, v in e.items() if k not in ("note", "scope")}, inst, item["text"], "manual")
                for e in item["expect"]]
    except (Clarify, InputError):
        return None


#: the parameters a stored constraint and its author's one of the same kind must share: a share to 0.005 (the bench's
#: canonical form), a count, a distance to 1 m, and whether it names a kind (which one may differ: "hospital" covers
#: hospital_s, as the author's note allows). A stricter reading holds on the after-plan wherever the meant one does
#: (v14-in-32 "Keep a fifth of the budget free." stored as spend at most 20 %, meant 80 %; a budget share that lost its
#: road kind caps every link), so only the parameters themselves, compared without the compiler, catch it
def _parameters(constraints: list[dict]) -> list[tuple]:
    def one(c: dict) -> tuple:
        share, dist = c.get("share"), c.get("distance_m")
        count = c.get("count")
        if count is None and c["kind"] == "require_near":   # "at least one within" is its default
            count = 1
        return (c["kind"], None if share is None else round(float(share) * 200),
                None if count is None else int(count), None if dist is None else round(float(dist)), bool(c.get("type")))
    return sorted((one(c) for c in constraints), key=repr)


def _same_kinds_other_parameters(stored: list[dict], meant: list[dict]) -> bool:
    """True where the stored constraints are of the author's kinds, one for one, but a share, count or distance
    differs: stored stricter or looser than meant (or the other way round)."""
    if sorted(c["kind"] for c in stored) != sorted(c["kind"] for c in meant):
        return False
    return _parameters(stored) != _parameters(meant)


@pytest.mark.parametrize("stored, meant, differ", [
    # v14-in-32 as it was stored: a fifth kept free read as a fifth spent
    ([{"kind": "budget_share_max", "share": 0.2}], [{"kind": "budget_share_max", "share": 0.8}], True),
    ([{"kind": "budget_share_max", "share": 0.8}], [{"kind": "budget_share_max", "share": 0.8}], False),
    ([{"kind": "count_max", "count": 2, "distance_m": 500.0}], [{"kind": "count_max", "count": 3, "distance_m": 500}], True),
    ([{"kind": "exclude_near", "distance_m": 300.0}], [{"kind": "exclude_near", "distance_m": 200}], True),
    ([{"kind": "require_near", "count": None, "distance_m": 400.0}], [{"kind": "require_near", "count": 1,
                                                                       "distance_m": 400}], False),
    # v15-in-27 as it was stored: a quarter of the budget on new links read as a quarter on every link
    ([{"kind": "budget_share_max", "share": 0.25}], [{"kind": "budget_share_max", "share": 0.25, "type": "new"}], True),
    ([{"kind": "exclude_near", "distance_m": 300.0, "type": "hospital"}],
     [{"kind": "exclude_near", "distance_m": 300, "type": "hospital_s"}], False),
    # other kinds: judged by the plan checks, not here
    ([{"kind": "inside_area", "distance_m": 800.0}], [{"kind": "require_near", "distance_m": 800}], False),
])
def test_the_parameter_check_tells_a_stricter_or_looser_reading(stored, meant, differ):
    assert _same_kinds_other_parameters(stored, meant) is differ


def test_the_sets_are_the_dev_halves_only():
    assert len(ITEMS) == N_ITEMS and all(it["id"].startswith(HALVES) for it in ITEMS)
    assert sum(it["id"].startswith("v15-in-") for it in ITEMS) == 40   # the newest half whole
    assert len({it["id"] for it in ITEMS}) == N_ITEMS and _items() == ITEMS   # no item twice; the same each run


@pytest.fixture(scope="module")
def replies(request, tmp_path_factory):
    """The round trips of the items this run selected, in worker processes (``judged_pool``), keyed
    by item id: each a future of (reply, workspace); the checks below run here."""
    ids = {item.callspec.params["item"]["id"] for item in request.session.items
           if getattr(item, "originalname", "") == "test_never_reported_applied_while_the_plan_breaks_it"}
    root = tmp_path_factory.mktemp("instruct")
    pool, futures = judged_pool.start([(it["id"], judged_pool.instruct_item, (it, str(root / it["id"]), 60.0))
                                       for it in ITEMS if it["id"] in ids])
    try:
        yield futures
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


@pytest.mark.slow
@pytest.mark.parametrize("item", ITEMS, ids=[it["id"] for it in ITEMS])
def test_never_reported_applied_while_the_plan_breaks_it(item, replies):
    reply, ws = replies[item["id"]].result()
    inst = _instance(item["region"], item["task"])
    absent = isinstance(item["expect"], dict) and " is not in the " in item["expect"].get("clarify", "")
    if not reply["applied"]:
        assert reply["clarification"] and store.load(ws) == []   # nothing stored without an apply
        return
    assert not absent, (item["id"], [c.get("note") or c["kind"] for c in reply["constraints"]])
    stored = store.load(ws)
    after, before = reply["plan"]["candidate_ids"], reply["plan"]["before_ids"]
    assert stored and reply["after"]["valid"]
    for plan in (after, before):   # verify and the rows agree, constraint by constraint
        assert _broken_by_verify(inst, plan, stored) == _broken_by_rows(inst, plan, stored), (item["id"], plan)
    assert not _broken_by_verify(inst, after, stored), item["id"]
    meant = _expected(item, inst)
    if meant is not None:   # what the author meant holds on the applied plan too
        assert not _broken_by_rows(inst, after, meant) and not _broken_by_verify(inst, after, meant), \
            (item["id"], [c.get("summary") or c["kind"] for c in reply["constraints"]])
        # and, of the author's kinds, with the author's share, count and distance: never stricter or looser
        assert not _same_kinds_other_parameters(stored, meant), (item["id"], _parameters(stored), _parameters(meant))
