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
                 notes: Sequence[str]) -> str:
    """The Solve algorithm's HTML: the result line, the score components and the solver notes."""
    cols = ("method", "status", "valid", "score", "upper_bound", "gap", "seconds", "selected")
    body = (f"<p>Task <b>{html.escape(task)}</b>, instance <code>{html.escape(instance_id)}</code></p>"
            + table([result], cols)
            + "<h2>Score components</h2>" + table([metrics], list(metrics))
            + ("<h2>Notes</h2><ul>" + "".join(f"<li>{html.escape(n)}</li>" for n in notes) + "</ul>" if notes else ""))
    return page(f"CityPlanner: {task} plan", body)
