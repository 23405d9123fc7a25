"""Training curves (PNG) from the JSON-lines training log."""
from __future__ import annotations

import io
import os
from pathlib import Path

from ..util.io import atomic_write_bytes, read_jsonl


def plot_curves(log_path: str | os.PathLike, png_path: str | os.PathLike) -> Path:
    """SFT loss; GRPO reward and valid rate per atomic task; KL to the reference."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    rows = read_jsonl(log_path)
    sft = [r for r in rows if r.get("phase") == "sft"]
    grpo = [r for r in rows if r.get("phase") == "grpo"]
    fig = Figure(figsize=(12, 3.4))
    axes = fig.subplots(1, 4)
    axes[0].plot([r["step"] for r in sft], [r["loss"] for r in sft], marker="o")
    axes[0].set_title("SFT loss")
    keys = sorted({k.rsplit(".", 1)[0] for r in grpo for k in r if k.endswith(".reward")})
    for ax, metric, title in ((axes[1], "reward", "GRPO reward"), (axes[2], "valid_rate", "GRPO valid rate")):
        for key in keys:
            pts = [(r["step"], r[f"{key}.{metric}"]) for r in grpo if r.get(f"{key}.{metric}") is not None]
            if pts:
                ax.plot(*zip(*pts, strict=False), marker="o", label=key)
        ax.set_title(title)
        if keys:
            ax.legend(fontsize=7)
    axes[3].plot([r["step"] for r in grpo], [r.get("kl", 0.0) for r in grpo], marker="o")
    axes[3].set_title("KL to reference")
    for ax in axes:
        ax.set_xlabel("step")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90)
    return atomic_write_bytes(png_path, buf.getvalue())
