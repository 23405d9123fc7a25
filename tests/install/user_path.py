"""Helpers for the planner's path through a real QGIS (importable by other install tests).

A profile starts empty (`new_config`), gets the plugin through QGIS's own Install-from-ZIP code
(`install_zip_session.py` in a desktop session), and every later step is another start of
QGIS on that profile (`desktop_session`), as a planner restarting QGIS would have it. Session
scripts run inside QGIS (`qgis --code`) and share `desktop_common.py`; each writes
``<name>.json`` and screenshots into ARTIFACTS.

    config = new_config(tmp)                      # fresh QGIS config dir, no plugin
    rec = desktop_session(config, "install_zip_session.py", "1-install-zip", CP_ZIP=str(zip_path))
    rec = desktop_session(config, "qgis_desktop_session.py", "2-restart-install", ...)
"""
from __future__ import annotations

import configparser
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from cityplanner.plugin import PLUGIN_ROOT

HERE = Path(__file__).resolve().parent
SYSTEM_PYTHON = "/usr/bin/python3"  # QGIS's Python on Debian
ARTIFACTS = PLUGIN_ROOT / "build" / "test-artifacts" / "user-path"
PBF = PLUGIN_ROOT / "resources" / "data" / "helsinki.osm.pbf"
ALGORITHMS = {"buildcitymodel", "buildlandinstance", "buildroadinstance", "buildstationinstance", "solveland",
              "solveroad", "solvestation", "evaluateplan", "participatoryrevision", "budgetcurve"}


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
    """Debian 12's /usr/bin/qgis_process wrapper is broken on 3.22 ("--noversioncheck"): the binary."""
    return shutil.which("qgis_process.bin") or shutil.which("qgis_process") or "qgis_process"


def run_logged(name: str, cmd: list[str], env: dict, timeout: int, cwd: Path | None = None):
    """Run `cmd`, keep its command line, exit status and output in ARTIFACTS/<name>.log."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(cmd, env=env, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       timeout=timeout)
    (ARTIFACTS / f"{name}.log").write_text(f"$ {' '.join(cmd)}\nexit {r.returncode}\n{r.stdout}\n{r.stderr}")
    return r


def build_zip(dest: Path) -> Path:
    """The ZIP a planner downloads (scripts/package.py), built into `dest`."""
    spec = importlib.util.spec_from_file_location("cp_package", PLUGIN_ROOT / "scripts" / "package.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return Path(mod.build(dest))


def new_config(config: Path) -> Path:
    """A fresh QGIS config dir: profile `default` with no plugin and no first-run dialogs."""
    ini = configparser.ConfigParser()
    ini.optionxform = str
    # no first-run dialogs in the window: tips, news feed, version check
    ini["qgis"] = {"showTips322": "false", "checkVersion": "false", "allowVersionCheck": "false"}
    ini["core"] = {"NewsFeed\\httpsfeedqgisorg\\disabled": "true"}
    (config / "profiles" / "default" / "QGIS").mkdir(parents=True)
    with open(config / "profiles" / "default" / "QGIS" / "QGIS3.ini", "w") as f:
        ini.write(f, space_around_delimiters=False)
    return config


def plugin_dir(config: Path) -> Path:
    """Where QGIS installs the plugin in this config dir's default profile."""
    return config / "profiles" / "default" / "python" / "plugins" / "cityplanner"


def desktop_session(config: Path, script: str, name: str, timeout: int = 1500, **env: str) -> dict:
    """Start QGIS desktop (Xvfb) on `config`, run session script `script` (a file in this folder
    or a path) inside it, and return the record it wrote (ARTIFACTS/<name>.json). `env` reaches
    the script (CP_* variables)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    record = ARTIFACTS / f"{name}.json"
    record.unlink(missing_ok=True)
    path = Path(script) if os.sep in script else HERE / script
    run_env = clean_env(config, CP_OUT=str(ARTIFACTS), CP_NAME=name, CP_SESSION_LIB=str(HERE), **env)
    cmd = ["xvfb-run", "-a", "-s", "-screen 0 1400x900x24", "qgis", "--profiles-path", str(config), "--nologo",
           "--noversioncheck", "--code", str(path)]
    r = run_logged(name, cmd, run_env, timeout)
    assert record.is_file(), f"{name}: QGIS exited {r.returncode} without a record: {(r.stdout + r.stderr)[-1500:]}"
    return json.loads(record.read_text())


def wheelhouse() -> Path:
    """$CITYPLANNER_WHEELHOUSE, or build/wheelhouse (re-made when the requirements change)."""
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
