"""The real default GGUF through the worker process and over HTTP (seeded, short outputs, 1 thread)."""
from __future__ import annotations

import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from cityplanner.plugin.agent.backend import BackendError, HttpBackend, LocalBackend, make_backend
from cityplanner.plugin.agent.loop import AgentSettings, run_agent
from cityplanner.plugin.agent.model_files import default_model_path
from cityplanner.plugin.agent.protocol import TURN_SCHEMA
from cityplanner.plugin.sandbox.terminal import parse_turn
from cityplanner.plugin.util.io import read_jsonl
from tests.core.sandbox_helpers import toy_workspace

pytestmark = pytest.mark.model
ONE_EPISODE = AgentSettings(rounds=0, build_attempts=1, max_turns=2, max_tokens=128, seed=0, fallback=None)


@pytest.fixture(scope="module")
def local():
    backend = make_backend("default", threads=1, n_ctx=2048, seed=0)
    yield backend
    backend.close()


@pytest.mark.slow
def test_build_plan_episode_with_the_real_model(tmp_path, monkeypatch, local):
    _, ws = toy_workspace(tmp_path / "ws", monkeypatch)
    res = run_agent(local, ws, ONE_EPISODE)
    assert res["parse_rate"] == 1.0 and res["turns"] >= 1
    assert res["valid"] and res["candidate_ids"]
    log = read_jsonl(ws / "logs/agent.jsonl")
    t = next(r for r in log if r["event"] == "turn")
    assert t["prompt_tokens"] > 0 and t["completion_tokens"] > 0 and t["latency"] > 0 and t["observation"]
    assert [r["event"] for r in log][-1] == "result"


@pytest.mark.slow
def test_seeded_constrained_turns_parse_and_repeat(local):
    msgs = [{"role": "user", "content": 'Reply with a turn that runs "help".'}]
    a = local.chat(msgs, schema=TURN_SCHEMA, max_tokens=96, seed=7)
    b = local.chat(msgs, schema=TURN_SCHEMA, max_tokens=96, seed=7)
    assert a.text == b.text and a.completion_tokens > 0
    assert a.finish_reason == "length" or parse_turn(a.text)[0] is not None


@pytest.mark.slow
def test_killing_the_worker_mid_episode_recovers(tmp_path, monkeypatch, local):
    _, ws = toy_workspace(tmp_path / "ws", monkeypatch)

    class Killer:
        """Kills the real worker process before the second model call of the episode."""
        calls = 0

        def chat(self, messages, **kw):
            Killer.calls += 1
            if Killer.calls == 2:
                os.kill(local.pid, signal.SIGKILL)
            return local.chat(messages, **kw)

        def close(self):
            pass

    before = local.restarts
    res = run_agent(Killer(), ws, ONE_EPISODE)
    assert local.restarts == before + 1 and res["backend_errors"] == 0 and res["turns"] == 2


def test_a_worker_that_cannot_start_raises_a_clear_error(tmp_path):
    bad = tmp_path / "not-a-model.gguf"
    bad.write_bytes(b"GGUF but not really")
    from cityplanner.plugin.errors import InputError
    with pytest.raises(InputError, match="model failed to load"):
        LocalBackend(bad, threads=1).chat([{"role": "user", "content": "hi"}], max_tokens=4)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.skipif(importlib.util.find_spec("fastapi") is None,
                    reason="llama_cpp.server needs the llama-cpp-python[server] extras")
@pytest.mark.slow
def test_http_backend_against_a_real_llama_cpp_server(tmp_path):
    """``plugin.agent.serve`` = llama_cpp.server with the worker's AMX fix (the plain server
    segfaults on the first multi-token prompt on this CPU); bounded and always stopped."""
    port = _free_port()
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen([sys.executable, "-m", "plugin.agent.serve", "--model", str(default_model_path()),
                               "--host", "127.0.0.1", "--port", str(port), "--n_threads", "1", "--n_ctx", "2048"],
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 60
        while time.time() < deadline and server.poll() is None:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=1)
                break
            except OSError:
                time.sleep(0.5)
        assert server.poll() is None, "server exited while starting"
        backend = make_backend(endpoint=f"http://127.0.0.1:{port}/v1", seed=0)
        backend.timeout_s = 60
        msgs = [{"role": "system", "content": "You operate a terminal. Reply with one JSON turn."},
                {"role": "user", "content": 'Run the command "help" and describe what you do.'}]
        res = backend.chat(msgs, schema=TURN_SCHEMA, max_tokens=96, seed=1)
        assert res.prompt_tokens > 10 and res.completion_tokens > 0
        assert res.finish_reason == "length" or parse_turn(res.text)[0] is not None
        assert backend._format == "json_object"  # llama.cpp's form, negotiated after OpenAI's was refused
        again = backend.chat(msgs, schema=TURN_SCHEMA, max_tokens=96, seed=1)
        assert again.text == res.text and server.poll() is None  # seeded, and the server survived
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


class _OpenAIStandIn(BaseHTTPRequestHandler):
    """Accepts only llama.cpp's schema form, like a server that rejects OpenAI's json_schema."""
    seen: list[dict] = []

    def do_POST(self):  # noqa: N802 (http.server API)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _OpenAIStandIn.seen.append(body)
        if body.get("response_format", {}).get("type") == "json_schema":
            self.send_response(400)
            self.end_headers()
            return
        out = json.dumps({"choices": [{"message": {"content": '{"ok": true}'}, "finish_reason": "stop"}],
                          "usage": {"prompt_tokens": 3, "completion_tokens": 4}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args):
        pass


def test_http_backend_negotiates_the_schema_form_and_reports_failures():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _OpenAIStandIn)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        backend = HttpBackend(f"http://127.0.0.1:{httpd.server_port}")
        res = backend.chat([{"role": "user", "content": "x"}], schema={"type": "object"}, seed=3)
        assert res.text == '{"ok": true}' and res.completion_tokens == 4
        assert [b["response_format"]["type"] for b in _OpenAIStandIn.seen] == ["json_schema", "json_object"]
        backend.chat([{"role": "user", "content": "x"}], schema={"type": "object"})
        assert _OpenAIStandIn.seen[-1]["response_format"]["type"] == "json_object"  # remembered
    finally:
        httpd.shutdown()
    with pytest.raises(BackendError, match="endpoint failed"):
        HttpBackend(f"http://127.0.0.1:{_free_port()}/v1", timeout_s=2).chat([{"role": "user", "content": "x"}])
