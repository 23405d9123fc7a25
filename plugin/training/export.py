"""Export the trained LoRA as a llama.cpp GGUF adapter (``Llama(model_path=…, lora_path=…)``).

Layout (llama.cpp ``llama-adapter.cpp``): ``general.type = adapter``, ``adapter.type = lora``,
``adapter.lora.alpha``; per projection ``blk.N.<proj>.weight.lora_a`` with numpy shape
(r, in) and ``…lora_b`` with (out, r). llama.cpp scales by alpha / r, as the torch model does.
"""
from __future__ import annotations

import os
from pathlib import Path

from .gguf_io import write_gguf
from .model import Llama


def export_adapter(model: Llama, path: str | os.PathLike, name: str = "cityplanner-lora") -> Path:
    """Write the model's LoRA tensors as a GGUF LoRA adapter that llama.cpp loads on the original model."""
    tensors = {k: v.detach().float().cpu().numpy() for k, v in model.lora_state().items()}
    kv = {"general.architecture": "llama", "general.type": "adapter", "general.name": name,
          "adapter.type": "lora", "adapter.lora.alpha": float(model.alpha)}
    return write_gguf(path, kv, tensors)
