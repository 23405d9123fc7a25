"""What every consumer needs to know about one planning task, in one place.

Each task folder holds a ``spec.py`` with ``SPEC = TaskSpec(...)``; ``plugin.tasks.registry``
lists them (adding a task = its folder + one registry line). The spec is plain data (strings,
numbers, tuples): the QGIS adapters map ``geometry`` to their layer types, the solvers import
``milp_module`` lazily, so reading a spec costs no heavy import beyond its task package.

Words (task names, facility words) belong to the planners' lexicon: ``lexicon_key`` is the
task's key there (the task name); the spec keeps only the technical labels below.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

#: the geometry kinds a candidate layer can have (as ``qgis_io.layers.source_to_gdf`` names them)
GEOMETRIES = ("polygon", "line", "point")


@dataclass(frozen=True)
class OwnLayer:
    """The planner's own candidate layer of a task: CLI flag, geometry kind, the task class's
    builder method (``cls.<builder>(city, frame, seed=, budget=, label=)``), Processing
    title / help and the optional fields it reads."""

    flag: str
    geometry: str
    builder: str
    title: str
    help: str
    fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class Term:
    """One term of the score in the legend: metric key, weight (sign = direction), words."""

    key: str
    weight: float
    words: str


@dataclass(frozen=True)
class Knob:
    """A task parameter of the build: Processing name, core keyword, title, help, type, advanced flag."""

    name: str
    key: str
    title: str
    help: str
    integer: bool = True
    advanced: bool = True


@dataclass(frozen=True)
class TaskSpec:
    """One planning task, as every consumer reads it (see the module docstring)."""

    name: str                          # the task key (CLI --task, export.json "task", lexicon key)
    title: str                         # "land allocation"
    instance: str                      # "module:Class" of its Instance, relative to plugin.tasks
    candidate_style: str               # the candidate layer's style: resources/styles/<name>.qml
    geometry: str                      # candidate geometry kind: one of GEOMETRIES
    candidate_layer: str               # what one feature of the candidate layer is
    id_word: str                       # what one candidate is called ("parcel", "link", "site")
    score_formula: str                 # the score in words
    legend: tuple[Term, ...]           # its terms in words, in formula order
    score_terms: dict[str, str]        # the planner's word for a term -> the instance's metric
    score_max: float                   # the score's ceiling: no plan scores more (a bound this high certifies nothing)
    types: tuple[str, ...]             # type vocabulary a constraint may name (empty: none)
    site_fields: tuple[str, ...]       # candidate fields that say what a chosen candidate is
    milp_module: str | None            # module of its MILP, relative to plugin.solvers.milp (None: none)
    at_scale_n: int | None             # from this many candidates, the MILP's at-scale form (None: never)
    scale_sizes: tuple[int, ...]       # candidate counts of the scale benchmark
    audit: str                         # name of its check in plugin.audit.rules
    audit_checks: tuple[str, ...]      # the flag reasons that check can raise
    knobs: tuple[Knob, ...]            # the build's task parameters
    own_layer: OwnLayer | None = None  # the planner's own candidate layer (land: --parcels instead)
    style: str = ""                    # the plan layer's style: resources/styles/<style>.qml
    lexicon_key: str = ""              # key of the task in the planners' lexicon (default: name)

    def __post_init__(self) -> None:
        if not self.lexicon_key:
            object.__setattr__(self, "lexicon_key", self.name)


def missing_fields(spec: TaskSpec) -> list[str]:
    """Fields of ``spec`` that are empty where every task must say something (for the
    completeness test and the registry's own check)."""
    optional = {"own_layer", "at_scale_n", "types"}
    out = [f.name for f in fields(spec) if f.name not in optional and getattr(spec, f.name) in ("", (), None, {})]
    if spec.geometry not in GEOMETRIES:
        out.append("geometry")
    if spec.own_layer is not None and spec.own_layer.geometry not in GEOMETRIES:
        out.append("own_layer.geometry")
    return out
