"""The terminal's command registry and its planning verbs: plan, candidates, diagnose, help.

Every command the virtual terminal knows — the bash-like programs of ``programs.py`` and
the planning verbs here — is one registry entry, so another module adds a verb with one
call, e.g. ``register_verb("solve", solve, "solve --method greedy|alns|milp: …")``.
A verb is ``fn(jail, args, stdin) -> str`` (its standard output) or ``(str, status)``;
it raises ``VerbError`` (or ``confine.SandboxError``) with a one-line message to fail.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..util.io import atomic_write_json
from .confine import Jail
from .evaluator import evaluate_plan_file
from .workspace import PLAN_FILE, load_instance, read_plan, summary_table

VerbFn = Callable[[Jail, list[str], str], Any]


class VerbError(Exception):
    """A verb failed; the message is shown to the agent as ``name: message``."""


@dataclass(frozen=True)
class Verb:
    fn: VerbFn
    help: str


VERBS: dict[str, Verb] = {}


def register_verb(name: str, fn: VerbFn, help: str) -> None:
    """Make ``name`` a terminal command (replaces an earlier one of the same name)."""
    VERBS[name] = Verb(fn, help)


def evaluate(jail: Jail, plan: str = PLAN_FILE) -> dict[str, Any]:
    """Evaluate a workspace plan file, logging the evaluation to the terminal log."""
    path = jail.resolve(plan)
    result = evaluate_plan_file(jail.root, path)
    jail.log({"event": "evaluation", "plan": plan, **result})
    return result


# ---------------------------------------------------------------------- plan
def _current(jail: Jail) -> list[str]:
    path = jail.resolve(PLAN_FILE)
    if not path.exists():
        return []
    ids, err = read_plan(path)
    if err is not None:
        raise VerbError(f"{PLAN_FILE}: {err} (`plan set ID...` or `plan clear` starts over)")
    return [str(i) for i in ids]


def _known(jail: Jail, ids: list[str]) -> list[str]:
    index = load_instance(jail.root).index
    unknown = [i for i in ids if i not in index]
    if unknown:
        raise VerbError(f"unknown candidate ids: {', '.join(unknown[:10])} (see `candidates`)")
    return list(dict.fromkeys(ids))


def _status(jail: Jail, ids: list[str]) -> str:
    inst = load_instance(jail.root)
    known = [i for i in ids if i in inst.index]
    mask = inst.mask_of(known)
    lines = [f"plan: {len(known)} selected, cost {inst.cost[mask].sum():g} / budget {inst.budget:g}, "
             f"{len(known)}/{inst.max_select} steps"]
    lines += [f"note: {e}" for e in inst.hard_errors(mask)]
    return "\n".join(lines) + "\n"


def _save(jail: Jail, ids: list[str]) -> str:
    atomic_write_json(jail.resolve(PLAN_FILE, write=True), {"candidate_ids": ids})
    return _status(jail, ids)


def plan_verb(jail: Jail, args: list[str], stdin: str) -> str:
    if not args or args[0] not in PLAN_ACTIONS:
        raise VerbError(f"usage: plan {'|'.join(PLAN_ACTIONS)} [ID...]")
    action, ids = args[0], args[1:]
    return PLAN_ACTIONS[action](jail, ids)


def _plan_show(jail: Jail, ids: list[str]) -> str:
    cur = _current(jail)
    return f"candidate_ids: {' '.join(cur) if cur else '(empty)'}\n" + _status(jail, cur)


def _plan_add(jail: Jail, ids: list[str]) -> str:
    if not ids:
        raise VerbError("usage: plan add ID...")
    cur = _current(jail)
    held = set(cur)
    return _save(jail, cur + [i for i in _known(jail, ids) if i not in held])


def _plan_remove(jail: Jail, ids: list[str]) -> str:
    cur = _current(jail)
    missing = [i for i in ids if i not in cur]
    if not ids or missing:
        raise VerbError(f"not in the plan: {', '.join(missing[:10])}" if missing else "usage: plan remove ID...")
    return _save(jail, [i for i in cur if i not in ids])


def _plan_swap(jail: Jail, ids: list[str]) -> str:
    if len(ids) != 2:
        raise VerbError("usage: plan swap OUT_ID IN_ID")
    cur = _current(jail)
    out, inn = ids[0], _known(jail, ids[1:])[0]
    if out not in cur:
        raise VerbError(f"not in the plan: {out}")
    if inn in cur:
        raise VerbError(f"already in the plan: {inn}")
    return _save(jail, [inn if i == out else i for i in cur])


PLAN_ACTIONS: dict[str, Callable[[Jail, list[str]], str]] = {
    "show": _plan_show,
    "add": _plan_add,
    "remove": _plan_remove,
    "swap": _plan_swap,
    "set": lambda jail, ids: _save(jail, _known(jail, ids)),
    "clear": lambda jail, ids: _save(jail, []),
}


# ---------------------------------------------------------------------- candidates
_FILTER = re.compile(r"^(\w+)(<=|>=|!=|=|<|>)(.*)$")
_COMPARE = {"=": "__eq__", "!=": "__ne__", "<": "__lt__", "<=": "__le__", ">": "__gt__", ">=": "__ge__"}


def candidates_verb(jail: Jail, args: list[str], stdin: str) -> str:
    opts = _options(args, {"--filter", "--sort", "--limit", "--columns"}, {"--desc"})
    df = pd.read_csv(jail.resolve("input/candidates.csv"), dtype={"id": str})
    total = len(df)
    for f in opts.get("--filter", []):
        jail.check_time()
        df = df[_filter_mask(df, f)]
    if "--sort" in opts:
        col = opts["--sort"][-1]
        desc = col.startswith("-") or "--desc" in opts
        df = df.sort_values(_column(df, col.lstrip("-")), ascending=not desc, kind="stable")
    limit = _int(opts.get("--limit", ["20"])[-1], "--limit", 1, 1000)
    if "--columns" in opts:
        cols = [_column(df, c) for c in opts["--columns"][-1].split(",") if c]
    else:
        cols = list(summary_table(df).columns)
    shown = df[cols].head(limit)
    head = f"{len(df)} of {total} candidates match" + (f" (first {len(shown)} shown)" if len(shown) < len(df) else "")
    return head + "\n" + (shown.to_string(index=False) if len(shown) else "") + "\n"


def _options(args: list[str], valued: set[str], flags: set[str]) -> dict[str, list[str]]:
    opts: dict[str, list[str]] = {}
    it = iter(args)
    for a in it:
        name, eq, value = a.partition("=") if a.startswith("--") else (a, "", "")
        if name in flags and not eq:
            opts[name] = []
        elif name in valued:
            value = value if eq else next(it, None)
            if value is None:
                raise VerbError(f"{name} needs a value")
            opts.setdefault(name, []).append(value)
        else:
            raise VerbError(f"unknown option '{a}' (options: {', '.join(sorted(valued | flags))})")
    return opts


def _column(df: pd.DataFrame, col: str) -> str:
    if col not in df.columns:
        raise VerbError(f"no column '{col}' (columns: {', '.join(map(str, df.columns))})")
    return col


def _int(text: str, name: str, lo: int, hi: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise VerbError(f"{name} needs an integer, got '{text}'") from None
    return min(max(value, lo), hi)


def _filter_mask(df: pd.DataFrame, expr: str) -> pd.Series:
    m = _FILTER.match(expr)
    if not m:
        raise VerbError(f"bad filter '{expr}': use COL=VALUE, COL<VALUE or COL>VALUE (quote < and >)")
    col, op, value = _column(df, m[1]), m[2], m[3]
    series = df[col]
    if pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series):
        try:
            rhs: Any = float(value)
        except ValueError:
            raise VerbError(f"column '{col}' is numeric; '{value}' is not a number") from None
    elif op in ("=", "!="):
        series, rhs = series.astype(str), value
    else:
        raise VerbError(f"column '{col}' is not numeric; use = or !=")
    return getattr(series, _COMPARE[op])(rhs)


# ---------------------------------------------------------------------- diagnose / help
def diagnose_verb(jail: Jail, args: list[str], stdin: str) -> str:
    ev = evaluate(jail, args[0] if args else PLAN_FILE)
    lines = [f"valid: {str(ev['valid']).lower()}  score: {ev['score']}  cost_ratio: {ev['cost_ratio']}  "
             f"selected: {len(ev['candidate_ids'])}"]
    if ev["metrics"]:
        lines.append("metrics: " + "  ".join(f"{k}={v}" for k, v in ev["metrics"].items()))
    lines += [f"error: {e}" for e in ev["errors"]] + [f"warning: {w}" for w in ev["warnings"]]
    lines.append(f"binding constraint: {ev.get('binding') or 'none'}")
    contrib = sorted((ev.get("contributions") or {}).items(), key=lambda kv: -kv[1])
    if contrib:
        lines.append("strongest: " + ", ".join(f"{k} {v:+.4f}" for k, v in contrib[:5]))
        lines.append("weakest: " + ", ".join(f"{k} {v:+.4f}" for k, v in contrib[::-1][:5]))
    return "\n".join(lines) + "\n"


def help_verb(jail: Jail, args: list[str], stdin: str) -> str:
    width = max(map(len, VERBS))
    rows = "\n".join(f"  {name:<{width}}  {verb.help}" for name, verb in VERBS.items())
    return ("Commands (no real shell: pipes |, ; && ||, > >> < redirection into work/ or outputs/, "
            "<<'EOF' here-documents; no $variables or $(...)):\n" + rows + "\n")


register_verb("plan", plan_verb, "plan show | add ID... | remove ID... | swap OUT IN | set ID... | clear "
                                 f"- edit {PLAN_FILE}")
register_verb("candidates", candidates_verb, "candidates [--filter COL=V|'COL<V'|'COL>V'] [--sort [-]COL] "
                                             "[--limit N] [--columns a,b] - list candidates")
register_verb("diagnose", diagnose_verb, "diagnose [PLAN] - evaluate the plan: errors, binding limit, "
                                         "strongest/weakest candidates")
register_verb("help", help_verb, "help - this list")
