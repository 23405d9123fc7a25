"""The episode workspace of docs/reference.md#the-workspace: input/, work/, outputs/, logs/.

``input/`` holds everything about the instance and is made read-only after writing;
``export.json`` is the complete task export from which the evaluator rebuilds the instance,
so a workspace folder is self-contained and can be copied or moved.
"""
from __future__ import annotations

import inspect
import json
import os
import shutil
import stat
import sys
from functools import lru_cache
from pathlib import Path
from string import Template
from typing import Any

import pandas as pd

from .. import PLUGIN_ROOT, RESOURCES
from ..errors import InputError
from ..tasks import Instance, instance_from_export
from ..tasks.base import mode_of
from ..util.io import atomic_write_json, atomic_write_text

DIRS = ("input", "work", "outputs", "logs")
RECORDS = ("constraints", "runs")   # beside input/, written only by the product (not the agent)
PLAN_FILE = "outputs/final_plan.json"
HISTORY_FILE = "outputs/eval_history.jsonl"
CONTEXT_FILE = "work/atomic_context.json"
EVAL_COMMAND = "python input/evaluate_plan.py outputs/final_plan.json"
PLAN_FORMAT = '{"candidate_ids": ["id_1", "id_2"]}'
GOALS = {
    "build": ("BuildPlan", "Create a valid, non-empty initial plan and evaluate it."),
    "improve": ("ImprovePlan", "Make and evaluate a concrete edit to candidate_ids of the preloaded plan "
                               "that aims to raise the score while keeping it valid and non-empty."),
}
MAX_PLAN_BYTES = 20_000_000  # larger plan files are refused unread
SUMMARY_EXTRA = 6            # informative columns kept in candidate_summary.csv besides id/cost/group
DEMAND_KEYS = ("demand_count", "demand_units", "demand_regions", "demand_groups", "demand", "demands")


# ---------------------------------------------------------------------- writing
def write_workspace(inst: Instance, ws: str | os.PathLike, goal: str = "build",
                    base_plan: list[str] | None = None, city=None) -> Path:
    """Write a fresh workspace for ``inst`` at ``ws`` (an empty folder or an older workspace).

    ``city``: the City the instance was built from; its geometry is saved for ``audit``."""
    if goal not in GOALS:
        raise InputError(f"unknown goal '{goal}' (choose {', '.join(GOALS)})")
    if goal == "improve" and not base_plan:
        raise InputError("goal 'improve' needs a non-empty base plan")
    ws = Path(ws)
    _reset(ws)
    for d in DIRS:
        (ws / d).mkdir(parents=True, exist_ok=True)
    _write_input(inst, ws / "input", goal, city)
    plan = list(base_plan or [])
    atomic_write_json(ws / PLAN_FILE, {"candidate_ids": plan})
    atomic_write_json(ws / CONTEXT_FILE, atomic_context(inst, goal, plan))
    return ws


def _reset(ws: Path) -> None:
    """Clear an older workspace; refuse to touch a non-empty folder that is not one."""
    if not ws.exists() or not any(ws.iterdir()):
        return
    if not (ws / "input" / "export.json").is_file():
        raise InputError(f"{ws} is not empty and not a workspace; choose an empty or new folder")
    _set_writable(ws / "input", True)
    # the old task's instructions and run records go too: they belong to the instance replaced
    for d in (*DIRS, *RECORDS):
        shutil.rmtree(ws / d, ignore_errors=True)


def work_held(ws: str | os.PathLike) -> list[str]:
    """What rewriting workspace ``ws`` would lose, in words (empty when it holds no work):
    a non-empty final plan, evaluations in the history, files written under work/."""
    ws = Path(ws)
    lost = []
    ids, _ = read_plan(ws / PLAN_FILE) if (ws / PLAN_FILE).exists() else (None, None)
    if ids:
        lost.append(f"{PLAN_FILE} with {len(ids)} candidates")
    try:
        with open(ws / HISTORY_FILE, "rb") as fh:
            evaluations = sum(1 for line in fh if line.strip())
    except OSError:
        evaluations = 0
    if evaluations:
        lost.append(f"{evaluations} evaluations in {HISTORY_FILE}")
    work = [p for p in (ws / "work").rglob("*") if p.is_file() and p.as_posix() != (ws / CONTEXT_FILE).as_posix()] \
        if (ws / "work").is_dir() else []
    if work:
        lost.append(f"{len(work)} files under work/")
    runs = list((ws / "runs").glob("[0-9]*.json")) if (ws / "runs").is_dir() else []
    if runs:
        lost.append(f"{len(runs)} run records in runs/")
    try:
        instructions = len(json.loads((ws / "constraints" / "instructions.json").read_text(encoding="utf-8"))
                           .get("constraints") or [])
    except (OSError, ValueError, AttributeError):
        instructions = 0
    if instructions:
        lost.append(f"{instructions} stored instructions")
    return lost


def refuse_replacing_work(out: str | os.PathLike, replace: bool) -> None:
    """``instance --out`` over a workspace that holds work: one line naming what would be lost,
    unless ``replace`` (``--replace``) says to lose it (MCP's ``build_instance`` has ``overwrite``)."""
    ws = Path(out)
    if replace or not (ws / "input" / "export.json").is_file():
        return
    lost = work_held(ws)
    if lost:
        raise InputError(f"{ws} already holds work ({'; '.join(lost)}): pass --replace to replace it and lose "
                         "that, or choose another --out folder")


def _set_writable(folder: Path, writable: bool) -> None:
    """Read-only: files r--r--r--, folders r-xr-xr-x (atomic writes leave files rw-------)."""
    for p in [*folder.rglob("*"), folder]:
        if writable:
            p.chmod(p.stat().st_mode | stat.S_IWUSR)
        else:
            p.chmod(0o555 if p.is_dir() else 0o444)


def _write_input(inst: Instance, inp: Path, goal: str, city=None) -> None:
    records = json.loads(inst.candidates.to_json(orient="records"))
    atomic_write_json(inp / "city_state.json", city_state(inst))
    atomic_write_text(inp / "candidates.csv", inst.candidates.to_csv(index=False))
    atomic_write_text(inp / "candidate_summary.csv", summary_table(inst.candidates).to_csv(index=False))
    atomic_write_json(inp / "candidates.json", records, indent=1)
    atomic_write_json(inp / "export.json", inst.to_export(), indent=None)
    atomic_write_text(inp / "README.md", render_readme(inst, goal))
    script = Template((RESOURCES / "sandbox" / "evaluate_plan.py.tmpl").read_text(encoding="utf-8"))
    atomic_write_text(inp / "evaluate_plan.py", script.substitute(plugin_root=repr(str(PLUGIN_ROOT)),
                                                                    python=repr(sys.executable)))
    if city is not None:
        from ..audit import CITY_MODEL_FILE, AuditContext

        AuditContext.from_city(city).write(inp.parent / CITY_MODEL_FILE)
    _set_writable(inp, False)


def city_state(inst: Instance) -> dict[str, Any]:
    return {
        "task": inst.task,
        "instance_id": inst.instance_id,
        "meta": inst.meta,
        "crs": inst.crs,
        "budget": inst.budget,
        "interaction_limit": inst.max_select,
        "candidate_count": inst.n,
        "demand_count": demand_count(inst),
    }


def demand_count(inst: Instance) -> int | None:
    """Number of demand regions/groups, whatever the task calls them (None if it has none):
    a count in ``meta`` first, else the length of a demand list in ``data``."""
    for key in DEMAND_KEYS:
        value = inst.meta.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    for key in DEMAND_KEYS:
        value = inst.data.get(key)
        if isinstance(value, (list, dict)):
            return len(value)
    return None


def summary_table(cands: pd.DataFrame) -> pd.DataFrame:
    """id, cost, group and the first few columns that tell candidates apart (no geometry)."""
    base = [c for c in ("id", "cost", "group") if c in cands]
    extra = []
    for col in cands.columns:
        if col in base or col == "wkt" or len(extra) >= SUMMARY_EXTRA:
            continue
        s = cands[col]
        if pd.api.types.is_bool_dtype(s) or pd.api.types.is_numeric_dtype(s):
            informative = s.nunique(dropna=True) > 1
        else:  # short categorical text (e.g. a land-use type); lists and long text are left out
            informative = s.map(lambda v: isinstance(v, str) and len(v) <= 40).all() and 1 < s.nunique() <= 20
        if informative:
            extra.append(col)
    out = cands[base + extra].copy()
    for col in out.select_dtypes("float").columns:
        out[col] = out[col].round(3)
    return out


def render_readme(inst: Instance, goal: str) -> str:
    tmpl = Template((RESOURCES / "sandbox" / "README.md.tmpl").read_text(encoding="utf-8"))
    name, text = GOALS[goal]
    return tmpl.substitute(task=inst.task, instance_id=inst.instance_id, goal_name=name, goal_text=text,
                           eval_command=EVAL_COMMAND, budget=f"{inst.budget:g}", max_select=inst.max_select,
                           n_candidates=inst.n, formula=inspect.cleandoc(inst.describe()) or "(not documented by the task)"
                           ) + data_notes(inst)


#: what each build mode means, in one clause (README data notes)
MODE_WORDS = {"benchmark": "the paper's recipe (links cut and offered for rebuilding, faces sampled as vacant, "
                           "sites at junctions); for comparing methods, not for planning this city",
              "plan": "the planner's question of this city (every existing street kept, vacancy measured, "
                      "chargers on the curb)"}


def data_notes(inst: Instance) -> str:
    """README section: the working CRS and every warning recorded while the instance was built."""
    mode = mode_of(inst)
    lines = ["", "## Data notes", f"- built in {mode} mode: {MODE_WORDS[mode]} (docs/modes.md)",
             f"- working CRS: {inst.crs} (lengths and areas in metres)"]
    lines += [f"- warning: {w}" for w in inst.meta.get("warnings", [])]
    return "\n".join(lines) + "\n"


def atomic_context(inst: Instance, goal: str, plan: list[str]) -> dict[str, Any]:
    """work/atomic_context.json: what the atomic task (BuildPlan / ImprovePlan) starts from."""
    name, text = GOALS[goal]
    ctx: dict[str, Any] = {
        "goal": name,
        "instruction": text,
        "task": inst.task,
        "instance_id": inst.instance_id,
        "plan_format": PLAN_FORMAT,
        "evaluator_command": EVAL_COMMAND,
        "current_plan": {"candidate_ids": plan if goal == "improve" else []},
        "budget": inst.budget,
        "step_limit": inst.max_select,
        "editable_candidates": [{"id": i, "cost": float(c), "group": int(g)}
                                for i, c, g in zip(inst.ids, inst.cost, inst.group)],
    }
    if goal == "improve":
        ev = inst.evaluate(plan)
        ctx["base_plan"] = {"candidate_ids": plan}
        ctx["base_evaluation"] = {"valid": ev.valid, "score": ev.score, "errors": ev.errors}
    return ctx


# ---------------------------------------------------------------------- reading
def load_instance(ws: str | os.PathLike) -> Instance:
    """The instance of a workspace, rebuilt from input/export.json (cached per file version)."""
    path = Path(ws).resolve() / "input" / "export.json"
    try:
        st = path.stat()
    except OSError:
        raise InputError(f"{ws} is not a workspace (no input/export.json)") from None
    return _load_export(str(path), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=8)
def _load_export(path: str, mtime_ns: int, size: int) -> Instance:
    try:
        return instance_from_export(json.loads(Path(path).read_text(encoding="utf-8")))
    except InputError:
        raise
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise InputError(f"cannot read the workspace export ({type(e).__name__}: {e})") from None


def read_plan(path: str | os.PathLike) -> tuple[list | None, str | None]:
    """(candidate_ids, None) or (None, one-line reason); never raises."""
    text, err = read_plan_text(path)
    return (None, err) if err is not None else parse_plan(text)


def read_plan_text(path: str | os.PathLike) -> tuple[str | None, str | None]:
    p = Path(path)
    try:
        st = p.stat()
        if stat.S_ISDIR(st.st_mode):
            return None, f"plan file {p.name} is a directory"
        if not stat.S_ISREG(st.st_mode):  # a FIFO or a device would block the read or never end
            return None, f"plan file {p.name} is not a regular file"
        if st.st_size > MAX_PLAN_BYTES:
            return None, f"plan file too large ({st.st_size} bytes > {MAX_PLAN_BYTES})"
        with open(p, "rb") as fh:
            data = fh.read(MAX_PLAN_BYTES + 1)  # a file that grew since stat() is still cut
        if len(data) > MAX_PLAN_BYTES:
            return None, f"plan file too large (over {MAX_PLAN_BYTES} bytes)"
        return data.decode("utf-8", errors="replace"), None
    except FileNotFoundError:
        return None, f"plan file not found: {path}"
    except OSError as e:
        return None, f"cannot read plan file {path}: {e.strerror or type(e).__name__}"


def parse_plan(text: str) -> tuple[list | None, str | None]:
    if not text.strip():
        return None, f"plan file is empty; expected {PLAN_FORMAT}"
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        return None, f"plan is not valid JSON ({e.msg} at line {e.lineno} column {e.colno}); expected {PLAN_FORMAT}"
    except RecursionError:
        return None, "plan JSON is nested too deeply"
    except ValueError:  # an integer over Python's digit limit (4300)
        return None, "plan holds a number too long to read (over 4300 digits)"
    if not isinstance(obj, dict):
        return None, f"plan must be a JSON object like {PLAN_FORMAT}, got {type(obj).__name__}"
    if "candidate_ids" not in obj:
        return None, f"plan has no 'candidate_ids' key; expected {PLAN_FORMAT}"
    ids = obj["candidate_ids"]
    if not isinstance(ids, list):
        return None, f"candidate_ids must be a list, got {type(ids).__name__}"
    return ids, None
