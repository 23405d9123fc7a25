"""``bench --suite participation``: our revision, the four baselines and the DRL plan on the
bundled HLG / DHM regions over seeds, against the paper's published figures.

Rows are mean ± sd over the seeds (rules persona, 1,000 residents, 3 rounds × 50 speakers,
4 communities, K = 3, the objectives files' quotas). Satisfaction and Inclusion of ours are
also given for the speakers, the residents who never spoke, and a fresh population of the
same region (held-out residents, needs never heard).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from .. import RESOURCES
from ..participation.engine import Config, run
from ..participation.metrics import METRICS
from ..participation.region import load_parcels
from ..util.io import atomic_write_json, atomic_write_text

SAMPLES = RESOURCES / "participation" / "samples"
#: the paper's tables (docs/reference.md#participatory-urban-planning); None where it gives no figure
PAPER = {"hlg": {"service": 0.756, "ecology": None, "satisfaction": 0.787, "inclusion": 0.773},
         "dhm": {"service": None, "ecology": None, "satisfaction": 0.778, "inclusion": 0.790}}
METHODS = ("ours", "drl", "random", "centralized", "decentralized", "gsca")


def _fmt(xs: list[float]) -> str:
    return f"{np.mean(xs):.3f} ± {np.std(xs):.3f}" if len(xs) > 1 else f"{xs[0]:.3f}"


def run_participation_bench(out: str | Path, seeds: int = 5, regions: tuple[str, ...] = ("hlg", "dhm")) -> dict[str, Any]:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = []
    for name in regions:
        path = SAMPLES / f"{name}.geojson"
        region = load_parcels(path)
        for seed in range(seeds):
            res = run(region, Config(seed=seed, baselines=True), parcels_path=path)
            m = res.metrics
            per = {"ours": m["after"], "drl": m["before"], **m["baselines"]}
            for method, vals in per.items():
                rows.append({"region": name, "seed": seed, "method": method, **{k: vals[k] for k in METRICS}})
            for group in ("speakers", "non_speakers"):
                rows.append({"region": name, "seed": seed, "method": f"ours: {group}",
                             **m["by_voice"]["after"][group]})
            rows.append({"region": name, "seed": seed, "method": "ours: fresh population",
                         **{k: m["fresh_population"]["after"][k] for k in METRICS}})
            rows.append({"region": name, "seed": seed, "method": "changed parcels", "changed": m["changed_parcels"]})
    lines = ["| region | method | " + " | ".join(METRICS) + " |", "|---" * (len(METRICS) + 2) + "|"]
    summary: dict[str, dict] = {}
    for name in regions:
        methods = [x for x in dict.fromkeys(r["method"] for r in rows if r["region"] == name) if x != "changed parcels"]
        for method in methods:
            sel = [r for r in rows if r["region"] == name and r["method"] == method]
            cells = [_fmt([r[k] for r in sel]) if k in sel[0] else "–" for k in METRICS]
            summary.setdefault(name, {})[method] = {k: float(np.mean([r[k] for r in sel])) for k in METRICS
                                                    if k in sel[0]}
            lines.append(f"| {name} | {method} | " + " | ".join(cells) + " |")
        lines.append(f"| {name} | paper (LLM method) | " + " | ".join(
            f"{v:.3f}" if v is not None else "–" for v in PAPER[name].values()) + " |")
        ch = [r["changed"] for r in rows if r["region"] == name and r["method"] == "changed parcels"]
        summary[name]["changed_parcels_mean"] = float(np.mean(ch))
    table = "\n".join(lines) + "\n"
    files = {"results": str(atomic_write_json(out / "participation.json", {"rows": rows, "summary": summary})),
             "table": str(atomic_write_text(out / "participation.md", table))}
    print(table)
    return {"summary": summary, "files": files}
