"""The virtual terminal: programs, planning verbs, confinement, protocol turns and a fuzz test."""
from __future__ import annotations

import json
import os
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cityplanner.plugin.bench.fuzz import FUZZ_LIMITS, GRACE_S, run_fuzz, tree
from cityplanner.plugin.sandbox import VirtualTerminal, read_plan, register_verb
from cityplanner.plugin.sandbox.verbs import VERBS
from cityplanner.plugin.util.io import read_jsonl

from .sandbox_helpers import toy_workspace


@pytest.fixture
def term(tmp_path, monkeypatch):
    inst, ws = toy_workspace(tmp_path / "ws", monkeypatch)
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "key.txt").write_text("top secret")
    os.symlink(tmp_path / "secret", ws / "work" / "link")
    return VirtualTerminal(ws, max_output=2000)


def plan_of(t):
    return read_plan(t.jail.root / "outputs" / "final_plan.json")[0]


@pytest.mark.parametrize("cmd, expected", [
    ("ls", "input/\nlogs/\noutputs/\nwork/\n"),
    ("ls input | grep -c csv", "2\n"),
    ("head -n 2 input/candidate_summary.csv", "id,cost,group\nc0,5.0,0\n"),
    ("head -2 input/candidate_summary.csv | tail -n 1", "c0,5.0,0\n"),
    ("tail -n +9 input/candidate_summary.csv", "c7,1.0,-1\n"),
    ("wc -l input/candidate_summary.csv", "      9 input/candidate_summary.csv\n"),
    ("grep -i -v C4 input/candidate_summary.csv | wc -l", "      8\n"),
    ("grep -c ',-1' input/candidate_summary.csv", "4\n"),
    ("grep -F '.0,1' input/candidate_summary.csv | sort -r", "c3,2.0,1\nc2,3.0,1\n"),
    ("sort -t , -k 2 -n -r input/candidate_summary.csv | head -n 1", "c0,5.0,0\n"),
    ("echo a  b; echo -n c", "a b\nc"),
    ("printf '%s=%d\\n' x 1 y 2", "x=1\ny=2\n"),
    ("cd work && pwd; cd; pwd", "/workspace/work\n/workspace\n"),
    ("echo hi > work/a.txt && echo more >> work/a.txt; cat work/a.txt", "hi\nmore\n"),
    ("cat > work/b.txt <<'EOF'\nline $1 `x`\nEOF\ncat work/b.txt", "line $1 `x`\n"),
    ("cat < input/README.md | head -n 1", "# Planning workspace: toy (toy-0)\n"),
    ("false_cmd || echo fallback", "false_cmd: command not found (type `help` for the commands)\nfallback\n"),
    ("grep nothing input/README.md && echo yes || echo no", "no\n"),
    ("ls work/*.txt", "ls: cannot access 'work/*.txt': no such file or directory\n"),
    ("echo '{\"candidate_ids\": [\"c4\"]}' > outputs/final_plan.json; cat outputs/*.json",
     '{"candidate_ids": ["c4"]}\n'),
    ("ls /workspace/input | head -n 1", "README.md\n"),
    ("cat input/README.md 2>/dev/null | wc -l >/dev/null", ""),
])
def test_programs(term, cmd, expected):
    assert term.run(cmd) == expected


def test_plan_verbs(term):
    assert "1 selected" in term.run("plan add c4")
    assert "note: conflict" in term.run("plan add c0 c1")
    assert plan_of(term) == ["c4", "c0", "c1"]
    term.run("plan remove c1")
    term.run("plan swap c0 c5")
    assert plan_of(term) == ["c4", "c5"]
    assert "candidate_ids: c4 c5" in term.run("plan show")
    assert "unknown candidate ids: zz" in term.run("plan add zz")
    assert "not in the plan: c7" in term.run("plan remove c7")
    assert "already in the plan" in term.run("plan swap c4 c5")
    assert "usage: plan" in term.run("plan fly")
    term.run("plan set c6 c6 c7")
    assert plan_of(term) == ["c6", "c7"]
    term.run("plan clear")
    assert plan_of(term) == []
    term.run("echo broken > outputs/final_plan.json")
    assert "plan clear" in term.run("plan add c4")  # a broken plan file is reported, not overwritten


def test_candidates_and_diagnose(term):
    out = term.run("candidates --filter 'cost>=1' --filter group=-1 --sort -cost --columns id,cost --limit 2")
    assert out.splitlines()[0] == "4 of 8 candidates match (first 2 shown)"
    assert out.splitlines()[2].split() == ["c4", "2.0"]
    assert "no column 'nope'" in term.run("candidates --sort nope")
    assert "bad filter" in term.run("candidates --filter cost~3")
    assert "not a number" in term.run("candidates --filter 'cost<x'")
    term.run("plan set c4 c5")
    out = term.run("diagnose")
    assert out.startswith("valid: true") and "binding constraint:" in out and "strongest: " in out
    out = json.loads(term.run("python input/evaluate_plan.py outputs/final_plan.json"))
    assert out["valid"] and out["candidate_ids"] == ["c4", "c5"]
    assert json.loads(term.run("cd work; python3 ../input/evaluate_plan.py"))["candidate_ids"] == ["c4", "c5"]
    events = [r["event"] for r in read_jsonl(term.log_path)]
    assert events.count("evaluation") == 3 and events.count("command") == 8
    assert len(read_jsonl(term.jail.root / "outputs" / "eval_history.jsonl")) == 3


def test_register_verb_and_help(term):
    register_verb("echo2", lambda jail, args, stdin: " ".join(args) * 2 + "\n", "echo2 TEXT - twice")
    try:
        assert term.run("echo2 ab | wc -c") == "      5\n"
        assert "echo2 TEXT - twice" in term.run("help")
        register_verb("boom", lambda jail, args, stdin: 1 / 0, "boom - fails")
        assert "boom: internal error: ZeroDivisionError" in term.run("boom")
    finally:
        VERBS.pop("echo2", None)
        VERBS.pop("boom", None)


@pytest.mark.parametrize("cmd, message", [
    ("cat /etc/passwd", "absolute paths outside /workspace"),
    ("cat ../../etc/passwd", "escapes the workspace"),
    ("cd ..", "escapes the workspace"),
    ("cat ~/.bashrc", "home directories"),
    ("cat work/link/key.txt", "link points outside"),
    ("ls work/link", "link points outside"),
    ("echo x > work/link/new.txt", "link points outside"),
    ("echo x > input/README.md", "only inside work/ and outputs/"),
    ("echo x > new.txt", "only inside work/ and outputs/"),
    ("echo x >> /tmp/x", "absolute paths outside"),
    ("rm -rf work", "rm: command not found"),
    ("bash -c ls", "bash: command not found"),
    ("python -c 'print(1)'", "only `python input/evaluate_plan.py"),
    ("python work/evil.py", "only `python input/evaluate_plan.py"),
    ("echo `ls`", "command substitution"),
    ("echo $(ls)", "command substitution"),
    ("echo ${HOME}", "variables"),
    ("echo \"$PATH\"", "variables"),
    ("sleep 100 &", "background jobs"),
    ("(cd work)", "subshells"),
    ("cat <<EOF\nno end", "here-document not closed"),
    ("echo 'open", "unterminated single quote"),
    ("| ls", "syntax error"),
    ("grep '(a)\\1' input/README.md", "back-references and look-arounds are not supported"),
    ("grep '[' input/README.md", "bad pattern"),
    ("head -n x input/README.md", "invalid number"),
    ("cat input", "is a directory"),
    ("cat nothing.txt", "no such file"),
])
def test_confinement_and_refusals(term, cmd, message):
    out = term.run(cmd)
    assert message in out
    assert len(out.strip().splitlines()) == 1, out
    assert (term.jail.root.parent / "secret" / "key.txt").read_text() == "top secret"
    assert not (term.jail.root / "input" / "y").exists()


def test_output_is_capped_and_logged(term):
    out = term.run("cat input/export.json input/export.json input/export.json input/candidates.json")
    assert len(out) < 2100 and "[output truncated: 2000 of" in out
    rec = read_jsonl(term.log_path)[-1]
    assert rec["event"] == "command" and rec["output"] == out


def test_time_limit(term):
    term.budget.limits = replace(term.limits, command_seconds=0.0)
    assert "time budget of this command (0 s) spent" in term.run("ls\nls")


def test_run_turn(term):
    turn = {"analysis": "look", "plan": "list and add",
            "commands": [{"keystrokes": "ls work\n", "duration": 0.1},
                         {"keystrokes": "plan add c4\n", "duration": 1}], "task_complete": False}
    res = term.run_turn(json.dumps(turn))
    assert res["ok"] and res["observation"].startswith("$ ls work\natomic_context.json\nlink/\n$ plan add c4\nplan: 1 selected")
    assert [o["keystrokes"] for o in res["outputs"]] == ["ls work\n", "plan add c4\n"]
    rec = [r for r in read_jsonl(term.log_path) if r["event"] == "turn"][-1]
    assert rec["turn"]["plan"] == "list and add" and rec["error"] is None


@pytest.mark.parametrize("turn, message", [
    ("not json", "one JSON object"),
    ("[1]", "JSON object, got list"),
    ({"analysis": "a", "plan": "p", "commands": []}, "'task_complete' must be a bool (missing)"),
    ({"analysis": 1, "plan": "p", "commands": [], "task_complete": True}, "'analysis' must be a str"),
    ({"analysis": "a", "plan": "p", "commands": "ls", "task_complete": False}, "'commands' must be a list"),
    ({"analysis": "a", "plan": "p", "commands": [{"keys": "ls"}], "task_complete": False}, "keystrokes"),
    ({"analysis": "a", "plan": "p", "commands": [{"keystrokes": "ls", "duration": 99}], "task_complete": False},
     "duration"),
    ({"analysis": "a", "plan": "p", "commands": [{"keystrokes": "ls"}] * 21, "task_complete": False}, "at most"),
    (None, "got NoneType"),
])
def test_malformed_turns(term, turn, message):
    res = term.run_turn(turn)
    assert not res["ok"] and message in res["error"] and res["observation"].startswith("error: ")


# ---------------------------------------------------------------------- fuzz
FRAGMENTS = [
    "cat", "ls", "head", "tail", "wc", "grep", "sort", "echo", "printf", "plan", "candidates", "diagnose",
    "help", "cd", "pwd", "python", "python3", "rm", "bash", "-n", "3", "-l", "-c", "-k", "-t", ",", "-r",
    "input/README.md", "outputs/final_plan.json", "work/x.txt", "input/evaluate_plan.py", "input/export.json",
    "..", "../..", "../secret/key.txt", "/etc/passwd", "/workspace/work/y", "/workspace/..", "~/x", "*", "work/*",
    "input", "work", "work/link", "work/link/key.txt", "work/link/new", "add", "remove", "swap", "set", "clear",
    "show", "c0", "c1", "c4", "c9", "--filter", "cost<3", "'cost>1'", "--sort", "-cost", "--limit", "--columns",
    "(a+)+", "'", '"', "\\", "$HOME", "$(ls)", "`ls`", "|", "||", "&&", ";", "&", ">", ">>", "<", "<<", "2>",
    "2>&1", "<<'EOF'", "EOF", "\n", "(", ")", "#", "%s", "%d", "{\"candidate_ids\": [\"c4\"]}", "\x00",
]
keystrokes = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=12)), max_size=12).map(" ".join)
command = st.fixed_dictionaries({"keystrokes": keystrokes.map(lambda k: k + "\n"),
                                 "duration": st.one_of(st.floats(allow_nan=True), st.integers(-5, 100))})
good_turn = st.fixed_dictionaries({"analysis": st.text(max_size=20), "plan": st.text(max_size=20),
                                   "commands": st.lists(command, max_size=3), "task_complete": st.booleans()})
json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=10),
                           lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=3),
                           max_leaves=8)
any_turn = st.one_of(good_turn, good_turn.map(json.dumps), st.text(max_size=60), json_values,
                     st.dictionaries(st.sampled_from(["analysis", "plan", "commands", "task_complete"]), json_values))


def _outside(base, ws):
    return {p: v for p, v in tree(base).items() if not p.startswith(str(ws) + os.sep)}


@pytest.fixture(scope="module")
def fuzz_term(tmp_path_factory):
    """One terminal for all examples, with a secret folder beside it and a link to it inside."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(os, "fsync", lambda fd: None)  # durability is not under test; hundreds of turns of fsync are slow
        base = tmp_path_factory.mktemp("fuzz")
        _, ws = toy_workspace(base / "ws", mp)
        (base / "cwd").mkdir()
        mp.chdir(base / "cwd")  # a current folder no other process changes
        (base / "secret").mkdir()
        (base / "secret" / "key.txt").write_text("top secret")
        os.symlink(base / "secret", ws / "work" / "link")
        term = VirtualTerminal(ws, max_output=500, time_limit=2.0)
        yield term, base, _outside(base, ws), tree(ws / "input"), sorted(os.listdir(os.getcwd()))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turn=any_turn)
def test_fuzz_turns_never_escape(fuzz_term, turn):
    term, base, outside, inputs, cwd_listing = fuzz_term
    ws = term.jail.root

    res = term.run_turn(turn)

    assert isinstance(res["observation"], str) and isinstance(res["ok"], bool)
    json.dumps(res)
    assert _outside(base, ws) == outside
    assert tree(ws / "input") == inputs
    assert sorted(os.listdir(os.getcwd())) == cwd_listing
    assert set(os.listdir(ws)) == {"input", "work", "outputs", "logs"}


@pytest.mark.slow  # measures peak memory and turn times
def test_fuzz_resource_attacks(tmp_path, monkeypatch):
    """A few hundred generated hostile turns (plugin.bench.fuzz; `bench --suite fuzz` runs 10,000)
    with small budgets: no escape, no uncaught exception, no turn over its time budget,
    bounded peak memory."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # durability is not under test here
    _, ws = toy_workspace(tmp_path / "ws", monkeypatch)
    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")  # a current folder no other process changes
    limits = replace(FUZZ_LIMITS, command_seconds=0.3, turn_seconds=0.6, command_bytes=4_000_000,
                     turn_bytes=12_000_000)
    res = run_fuzz(ws, 250, seed=7, limits=limits, check_every=5)
    assert res["failure_count"] == 0, res["failures"]
    assert res["budget_hits"] > 20  # the attacks did reach the budgets
    assert res["max_turn_seconds"] <= limits.turn_seconds + GRACE_S
