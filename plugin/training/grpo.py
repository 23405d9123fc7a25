"""GRPO objective (Shao et al. 2024, DeepSeekMath) and the SFT loss, on per-token log-probs.

* advantages: rewards of one group of G rollouts of the same task, normalised to zero mean
  and unit (population) standard deviation; a group whose rewards are all equal carries no
  signal and gets zero advantages.
* policy term per token: min(r·A, clip(r, 1−ε, 1+ε)·A), r = exp(logπ − logπ_old).
* KL to the reference policy per token, the unbiased non-negative estimator
  k3 = exp(logπ_ref − logπ) − (logπ_ref − logπ) − 1.
* loss = − mean over sequences of the token mean of (policy term − β·k3).
"""
from __future__ import annotations

import torch


def group_advantages(rewards: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    """GRPO advantages of one rollout group: rewards centred and divided by their standard deviation
    (zeros when all are equal)."""
    centred = rewards - rewards.mean()
    std = rewards.std(unbiased=False)
    if float(std) < eps:
        return torch.zeros_like(rewards)
    return centred / std


def _seq_mean(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return (x * mask).sum(-1) / mask.sum(-1).clamp(min=1.0)


def grpo_loss(logp: torch.Tensor, old_logp: torch.Tensor, ref_logp: torch.Tensor, adv: torch.Tensor,
              mask: torch.Tensor, clip: float = 0.2, beta: float = 0.04) -> tuple[torch.Tensor, dict[str, float]]:
    """Clipped GRPO loss for ``[G, L]`` token log-probs, ``[G]`` advantages; (loss, stats)."""
    # padding positions are zeroed before exp so that whatever they hold cannot turn into inf/nan
    ratio = torch.exp((logp - old_logp) * mask)
    a = adv[:, None]
    policy = torch.minimum(ratio * a, ratio.clamp(1.0 - clip, 1.0 + clip) * a)
    diff = (ref_logp - logp) * mask
    kl = torch.exp(diff) - diff - 1.0
    loss = -_seq_mean(policy - beta * kl, mask).mean()
    with torch.no_grad():
        clipped = ((ratio - 1.0).abs() > clip).float()
        stats = {"kl": _seq_mean(kl, mask).mean().item(), "clip_frac": _seq_mean(clipped, mask).mean().item()}
    return loss, stats


def sft_loss(logp: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Token-mean negative log-likelihood of the demonstration turns."""
    return -(logp * mask).sum() / mask.sum().clamp(min=1.0)
