"""Chat tokenization, sampling and per-token log-probabilities for the torch policy.

The tokenizer is llama.cpp's own (``Llama(vocab_only=True)`` reads only the GGUF's
vocabulary), so token ids are exactly those the agent's llama.cpp backend sees; the chat
text is the model's ChatML template (system/user/assistant between ``<|im_start|>`` and
``<|im_end|>``). A learned turn is the completion plus the end-of-turn token.

All rollouts of one GRPO group share their prompt: the prompt is run once (with gradients,
batch 1) and its KV cache is broadcast to the group, so a step costs one prompt pass plus
G short completion passes instead of G full passes.
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import torch
from torch.nn import functional as F

from .model import Llama

END_OF_TURN = "<|im_end|>"


class ChatTokenizer:
    def __init__(self, model_path: str | os.PathLike):
        from llama_cpp import Llama as LlamaCpp  # lazy: heavy optional dependency

        self._vocab = LlamaCpp(model_path=str(model_path), vocab_only=True, verbose=False)
        self.end = self.encode(END_OF_TURN)[0]

    def encode(self, text: str) -> list[int]:
        """Token ids of ``text`` (special tokens such as <|im_start|> are read as such, no BOS)."""
        return self._vocab.tokenize(text.encode("utf-8"), add_bos=False, special=True)

    def decode(self, ids: list[int]) -> str:
        """The text of ``ids``, without end-of-turn tokens."""
        return self._vocab.detokenize([i for i in ids if i != self.end]).decode("utf-8", errors="replace")

    def byte_ends(self, ids: list[int]) -> list[int]:
        """For each token of ``ids``, the byte length of the text up to and including it (bytes, not
        characters: a multi-byte letter such as 'ä' may be split over two tokens)."""
        return [len(self._vocab.detokenize(ids[:i + 1])) for i in range(len(ids))]

    def chat_prompt(self, messages: list[dict]) -> list[int]:
        """Token ids of a chat in the model's ChatML template, ending where the assistant's answer starts."""
        text = "".join(f"<|im_start|>{m['role']}\n{m['content']}{END_OF_TURN}\n" for m in messages)
        return self.encode(text + "<|im_start|>assistant\n")

    def completion(self, text: str) -> list[int]:
        """Token ids of an answer followed by the end-of-turn token: the target of supervised fine-tuning."""
        return self.encode(text) + [self.end]


def _broadcast(cache: list, n: int) -> list:
    return [(k.expand(n, -1, -1, -1), v.expand(n, -1, -1, -1)) for k, v in cache]


@torch.no_grad()
def sample(model: Llama, prompt: list[int], n: int, max_new: int, temperature: float, stop: int,
           generator: torch.Generator) -> list[list[int]]:
    """``n`` completions of ``prompt`` (each ends with ``stop`` unless cut at ``max_new``)."""
    device = model.embed.device
    logits, cache = model(torch.tensor([prompt], device=device), last=1)
    cache = _broadcast(cache, n)
    logits = logits.expand(n, -1, -1)
    out = torch.full((n, max_new), stop, dtype=torch.long, device=device)
    done = torch.zeros(n, dtype=torch.bool, device=device)
    length = torch.full((n,), max_new, dtype=torch.long, device=device)
    for t in range(max_new):
        last = logits[:, -1].float()
        if temperature > 0:
            probs = F.softmax(last / temperature, dim=-1)
            tok = torch.multinomial(probs.cpu(), 1, generator=generator).squeeze(1).to(device)
        else:
            tok = last.argmax(-1)
        tok = torch.where(done, torch.full_like(tok, stop), tok)
        out[:, t] = tok
        newly = (tok == stop) & ~done
        length[newly] = t + 1
        done |= newly
        if bool(done.all()):
            break
        logits, cache = model(tok[:, None], cache)
    return [out[i, :int(length[i])].tolist() for i in range(n)]


def completion_logprobs(model: Llama, prompt: list[int], completions: list[list[int]]
                        ) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-token log-probabilities ``[G, L]`` of each completion after ``prompt`` and the mask of
    real (non-padding) tokens. Differentiable with respect to the LoRA parameters."""
    device = model.embed.device
    g, width = len(completions), max(len(c) for c in completions)
    ids = torch.zeros((g, width), dtype=torch.long, device=device)
    mask = torch.zeros((g, width), dtype=torch.float32, device=device)
    for i, c in enumerate(completions):
        ids[i, :len(c)] = torch.tensor(c, device=device)
        mask[i, :len(c)] = 1.0
    first, cache = model(torch.tensor([prompt], device=device), last=1)
    logits = first.expand(g, -1, -1)
    if width > 1:  # position j-1 of the completion predicts token j
        rest, _ = model(ids[:, :-1], _broadcast(cache, g))
        logits = torch.cat([logits, rest], dim=1)
    logp = torch.log_softmax(logits, dim=-1).gather(-1, ids[..., None]).squeeze(-1)
    return logp * mask, mask


@contextmanager
def lora_swapped(model: Llama, state: dict[str, torch.Tensor]) -> Iterator[None]:
    """Temporarily run ``model`` with other LoRA weights (the frozen reference policy)."""
    current = {k: v.detach().clone() for k, v in model.lora_state().items()}
    model.load_lora_state(state)
    try:
        yield
    finally:
        model.load_lora_state(current)
