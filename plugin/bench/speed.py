"""Evaluator speed: full evaluation (ms) and incremental moves (µs) per task, medium size.

For each task the quick suite's medium instance is built and the greedy solver's plan is
thinned to every other selected candidate (a realistic plan with room for additions, so every
move type exists). Timed, each as the median of ``repeats`` rounds:

* ``score_ms``: ``inst.score_mask`` (S and its components) of that plan;
* ``evaluate_ms``: ``inst.evaluate`` (the evaluator JSON, with diagnostics and per-candidate
  contributions) of that plan;
* ``gain_add_us`` / ``gain_remove_us`` / ``gain_swap_us``: one incremental gain of a random
  allowed move (what search calls hundreds of thousands of times);
* ``apply_us``: applying one add then its remove (a state change and back).

Times are process CPU time (``time.process_time``), not wall time: the figures describe the
code, not how busy the machine was. Issue targets: full evaluation ≤ 5 ms, incremental move ≤ 200 µs (≥ 5,000 moves/s/core).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ..solvers import solve
from ..solvers.common import addable, removable, swappable_in
from ..tasks import TASKS
from .suites import SuiteItem, build_item, suite


def _per_call(fn: Callable[[], Any], calls: int, repeats: int) -> float:
    """Median CPU seconds per call over ``repeats`` rounds of ``calls`` calls (process CPU
    time, so other jobs on a shared machine do not inflate the figures)."""
    times = []
    for _ in range(repeats):
        t0 = time.process_time()
        for _ in range(calls):
            fn()
        times.append((time.process_time() - t0) / calls)
    return float(np.median(times))


def measure(item: SuiteItem, moves: int = 300, repeats: int = 5, seed: int = 0) -> dict[str, Any]:
    """Speed figures of one suite item's instance (see the module docstring)."""
    inst = build_item(item)
    plan = solve(inst, "greedy", time_limit=30).mask
    plan[np.flatnonzero(plan)[1::2]] = False   # a subset of a valid plan stays valid
    st = inst.state(plan)
    rng = np.random.default_rng(seed)
    adds = addable(st)
    rems = removable(st)
    swaps = [(int(o), int(rng.choice(c))) for o in rems if len(c := swappable_in(st, int(o)))]
    row: dict[str, Any] = {"task": inst.task, "size": item.size, "instance": item.name, "n": inst.n,
                           "selected": int(plan.sum())}
    row["score_ms"] = 1e3 * _per_call(lambda: inst.score_mask(plan), 20, repeats)
    ids = inst.ids_of(plan)
    row["evaluate_ms"] = 1e3 * _per_call(lambda: inst.evaluate(ids), 5, repeats)

    def cycle(items: list, fn: Callable) -> float | None:
        if not len(items):
            return None
        k = iter(range(10**9))
        return 1e6 * _per_call(lambda: fn(items[next(k) % len(items)]), moves, repeats)

    row["gain_add_us"] = cycle(list(adds), lambda i: st.gain_add(int(i)))
    row["gain_remove_us"] = cycle(list(rems), lambda i: st.gain_remove(int(i)))
    row["gain_swap_us"] = cycle(swaps, lambda p: st.gain_swap(*p))

    def apply(i: int) -> None:
        st.add(i)
        st.remove(i)

    row["apply_us"] = cycle([int(i) for i in adds], apply)
    return {k: round(v, 3) if isinstance(v, float) else v for k, v in row.items()}


def speed_table(size: str = "medium") -> list[dict[str, Any]]:
    items = {it.task: it for it in suite("quick") if it.size == size}
    return [measure(items[t]) for t in TASKS if t in items]


def speed_markdown(rows: list[dict[str, Any]]) -> str:
    cols = ["task", "size", "n", "selected", "score_ms", "evaluate_ms", "gain_add_us", "gain_remove_us",
            "gain_swap_us", "apply_us"]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in rows:
        lines.append("| " + " | ".join("–" if r.get(c) is None else str(r[c]) for c in cols) + " |")
    return "\n".join(lines) + "\n"
