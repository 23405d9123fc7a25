"""Agent tools that are not plain file work, as verbs of the virtual terminal.

``plan``, ``candidates``, ``diagnose`` and ``help`` come with the sandbox; this module adds
``solve``, which runs a real solver (greedy, ALNS, the MILP) within the terminal's time
limit, writes its plan to outputs/final_plan.json and evaluates it — so a small model can
reach a valid plan in one command and spend its turns on edits.
"""
from __future__ import annotations

import time

from ..sandbox.confine import Jail
from ..sandbox.verbs import VerbError, _options, diagnose_verb, register_verb
from ..sandbox.workspace import PLAN_FILE, load_instance
from ..util.io import atomic_write_json

TOOL_METHODS = ("greedy", "alns", "milp")
DEFAULT_TIME = 3.0   # seconds: a tool call is one step of a turn, not a full solver run
MAX_TIME = 30.0


def solve_verb(jail: Jail, args: list[str], stdin: str) -> str:
    from ..solvers import solve  # heavy (scipy, alns): only when the tool is used

    opts = _options(args, {"--method", "--time-limit"}, set())
    method = opts.get("--method", ["greedy"])[-1]
    if method not in TOOL_METHODS:
        raise VerbError(f"--method must be one of {', '.join(TOOL_METHODS)}, got '{method}'")
    try:
        limit = float(opts.get("--time-limit", [DEFAULT_TIME])[-1])
    except ValueError:
        raise VerbError("--time-limit needs a number of seconds") from None
    # stay inside the terminal's own deadline so one command cannot stall the episode
    left = jail.deadline - time.monotonic() if getattr(jail, "deadline", None) else MAX_TIME
    limit = max(0.2, min(limit, MAX_TIME, left - 0.2))
    res = solve(load_instance(jail.root), method, time_limit=limit, seed=0)
    atomic_write_json(jail.resolve(PLAN_FILE, write=True), {"candidate_ids": res.ids})
    head = f"{method}: {len(res.ids)} candidates written to {PLAN_FILE} ({res.status}, {res.seconds:.1f} s)\n"
    return head + diagnose_verb(jail, [], "")


register_verb("solve", solve_verb, "solve [--method greedy|alns|milp] [--time-limit S] - run a solver, "
                                   f"write its plan to {PLAN_FILE} and evaluate it")
