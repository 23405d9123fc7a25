"""Issue 17's reproducers as a data-driven table (tests/core/data/hostile_cases.yaml): what a model's
text or a user's input can send, and the bounded, reported failure that must come back."""
from __future__ import annotations

import json
import os
import pickle
import random
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import yaml

from cityplanner.plugin import PLUGIN_ROOT
from cityplanner.plugin.agent.protocol import workspace_state
from cityplanner.plugin.bench.fuzz import prepare
from cityplanner.plugin.cli import main
from cityplanner.plugin.sandbox import VirtualTerminal

from .sandbox_helpers import toy_workspace

CASES = yaml.safe_load((Path(__file__).parent / "data" / "hostile_cases.yaml").read_text(encoding="utf-8"))["tests"]
GRACE_S = 1.0  # a turn may overrun its budget by the one step a budget cannot interrupt
PLACEHOLDERS = {
    "LONG": "n" * 300,
    "SURROGATE": "\ud800",
    "DIGITS_5000": "9" * 5000,
    "DIGITS_100000": "9" * 100_000,
    "NESTED_100000": "[" * 100_000,
    "CAT_BIG_1500": " work/big" * 1500,
    "ECHO_120_FILES": "; ".join(f"echo {k} > work/f{k}" for k in range(120)),
    "FILTERS_3000": " --filter 'cost>0'" * 3000,
    "SPACES_8000": " " * 8000,
    "SAMPLES": str(PLUGIN_ROOT / "resources" / "participation" / "samples"),
    "MAP_300": ",".join(f"value{k}=school" for k in range(20)) + ",last=no_such_type",
    "ID_10000": "x" * 10_000,
    "CONSTRAINTS_20000": json.dumps({"constraints": [{"kind": "count_max", "count": 1}] * 20_000}),
}


def fill(value, tmp: Path, ws: Path):
    """``value`` with its @{…} placeholders replaced (recursively in lists and dicts)."""
    if isinstance(value, list):
        return [fill(v, tmp, ws) for v in value]
    if isinstance(value, dict):
        return {k: fill(v, tmp, ws) for k, v in value.items()}
    if not isinstance(value, str):
        return value
    for key, text in {**PLACEHOLDERS, "TMP": str(tmp), "WS": str(ws), "FIFO": str(ws / "work" / "fifo")}.items():
        value = value.replace(f"@{{{key}}}", text)
    return value


def rows(kind: str) -> list:
    return [pytest.param(c, id=c["name"]) for c in CASES if c["kind"] == kind]


@pytest.fixture
def hostile_ws(tmp_path, monkeypatch):
    """A toy workspace with the files the rows use (work/big, nl, line, d, fifo)."""
    _, ws = toy_workspace(tmp_path / "ws", monkeypatch)
    prepare(ws)
    os.mkfifo(ws / "work" / "fifo")
    return ws


def test_every_row_is_run():
    assert {c["kind"] for c in CASES} == {"terminal", "turn", "state", "cli", "checkpoint", "mcp", "pipe", "tool",
                                          "endpoint"}
    assert all(c.get("before") and c.get("expect") for c in CASES)
    assert len({c["name"] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", rows("terminal"))
def test_terminal_case(case, hostile_ws, tmp_path):
    term = VirtualTerminal(hostile_ws)
    if "limits" in case:
        term.budget.limits = replace(term.limits, **case["limits"])
    exp = case["expect"]
    turn = {"analysis": "", "plan": "", "task_complete": False,
            "commands": [{"keystrokes": k, "duration": 1} for k in fill(case["commands"], tmp_path, hostile_ws)]}
    t0 = time.monotonic()
    res = term.run_turn(json.dumps(turn))
    seconds = time.monotonic() - t0
    obs = res["observation"]
    assert res["ok"], res["error"]
    for text in exp.get("contains", []):
        assert text in obs
    assert seconds <= exp.get("max_seconds", term.limits.turn_seconds + GRACE_S)
    assert len(obs) <= exp.get("max_output", len(turn["commands"]) * (term.limits.command_output + 1500))
    assert str(tmp_path) not in obs and str(PLUGIN_ROOT) not in obs
    for rel in exp.get("files_absent", []):
        assert not (hostile_ws / rel).exists()


@pytest.mark.parametrize("case", rows("turn"))
def test_malformed_turn_case(case, hostile_ws, tmp_path):
    res = VirtualTerminal(hostile_ws).run_turn(fill(case["text"], tmp_path, hostile_ws))
    assert not res["ok"] and all(text in res["error"] for text in case["expect"]["contains"])


@pytest.mark.parametrize("case", rows("state"))
def test_workspace_state_case(case, hostile_ws, tmp_path):
    term = VirtualTerminal(hostile_ws)
    for command in case.get("commands", []):
        term.run(command)
    if "history" in case:
        with open(hostile_ws / "outputs" / "eval_history.jsonl", "a", encoding="utf-8") as fh:
            fh.writelines(f"{line}\n" for line in fill(case["history"], tmp_path, hostile_ws))
    if "context" in case:
        (hostile_ws / "work" / "atomic_context.json").write_text(fill(case["context"], tmp_path, hostile_ws))
    state = workspace_state(hostile_ws, case.get("goal", "build"))
    exp = case["expect"]
    if "warning" in exp:
        assert exp["warning"] in state["warnings"]
    if "hard_error" in exp:
        assert exp["hard_error"] in state["hard_errors"]
    if "last_score" in exp:
        assert state["last_score"] == exp["last_score"]
    if "next_action" in exp:
        assert state["next_action"].startswith(exp["next_action"])


def _write_inputs(case: dict, tmp: Path) -> None:
    for name, text in case.get("files", {}).items():
        data = random.Random(17).randbytes(4096) if text == "@{RANDOM_BYTES}" else fill(text, tmp, tmp).encode()
        (tmp / name).write_bytes(data)
    for name, kind in case.get("gpkg", {}).items():
        _gpkg(tmp / name, kind)


def _gpkg(path: Path, kind: str) -> None:
    """A GeoPackage with an empty roads layer, or a road triangle and a building without ``levels``."""
    import geopandas as gpd
    from shapely.geometry import LineString, Point, Polygon

    if kind == "empty":
        gpd.GeoDataFrame({"highway": []}, geometry=gpd.GeoSeries([], crs=3067)).to_file(path, layer="roads")
        return
    if kind == "over_the_feature_limit":   # one road more than a layer may hold, 1 m apart
        import shapely

        from cityplanner.plugin.city.sources import MAX_LAYER_FEATURES

        n = MAX_LAYER_FEATURES + 1
        x = 385000 + (np.arange(n) % 1000).astype(float)
        y = 6672000 + (np.arange(n) // 1000).astype(float)
        lines = shapely.linestrings(np.stack([np.stack([x, y], 1), np.stack([x + 0.5, y], 1)], 1))
        gpd.GeoDataFrame({"highway": ["residential"] * n}, geometry=lines, crs=3067).to_file(
            path, layer="roads", engine="pyogrio")
        return
    ring = [(385000, 6672000), (385300, 6672000), (385300, 6672300), (385000, 6672300)]
    roads = [LineString([a, b]) for a, b in zip(ring, ring[1:] + ring[:1])]
    if kind == "area_without_crs":   # a polygon in a GeoPackage written with no CRS at all
        gpd.GeoDataFrame({"name": ["area"]}, geometry=[Polygon([(0, 0), (1, 0), (1, 1)])]).to_file(path, layer="area")
        return
    if kind == "sites_10000_km_away":   # the road square, a demand point, and sites 10,000 km east
        gpd.GeoDataFrame({"highway": ["residential"] * 4}, geometry=roads, crs=3067).to_file(path, layer="roads")
        gpd.GeoDataFrame({"weight": [100.0]}, geometry=[Point(385150, 6672150)], crs=3067).to_file(path, layer="demand")
        gpd.GeoDataFrame({"name": ["far"]}, geometry=[Point(385150 + 1e7, 6672150)], crs=3067).to_file(
            path, layer="sites")
        return
    if kind == "demand_1e308":   # the road square and one demand point weighing 1e308
        gpd.GeoDataFrame({"highway": ["residential"] * 4}, geometry=roads, crs=3067).to_file(path, layer="roads")
        gpd.GeoDataFrame({"weight": [1e308]}, geometry=[Point(385150, 6672150)], crs=3067).to_file(path, layer="demand")
        return
    if kind in ("local_cs", "road_at_1e300", "custom_wkt"):   # the road square in an engineering CRS, a
        # named projected CRS without an EPSG code (a transverse Mercator of its own), or plus a road far off
        crs = {"local_cs": 'LOCAL_CS["site grid",LOCAL_DATUM["site",0],UNIT["metre",1],AXIS["X",EAST],AXIS["Y",NORTH]]',
               "custom_wkt": 'PROJCS["My grid",GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,'
                             '298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],'
                             'PROJECTION["Transverse_Mercator"],PARAMETER["latitude_of_origin",0],'
                             'PARAMETER["central_meridian",25.5],PARAMETER["scale_factor",0.9999],'
                             'PARAMETER["false_easting",500000],PARAMETER["false_northing",0],UNIT["metre",1]]'
               }.get(kind, 3067)
        if kind == "road_at_1e300":
            roads = roads + [LineString([(1e300, 0), (1e300, 10)])]
        gpd.GeoDataFrame({"highway": ["residential"] * len(roads)}, geometry=roads, crs=crs).to_file(path, layer="roads")
        return
    gpd.GeoDataFrame({"highway": ["residential"] * 4}, geometry=roads, crs=3067).to_file(path, layer="roads")
    gpd.GeoDataFrame({"building": ["yes"]}, geometry=[Polygon([(385100, 6672100), (385140, 6672100),
                                                                (385140, 6672140), (385100, 6672140)])],
                     crs=3067).to_file(path, layer="buildings")


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", rows("cli"))
def test_cli_case(case, hostile_ws, tmp_path, capsys):
    _write_inputs(case, tmp_path)
    argv = fill(case["argv"], tmp_path, hostile_ws)
    exp = case["expect"]
    t0 = time.monotonic()
    try:
        code = main(argv)
    except SystemExit as e:  # argparse's own error exit
        code = e.code
    seconds = time.monotonic() - t0
    out, err = capsys.readouterr()
    assert code == exp["exit"], err
    assert "Traceback" not in out + err
    if code:
        assert len([line for line in err.splitlines() if line.startswith(("error", "python -m plugin"))]) <= 1
    assert exp.get("stderr", "") in err and exp.get("stdout", "") in out
    assert seconds <= exp.get("max_seconds", 120)


def test_ask_removes_its_temporary_folder(tmp_path, monkeypatch, capsys):
    """Before: every `ask` left a cityplanner-ask-* folder behind."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    code = main(["ask", "build a small land instance of helsinki with a budget of 500 k€ and solve it",
                 "--region", "helsinki", "--endpoint", "http://127.0.0.1:9/v1"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["workspace_root"] is None
    assert [c["status"] for c in out["tool_calls"] if c["tool"] == "build_instance"] == ["ok"]  # it wrote a workspace
    assert not list(tmp_path.glob("cityplanner-ask-*"))


class _Planted:
    """A pickle that runs a shell command when loaded."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


@pytest.mark.torch
@pytest.mark.parametrize("case", rows("checkpoint"))
def test_checkpoint_case(case, tmp_path):
    torch = pytest.importorskip("torch")
    from cityplanner.plugin.errors import InputError
    from cityplanner.plugin.training.trainer import read_checkpoint

    marker = tmp_path / "pwned"
    torch.save({"state": _Planted(marker), "lora": {}}, tmp_path / "checkpoint.pt")
    with pytest.raises(InputError, match=case["expect"]["error"]):
        read_checkpoint(tmp_path / "checkpoint.pt")
    assert not marker.exists()
    # a checkpoint of plain containers and tensors still loads
    opt = torch.optim.AdamW([torch.zeros(2, requires_grad=True)])
    torch.save({"state": {"phase": "sft", "step": 3, "opt": opt.state_dict()}, "lora": {"a": torch.ones(2)},
                "config": {"run": {"seed": 0}}}, tmp_path / "good.pt")
    ck = read_checkpoint(tmp_path / "good.pt")
    assert ck["state"]["step"] == 3 and ck["lora"]["a"].tolist() == [1.0, 1.0]
    with pytest.raises(pickle.UnpicklingError):  # what read_checkpoint turns into the one-line error
        torch.load(tmp_path / "checkpoint.pt", weights_only=True)


@pytest.mark.parametrize("case", rows("mcp"))
def test_mcp_case(case, tmp_path, monkeypatch):
    from cityplanner.plugin.agent.tools.planning import build_instance
    from cityplanner.plugin.agent.tools.registry import ToolContext, ToolFailure

    _, ws = toy_workspace(tmp_path / "root" / "mine", monkeypatch)
    VirtualTerminal(ws).run("plan set c0\npython input/evaluate_plan.py")
    before = {p: (ws / p).read_bytes() for p in ("outputs/final_plan.json", "outputs/eval_history.jsonl")}
    with pytest.raises(ToolFailure, match=case["expect"]["error"].replace("(", r"\(")):
        build_instance(ToolContext(tmp_path / "root"), {"region": "helsinki", "task": "land", "workspace": "mine"})
    assert {p: (ws / p).read_bytes() for p in before} == before


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", rows("pipe"))
def test_pipe_case(case):
    """A real `python -m plugin` process whose stdout reader left before it wrote."""
    import subprocess
    import sys

    p = subprocess.Popen([sys.executable, "-m", "plugin", *case["argv"]], cwd=PLUGIN_ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=60) == case["expect"]["exit"], err
    assert "Traceback" not in err and case["expect"]["stderr"] in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("case", rows("tool"))
def test_tool_case(case, tmp_path, monkeypatch):
    """An MCP tool call refused by its schema before anything is written in the workspace."""
    from cityplanner.plugin.agent.tools import default_registry

    _, ws = toy_workspace(tmp_path / "root" / "mine", monkeypatch)
    args = {"workspace": "mine", **fill({k: v for k, v in case["args"].items() if k != "repeat"}, tmp_path, ws)}
    if "repeat" in case["args"]:
        args = {k: v * case["args"]["repeat"] if isinstance(v, list) else v for k, v in args.items()}
    before = sorted(p.relative_to(ws) for p in ws.rglob("*"))
    obs = default_registry(tmp_path / "root").call(case["tool"], args)
    assert obs.status == "failed" and case["expect"]["error"] in obs.error
    assert sorted(p.relative_to(ws) for p in ws.rglob("*")) == before


@pytest.mark.parametrize("case", rows("endpoint"))
def test_endpoint_case(case, tmp_path):
    """A real server on 127.0.0.1 answers the row's body (or a chat answer holding its content);
    the instruction reader gives a clarification or the backend one BackendError line."""
    from cityplanner.plugin.agent.backend import BackendError, HttpBackend
    from cityplanner.plugin.constraints.llm import model_read

    from .test_endpoint_deadlines import Server, _answer, _send

    body = fill(case["body"], tmp_path, tmp_path).encode() if "body" in case else \
        _answer(fill(case["content"], tmp_path, tmp_path))
    srv = Server(lambda h: _send(h, body))
    exp = case["expect"]
    t0 = time.monotonic()
    try:
        if "error" in exp:
            with pytest.raises(BackendError, match=exp["error"]) as e:
                model_read(HttpBackend(srv.url), "keep 400 m between stations", "station")
            assert "\n" not in str(e.value)
        else:
            items, clar = model_read(HttpBackend(srv.url), "keep 400 m between stations", "station")
            assert items == [] and exp["clarification"] in clar
    finally:
        srv.close()
    assert time.monotonic() - t0 <= exp.get("max_seconds", 30)
