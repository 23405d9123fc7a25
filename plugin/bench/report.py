"""table.md and PNG plots from benchmark rows.

Per task × size × method: feasibility % (valid rows / rows), mean score over valid rows,
mean gap to the instance's MILP bound over valid rows with a bound, mean seconds. The winner
of a task × size is the method with the highest feasibility, then the highest mean score
(the validity-first order). Plots: best score vs time per method (mean over rows of the
best-so-far step function), and the gap distribution per method.
"""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from ..tasks import SIZES
from ..util.io import atomic_write_text


def _mean(xs: list[float]) -> float | None:
    return float(np.mean(xs)) if xs else None


def summarize(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One summary per (task, size, method), in task / size / method order."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in rows:
        groups[(r["task"], r["size"], r["method"])].append(r)
    order = {s: i for i, s in enumerate(SIZES)}
    out = []
    for (task, size, method), rs in sorted(groups.items(), key=lambda kv: (str(kv[0][0]), order.get(kv[0][1], 9), kv[0][2])):
        ok = [r for r in rs if r["valid"]]
        out.append({
            "task": task, "size": size, "method": method, "n": len(rs),
            "feasible": 100.0 * len(ok) / len(rs),
            "score": _mean([r["score"] for r in ok]),
            "gap": _mean([r["gap"] for r in ok if r["gap"] is not None]),
            "seconds": _mean([r["seconds"] for r in rs if r["seconds"] is not None]),
        })
    return out


def winners(summary: list[dict[str, Any]]) -> dict[tuple[str, str], list[str]]:
    """Per (task, size), the methods ranked first (several when tied)."""
    ranks: dict[tuple[str, str], dict[str, tuple]] = defaultdict(dict)
    for s in summary:
        score = -np.inf if s["score"] is None else round(s["score"], 9)
        ranks[(s["task"], s["size"])][s["method"]] = (s["feasible"], score)
    return {k: [m for m, r in v.items() if r == max(v.values())] for k, v in ranks.items()}


def _fmt(x: float | None, spec: str) -> str:
    return "–" if x is None else format(x, spec)


def table_markdown(summary: list[dict[str, Any]]) -> str:
    lines = ["| task | size | method | n | feasible % | mean score | mean gap | mean s |",
             "|---|---|---|---|---|---|---|---|"]
    for s in summary:
        lines.append(f"| {s['task']} | {s['size']} | {s['method']} | {s['n']} | {s['feasible']:.0f} | "
                     f"{_fmt(s['score'], '.4f')} | {_fmt(s['gap'], '.2%')} | {_fmt(s['seconds'], '.2f')} |")
    lines.append("")
    for (task, size), best in winners(summary).items():
        verdict = f"**{best[0]}** wins" if len(best) == 1 else f"tie: {', '.join(best)}"
        lines.append(f"- {task} {size}: {verdict} (feasibility first, then mean score)")
    return "\n".join(lines) + "\n"


def _nanmean_rows(a: np.ndarray) -> np.ndarray:
    # column means ignoring NaN (before a run's first plan); all-NaN columns stay NaN, silently
    n = (~np.isnan(a)).sum(axis=0)
    return np.where(n > 0, np.nansum(a, axis=0) / np.maximum(n, 1), np.nan)


def plot_traces(rows: list[dict[str, Any]], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    traced = [r for r in rows if r.get("trace")]
    tasks = sorted({str(r["task"]) for r in traced}) or ["none"]
    fig, axes = plt.subplots(1, len(tasks), figsize=(5 * len(tasks), 4), squeeze=False)
    for ax, task in zip(axes[0], tasks, strict=False):
        rs = [r for r in traced if str(r["task"]) == task]
        end = max((r["seconds"] or 0 for r in rs), default=1.0) or 1.0
        grid = np.linspace(0, end, 100)
        for method in sorted({r["method"] for r in rs}):
            curves = []
            for r in (r for r in rs if r["method"] == method):
                t = np.array([p[0] for p in r["trace"]])
                v = np.array([p[1] for p in r["trace"]])
                k = np.searchsorted(t, grid, side="right") - 1
                curves.append(np.where(k >= 0, v[np.maximum(k, 0)], np.nan))
            ax.plot(grid, _nanmean_rows(np.array(curves)), label=method)
        ax.set(title=task, xlabel="seconds", ylabel="best score (mean)")
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_gaps(rows: list[dict[str, Any]], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    methods = sorted({r["method"] for r in rows})
    data = [[r["gap"] for r in rows if r["method"] == m and r["gap"] is not None] for m in methods]
    fig, ax = plt.subplots(figsize=(max(4, 1.2 * len(methods)), 4))
    if any(data):
        ax.boxplot([d if d else [np.nan] for d in data])
        ax.set_xticks(range(1, len(methods) + 1), methods)
    else:
        ax.text(0.5, 0.5, "no MILP bound: no gaps", ha="center", va="center", transform=ax.transAxes)
    ax.set(title="gap to the MILP bound", ylabel="(bound − score) / |bound|")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_report(results: dict[str, Any], out: str | Path) -> dict[str, Any]:
    """Write table.md, score_vs_time.png and gaps.png under ``out``; return a summary."""
    out = Path(out)
    summary = summarize(results["rows"])
    atomic_write_text(out / "table.md", table_markdown(summary))
    plot_traces(results["rows"], out / "score_vs_time.png")
    plot_gaps(results["rows"], out / "gaps.png")
    return {"summary": summary,
            "winners": {f"{t}/{s}": m for (t, s), m in winners(summary).items()},
            "files": [str(out / f) for f in ("results.json", "table.md", "score_vs_time.png", "gaps.png")]}
