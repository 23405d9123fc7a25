"""Inference worker: loads one GGUF with llama-cpp-python and answers chat requests.

Run as a separate process by ``plugin.agent.backend.LocalBackend`` through
``plugin.util.spawned.start_worker`` (the plugin's interpreter and ``sys.path``; started by file
path, so it imports nothing from the plugin): a grammar abort or a segfault inside llama.cpp kills
this process only, never QGIS or the planning loop.

Protocol (JSON lines): stdin line 1 = config {model, lora, threads, n_ctx, seed}; the worker
answers {"ready": true} or {"error": ...}. Each further stdin line is a request
{messages, schema, max_tokens, temperature, seed}; each answer is
{"ok": true, text, prompt_tokens, completion_tokens, finish_reason} or {"ok": false, error}.
"""
from __future__ import annotations

import json
import os
import sys


def _reply(out, obj: dict) -> None:
    out.write(json.dumps(obj) + "\n")
    out.flush()


def _chat(llm, req: dict) -> dict:
    kwargs = {
        "messages": req["messages"],
        "max_tokens": int(req.get("max_tokens", 512)),
        "temperature": float(req.get("temperature", 0.7)),
    }
    if req.get("seed") is not None:
        kwargs["seed"] = int(req["seed"])
    if req.get("schema"):
        kwargs["response_format"] = {"type": "json_object", "schema": req["schema"]}
    res = llm.create_chat_completion(**kwargs)
    choice = res["choices"][0]
    usage = res.get("usage") or {}
    return {
        "ok": True,
        "text": choice["message"].get("content") or "",
        "prompt_tokens": int(usage.get("prompt_tokens", 0)),
        "completion_tokens": int(usage.get("completion_tokens", 0)),
        "finish_reason": choice.get("finish_reason") or "stop",
    }


def without_extra_buffers() -> None:
    """Load weights without llama.cpp's "extra buffer types" (AMX / repacked CPU kernels).

    On CPUs that advertise AMX (seen here: Sapphire Rapids under a VM) those kernels segfault
    on any batch of more than one token, i.e. on every prompt; the plain CPU path is safe.
    ``Llama`` does not expose ``use_extra_bufts``, so the default-params factory is wrapped.
    Everything that loads a GGUF for inference calls this first (see ``plugin.agent.serve``)."""
    import llama_cpp.llama_cpp as C

    factory = C.llama_model_default_params

    def params():
        p = factory()
        p.use_extra_bufts = False
        return p

    C.llama_model_default_params = params


def main() -> int:
    # llama.cpp logs to stdout/stderr from C; keep our protocol channel private by
    # duplicating stdout for replies and pointing fd 1 at stderr.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    cfg = json.loads(sys.stdin.readline() or "{}")
    try:
        without_extra_buffers()
        from llama_cpp import Llama

        llm = Llama(model_path=cfg["model"], lora_path=cfg.get("lora") or None,
                    n_threads=int(cfg.get("threads", 1)), n_ctx=int(cfg.get("n_ctx", 4096)),
                    seed=int(cfg.get("seed", 0)), verbose=False)
    except Exception as e:  # report why loading failed instead of dying silently
        _reply(out, {"error": f"{type(e).__name__}: {e}"})
        return 1
    _reply(out, {"ready": True})
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            _reply(out, _chat(llm, json.loads(line)))
        except Exception as e:  # one bad request must not end the worker
            _reply(out, {"ok": False, "error": f"{type(e).__name__}: {e}"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
