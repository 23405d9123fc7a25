"""Plan maps a planner can present (issue 26, maps): a plan built from the planner's own street
layer is drawn over those streets (the workspace's saved city model), and an empty road plan
still renders (its layer typed by the task, not by a first geometry it does not have)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pyogrio

ROOT = Path(__file__).resolve().parents[2]
SOHO = ROOT / "tests" / "data" / "external" / "soho_1854.gpkg"


def test_own_streets_behind_the_plan_and_an_empty_road_plan(qgis_app, tmp_path):
    from cityplanner.plugin.audit import CITY_MODEL_FILE
    from cityplanner.plugin.qgis_io.plans import GEOMETRY, plan_frame
    from cityplanner.plugin.qgis_io.report_map import backdrop_frames, memory_layer, render_plan_map
    from cityplanner.plugin.sandbox.workspace import load_instance

    ws = tmp_path / "ws"
    p = subprocess.run([sys.executable, "-m", "plugin", "instance", "--task", "road", "--roads", f"{SOHO}:streets",
                        "--out", str(ws)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-800:]
    inst = load_instance(ws)
    assert backdrop_frames(inst) is None                  # "soho_1854" names no loadable source
    bd = backdrop_frames(inst, ws)
    edges = pyogrio.read_dataframe(ws / CITY_MODEL_FILE, layer="edges")
    assert set(bd) == {"roads"} and len(bd["roads"]) == len(edges) > 100
    layer = memory_layer(plan_frame(inst, []), "plan", inst.crs, "plan_road", GEOMETRY["road"][0])
    png = render_plan_map(layer, bd, inst.crs, tmp_path / "map.png", "road plan", "an empty plan " * 20)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
