"""One instruction round trip: interpret → certified re-plan → the instruction's price.

"before" is the certified plan under the constraints already stored (remembered in the
workspace, so usually free); "after" adds the new ones and re-solves with the task MILP to a
certified optimum (or the best plan and bound found within the time limit). The price is
before − after on the task's ORIGINAL score S — an emphasis changes what is optimised, not
how the price is measured; upper_bound and gap are those of the optimised objective.

Before anything is stored, every constraint in force is checked on the after-plan by
``verify`` (its own reading of each constraint's meaning): a plan that breaks one is answered
with a clarification naming it and is never applied; ``checks`` in the reply lists each result.
"""
from __future__ import annotations

import copy
import hashlib
import json
import os
import threading
import time
from collections import OrderedDict
from typing import Any

from ..solvers import solve
from ..tasks.base import Instance
from . import store, verify
from .compile import compile_constraints
from .constrained import constrain
from .interpret import interpret
from .schema import summary

#: certified results by content (instance export, constraints, time limit): a proven optimum of the
#: same MILP is the same plan (HiGHS is deterministic and the greedy warm start is not time-boxed), so
#: asking again — each new instruction re-solves the plan "before" it, a fresh workspace has none
#: remembered — is answered at once. Only "optimal" results are kept: a run cut at its time limit
#: depends on the machine's load. At most CERTIFIED_MAX entries (a result is a few kB).
CERTIFIED_MAX = 64
_certified: OrderedDict[str, dict[str, Any]] = OrderedDict()
_certified_lock = threading.Lock()


def _certified_key(inst: Instance, constraints: list[dict[str, Any]], time_limit: float) -> str:
    """Everything that determines the MILP's result: the complete instance (``to_export``, whose
    ``from_export`` scores identically; the id alone does not name the budget), the constraints
    without their store keys, and the time limit. ~10 ms for a small instance."""
    body = json.dumps([inst.to_export(), [{k: v for k, v in c.items() if k != "key"} for c in constraints],
                       float(time_limit)], sort_keys=True, default=str)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def certified_plan(inst: Instance, constraints: list[dict[str, Any]], time_limit: float) -> dict[str, Any]:
    """The MILP's plan of ``inst`` under ``constraints``: valid, score (S), bound, gap, ids (a proven
    optimum solved before in this process is reused: ``_certified``)."""
    if getattr(inst, "compiled", None) is not None:   # already constrained: its export omits the rows
        return _solve_certified(inst, constraints, time_limit)
    key = _certified_key(inst, constraints, time_limit)
    with _certified_lock:
        hit = _certified.get(key)
        if hit is not None:
            _certified.move_to_end(key)
            return copy.deepcopy(hit)
    out = _solve_certified(inst, constraints, time_limit)
    if out["status"] == "optimal":
        with _certified_lock:
            _certified[key] = copy.deepcopy(out)
            while len(_certified) > CERTIFIED_MAX:
                _certified.popitem(last=False)
    return out


def _solve_certified(inst: Instance, constraints: list[dict[str, Any]], time_limit: float) -> dict[str, Any]:
    ci = constrain(inst, compile_constraints(inst, constraints))
    res = solve(ci, "milp", time_limit=time_limit)
    score = round(float(inst.score_mask(res.mask)[0]), 6)
    out = {"valid": bool(res.valid), "score": score if res.valid else None, "upper_bound": res.upper_bound,
           "gap": res.gap, "status": res.status, "ids": res.ids, "seconds": res.seconds,
           "errors": res.errors[:5]}
    if ci is not inst and len(ci.compiled.emphasis):
        out["objective"] = round(float(ci.score_mask(res.mask)[0]), 6)
    return out


def before_plan(ws: str | os.PathLike, inst: Instance, stored: list[dict[str, Any]], time_limit: float) -> dict[str, Any]:
    got = store.certified(ws, inst, stored)
    if got is None:
        got = certified_plan(inst, stored, time_limit)
        if got["status"] == "optimal":
            store.remember(ws, inst, stored, got)
    return got


def instruct(ws: str | os.PathLike, text: str, inst: Instance, backend=None, model_source: str = "model",
             apply: bool = False, time_limit: float = 30.0, selection: str | None = None) -> dict[str, Any]:
    """The ``instruct`` reply (README: the JSON of ``python -m plugin instruct``); ``selection``:
    the WKT of the features selected on the map (instance CRS), for "inside the selection"."""
    t0 = time.perf_counter()
    it = interpret(text, inst, backend, model_source, selection=selection)
    reply: dict[str, Any] = {"constraints": [], "source": {}, "clarification": it.clarification, "notes": it.notes,
                             "before": None, "after": None, "price": None, "price_pct": None, "plan": None,
                             "applied": False, "certified": False, "checks": []}
    if it.clarification:
        reply["seconds"] = round(time.perf_counter() - t0, 3)
        return reply
    stored = store.load(ws)
    before = before_plan(ws, inst, stored, time_limit)
    after = certified_plan(inst, stored + it.constraints, time_limit)
    new = it.constraints
    # every constraint in force, checked on the after-plan from its meaning (not the compiler's rows)
    checks = verify.check(inst, after["ids"], stored + it.constraints, before["ids"]) if after["valid"] else []
    bad = verify.broken(checks)
    reply["checks"] = checks
    if not after["valid"]:
        reply["clarification"] = ("this instruction cannot be met together with the stored ones "
                                  f"({', '.join(c['key'] for c in stored) or 'none'}): no valid plan exists"
                                  if after["status"] in ("optimal", "infeasible") else
                                  f"no valid plan found within {time_limit:g} s; try a longer --time-limit")
    elif bad:   # never reported applied (nor stored) while the plan breaks what was said
        reply["clarification"] = ("the re-planned layout breaks " + "; ".join(f"{r['summary']} ({r['detail']})"
                                                                              for r in bad) + ": not applied")
    elif apply:
        from ..sandbox import best_plan

        new = store.add(ws, it.constraints)
        if after["status"] == "optimal":
            store.remember(ws, inst, stored + new, after)
        # the workspace's best plan is re-judged under the constraints now in force
        best_plan.record_run(ws, "instruct", after["ids"], status=after["status"],
                             # a bound on an emphasised objective is no bound on S
                             upper_bound=None if "objective" in after else after["upper_bound"],
                             # the set "after" was solved under: a set changed meanwhile files the bound apart
                             seconds=after["seconds"], inst=constrain(inst, compile_constraints(inst, stored + new)))
        reply["applied"] = True
    names = [c.get("key", str(k + 1)) for k, c in enumerate(new)]
    reply["constraints"] = [{**{k: v for k, v in c.items() if k != "geometry"}, "summary": summary(c)} for c in new]
    reply["source"] = dict(zip(names, it.sources, strict=False))
    # what each instruction refers to, for the map: the place (WKT, instance CRS) and its distance
    reply["places"] = [{"key": name, "target": (c.get("target") or {}).get("name") or (c.get("target") or {}).get("id"),
                        "wkt": c["geometry"], "distance_m": c.get("distance_m")}
                       for name, c in zip(names, new, strict=False) if c.get("geometry")]
    reply["before"] = {"valid": before["valid"], "score": before["score"]}
    reply["after"] = {k: after.get(k) for k in ("valid", "score", "upper_bound", "gap", "status", "objective", "errors")
                      if k in after}
    # both plans proven optimal: the price is exact (else it is the difference of the best plans found)
    reply["certified"] = before["status"] == "optimal" and after["status"] == "optimal" and not bad
    # an emphasis is checked after solving: a term that did not move is said, not priced as if it had
    reply["notes"] = list(reply["notes"] or []) + [
        f"emphasis did not move its term ({r['detail']}): the plan is no better on it than before"
        for r in checks[len(stored):] if r["status"] == "unmoved"]   # the new ones: a stored emphasis moved before
    if before["score"] is not None and after["score"] is not None:
        price = round(before["score"] - after["score"], 6)
        reply["price"] = price
        reply["price_pct"] = round(100.0 * price / abs(before["score"]), 2) if before["score"] else None
    old, now = set(before["ids"]), set(after["ids"])
    reply["plan"] = {"candidate_ids": after["ids"], "before_ids": before["ids"], "added": sorted(now - old),
                     "removed": sorted(old - now)}
    reply["seconds"] = round(time.perf_counter() - t0, 3)
    return reply


def price_text(reply: dict[str, Any]) -> str:
    """"this instruction costs 0.012 score (3.2 %)" — what the dock and the tools say."""
    if reply.get("clarification"):
        return reply["clarification"]
    p, pct = reply.get("price"), reply.get("price_pct")
    if p is None:
        return "no price: the plan before or after is not valid"
    if abs(p) < 5e-7:
        return "this instruction costs nothing: the best plan already meets it"
    word = "costs" if p > 0 else "gains"
    text = f"this instruction {word} {abs(p):.3f} score ({abs(pct):.1f} %)" if pct is not None else \
        f"this instruction {word} {abs(p):.3f} score"
    return text if reply.get("certified", True) else text + " (not certified: a MILP hit its time limit)"
