"""A compact LLaMA in torch, loaded from a GGUF, with LoRA on the attention and MLP projections.

Why our own model and not transformers + peft: neither is installed in the plugin's
environment, and the shipped SmolLM2-135M is a plain llama graph (RMSNorm, rotary attention
with grouped KV heads, SwiGLU MLP, tied embeddings). Loading the GGUF's tensors directly
keeps llama.cpp's tensor layout — in particular its Q/K row order, in which rotary pairs are
*adjacent* elements (llama.cpp "normal" rope) — so a LoRA trained here exports to
``blk.N.<proj>.weight.lora_a/.lora_b`` without any permutation and llama.cpp applies it to
the same basis.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F

from ..errors import InputError
from .gguf_io import GGUFFile

#: GGUF projection names that may carry LoRA (attention and MLP)
LORA_TARGETS = ("attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down")


@dataclass(frozen=True)
class LlamaConfig:
    vocab: int
    dim: int
    layers: int
    heads: int
    kv_heads: int
    ffn: int
    rope_base: float
    eps: float

    @classmethod
    def from_gguf(cls, g: GGUFFile) -> LlamaConfig:
        """The architecture read from a llama GGUF's metadata; other architectures are an InputError."""
        arch = g.kv.get("general.architecture")
        if arch != "llama":
            raise InputError(f"training supports llama-architecture GGUFs, not '{arch}'")
        k = lambda name: g.kv[f"llama.{name}"]  # noqa: E731 - short local accessor
        return cls(vocab=g.tensors["token_embd.weight"][0][0], dim=int(k("embedding_length")),
                   layers=int(k("block_count")), heads=int(k("attention.head_count")),
                   kv_heads=int(k("attention.head_count_kv")), ffn=int(k("feed_forward_length")),
                   rope_base=float(g.kv.get("llama.rope.freq_base", 10000.0)),
                   eps=float(k("attention.layer_norm_rms_epsilon")))


class LoRALinear(nn.Module):
    """y = W x + (alpha / r) · B A x; W frozen, A random, B zero (so training starts at the base)."""

    def __init__(self, weight: torch.Tensor, rank: int, alpha: float):
        super().__init__()
        self.weight = nn.Parameter(weight, requires_grad=False)
        self.rank, self.alpha = rank, float(alpha)
        if rank > 0:
            out_f, in_f = weight.shape
            self.lora_a = nn.Parameter(torch.empty(rank, in_f))
            self.lora_b = nn.Parameter(torch.zeros(out_f, rank))
            nn.init.kaiming_uniform_(self.lora_a, a=math.sqrt(5))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """The frozen linear map plus the scaled LoRA update (computed in float32)."""
        y = F.linear(x, self.weight)
        if self.rank > 0:
            # LoRA stays float32 when the frozen weights are bf16 (GPU config): stable updates
            lora = F.linear(F.linear(x.float(), self.lora_a), self.lora_b) * (self.alpha / self.rank)
            y = y + lora.to(y.dtype)
        return y


class RMSNorm(nn.Module):
    def __init__(self, weight: torch.Tensor, eps: float):
        super().__init__()
        self.weight = nn.Parameter(weight, requires_grad=False)
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """RMS normalisation in float32, scaled by the learned weight."""
        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps)).to(x.dtype) * self.weight


def _rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Rotate adjacent pairs (x0, x1), (x2, x3) … — llama.cpp's layout of GGUF Q/K rows."""
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1).flatten(-2)


class Block(nn.Module):
    def __init__(self, cfg: LlamaConfig, w: dict[str, torch.Tensor], rank: int, alpha: float,
                 targets: tuple[str, ...]):
        super().__init__()
        self.cfg = cfg
        lin = lambda name: LoRALinear(w[name], rank if name in targets else 0, alpha)  # noqa: E731
        self.attn_norm, self.ffn_norm = RMSNorm(w["attn_norm"], cfg.eps), RMSNorm(w["ffn_norm"], cfg.eps)
        self.proj = nn.ModuleDict({name: lin(name) for name in LORA_TARGETS})

    def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor,
                cache: tuple[torch.Tensor, torch.Tensor] | None) -> tuple[torch.Tensor, tuple]:
        """One transformer block (attention with rotary positions and an optional KV cache, then the
        feed-forward); returns the output and the new cache."""
        c, p = self.cfg, self.proj
        b, t, _ = x.shape
        hd = c.dim // c.heads
        h = self.attn_norm(x)
        q = _rope(p["attn_q"](h).view(b, t, c.heads, hd).transpose(1, 2), cos, sin)
        k = _rope(p["attn_k"](h).view(b, t, c.kv_heads, hd).transpose(1, 2), cos, sin)
        v = p["attn_v"](h).view(b, t, c.kv_heads, hd).transpose(1, 2)
        if cache is not None:
            k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
        rep = c.heads // c.kv_heads
        mask = None
        if cache is not None and t > 1:  # new tokens see the whole cache and each other causally
            past = k.shape[2] - t
            mask = torch.ones(t, past + t, dtype=torch.bool, device=x.device).tril(diagonal=past)
        att = F.scaled_dot_product_attention(q, k.repeat_interleave(rep, 1), v.repeat_interleave(rep, 1),
                                             attn_mask=mask, is_causal=cache is None and t > 1)
        x = x + p["attn_output"](att.transpose(1, 2).reshape(b, t, c.dim))
        h = self.ffn_norm(x)
        x = x + p["ffn_down"](F.silu(p["ffn_gate"](h)) * p["ffn_up"](h))
        return x, (k, v)


class Llama(nn.Module):
    """Causal LM; ``forward(ids, cache, last)`` returns logits (of the ``last`` positions only, when
    given: the vocabulary projection dominates memory) and the new per-layer KV cache."""

    def __init__(self, cfg: LlamaConfig, tensors: dict[str, torch.Tensor], rank: int = 8, alpha: float = 16.0,
                 targets: tuple[str, ...] = LORA_TARGETS):
        super().__init__()
        bad = set(targets) - set(LORA_TARGETS)
        if bad:
            raise InputError(f"unknown LoRA targets {sorted(bad)} (choose from {', '.join(LORA_TARGETS)})")
        self.cfg, self.rank, self.alpha, self.targets = cfg, rank, float(alpha), tuple(targets)
        self.embed = nn.Parameter(tensors["token_embd.weight"], requires_grad=False)
        self.norm = RMSNorm(tensors["output_norm.weight"], cfg.eps)
        # tied embeddings when the GGUF has no output.weight (SmolLM2)
        self.output = nn.Parameter(tensors.get("output.weight", tensors["token_embd.weight"]), requires_grad=False)
        self.blocks = nn.ModuleList(
            Block(cfg, {n.split(".")[2]: t for n, t in tensors.items() if n.startswith(f"blk.{i}.")},
                  rank, alpha, self.targets) for i in range(cfg.layers))
        hd = cfg.dim // cfg.heads
        self.register_buffer("inv_freq", 1.0 / cfg.rope_base ** (torch.arange(0, hd, 2).float() / hd),
                             persistent=False)

    def forward(self, ids: torch.Tensor, cache: list | None = None, last: int | None = None
                ) -> tuple[torch.Tensor, list]:
        """Logits for ``ids`` (only the ``last`` positions when given), continuing from ``cache``;
        returns the logits and the new cache."""
        start = 0 if cache is None else cache[0][0].shape[2]
        pos = torch.arange(start, start + ids.shape[1], device=ids.device).float()
        ang = torch.outer(pos, self.inv_freq.to(ids.device))
        dtype = self.embed.dtype
        cos, sin = ang.cos().to(dtype), ang.sin().to(dtype)
        x = F.embedding(ids, self.embed)
        new = []
        for i, blk in enumerate(self.blocks):
            x, kv = blk(x, cos, sin, None if cache is None else cache[i])
            new.append(kv)
        if last is not None:
            x = x[:, x.shape[1] - last:]
        return F.linear(self.norm(x), self.output).float(), new

    # -- LoRA parameters -----------------------------------------------------------------------
    def lora_state(self) -> dict[str, torch.Tensor]:
        """LoRA tensors under their GGUF adapter names (``blk.N.attn_q.weight.lora_a`` …)."""
        out = {}
        for i, blk in enumerate(self.blocks):
            for name, lin in blk.proj.items():
                if lin.rank > 0:
                    out[f"blk.{i}.{name}.weight.lora_a"] = lin.lora_a
                    out[f"blk.{i}.{name}.weight.lora_b"] = lin.lora_b
        return out

    def load_lora_state(self, state: dict[str, torch.Tensor]) -> None:
        """Copy a saved LoRA state into the model; a checkpoint of another rank or target set is an InputError."""
        mine = self.lora_state()
        if set(mine) != set(state):
            raise InputError("checkpoint LoRA tensors do not match the model's rank/targets")
        with torch.no_grad():
            for k, p in mine.items():
                p.copy_(state[k])


def load_gguf_model(path: str | os.PathLike, rank: int = 8, alpha: float = 16.0,
                    targets: tuple[str, ...] = LORA_TARGETS, dtype: torch.dtype = torch.float32,
                    seed: int = 0) -> Llama:
    """Dequantize a llama GGUF into a float ``Llama`` with fresh LoRA (A seeded, B zero)."""
    g = GGUFFile(path)
    cfg = LlamaConfig.from_gguf(g)
    tensors = {n: torch.from_numpy(g.tensor(n)).to(dtype) for n in g.tensors}
    torch.manual_seed(seed)
    return Llama(cfg, tensors, rank, alpha, targets)
