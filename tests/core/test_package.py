"""The ZIP a user installs: only what QGIS needs, and metadata the QGIS plugin repository
accepts (its upload checks: required fields, one top folder named like an identifier,
__init__.py and LICENSE in it, no .pyc / __pycache__ / .git, URLs with scheme and host,
an icon that exists, boolean flags, size limit)."""
import ast
import configparser
import importlib.util
import json
import re
import subprocess
import sys
import zipfile
from urllib.parse import urlparse

import pytest

from cityplanner.plugin import PLUGIN_ROOT

REQUIRED = ("name", "description", "version", "qgisMinimumVersion", "author", "email", "about", "tracker",
            "repository")


@pytest.fixture(scope="module")
def plugin_zip(tmp_path_factory):
    spec = importlib.util.spec_from_file_location("cp_package", PLUGIN_ROOT / "scripts" / "package.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.build(tmp_path_factory.mktemp("dist"))


def _meta(z: zipfile.ZipFile) -> dict[str, str]:
    parser = configparser.ConfigParser()
    parser.optionxform = str
    parser.read_string(z.read("cityplanner/metadata.txt").decode("utf8"))
    return dict(parser.items("general"))


def test_zip_has_one_plugin_folder_and_no_forbidden_entries(plugin_zip):
    assert plugin_zip.stat().st_size < 25_000_000
    with zipfile.ZipFile(plugin_zip) as z:
        names = z.namelist()
        assert z.testzip() is None
    assert {n.split("/")[0] for n in names} == {"cityplanner"}
    assert re.match(r"^[A-Za-z][A-Za-z0-9-_]+$", "cityplanner")
    for required in ("__init__.py", "metadata.txt", "LICENSE", "requirements.txt"):
        assert f"cityplanner/{required}" in names
    for n in names:
        parts = n.split("/")
        assert ".." not in n and not n.startswith("/") and not n.endswith(".pyc")
        assert not {"__MACOSX", ".git", "__pycache__", "tests", "scripts", ".ci", "docs"} & set(parts), n
    # only what a user needs: no developer files, no benchmark output or held-out data
    assert not [n for n in names if re.search(r"requirements-dev|constraints\.txt|Makefile|bench-|heldout|"
                                              r"\.gitignore|pytest\.ini|ruff\.toml|pyproject", n)]


def test_metadata_passes_the_repository_checks(plugin_zip):
    with zipfile.ZipFile(plugin_zip) as z:
        meta = _meta(z)
        names = z.namelist()
    missing = [k for k in REQUIRED if not meta.get(k, "").strip()]
    assert not missing
    assert re.match(r"^\d+\.\d+(\.\d+)?$", meta["version"])
    assert re.match(r"^[^@\s]+@[^@\s]+\.[a-z]+$", meta["email"])
    assert "/" not in meta["author"]
    for key in ("tracker", "repository", "homepage"):
        url = urlparse(meta[key])
        assert url.scheme == "https" and url.netloc, key
    assert f"cityplanner/{meta['icon']}" in names
    for flag in ("experimental", "deprecated", "server"):
        assert meta[flag].lower() in ("true", "false")
    assert "\n" not in meta["description"]


def qgis_is_compatible():
    """QGIS's own rule (the Plugin Manager's, and the one QGIS applies at start): a two-part
    maximum is padded with .99."""
    spec = importlib.util.spec_from_file_location(
        "qgis_version_compare", "/usr/share/qgis/python/pyplugin_installer/version_compare.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.isCompatible


def test_metadata_states_the_tested_qgis_range():
    parser = configparser.ConfigParser()
    parser.optionxform = str
    parser.read(PLUGIN_ROOT / "metadata.txt")
    meta = parser["general"]
    assert (meta["qgisMinimumVersion"], meta["qgisMaximumVersion"]) == ("3.22", "4.99")
    assert meta["supportsQt6"] == "True"  # a Qt6 QGIS (4.x) refuses a plugin without it
    assert "3.22" in meta["about"] and "3.44" in meta["about"] and "Qt6" in meta["about"]
    is_compatible = qgis_is_compatible()
    lo, hi = meta["qgisMinimumVersion"], meta["qgisMaximumVersion"]
    for accepted in ("3.22.16", "3.40.6", "3.44.15", "3.44.16", "4.0.0", "4.2.0", "4.99.0"):
        assert is_compatible(accepted, lo, hi), accepted
    for refused in ("3.20.3", "5.0.0"):
        assert not is_compatible(refused, lo, hi), refused
    # the metadata as shipped before: QGIS read 3.40 as 3.40.99 and disabled the plugin on 3.44
    assert not is_compatible("3.44.16", "3.22", "3.40")


#: what stays in the repository: the benchmark harness, its judges and request sets
EVALUATION_ONLY = ("plugin/bench/runner.py", "plugin/bench/report.py", "plugin/bench/scale.py",
                   "plugin/bench/speed.py", "plugin/bench/fuzz.py", "plugin/bench/participation.py",
                   "plugin/bench/instructions.py", "plugin/agent/ask/bench.py", "plugin/agent/ask/judge.py",
                   "plugin/agent/compare.py", "plugin/commands/bench.py", "resources/ask/requests.json",
                   "resources/ask/tuning.json", "resources/heldout/ask_test.json")
#: lazy imports of a left-out module, each behind a command that says so in one line (plugin/cli.py)
DEV_ONLY_IMPORTS = {("plugin/commands/train.py", "plugin/training/instructions")}


def _zip_paths(plugin_zip) -> set[str]:
    with zipfile.ZipFile(plugin_zip) as z:
        return {n.removeprefix("cityplanner/") for n in z.namelist() if not n.endswith("/")}


def test_zip_leaves_the_evaluation_code_out_but_keeps_what_users_run(plugin_zip):
    paths = _zip_paths(plugin_zip)
    for left_out in EVALUATION_ONLY:
        assert (PLUGIN_ROOT / left_out).is_file(), left_out   # the list names real repository files
        assert left_out not in paths, left_out
    assert not [p for p in paths if p.startswith(("resources/heldout/", "resources/ask/"))]
    assert sorted(p for p in paths if p.startswith("plugin/bench/")) == ["plugin/bench/__init__.py",
                                                                        "plugin/bench/suites.py"]
    # what a user runs is there: the QGIS entry point, the provider, the docks, every command but bench
    for needed in ("__init__.py", "processing_algorithms/provider.py", "plugin/gui/planner_dock.py",
                   "plugin/agent/ask/agent.py", "plugin/agent/ask/cognition.py", "plugin/sandbox/evaluator.py",
                   "resources/sandbox/evaluate_plan.py.tmpl", "resources/data/helsinki.osm.pbf"):
        assert needed in paths, needed
    commands = {p.removeprefix("plugin/commands/").removesuffix(".py") for p in paths
                if p.startswith("plugin/commands/")}
    from cityplanner.plugin.cli import COMMANDS
    assert set(COMMANDS) - commands == {"bench"}


def _relative_imports(source: str) -> list[tuple[int, list[str], bool]]:
    """(level, dotted path, bare) of every relative import, also those inside functions; bare is
    ``from . import x``, where x may be a module or a name the package defines."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level:
            if node.module:
                out.append((node.level, node.module.split("."), False))
            else:
                out.extend((node.level, [a.name], True) for a in node.names)
    return out


def test_every_import_inside_the_zip_resolves_inside_it(plugin_zip):
    """A module the ZIP carries never imports one it left out (module level or lazily), except
    the listed developer-only paths: so the plugin loads and every shipped feature runs from the ZIP."""
    paths = _zip_paths(plugin_zip)

    def found(parts: list[str]) -> bool:
        return "/".join(parts) + ".py" in paths or "/".join(parts + ["__init__.py"]) in paths

    missing = set()
    with zipfile.ZipFile(plugin_zip) as z:
        for path in sorted(p for p in paths if p.endswith(".py")):
            package = path.split("/")[:-1]
            for level, dotted, bare in _relative_imports(z.read(f"cityplanner/{path}").decode("utf8")):
                base = package[:len(package) - (level - 1)]
                if not found(base + dotted) and not (bare and found(base)):
                    missing.add((path, "/".join(base + dotted)))
    assert missing == DEV_ONLY_IMPORTS


def test_commands_run_from_the_unpacked_zip(plugin_zip, tmp_path):
    """The unpacked ZIP runs headless; a command it leaves out stops with one line, exit 2, nothing written."""
    with zipfile.ZipFile(plugin_zip) as z:
        z.extractall(tmp_path)
    folder = tmp_path / "cityplanner"

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "plugin", *args], cwd=folder, capture_output=True,
                              text=True, timeout=300)

    listed = cli("instance", "--suite", "quick", "--list")
    assert listed.returncode == 0, listed.stderr
    assert len(json.loads(listed.stdout)["instances"]) > 0
    out = tmp_path / "bench-out"
    bench = cli("bench", "--suite", "quick", "--out", str(out))
    assert bench.returncode == 2
    assert bench.stderr.count("\n") == 1 and "not in this install" in bench.stderr
    assert not out.exists()
