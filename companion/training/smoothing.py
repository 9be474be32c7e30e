"""Label smoothing written out (Szegedy et al. 2016; Vaswani et al. 2017, section 5.4).

The Trainer's loss (:func:`companion.training.trainer.sequence_loss`) smooths labels through
``F.cross_entropy(..., label_smoothing=eps)``, one fused call. This module is the same loss in
the form a reader can check against the equations: the one-hot label of every real target
token is replaced by the *smoothed target distribution*

    q(k | y) = (1 - eps) [k = y] + eps / V        for k = 0 .. V-1,

and the loss is the cross-entropy ``-sum_k q(k | y) log p(k)`` summed over the real (non-PAD)
tokens. With ``eps = 0`` it is the negative log-likelihood. ``tests/test_smoothing.py`` checks
that both forms give the same number.
"""

from __future__ import annotations

import torch

from companion.errors import ConfigError
from companion.specials import PAD


def smoothed_targets(targets: torch.Tensor, vocab_size: int, eps: float) -> torch.Tensor:
    """The smoothed target distribution ``q``: labels ``(B, T)`` -> ``(B, T, V)``.

    Every row puts ``1 - eps + eps / V`` on its label and ``eps / V`` on each other token (so it
    sums to 1); rows at PAD labels are all zero, since the loss does not score them.
    """
    if not 0.0 <= eps < 1.0:
        raise ConfigError(f"smoothed_targets: eps must be in [0, 1), got {eps!r}")
    q = torch.full((*targets.shape, vocab_size), eps / vocab_size, dtype=torch.float64)
    q.scatter_(-1, targets.unsqueeze(-1), 1.0 - eps + eps / vocab_size)
    return q * (targets != PAD).unsqueeze(-1)


def smoothed_loss(logits: torch.Tensor, targets: torch.Tensor, eps: float) -> torch.Tensor:
    """``sum over real tokens of -sum_k q(k | y) log softmax(logits)_k``: logits ``(B, T, V)``,
    labels ``(B, T)`` -> a scalar (a sum; divide by the number of real tokens for the mean)."""
    log_p = torch.log_softmax(logits.double(), dim=-1)
    return -(smoothed_targets(targets, logits.shape[-1], eps) * log_p).sum()


__all__ = ["smoothed_loss", "smoothed_targets"]
