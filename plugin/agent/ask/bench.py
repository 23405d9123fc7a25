"""``bench --suite ask``: the UrbanEval-style request set (resources/ask/requests.json).

Each item has a category (FR factual retrieval, CR retrieval across independent tools, SD
sequential dependency, CC conditional / combinatorial decision, AI ambiguous or incomplete
intent) and a deterministic checklist: required tools, dependency pairs, expected facts and,
for AI, the missing inputs to ask for. Expected facts are computed from our data when the
bench runs, by calling the tool named in the checklist directly (``{"from": fact}`` nests an
upstream fact, e.g. the nearest clinic's id as a route's destination).

Metrics (all from traces, no judge): TSR — the checklist holds (AI: a clarification naming
every missing input and no tool call; others: an answer, every required tool called
successfully, every expected fact in the answer); MIR — AI items clarified without a tool
call and with every missing input named; TIC — share of required tools called successfully;
IOA — share of dependency pairs whose upstream call succeeded first and whose downstream
call's arguments consume a value of the upstream result; tokens per query and per success.
"""
from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path
from typing import Any

from ... import RESOURCES
from ..tools import Registry, default_registry, dumps
from ...util.io import append_jsonl, atomic_write_json, atomic_write_text

from . import synthesis
from .agent import answer_request

REQUESTS = RESOURCES / "ask" / "requests.json"
CATEGORIES = ("FR", "CR", "SD", "CC", "AI")


def load_items(path: Path = REQUESTS) -> list[dict[str, Any]]:
    return json.loads(Path(path).read_text(encoding="utf-8"))["items"]


def _get(obj: Any, path: str) -> Any:
    for k in path.split("."):
        obj = obj[k]
    return obj


def fact_value(reg: Registry, fact: dict[str, Any]) -> Any:
    """The expected value of one checklist fact, computed by calling its tool on our data."""
    args = {k: fact_value(reg, v["from"]) if isinstance(v, dict) and "from" in v else v
            for k, v in fact["args"].items()}
    obs = reg.call(fact["tool"], args)
    if not obs.ok:
        raise RuntimeError(f"checklist fact cannot be computed: {fact['tool']} {args}: {obs.error}")
    return _get(obs.result, fact["path"])


def fact_in(value: Any, answer: str) -> bool:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return any(synthesis.supported(float(n.replace(",", ".")), {float(value)})
                   for n in synthesis.NUMBER.findall(answer))
    return str(value).casefold() in answer.casefold()


def score_item(item: dict[str, Any], out: dict[str, Any], expected: list[Any]) -> dict[str, Any]:
    calls = out["tool_calls"]
    ok_tools = {c["tool"] for c in calls if c["status"] == "ok"}
    row: dict[str, Any] = {"id": item["id"], "category": item["category"], "tool_calls": len(calls),
                           "tokens": out["tokens"]["total"], "seconds": out["seconds"],
                           "model_calls": out["model_calls"]}
    if item["category"] == "AI":
        text = (out.get("clarification") or "").casefold()
        named = all(m.casefold() in text for m in item["missing"])
        row["mir"] = bool(out.get("clarification")) and not calls and named
        row["success"] = row["mir"]
        return row
    req = item["required_tools"]
    row["tic"] = sum(t in ok_tools for t in req) / len(req) if req else 1.0
    answer = out.get("answer") or ""
    row["facts_found"] = [fact_in(v, answer) for v in expected]
    if item["dependencies"]:
        row["ioa"] = sum(_pair_ok(calls, a, b) for a, b in item["dependencies"]) / len(item["dependencies"])
    row["success"] = bool(answer) and row["tic"] == 1.0 and all(row["facts_found"]) and row.get("ioa", 1.0) == 1.0
    return row


def _pair_ok(calls: list[dict[str, Any]], up: str, down: str) -> bool:
    """The first successful ``up`` call precedes a ``down`` call whose arguments use its result."""
    first = next((i for i, c in enumerate(calls) if c["tool"] == up and c["status"] == "ok"), None)
    if first is None:
        return False
    text = dumps(calls[first]["result"])
    return any(c["tool"] == down and any(isinstance(v, str) and v in text for v in c["params"].values())
               for c in calls[first + 1:])


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def mean(xs: list[float]) -> float | None:
        return round(sum(xs) / len(xs), 3) if xs else None

    ok = [r for r in rows if r["success"]]
    return {
        "n": len(rows), "TSR": mean([float(r["success"]) for r in rows]),
        "TSR_by_category": {c: mean([float(r["success"]) for r in rows if r["category"] == c]) for c in CATEGORIES},
        "MIR": mean([float(r["mir"]) for r in rows if "mir"in r]),
        "TIC": mean([r["tic"] for r in rows if "tic" in r]),
        "TIC_level2": mean([r["tic"] for r in rows if r["category"] in ("SD", "CC")]),
        "IOA": mean([r["ioa"] for r in rows if "ioa" in r]),
        "tool_calls_before_clarification_AI": sum(r["tool_calls"] for r in rows if r["category"] == "AI"),
        "tokens_per_query": mean([r["tokens"] for r in rows]),
        "tokens_per_success": mean([r["tokens"] for r in ok]),
        "seconds_per_query": mean([r["seconds"] for r in rows]),
        "model_calls_per_query": mean([r["model_calls"] for r in rows]),
    }


def table(summary: dict[str, Any], label: str) -> str:
    cats = summary["TSR_by_category"]
    head = "| model | TSR | " + " | ".join(f"TSR {c}" for c in CATEGORIES) + " | MIR | TIC | IOA | tok/query | tok/success |"
    sep = "|" + "---|" * (len(CATEGORIES) + 7)
    row = (f"| {label} | {summary['TSR']} | " + " | ".join(str(cats[c]) for c in CATEGORIES)
           + f" | {summary['MIR']} | {summary['TIC']} | {summary['IOA']} | {summary['tokens_per_query']}"
           f" | {summary['tokens_per_success']} |")
    return "\n".join([head, sep, row]) + "\n"


def run_ask_bench(out_dir: str | Path, model: str | None = None, endpoint: str | None = None, *,
                  backend: Any = None, items: list[dict[str, Any]] | None = None, threads: int | None = None,
                  max_tokens: int = 160) -> dict[str, Any]:
    """Run every request, write results.json, traces.jsonl and table.md to ``out_dir``; return the summary."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    items = load_items() if items is None else items
    own = None
    if backend is None:
        from ..backend import make_backend

        backend = own = make_backend(model, endpoint, threads=threads)
    rows = []
    try:
        with tempfile.TemporaryDirectory(prefix="cityplanner-askbench-") as tmp:
            reg = default_registry(tmp)
            for item in items:
                expected = [fact_value(reg, f) for f in item["facts"]]
                t0 = time.perf_counter()
                out = answer_request(item["request"], reg, backend, max_tokens=max_tokens)
                row = score_item(item, out, expected)
                row["wall_s"] = round(time.perf_counter() - t0, 2)
                rows.append(row)
                append_jsonl(out_dir / "traces.jsonl", {"item": item["id"], "row": row, **out})
    finally:
        if own is not None:
            own.close()
    label = endpoint or (Path(model).name if model not in (None, "", "default") else "SmolLM2-135M (default)")
    summary = {"model": label, **summarize(rows)}
    atomic_write_json(out_dir / "results.json", {"summary": summary, "rows": rows})
    atomic_write_text(out_dir / "table.md", table(summary, label))
    return summary
