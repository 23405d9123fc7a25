"""The ZIP a user installs: only what QGIS needs, and metadata the QGIS plugin repository
accepts (its upload checks: required fields, one top folder named like an identifier,
__init__.py and LICENSE in it, no .pyc / __pycache__ / .git, URLs with scheme and host,
an icon that exists, boolean flags, size limit)."""
import configparser
import importlib.util
import re
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
