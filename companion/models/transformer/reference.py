"""Decoding without a key/value cache: the reference :meth:`Transformer.step` is checked against.

:class:`RecomputingDecoder` wraps a :class:`~companion.models.transformer.Transformer` and meets
the same decoding contract (``encode`` / ``step`` / ``reorder_state``), but its state is only the
encoder output and the tokens fed so far: every step reruns the whole decoder -- embeddings,
self-attention, the cross-attention projections of the encoder output, the FFNs -- over the full
prefix and keeps the last position, as a decoding loop written around ``nn.Transformer``'s
decoder does. Step ``t`` therefore costs ``t`` positions' work instead of one. Its outputs must
equal the cached model's (``tests/test_transformer.py``); ``bench/transformer.py`` times both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch
from torch import nn

from companion.models.contract import check_source


@dataclass
class PrefixState:
    """``memory`` ``(N, S, D)`` encoder output, ``src`` ``(N, S)`` its ids, ``prefix`` ``(N, t)``
    the tokens fed so far (BOS first)."""

    memory: torch.Tensor
    src: torch.Tensor
    prefix: torch.Tensor


class RecomputingDecoder(nn.Module):
    """``model``'s decoder rerun over the whole prefix at every step (no cache)."""

    def __init__(self, model: Any) -> None:
        super().__init__()
        self.model = model
        self.src_vocab_size, self.tgt_vocab_size = model.src_vocab_size, model.tgt_vocab_size

    def forward(self, batch: Any) -> torch.Tensor:
        return self.model(batch)

    def encode(self, src: torch.Tensor, src_lengths: torch.Tensor) -> PrefixState:
        """Encoder output of ``src`` ``(B, S)`` and an empty prefix."""
        check_source(src, src_lengths, "RecomputingDecoder.encode")
        memory = self.model.encoder_output(src)
        return PrefixState(memory, src, src.new_zeros(src.shape[0], 0))

    def step(self, prev_tokens: torch.Tensor, state: PrefixState) -> tuple[torch.Tensor, PrefixState]:
        """Append ``prev_tokens`` ``(N,)`` to the prefix, decode the whole prefix, and return the
        last position's ``log_probs`` ``(N, V)``."""
        prefix = torch.cat([state.prefix, prev_tokens.unsqueeze(1)], dim=1)
        hidden, _ = self.model.decoder_output(prefix, state.memory, state.src)
        logits = self.model.logits(hidden[:, -1])
        if logits.dtype in (torch.float16, torch.bfloat16):
            logits = logits.float()
        return torch.log_softmax(logits, dim=-1), PrefixState(state.memory, state.src, prefix)

    @staticmethod
    def reorder_state(state: PrefixState, index: torch.Tensor) -> PrefixState:
        return PrefixState(state.memory.index_select(0, index), state.src.index_select(0, index),
                           state.prefix.index_select(0, index))


__all__ = ["PrefixState", "RecomputingDecoder"]
