"""`python -m plugin instance` addresses suite instances by name."""
import json

import pytest

from cityplanner.plugin.bench.suites import suite
from cityplanner.plugin.cli import main


def test_suite_instance_by_name_matches_suite_item(tmp_path, capsys):
    item = next(i for i in suite("quick") if i.task == "land" and i.size == "small")
    assert main(["instance", "--suite", "quick", "--name", item.name, "--out", str(tmp_path / "ws")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["task"] == "land" and out["candidates"] > 0
    export = json.loads((tmp_path / "ws" / "input" / "export.json").read_text())
    assert export["meta"]["size"] == "small"


@pytest.mark.parametrize("argv,msg", [
    (["--suite", "quick", "--name", "nope"], "no instance 'nope'"),
    (["--task", "land"], "give --task with --region"),
])
def test_bad_suite_arguments(tmp_path, capsys, argv, msg):
    assert main(["instance", *argv, "--out", str(tmp_path / "ws")]) == 2
    assert msg in capsys.readouterr().err


def test_list_names_every_instance_with_its_split(capsys):
    assert main(["instance", "--suite", "quick", "--list"]) == 0
    rows = json.loads(capsys.readouterr().out)["instances"]
    assert len(rows) == 9 and {r["split"] for r in rows} <= {"train", "test"}
