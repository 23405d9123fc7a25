"""The budget curve as a PNG a planner can put in a council report.

Top: score against budget, one line per scenario, the band up to the proven bound shaded
(the best possible score lies in it), repaired points ringed. Bottom: what each further
100 k€ buys (marginal score per 100 k€ between neighbouring budgets), and, with scenarios,
each scenario's price (score lost to its instructions) at each budget. Drawn on a bare
``Figure`` with the Agg canvas: no pyplot state, so it is safe inside QGIS.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

COLOURS = ("#1f5f99", "#c4581c", "#2e8540", "#8a3ea0", "#8c6d1f", "#4a4a4a")


def _curve(rows: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return sorted((r for r in rows if r["scenario"] == name and r.get("score") is not None and r.get("valid")),
                  key=lambda r: r["budget"])


def draw(result: dict[str, Any], path: str | os.PathLike) -> Path:
    """Write the chart of a ``sweep`` result to ``path`` (PNG) and return it; ImportError
    without matplotlib."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    rows = result["rows"]
    names = [s["name"] for s in result["scenarios"]]
    priced = len(names) > 1
    fig = Figure(figsize=(9.0, 7.5 if priced else 6.5), dpi=120, layout="constrained")
    FigureCanvasAgg(fig)
    grid = fig.add_gridspec(3 if priced else 2, 1, height_ratios=[3, 1.4, 1.4] if priced else [3, 1.4])
    ax = fig.add_subplot(grid[0])
    for k, name in enumerate(names):
        c = _curve(rows, name)
        if not c:
            continue
        col = COLOURS[k % len(COLOURS)]
        x = [r["budget"] for r in c]
        y = [r["score"] for r in c]
        ub = [r["upper_bound"] if r.get("upper_bound") is not None else r["score"] for r in c]
        label = "current instructions" if name == "base" else name
        ax.fill_between(x, y, ub, color=col, alpha=0.18, linewidth=0)
        ax.plot(x, y, "-o", color=col, label=f"{label}: score of the plan", markersize=5)
        if k == 0:   # how many sites each budget's plan builds
            for r in c:
                ax.annotate(f"{r['selected']} sites", (r["budget"], r["score"]), xytext=(0, 7),
                            textcoords="offset points", ha="center", fontsize=7.5, color="#333333")
        ax.plot(x, ub, ":", color=col, linewidth=1, label=f"{label}: proven best possible")
        rep = [r for r in c if r.get("repaired_from") is not None]
        if rep:
            ax.plot([r["budget"] for r in rep], [r["score"] for r in rep], "o", markersize=10, markerfacecolor="none",
                    markeredgecolor=col, label=f"{label}: plan of a smaller budget kept")
    own = result.get("workspace_budget")
    if own:
        ax.axvline(own, color="#888888", linewidth=0.8, linestyle="--")
        ax.annotate(f"current budget {own:g} k€", (own, 1), xycoords=("data", "axes fraction"), xytext=(3, -12),
                    textcoords="offset points", fontsize=8, color="#555555")
    ax.set_ylabel("plan score S (higher is better)")
    ax.set_title(f"What each budget buys — {result.get('task', '')} plan, {result.get('instance', '')}", fontsize=11)
    ax.legend(fontsize=7.5, loc="lower right")
    ax.grid(alpha=0.3)

    ax2 = fig.add_subplot(grid[1], sharex=ax)
    for k, name in enumerate(names):
        c = _curve(rows, name)
        # the bar of a step stands between the two budgets it compares
        steps = [(a, b) for a, b in zip(c, c[1:], strict=False) if b.get("marginal_per_100k") is not None]
        width = [0.8 * (b["budget"] - a["budget"]) / len(names) for a, b in steps]
        left = [a["budget"] + 0.1 * (b["budget"] - a["budget"]) + k * w for (a, b), w in zip(steps, width, strict=False)]
        ax2.bar(left, [b["marginal_per_100k"] for _, b in steps], width=width, align="edge",
                color=COLOURS[k % len(COLOURS)], alpha=0.8, label="current instructions" if name == "base" else name)
    ax2.axhline(0, color="#444444", linewidth=0.6)
    ax2.set_ylabel("score bought\nper 100 k€")
    ax2.grid(alpha=0.3, axis="y")
    if priced:
        ax3 = fig.add_subplot(grid[2], sharex=ax)
        for k, name in enumerate(names[1:], start=1):
            c = sorted((r for r in rows if r["scenario"] == name and r.get("price") is not None), key=lambda r: r["budget"])
            ax3.plot([r["budget"] for r in c], [r["price"] for r in c], "-s", color=COLOURS[k % len(COLOURS)],
                     markersize=4, label=name)
        ax3.axhline(0, color="#444444", linewidth=0.6)
        ax3.set_ylabel("price of the\ninstructions (score)")
        ax3.legend(fontsize=7.5, loc="upper left")
        ax3.grid(alpha=0.3)
        ax3.set_xlabel("budget (k€)")
    else:
        ax2.set_xlabel("budget (k€)")
    fig.supxlabel("Shaded: between each plan and the proven best possible score (no band: the plan is proven "
                  "optimal). Bars: score gained per 100 k€ between neighbouring budgets.",
                  fontsize=7, color="#555555", x=0.01, ha="left")
    path = Path(path)
    fig.savefig(path, format="png")
    return path
