"""The project's Qt6 enum check: an AST walk that flags enum members named the Qt5 way.

Qt6 (PyQt6, and QGIS 4 built on it) only accepts enum members through their enum:
`Qt.GlobalColor.white`, not `Qt.white`; QGIS 3.30+ also moved many of its enums into `Qgis`
(`QgsWkbTypes.Type` → `Qgis.WkbType`), which QGIS 3.22 lacks, so those are named only in the
one compatibility module `plugin/qgis_io/compat.py`.

The walk needs no Qt: it reads `scripts/enum_tables.json`, which lists, for every Qt/QGIS class
the scanned code imports, its enums and their members, its other capitalised names, and the
enums QGIS moved. The Qt part of the tables is dumped from PyQt6, the QGIS part from QGIS 3.44
(`--dump`, see below); tests check the tables against both and that no imported class is missing.

Rules, for a class `C` imported from `qgis.core`/`qgis.gui`/`qgis.PyQt.*`/`PyQt5.*`:
  unscoped  `C.m` where `m` is a member of one of C's enums → write `C.E.m` (or what 3.44 names it)
  moved     `C.E` where QGIS moved enum `E` into `Qgis` → use `plugin.qgis_io.compat`
  unknown   `C.N` (capitalised) that neither PyQt6 nor QGIS 3.44 has (e.g. `QVariant.Int`)
  member    `C.E.m` where `m` is not a member of enum `E`

    python scripts/enum_check.py [PATH ...]        # check (default: the project's code); exit 1 on findings
    python scripts/enum_check.py --dump qt [--update]    # under PyQt6: the Qt tables (into the file)
    python scripts/enum_check.py --dump qgis [--update]  # under QGIS 3.44: the QGIS tables
"""
from __future__ import annotations

import argparse
import ast
import enum
import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "scripts" / "enum_tables.json"
SCANNED = ("plugin", "processing_algorithms", "__init__.py", "docs", "tests", "scripts")
COMPAT = "plugin/qgis_io/compat.py"  # the one place that may name 3.22's forms
QT_MODULES = ("qgis.PyQt.", "PyQt5.", "PyQt6.")
QGIS_MODULES = ("qgis.core", "qgis.gui", "qgis.analysis")
# attributes every Python/sip enum type has, legitimately read through `C.E.<attr>`
ENUM_TYPE_ATTRS = {"name", "value", "__members__", "__name__", "__qualname__"}


@dataclass(frozen=True)
class Finding:
    """One enum use that Qt6 (or QGIS 3.22) would not accept."""

    path: str
    line: int
    rule: str
    text: str
    hint: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.rule}: {self.text} — {self.hint}"


def load_tables(path: Path = TABLES) -> dict[str, dict]:
    """The committed enum tables: class name → {"enums", "names", "moved", "aliases"}."""
    return json.loads(path.read_text(encoding="utf-8"))


def python_files(paths: Iterable[Path]) -> Iterator[Path]:
    """Every .py file under `paths` (files given directly included), sorted, caches skipped."""
    for p in paths:
        if p.is_file():
            yield p
        elif p.is_dir():
            yield from sorted(f for f in p.rglob("*.py") if "__pycache__" not in f.parts)


def imported_classes(tree: ast.AST) -> dict[str, tuple[str, str]]:
    """Local name → (module, class) for Qt and QGIS names imported with `from … import`."""
    out: dict[str, tuple[str, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and (
                node.module.startswith(QT_MODULES) or node.module in QGIS_MODULES):
            for alias in node.names:
                if alias.name[:1] == "Q":  # Qt/QGIS classes; not helpers like `edit`, `NULL`
                    out[alias.asname or alias.name] = (node.module, alias.name)
    return out


def _members(entry: dict) -> dict[str, list[str]]:
    """Unscoped member name → the enums it may belong to (or its new full path) for one class.

    PyQt6 has no unscoped names, so a member of two enums of one class stays ambiguous; the
    QGIS dump, read from sip bindings that still have them, records each one's own enum."""
    found: dict[str, list[str]] = {}
    for e, members in entry.get("enums", {}).items():
        for m in members:
            found.setdefault(m, []).append(e)
    for m, target in entry.get("aliases", {}).items():
        found[m] = [target]
    return found


def check_tree(tree: ast.AST, rel: str, tables: dict[str, dict]) -> list[Finding]:
    """The findings in one parsed file (`rel`: its path relative to the project root)."""
    classes = imported_classes(tree)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    in_compat = rel == COMPAT
    found: list[Finding] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in classes):
            continue
        cls = classes[node.value.id][1]
        entry = tables.get(cls)
        if entry is None:
            continue  # reported once per class by missing_classes()
        attr, text = node.attr, f"{node.value.id}.{node.attr}"
        members = _members(entry)
        if attr in entry.get("moved", {}):
            if not in_compat:
                found.append(Finding(rel, node.lineno, "moved", text,
                                     f"QGIS 3.30+ names it {entry['moved'][attr]}; take it from {COMPAT}"))
        elif attr in entry.get("enums", {}):
            parent = parents.get(node)
            if (isinstance(parent, ast.Attribute) and parent.value is node
                    and parent.attr not in entry["enums"][attr] and parent.attr not in ENUM_TYPE_ATTRS):
                found.append(Finding(rel, node.lineno, "member", f"{text}.{parent.attr}",
                                     f"{cls}.{attr} has no member {parent.attr} in PyQt6/QGIS 3.44"))
        elif attr in members:
            scoped = [t if "." in t else f"{node.value.id}.{t}.{attr}" for t in members[attr]]
            if not in_compat:
                found.append(Finding(rel, node.lineno, "unscoped", text,
                                     f"write {scoped[0]}" if len(scoped) == 1 else f"write one of {', '.join(scoped)}"))
        elif attr[:1].isupper() and attr not in entry.get("names", []) and not in_compat:
            found.append(Finding(rel, node.lineno, "unknown", text,
                                 f"{cls} has no {attr} in PyQt6/QGIS 3.44 (Qt6 dropped it?)"))
    return sorted(found, key=lambda f: f.line)  # ast.walk is breadth-first


def missing_classes(trees: dict[str, ast.AST], tables: dict[str, dict]) -> dict[str, set[str]]:
    """Imported Qt/QGIS classes the tables lack: class → the files importing it."""
    missing: dict[str, set[str]] = {}
    for rel, tree in trees.items():
        for _module, cls in imported_classes(tree).values():
            if cls not in tables:
                missing.setdefault(cls, set()).add(rel)
    return missing


def parse_all(paths: Iterable[Path], root: Path = ROOT) -> dict[str, ast.AST]:
    """Relative path → parsed tree for every Python file under `paths`."""
    def rel(f: Path) -> str:
        f = f.resolve()
        return f.relative_to(root).as_posix() if f.is_relative_to(root) else str(f)
    return {rel(f): ast.parse(f.read_text(encoding="utf-8"), str(f)) for f in python_files(paths)}


def check(paths: Iterable[Path] | None = None, tables: dict[str, dict] | None = None,
          root: Path = ROOT) -> list[str]:
    """Every problem as one line: findings, then classes missing from the tables."""
    tables = load_tables() if tables is None else tables
    trees = parse_all([root / p for p in SCANNED] if paths is None else paths, root)
    lines = [str(f) for rel, tree in trees.items() for f in check_tree(tree, rel, tables)]
    for cls, files in sorted(missing_classes(trees, tables).items()):
        lines.append(f"{sorted(files)[0]}: table: {cls} is not in {TABLES.name}; "
                     f"re-dump it (python scripts/enum_check.py --dump …)")
    return lines


# Classes GUI code commonly reaches for, in the tables before any code imports them (so new code
# needs no re-dump for them): Qt classes (any Qt module), then QGIS classes (core or gui).
COMMON_QT = [
             "QAbstractItemView", "QButtonGroup", "QCheckBox", "QCompleter", "QDialog", "QDialogButtonBox", "QFrame",
             "QGridLayout", "QGroupBox", "QHeaderView", "QInputDialog", "QListView", "QMenu", "QMessageBox",
             "QProgressBar", "QRadioButton", "QScrollArea", "QSlider", "QSplitter", "QStandardItem",
             "QStandardItemModel", "QStyle", "QTableView", "QTextCharFormat", "QTextOption", "QToolBar", "QToolButton",
             "QTreeView", "QTreeWidget", "QTreeWidgetItem", "QAbstractTableModel", "QSortFilterProxyModel",
             "QModelIndex", "QItemSelectionModel", "QSettings", "QThread", "QDateTime", "QFontMetrics", "QPixmap",
             "QPainterPath", "QKeySequence", "QShortcut", "QGuiApplication", "QProcess", "QRegularExpression",
            ]
COMMON_QGIS = [
               "QgsMessageBar", "QgsCheckableComboBox", "QgsFileWidget", "QgsSpinBox", "QgsDoubleSpinBox",
               "QgsCollapsibleGroupBox", "QgsMapCanvas", "QgsRubberBand", "QgsMapToolEmitPoint", "QgsPointXY",
               "QgsDistanceArea", "QgsSymbol", "QgsFillSymbol", "QgsMarkerSymbol", "QgsLineSymbol",
               "QgsCategorizedSymbolRenderer", "QgsGraduatedSymbolRenderer", "QgsSingleSymbolRenderer",
               "QgsRendererCategory", "QgsPalLayerSettings", "QgsVectorLayerSimpleLabeling", "QgsTextBufferSettings",
               "QgsLayerTreeGroup", "QgsLayerTreeLayer", "QgsFeatureRequest", "QgsExpression", "QgsField", "QgsFields",
              ]


def project_class_names(root: Path = ROOT) -> dict[str, str]:
    """Class → module for every Qt/QGIS class the project's code imports, and the COMMON ones
    (what --dump covers)."""
    out: dict[str, str] = {**{c: "qgis.PyQt" for c in COMMON_QT}, **{c: "qgis.core" for c in COMMON_QGIS}}
    for tree in parse_all([root / p for p in SCANNED], root).values():
        for module, cls in imported_classes(tree).values():
            out[cls] = module
    return out


# ---------------------------------------------------------------- dumping (needs the bindings)

def _is_enum_type(obj: object) -> bool:
    """A Python enum (PyQt6, sip 6 scoped) or a sip enum type (PyQt5)."""
    return isinstance(obj, type) and (issubclass(obj, enum.Enum) or type(obj).__name__ == "enumtype")


def _enum_of(value: object) -> type | None:
    """The enum type a member belongs to, or None when `value` is not an enum member."""
    return type(value) if _is_enum_type(type(value)) else None


def _fold_unscoped(cls: type, bases: set[str], enums: dict[str, list[str]],
                   unscoped: dict[str, type]) -> dict[str, str]:
    """Members sip (PyQt5) shows only unscoped: added to their own enum's list in ``enums``, or
    returned as aliases (``name -> Owner.Enum.member``) when they belong to another class's enum
    or to more than one enum of this class (then which one sip meant is kept)."""
    aliases: dict[str, str] = {}
    for name, etype in unscoped.items():
        owner = etype.__qualname__
        short = owner.rsplit(".", 1)[-1]
        member = getattr(getattr(cls, name), "name", None) or name
        if owner.rsplit(".", 1)[0] in bases and short in enums and member == name:
            if name not in enums[short]:
                enums[short].append(name)
        else:
            aliases[name] = f"{owner}.{member}"
    for name, etype in unscoped.items():
        short = etype.__qualname__.rsplit(".", 1)[-1]
        if name not in aliases and sum(name in m for m in enums.values()) > 1:
            aliases[name] = f"{cls.__name__}.{short}.{name}"
    return aliases


def dump_class(cls: type) -> dict:
    """The table entry of one bound class, read by introspection."""
    enums: dict[str, list[str]] = {}
    names: list[str] = []
    moved: dict[str, str] = {}
    unscoped: dict[str, type] = {}
    bases = {b.__name__ for b in cls.__mro__}  # an enum of a base class is inherited, not moved
    for name in dir(cls):
        if name.startswith("_"):
            continue
        try:
            value = getattr(cls, name)
        except Exception:  # some sip descriptors raise on class access
            continue
        if _is_enum_type(value):
            owner = value.__qualname__
            if owner.rsplit(".", 1)[0] in bases and owner.endswith(f".{name}"):
                members = getattr(value, "__members__", None)
                enums[name] = sorted(members) if members else []
            else:
                moved[name] = owner
        elif (etype := _enum_of(value)) is not None:
            unscoped[name] = etype
        elif name[:1].isupper():
            names.append(name)
    aliases = _fold_unscoped(cls, bases, enums, unscoped)
    for members in enums.values():
        members.sort()
    entry: dict = {"enums": dict(sorted(enums.items()))}
    if names:
        entry["names"] = sorted(names)
    if moved:
        entry["moved"] = dict(sorted(moved.items()))
    if aliases:
        entry["aliases"] = dict(sorted(aliases.items()))
    return entry


def dump(kind: str, class_names: Iterable[str]) -> dict[str, dict]:
    """Tables for `class_names` from PyQt6 (`kind="qt"`) or the running QGIS (`kind="qgis"`)."""
    import importlib
    modules = (["PyQt6.QtCore", "PyQt6.QtGui", "PyQt6.QtWidgets", "PyQt6.QtNetwork", "PyQt6.QtXml"]
               if kind == "qt" else ["qgis.core", "qgis.gui", "qgis.analysis"])
    loaded = [importlib.import_module(m) for m in modules]
    out: dict[str, dict] = {}
    for name in sorted(set(class_names)):
        for mod in loaded:
            cls = getattr(mod, name, None)
            if isinstance(cls, type):
                out[name] = dump_class(cls)
                break
    return out


def format_tables(tables: dict[str, dict]) -> str:
    """The tables as JSON with one line per enum (small, readable diffs when they are re-dumped)."""
    lines = ["{"]
    for i, cls in enumerate(sorted(tables)):
        entry = tables[cls]
        lines.append(f" {json.dumps(cls)}: {{")
        parts = []
        for key in ("enums", "moved", "aliases"):
            if key in entry:
                inner = [f"   {json.dumps(k)}: {json.dumps(v)}" for k, v in sorted(entry[key].items())]
                parts.append(f"  {json.dumps(key)}: {{" + ("\n" + ",\n".join(inner) + "\n  }" if inner else "}"))
        if "names" in entry:
            parts.append(f"  \"names\": {json.dumps(sorted(entry['names']))}")
        lines.append(",\n".join(parts))
        lines.append(" }" + ("," if i < len(tables) - 1 else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command line: check (exit 1 on findings) or dump tables as JSON."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", type=Path)
    ap.add_argument("--dump", choices=("qt", "qgis"))
    ap.add_argument("--update", action="store_true", help=f"with --dump: rewrite {TABLES.name}")
    args = ap.parse_args(argv)
    if args.dump:
        wanted = project_class_names()
        names = [c for c, m in wanted.items() if (m in QGIS_MODULES) == (args.dump == "qgis")]
        tables = dump(args.dump, names)
        if args.update:  # replace this kind's classes in the committed tables, keep the other kind's
            others = {c: e for c, e in load_tables().items()
                      if c in wanted and (wanted[c] in QGIS_MODULES) != (args.dump == "qgis")}
            TABLES.write_text(format_tables({**others, **tables}), encoding="utf-8")
        else:
            sys.stdout.write(format_tables(tables))
        return 0
    problems = check([p.resolve() for p in args.paths] or None)
    print("\n".join(problems) if problems else "enum check: clean")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
