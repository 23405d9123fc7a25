"""The planner's path, for real, on the QGIS this runs on (3.22 in `make test`, 3.44 LTR in
`make test-ltr`): build the ZIP, install it into a fresh profile through QGIS's own
Install-from-ZIP code, check what the plugin says before anything is installed (QGIS's Python
alone, no venv, no PYTHONPATH), **restart QGIS** and check it kept the plugin enabled and
loaded, click the message bar's Install… button (pip from the offline wheelhouse into the
profile's python/dependencies), solve station placement with ``default`` to a certified
optimum, and do it all again through ``qgis_process``.

Screenshots, logs and the session records are kept in build/test-artifacts/user-path/. The
wheelhouse is $CITYPLANNER_WHEELHOUSE, or build/wheelhouse (made by scripts/wheelhouse.sh
from the local pip cache when missing). The steps are session fixtures (conftest.py)."""
from __future__ import annotations

import pytest

from .user_path import ALGORITHMS, ARTIFACTS, PBF, clean_env, plugin_dir, qgis_process_bin, run_logged

pytestmark = [pytest.mark.qgis, pytest.mark.slow]


def test_install_from_zip_through_qgis_plugin_manager(zip_installed):
    rec = zip_installed.records["install_zip"]
    assert rec["error"] is None, rec
    assert rec["before"] == {"enabled": False, "loaded": False, "active": False}
    # QGIS unpacked it, enabled it (its setting) and started it, as Install from ZIP does
    assert (plugin_dir(zip_installed.config) / "metadata.txt").is_file()
    assert rec["after"] == {"enabled": True, "loaded": True, "active": True}, rec
    assert "Install…" in rec["bar"] and "CityPlanner needs" in rec["bar_text"], rec
    # no "Python warning" from our code or raised through our imports while QGIS starts the plugin
    assert not any(m.startswith("Python warning") for m in rec["messages"]), rec["messages"]
    assert (ARTIFACTS / "1-install-zip-installed.png").stat().st_size > 10_000


def test_fresh_profile_loads_and_says_what_is_missing(zip_installed):
    probe = zip_installed.records["before_install"]
    assert probe["returncode"] == 0, probe["stderr"][-1500:]
    out = probe["load"]
    assert out["loaded"], out
    # no warning at start: ours never, other packages' filtered for their own module only
    assert out["warnings"] == [], out["warnings"]
    assert "Traceback" not in probe["stderr"] and "Error" not in " ".join(out["messages"]), probe["stderr"][-1500:]
    unavailable = [m for m in out["messages"] if " unavailable: " in m]
    assert unavailable, out  # this QGIS lacks something the plugin needs (a stock install always does)
    assert all(("Install dependencies" in m or "endpoint" in m) and "\n" not in m for m in unavailable)
    if not out["provider"]:
        assert any(m.startswith("Processing algorithms unavailable: ") for m in unavailable)
    elif any(m.startswith("Solvers default and alns unavailable: ") for m in unavailable):
        # the provider works without alns (Debian 13's QGIS): `default` says why, in one line
        run = probe["default_without_alns"]
        assert run["build_rc"] == 0, run["build_err"]
        assert run["solve_rc"] != 0 and "Solvers default and alns unavailable: alns missing" in run["said"], run
        assert "Traceback" not in run["said"] and "ModuleNotFoundError" not in run["said"]


def test_restart_keeps_it_enabled_then_install_and_certified_solve(installed_profile):
    rec = installed_profile.records["restart_install"]
    # QGIS checks the metadata's version range at every start and silently disables a plugin
    # outside it (qgisMaximumVersion=3.40 did that on 3.44): it must still be on and running
    assert rec["at_start"] == {"enabled": True, "loaded": True, "active": True}, rec
    assert not any("not compatible" in m for m in rec["messages"]), rec["messages"]
    assert rec["error"] is None, rec
    assert "Install…" in rec["bar"]
    assert "CityPlanner needs" in rec["bar_text"], rec["bar_text"]
    assert rec["provider_after"] and rec["solve"]["VALID"] is True, rec
    assert any(t.startswith("installed ") and t.endswith(" — ready") for t in rec["bar_after"]), rec
    assert not any("restart" in t for t in rec["bar_after"])  # nothing was loaded before: no restart
    assert not any(m.startswith("Python warning") for m in rec["messages"]), rec["messages"]
    # certified: the MILP proved the plan optimal, its bound meets the plan's (rounded) score
    solve = rec["solve"]
    assert solve["STATUS"] == "optimal" and solve["GAP"] == 0, solve
    assert solve["SCORE"] == pytest.approx(solve["UPPER_BOUND"], abs=1e-6), solve
    for png in ("2-restart-install-message-bar.png", "2-restart-install-installed-provider.png"):
        assert (ARTIFACTS / png).stat().st_size > 10_000


def test_qgis_process_lists_all_and_solves_with_default(installed_profile, tmp_path):
    env = clean_env(installed_profile.config, QT_QPA_PLATFORM="offscreen")
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
