"""Issue 30, items 4–7: the endpoint route against a real, hostile HTTP server on 127.0.0.1.

Before: a server dripping 1 byte/s or never answering kept ``agent --time-limit 10`` busy past
90 s (300 s per socket read); with ``CITYPLANNER_API_KEY`` set a 302 sent ``Authorization:
Bearer …`` to another origin and the redirected answer was accepted; ``usage.prompt_tokens =
1e400`` raised OverflowError, content ``[1,2,3]`` or ``5`` AttributeError in
``constraints/llm.py``, 100,000-deep content RecursionError; 20,000 constraints from an endpoint
kept ``instruct`` busy past 120 s."""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

import pytest

from cityplanner.plugin.agent.backend import MAX_RESPONSE, BackendError, HttpBackend
from cityplanner.plugin.cli import main
from cityplanner.plugin.constraints.llm import MAX_MODEL_CONSTRAINTS, model_read

from .sandbox_helpers import toy_workspace


def _answer(content, usage=None) -> bytes:
    return json.dumps({"choices": [{"message": {"content": content}, "finish_reason": "stop"}],
                       "usage": usage or {"prompt_tokens": 3, "completion_tokens": 2}}).encode()


class Server:
    """A ThreadingHTTPServer on 127.0.0.1 whose POST handler is ``behaviour(handler)``; it
    records the Authorization header of every request it gets."""

    def __init__(self, behaviour: Callable[[BaseHTTPRequestHandler], None]):
        self.release = threading.Event()   # ends handlers that wait forever, at teardown
        self.auth: list[str | None] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server's name
                outer.auth.append(self.headers.get("Authorization"))
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                try:
                    behaviour(self)
                except OSError:   # the client hung up (a deadline): expected here
                    pass

            def log_message(self, *a):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def serve():
    made: list[Server] = []

    def start(behaviour):
        s = Server(behaviour)
        made.append(s)
        return s

    yield start
    for s in made:
        s.close()


def _send(h: BaseHTTPRequestHandler, body: bytes, status: int = 200, headers: dict | None = None) -> None:
    h.send_response(status)
    h.send_header("Content-Type", "application/json")
    h.send_header("Content-Length", str(len(body)))
    for k, v in (headers or {}).items():
        h.send_header(k, v)
    h.end_headers()
    h.wfile.write(body)


def _drip(srv_release: threading.Event) -> Callable:
    def behaviour(h):
        body = _answer('{"analysis": "x"}')
        h.send_response(200)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        for b in body:   # one byte every 0.5 s: each read succeeds, the whole never arrives in time
            if srv_release.wait(0.5):
                return
            h.wfile.write(bytes([b]))
            h.wfile.flush()
    return behaviour


def test_a_dripping_server_ends_at_the_call_deadline(serve):
    release = threading.Event()
    srv = serve(_drip(release))
    t0 = time.monotonic()
    with pytest.raises(BackendError, match="timed out"):
        HttpBackend(srv.url, timeout_s=2.0).chat([{"role": "user", "content": "hi"}])
    release.set()
    assert time.monotonic() - t0 < 4.0


def test_a_server_that_never_answers_ends_at_the_run_deadline(serve):
    srv = serve(lambda h: srv.release.wait(60))
    backend = HttpBackend(srv.url, timeout_s=300.0)
    backend.deadline = time.monotonic() + 1.5   # the agent run's time limit + grace
    t0 = time.monotonic()
    with pytest.raises(BackendError, match="timed out"):
        backend.chat([{"role": "user", "content": "hi"}])
    assert time.monotonic() - t0 < 3.5


@pytest.mark.timeout(120)
def test_agent_with_a_time_limit_is_not_held_by_a_silent_endpoint(serve, tmp_path, monkeypatch, capsys):
    """`agent --time-limit 3` against a server that never answers: one line, exit 2, within the
    limit plus the run's grace (5 s) plus start-up — before: past 90 s."""
    from cityplanner.plugin.agent.loop import RUN_GRACE_S

    srv = serve(lambda h: srv.release.wait(120))
    _, ws = toy_workspace(tmp_path / "ws", monkeypatch)
    t0 = time.monotonic()
    code = main(["agent", str(ws), "--endpoint", srv.url, "--time-limit", "3", "--rounds", "1"])
    took = time.monotonic() - t0
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and "never answered" in err
    assert took < 3 + RUN_GRACE_S + 15, took


def test_the_api_key_never_follows_a_redirect(serve, monkeypatch):
    other = serve(lambda h: _send(h, _answer("from elsewhere")))
    first = serve(lambda h: _send(h, b"", 302, {"Location": other.url + "/chat/completions"}))
    monkeypatch.setenv("CITYPLANNER_API_KEY", "secret-key")
    with pytest.raises(BackendError, match="redirect .* not followed"):
        HttpBackend(first.url).chat([{"role": "user", "content": "hi"}])
    assert first.auth == ["Bearer secret-key"]     # the configured endpoint got it …
    assert other.auth == []                        # … the other origin never saw a request


def test_an_answer_over_the_size_cap_is_refused(serve):
    big = b'{"choices": [{"message": {"content": "' + b"x" * (MAX_RESPONSE + 10) + b'"}}]}'
    srv = serve(lambda h: _send(h, big))
    with pytest.raises(BackendError, match="longer than"):
        HttpBackend(srv.url).chat([{"role": "user", "content": "hi"}])


@pytest.mark.parametrize("body, expect", [
    # usage 1e400: read as inf before → OverflowError in int(); now refused as out of range
    (b'{"choices": [{"message": {"content": "ok"}}], "usage": {"prompt_tokens": 1e400}}', "out of range"),
    (b'{"choices": [{"message": {"content": "ok"}}], "usage": {"prompt_tokens": NaN}}', "not a JSON number"),
    (b"[" * 100_000, "RecursionError|JSONDecodeError"),
    (b'"just a string"', "without choices"),
])
def test_odd_json_from_an_endpoint_is_one_error(serve, body, expect):
    srv = serve(lambda h: _send(h, body))
    with pytest.raises(BackendError, match=expect):
        HttpBackend(srv.url).chat([{"role": "user", "content": "hi"}])


def test_odd_usage_counts_read_as_unknown(serve):
    srv = serve(lambda h: _send(h, _answer("ok", {"prompt_tokens": -5, "completion_tokens": "many"})))
    res = HttpBackend(srv.url).chat([{"role": "user", "content": "hi"}])
    assert (res.text, res.prompt_tokens, res.completion_tokens) == ("ok", 0, 0)


@pytest.mark.parametrize("content, reason", [
    ([1, 2, 3], "not a JSON object"),
    (5, "not a JSON object"),
    ("[" * 100_000, "not complete JSON|not a short JSON object"),
    (json.dumps({"constraints": [{"kind": "count_max", "count": 1}] * 20_000}), "not a short JSON object"),
    (json.dumps({"constraints": [{"kind": "count_max", "count": 1}] * (MAX_MODEL_CONSTRAINTS + 1)}),
     f"more than {MAX_MODEL_CONSTRAINTS}"),
    (json.dumps({"constraints": "all of them"}), "without a list"),
])
def test_odd_model_content_is_a_clarification_not_a_traceback(serve, content, reason):
    srv = serve(lambda h: _send(h, _answer(content)))
    t0 = time.monotonic()
    items, clar = model_read(HttpBackend(srv.url), "keep stations apart", "station")
    assert items == [] and clar is not None
    assert __import__("re").search(reason, clar), clar
    assert time.monotonic() - t0 < 5.0


@pytest.mark.parametrize("item", [{"kind": "spacing_min", "distance_m": 1e308},
                                  {"kind": "spacing_min", "distance_m": -400},
                                  {"kind": "count_max", "count": 10 ** 12}])
def test_numbers_from_an_endpoint_are_checked_before_use(serve, item):
    """A distance of 1e308 m, a negative one or a trillion stations from the model: a clarification."""
    from cityplanner.plugin.constraints.interpret import interpret
    from tests.core.test_task_station import hand

    srv = serve(lambda h: _send(h, _answer(json.dumps({"constraints": [item]}))))
    it = interpret("keep the stations apart", hand(), HttpBackend(srv.url), "endpoint", rules=False)
    assert it.constraints == [] and "not a valid constraint" in it.clarification, it.clarification
