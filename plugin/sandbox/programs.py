"""The bash-like programs of the virtual terminal, written in Python over a ``Jail``.

Each behaves like its coreutils namesake for the options listed in its help; anything else
is a one-line error. Nothing here starts a process: ``python input/evaluate_plan.py`` calls
the evaluator in-process and no other Python can run. Programs that split text into lines or
generate text charge the terminal's data budget as they go (``jail.budget``); ``grep`` uses
RE2, whose matching time is linear in the input, so no pattern can backtrack for minutes.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable

from .confine import Jail
from .verbs import VerbError, evaluate, register_verb
from .workspace import PLAN_FILE

MAX_PATTERN = 200     # characters in a grep pattern
RE2_MEMORY = 8 << 20  # bytes RE2 may use for one compiled pattern


def _flags(args: list[str], allowed: str, valued: str = "") -> tuple[set[str], dict[str, str], list[str]]:
    """Short options (``-nr``, ``-n 5``, ``-n5``, ``-t,``) and the remaining operands."""
    flags: set[str] = set()
    values: dict[str, str] = {}
    rest: list[str] = []
    it = iter(args)
    for a in it:
        if a == "--":
            rest += list(it)
        elif a.startswith("-") and len(a) > 1 and not rest:
            for k, ch in enumerate(a[1:]):
                if ch in valued:
                    value = a[k + 2:] or next(it, None)
                    if value is None:
                        raise VerbError(f"option -{ch} needs a value")
                    values[ch] = value
                    break
                if ch not in allowed:
                    raise VerbError(f"unsupported option -{ch}")
                flags.add(ch)
        else:
            rest.append(a)
    return flags, values, rest


def _inputs(jail: Jail, files: list[str], stdin: str) -> list[tuple[str, str]]:
    """(name, text) of each operand, or standard input when there is none (or '-')."""
    return [(f, stdin if f == "-" else jail.read(f)) for f in files] or [("-", stdin)]


def _count(text: str, name: str) -> int:
    if len(text) > 18 or not text.isdigit():  # also keeps int() away from huge digit strings
        raise VerbError(f"invalid number '{text[:20]}' for -{name}")
    return int(text)


def _lines(jail: Jail, text: str) -> list[str]:
    """``text.splitlines()`` after charging what the list will hold."""
    jail.budget.spend(0, lines=text.count("\n") + 1)
    return text.splitlines()


# ---------------------------------------------------------------------- files
def cat(jail: Jail, args: list[str], stdin: str) -> str:
    _, _, files = _flags(args, "")
    return "".join(text for _, text in _inputs(jail, files, stdin))


def _head_tail(jail: Jail, args: list[str], stdin: str, tail: bool) -> str:
    args = [f"-n{a[1:]}" if re.fullmatch(r"-\d+", a) else a for a in args]  # head -5
    _, values, files = _flags(args, "", "n")
    spec = values.get("n", "10")
    from_start = tail and spec.startswith("+")
    n = _count(spec.lstrip("+"), "n")
    out = []
    for name, text in _inputs(jail, files, stdin):
        jail.budget.spend(0, lines=text.count("\n") + 1)
        lines = text.splitlines(keepends=True)
        part = lines[max(n - 1, 0):] if from_start else (lines[-n:] if n else []) if tail else lines[:n]
        out.append((f"==> {name} <==\n" if len(files) > 1 else "") + "".join(part))
    return "\n".join(out)


def ls(jail: Jail, args: list[str], stdin: str) -> str:
    flags, _, paths = _flags(args, "la1hF")
    out = []
    for p in paths or ["."]:
        real = jail.resolve(p)
        if not real.exists():
            raise VerbError(f"cannot access '{p}': no such file or directory")
        entries = sorted(real.iterdir()) if real.is_dir() else [real]
        rows = [e for e in entries if "a" in flags or not e.name.startswith(".")]
        names = [(f"{e.stat().st_size:>10}  " if "l" in flags else "") + e.name + ("/" if e.is_dir() else "")
                 for e in rows]
        out.append((f"{p}:\n" if len(paths) > 1 else "") + "".join(f"{n}\n" for n in names))
    return "\n".join(out)


def wc(jail: Jail, args: list[str], stdin: str) -> str:
    flags, _, files = _flags(args, "lwc")
    show = [f for f in "lwc" if f in flags] or list("lwc")
    rows, total = [], dict.fromkeys("lwc", 0)
    for name, text in _inputs(jail, files, stdin):
        counts = {"l": text.count("\n"), "w": sum(1 for _ in re.finditer(r"\S+", text)),
                  "c": len(text.encode("utf-8", errors="surrogatepass"))}
        for k in total:
            total[k] += counts[k]
        rows.append((counts, "" if name == "-" else name))
    if len(rows) > 1:
        rows.append((total, "total"))
    return "".join(" ".join(f"{c[k]:>7}" for k in show) + (f" {name}" if name else "") + "\n" for c, name in rows)


def grep(jail: Jail, args: list[str], stdin: str) -> tuple[str, int]:
    flags, values, rest = _flags(args, "icvnFEwlqh", "e")
    if "e" not in values and not rest:
        raise VerbError("usage: grep [-icvnFwl] PATTERN [FILE...]")
    pattern = values["e"] if "e" in values else rest.pop(0)
    rx = _compile(pattern, flags)
    out, found = [], 0
    many = len(rest) > 1 and "h" not in flags
    for name, text in _inputs(jail, rest, stdin):
        hits = [(k, line) for k, line in enumerate(_lines(jail, text), 1)
                if not jail.check_time() and bool(rx.search(line)) != ("v" in flags)]
        found += len(hits)
        prefix = f"{name}:" if many else ""
        if "l" in flags:
            out += [name] if hits else []
        elif "c" in flags:
            out.append(f"{prefix}{len(hits)}")
        else:
            out += [f"{prefix}{f'{k}:' if 'n' in flags else ''}{line}" for k, line in hits]
    text = "" if "q" in flags else "".join(f"{line}\n" for line in out)
    return text, 0 if found else 1


def _compile(pattern: str, flags: set[str]):
    """An RE2 pattern (Python syntax without back-references and look-arounds)."""
    import re2  # google-re2

    if len(pattern) > MAX_PATTERN:
        raise VerbError(f"pattern longer than {MAX_PATTERN} characters")
    if "F" in flags:
        pattern = re2.escape(pattern)
    if "w" in flags:
        pattern = rf"\b(?:{pattern})\b"
    opts = re2.Options()
    opts.log_errors = False
    opts.max_mem = RE2_MEMORY
    opts.case_sensitive = "i" not in flags
    try:
        return re2.compile(pattern, opts)
    except re2.error as e:
        reason = e.args[0].decode("utf-8", "replace") if e.args and isinstance(e.args[0], bytes) else str(e)
        raise VerbError(f"bad pattern: {reason} (back-references and look-arounds are not supported)") from None


def sort(jail: Jail, args: list[str], stdin: str) -> str:
    flags, values, files = _flags(args, "nru", "tk")
    sep = values.get("t")
    m = re.match(r"(\d+)", values.get("k", "0"))
    field = _count(m[1], "k") if m else 0
    lines = _lines(jail, "".join(text if text.endswith("\n") or not text else text + "\n"
                                 for _, text in _inputs(jail, files, stdin)))

    def key(line: str):
        part = line
        if field:
            cols = line.split(sep) if sep else line.split()
            part = cols[field - 1] if field <= len(cols) else ""
        if "n" in flags:
            num = re.match(r"\s*(-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)", part)
            return float(num[1]) if num else 0.0
        return part

    lines.sort(key=key, reverse="r" in flags)
    if "u" in flags:
        lines = list(dict.fromkeys(lines))
    return "".join(f"{line}\n" for line in lines)


# ---------------------------------------------------------------------- text
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "r": "\r", '"': '"', "'": "'"}


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m[1], m[0]), text)


def echo(jail: Jail, args: list[str], stdin: str) -> str:
    flags = set()
    while args and re.fullmatch(r"-[neE]+", args[0]):
        flags |= set(args.pop(0)[1:])
    text = " ".join(args)
    return (_unescape(text) if "e" in flags else text) + ("" if "n" in flags else "\n")


def printf(jail: Jail, args: list[str], stdin: str) -> str:
    if not args:
        raise VerbError("usage: printf FORMAT [ARG...]")
    fmt, rest = _unescape(args[0]), args[1:]
    out = [_format(fmt, rest)]
    jail.budget.spend(len(out[-1]))
    # bash reuses the format for extra arguments; each reuse must consume one, or it never ends
    while rest and _SPEC.search(fmt.replace("%%", "")):
        out.append(_format(fmt, rest))
        jail.budget.spend(len(out[-1]))
    return "".join(out)


def _format(fmt: str, args: list[str]) -> str:
    def one(m: re.Match) -> str:
        if m[1] == "%":
            return "%"
        value = args.pop(0) if args else ""
        if m[1] == "d":
            try:
                return str(int(value or 0))
            except ValueError:
                raise VerbError(f"'{value[:20]}' is not an integer") from None
        return value

    return _SPEC.sub(one, fmt)


_SPEC = re.compile(r"%([sd%])")


# ---------------------------------------------------------------------- session
def cd(jail: Jail, args: list[str], stdin: str) -> str:
    jail.chdir(args[0] if args else "/workspace")
    return ""


def python(jail: Jail, args: list[str], stdin: str) -> tuple[str, int]:
    usage = "only `python input/evaluate_plan.py [PLAN]` can run here (no other Python)"
    if not args or args[0].startswith("-") or len(args) > 2:
        raise VerbError(usage)
    if jail.resolve(args[0]) != jail.root / "input" / "evaluate_plan.py":
        raise VerbError(usage)
    plan = args[1] if len(args) > 1 else f"/workspace/{PLAN_FILE}"
    result = evaluate(jail, plan)
    return json.dumps(result, indent=2) + "\n", 0 if jail.resolve(plan).is_file() else 2


PROGRAMS: dict[str, tuple[Callable, str]] = {
    "cat": (cat, "cat [FILE...] - print files (cat > work/f <<'EOF' writes one)"),
    "head": (lambda j, a, s: _head_tail(j, a, s, tail=False), "head [-n N] [FILE...] - first lines"),
    "tail": (lambda j, a, s: _head_tail(j, a, s, tail=True), "tail [-n N|+N] [FILE...] - last lines"),
    "ls": (ls, "ls [-l] [-a] [PATH...] - list a folder"),
    "wc": (wc, "wc [-l] [-w] [-c] [FILE...] - count lines, words, bytes"),
    "grep": (grep, "grep [-i] [-c] [-v] [-n] [-F] [-w] [-l] PATTERN [FILE...] - search (Python regex)"),
    "sort": (sort, "sort [-n] [-r] [-u] [-t SEP] [-k N] [FILE...] - sort lines"),
    "echo": (echo, "echo [-n] [-e] TEXT - print text"),
    "printf": (printf, "printf FORMAT [ARG...] - %s, %d, \\n only"),
    "pwd": (lambda j, a, s: j.pwd() + "\n", "pwd - current folder"),
    "cd": (cd, "cd [DIR] - change folder inside the workspace"),
    "python": (python, "python input/evaluate_plan.py [PLAN] - evaluate a plan (the only Python)"),
    "python3": (python, "python3 input/evaluate_plan.py [PLAN] - same as python"),
}
for _name, (_fn, _help) in PROGRAMS.items():
    register_verb(_name, _fn, _help)
