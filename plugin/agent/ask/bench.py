"""``bench --suite ask``: the held-out planner requests (resources/heldout/ask_test.json,
written apart from the parser and judged by ``judge``: success per category and family, answers
that contradict a tool result, seconds per request) and, as a regression set, the
UrbanEval-style request set (resources/ask/requests.json).

Held-out items carry the region the planner works in (the Planner dock's region) or null;
the agent gets it as its session region.

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
from ...bench.halves import ASK_RETIRED
from ...util.io import append_jsonl, atomic_write_json, atomic_write_text
from ..tools import Registry, default_registry, dumps
from . import synthesis
from .agent import answer_request

REQUESTS = RESOURCES / "ask" / "requests.json"
HELDOUT = RESOURCES / "heldout"
TUNING = RESOURCES / "ask" / "tuning.json"
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




def load_heldout(split: str = "test") -> list[dict[str, Any]]:
    """A held-out half (``dev`` / ``test``), ``v1`` (the first test half, retired after its one
    held-out run and now a dev set: resources/heldout/README.md), ``v3`` (the third test half,
    retired likewise after its one run: ``ask_v3_test.json``), ``v4`` … (the later halves retired likewise:
    ``bench.halves.ASK_RETIRED``), or ``tuning``: the parser tuner's
    own requests in the same format (resources/ask/tuning.json; a regression set, not held out)."""
    path = TUNING if split == "tuning" else HELDOUT / ASK_RETIRED.get(split, f"ask_{split}.json")
    return json.loads(path.read_text(encoding="utf-8"))["items"]


def heldout_summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    import statistics

    def rate(rs: list[dict[str, Any]]) -> float | None:
        return round(sum(r["success"] for r in rs) / len(rs), 3) if rs else None

    fams = sorted({r["family"] for r in rows})
    return {"n": len(rows), "success": rate(rows),
            "by_category": {c: {"n": sum(r["category"] == c for r in rows),
                                "success": rate([r for r in rows if r["category"] == c])} for c in CATEGORIES},
            "by_family": {f: {"n": sum(r["family"] == f for r in rows),
                              "success": rate([r for r in rows if r["family"] == f])} for f in fams},
            "answers_contradicting_tools": sum(bool(r["contradictions"]) for r in rows),
            "median_seconds": round(statistics.median(r["seconds"] for r in rows), 2) if rows else None,
            "max_seconds": round(max(r["seconds"] for r in rows), 2) if rows else None}


def heldout_table(summary: dict[str, Any], label: str, split: str) -> str:
    lines = [f"Held-out ask_{split}.json, {label}: success {summary['success']} over {summary['n']} requests; "
             f"answers contradicting a tool result: {summary['answers_contradicting_tools']}; "
             f"median {summary['median_seconds']} s per request (max {summary['max_seconds']} s)", "",
             "| category | n | success |", "|---|---|---|"]
    lines += [f"| {c} | {v['n']} | {v['success']} |" for c, v in summary["by_category"].items()]
    lines += ["", "| family | n | success |", "|---|---|---|"]
    lines += [f"| {f} | {v['n']} | {v['success']} |" for f, v in summary["by_family"].items()]
    return "\n".join(lines) + "\n"


def run_heldout(reg: Registry, backend: Any, items: list[dict[str, Any]], out_dir: Path,
                max_tokens: int = 160) -> list[dict[str, Any]]:
    """Answer and judge every held-out item; traces (request, reply, judgement) to traces_heldout.jsonl."""
    from .judge import judge

    rows = []
    for item in items:
        t0 = time.perf_counter()
        out = answer_request(item["request"], reg, backend, item.get("region"), max_tokens=max_tokens)
        seconds = time.perf_counter() - t0
        out["workspace_root"] = str(reg.ctx.root)
        verdict = judge(item, out)
        row = {"id": item["id"], "category": item["category"], "family": item["family"],
               "seconds": round(seconds, 2), "model_calls": out["model_calls"], **verdict}
        rows.append(row)
        append_jsonl(out_dir / "traces_heldout.jsonl", {"item": item, "row": row,
                                                         "reply": out.get("answer") or out.get("clarification"),
                                                         **{k: out[k] for k in ("task", "tool_calls", "trace")}})
    return rows


def run_ask_bench(out_dir: str | Path, model: str | None = None, endpoint: str | None = None, *,
                  backend: Any = None, items: list[dict[str, Any]] | None = None, threads: int | None = None,
                  max_tokens: int = 160, split: str | None = "test") -> dict[str, Any]:
    """Write results.json, traces and table.md to ``out_dir``; return the summary.

    With ``items`` (request-set items) only those run, scored by their checklists. Without,
    the held-out ``split`` (test by default; None skips it) runs under the judge, then the
    whole request set as the regression set."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    regression = load_items() if items is None else items
    own = None
    if backend is None:
        from ..backend import make_backend

        backend = own = make_backend(model, endpoint, threads=threads)
    rows: list[dict[str, Any]] = []
    held: list[dict[str, Any]] = []
    try:
        with tempfile.TemporaryDirectory(prefix="cityplanner-askbench-") as tmp:
            reg = default_registry(tmp)
            if items is None and split:
                held = run_heldout(reg, backend, load_heldout(split), out_dir, max_tokens)
            for item in regression:
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
    if own is None:   # the caller's backend: say which
        label = getattr(backend, "label", type(backend).__name__)
    summary = {"model": label, **summarize(rows)}
    text = table(summary, label)
    if held:
        summary = {"model": label, "heldout": {"split": split, **heldout_summary(held)}, "regression": summary}
        text = heldout_table(summary["heldout"], label, split) + "\nRegression (resources/ask/requests.json):\n\n" + text
    atomic_write_json(out_dir / "results.json", {"summary": summary, "rows": rows, "heldout_rows": held})
    atomic_write_text(out_dir / "table.md", text)
    return summary
