"""Every task's spec is complete, and what it names exists: the class, the MILP, the audit
check, the styles, the knobs, the fields and the score terms of a real instance."""
from __future__ import annotations

import importlib

import pytest

from cityplanner.plugin import RESOURCES
from cityplanner.plugin.audit import rules
from cityplanner.plugin.errors import InputError
from cityplanner.plugin.tasks import TASKS, spec, specs, task_class
from cityplanner.plugin.tasks.spec import missing_fields

NAMES = list(TASKS)


def test_registry_holds_the_three_tasks_in_order():
    assert NAMES == ["land", "road", "station"]
    assert [s.name for s in specs()] == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_spec_is_complete(name):
    s = spec(name)
    assert missing_fields(s) == [], f"{name}: empty fields"
    assert s.name == name and s.lexicon_key == name
    cls = task_class(name)
    assert cls.task == name
    if s.milp_module is not None:
        mod = importlib.import_module(importlib.util.resolve_name(s.milp_module, "cityplanner.plugin.solvers.milp"))
        assert callable(getattr(mod, "solve"))
    assert callable(getattr(rules, s.audit))
    for style in (s.style, s.candidate_style):
        assert (RESOURCES / "styles" / f"{style}.qml").is_file()
    if s.own_layer is not None:
        assert callable(getattr(cls, s.own_layer.builder)) and s.own_layer.flag.startswith("--")
    assert len({k.name for k in s.knobs}) == len(s.knobs)
    assert s.score_formula.startswith("S = ") and all(t.words for t in s.legend)


@pytest.fixture(scope="module")
def built():
    """One small instance of each task on the bundled Kotka extract, evaluated on an empty plan."""
    from cityplanner.plugin.city import load_city

    city = load_city("kotka")
    out = {}
    for name in NAMES:
        inst = task_class(name).build(city, size="small", seed=0)
        out[name] = (inst, inst.evaluate([]))
    return out


@pytest.mark.parametrize("name", NAMES)
def test_spec_names_what_the_instance_has(built, name):
    """Fields, score terms, legend metrics and knobs named by the spec exist on a real build
    (the instance's columns and metrics are the builder's, read independently of the spec)."""
    s = spec(name)
    inst, ev = built[name]
    cols = set(inst.candidates.columns)
    assert set(s.site_fields) - {"capacity", "demand_in_radius"} <= cols   # two are own-layer fields
    metrics = set(ev.metrics) | {"cost_ratio"}
    assert set(s.score_terms.values()) <= metrics
    assert {t.key for t in s.legend} <= metrics | {"penalty"}
    # each knob is a keyword the builder reads (a quoted name in its sampler or constants)
    for k in s.knobs:
        assert f'"{k.key}"' in _builder_source(name), f"{name}: knob {k.key} unknown to the builder"


def _builder_source(name: str) -> str:
    import inspect

    return "".join(inspect.getsource(importlib.import_module(f"cityplanner.plugin.tasks.{name}.{m}"))
                   for m in ("sampler", "constants"))


def test_unknown_task_is_one_line():
    with pytest.raises(InputError, match="unknown task 'nope'"):
        spec("nope")


@pytest.mark.parametrize("name", NAMES)
def test_legend_words_explain_a_real_score(built, name):
    """The spec's legend turns a real evaluation into a sentence whose terms add up to the score."""
    from cityplanner.plugin.qgis_io.legends import explain_score

    inst, _ = built[name]
    ev = inst.evaluate(inst.ids[:1])
    text = explain_score(name, ev.metrics | {"cost_ratio": ev.cost_ratio}, ev.score)
    assert text.startswith(f"Score {ev.score:.4f} = ") and spec(name).score_formula in text
    total = sum(t.weight * float((ev.metrics | {"cost_ratio": ev.cost_ratio}).get(t.key, 0.0))
                for t in spec(name).legend)
    assert total == pytest.approx(ev.score, abs=1e-6)
