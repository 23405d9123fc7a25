"""Land-use value mapping: a parcel layer's own values → planning types.

Targets: ``residential`` (homes: the demand), ``feasible`` (may be re-planned), the eight
facility types of ``plugin.tasks.land.TYPES`` (existing facilities), or ``ignore``.
A mapping is ``"9100301=feasible,1=residential"`` or a CSV file of ``value,type`` rows
(a header row is allowed). Without an entry, a value that is a target name (any case) maps
to itself; integer codes map as the participation data's codes (1 feasible, 4 residential,
5–12 the types) only when every unmapped code of the layer is one of them (a warning says
so) — a layer with other codes needs them all mapped. Empty cells are ignored (a warning).
Any other value is unmapped: a one-line error naming the 20 most frequent with their counts,
the syntax, and a CSV file with the full list.
"""
from __future__ import annotations

import csv
import re
import tempfile
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InputError
from ..tasks.land.constants import TYPE_CODES, TYPES

TARGETS = ("residential", "feasible", *TYPES, "ignore")
SYNTAX = ('--landuse-map "VALUE=TYPE,VALUE=TYPE" or a CSV of value,type rows (QGIS: the LANDUSE_MAP table); '
          "TYPE is one of " + ", ".join(TARGETS))
SHOWN = 20
MANY = 10_000  # more distinct values than this: most likely an id field, not land use


def value_key(v) -> str | None:
    """A cell as a mapping key: '' / None / NaN → None; 9100301.0 → '9100301'; text stripped."""
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return None
    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return str(int(v))
    s = str(v).strip()
    if s.endswith(".0") and s[:-2].lstrip("-").isdigit():
        s = s[:-2]
    return s or None


def _target(name: str, where: str) -> str:
    t = name.strip().lower()
    if t not in TARGETS:
        raise InputError(f"land-use map {where}: '{name}' is not a planning type ({', '.join(TARGETS)})")
    return t


def parse_landuse_map(spec: str | Mapping[str, str] | None) -> dict[str, str]:
    """A mapping from ``"a=b,c=d"``, a CSV path or a dict; keys are ``value_key`` text."""
    if spec is None or spec == "":
        return {}
    if isinstance(spec, Mapping):
        return {value_key(k): _target(str(v), f"entry {k}") for k, v in spec.items() if value_key(k) is not None}
    text = str(spec).strip()
    if _is_file(text) or text.lower().endswith(".csv"):
        return _read_csv(Path(text))
    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, val = part.rpartition("=")
        if not sep or not key.strip():
            raise InputError(f"land-use map: '{part}' is not VALUE=TYPE ({SYNTAX})")
        out[value_key(key)] = _target(val, f"entry '{part}'")
    return out


def _is_file(text: str) -> bool:
    """Whether ``text`` names a file; an inline map longer than a file name can be is not one
    (``Path.is_file`` raised "File name too long" on an inline map of 256+ characters)."""
    try:
        return Path(text).is_file()
    except (OSError, ValueError):
        return False


def _read_csv(path: Path) -> dict[str, str]:
    if not path.is_file():
        raise InputError(f"land-use map: file not found: {path}")
    try:
        with path.open(newline="", encoding="utf-8-sig") as f:
            sample = f.read(4096)
            f.seek(0)
            dialect = csv.Sniffer().sniff(sample, delimiters=",;\t") if sample.strip() else csv.excel
            rows = [r for r in csv.reader(f, dialect) if any(c.strip() for c in r)]
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise InputError(f"land-use map {path.name}: cannot read: {e}") from None
    if rows and len(rows[0]) >= 2 and rows[0][1].strip().lower() not in TARGETS:
        rows = rows[1:]  # a header row
    out: dict[str, str] = {}
    for n, row in enumerate(rows, 1):
        if len(row) < 2 or value_key(row[0]) is None:
            raise InputError(f"land-use map {path.name}: row {n} is not value,type")
        out[value_key(row[0])] = _target(row[1], f"{path.name} row {n}")
    return out


def _is_code(key: str) -> bool:
    return key.lstrip("-").isdigit()


def default_targets(keys) -> dict[str, str]:
    """What values map to without an entry: type names to themselves; integer codes to the
    participation codes, but only when every code among ``keys`` is one of them."""
    keys = set(keys)
    out = {k: k.lower() for k in keys if k.lower() in TARGETS}
    codes = {k for k in keys if _is_code(k)}
    if codes and all(int(k) in TYPE_CODES for k in codes):
        out.update({k: TYPE_CODES[int(k)] for k in codes})
    return out


def value_counts(values: pd.Series) -> pd.Series:
    """Distinct land-use values (as mapping keys) with their counts, most frequent first."""
    keys = values.map(value_key).dropna()
    return keys.value_counts()


def apply_landuse_map(values: pd.Series, mapping: Mapping[str, str], field: str, label: str,
                      warnings: list[str]) -> pd.Series:
    """Targets for ``values`` (same index; 'ignore' for ignored and empty cells).

    Unmapped values raise the one-line InputError described in the module docstring."""
    keys = values.map(value_key)
    table = dict(mapping)
    implied = default_targets(k for k in keys.dropna().unique() if k not in table)
    table.update(implied)
    if any(_is_code(k) for k in implied):
        warnings.append(f"{label}: integer values of '{field}' read as the participation codes "
                        + ", ".join(f"{c} {t}" for c, t in TYPE_CODES.items()) + " (map them to say otherwise)")
    targets = keys.map(lambda k: None if k is None else table.get(k))
    empty = keys.isna()
    unmapped = ~empty & targets.isna()
    if unmapped.any():
        raise InputError(unmapped_message(keys[unmapped].value_counts(), field, label))
    if empty.any():
        warnings.append(f"{label}: {int(empty.sum())} parcel(s) with an empty '{field}' ignored")
    out = targets.fillna("ignore")
    dropped = int((out == "ignore").sum() - empty.sum())
    if dropped:
        warnings.append(f"{label}: {dropped} parcel(s) mapped to 'ignore'")
    return out


def unmapped_message(counts: pd.Series, field: str, label: str) -> str:
    """The unmapped-values error; when more values than the message shows, the full list
    (value,count) goes to a CSV named in it — one file per field, replaced by the next error
    (a fresh temporary file per error left one behind every time)."""
    import hashlib
    import io

    from ..util.io import atomic_write_text

    shown = ", ".join(f"{k} ({n})" for k, n in counts.iloc[:SHOWN].items())
    more = f" and {len(counts) - SHOWN:,} more" if len(counts) > SHOWN else ""
    hint = (f"'{field}' has {len(counts):,} distinct unmapped values: is it an id field rather than land use? "
            if len(counts) > MANY else "")
    listed = ""
    if len(counts) > SHOWN:
        buf = io.StringIO()
        w = csv.writer(buf)
        w.writerow(["value", "count"])
        w.writerows(counts.items())
        tag = hashlib.sha256(f"{label}|{field}".encode("utf-8", "replace")).hexdigest()[:12]
        path = Path(tempfile.gettempdir()) / f"cityplanner-unmapped-{tag}.csv"
        atomic_write_text(path, buf.getvalue())
        listed = f"; full list: {path}"
    return (f"{label}: {hint}unknown land-use values {shown}{more} in field '{field}' (no mapping); map them with "
            f"{SYNTAX}{listed}")


def parse_need(text: str | None) -> dict[str, int]:
    """``"school=2, green_l=1"`` → {"school": 2, "green_l": 1}; one-line InputError otherwise."""
    need: dict[str, int] = {}
    for part in filter(None, (s.strip() for s in (text or "").split(","))):
        name, sep, value = part.partition("=")
        name = name.strip().lower()
        # at most 6 ASCII digits: a count of parcels (5,000 digits raised past int()'s limit)
        if not sep or name not in TYPES or not re.fullmatch(r"[0-9]{1,6}", value.strip()):
            raise InputError(f"need: '{part}' is not TYPE=COUNT with TYPE one of {', '.join(TYPES)}")
        need[name] = int(value)
    return need


NEED_HINT = (f"give the need per land-use type, e.g. school=2,green_s=1 (--need, or NEED in QGIS; "
             f"types: {', '.join(TYPES)})")
