"""The headless training run: SFT on solver demonstrations, then GRPO on rollouts of BuildPlan
and ImprovePlan, LoRA export as GGUF adapters, curves and the held-out evaluation.

Why a compact own loop and not TRL: TRL's GRPOTrainer needs transformers + peft +
accelerate (not in the plugin's environment) and generates with a full HF model per
rollout; on two CPU cores one such step takes minutes. Here a group of G rollouts shares one
prompt pass (``policy.completion_logprobs``) and rewards come from running each turn in the
virtual terminal of a real workspace.

Outputs in ``OUT``: ``train_log.jsonl`` (one JSON line per step), ``checkpoint.pt`` (resume
with ``--resume``), ``adapter-sft.gguf`` and ``adapter.gguf`` (LoRA for llama.cpp),
``curves.png``, ``eval.json`` (Table-4 shape per task and goal, plus ``adapter_effect``: how far
each adapter's greedy turn is from the base model's on every test prompt), ``eval_table.md``,
``eval_episodes.jsonl``, ``workspaces/``. GRPO log lines carry ``signal_groups``: groups whose
rewards differ, the only ones that give a gradient (with one inner step the logged loss is ~0
by construction: ratio 1 and zero-mean advantages; the gradient is not).
"""
from __future__ import annotations

import io
import json
import pickle
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

from ..agent.model_files import resolve_model
from ..errors import InputError
from ..util.io import append_jsonl, atomic_write_bytes, atomic_write_json
from .config import Section
from .dataset import atomic_tasks, suite_items
from .evaluate import evaluate_variants
from .export import export_adapter
from .grpo import group_advantages, grpo_loss, sft_loss
from .model import Llama, load_gguf_model
from .policy import ChatTokenizer, completion_logprobs, lora_swapped, sample
from .render import DEMO_KINDS, AtomicTask, checked_demonstrations, run_episode
from .report import plot_curves

LOG_FILE, CHECKPOINT, SFT_ADAPTER, ADAPTER = "train_log.jsonl", "checkpoint.pt", "adapter-sft.gguf", "adapter.gguf"
Log = Callable[[dict[str, Any]], None]


def tile_key(item) -> tuple:
    """The tile an item comes from (region and rounded window bounds): train and test must not share one."""
    return item.region, tuple(round(b) for b in item.window_bounds) if item.window_bounds else None


class Trainer:
    def __init__(self, cfg: Section, out: str | Path, resume: bool = False):
        self.cfg, self.out, self.resume = cfg, Path(out), resume
        self.out.mkdir(parents=True, exist_ok=True)
        if not resume:
            (self.out / LOG_FILE).unlink(missing_ok=True)
        torch.set_num_threads(cfg.model.threads)
        torch.manual_seed(cfg.run.seed)
        self.device = torch.device(cfg.model.device)
        if self.device.type == "cuda" and not torch.cuda.is_available():
            raise InputError("config asks for device 'cuda' but torch sees no GPU (use the cpu-smoke config)")
        self.model_path = resolve_model(cfg.model.path)
        dtype = torch.bfloat16 if cfg.model.dtype == "bfloat16" else torch.float32
        self.model: Llama = load_gguf_model(self.model_path, cfg.model.lora_rank, cfg.model.lora_alpha,
                                            tuple(cfg.model.targets), dtype, cfg.run.seed).to(self.device)
        self.tok = ChatTokenizer(self.model_path)
        self.state: dict[str, Any] = {"phase": "sft", "step": 0}

    # ------------------------------------------------------------------ run
    def run(self) -> dict[str, Any]:
        """SFT then GRPO on the suite's training split, export the adapter, evaluate base / SFT / GRPO
        on the test split; returns the summary."""
        c = self.cfg
        train_items = suite_items(c.data.suite, "train", c.data.tasks, c.data.sizes, c.data.train_instances, c.run.seed)
        test_items = suite_items(c.data.suite, "test", c.data.tasks, c.data.sizes, c.data.test_instances, c.run.seed)
        leaked = {tile_key(i) for i in train_items} & {tile_key(i) for i in test_items}
        if leaked:  # the suites split by tile; this guards against a future suite that does not
            raise InputError(f"train and test share tiles: {sorted(leaked)[:3]}")
        tasks = atomic_tasks(train_items, c.data.goals, self.out / "workspaces" / "train", c.data.show_candidates,
                             c.run.seed, c.data.compact_prompt)
        demos = {kind: checked_demonstrations(tasks, kind) for kind in DEMO_KINDS}
        self._log({"event": "dataset", "train_instances": len(train_items), "test_instances": len(test_items),
                   "atomic_tasks": len(tasks), **{f"{k}_demonstrations": len(v) for k, v in demos.items()}})
        if self.resume:
            self._load_checkpoint()
        t0 = time.perf_counter()
        total = c.sft.steps + c.grpo.steps
        with _progress(total, self._done_steps()) as bar:
            if self.state["phase"] == "sft":
                self._sft(demos, bar)
            self._grpo(tasks, bar)
        adapter = export_adapter(self.model, self.out / ADAPTER)
        plot_curves(self.out / LOG_FILE, self.out / "curves.png")
        test_tasks = atomic_tasks(test_items, c.eval.goals, self.out / "workspaces" / "test", c.data.show_candidates,
                                  c.run.seed + 1, c.data.compact_prompt)
        adapters = {"base": None, "sft": self.out / SFT_ADAPTER, "grpo": adapter}
        evaluation = evaluate_variants(self.cfg, self.model_path, adapters, test_tasks, self.out, self.tok.encode)
        summary = {"out": str(self.out), "adapter": str(adapter), "sft_adapter": str(self.out / SFT_ADAPTER),
                   "log": str(self.out / LOG_FILE), "curves": str(self.out / "curves.png"),
                   "train_seconds": round(time.perf_counter() - t0, 1), "evaluation": evaluation}
        self._log({"event": "done", **{k: v for k, v in summary.items() if k != "evaluation"}})
        return summary

    def _done_steps(self) -> int:
        return self.state["step"] + (self.cfg.sft.steps if self.state["phase"] == "grpo" else 0)

    # ------------------------------------------------------------------ SFT
    def _sft(self, demos: dict[str, list[tuple[AtomicTask, str]]], bar) -> None:
        c = self.cfg.sft
        if not any(demos.values()):
            raise InputError("no demonstrations: the solver found no plan on any training task")
        opt = self._optimizer(c.lr, "sft")
        for step in range(self.state["step"], c.steps):
            t0 = time.perf_counter()
            batch = sft_batch(demos, step, c.batch, c.tool_share, self.cfg.run.seed)
            total, tokens = sft_step(self.model, self.tok, [(t, d) for t, _, d in batch], opt)
            secs = time.perf_counter() - t0
            self.state.update(step=step + 1, opt=opt.state_dict())
            self._log({"phase": "sft", "step": step + 1, "loss": round(total, 5), "tokens": tokens,
                       "tool_demos": sum(kind == "tool" for _, kind, _ in batch),
                       "tokens_per_s": round(tokens / secs, 2), "seconds": round(secs, 2)})
            self._maybe_checkpoint(step + 1, c.steps)
            bar.update(1)
        export_adapter(self.model, self.out / SFT_ADAPTER)
        self.state = {"phase": "grpo", "step": 0,
                      "ref": {k: v.detach().clone() for k, v in self.model.lora_state().items()}}
        self._save_checkpoint()

    # ------------------------------------------------------------------ GRPO
    def _grpo(self, tasks: list[AtomicTask], bar) -> None:
        c = self.cfg.grpo
        opt = self._optimizer(c.lr, "grpo")
        ref = self.state["ref"]
        order = np.random.default_rng(self.cfg.run.seed).permutation(len(tasks))  # mix tasks and goals
        for step in range(self.state["step"], c.steps):
            t0 = time.perf_counter()
            gen = torch.Generator().manual_seed(self.cfg.run.seed * 100_003 + step)
            batch = [tasks[order[(step * c.tasks_per_step + j) % len(tasks)]] for j in range(c.tasks_per_step)]
            groups, episodes, tokens = [], [], 0
            for task in batch:  # rollouts with the current policy, rewards from the workspace
                prompt = self.tok.chat_prompt(task.messages)
                comps = sample(self.model, prompt, c.group, c.max_new_tokens, c.temperature, self.tok.end, gen)
                eps = [run_episode(task, self.tok.decode(ids)) for ids in comps]
                groups.append(prepare_group(self.model, ref, prompt, comps, [e["reward"] for e in eps]))
                episodes += eps
                tokens += sum(map(len, comps))
            signal = sum(bool(g[2].abs().sum() > 0) for g in groups)  # groups with non-zero advantages
            loss, stats = grpo_step(self.model, opt, groups, c.clip, c.kl_beta, c.inner_steps)
            secs = time.perf_counter() - t0
            self.state.update(step=step + 1, opt=opt.state_dict())
            self._log({"phase": "grpo", "step": step + 1, "loss": round(loss, 5), **_rounded(stats),
                       **episode_stats(episodes), "signal_groups": signal, "tokens": tokens,
                       "tokens_per_s": round(tokens / secs, 2), "seconds": round(secs, 2)})
            self._maybe_checkpoint(step + 1, c.steps)
            bar.update(1)

    # ------------------------------------------------------------------ helpers
    def _optimizer(self, lr: float, phase: str) -> torch.optim.Optimizer:
        opt = torch.optim.AdamW(list(self.model.lora_state().values()), lr=lr, weight_decay=0.0)
        if self.state.get("opt") is not None and self.state.get("opt_phase", phase) == phase:
            opt.load_state_dict(self.state["opt"])
        self.state["opt_phase"] = phase
        return opt

    def _log(self, record: dict[str, Any]) -> None:
        append_jsonl(self.out / LOG_FILE, record)

    def _maybe_checkpoint(self, step: int, last: int) -> None:
        every = self.cfg.run.checkpoint_every
        if (every and step % every == 0) or step == last:
            self._save_checkpoint()

    def _save_checkpoint(self) -> None:
        buf = io.BytesIO()
        # plain containers only (json round trip drops the Section class) so resume can load with weights_only
        torch.save({"state": self.state, "lora": {k: v.detach().cpu() for k, v in self.model.lora_state().items()},
                    "config": json.loads(json.dumps(self.cfg))}, buf)
        atomic_write_bytes(self.out / CHECKPOINT, buf.getvalue())

    def _load_checkpoint(self) -> None:
        ck = read_checkpoint(self.out / CHECKPOINT, self.device)
        self.model.load_lora_state(ck["lora"])
        self.state = ck["state"]


def read_checkpoint(path: Path, device: torch.device | str = "cpu") -> dict[str, Any]:
    """The checkpoint's tensors and plain containers; a planted pickle is refused, never run."""
    if not path.is_file():
        raise InputError(f"--resume: no {path.name} in {path.parent}")
    try:
        ck = torch.load(path, map_location=device, weights_only=True)
    except (pickle.UnpicklingError, RuntimeError, EOFError, OSError) as e:
        raise InputError(f"--resume: {path.name} is not a checkpoint of this trainer "
                         f"({type(e).__name__}; objects are never unpickled)") from None
    if not isinstance(ck, dict) or not isinstance(ck.get("lora"), dict) or not isinstance(ck.get("state"), dict):
        raise InputError(f"--resume: {path.name} lacks the lora and state entries")
    return ck


def sft_batch(demos: dict[str, list[tuple[AtomicTask, str]]], step: int, size: int, tool_share: float,
              seed: int) -> list[tuple[AtomicTask, str, str]]:
    """``size`` (task, kind, text) demonstrations for ``step``: each a ``tool`` one with probability
    ``tool_share`` (the other kind when one pool is empty), cycling through each pool in order;
    seeded by (seed, step) so a resumed run draws the same batches."""
    rng = np.random.default_rng([seed, step])
    out = []
    for j in range(size):
        kind = "tool" if rng.random() < tool_share else "explicit"
        if not demos[kind]:
            kind = "explicit" if kind == "tool" else "tool"
        task, text = demos[kind][(step * size + j) % len(demos[kind])]
        out.append((task, kind, text))
    return out


def sft_step(model: Llama, tok: ChatTokenizer, batch: list[tuple[AtomicTask, str]],
             opt: torch.optim.Optimizer) -> tuple[float, int]:
    """One optimizer step on demonstration turns; (mean loss, completion tokens)."""
    opt.zero_grad()
    total, tokens = 0.0, 0
    for task, text in batch:
        ids = tok.completion(text)
        logp, mask = completion_logprobs(model, tok.chat_prompt(task.messages), [ids])
        loss = sft_loss(logp, mask) / len(batch)
        loss.backward()
        total += loss.item()
        tokens += len(ids)
    opt.step()
    return total, tokens


Group = tuple[list[int], list[list[int]], torch.Tensor, torch.Tensor, torch.Tensor]


def prepare_group(model: Llama, ref: dict[str, torch.Tensor], prompt: list[int], comps: list[list[int]],
                  rewards: list[float]) -> Group:
    """Advantages, old-policy and reference log-probs of one group of rollouts."""
    device = model.embed.device
    adv = group_advantages(torch.tensor(rewards, dtype=torch.float32)).to(device)
    with torch.no_grad():
        old, _ = completion_logprobs(model, prompt, comps)
        with lora_swapped(model, ref):
            ref_logp, _ = completion_logprobs(model, prompt, comps)
    return prompt, comps, adv, old, ref_logp


def grpo_step(model: Llama, opt: torch.optim.Optimizer, groups: list[Group], clip: float, beta: float,
              inner_steps: int = 1) -> tuple[float, dict[str, float]]:
    """``inner_steps`` optimizer steps of the clipped GRPO loss over the groups; (loss, stats)."""
    loss_value, stats = 0.0, {}
    for _ in range(inner_steps):
        opt.zero_grad()
        loss_value = 0.0
        for prompt, comps, adv, old, ref_logp in groups:
            logp, mask = completion_logprobs(model, prompt, comps)
            loss, stats = grpo_loss(logp, old, ref_logp, adv, mask, clip, beta)
            (loss / len(groups)).backward()
            loss_value += loss.item() / len(groups)
        opt.step()
    return loss_value, stats


def episode_stats(episodes: list[dict[str, Any]]) -> dict[str, float]:
    """Reward, valid rate and mean valid score per atomic task (``land.build.reward`` …)."""
    out: dict[str, float] = {"reward": round(float(np.mean([e["reward"] for e in episodes])), 5)}
    for key in sorted({(e["task"], e["goal"]) for e in episodes}):
        eps = [e for e in episodes if (e["task"], e["goal"]) == key]
        scores = [e["score"] for e in eps if e["valid"]]
        name = ".".join(key)
        out[f"{name}.reward"] = round(float(np.mean([e["reward"] for e in eps])), 5)
        out[f"{name}.valid_rate"] = round(float(np.mean([e["valid"] for e in eps])), 4)
        out[f"{name}.score"] = round(float(np.mean(scores)), 5) if scores else None
    return out


def _rounded(stats: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 6) for k, v in stats.items()}


def _progress(total: int, done: int):
    from tqdm import tqdm

    return tqdm(total=total, initial=done, desc="train", unit="step", file=sys.stderr, dynamic_ncols=True)


def train(cfg: Section, out: str | Path, resume: bool = False) -> dict[str, Any]:
    """Run the whole configured pipeline; returns the JSON summary (also in ``OUT/summary.json``)."""
    summary = Trainer(cfg, out, resume).run()
    atomic_write_json(Path(out) / "summary.json", summary)
    return summary
