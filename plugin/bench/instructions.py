"""``bench --suite instructions``: instruction → constraint accuracy on the held-out items.

Items come from ``resources/heldout/instructions_<split>.json`` (written before tuning by an
independent author; ``test`` by default, ``dev`` for development). Each item is read against
the small instance (seed 0) of its region and task by five readers: the rules only, the rules
with the raw model for the rest (the shipped default), the raw model only, the trained
adapter only, and the rules with the trained model for the rest.

* **exact match**: the constraints equal the expected ones in canonical form (below), or both
  ask for clarification. Canonical form: ``exclude_near`` = ``count_max`` 0 within the
  distance, ``outside_area`` = ``count_max`` 0 inside the area, ``require_near`` =
  ``count_min``; target by id (its number), data name (case-folded) or category; distance to
  1 m, share to 0.005; a type the item's note names as an alternative (``green_s or green_l``)
  is accepted.
* **execution accuracy**: both constraint sets compiled against the instance: identical rows
  (same feasible set and objective), or the MILP plan under the predicted constraints is valid
  under the expected ones and as good for them as their own certified optimum. An expected
  constraint that does not apply to the instance (a site id the small instance lacks) falls
  back to exact match; a clarification is right only where one is expected.
"""
from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from .. import RESOURCES
from ..city import lexicon
from ..errors import InputError
from ..util.io import atomic_write_json, atomic_write_text
from .halves import INSTRUCTION_SPLITS

READERS = ("rules", "rules + raw model", "raw model", "trained adapter", "rules + trained")
TIME_LIMIT = 30.0


SPLITS = INSTRUCTION_SPLITS


def load_items(split: str) -> list[dict[str, Any]]:
    """The split's items; an expected constraint's ``road_kind`` (the third test half's way of
    saying which road links it means, resources/heldout/README.md) becomes the ``type`` the
    constraint language gives a road kind (resources/lexicon/tasks.json ``road_kinds``)."""
    if split not in SPLITS:
        raise InputError(f"unknown split '{split}' ({' | '.join(SPLITS)})")
    path = RESOURCES / "heldout" / f"instructions_{split}.json"
    items = json.loads(path.read_text(encoding="utf-8"))["items"]
    kinds = lexicon.load("tasks")["road_kinds"]
    for item in items:
        for c in item["expect"] if isinstance(item["expect"], list) else ():
            if c.get("road_kind") in kinds:
                c["type"] = kinds[c.pop("road_kind")]["data_kind"]
            # "hospital: hospital_s or hospital_l accepted", said of the whole item: only a note that names
            # types this way stands for the item's typed constraints (another note may hold any word)
            if c.get("type") and not c.get("note") and re.search(r"\b[a-z]+_[ls]\b", str(item.get("note") or "")):
                c["note"] = item["note"]
    return items


# ---------------------------------------------------------------------- canonical form
def canonical(c: dict[str, Any]) -> tuple:
    kind, count, dist, area = c["kind"], c.get("count"), c.get("distance_m"), bool(c.get("area"))
    if kind == "exclude_near":
        kind, count = "count_max", 0
    elif kind == "outside_area":
        kind, count, area = "count_max", 0, True
    elif kind == "require_near":
        kind, count = "count_min", count or 1
    t = c.get("target") or {}
    if t.get("id"):
        target = ("id", str(int(re.sub(r"\D", "", str(t["id"])) or -1)))
    elif t.get("name"):
        target = ("name", str(t["name"]).strip().casefold())
    elif t.get("category"):
        target = ("category", str(t["category"]))
    else:
        target = None
    share = c.get("share")
    return (kind, target, None if dist is None else round(float(dist)), count if count is None else int(count),
            None if share is None else round(float(share) * 200) / 200, c.get("type"), c.get("term"), area)


def _types_ok(pred: str | None, exp: dict[str, Any]) -> set:
    ok = {exp.get("type")}
    ok |= set(re.findall(r"\b[a-z]+_[ls]\b|\b[a-z]+\b", str(exp.get("note") or ""))) if exp.get("type") else set()
    return ok


def exact(pred: list[dict] | None, expect: Any) -> bool:
    if isinstance(expect, dict):           # a clarification is expected
        return pred is None
    if pred is None or len(pred) != len(expect):
        return False
    left = list(expect)
    for p in pred:
        cp = canonical(p)
        hit = next((k for k, e in enumerate(left) if canonical(e)[:5] + canonical(e)[6:] == cp[:5] + cp[6:]
                    and cp[5] in _types_ok(cp[5], e)), None)
        if hit is None:
            return False
        left.pop(hit)
    return True


# ---------------------------------------------------------------------- execution
def _signature(compiled) -> tuple:
    A = compiled.A.tocsr()
    rows = sorted((tuple(A.indices[A.indptr[r]:A.indptr[r + 1]].tolist()),
                   tuple(np.round(A.data[A.indptr[r]:A.indptr[r + 1]], 6).tolist()), compiled.lo[r], compiled.hi[r])
                  for r in range(A.shape[0]))
    return tuple(rows), tuple(np.round(compiled.emphasis, 9).tolist())


def executes(pred: list[dict] | None, expect: Any, inst, text: str, cache: dict) -> bool:
    from ..constraints.compile import compile_constraints
    from ..constraints.constrained import constrain
    from ..constraints.interpret import finish
    from ..constraints.resolve import Clarify
    from ..constraints.roundtrip import certified_plan

    if isinstance(expect, dict) or pred is None:
        return isinstance(expect, dict) and pred is None
    if "expected" not in cache:
        try:
            cons = [finish({k: v for k, v in e.items() if k not in ("note", "scope")}, inst, text, "manual")
                    for e in expect]
            cache["expected"] = (cons, compile_constraints(inst, cons))
        except (Clarify, InputError):
            cache["expected"] = None
    if cache["expected"] is None:
        return exact(pred, expect)
    cons, comp = cache["expected"]
    try:
        mine = compile_constraints(inst, pred)
    except InputError:
        return False
    if _signature(mine) == _signature(comp):
        return True
    if "plan" not in cache:
        cache["plan"] = certified_plan(inst, cons, TIME_LIMIT)
    ref = cache["plan"]
    got = certified_plan(inst, pred, TIME_LIMIT)
    judge = constrain(inst, comp)
    if not ref["valid"]:                   # the expected constraints cannot be met: so must the prediction
        return not got["valid"]
    if not got["valid"]:
        return False
    mask = inst.mask_of(got["ids"])
    return not judge.hard_errors(mask) and judge.score_mask(mask)[0] >= judge.score_mask(inst.mask_of(ref["ids"]))[0] - 1e-6


# ---------------------------------------------------------------------- run
def run_instructions_bench(out: str | Path, split: str = "test", model: str | None = None,
                           endpoint: str | None = None, lora: str | None = None,
                           readers: tuple[str, ...] = READERS, limit: int | None = None) -> dict[str, Any]:
    """Read the split's items (the first ``limit`` when given) with each of ``readers`` (names from
    ``READERS``); the trained readers need ``lora``. Writes OUT/instructions.json and .md after
    each reader and returns the summary rows."""
    from ..agent.backend import make_backend
    from ..city import load_city
    from ..constraints.interpret import interpret
    from ..tasks import task_class

    out = Path(out)
    unknown = [r for r in readers if r not in READERS]
    if unknown or not readers:
        raise InputError(f"unknown reader(s) {', '.join(map(repr, unknown)) or '(none given)'} "
                         f"(readers: {', '.join(READERS)})")
    if limit is not None and limit < 1:
        raise InputError(f"--limit must be at least 1, got {limit}")
    items = load_items(split)[:limit]
    if lora and not Path(lora).is_file():
        raise InputError(f"adapter not found: {lora}")
    insts: dict[tuple[str, str], Any] = {}
    backends: dict[str, Any] = {}
    rows, notes = [], []

    def backend(kind: str):
        if kind not in backends:
            backends[kind] = make_backend(model, endpoint, lora=lora if kind == "trained" else None)
        return backends[kind]

    caches: dict[str, dict] = {}
    result: dict[str, Any] = {}
    try:
        for reader in readers:
            if "trained" in reader and not lora:
                notes.append(f"{reader}: not run (no adapter: pass --lora ADAPTER.gguf from train --task instructions)")
                continue
            for k, it in enumerate(items):
                key = (it["region"], it["task"])
                if key not in insts:
                    insts[key] = task_class(it["task"]).build(load_city(it["region"]), "small", seed=0)
                inst = insts[key]
                t0 = time.perf_counter()
                b = None if reader == "rules" else backend("trained" if "trained" in reader else "raw")
                got = interpret(it["text"], inst, b, "endpoint" if endpoint else "model", rules="rules" in reader)
                secs = time.perf_counter() - t0
                pred = None if got.clarification else got.constraints
                rows.append({"reader": reader, "id": it["id"], "task": it["task"], "family": it.get("family"),
                             "text": it["text"], "exact": exact(pred, it["expect"]),
                             "execution": executes(pred, it["expect"], inst, it["text"], caches.setdefault(it["id"], {})),
                             "clarification": got.clarification, "sources": got.sources, "seconds": round(secs, 3),
                             "constraints": [{k2: v for k2, v in c.items() if k2 not in ("geometry", "text")}
                                             for c in pred or []]})
                print(f"{reader} {k + 1}/{len(items)} {it['id']} exact={rows[-1]['exact']} "
                      f"execution={rows[-1]['execution']} {secs:.1f}s", file=sys.stderr, flush=True)
            result = _write(out, split, items, rows, readers, notes)   # after each reader: partial results survive
    finally:
        for b in backends.values():
            b.close()
    return result or _write(out, split, items, rows, readers, notes)


def _write(out: Path, split: str, items: list, rows: list, readers: tuple[str, ...], notes: list[str]) -> dict[str, Any]:
    table = summary(rows, readers, split, notes)
    atomic_write_json(out / "instructions.json", {"split": split, "items": len(items), "rows": rows, "notes": notes,
                                                 "summary": table["rows"]})
    atomic_write_text(out / "instructions.md", table["markdown"])
    return {"split": split, "items": len(items), "summary": table["rows"], "notes": notes,
            "files": [str(out / "instructions.json"), str(out / "instructions.md")]}


def summary(rows: list[dict], readers: tuple[str, ...], split: str, notes: list[str]) -> dict[str, Any]:
    out = []
    for reader in readers:
        rs = [r for r in rows if r["reader"] == reader]
        if rs:
            out.append({"reader": reader, "items": len(rs),
                        "exact_pct": round(100.0 * sum(r["exact"] for r in rs) / len(rs), 1),
                        "execution_pct": round(100.0 * sum(r["execution"] for r in rs) / len(rs), 1),
                        "mean_s": round(sum(r["seconds"] for r in rs) / len(rs), 3)})
    md = [f"Instruction reading on the held-out `{split}` items (resources/heldout/instructions_{split}.json)", "",
          "| reader | items | exact match % | execution accuracy % | mean s / item |", "|---|---|---|---|---|"]
    md += [f"| {s['reader']} | {s['items']} | {s['exact_pct']:.1f} | {s['execution_pct']:.1f} | {s['mean_s']:.2f} |"
           for s in out]
    md += [""] + [f"- {n}" for n in notes]
    return {"rows": out, "markdown": "\n".join(md) + "\n"}
