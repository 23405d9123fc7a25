"""Session fixtures for the planner's path (tests/install): one fresh QGIS profile per test run,
taken through the steps a planner takes, each step once whichever test file asks first.

``zip_installed``: the ZIP installed through QGIS's own Install-from-ZIP code in a desktop
session, then probed before any dependency is installed (QGIS's Python alone, and
``qgis_process``). ``installed_profile``: QGIS started again on that profile (a restart),
Install… clicked, a solve run; later install tests (e.g. an LLM round) start their own
``desktop_session`` on ``installed_profile.config``."""
from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from .user_path import (
    ARTIFACTS,
    PBF,
    SYSTEM_PYTHON,
    build_zip,
    clean_env,
    desktop_session,
    new_config,
    qgis_process_bin,
    run_logged,
    wheelhouse,
)


@dataclass
class UserProfile:
    """A QGIS config dir on its way through the user path, with what each step recorded."""

    config: Path
    zip_path: Path
    records: dict[str, dict] = field(default_factory=dict)


def probe_before_install(profile: UserProfile) -> dict:
    """What the profile does before Install…: QGIS's own Python loads the plugin (qgis_load.py),
    and when the provider registers without alns, `default` says why through qgis_process."""
    config = profile.config
    r = run_logged("1-load-before", [SYSTEM_PYTHON, "-E", "-s", str(Path(__file__).with_name("qgis_load.py"))],
                   clean_env(config, QT_QPA_PLATFORM="offscreen"), 300)
    probe = {"returncode": r.returncode, "stderr": r.stderr[-3000:],
             "load": json.loads(r.stdout.strip().splitlines()[-1]) if r.returncode == 0 else None}
    out = probe["load"]
    if out and out["provider"] and any(m.startswith("Solvers default and alns unavailable: ")
                                       for m in out["messages"]):
        env = clean_env(config, QT_QPA_PLATFORM="offscreen")
        qp = qgis_process_bin()
        run_logged("1-enable", [qp, "plugins", "enable", "cityplanner"], env, 300)
        ws = config / "ws-before"
        b = run_logged("1-build", [qp, "run", "cityplanner:buildstationinstance", "--", f"INPUT={PBF}",
                                   f"WORKSPACE={ws}", f"CANDIDATES={config / 'c-before.gpkg'}"], env, 600)
        s = run_logged("1-solve-default", [qp, "run", "cityplanner:solvestation", "--", f"WORKSPACE={ws}",
                                           "METHOD=0", "TIME_LIMIT=5", f"OUTPUT={config / 'p-before.gpkg'}"], env, 600)
        probe["default_without_alns"] = {"build_rc": b.returncode, "build_err": b.stderr[-1500:],
                                         "solve_rc": s.returncode, "said": (s.stdout + s.stderr)[-3000:]}
    return probe


@pytest.fixture(scope="session")
def zip_installed(tmp_path_factory) -> UserProfile:
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True)
    root = tmp_path_factory.mktemp("user-path")
    profile = UserProfile(new_config(root / "qgis-config"), build_zip(root / "dist"))
    profile.records["install_zip"] = desktop_session(profile.config, "install_zip_session.py", "1-install-zip",
                                                     CP_ZIP=str(profile.zip_path))
    profile.records["before_install"] = probe_before_install(profile)
    return profile


@pytest.fixture(scope="session")
def installed_profile(zip_installed: UserProfile) -> UserProfile:
    zip_installed.records["restart_install"] = desktop_session(
        zip_installed.config, "qgis_desktop_session.py", "2-restart-install",
        CITYPLANNER_WHEELHOUSE=str(wheelhouse()), CP_PBF=str(PBF))
    return zip_installed
