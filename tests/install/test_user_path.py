"""The planner's path, for real: build the ZIP, unpack it into a fresh QGIS profile, start
QGIS's own Python with no venv and no PYTHONPATH, check that the plugin loads and says what
is missing, open a real QGIS desktop window (Xvfb) on that profile, click the message bar's
Install… button (pip from the offline wheelhouse into the profile's python/dependencies),
run Solve station placement with ``default`` there and through ``qgis_process``.

Screenshots and the session record are kept in build/test-artifacts/user-path/. The
wheelhouse is $CITYPLANNER_WHEELHOUSE, or build/wheelhouse (made by scripts/wheelhouse.sh
from the local pip cache when missing)."""
from __future__ import annotations

import configparser
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from cityplanner.plugin import PLUGIN_ROOT

pytestmark = [pytest.mark.qgis, pytest.mark.slow]

SYSTEM_PYTHON = "/usr/bin/python3"  # QGIS's Python on Debian
ARTIFACTS = PLUGIN_ROOT / "build" / "test-artifacts" / "user-path"
PBF = PLUGIN_ROOT / "resources" / "data" / "helsinki.osm.pbf"
ALGORITHMS = {"buildcitymodel", "buildlandinstance", "buildroadinstance", "buildstationinstance", "solveland",
              "solveroad", "solvestation", "evaluateplan", "participatoryrevision"}


def clean_env(config: Path, **extra: str) -> dict[str, str]:
    """What a planner's session has: no venv, no PYTHONPATH, this profile."""
    venv_bin = str(Path(sys.prefix) / "bin") if sys.prefix != sys.base_prefix else None
    keep = {k: v for k, v in os.environ.items() if k in ("HOME", "LANG", "LC_ALL", "TMPDIR", "DISPLAY", "XAUTHORITY")}
    path = os.pathsep.join(p for p in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep) if p != venv_bin)
    runtime = config / "runtime"
    runtime.mkdir(mode=0o700, exist_ok=True)
    return {**keep, "PATH": path, "QGIS_CUSTOM_CONFIG_PATH": str(config), "XDG_RUNTIME_DIR": str(runtime),
            "PYTHONNOUSERSITE": "1", **extra}


def qgis_process_bin() -> str:
    # Debian 12's /usr/bin/qgis_process wrapper is broken on 3.22 ("--noversioncheck"): use the binary
    return shutil.which("qgis_process.bin") or shutil.which("qgis_process") or "qgis_process"


@pytest.fixture(scope="module")
def wheelhouse() -> Path:
    env = os.environ.get("CITYPLANNER_WHEELHOUSE")
    if env:
        return Path(env)
    wh = PLUGIN_ROOT / "build" / "wheelhouse"
    want = hashlib.sha256(b"".join((PLUGIN_ROOT / f).read_bytes() for f in ("requirements.txt", "constraints.txt")))
    stamp = wh / ".complete"
    if not stamp.is_file() or stamp.read_text().strip() != want.hexdigest():
        r = subprocess.run(["bash", str(PLUGIN_ROOT / "scripts" / "wheelhouse.sh"), str(wh)], capture_output=True,
                           text=True, timeout=1800)
        assert r.returncode == 0, (r.stdout + r.stderr)[-2000:]
    return wh


@pytest.fixture(scope="module")
def profile(tmp_path_factory) -> Path:
    """A fresh QGIS config dir with the ZIP unpacked into profiles/default/python/plugins."""
    spec = importlib.util.spec_from_file_location("cp_package", PLUGIN_ROOT / "scripts" / "package.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    config = tmp_path_factory.mktemp("qgis-config")
    default = config / "profiles" / "default"
    with zipfile.ZipFile(mod.build(config / "dist")) as z:
        z.extractall(default / "python" / "plugins")
    ini = configparser.ConfigParser()
    ini.optionxform = str
    ini["PythonPlugins"] = {"cityplanner": "true"}
    # no first-run dialogs in the window: tips, news feed, version check
    ini["qgis"] = {"showTips322": "false", "checkVersion": "false", "allowVersionCheck": "false"}
    ini["core"] = {"NewsFeed\\httpsfeedqgisorg\\disabled": "true"}
    (default / "QGIS").mkdir(parents=True)
    with open(default / "QGIS" / "QGIS3.ini", "w") as f:
        ini.write(f, space_around_delimiters=False)
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True)
    return config


def run_logged(name: str, cmd: list[str], env: dict, timeout: int, cwd: Path | None = None):
    r = subprocess.run(cmd, env=env, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       timeout=timeout)
    (ARTIFACTS / f"{name}.log").write_text(f"$ {' '.join(cmd)}\nexit {r.returncode}\n{r.stdout}\n{r.stderr}")
    return r


def test_fresh_profile_loads_and_says_what_is_missing(profile):
    r = run_logged("1-load-before", [SYSTEM_PYTHON, "-E", "-s", str(Path(__file__).with_name("qgis_load.py"))],
                   clean_env(profile, QT_QPA_PLATFORM="offscreen"), 300)
    assert r.returncode == 0, r.stderr[-1500:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["loaded"], out
    assert "Traceback" not in r.stderr and "Error" not in " ".join(out["messages"]), r.stderr[-1500:]
    unavailable = [m for m in out["messages"] if " unavailable: " in m]
    assert unavailable, out  # this QGIS lacks something the plugin needs (a stock install always does)
    assert all(("Install dependencies" in m or "endpoint" in m) and "\n" not in m for m in unavailable)
    if not out["provider"]:
        assert any(m.startswith("Processing algorithms unavailable: ") for m in unavailable)
    elif any(m.startswith("Solvers default and alns unavailable: ") for m in unavailable):
        # the provider works without alns (QGIS 3.40 on Debian 13): `default` says why, in one line
        env = clean_env(profile, QT_QPA_PLATFORM="offscreen")
        qp = qgis_process_bin()
        run_logged("1-enable", [qp, "plugins", "enable", "cityplanner"], env, 300)
        ws = profile / "ws-before"
        b = run_logged("1-build", [qp, "run", "cityplanner:buildstationinstance", "--", f"INPUT={PBF}",
                                   f"WORKSPACE={ws}", f"CANDIDATES={profile / 'c-before.gpkg'}"], env, 600)
        assert b.returncode == 0, b.stderr[-1500:]
        s = run_logged("1-solve-default", [qp, "run", "cityplanner:solvestation", "--", f"WORKSPACE={ws}",
                                           "METHOD=0", "TIME_LIMIT=5", f"OUTPUT={profile / 'p-before.gpkg'}"], env, 600)
        said = s.stdout + s.stderr
        assert s.returncode != 0 and "Solvers default and alns unavailable: alns missing" in said, said[-1500:]
        assert "Traceback" not in said and "ModuleNotFoundError" not in said


def test_desktop_window_offers_install_and_installs(profile, wheelhouse):
    out = ARTIFACTS
    env = clean_env(profile, CITYPLANNER_WHEELHOUSE=str(wheelhouse), CP_OUT=str(out), CP_PBF=str(PBF))
    cmd = ["xvfb-run", "-a", "-s", "-screen 0 1400x900x24", "qgis", "--profiles-path", str(profile), "--nologo",
           "--noversioncheck", "--code", str(Path(__file__).with_name("qgis_desktop_session.py"))]
    run_logged("2-desktop", cmd, env, 1500)
    session = json.loads((out / "session.json").read_text())
    assert session["error"] is None, session
    assert "Install…" in session["bar"]
    assert "CityPlanner needs" in session["bar_text"], session["bar_text"]
    assert session["provider_after"] and session["solve"]["VALID"] is True, session
    assert any(t.startswith("installed ") and t.endswith(" — ready") for t in session["bar_after"]), session
    assert not any("restart" in t for t in session["bar_after"])  # nothing was loaded before: no restart
    assert 0 <= session["solve"]["GAP"] <= 1
    for png in ("1-message-bar.png", "2-installed-provider.png"):
        assert (out / png).stat().st_size > 10_000


def test_qgis_process_lists_all_and_solves_with_default(profile, tmp_path):
    env = clean_env(profile, QT_QPA_PLATFORM="offscreen")
    qp = qgis_process_bin()
    run_logged("3-enable", [qp, "plugins", "enable", "cityplanner"], env, 300)
    listed = run_logged("3-list", [qp, "list"], env, 300)
    found = {ln.split()[0].split(":")[1] for ln in listed.stdout.splitlines() if ln.strip().startswith("cityplanner:")}
    assert found == ALGORITHMS, listed.stdout[-2000:] + listed.stderr[-1000:]
    ws = tmp_path / "ws"
    b = run_logged("3-build", [qp, "run", "cityplanner:buildstationinstance", "--", f"INPUT={PBF}",
                               f"WORKSPACE={ws}", f"CANDIDATES={tmp_path / 'c.gpkg'}"], env, 600)
    assert b.returncode == 0, b.stderr[-1500:]
    s = run_logged("3-solve", [qp, "run", "cityplanner:solvestation", "--", f"WORKSPACE={ws}", "METHOD=0",
                               "TIME_LIMIT=20", f"OUTPUT={tmp_path / 'p.gpkg'}"], env, 600)
    assert s.returncode == 0 and "VALID:\ttrue" in s.stdout, s.stdout[-1500:] + s.stderr[-1500:]
