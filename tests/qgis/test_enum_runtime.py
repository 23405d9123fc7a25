"""The scoped enum names the code uses resolve on the running QGIS (3.22 here, 3.44 in
`make test-ltr`), the compatibility module gives QGIS's values, and on 3.44 the QGIS half of
the enum check's tables is exactly what 3.44's bindings say."""
from __future__ import annotations

import ast
import importlib

import enum_check
import pytest

pytestmark = pytest.mark.qgis

# QGIS's numeric values of the enum members the plugin names (QGIS API documentation; the same
# on 3.22 and 3.44): the compatibility module must give these whichever names this QGIS has.
EXPECTED = {
    "WkbType": {"Point": 1, "LineString": 2, "Polygon": 3, "MultiPoint": 4, "MultiLineString": 5,
                "MultiPolygon": 6},
    "GeometryType": {"Point": 0, "Line": 1, "Polygon": 2},
    "DistanceUnit": {"Meters": 0},
    "LayoutUnit": {"Millimeters": 0},
    "LegendComponent": {"Subgroup": 4, "SymbolLabel": 6},
    "LayerFilter": {"PointLayer": 4, "LineLayer": 8, "PolygonLayer": 16},
    "FeatureRequestFlag": {"NoGeometry": 1},
    "ProcessingSourceType": {"VectorAnyGeometry": -1, "VectorPoint": 0, "VectorLine": 1, "VectorPolygon": 2},
    "ProcessingParameterFlag": {"Advanced": 2, "Optional": 8},
    "ProcessingNumberParameterType": {"Integer": 0, "Double": 1},
    "ProcessingFieldParameterDataType": {"Numeric": 0},
    "ProcessingFileParameterBehavior": {"File": 0, "Folder": 1},
    "ProcessingFeatureSourceFlag": {"SkipGeometryValidityChecks": 2},
}
# Qt's type ids (QMetaType::Type, which QVariant::Type shares in Qt 5)
FIELD_TYPE_IDS = {"bool": 1, "int": 2, "uint": 3, "int64": 4, "uint64": 5, "double": 6, "string": 10}


def as_int(value) -> int:
    """A sip enum member is an int; a Python enum member has .value."""
    return int(getattr(value, "value", value))


def test_compat_names_give_qgis_values():
    from cityplanner.plugin.qgis_io import compat

    got = {enum: {m: as_int(getattr(getattr(compat, enum), m)) for m in members}
           for enum, members in EXPECTED.items()}
    assert got == EXPECTED


def test_field_types_round_trip_through_qgsfield():
    from qgis.core import QgsField

    from cityplanner.plugin.qgis_io.compat import field_type

    for kind, type_id in FIELD_TYPE_IDS.items():
        t = field_type(kind)
        assert as_int(t) == type_id, kind
        assert QgsField("x", t).type() == t, kind  # what plans.py compares field types with


def scoped_uses() -> set[tuple[str, str, str, str]]:
    """(module, class or compat name, enum, member) for every scoped enum name in the code."""
    tables = enum_check.load_tables()
    uses = set()
    for tree in enum_check.parse_all([enum_check.ROOT / p for p in enum_check.SCANNED]).values():
        classes = enum_check.imported_classes(tree)
        compat_names = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                        and (n.module or "").endswith("qgis_io.compat") for a in n.names}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute):
                continue
            inner = node.value
            if (isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name)
                    and inner.value.id in classes):
                module, cls = classes[inner.value.id]
                if inner.attr in tables.get(cls, {}).get("enums", {}):
                    uses.add((module, cls, inner.attr, node.attr))
            elif isinstance(inner, ast.Name) and inner.id in compat_names and node.attr[:1].isupper():
                uses.add(("compat", inner.id, "", node.attr))
    return uses


def test_every_scoped_name_in_the_code_resolves_here():
    from cityplanner.plugin.qgis_io import compat

    uses = scoped_uses()
    assert len(uses) > 40  # the walk found the plugin's enum uses (about 60 distinct)
    missing = []
    for module, cls, enum, member in sorted(uses):
        owner = compat if module == "compat" else importlib.import_module(module)
        obj = getattr(owner, cls, None)
        for part in (enum, member) if enum else (member,):
            obj = getattr(obj, part, None)
        if obj is None:
            missing.append(".".join(p for p in (cls, enum, member) if p))
    assert missing == []


def test_qgis_tables_are_this_qgis_344s():
    from qgis.core import Qgis

    if not Qgis.QGIS_VERSION.startswith("3.44."):
        pytest.skip(f"the QGIS tables are dumped from 3.44; this is {Qgis.QGIS_VERSION} (make test-ltr runs it)")
    wanted = [c for c, m in enum_check.project_class_names().items() if m in enum_check.QGIS_MODULES]
    fresh = enum_check.dump("qgis", wanted)
    committed = enum_check.load_tables()
    assert fresh == {c: committed[c] for c in fresh}
