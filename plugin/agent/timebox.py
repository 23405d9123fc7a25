"""The fallback model's time box: the raw model behind the reading rules (of ``ask`` requests
and of instructions) is asked only where it can help, and never for longer than ``MODEL_BOX_S``.

Where it helps (measured, docs/ask.md#the-fallback-model): the default model (SmolLM2-135M on the
CPU) read 15.6 % of the texts the rules could not read, with calls of 39–53 s, and on the
instruction sets it never produced a usable reading; of the 545 judged dev and tuning requests
the ask rules leave one without a goal ("0,5 M€ please"), which no model reading can complete (a
plan needs its kind, and a reading is adopted only with slots grounded in the request). So the
**default fallback is skipped**: a text the rules cannot read gets "I could not read '…' — say it as …" at once. A model
the planner names (``--model PATH``, ``--endpoint URL``, ``--lora``, or the shipped adapter where
its manifest records that it helped) is always tried on such text, under the box.

The box is enforced, not hoped for: the model's start and its answer run in a worker thread and
the caller waits at most the box (``BoxedBackend.chat`` raises ``BackendError`` when it is spent);
the worker is told to stop (the backend is closed: a local model's worker process is killed, an
HTTP request times out at the box) and, being a daemon, never holds the process open."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from .backend import BackendError

MODEL_BOX_S = 10.0


def explicit_model(model: str | None, endpoint: str | None, lora: str | None = None) -> bool:
    """The planner named a model (a GGUF path, an endpoint or an adapter): it is always tried on
    text the rules cannot read. ``None`` / ``"default"`` alone is the default fallback, skipped."""
    return bool(endpoint) or bool(lora) or model not in (None, "", "default")


class BoxedBackend:
    """A backend made on first use by ``make`` whose start plus every answer share one box of
    ``box_s`` seconds (the request's whole wait on the model)."""

    def __init__(self, make: Callable[[], Any], box_s: float | None = None):
        self._make, self.box_s = make, float(MODEL_BOX_S if box_s is None else box_s)
        self._backend: Any = None
        self._deadline: float | None = None

    def _remaining(self) -> float:
        if self._deadline is None:
            self._deadline = time.monotonic() + self.box_s
        return self._deadline - time.monotonic()

    def chat(self, messages: list[dict], **kw: Any) -> Any:
        left = self._remaining()
        if left <= 0:
            raise BackendError(f"the model's time box ({self.box_s:g} s) is spent")
        done: dict[str, Any] = {}

        def work() -> None:
            try:
                if self._backend is None:
                    self._backend = self._make()
                    if hasattr(self._backend, "timeout_s"):   # a call gives up with the box too
                        self._backend.timeout_s = min(float(self._backend.timeout_s), self.box_s)
                    if hasattr(self._backend, "deadline"):   # HttpBackend shuts its socket at this moment
                        self._backend.deadline = self._deadline
                done["result"] = self._backend.chat(messages, **kw)
            except BaseException as e:  # noqa: BLE001 - handed to the caller's thread
                done["error"] = e

        worker = threading.Thread(target=work, name="model-in-box", daemon=True)
        worker.start()
        worker.join(left)
        if worker.is_alive():
            self._stop()
            raise BackendError(f"the model gave no answer within its time box ({self.box_s:g} s)")
        if "error" in done:
            if isinstance(done["error"], BackendError) and self._remaining() <= 0:
                # the endpoint shut its socket at the box's own deadline: that is the box running out
                raise BackendError(f"the model gave no answer within its time box ({self.box_s:g} s)") \
                    from done["error"]
            raise done["error"]
        return done["result"]

    def _stop(self) -> None:
        """Stop a model still working after the box (in the background: closing may wait)."""
        backend = self._backend
        if backend is not None and hasattr(backend, "close"):
            threading.Thread(target=backend.close, name="model-stop", daemon=True).start()

    def close(self) -> None:
        if self._backend is not None and hasattr(self._backend, "close"):
            self._backend.close()
