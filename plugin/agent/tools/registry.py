"""The tool registry shared by the ask agent and the MCP server (docs/reference.md#urbanagent-and-urbaneval).

A ``Tool`` has a name, a description, a JSON input schema and a source server; its function
takes a ``ToolContext`` and the validated arguments and returns a JSON-able dict. ``Registry.call``
never raises: unknown tools, arguments that break the schema, ``ToolFailure`` (nothing found, a
place outside the region) and unexpected exceptions all become failed ``Observation``s, so an
agent always gets something to reason about and a bad call cannot crash a server.

Confinement: tools read only the regions named in the context, files under its read roots
and workspaces under its root; they write only inside workspaces under ``root``.
"""
from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...city import REGIONS

SOURCE = "cityplanner"  # the source server name every local tool records


class ToolFailure(Exception):
    """A call that ran but produced no usable result; the message is one line for the agent."""


@dataclass
class ToolContext:
    """What tools may touch: named regions, read-only roots, one writable workspace root."""

    root: Path
    regions: dict[str, Path] = field(default_factory=lambda: dict(REGIONS))
    read_roots: tuple[Path, ...] = ()

    def __post_init__(self) -> None:
        self.root = Path(self.root).resolve()
        self.read_roots = tuple(Path(p).resolve() for p in self.read_roots)

    def workspace(self, name: str, must_exist: bool = True) -> Path:
        """The workspace ``name`` (relative to ``root``), refused if it would leave ``root``."""
        p = _inside(self.root / name, (self.root,), f"workspace '{name}' is outside the workspace root")
        if p == self.root:
            raise ToolFailure("give a workspace name, not the root itself")
        if must_exist and not (p / "input" / "export.json").is_file():
            raise ToolFailure(f"no workspace '{name}' (build one with build_instance first)")
        return p

    def readable(self, path: str) -> Path:
        """A file under the read roots or the workspace root; anything else is refused."""
        p = _inside(Path(path) if Path(path).is_absolute() else self.root / path,
                    (*self.read_roots, self.root), f"'{path}' is outside the folders this server may read")
        if not p.is_file():
            raise ToolFailure(f"file not found: {path}")
        return p


def _inside(path: Path, roots: tuple[Path, ...], message: str) -> Path:
    # realpath also resolves symlinks, so a link cannot lead out of a root
    p = Path(os.path.realpath(path))
    if not any(p == r or r in p.parents for r in roots):
        raise ToolFailure(message)
    return p


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    schema: dict[str, Any]
    fn: Callable[[ToolContext, dict[str, Any]], dict[str, Any]]
    source: str = SOURCE

    def spec(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "input_schema": self.schema,
                "source": self.source}


@dataclass
class Observation:
    """One executed (or refused) call: tool, server, parameters, raw return, status, latency."""

    tool: str
    server: str
    params: dict[str, Any]
    status: str                      # ok | failed
    result: dict[str, Any] | None
    error: str | None
    latency_s: float

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


class Registry:
    """Named tools over one context; ``call`` validates, runs and wraps every call."""

    def __init__(self, tools: list[Tool], ctx: ToolContext):
        self.tools = {t.name: t for t in tools}
        self.ctx = ctx

    def specs(self) -> list[dict[str, Any]]:
        return [t.spec() for t in self.tools.values()]

    def call(self, name: str, args: dict[str, Any] | None) -> Observation:
        t0 = time.perf_counter()
        args = dict(args or {}) if isinstance(args, dict) else args
        tool = self.tools.get(name)
        server = tool.source if tool else "unknown"

        def done(status: str, result: dict | None = None, error: str | None = None) -> Observation:
            return Observation(name, server, args if isinstance(args, dict) else {"_raw": args}, status,
                               result, error, round(time.perf_counter() - t0, 4))

        if tool is None:
            return done("failed", error=f"unknown tool '{name}' (tools: {', '.join(self.tools)})")
        problem = schema_error(tool.schema, args)
        if problem:
            return done("failed", error=f"bad arguments for {name}: {problem}")
        try:
            result = tool.fn(self.ctx, args)
        except ToolFailure as e:
            return done("failed", error=str(e))
        except Exception as e:  # noqa: BLE001 - a backend exception is an observation, never a crash
            return done("failed", error=f"{name} failed: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
        return done("ok", result=result)


def object_schema(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False}


def region_schema(ctx: ToolContext) -> dict[str, Any]:
    return {"type": "string", "enum": sorted(ctx.regions), "description": "region name"}


def schema_error(schema: dict[str, Any], args: Any) -> str | None:
    """The first JSON-schema violation of ``args`` as one line, or None."""
    import jsonschema  # a dependency of the pinned mcp package

    err = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(args))
    if err is None:
        return None
    where = "/".join(str(p) for p in err.absolute_path)
    return f"{where + ': ' if where else ''}{err.message}"


def dumps(result: Any) -> str:
    """Compact JSON of a tool result (for prompts and MCP text content)."""
    return json.dumps(result, separators=(",", ":"), ensure_ascii=False, default=str)
