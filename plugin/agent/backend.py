"""Model backends: a local GGUF in a worker process, or an OpenAI-compatible HTTP endpoint.

``make_backend`` is the one entry point. Both backends answer ``chat(messages, schema=…)``
with a ``ChatResult``; a JSON schema asks for constrained decoding (llama.cpp grammar on the
local backend, ``response_format`` over HTTP).
"""
from __future__ import annotations

import json
import math
import os
import queue
import subprocess
import threading
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .model_files import resolve_model
from ..deps import require
from ..errors import InputError
from ..util.spawned import start_worker

WORKER_SCRIPT = Path(__file__).with_name("worker.py")
MAX_RESPONSE = 8_000_000  # bytes of one HTTP answer


class BackendError(RuntimeError):
    """The model could not answer (worker died twice, HTTP failure, timeout)."""


@dataclass
class ChatResult:
    text: str
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    finish_reason: str


class Backend(Protocol):
    def chat(self, messages: list[dict], *, schema: dict | None = None, max_tokens: int = 512,
             temperature: float = 0.7, seed: int | None = None) -> ChatResult: ...

    def close(self) -> None: ...


def default_threads() -> int:
    """More llama threads than free cores collapses speed to ~1 tok/s: leave one core free."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return 1 if cores <= 2 else cores - 1


class LocalBackend:
    """llama-cpp-python in a worker process; a dead worker is restarted and the call retried once.

    ``seed=None`` in ``chat`` uses ``seed + call number`` so retries differ but a run repeats."""

    def __init__(self, model_path: Path, *, lora: str | None = None, threads: int | None = None,
                 n_ctx: int = 4096, seed: int = 0, timeout_s: float = 600.0):
        self.config = {"model": str(model_path), "lora": lora, "threads": threads or default_threads(),
                       "n_ctx": int(n_ctx), "seed": int(seed)}
        self.seed = int(seed)
        self.timeout_s = timeout_s
        self.calls = 0
        self.restarts = 0
        self._proc: subprocess.Popen | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._lock = threading.Lock()

    # -- worker lifecycle -------------------------------------------------------------------
    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    def _start(self) -> None:
        # the shared start-up: QGIS's interpreter and the plugin's sys.path (the profile's
        # python/dependencies, where llama-cpp-python was installed, is on sys.path only)
        self._proc = start_worker(WORKER_SCRIPT, text=True)
        self._lines = queue.Queue()
        # A reader thread gives portable timeouts (select() does not work on Windows pipes).
        threading.Thread(target=self._pump, args=(self._proc, self._lines), daemon=True).start()
        ready = self._roundtrip(self.config, timeout_s=120.0)
        if "error" in ready:
            self.close()
            raise InputError(f"model failed to load: {ready['error']}")

    @staticmethod
    def _pump(proc: subprocess.Popen, lines: "queue.Queue[str | None]") -> None:
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)  # EOF: the worker died (or was closed)
        proc.stdout.close()   # this thread is its only reader: no ResourceWarning when proc is collected

    def _roundtrip(self, obj: dict, timeout_s: float) -> dict:
        assert self._proc is not None and self._proc.stdin is not None
        try:
            self._proc.stdin.write(json.dumps(obj) + "\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise _WorkerDied(f"worker pipe closed: {e}") from e
        try:
            line = self._lines.get(timeout=timeout_s)
        except queue.Empty:
            self.close()
            raise BackendError(f"model worker gave no answer within {timeout_s:.0f} s") from None
        if line is None:
            code = self._proc.wait()
            raise _WorkerDied(f"model worker exited with code {code}")
        return json.loads(line)

    def close(self) -> None:
        """Stop the worker (safe from another thread: a running ``chat`` then fails or retries)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stderr is not None:
            proc.stderr.close()

    # -- chat -------------------------------------------------------------------------------
    def chat(self, messages: list[dict], *, schema: dict | None = None, max_tokens: int = 512,
             temperature: float = 0.7, seed: int | None = None) -> ChatResult:
        with self._lock:
            self.calls += 1
            req = {"messages": messages, "schema": schema, "max_tokens": int(max_tokens),
                   "temperature": float(temperature),
                   "seed": self.seed + self.calls if seed is None else int(seed)}
            t0 = time.perf_counter()
            for attempt in (1, 2):
                try:
                    if self._proc is None or self._proc.poll() is not None:
                        if self._proc is not None:
                            self.restarts += 1
                        self._start()
                    ans = self._roundtrip(req, timeout_s=self.timeout_s)
                    break
                except _WorkerDied as e:
                    self._proc = None
                    self.restarts += 1
                    if attempt == 2:
                        raise BackendError(str(e)) from e
            if not ans.get("ok"):
                raise BackendError(ans.get("error", "model worker failed"))
            return ChatResult(text=ans["text"], prompt_tokens=ans["prompt_tokens"],
                              completion_tokens=ans["completion_tokens"],
                              seconds=time.perf_counter() - t0, finish_reason=ans["finish_reason"])


class _WorkerDied(Exception):
    pass


class _HttpStatus(Exception):
    def __init__(self, code: int, text: str):
        super().__init__(text)
        self.code = code


def _finite_number(text: str) -> float:
    """JSON's parse_float: 1e400 reads as inf in Python; an endpoint's number must be finite."""
    x = float(text)
    if not math.isfinite(x):
        raise ValueError(f"number out of range: {text[:40]}")
    return x


def _not_a_number(text: str) -> float:
    raise ValueError(f"not a JSON number: {text}")


def _token_count(x: object) -> int:
    """A usage count from an endpoint: a non-negative whole number below 10^9, else 0 (unknown)."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return 0
    return int(x) if 0 <= x < 1e9 else 0


class HttpBackend:
    """An OpenAI-compatible ``/chat/completions`` endpoint (llama.cpp server, Ollama, vLLM, APIs).

    Servers disagree on how a schema is passed: the OpenAI ``json_schema`` form is tried first,
    then llama.cpp's ``json_object`` + ``schema``; the first one accepted is remembered.
    The local llama.cpp Python server is started with ``python -m plugin.agent.serve``.

    Bounded by design (issue 30): each call has one overall deadline, ``timeout_s`` or the run's
    ``deadline`` (``time.monotonic()`` value) if that is sooner; a timer shuts the socket at that
    moment, so a server that drips one byte a second or never answers ends the call there (a
    per-read socket timeout alone restarts with every byte). Answers over ``MAX_RESPONSE`` bytes
    are refused; numbers must be finite; redirects are never followed (the API key must not go
    to another origin, and an answer from elsewhere is not the configured endpoint's)."""

    FORMATS = ("json_schema", "json_object")

    def __init__(self, endpoint: str, model: str | None = None, *, seed: int = 0,
                 timeout_s: float = 300.0, api_key: str | None = None):
        base = endpoint.rstrip("/")
        if not base.startswith(("http://", "https://")):
            raise InputError(f"endpoint must be an http(s) URL: {endpoint}")
        self.url = base if base.endswith("/chat/completions") else base + (
            "/chat/completions" if base.endswith("/v1") else "/v1/chat/completions")
        parts = urllib.parse.urlsplit(self.url)
        try:
            self._port = parts.port
        except ValueError:
            raise InputError(f"endpoint has a bad port: {endpoint}") from None
        if not parts.hostname:
            raise InputError(f"endpoint has no host: {endpoint}")
        self._parts = parts
        self.model = model or "default"
        self.seed = int(seed)
        self.timeout_s = timeout_s
        self.deadline: float | None = None   # time.monotonic() by which the whole run must end
        self.api_key = api_key if api_key is not None else os.environ.get("CITYPLANNER_API_KEY")
        self.calls = 0
        self._format: str | None = None

    def _post(self, body: dict, deadline: float) -> dict:
        import http.client
        import socket

        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("no time left for the endpoint call")
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        u = self._parts
        cls = http.client.HTTPSConnection if u.scheme == "https" else http.client.HTTPConnection
        conn = cls(u.hostname, self._port, timeout=remaining)
        expired = threading.Event()
        held: list[socket.socket] = []   # http.client drops conn.sock once a closing response starts

        def cut() -> None:  # at the deadline: end any blocking connect/recv now
            expired.set()
            for sock in held:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

        timer = threading.Timer(remaining, cut)
        timer.daemon = True
        timer.start()
        try:
            conn.connect()
            held.append(conn.sock)
            if expired.is_set():   # the deadline passed during connect
                cut()
            path = u.path + (f"?{u.query}" if u.query else "")
            conn.request("POST", path, body=json.dumps(body).encode(), headers=headers)
            resp = conn.getresponse()
            if 300 <= resp.status < 400:
                where = resp.getheader("Location", "?")
                raise _HttpStatus(resp.status, f"HTTP {resp.status} from {self.url}: redirect to {where[:200]} "
                                               "not followed (give the final URL as the endpoint)")
            data = resp.read(MAX_RESPONSE + 1)  # a hostile or broken server must not fill memory
            if resp.status >= 400:
                raise _HttpStatus(resp.status, f"HTTP {resp.status} from {self.url}")
        except (OSError, http.client.HTTPException) as e:
            if expired.is_set():
                raise TimeoutError(f"no complete answer within {remaining:.0f} s") from None
            raise OSError(f"{type(e).__name__}: {e}") from None
        finally:
            timer.cancel()
            conn.close()
        if expired.is_set():
            raise TimeoutError(f"no complete answer within {remaining:.0f} s")
        if len(data) > MAX_RESPONSE:
            raise ValueError(f"answer longer than {MAX_RESPONSE // 1_000_000} MB")
        return json.loads(data.decode("utf-8"), parse_float=_finite_number, parse_constant=_not_a_number)

    @staticmethod
    def _response_format(kind: str, schema: dict) -> dict:
        if kind == "json_schema":
            return {"type": "json_schema", "json_schema": {"name": "turn", "schema": schema}}
        return {"type": "json_object", "schema": schema}

    def chat(self, messages: list[dict], *, schema: dict | None = None, max_tokens: int = 512,
             temperature: float = 0.7, seed: int | None = None) -> ChatResult:
        self.calls += 1
        body = {"model": self.model, "messages": messages, "max_tokens": int(max_tokens),
                "temperature": float(temperature),
                "seed": self.seed + self.calls if seed is None else int(seed)}
        kinds = [self._format] if self._format else list(self.FORMATS)
        t0 = time.perf_counter()
        # one deadline for the whole call, format negotiation included
        deadline = time.monotonic() + self.timeout_s
        if self.deadline is not None:
            deadline = min(deadline, self.deadline)
        res, last_err = None, None
        for kind in (kinds if schema else [None]):
            if kind:
                body["response_format"] = self._response_format(kind, schema)
            try:
                res = self._post(body, deadline)
            except _HttpStatus as e:
                last_err = str(e)
                # while negotiating, any rejection may mean "the other schema form" (llama.cpp's
                # Python server answers OpenAI's json_schema with a 500 validation error)
                if schema and self._format is None and e.code >= 400:
                    continue
                break
            except TimeoutError as e:
                last_err = f"timed out: {e}"
                break
            except (OSError, ValueError, RecursionError, UnicodeDecodeError) as e:  # ValueError: bad JSON
                last_err = f"{type(e).__name__}: {e}"[:300]
                break
            if kind:
                self._format = kind
            break
        if res is None:
            raise BackendError(f"endpoint failed: {last_err}")
        try:
            choice = res["choices"][0]
            usage = res.get("usage") or {}
            if not isinstance(usage, dict):
                usage = {}
            text = choice["message"].get("content") or ""
            return ChatResult(text=text if isinstance(text, str) else json.dumps(text),
                              prompt_tokens=_token_count(usage.get("prompt_tokens", 0)),
                              completion_tokens=_token_count(usage.get("completion_tokens", 0)),
                              seconds=time.perf_counter() - t0,
                              finish_reason=str(choice.get("finish_reason") or "stop")[:40])
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, RecursionError) as e:
            raise BackendError(f"endpoint answered without choices[0].message: {type(e).__name__}") from e

    def close(self) -> None:
        """Nothing to release: each call is one HTTP request."""


def make_backend(model: str | None = None, endpoint: str | None = None, *, lora: str | None = None,
                 threads: int | None = None, n_ctx: int = 4096, seed: int = 0) -> Backend:
    """``endpoint`` (an OpenAI-compatible base URL) → HTTP backend, where ``model`` is the name
    the server knows; otherwise ``model`` None/"default" = the shipped SmolLM2 GGUF, or a path."""
    if endpoint:
        return HttpBackend(endpoint, None if model in (None, "", "default") else model, seed=seed)
    if lora and not Path(lora).is_file():
        raise InputError(f"LoRA adapter not found: {lora}")
    path = resolve_model(model)  # a wrong model path is the more specific message
    require("llm")  # without llama-cpp-python: one line naming the install and the endpoint route
    return LocalBackend(path, lora=lora, threads=threads, n_ctx=n_ctx, seed=seed)
