"""A bound that does not race (issue 26, item 9): the LP bound comes first, with time of its
own, so a short run reports the LP's bound and not the score's ceiling; a ceiling bound is
never shown as a gap without the line that says there is no bound yet.

Reference values are computed here, apart from the code under test: the LP relaxation with
scipy's ``linprog`` (dual simplex, in this process, no time limit) and the optimum by brute
force over every plan."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linprog

from cityplanner.plugin.sandbox import best_plan, write_workspace
from cityplanner.plugin.solvers.milp import solve_milp
from cityplanner.plugin.solvers.milp import station as milp_station
from cityplanner.plugin.solvers.milp.relaxation import LP_MIN_VARS, lp_bound
from cityplanner.plugin.util.words import result_sentence
from tests.core.test_solvers import brute_force
from tests.core.test_task_station import HAND_CASES, hand, random_station


def _linprog_bound(c, const, cons, bounds) -> float:
    """const − min c·x over {lb ≤ A x ≤ ub, bounds}: rows split into ≤ and = by hand."""
    a = cons.A.toarray()
    lo, hi = np.asarray(cons.lb, dtype=float), np.asarray(cons.ub, dtype=float)
    eq = lo == hi
    up, down = ~eq & np.isfinite(hi), ~eq & np.isfinite(lo)
    r = linprog(c, A_ub=np.vstack([a[up], -a[down]]), b_ub=np.r_[hi[up], -lo[down]],
                A_eq=a[eq] if eq.any() else None, b_eq=lo[eq] if eq.any() else None,
                bounds=list(zip(bounds.lb, bounds.ub, strict=False)), method="highs-ds")
    assert r.status == 0
    return float(const - r.fun)


@pytest.mark.parametrize("seed", range(3))
def test_a_tiny_time_limit_gives_the_lp_bound_not_the_ceiling(seed):
    """A small model (it used to skip the LP) under a limit shorter than the MIP's worker
    start-up: the bound is at most the LP's (linprog here) and at least the optimum, far
    below the ceiling of 0.9."""
    inst = random_station(300 + seed, n_sites=3, n_cfg=2, m=6)
    c, const, cons, _, bounds = milp_station.station_model(inst, milp_station.LP_LINES)
    assert len(c) < LP_MIN_VARS
    lp = _linprog_bound(c, const, cons, bounds)
    opt = brute_force(inst)
    assert lp < milp_station.TRIVIAL_BOUND - 0.05          # the case is worth testing
    early, x = lp_bound(c, const, cons, bounds, 0.5)       # the LP alone, half a second
    assert x is not None and early == pytest.approx(lp, abs=1e-6)
    res = solve_milp(inst, 0.6)
    assert opt - 1e-7 <= res.bound <= lp + 1e-6
    assert res.bound < milp_station.TRIVIAL_BOUND - 0.05


def test_a_ceiling_bound_is_said_in_every_text(tmp_path):
    """The best-plan rows (CLI, dock) and the result sentence (Processing, dock) say "no bound
    yet" for a bound at the ceiling, and nothing of the kind for a real bound."""
    ws = write_workspace(hand(), tmp_path / "ws")
    plan = ("c0", "c2")
    rec = best_plan.record_run(ws, "default", list(plan), upper_bound=0.9, seconds=2.0)
    for row in (rec["run"], rec["best"]):
        assert row["bound_note"].startswith("no bound yet") and "about 60 s more" in row["bound_note"]
        text = best_plan.describe(row)
        assert "no bound yet" in text and "gap" not in text.replace("the gap says nothing", "")
        sentence = result_sentence(row)
        assert "no bound yet" in sentence and "proven bound" not in sentence
    rec = best_plan.record_run(ws, "milp", list(plan), upper_bound=HAND_CASES[plan][0], seconds=2.0)
    assert rec["run"]["bound_note"] is None and "no bound yet" not in best_plan.describe(rec["run"])
    assert "proven bound" in result_sentence(rec["run"])


def test_a_type_chosen_beyond_its_need_says_its_own_reason():
    """Land, a plan with one school more than needed: the line names the demand units within
    500 m of the plan's schools and of no existing school (counted here from the raw
    coordinates), not a generic reason."""
    import re

    from cityplanner.plugin.city import load_city
    from cityplanner.plugin.tasks import task_class
    from cityplanner.plugin.tasks.needs import plan_warnings

    inst = task_class("land").build(load_city("kotka"), size="small", seed=1)
    d = inst.data
    t = "school"
    n = int(d["need"].get(t, 0))
    rows = [int(i) for i in np.flatnonzero(inst.candidates["type"].astype(str).to_numpy() == t)]
    seen, pick = set(), []
    for r in rows:   # distinct parcels
        g = int(inst.group[r])
        if g not in seen:
            seen.add(g)
            pick.append(r)
        if len(pick) == n + 1:
            break
    assert len(pick) == n + 1
    uxy = np.asarray(d["units"]["xy"], dtype=float).reshape(-1, 2)
    cxy = np.asarray(d["cand_xy"], dtype=float).reshape(-1, 2)[pick]
    ex = np.asarray(d["existing"].get("education", []), dtype=float).reshape(-1, 2)

    def near(a, b):
        return (np.hypot(*(a[:, None, :] - b[None, :, :]).transpose(2, 0, 1)) <= 500.0).any(axis=1) if len(b) \
            else np.zeros(len(a), dtype=bool)

    alone = int((near(uxy, cxy) & ~near(uxy, ex)).sum())
    lines = [w for w in plan_warnings(inst, [inst.ids[r] for r in pick]) if w.startswith(f"{t}:")]
    assert len(lines) == 1, lines
    if alone:
        m = re.search(r"education within 500 m of (\d+) of (\d+) demand units", lines[0])
        assert m and (int(m.group(1)), int(m.group(2))) == (alone, len(uxy)), lines[0]
    else:
        assert "no access of their own" in lines[0]
    assert "chosen for the access and ecology terms" not in lines[0]
