"""``python -m plugin deps [--install] [--prefix DIR] [--find-links DIR] [--group core|llm]``:
which features the running Python can use, and (``--install``) pip the missing packages
into a prefix — the plugin's "Install dependencies" action without QGIS's window."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..errors import InputError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--prefix", type=Path, default=None,
                        help="packages folder to use and install into (a QGIS profile's python/dependencies)")
    parser.add_argument("--install", action="store_true", help="install what --group lacks into --prefix")
    parser.add_argument("--group", choices=("core", "llm"), default="core", help="what to install (default core)")
    parser.add_argument("--find-links", type=Path, default=None, help="offline: a wheelhouse folder (--no-index)")
    parser.add_argument("--index-url", default=None,
                        help="the one package index to use (default the public registry; pip.conf and PIP_* are "
                             "never read)")


def run(args: argparse.Namespace) -> dict[str, Any]:
    from ..deps import statuses
    from ..deps.features import unmet_requirements
    from ..deps.installer import plan
    from ..deps.installer import run as install
    from ..deps.paths import activate

    out: dict[str, Any] = {}
    if args.prefix is not None:
        activate(args.prefix)
    if args.install:
        if args.prefix is None:
            raise InputError("--install needs --prefix DIR (never the system environment)")
        if args.find_links is not None and not args.find_links.is_dir():
            raise InputError(f"wheelhouse folder not found: {args.find_links}")
        if args.index_url is not None and not args.index_url.startswith(("https://", "http://")):
            raise InputError(f"--index-url must be an http(s) URL: {args.index_url}")
        reqs = unmet_requirements(args.group)
        if reqs:
            try:
                res = install(plan(args.prefix, reqs, args.find_links, args.index_url))
            except RuntimeError as e:
                raise InputError(str(e)) from None
            if not res.ok:
                raise InputError(res.message)
            out["installed"] = res.message
        else:
            out["installed"] = "nothing to install"
    out["features"] = [{"feature": s.feature.key, "ok": s.ok, **({} if s.ok else {"message": s.message})}
                       for s in statuses()]
    return out
