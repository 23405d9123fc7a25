"""Parser of the safe bash subset the virtual terminal accepts (no execution here).

Supported: words with '…', "…" and backslash quoting; pipes ``|``; sequencing ``;``,
``&&``, ``||`` and newlines; redirections ``>``, ``>>``, ``<``, here-documents ``<<`` /
``<<-``, ``2>``, ``2>>`` and ``2>&1``; ``#`` comments; unquoted ``*``/``?`` globs. Refused
with a one-line reason: command substitution (backticks, ``$(…)``), variable expansion
(``$NAME``, ``${…}``), background jobs (``&``) and subshells (``( … )``). Nothing in the
text is ever expanded or evaluated, so a refusal is the only way a construct can fail.
"""
from __future__ import annotations

from dataclasses import dataclass, field

OPERATORS = ("2>&1", "2>>", "<<-", "&&", "||", ">>", "<<", "2>", "|", ";", ">", "<", "&", "(", ")")
REDIRECTS = (">", ">>", "<", "<<", "<<-", "2>", "2>>", "2>&1")
CONNECTORS = (";", "&&", "||")
UNSUPPORTED = {"&": "background jobs (&) are not supported",
               "(": "subshells ( … ) are not supported", ")": "subshells ( … ) are not supported"}
# a character at which an operator may be recognised (most are not: the scan is skipped); the
# "2" of 2> 2>> 2>&1 is already in the word buffer when the ">" comes
_OP_START = set("".join(OPERATORS)) - {"2"}
_VAR_START = set("({_?#@*!$-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


class ParseError(Exception):
    """The command line uses something outside the supported subset."""


@dataclass
class Word:
    text: str
    glob: bool = False  # an unquoted * ? or [ appeared


@dataclass
class Op:
    op: str


@dataclass
class Command:
    argv: list[Word] = field(default_factory=list)
    redirects: list[tuple[str, str]] = field(default_factory=list)  # (op, target or heredoc body)


Pipeline = list[Command]
Line = list[tuple[str, Pipeline]]  # (connector before it: "" for the first, ";", "&&", "||")


def _single_quoted(text: str, pos: int, buf: list[str]) -> int:
    """Append the text of a '…' word starting after its quote; return the position after it."""
    end = text.find("'", pos)
    if end < 0:
        raise ParseError("unterminated single quote")
    buf.append(text[pos:end])
    return end + 1


def tokenize(text: str, pos: int = 0) -> tuple[list[Word | Op], int]:
    """Tokens of one logical line starting at ``pos``; returns them and the position after it."""
    toks: list[Word | Op] = []
    buf: list[str] = []
    started = glob = False
    n = len(text)

    def flush() -> None:
        nonlocal started, glob
        if started:
            toks.append(Word("".join(buf), glob))
        buf.clear()
        started = glob = False

    while pos < n:
        c = text[pos]
        if c == "\n":
            pos += 1
            break
        if c in " \t\r":
            flush()
            pos += 1
        elif c == "#" and not started:
            while pos < n and text[pos] != "\n":
                pos += 1
        elif c == "\\":
            if pos + 1 < n and text[pos + 1] != "\n":
                buf.append(text[pos + 1])
                started = True
            pos += 2
        elif c == "'":
            pos = _single_quoted(text, pos + 1, buf)
            started = True
        elif c == '"':
            pos = _double_quoted(text, pos + 1, buf)
            started = True
        elif c == "`" or (c == "$" and pos + 1 < n and text[pos + 1] in _VAR_START):
            raise ParseError("command substitution and variables ($…, `…`) are not supported")
        else:
            op = _operator_at(text, pos, buf if started and not glob else None) if c in _OP_START else None
            if op is None:
                glob = glob or c in "*?["
                buf.append(c)
                started = True
                pos += 1
            else:
                if op.startswith("2>"):  # the "2" already in the buffer belongs to the operator
                    buf.clear()
                    started = False
                    pos -= 1
                flush()
                toks.append(Op(op))
                pos += len(op)
    flush()
    return toks, pos


def _double_quoted(text: str, pos: int, buf: list[str]) -> int:
    while pos < len(text):
        c = text[pos]
        if c == '"':
            return pos + 1
        if c == "\\" and pos + 1 < len(text) and text[pos + 1] in '"\\$`':
            buf.append(text[pos + 1])
            pos += 2
            continue
        if c == "`" or (c == "$" and pos + 1 < len(text) and text[pos + 1] in _VAR_START):
            raise ParseError("command substitution and variables ($…, `…`) are not supported")
        buf.append(c)
        pos += 1
    raise ParseError("unterminated double quote")


def _operator_at(text: str, pos: int, word: list[str] | None) -> str | None:
    """The operator starting at ``pos``; ``2>`` only right after a bare ``2`` word."""
    for op in OPERATORS:
        if op.startswith("2"):
            if word == ["2"] and text.startswith(op[1:], pos):
                return op
        elif text.startswith(op, pos):
            return op
    return None


def parse(text: str, pos: int = 0) -> tuple[Line, int]:
    """Parse one line (plus the here-document bodies it opens) starting at ``pos``."""
    toks, pos = tokenize(text, pos)
    line: Line = []
    pipeline: Pipeline = []
    cmd = Command()
    connector = ""
    i = 0
    while i < len(toks):
        t = toks[i]
        if isinstance(t, Word):
            cmd.argv.append(t)
        elif t.op in UNSUPPORTED:
            raise ParseError(UNSUPPORTED[t.op])
        elif t.op == "2>&1":
            cmd.redirects.append((t.op, ""))
        elif t.op in REDIRECTS:
            i += 1
            if i >= len(toks) or not isinstance(toks[i], Word):
                raise ParseError(f"syntax error: '{t.op}' needs a file name")
            target = toks[i].text
            if t.op.startswith("<<"):
                target, pos = _heredoc(text, pos, target, strip_tabs=t.op == "<<-")
            cmd.redirects.append((t.op, target))
        else:  # | ; && ||
            if not cmd.argv:
                raise ParseError(f"syntax error near '{t.op}'")
            pipeline.append(cmd)
            cmd = Command()
            if t.op in CONNECTORS:
                line.append((connector, pipeline))
                pipeline, connector = [], t.op
        i += 1
    if cmd.argv:
        pipeline.append(cmd)
    elif cmd.redirects or pipeline or connector in ("&&", "||"):
        raise ParseError("syntax error: a command is missing")  # `> f`, `a |` or `a &&`
    if pipeline:
        line.append((connector, pipeline))
    return line, pos


def _heredoc(text: str, pos: int, delim: str, strip_tabs: bool) -> tuple[str, int]:
    body: list[str] = []
    while pos < len(text):
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        raw = text[pos:end]
        pos = end + 1
        line = raw.lstrip("\t") if strip_tabs else raw
        if line.rstrip("\r") == delim:
            return "".join(f"{b}\n" for b in body), pos
        body.append(line)
    raise ParseError(f"here-document not closed: add a line '{delim}'")
