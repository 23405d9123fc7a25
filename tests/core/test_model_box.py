"""The fallback model's time box (plugin/agent/timebox.py) against a real endpoint on 127.0.0.1
that accepts the request and never answers: the reply comes within the box plus a grace, and it
is the "I could not read '…' — say it as …" line. Without a named model no model is called."""
from __future__ import annotations

import re
import socket
import threading
import time

import pytest

from cityplanner.plugin.agent.ask import ask
from cityplanner.plugin.agent.backend import make_backend
from cityplanner.plugin.agent.timebox import MODEL_BOX_S, BoxedBackend, explicit_model

GRACE_S = 3.0
UNREADABLE = "xyzzy frobnicate the quux"


@pytest.fixture()
def silent_endpoint():
    """An HTTP server on 127.0.0.1 that reads each request and never replies (a hung model server)."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    stop, held = threading.Event(), []

    def serve() -> None:
        srv.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = srv.accept()
            except OSError:
                continue
            held.append(conn)   # kept open, never answered
            conn.recv(65536)

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.getsockname()[1]}/v1", held
    stop.set()
    t.join(2)
    for c in held:
        c.close()
    srv.close()


def test_only_a_named_model_is_tried():
    assert not explicit_model(None, None) and not explicit_model("default", None)
    assert explicit_model("/models/x.gguf", None) and explicit_model(None, "http://127.0.0.1:1/v1")
    assert explicit_model(None, None, lora="adapter.gguf")


def test_ask_waits_no_longer_than_the_box_on_a_silent_endpoint(silent_endpoint, tmp_path):
    url, held = silent_endpoint
    ask(UNREADABLE, "helsinki", root=tmp_path / "warm")   # the region's data loaded once, not timed
    t0 = time.monotonic()
    out = ask(UNREADABLE, "helsinki", root=tmp_path, endpoint=url)
    took = time.monotonic() - t0
    assert MODEL_BOX_S == 10.0
    assert took < MODEL_BOX_S + GRACE_S, took
    assert held, "the named endpoint was tried"
    calls = [s for s in out["trace"] if s.get("step") == "model"]
    # the HTTP call is cut at the box's deadline, or the worker is abandoned at it: either way the box
    assert len(calls) == 1 and re.search(r"time box|within 10 s", calls[0]["error"]), calls
    assert out["clarification"].startswith(f"I could not read '{UNREADABLE}' — say it as, e.g., 'nearest pharmacy to")


def test_default_fallback_is_skipped(tmp_path):
    ask(UNREADABLE, "helsinki", root=tmp_path / "warm")   # the region's data loaded once, not timed
    t0 = time.monotonic()
    out = ask(UNREADABLE, "helsinki", root=tmp_path)
    assert out["model_calls"] == 0 and time.monotonic() - t0 < 5.0
    assert f"I could not read '{UNREADABLE}' — say it as" in out["clarification"]
    assert {"step": "rules", "fired": []} in out["trace"]


def test_a_box_shared_by_later_calls_is_spent(silent_endpoint):
    url, _ = silent_endpoint
    box = BoxedBackend(lambda: make_backend(None, url), box_s=1.0)
    from cityplanner.plugin.agent.backend import BackendError

    t0 = time.monotonic()
    with pytest.raises(BackendError, match="time box"):
        box.chat([{"role": "user", "content": "hi"}], max_tokens=4)
    with pytest.raises(BackendError, match="spent"):
        box.chat([{"role": "user", "content": "hi"}], max_tokens=4)
    assert time.monotonic() - t0 < 1.0 + GRACE_S


def test_instruction_on_a_silent_endpoint_says_it_could_not_read(silent_endpoint):
    from cityplanner.plugin.city import load_city
    from cityplanner.plugin.constraints.interpret import interpret
    from cityplanner.plugin.tasks import task_class

    inst = task_class("station").build(load_city("helsinki"), "small", seed=0)
    url, held = silent_endpoint
    t0 = time.monotonic()
    it = interpret(UNREADABLE, inst, BoxedBackend(lambda: make_backend(None, url), box_s=2.0), "endpoint")
    assert time.monotonic() - t0 < 2.0 + GRACE_S and held
    assert it.constraints == []
    assert it.clarification.startswith(f"I could not read '{UNREADABLE}' (the model gave no reading")
    assert "say it as, e.g., 'no station within 300 m of Kiasma'" in it.clarification
    plain = interpret(UNREADABLE, inst)   # no model named: the same line at once
    assert plain.clarification.startswith(f"I could not read '{UNREADABLE}' — say it as")
