"""The planner agent as a solver (``solve(inst, "agent")``), for ``--method agent`` in solve/bench.

A solver gets an instance, not a workspace, so the agent works in a temporary workspace; the
model comes from ``CITYPLANNER_MODEL`` / ``CITYPLANNER_ENDPOINT`` (default: the shipped GGUF).
The solver's time limit, cancel flag and seed are the agent's; its best plan is offered to
the context like any solver's, so the usual re-evaluation labels it.
"""
from __future__ import annotations

import os
import tempfile

from ..sandbox.workspace import write_workspace
from ..solvers.common import Context
from ..tasks.base import Instance
from .backend import make_backend
from .loop import AgentSettings, run_agent


def run(inst: Instance, ctx: Context) -> None:
    settings = AgentSettings(seed=ctx.seed, time_limit=max(1.0, ctx.remaining()),
                             rounds=int(os.environ.get("CITYPLANNER_AGENT_ROUNDS", "3")))
    backend = make_backend(os.environ.get("CITYPLANNER_MODEL"), os.environ.get("CITYPLANNER_ENDPOINT"),
                           seed=ctx.seed)
    with tempfile.TemporaryDirectory(prefix="cityplanner-agent-") as tmp:
        ws = write_workspace(inst, tmp)
        try:
            res = run_agent(backend, ws, settings, cancel=ctx.stopped)
        finally:
            backend.close()
    ctx.offer_plan(inst.mask_of(res["candidate_ids"]))
    ctx.notes.append(f"agent: {res['turns']} turns, {res['rounds']} rounds, parse rate {res['parse_rate']}, "
                     f"tokens {res['tokens']}, fallback {res['fallback_used']}, stop {res['stop_reason']}")
