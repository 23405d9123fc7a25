"""Agent tools that are not plain file work, as verbs of the virtual terminal.

``plan``, ``candidates``, ``diagnose`` and ``help`` come with the sandbox; this module adds
``solve``, which runs a real solver (greedy, ALNS, the MILP) within the terminal's time
limit, writes its plan to outputs/final_plan.json and evaluates it — so a small model can
reach a valid plan in one command and spend its turns on edits — and ``constrain``, with which
the agent proposes constraints in the planner's language (text read by the same rules,
resolver and checks as ``instruct``, or one constraint as JSON). ``solve`` optimises under the
planner's instructions plus these proposals; plans are judged under the planner's instructions
alone, and the verb can list but never change those (``plugin.constraints.store``).
"""
from __future__ import annotations

import json
import time

from ..constraints import store
from ..errors import InputError
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
    # the planner's instructions and the agent's proposals both hold for the solver's plan
    res = solve(store.steered(load_instance(jail.root), jail.root), method, time_limit=limit, seed=0)
    atomic_write_json(jail.resolve(PLAN_FILE, write=True), {"candidate_ids": res.ids})
    head = f"{method}: {len(res.ids)} candidates written to {PLAN_FILE} ({res.status}, {res.seconds:.1f} s)\n"
    return head + diagnose_verb(jail, [], "")


def constrain_verb(jail: Jail, args: list[str], stdin: str) -> str:
    from ..constraints.interpret import finish, interpret
    from ..constraints.resolve import Clarify
    from ..constraints.schema import summary

    action, rest = (args[0], args[1:]) if args else ("", [])
    if action == "list":
        rows = [f"{c['key']} (planner, fixed): {summary(c)}" for c in store.load(jail.root)]
        rows += [f"{c['key']} (proposed): {summary(c)}" for c in store.load(jail.root, store.PROPOSED)]
        return "\n".join(rows or ["no constraints"]) + "\n"
    if action == "remove" and len(rest) == 1:
        if not rest[0].startswith("p"):
            raise VerbError("only proposals (p1, p2, …) can be removed here; the planner's instructions are fixed")
        try:
            gone = store.remove(jail.root, rest[0], store.PROPOSED)
        except InputError as e:
            raise VerbError(str(e)) from None
        return f"removed {gone['key']}: {summary(gone)}\n"
    if action == "clear":
        return f"removed {store.clear(jail.root, store.PROPOSED)} proposals\n"
    text = " ".join(rest).strip() or stdin.strip()
    if action != "add" or not text:
        raise VerbError("usage: constrain add TEXT | add '{JSON}' | list | remove pN | clear")
    inst = load_instance(jail.root)
    if text.startswith("{"):     # one constraint as data, checked like the model reader's answers
        try:
            found = [finish(json.loads(text), inst, text, "model")]
        except (ValueError, TypeError, AttributeError) as e:
            raise VerbError(f"not a constraint object ({type(e).__name__}: {str(e)[:120]})") from None
        except Clarify as e:
            raise VerbError(str(e)) from None
    else:
        it = interpret(text, inst)   # the rules and the resolver of `instruct`, no model
        if it.clarification:
            raise VerbError(it.clarification)
        found = it.constraints
    new = store.add(jail.root, found, store.PROPOSED)
    return "".join(f"proposed {c['key']}: {summary(c)}" + (f" ({c['note']})" if c.get("note") else "") + "\n"
                   for c in new) + "`solve` now optimises with it; the plan is still judged by the planner's instructions\n"


register_verb("solve", solve_verb, "solve [--method greedy|alns|milp] [--time-limit S] - run a solver, "
                                   f"write its plan to {PLAN_FILE} and evaluate it")
register_verb("constrain", constrain_verb, "constrain add TEXT | list | remove pN | clear - propose a constraint "
                                           "('keep 400 m between stations', 'site 3 in') that `solve` then honours")
