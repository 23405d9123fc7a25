"""scripts/demo.py (`make demo`) on one region and one task with tiny time limits: the
GeoPackage layers, the PNG maps and the report rows."""
from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.qgis
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    """The demo in its own process (it starts its own QGIS), city model in-process: the
    qgis_process route is covered by the algorithm tests."""
    out = tmp_path_factory.mktemp("demo")
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "demo.py"), "--out", str(out), "--regions", "kotka",
                        "--tasks", "road", "--default-limit", "1", "--heuristic-limit", "0.3", "--no-qgis-process"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120,
                       env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, (p.stdout + p.stderr)[-2000:]
    return p, out


def test_progress_lines_with_step_seconds(demo):
    p, _ = demo
    steps = [ln for ln in p.stdout.splitlines() if re.match(r"\[\s*\d+\.\ds\] ", ln)]
    assert any("kotka road: build instance" in ln and ln.endswith(" s)") for ln in steps)
    assert sum("kotka road solve" in ln for ln in steps) == 5


def test_geopackage_layers(demo):
    from qgis.core import QgsVectorLayer, QgsWkbTypes

    from cityplanner.plugin.qgis_io.compat import GeometryType

    _, out = demo
    gpkg = out / "kotka.gpkg"
    with sqlite3.connect(gpkg) as db:
        names = {n for (n,) in db.execute("SELECT table_name FROM gpkg_contents")}
    methods = ("greedy", "grasp", "sa", "alns", "default")
    assert {"faces", "roads", "junctions", "demand", "road_candidates", "road_network", "road_evaluation",
            *(f"road_plan_{m}" for m in methods)} <= names
    plan = QgsVectorLayer(f"{gpkg}|layername=road_plan_default", "p", "ogr")
    assert plan.isValid() and plan.featureCount() > 0
    assert QgsWkbTypes.geometryType(plan.wkbType()) == GeometryType.Line
    assert plan.crs().authid() == "EPSG:32635"
    assert not (out / ".staging").exists()


def test_png_maps(demo):
    from qgis.PyQt.QtGui import QImage

    _, out = demo
    for name in ("kotka-city.png", "kotka-road.png"):
        img = QImage(str(out / "maps" / name))
        assert not img.isNull() and img.width() > 800 and img.height() > 600, name
        # not a blank page: a map with roads, candidates, plan, title and legend has many colours
        colours = {img.pixel(x, y) for x in range(0, img.width(), 7) for y in range(0, img.height(), 7)}
        assert len(colours) > 50, name


def test_report_rows(demo):
    _, out = demo
    html = (out / "report.html").read_text()
    assert "kotka — road construction" in html and "<img src='maps/kotka-road.png'>" in html
    rows = re.findall(r"<tr><td>(greedy|grasp|sa|alns|default)</td>(.*?)</tr>", html)
    assert [m for m, _ in rows] == ["default", "greedy", "grasp", "sa", "alns"]
    res = json.loads((out / "results.json").read_text())
    task = res["regions"]["kotka"]["tasks"][0]
    default = task["rows"][0]
    assert default["valid"] is True and default["upper_bound"] >= default["score"] - 1e-6   # the score is rounded to 6 places
    assert all({"valid", "score", "gap", "seconds"} <= set(r) for r in task["rows"])
    assert res["timings"][-1]["step"] == "total" and "Timings" in html
