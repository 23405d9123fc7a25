"""Resource-attack fuzzing of the virtual terminal (``bench --suite fuzz``; a few hundred turns in tests).

Seeded generated turns mix the terminal's vocabulary with the attacks a model's text can
make: runaway ``printf`` formats, backtracking regexes, a big file read thousands of times,
long pipelines, writes over the limits, hundreds of new files, 300-character names, lone
surrogates, numbers over Python's digit limit, deep JSON and garbage in the evaluator
history. Each turn runs through ``VirtualTerminal.run_turn`` and then ``workspace_state`` (what
the agent loop does with a turn) and is checked for the issue-17 invariants:

* no escape: nothing outside the workspace, nothing in ``input/`` and nothing in the current
  folder changes (a folder beside the workspace is reachable through a link in ``work/``);
* no uncaught exception from the terminal or the state;
* no turn over its time budget (``Limits.turn_seconds`` plus ``GRACE_S``, the longest step a
  budget cannot interrupt: one evaluation or one pandas filter);
* bounded memory: the peak resident size of each turn (Linux: the high-water mark is reset
  before each turn through /proc/self/clear_refs) stays below ``MEMORY_CAP_MB`` above the
  resident size before the first turn.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..sandbox.budget import Limits

GRACE_S = 1.0
MEMORY_CAP_MB = 400.0
FUZZ_LIMITS = Limits(command_seconds=1.0, turn_seconds=2.0, command_bytes=8_000_000, turn_bytes=24_000_000,
                     turn_write_bytes=4_000_000, turn_new_files=50, command_output=2000)
BIG_BYTES = 2_000_000  # work/big, the largest file one read returns

WORDS = ["cat", "ls", "head", "tail", "wc", "grep", "sort", "echo", "printf", "plan", "candidates", "diagnose",
         "help", "cd", "pwd", "python", "rm", "-n", "3", "-l", "-c", "-k", "2", "-t", ",", "-r", "input/README.md",
         "outputs/final_plan.json", "outputs/eval_history.jsonl", "work/x.txt", "work/big", "work/nl", "work/d",
         "input/evaluate_plan.py", "..", "../secret/key.txt", "/etc/passwd", "/workspace/..", "~/x", "*", "work/*",
         "work/link/key.txt", "work/link/new", "add", "remove", "set", "clear", "show", "|", "&&", "||", ";",
         ">", ">>", "<", "2>&1", "$(ls)", "`ls`", "'", '"', "\\", "(", "&", "#", "%s", "%d"]
REGEXES = ["(a+)+$", "(a|aa)*b", "[a-z]*" * 4 + "!", "[a-z]*" * 12 + "!", "(.*)*x", "(x+x+)+y", "^(a?){30}a{30}$",
           "(?:a*)*b", r"(\w+\s?)+$", "(a)\\1", "(?<=a)b", "[", "a{1000}{1000}"]
PRINTF_FORMATS = ["%%s", "%s%s", "x%%", "%d", "%s\\n", "%%%s", "%", "%q"]


def _huge(digits: int) -> str:
    return "9" * digits


def _many_files(rng: random.Random) -> str:
    return "; ".join(f"echo {k} > work/f{k}" for k in range(rng.randint(10, 200)))


def _long_name(rng: random.Random) -> str:
    name = "n" * rng.choice([255, 256, 300, 5000])
    return rng.choice([f"echo x > work/{name}", f"cat work/{name}*", f"ls {name}", f"cd {name}",
                       f"cat < work/{name}", f"grep x work/{name}"])


def _huge_number(rng: random.Random) -> str:
    d = _huge(rng.choice([5000, 20000]))
    return rng.choice([f"head -n {d} work/big", f"sort -k {d} work/big", f"printf '%d' {d}",
                       f"candidates --limit {d}", f"echo '{{\"candidate_ids\": [{d}]}}' > outputs/final_plan.json",
                       f"plan add {d}"])


#: one hostile command line per kind, drawn uniformly (a table, so a new kind is one entry)
_ATTACKS: tuple[Callable[[random.Random, list[str], int], str], ...] = (
    lambda rng, ids, n: "cat" + " work/big" * n,
    lambda rng, ids, n: f"printf '{rng.choice(PRINTF_FORMATS)}'" + " a" * n,
    lambda rng, ids, n: f"grep -c '{rng.choice(REGEXES)}' work/{rng.choice(['line', 'big', 'nl'])}",
    lambda rng, ids, n: "cat work/big" + " | sort | grep -v zz" * rng.randint(1, 30) + " | wc -l",
    lambda rng, ids, n: rng.choice(["cat work/big work/big > work/out", "cat work/big >> work/out", "sort work/nl",
                                    "cat work/big work/big work/big work/big | wc", "head -n 99999999 work/nl | sort -n"]),
    lambda rng, ids, n: _many_files(rng),
    lambda rng, ids, n: _long_name(rng),
    lambda rng, ids, n: rng.choice(["printf '\ud800' > work/s", "echo '\udcff\ud800' >> work/s",
                                    "echo \ud83d > work/\ud800", "cat work/s", "grep '\ud800' work/s"]),
    lambda rng, ids, n: _huge_number(rng),
    lambda rng, ids, n: rng.choice(["echo '[1]' >> outputs/eval_history.jsonl",
                                    "echo '{\"ts\":\"x\"}' >> outputs/eval_history.jsonl",
                                    "echo '{\"ts\": 1e999, \"plan\": 5}' >> outputs/eval_history.jsonl",
                                    "echo 'garbage' > outputs/eval_history.jsonl",
                                    "echo '{\"base_plan\": 3}' > work/atomic_context.json"]),
    lambda rng, ids, n: "plan add " + " ".join(rng.choice(ids) for _ in range(n)),
    lambda rng, ids, n: "candidates" + " --filter 'cost>0'" * min(n, 300),
    lambda rng, ids, n: rng.choice(["python input/evaluate_plan.py", "diagnose", "python input/evaluate_plan.py work/d",
                                    "python input/evaluate_plan.py work/big", "plan show", "solve --method greedy"]),
    lambda rng, ids, n: "echo x > work/d" if rng.random() < 0.5 else "cat work/d",
    lambda rng, ids, n: "cat <<'EOF' > work/h\n" + "y" * rng.choice([10, 100_000, 199_000]) + "\nEOF",
    lambda rng, ids, n: "; ".join(["cat work/nl | grep -c ''"] * rng.randint(1, 20)),
    lambda rng, ids, n: " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12))),
)


def _attack(rng: random.Random, ids: list[str]) -> str:
    """One hostile command line (the same draws, in the same order, as ever: kind, then size)."""
    kind = rng.randrange(len(_ATTACKS))
    n = rng.choice([1, 10, 300, 1500, 3000])
    return _ATTACKS[kind](rng, ids, n)


def hostile_turns(n: int, seed: int, ids: list[str]) -> Iterator[dict | str]:
    """``n`` seeded turns: mostly well-formed turns of hostile commands, some malformed turn texts."""
    rng = random.Random(seed)
    for _ in range(n):
        r = rng.random()
        if r < 0.05:
            yield rng.choice(['{"analysis": "", "plan": "", "commands": [], "task_complete": ' + _huge(5000) + "}",
                              "[" * 100_000, '{"commands": [{"keystrokes": "ls", "duration": ' + _huge(5000) + "}]}",
                              json.dumps({"analysis": "\ud800", "plan": "", "commands": [{"keystrokes": "ls",
                                                                                           "duration": 1e308}],
                                          "task_complete": False})])
            continue
        commands = [{"keystrokes": _attack(rng, ids) if rng.random() < 0.7 else
                     " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 8))), "duration": 1.0}
                    for _ in range(rng.randint(1, 6))]
        turn = {"analysis": "", "plan": "", "commands": commands, "task_complete": rng.random() < 0.1}
        yield json.dumps(turn) if r < 0.5 else turn


def prepare(ws: Path) -> Path:
    """Files the attacks use inside the workspace, and a secret folder beside it reached by a link."""
    work = ws / "work"
    (work / "d").mkdir(exist_ok=True)
    line = "the quick brown fox jumps over the lazy dog 0123456789 abcdefghijklmnopqrstuvwxyz\n"
    (work / "big").write_text(line * (BIG_BYTES // len(line)))
    (work / "nl").write_text("\n" * BIG_BYTES)
    (work / "line").write_text("a" * 400 + "\n")
    secret = ws.parent / f"{ws.name}-secret"
    secret.mkdir(exist_ok=True)
    (secret / "key.txt").write_text("top secret")
    if not (work / "link").is_symlink():
        os.symlink(secret, work / "link")
    return secret


def tree(root: Path) -> dict[str, str]:
    """Path -> content digest ('dir', or the target of a link) of everything below ``root``."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            if os.path.islink(p):
                out[p] = "link:" + os.readlink(p)
            elif os.path.isdir(p):
                out[p] = "dir"
            else:
                with open(p, "rb") as fh:
                    out[p] = hashlib.sha1(fh.read()).hexdigest()
    return out


def _rss_mb(field: str) -> float | None:
    """VmRSS / VmHWM of this process in MB (None off Linux)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def _reset_peak() -> None:
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")


def run_fuzz(ws: str | os.PathLike, turns: int, seed: int = 0, limits: Limits = FUZZ_LIMITS,
             check_every: int = 1) -> dict[str, Any]:
    """Run ``turns`` hostile turns on workspace ``ws``; the figures and every broken invariant.

    ``check_every``: compare the file trees every this many turns (hashing them is the slow part)."""
    from ..agent.protocol import workspace_state
    from ..sandbox.terminal import VirtualTerminal
    from ..sandbox.workspace import load_instance

    ws = Path(ws).resolve()
    secret = prepare(ws)
    outside = {**tree(secret), "cwd": sorted(os.listdir(os.getcwd()))}
    inputs = tree(ws / "input")
    term = VirtualTerminal(ws, limits=limits)
    ids = list(load_instance(ws).ids)
    # One untimed benign turn first: the lazy imports of the first turn are not a turn's time
    # (a cold first turn on a loaded machine read as 3.4 s against a 1.6 s limit).
    term.run_turn({"analysis": "", "plan": "", "commands": [{"keystrokes": "ls", "duration": 1.0}],
                   "task_complete": False})
    workspace_state(ws, "build")
    base_rss = _rss_mb("VmRSS")
    failures: list[str] = []
    times: list[float] = []
    peaks: list[float] = []
    budget_hits = 0
    for k, turn in enumerate(hostile_turns(turns, seed, ids)):
        _reset_peak()
        t0 = time.monotonic()
        try:
            res = term.run_turn(turn)
            workspace_state(ws, "build")
        except Exception as e:  # noqa: BLE001 - the figure to report: any exception is a failure
            failures.append(f"turn {k}: uncaught {type(e).__name__}: {str(e)[:200]}")
            res = {"observation": ""}
        seconds = time.monotonic() - t0
        times.append(seconds)
        peak = _rss_mb("VmHWM")
        if peak is not None:
            peaks.append(peak)
        budget_hits += "budget of this" in res["observation"]
        if seconds > limits.turn_seconds + GRACE_S:
            failures.append(f"turn {k}: {seconds:.2f} s > {limits.turn_seconds + GRACE_S:g} s")
        if str(ws) in res["observation"]:
            failures.append(f"turn {k}: a host path in the observation")
        if (k + 1) % check_every == 0 or k + 1 == turns:
            now = {**tree(secret), "cwd": sorted(os.listdir(os.getcwd()))}
            if now != outside:
                changed = sorted(key for key in {*now, *outside} if now.get(key) != outside.get(key))
                failures.append(f"turn {k}: changed outside the workspace: {', '.join(changed[:3])}")
                outside = now  # report each change once
            if tree(ws / "input") != inputs:
                failures.append(f"turn {k}: input/ changed")
            if set(os.listdir(ws)) != {"input", "work", "outputs", "logs"}:
                failures.append(f"turn {k}: the workspace top level changed")
    peak_growth = (max(peaks) - base_rss) if peaks and base_rss is not None else None
    if peak_growth is not None and peak_growth > MEMORY_CAP_MB:
        failures.append(f"peak memory {peak_growth:.0f} MB above the start > {MEMORY_CAP_MB:g} MB")
    times_sorted = sorted(times)
    return {"turns": turns, "seed": seed, "failures": failures[:50], "failure_count": len(failures),
            "budget_hits": budget_hits, "max_turn_seconds": round(max(times, default=0.0), 3),
            "p99_turn_seconds": round(times_sorted[int(0.99 * (len(times) - 1))], 3) if times else None,
            "mean_turn_seconds": round(sum(times) / len(times), 4) if times else None,
            "turn_budget_seconds": limits.turn_seconds, "rss_start_mb": base_rss,
            "peak_rss_mb": round(max(peaks), 1) if peaks else None,
            "peak_growth_mb": round(peak_growth, 1) if peak_growth is not None else None,
            "memory_cap_mb": MEMORY_CAP_MB}
