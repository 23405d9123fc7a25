"""``python -m plugin COMMAND …``: the headless interface (docs/design.md#headless-interface).

Each command lives in ``plugin.commands.<name>`` and is imported only when chosen, so
``--help`` stays instant. ``run(args)`` returns a JSON-serialisable result (printed) or an
exit code. Bad input raises ``InputError``: one line on stderr, exit code 2.
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys

from .deps import require
from .errors import Cancelled, InputError

COMMANDS: dict[str, str] = {
    "city": "build the city model of a region or PBF and write it as a GeoPackage",
    "instance": "build a planning instance workspace (land | road | station)",
    "evaluate": "evaluate a plan in a workspace",
    "audit": "flag a plan's sites and links that make no sense on the map (road reserve, water, too narrow …)",
    "solve": "solve a workspace with a heuristic, the MILP or the default method",
    "bench": "benchmark solvers on an instance suite",
    "sweep": "a certified budget curve: score, bound and sites at each budget, scenarios priced (Dask)",
    "agent": "plan a workspace with a language model (BuildPlan / ImprovePlan loop)",
    "ask": "answer a free-text planning request with tools, or ask for what is missing",
    "mcp": "serve the planning tools over MCP on stdio",
    "train": "train the planner model (SFT + GRPO on BuildPlan/ImprovePlan), export a GGUF LoRA adapter",
    "instruct": "a planner instruction in words → constraints → a certified re-plan and its price (--list, --remove K, --clear)",
    "participate": "participatory revision: residents discuss a parcel plan in fishbowl rounds, the planner revises it",
    "deps": "which features this Python can run; --install the missing packages into a prefix",
}

#: commands that need a feature's packages before they start (plugin.deps.features)
NEEDS = {"city": "city", "instance": "city", "train": "training"}


def _usage() -> str:
    width = max(map(len, COMMANDS))
    rows = "\n".join(f"  {name:<{width}}  {text}" for name, text in COMMANDS.items())
    return ("usage: python -m plugin COMMAND [options]\n\nCityPlanner headless commands:\n"
            f"{rows}\n\n'python -m plugin COMMAND --help' describes one command.")


def _not_shipped(e: ModuleNotFoundError) -> int:
    """One line when a module of the plugin itself is missing: the ZIP a user installs leaves the
    benchmark harness out (scripts/package.py), so ``bench`` needs the repository. Any other
    missing module is a real error and is raised again."""
    if not (e.name or "").startswith(f"{__package__}."):
        raise e
    print(f"error: {e.name} is not in this install (the plugin ZIP carries no benchmark harness); "
          "run this command from a checkout of the repository", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(_usage())
        return 0
    name = argv[0]
    if name not in COMMANDS:
        print(f"error: unknown command '{name}'\n\n{_usage()}", file=sys.stderr)
        return 2
    try:
        module = importlib.import_module(f".commands.{name}", __package__)
    except ModuleNotFoundError as e:
        return _not_shipped(e)
    parser = argparse.ArgumentParser(prog=f"python -m plugin {name}", description=COMMANDS[name])
    module.add_arguments(parser)
    args = parser.parse_args(argv[1:])
    try:
        if name in NEEDS:
            require(NEEDS[name])  # a missing package is one line with its fix, not a traceback
        result = module.run(args)
    except InputError as e:
        print(f"error: {str(e).splitlines()[0] if str(e) else type(e).__name__}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as e:
        return _not_shipped(e)
    except Cancelled as e:
        print(f"cancelled: {e}", file=sys.stderr)
        return 130
    except OSError as e:  # an output under a file, a read-only folder, a full disk: the user's to fix
        where = f": {e.filename}" if e.filename else ""
        print(f"error: {e.strerror or type(e).__name__}{where}", file=sys.stderr)
        return 2
    if isinstance(result, int):
        return result
    print(json.dumps(result, indent=2, default=str))
    return 0
