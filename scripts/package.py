"""Build dist/cityplanner-<version>.zip: the plugin folder as QGIS expects it (top folder
``cityplanner``) with only what a user needs — the code QGIS loads, its resources, the
runtime ``requirements.txt`` (read by QPIP and the installer), metadata, licence, README.
The benchmark harness, its judges and request sets stay out (``EXCLUDE``).

Files are taken from the working tree as git sees it (tracked and new, not ignored), so
scratch output never slips in; tests, CI, scripts, docs, developer requirements and
benchmark data stay out.

    python3 scripts/package.py [--out DIR]
"""
import argparse
import configparser
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP_FILES = {"__init__.py", "metadata.txt", "LICENSE", "README.md", "requirements.txt"}
DIRS = ("plugin/", "processing_algorithms/", "resources/")
# What a user runs is the plugin in QGIS and the headless commands; the evaluation code behind
# `python -m plugin bench` (harness, judges, the agent comparison) and the request sets it reads
# stay in the repository. From the ZIP, `bench` and `train --task instructions` stop with one line
# (plugin/cli.py). A new module under plugin/bench/ stays out unless KEEP names it.
EXCLUDE = (
    "resources/heldout/",  # held-out request and instruction sets
    "resources/ask/",  # the ask request sets (regression and tuning)
    "plugin/bench/",  # the benchmark harness (runner, reports, scale, speed, fuzz, …)
    "plugin/agent/ask/bench.py", "plugin/agent/ask/judge.py",  # the ask harness and its judge
    "plugin/agent/compare.py",  # the model-vs-heuristics comparison table
    "plugin/commands/bench.py",
    "plugin/training/instructions.py", "plugin/training/instructions_reward.py",  # trains on held-out dev data
)
#: shipped although under EXCLUDE: the instance suites, which `instance --suite` and training read
KEEP = ("plugin/bench/__init__.py", "plugin/bench/suites.py")


def candidate_files() -> list[str]:
    """Git's view of the working tree; a plain copy of it (no .git, as in the LTR chroot) is walked."""
    try:
        return subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                              capture_output=True, text=True, check=True).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        return [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*") if p.is_file()]


def plugin_files() -> list[str]:
    """Relative paths of the files the ZIP carries, sorted."""
    out = candidate_files()
    keep = {f for f in out if (f in TOP_FILES or f.startswith(DIRS)) and (f in KEEP or not f.startswith(EXCLUDE))
            and "__pycache__" not in f and not f.endswith(".pyc") and (ROOT / f).is_file()}
    return sorted(keep)


def build(out_dir: Path) -> Path:
    meta = configparser.ConfigParser()
    meta.read(ROOT / "metadata.txt")
    out = out_dir / f"cityplanner-{meta['general']['version']}.zip"
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".zip.tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for f in plugin_files():
            z.write(ROOT / f, f"cityplanner/{f}")
    tmp.replace(out)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "dist", help="output folder (default dist/)")
    out = build(ap.parse_args().out)
    with zipfile.ZipFile(out) as z:
        print(f"{out}: {len(z.namelist())} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
