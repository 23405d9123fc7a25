"""The virtual terminal: the paper's terminal protocol over a safe bash subset (docs/design.md#the-sandbox).

An agent turn is one JSON object ``{"analysis", "plan", "commands": [{"keystrokes",
"duration"}], "task_complete"}``; each command line is parsed by ``shell.parse`` and run by
the registered programs and verbs, confined to the workspace by a ``Jail``. Nothing is
handed to a real shell and no text is evaluated. Every turn, command, output and evaluation
goes to ``logs/terminal.jsonl``. Commands run instantly, so ``duration`` is only validated.

Model text must not hang, exhaust or crash the host: every command and every turn runs against
the budgets of ``budget.Limits`` (time, data held, writes); a spent budget or any failure of a
program is an error line on the screen, never an exception out of ``run`` / ``run_turn``, and
host paths in any text shown are replaced by the workspace's virtual name.
"""
from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from .. import PLUGIN_ROOT
from ..util.io import append_jsonl
from . import programs  # noqa: F401 - registers cat, ls, grep … as verbs
from .budget import Budget, BudgetExceeded, Limits
from .confine import VIRTUAL_ROOT, Jail, SandboxError
from .shell import Command, ParseError, Pipeline, parse
from .verbs import VERBS, VerbError

MAX_KEYSTROKES = 200_000   # characters in one command (heredocs included)
MAX_COMMANDS = 20          # commands in one turn
MAX_PIPE = 4_000_000       # characters passed between the programs of a pipeline
MAX_LOGGED = 20_000        # characters of one text field in the log
TURN_KEYS = {"analysis": str, "plan": str, "commands": list, "task_complete": bool}


class VirtualTerminal:
    """A confined, logged command interpreter for one workspace."""

    def __init__(self, ws: str | os.PathLike, log_path: str | os.PathLike | None = None,
                 max_output: int = 8000, time_limit: float = 10.0, limits: Limits | None = None):
        """``limits`` sets every budget; without it ``time_limit`` (seconds per command) and
        ``max_output`` (characters shown per command) adjust the defaults."""
        if limits is None:
            limits = Limits(command_seconds=float(time_limit), command_output=int(max_output))
            limits = replace(limits, turn_seconds=max(limits.turn_seconds, limits.command_seconds))
        self.limits = limits
        self.budget = Budget(limits)
        self.jail = Jail(ws, self.budget)
        self.jail.log = self._log
        self.log_path = Path(log_path) if log_path is not None else self.jail.root / "logs" / "terminal.jsonl"
        self._in_turn = False
        # host folders the model must never see, longest first: the workspace, the plugin, Python
        self._hosts = sorted({(str(self.jail.root), VIRTUAL_ROOT), (str(Path(ws).absolute()), VIRTUAL_ROOT),
                              (str(PLUGIN_ROOT), "<plugin>"), (sys.executable, "python")},
                             key=lambda kv: -len(kv[0]))

    # ------------------------------------------------------------------ protocol
    def run_turn(self, turn: dict | str) -> dict[str, Any]:
        """Validate and run one agent turn; a malformed turn gives an error observation."""
        obj, error = parse_turn(turn)
        self._log({"event": "turn", "turn": _turn_record(obj) if obj is not None else _shown(turn),
                   "error": error})
        if obj is None:
            return {"ok": False, "error": error, "outputs": [], "observation": f"error: {error}",
                    "task_complete": False}
        self.budget.start_turn()
        self._in_turn = True
        try:
            outputs = [{"keystrokes": c["keystrokes"], "output": self.run(c["keystrokes"])} for c in obj["commands"]]
        finally:
            self._in_turn = False
        screen = "\n".join(f"$ {_clip(o['keystrokes'].rstrip(), 1000)}\n{o['output']}".rstrip("\n")
                           for o in outputs)
        return {"ok": True, "error": None, "outputs": outputs, "observation": screen,
                "task_complete": obj["task_complete"]}

    def run(self, keystrokes: str) -> str:
        """Run one command (possibly several lines, e.g. a here-document); return the screen text."""
        start = time.monotonic()
        if not self._in_turn:  # a command run on its own is a turn of its own
            self.budget.start_turn()
        self.budget.start_command()
        if not isinstance(keystrokes, str):
            out = "error: keystrokes must be a string"
        elif len(keystrokes) > MAX_KEYSTROKES:
            out = f"error: command longer than {MAX_KEYSTROKES} characters"
        else:
            out = self._script(keystrokes)
        self.budget.end_command()
        out = self._scrub(_cap(out, self.limits.command_output))
        self._log({"event": "command", "keystrokes": _clip(str(keystrokes)), "output": out,
                   "cwd": self.jail.pwd(), "seconds": round(time.monotonic() - start, 4)})
        return out

    def _scrub(self, text: str) -> str:
        """``text`` with host folders replaced by what the model may see."""
        for host, shown in self._hosts:
            if host in text:
                text = text.replace(host, shown)
        return text

    # ------------------------------------------------------------------ interpreter
    def _script(self, text: str) -> str:
        screen: list[str] = []
        pos, status = 0, 0
        try:
            while pos < len(text):
                self.budget.check_time()
                try:
                    line, pos = parse(text, pos)
                except ParseError as e:
                    screen.append(f"error: {e}; the rest was not run\n")
                    break
                for connector, pipeline in line:
                    if (connector == "&&" and status != 0) or (connector == "||" and status == 0):
                        continue
                    status = self._pipeline(pipeline, screen)
        except BudgetExceeded as e:
            screen.append(f"error: {e}; the rest was not run\n")
            self._log({"event": "budget", "error": str(e)})
        return "".join(screen)

    def _pipeline(self, pipeline: Pipeline, screen: list[str]) -> int:
        """Run one pipeline; a spent budget propagates (after its stage's notes reach the screen)."""
        data, status = "", 0
        for k, cmd in enumerate(pipeline):
            self.budget.check_time()
            out, err, status = self._command(cmd, data if k else None)
            screen.append(err)
            data = out[:MAX_PIPE]
        screen.append(data)
        return status

    def _command(self, cmd: Command, stdin: str | None) -> tuple[str, str, int]:
        """(stdout, stderr, status) of one simple command with its redirections."""
        name = _clip(cmd.argv[0].text, 80)
        out, status = "", 1
        try:
            argv = self._expand(cmd)
            name = _clip(argv[0], 80)
            verb = VERBS.get(argv[0])
            if verb is None:
                return "", f"{name}: command not found (type `help` for the commands)\n", 127
            stdin, sinks = self._redirections(cmd, stdin)
            result = verb.fn(self.jail, argv[1:], stdin or "")
            out, status = result if isinstance(result, tuple) else (result, 0)
            self.budget.spend(len(out))
            out = self._write_sinks(sinks, out)
        except BudgetExceeded:
            self.jail.notes.clear()
            raise
        except (VerbError, SandboxError) as e:
            out, status = "", 1
            self.jail.notes.append(f"{name}: {e}")
        except OSError as e:  # str(e) would name the host path
            out, status = "", 1
            self.jail.notes.append(f"{name}: {e.strerror or type(e).__name__}")
        except Exception as e:  # noqa: BLE001 - a failing verb (maybe a third party's) must not end the episode
            out, status = "", 1
            self.jail.notes.append(f"{name}: internal error: {type(e).__name__}: {_clip(str(e), 200)}")
            self._log({"event": "verb_error", "verb": name, "error": _clip(repr(e))})
        err = "".join(f"{n}\n" for n in self.jail.notes)
        self.jail.notes.clear()
        return out, err, status

    def _expand(self, cmd: Command) -> list[str]:
        """Words after glob expansion inside the workspace (a pattern matching nothing stays as is)."""
        argv: list[str] = []
        for w in cmd.argv:
            argv += (self.jail.glob(w.text) or [w.text]) if w.glob else [w.text]
        return argv

    def _redirections(self, cmd: Command, stdin: str | None) -> tuple[str | None, list[tuple[str, str]]]:
        """Standard input after ``<``/``<<`` and the checked output targets, before the command runs."""
        sinks: list[tuple[str, str]] = []
        for op, target in cmd.redirects:
            if op == "<":
                stdin = self.jail.read(target)
            elif op in ("<<", "<<-"):
                stdin = target
            elif op == "2>&1" or (op in ("2>", "2>>") and target == "/dev/null"):
                continue  # standard error already shows on the screen; discarding it is harmless
            elif target == "/dev/null":
                sinks.append((op, target))
            else:
                self.jail.resolve(target, write=True)
                sinks.append((op, target))
        return stdin, sinks

    def _write_sinks(self, sinks: list[tuple[str, str]], out: str) -> str:
        """Write standard output to its ``>``/``>>`` targets; what is left for the screen."""
        for op, target in sinks:
            if op in (">", ">>"):
                if target != "/dev/null":
                    self.jail.write(target, out, append=op == ">>")
                out = ""
            else:  # 2> FILE: this terminal's programs report errors in notes, so the file is just created
                self.jail.write(target, "", append=op == "2>>")
        return out

    # ------------------------------------------------------------------ log
    def _log(self, record: dict[str, Any]) -> None:
        append_jsonl(self.log_path, record)


def parse_turn(turn: dict | str) -> tuple[dict | None, str | None]:
    """(turn, None) for a well-formed protocol turn, else (None, one-line reason)."""
    if isinstance(turn, str):
        try:
            turn = json.loads(turn)
        except (ValueError, RecursionError):  # ValueError: bad JSON, or an integer over Python's digit limit
            return None, 'a turn must be one JSON object {"analysis", "plan", "commands", "task_complete"}'
    if not isinstance(turn, dict):
        return None, f"a turn must be a JSON object, got {type(turn).__name__}"
    for key, kind in TURN_KEYS.items():
        if not isinstance(turn.get(key), kind):
            return None, f"'{key}' must be a {kind.__name__}" + ("" if key in turn else " (missing)")
    if len(turn["commands"]) > MAX_COMMANDS:
        return None, f"at most {MAX_COMMANDS} commands per turn"
    for k, c in enumerate(turn["commands"]):
        if not isinstance(c, dict) or not isinstance(c.get("keystrokes"), str):
            return None, f"commands[{k}] must be an object with a string 'keystrokes'"
        d = c.get("duration", 1.0)
        if isinstance(d, bool) or not isinstance(d, (int, float)) or not 0 <= d <= 60:
            return None, f"commands[{k}].duration must be a number of seconds from 0 to 60"
    return turn, None


def _turn_record(turn: dict) -> dict[str, Any]:
    """The protocol fields of a valid turn (extra keys may hold anything, so they are left out)."""
    return {"analysis": _clip(turn["analysis"]), "plan": _clip(turn["plan"]),
            "commands": [{"keystrokes": _clip(c["keystrokes"]), "duration": c.get("duration", 1.0)}
                         for c in turn["commands"]],
            "task_complete": turn["task_complete"]}


def _shown(turn: Any) -> str:
    """A refused turn as logged (repr fails on an integer over Python's digit limit)."""
    try:
        return _clip(turn if isinstance(turn, str) else repr(turn))
    except ValueError:
        return f"<unprintable {type(turn).__name__}>"


def _cap(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[output truncated: {limit} of {len(text)} characters shown]\n"


def _clip(text: str, limit: int = MAX_LOGGED) -> str:
    return text if len(text) <= limit else text[:limit] + "…"
