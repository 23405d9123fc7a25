"""End to end: `python -m plugin agent` driven by a scripted hostile "model" served over HTTP.

The stand-in is an OpenAI-compatible server on 127.0.0.1 (the deterministic substitute for a
model; the real GGUF path is tested in test_agent_model.py) that answers the real HttpBackend
with the issue-17 attacks, both as turns (runaway commands, crashing writes, corrupted files)
and as broken HTTP answers. The agent must survive all of them, keep within its budgets and
still return the best valid plan it saw."""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from cityplanner.plugin.cli import main
from cityplanner.plugin.sandbox.workspace import PLAN_FILE
from cityplanner.plugin.util.io import read_jsonl

from .sandbox_helpers import toy_workspace

EVAL = "python input/evaluate_plan.py"


def turn(*commands: str, done: bool = False) -> dict:
    return {"analysis": "x", "plan": "y", "task_complete": done,
            "commands": [{"keystrokes": c, "duration": 1} for c in commands]}


def chat(content) -> dict:
    return {"choices": [{"message": {"content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10}}


BIG = "cat <<'EOF' > work/big\n" + ("z" * 99 + "\n") * 1900 + "EOF"
#: what the "model" answers, in order: (HTTP status, body bytes)
SCRIPT: list[tuple[int, bytes]] = [
    (200, json.dumps(chat(json.dumps(turn("plan set c0", EVAL, done=True)))).encode()),  # a valid plan first
    (200, json.dumps(chat("no json at all")).encode()),
    (200, json.dumps(chat(json.dumps(turn(BIG, "cat" + " work/big" * 1500, "printf '%%s' a b c",
                                          "grep -c '[a-z]*[a-z]*[a-z]*[a-z]*!' work/big")))).encode()),
    (200, json.dumps(chat(json.dumps(turn("echo x > work/d", "echo x > work/" + "n" * 300, "printf '\ud800' > work/s",
                                          "cat" + " work/big" * 12 + " > work/c")))).encode()),
    (200, json.dumps(chat('{"analysis": "", "plan": "", "commands": [], "task_complete": ' + "9" * 5000 + "}")).encode()),
    (200, json.dumps(chat(json.dumps(turn("echo '[1]' >> outputs/eval_history.jsonl",
                                          "echo '{\"ts\":\"x\"}' >> outputs/eval_history.jsonl",
                                          "echo '{\"base_plan\": 3}' > work/atomic_context.json")))).encode()),
    (200, json.dumps(chat(json.dumps(turn("echo '{\"candidate_ids\": [" + "9" * 5000 + "]}' > " + PLAN_FILE, EVAL,
                                          done=True)))).encode()),
    (500, b"internal error"),                                       # broken HTTP answers from here on
    (200, b"<html>not json</html>"),
    (200, json.dumps(chat(12345)).encode()),
    (200, b'{"choices": [{"message": "text"}]}'),
    (200, b'{"choices": [], "usage": {"prompt_tokens": ' + b"9" * 5000 + b"}}"),
    (200, b"[" * 100_000),
    (200, b" " * 9_000_000),
]


class _Hostile(BaseHTTPRequestHandler):
    script: list[tuple[int, bytes]] = []
    calls = 0

    def do_POST(self):  # noqa: N802 (http.server API name)
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        cls = type(self)
        status, body = cls.script[min(cls.calls, len(cls.script) - 1)]
        cls.calls += 1
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):  # keep the test output clean
        pass


@pytest.fixture
def hostile_endpoint():
    handler = type("Handler", (_Hostile,), {"script": list(SCRIPT), "calls": 0})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1", handler
    server.shutdown()
    server.server_close()


@pytest.mark.timeout(300)
def test_agent_survives_a_hostile_model_and_returns_its_best_valid_plan(tmp_path, monkeypatch, capsys,
                                                                         hostile_endpoint):
    url, handler = hostile_endpoint
    inst, ws = toy_workspace(tmp_path / "ws", monkeypatch)
    (ws / "work" / "d").mkdir()  # a folder the model writes to
    t0 = time.monotonic()
    code = main(["agent", str(ws), "--endpoint", url, "--rounds", "6", "--patience", "6", "--max-turns", "6",
                 "--no-fallback"])
    seconds = time.monotonic() - t0
    out, err = capsys.readouterr()
    assert code == 0, err
    res = json.loads(out)
    # every scripted answer was served (the agent kept asking through all of them) ...
    assert handler.calls >= len(SCRIPT)
    # ... and the answer is the valid plan of the first episode, whatever came later
    assert res["valid"] and res["candidate_ids"] == ["c0"] and res["best_from"] == "build"
    assert res["score"] == pytest.approx(inst.evaluate(["c0"]).score)
    assert res["backend_errors"] >= 1 and res["turns"] >= 5
    log = read_jsonl(ws / "logs" / "agent.jsonl")
    assert not [r for r in log if r["event"] == "internal_error"]  # every failure was an observation
    observations = " ".join(r.get("observation", "") for r in log if r["event"] == "turn")
    for text in ("memory budget of this command", "is a directory", "File name too long",
                 "lone surrogate", "would exceed 2 MB", "number too long"):
        assert text in observations
    assert str(tmp_path) not in observations
    assert seconds < 240
