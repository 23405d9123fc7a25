"""Constraint tools: add a planner instruction to a workspace (priced by a certified re-plan),
list the stored ones, remove one (shared by the ask agent and the MCP server).

The instruction is read by the deterministic rules only (a tool call must not start a second
model); text they cannot read comes back as a failed observation with the forms they know.
"""
from __future__ import annotations

from typing import Any

from ...errors import InputError
from .registry import Tool, ToolContext, ToolFailure, object_schema


def _public(c: dict[str, Any]) -> dict[str, Any]:
    from ...constraints.schema import summary

    return {**{k: v for k, v in c.items() if k != "geometry"}, "summary": summary(c)}


def add_constraint(ctx: ToolContext, a: dict[str, Any]) -> dict[str, Any]:
    from ...constraints.roundtrip import instruct, price_text
    from ...sandbox.workspace import load_instance

    ws = ctx.workspace(a["workspace"])
    try:
        reply = instruct(ws, a["instruction"], load_instance(ws), apply=a.get("apply", True),
                         time_limit=float(a.get("time_limit", 30.0)))
    except InputError as e:
        raise ToolFailure(str(e)) from None
    if reply["clarification"] and not reply["constraints"]:
        raise ToolFailure(reply["clarification"])
    return {"workspace": a["workspace"], "price_text": price_text(reply),
            **{k: reply[k] for k in ("constraints", "source", "clarification", "notes", "before", "after", "price",
                                     "price_pct", "applied", "checks")},
            "candidate_ids": reply["plan"]["candidate_ids"] if reply["plan"] else []}


def list_constraints(ctx: ToolContext, a: dict[str, Any]) -> dict[str, Any]:
    from ...constraints import store

    ws = ctx.workspace(a["workspace"])
    return {"workspace": a["workspace"], "constraints": [_public(c) for c in store.load(ws)]}


def remove_constraint(ctx: ToolContext, a: dict[str, Any]) -> dict[str, Any]:
    from ...constraints import store

    ws = ctx.workspace(a["workspace"])
    try:
        gone = store.remove(ws, a["key"])
    except InputError as e:
        raise ToolFailure(str(e)) from None
    return {"workspace": a["workspace"], "removed": _public(gone),
            "remaining": [c["key"] for c in store.load(ws)]}


def tools(ctx: ToolContext) -> list[Tool]:
    ws = {"type": "string", "minLength": 1, "description": "workspace name under the server's workspace root"}
    return [
        Tool("add_constraint", "Turn a planner's instruction (e.g. 'no station within 300 m of Kansallisteatteri', "
             "'keep 400 m between stations', 'spend at most 80 % of the budget', 'parcel 3 out') into constraints "
             "checked against the data, re-solve to a certified plan and return the instruction's price "
             "(score before − after). Stored in the workspace unless apply is false; ambiguous text returns a "
             "question instead.",
             object_schema({"workspace": ws, "instruction": {"type": "string", "minLength": 1, "maxLength": 500},
                            "apply": {"type": "boolean", "description": "store it (default true)"},
                            "time_limit": {"type": "number", "exclusiveMinimum": 0, "maximum": 120}},
                           ["workspace", "instruction"]), add_constraint),
        Tool("list_constraints", "List the planner instructions stored in a workspace (key, kind, summary, source).",
             object_schema({"workspace": ws}, ["workspace"]), list_constraints),
        Tool("remove_constraint", "Remove one stored planner instruction of a workspace by its key (c1, c2, …).",
             object_schema({"workspace": ws, "key": {"type": "string", "minLength": 1, "maxLength": 10}},
                           ["workspace", "key"]), remove_constraint),
    ]
