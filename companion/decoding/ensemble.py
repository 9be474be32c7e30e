"""Ensembles: several translators decoded as one, their next-token distributions averaged."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from typing import Any, Literal

import torch

from companion.errors import ConfigError


def vocab_identity(vocab: Any) -> str:
    """The identity of a vocabulary: the hex sha256 of its serialized form (``vocab.sha256``,
    what a checkpoint stores beside the vocabulary), or of ``to_bytes()``."""
    digest = getattr(vocab, "sha256", None)
    if isinstance(digest, str):
        return digest
    to_bytes = getattr(vocab, "to_bytes", None)
    if not callable(to_bytes):
        raise ConfigError(f"Ensemble: cannot tell the identity of a {type(vocab).__name__} vocabulary "
                          f"(it has neither sha256 nor to_bytes)")
    return hashlib.sha256(to_bytes()).hexdigest()


def check_same_vocabulary(vocabs: Sequence[Any], side: str, members: int,
                          names: Sequence[str] | None = None) -> None:
    """Refuse (one-line :class:`ConfigError`) ``vocabs`` (one per ensemble member) that are not
    all the same vocabulary; ``side`` (``"source"``/``"target"``) and the members' ``names``
    (default ``member 0``, ``member 1``, ...) appear in the message."""
    if len(vocabs) != members:
        raise ConfigError(f"Ensemble: {len(vocabs)} {side} vocabularies for {members} members")
    names = list(names) if names is not None else [f"member {i}" for i in range(members)]
    first = vocab_identity(vocabs[0])
    for i, vocab in enumerate(vocabs[1:], start=1):
        other = vocab_identity(vocab)
        if other != first:
            raise ConfigError(
                f"Ensemble: {names[i]}'s {side} vocabulary ({len(vocab)} entries, sha256 {other[:12]}) is not "
                f"{names[0]}'s ({len(vocabs[0])} entries, sha256 {first[:12]}); the members must share one "
                f"{side} vocabulary")


class Ensemble:
    """Several models decoded as one: at every step their distributions are averaged.

    ``combine="prob"`` (default) averages the probabilities, ``log mean_m p_m(y)`` (what
    fairseq and Marian do; Sutskever et al. do not say how their ensemble of 5 combined its
    members); ``combine="log_prob"`` averages the log-probabilities, ``mean_m log p_m(y)``
    renormalised (a product of experts). An ensemble of one model decodes exactly like that model.

    All members must share the target vocabulary -- not only its size: two SentencePiece models
    of the same size trained on different text give the same id to different pieces, and
    averaging their distributions would mix unrelated tokens. Sizes are always compared; given
    ``tgt_vocabs`` (one vocabulary per member, e.g. from each checkpoint), their identities are
    too (:func:`vocab_identity`: the sha256 of the serialized model, what a checkpoint records).
    """

    def __init__(self, models: Sequence[Any], combine: Literal["prob", "log_prob"] = "prob",
                 tgt_vocabs: Sequence[Any] | None = None):
        models = list(models)
        if not models:
            raise ConfigError("Ensemble: needs at least one model")
        if combine not in ("prob", "log_prob"):
            raise ConfigError(f"Ensemble: combine must be 'prob' or 'log_prob', got {combine!r}")
        sizes = {getattr(m, "tgt_vocab_size", None) for m in models}
        if len(sizes) > 1:
            raise ConfigError(f"Ensemble: members have different target vocabularies {sorted(map(str, sizes))}")
        if tgt_vocabs is not None:
            check_same_vocabulary(list(tgt_vocabs), "target", len(models))
        self.models = models
        self.combine = combine

    def encode(self, src: torch.Tensor, src_lengths: torch.Tensor) -> tuple[Any, ...]:
        return tuple(m.encode(src, src_lengths) for m in self.models)

    def step(self, prev_tokens: torch.Tensor, state: tuple[Any, ...]) -> tuple[torch.Tensor, tuple[Any, ...]]:
        outs = [m.step(prev_tokens, s) for m, s in zip(self.models, state)]
        return self._combine([lp for lp, _ in outs]), tuple(s for _, s in outs)

    def reorder_state(self, state: tuple[Any, ...], index: torch.Tensor) -> tuple[Any, ...]:
        return tuple(m.reorder_state(s, index) for m, s in zip(self.models, state))

    def _combine(self, log_probs: list[torch.Tensor]) -> torch.Tensor:
        """Members' log-probabilities ``M x (..., V)`` -> the ensemble's ``(..., V)``."""
        if len(log_probs) == 1:
            return log_probs[0]
        stacked = torch.stack(log_probs)
        if self.combine == "prob":
            return torch.logsumexp(stacked, dim=0) - math.log(len(log_probs))
        return torch.log_softmax(stacked.mean(dim=0), dim=-1)

    def __call__(self, batch: Any) -> torch.Tensor:
        """Teacher-forced: the ensemble's next-token log-probabilities ``(B, T, V)`` for a batch
        every member reads (each member's ``model(batch)`` logits, normalised and combined as
        in :meth:`step`), so that a loss or perplexity of the ensemble is computed like a
        single model's (a log-softmax leaves them unchanged)."""
        return self._combine([torch.log_softmax(m(batch).float(), dim=-1) for m in self.models])

    # what evaluation loops ask of a module: its mode and its parameters
    @property
    def training(self) -> bool:
        return any(getattr(m, "training", False) for m in self.models)

    def train(self, mode: bool = True) -> "Ensemble":
        for m in self.models:
            m.train(mode)
        return self

    def eval(self) -> "Ensemble":
        return self.train(False)

    def parameters(self):
        for m in self.models:
            yield from m.parameters()


__all__ = ["Ensemble", "check_same_vocabulary", "vocab_identity"]
