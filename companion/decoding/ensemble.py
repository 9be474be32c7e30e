"""Ensembles: several translators decoded as one, their next-token distributions averaged."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

import torch

from companion.errors import ConfigError


class Ensemble:
    """Several models decoded as one: at every step their distributions are averaged.

    ``combine="prob"`` (default) averages the probabilities, ``log mean_m p_m(y)`` (what
    fairseq and Marian do; Sutskever et al. do not say how their ensemble of 5 combined its
    members); ``combine="log_prob"`` averages the log-probabilities, ``mean_m log p_m(y)``
    renormalised (a product of experts). All members must share the target vocabulary.
    An ensemble of one model decodes exactly like that model.
    """

    def __init__(self, models: Sequence[Any], combine: Literal["prob", "log_prob"] = "prob"):
        models = list(models)
        if not models:
            raise ConfigError("Ensemble: needs at least one model")
        if combine not in ("prob", "log_prob"):
            raise ConfigError(f"Ensemble: combine must be 'prob' or 'log_prob', got {combine!r}")
        sizes = {getattr(m, "tgt_vocab_size", None) for m in models}
        if len(sizes) > 1:
            raise ConfigError(f"Ensemble: members have different target vocabularies {sorted(map(str, sizes))}")
        self.models = models
        self.combine = combine

    def encode(self, src: torch.Tensor, src_lengths: torch.Tensor) -> tuple[Any, ...]:
        return tuple(m.encode(src, src_lengths) for m in self.models)

    def step(self, prev_tokens: torch.Tensor, state: tuple[Any, ...]) -> tuple[torch.Tensor, tuple[Any, ...]]:
        outs = [m.step(prev_tokens, s) for m, s in zip(self.models, state)]
        new_state = tuple(s for _, s in outs)
        if len(outs) == 1:
            return outs[0][0], new_state
        stacked = torch.stack([lp for lp, _ in outs])  # (M, N, V)
        if self.combine == "prob":
            log_probs = torch.logsumexp(stacked, dim=0) - math.log(len(outs))
        else:
            log_probs = torch.log_softmax(stacked.mean(dim=0), dim=-1)
        return log_probs, new_state

    def reorder_state(self, state: tuple[Any, ...], index: torch.Tensor) -> tuple[Any, ...]:
        return tuple(m.reorder_state(s, index) for m, s in zip(self.models, state))


__all__ = ["Ensemble"]
