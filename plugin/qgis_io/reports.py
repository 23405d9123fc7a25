"""Small HTML reports (the Solve algorithm's REPORT and the demo's report.html)."""
from __future__ import annotations

import html
from typing import Any, Iterable, Sequence


def fmt(v: Any) -> str:
    if v is None:
        return "–"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:.4f}"
    return str(v)


def table(rows: Iterable[dict[str, Any]], columns: Sequence[str]) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(fmt(r.get(c)))}</td>" for c in columns) + "</tr>"
                   for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def page(title: str, body: str) -> str:
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>" + html.escape(title) + "</title>"
            "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
            "td,th{border:1px solid #bbb;padding:3px 8px;text-align:right}th{background:#eee}"
            "img{max-width:48%;border:1px solid #ccc;margin:4px}</style></head><body>"
            f"<h1>{html.escape(title)}</h1>{body}</body></html>\n")


def solve_report(task: str, instance_id: str, result: dict[str, Any], metrics: dict[str, float],
                 notes: Sequence[str], *, sentence: str = "", sites: dict[str, str] | None = None,
                 map_png: str | None = None) -> str:
    """The Solve algorithm's HTML, in the dock's words: the result sentence (units, the gap as a
    rounded %), the score term by term, the map, the selected sites by street, the notes."""
    from ..util.words import score as fmt_score
    from .legends import explain_score, score_terms

    words = explain_score(task, metrics, result.get("score"))
    body = (f"<p>Task <b>{html.escape(task)}</b>, instance <code>{html.escape(instance_id)}</code></p>"
            + (f"<p>{html.escape(sentence)}</p>" if sentence else "")
            + (f"<p>{html.escape(words)}</p>" if words else ""))
    if map_png:
        body += f"<img src='{html.escape(map_png)}' alt='the plan over blocks and roads'>"
    terms = [{**t, "weight": f"{t['weight']:+g}", "value": fmt_score(t["value"]),
              "contribution": fmt_score(t["contribution"])} for t in score_terms(task, metrics)]
    if terms:
        body += "<h2>Score terms</h2>" + table(terms, ("term", "weight", "value", "contribution"))
    if sites:
        by_street: dict[str, list[str]] = {}
        for sid, street in sites.items():
            by_street.setdefault(street or "(no named street near)", []).append(sid)
        rows = [{"street": st, "sites": ", ".join(ids), "count": len(ids)}
                for st, ids in sorted(by_street.items(), key=lambda kv: (kv[0].startswith("("), kv[0]))]
        body += "<h2>Sites by street</h2>" + table(rows, ("street", "count", "sites"))
    if notes:
        body += "<h2>Notes</h2><ul>" + "".join(f"<li>{html.escape(n)}</li>" for n in notes) + "</ul>"
    body += "<h2>All metrics</h2>" + table([metrics], list(metrics))
    return page(f"CityPlanner: {task} plan", body)
