"""The constraint language: one JSON object per planner instruction (README.md in this folder).

A constraint is data, never code. ``kind`` says what it does; the other fields are the
arguments the kind reads (see ``KINDS``). ``target`` names a feature of the data: a candidate
id, a place name (a POI, a street, ``block N``) or a POI category; the resolver turns it
into ``points`` (coordinates in the instance CRS) before the constraint is stored, so a
stored constraint compiles against its instance without the city model.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from .. import RESOURCES

#: kind -> (what it means, the fields it needs besides ``kind``). "Candidates" below are those
#: of ``type`` (when given) and, when the constraint has a target, those of the target: its id
#: (a candidate, a site, a parcel/block, a link), within ``distance_m`` of it, or inside it (``area``).
KINDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "lock_in": ("select at least one candidate of the target", ("target",)),
    "lock_out": ("select no candidate of the target", ("target",)),
    "exclude_near": ("select no candidate within distance_m of the target", ("target", "distance_m")),
    "require_near": ("select at least `count` (default 1) candidates within distance_m of the target",
                     ("target", "distance_m")),
    "count_min": ("select at least `count` candidates", ("count",)),
    "count_max": ("select at most `count` candidates", ("count",)),
    "spacing_min": ("no two selected candidates (at different sites) closer than distance_m", ("distance_m",)),
    "budget_share_max": ("spend at most `share` (0..1) of the budget (with `type`: on candidates of that type)",
                         ("share",)),
    "emphasis": ("optimise S + weight·E(term): favour one score term (the price is still measured on S)",
                 ("term",)),
    "inside_area": ("select only candidates inside the target polygon (with distance_m: only those within it of the "
                    "target)", ("target",)),
    "outside_area": ("select no candidate touching the target polygon", ("target",)),
    "coverage": ("every residential demand unit within distance_m of a selected candidate (of `type`) or of "
                 "an existing feature of the target category", ("distance_m",)),
}
SOURCES = ("rules", "model", "endpoint", "manual")
#: a distance the planner did not give: the reply states it (README: documented defaults)
DEFAULT_NEAR_M = 300.0
DEFAULT_LOCK_M = 60.0       # a named place locks the candidates within this distance of it
DEFAULT_EMPHASIS = 0.5      # weight of an emphasised term
TYPE_COLUMNS = ("type", "site_kind", "kind")


@lru_cache(maxsize=1)
def constraint_schema() -> dict[str, Any]:
    """The JSON schema of one stored constraint (resources/constraints/constraint.schema.json)."""
    return json.loads((RESOURCES / "constraints" / "constraint.schema.json").read_text(encoding="utf-8"))


def schema_errors(obj: Any) -> list[str]:
    """Every JSON-schema violation of one constraint, plus the fields its kind needs."""
    import jsonschema

    errs = [f"{'/'.join(map(str, e.absolute_path)) or 'constraint'}: {e.message}"
            for e in jsonschema.Draft202012Validator(constraint_schema()).iter_errors(obj)]
    if errs or not isinstance(obj, dict):
        return errs
    need = KINDS[obj["kind"]][1]
    return [f"{obj['kind']} needs '{f}'" for f in need if obj.get(f) in (None, "", {})]


def summary(c: dict[str, Any]) -> str:
    """One line in words (what lists and violation messages show)."""
    t = c.get("target") or {}
    if t.get("id"):
        what = f"no. {t['id']}" if str(t["id"]).isdigit() else str(t["id"])
    else:
        what = t.get("name") or (f"any {t['category']}" if t.get("category") else "")
    typ = f" {c['type']}" if c.get("type") else ""
    d = f"{c['distance_m']:g} m" if c.get("distance_m") is not None else ""
    where = (f" within {d} of {what}" if d and what else f" in {what}" if what and c.get("area") else
             f" at {what}" if what else "")
    k = c["kind"]
    if k == "lock_in":
        return f"keep{typ} on {what}"
    if k == "lock_out":
        return f"no{typ} candidate at {what}"
    if k == "exclude_near":
        return f"no{typ} candidate within {d} of {what}"
    if k in ("require_near", "count_min"):
        return f"at least {c.get('count') or 1}{typ or ' selected'}{where}"
    if k == "count_max":
        return f"at most {c['count']}{typ or ' selected'}{where}"
    if k == "spacing_min":
        return f"at least {d} between selected sites"
    if k == "budget_share_max":
        return f"spend at most {100 * c['share']:.4g} % of the budget{f' on {typ.strip()} candidates' if typ else ''}"
    if k == "emphasis":
        return f"emphasise {c['term']} (weight {c.get('weight') or DEFAULT_EMPHASIS:g})"
    if k == "inside_area" and d:   # "every charger within 600 m of Annankatu"
        return f"only{typ or ' candidates'} within {d} of {what}"
    if k in ("inside_area", "outside_area"):
        return f"{'only inside' if k == 'inside_area' else f'no{typ} candidate inside'} {what}"
    cat = f" or an existing {t['category']}" if t.get("category") else ""
    return f"every residential block within {d} of a{typ or ' selected site'}{cat}"
