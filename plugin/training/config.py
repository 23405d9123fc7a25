"""Training configuration: a TOML file with the sections and keys of ``DEFAULTS``.

``--config NAME`` reads ``resources/training/NAME.toml`` (``cpu-smoke``, ``gpu``); any other
value is a path to a TOML file. Missing keys take the defaults below; an unknown section or
key, or a value of the wrong type, is refused with one line naming it. The shipped files
comment every key.
"""
from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

from .. import RESOURCES
from ..errors import InputError

CONFIG_DIR = RESOURCES / "training"

DEFAULTS: dict[str, dict[str, Any]] = {
    "model": {"path": "default", "lora_rank": 8, "lora_alpha": 16.0,
              "targets": ["attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down"],
              "device": "cpu", "dtype": "float32", "threads": 1},
    "data": {"suite": "full", "tasks": ["land", "road", "station"], "sizes": ["small"],
             "goals": ["build", "improve"], "train_instances": 3, "test_instances": 1, "show_candidates": 16,
             "compact_prompt": True},
    "sft": {"steps": 3, "lr": 3e-4, "batch": 2, "tool_share": 0.5},
    "grpo": {"steps": 2, "tasks_per_step": 1, "group": 2, "lr": 2e-5, "temperature": 1.0,
             "max_new_tokens": 96, "clip": 0.2, "kl_beta": 0.04, "inner_steps": 1},
    "eval": {"variants": ["base", "sft", "grpo"], "goals": ["build", "improve"], "max_tokens": 128,
             "refinement_rounds": 0},
    "run": {"seed": 0, "checkpoint_every": 1},
}
CHOICES = {("model", "device"): ("cpu", "cuda"), ("model", "dtype"): ("float32", "bfloat16"),
           ("data", "goals"): ("build", "improve"), ("eval", "goals"): ("build", "improve"),
           ("eval", "variants"): ("base", "sft", "grpo")}


class Section(dict):
    """A config section with attribute access (``cfg.grpo.group``)."""

    def __getattr__(self, key: str) -> Any:
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None


def config_path(name: str) -> Path:
    """The TOML file of a shipped config name (resources/training/NAME.toml) or a path; an InputError lists the shipped names."""
    shipped = CONFIG_DIR / f"{name}.toml"
    if shipped.is_file():
        return shipped
    p = Path(name)
    if p.is_file():
        return p
    known = ", ".join(sorted(f.stem for f in CONFIG_DIR.glob("*.toml")))
    raise InputError(f"config '{name}' not found (shipped: {known}; or give a TOML file path)")


def load_config(name: str, overrides: dict[str, dict[str, Any]] | None = None) -> Section:
    """Read a config by name or path and validate it (with ``overrides`` on top): one-line InputError on bad input."""
    path = config_path(name)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise InputError(f"cannot read config {path}: {e}") from e
    return validate(raw, overrides)


def validate(raw: dict[str, Any], overrides: dict[str, dict[str, Any]] | None = None) -> Section:
    """The defaults merged with ``raw`` and ``overrides``; unknown sections or keys, wrong types,
    negatives and shares above 1 are InputErrors."""
    merged = copy.deepcopy(DEFAULTS)
    for source in (raw, overrides or {}):
        for section, values in source.items():
            if section not in DEFAULTS or not isinstance(values, dict):
                raise InputError(f"config: unknown section [{section}] (sections: {', '.join(DEFAULTS)})")
            for key, value in values.items():
                if key not in DEFAULTS[section]:
                    raise InputError(f"config: unknown key {section}.{key}")
                merged[section][key] = _checked(section, key, value)
    return Section({s: Section(v) for s, v in merged.items()})


def _checked(section: str, key: str, value: Any) -> Any:
    default = DEFAULTS[section][key]
    kind = float if isinstance(default, float) else type(default)
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value, ok = float(value), True
    if not ok:
        raise InputError(f"config: {section}.{key} must be {kind.__name__}, got {value!r}")
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0:
        raise InputError(f"config: {section}.{key} must not be negative")
    if key.endswith("_share") and value > 1:
        raise InputError(f"config: {section}.{key} is a share, at most 1")
    allowed = CHOICES.get((section, key))
    items = value if isinstance(value, list) else [value]
    if allowed and any(v not in allowed for v in items):
        raise InputError(f"config: {section}.{key} must be among {', '.join(allowed)}, got {value!r}")
    return value
