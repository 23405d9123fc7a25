"""Places of a city the planner brought (own layers, a GeoPackage region): names resolved against
that data, not a bundled region's.

An instance built from own layers records where its data lives (``meta["region_source"]``: the
GeoPackage the City was read from, with the layers ``roads`` and optionally ``features`` …; the
ask tools' own-layer region or the copy ``instance`` writes next to the workspace). A name is
looked up in the name index of that file (its streets and named features) and measured from
its mapped geometry: a street from its own lines as the data maps them (the source road layer,
not the noded graph, whose merged edges can carry a neighbour's name), a named feature from its
point (said), the region from its bounds. Nothing is guessed: a name the file lacks is the
resolver's "not in the … data — did you mean …?".
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import shapely

from ..city import load_city
from ..city.names import name_index, normalise
from ..tasks.base import Instance
from .spelling import clearly_misspelt

SOURCE_KEY = "region_source"


def source_of(inst: Instance) -> Path | None:
    """The GeoPackage the instance's own-layer city was read from, when it is recorded and still there."""
    src = inst.meta.get(SOURCE_KEY)
    return Path(src) if src and Path(src).is_file() else None


def street_line(region: str, source: Path, name: str) -> Any:
    """The union of the road lines the data maps under ``name`` (None when it maps none)."""
    roads = load_city(source, region).raw.get("roads")
    if roads is None or "name" not in roads or not len(roads):
        return None
    same = roads["name"].fillna("").astype(str).map(normalise).to_numpy() == normalise(name)
    return shapely.union_all(roads.geometry.values[same]) if same.any() else None


def resolve_own(inst: Instance, source: Path, target: dict[str, Any], area: bool, clarify: type[Exception],
                resolved: type) -> Any:
    """The ``resolved`` (``resolve.Resolved``) geometry of ``target``'s name in the own-layer data at
    ``source``; raises ``clarify`` (``resolve.Clarify``) with the question when it cannot."""
    region = str(inst.meta.get("region") or source.stem)
    name = str(target.get("name") or "").strip()
    if not name:
        raise clarify(f"which place do you mean? (a street or feature the {region} data names, or a "
                      "candidate, site, parcel or link)")
    res = name_index(region, source).resolve(name)
    if res.status != "found":
        raise clarify(res.message + ("; which one?" if res.status == "ambiguous" else ""))
    f = res.feature
    if res.candidates[0].how == "fuzzy" and not clearly_misspelt(name, res.candidates[0].matched):
        # a word put in or swapped ("Tammelan uimahalli" for "Tammelan halli") names another place: asked
        raise clarify(f"'{name}' is not in the {region} data — did you mean {f.name}?")
    said = None if normalise(name) in {normalise(n) for n in (f.name, *f.aliases)} \
        else f"read '{name}' as '{f.name}'"
    if f.kind == "street":
        line = street_line(region, source, f.name)
        if line is not None:
            if area:
                raise clarify(f"{f.name} is a street (a line) in the {region} data, not an area: "
                              f"say 'within N m of {f.name}' instead")
            note = f"distances measured from the line of {f.name} as the {region} data maps it, " \
                   f"{line.length:.0f} m of mapped lines"
            return resolved(f.name, line.wkt, None, "; ".join(x for x in (said, note) if x))
    if f.area is not None and (area or f.kind == "region"):
        return resolved(f.name, f.area.wkt, None, said)
    if area:
        raise clarify(f"{f.name} is a point in the {region} data, not an area: say 'within N m of {f.name}' instead")
    note = f"distances measured from the point where the {region} data places {f.name} (it maps no outline of it)"
    return resolved(f.name, shapely.Point(f.x, f.y).wkt, f.category if f.kind == "poi" else None,
                    "; ".join(x for x in (said, note) if x))
