"""Sutskever, Vinyals & Le (2014): a deep LSTM encoder-decoder.

The encoder reads the source sentence ``x_1 .. x_S`` (ending with EOS) and its final hidden and
cell states of every layer become the decoder's initial states: the whole sentence is squeezed
into that fixed-size vector ``v``. The decoder is a conditional language model,
``p(y | x) = prod_t p(y_t | y_<t, v)``, trained with teacher forcing on ``batch.tgt_in`` and
decoded one token at a time through :meth:`Seq2Seq.encode` / :meth:`Seq2Seq.step` /
:meth:`Seq2Seq.reorder_state` (the :class:`~companion.models.contract.Translator` contract that
:mod:`companion.decoding` consumes).

Source reversal lives here, in the model (``reverse_source=True``): the real source tokens
before EOS are reversed (:func:`companion.data.batching.reverse_padded`), PAD and EOS stay in
place, so batches, the command line and decoding never need to know. Use either this flag or the
batching-level reversal (``collate(..., reverse_source=True)``), never both: reversing twice is
the identity.

Padding never changes the encoder's final state: sequences are packed
(:func:`torch.nn.utils.rnn.pack_padded_sequence`), so every row stops at its own length.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence

from companion.data.batching import reverse_padded
from companion.errors import DataError
from companion.models.contract import check_source, refuse_packed
from companion.specials import PAD, SPECIAL_TOKENS
from companion.validation import check_dropout, check_float, check_int

#: Decoder state carried between steps: (h, c), each (L, N, H).
LSTMState = tuple[torch.Tensor, torch.Tensor]


def alignment_lags(links: Sequence[tuple[int, int]], src_len: int, reverse: bool = False) -> list[int]:
    """Time steps between reading an aligned source word and emitting its target word.

    The encoder reads the ``src_len`` source words at steps ``1..src_len`` (reversed: word
    ``i`` at step ``src_len - i``), then EOS; the decoder emits target word ``j`` at step
    ``src_len + 2 + j``. For every alignment link ``(i, j)`` (both from 0) this returns that
    distance -- what backpropagation must bridge to learn the link. Reversal leaves the mean
    lag of a monotone alignment almost unchanged but brings the first words together
    (Sutskever et al.'s "minimal time lag").
    """
    out = []
    for i, j in links:
        if not 0 <= i < src_len:
            raise DataError(f"alignment_lags: source index {i} outside a sentence of {src_len} words")
        read = src_len - i if reverse else i + 1
        out.append(src_len + 2 + j - read)
    return out


def lag_summary(pairs: Sequence[Any], reverse: bool = False) -> dict[str, float]:
    """Over sentence pairs with ``.ko`` (Korean words) and ``.align`` (gold links): the mean lag
    of all links, the mean of each sentence's smallest lag, and the mean lag of the first
    English word (see :func:`alignment_lags`)."""
    all_lags, minimal, first = [], [], []
    for p in pairs:
        if not p.align:
            continue
        lags = alignment_lags(p.align, len(p.ko.split()), reverse)
        all_lags += lags
        minimal.append(min(lags))
        to_first = [lag for (_, j), lag in zip(p.align, lags) if j == 0]
        if to_first:
            first.append(min(to_first))
    if not all_lags:
        raise DataError("lag_summary: no aligned pairs")
    return {"mean": sum(all_lags) / len(all_lags), "minimal": sum(minimal) / len(minimal),
            "first_word": sum(first) / len(first)}


class Seq2Seq(nn.Module):
    """Deep LSTM encoder-decoder with separate encoder and decoder parameters.

    Args:
        src_vocab_size, tgt_vocab_size: vocabulary sizes (ids 0..3 are PAD/BOS/EOS/UNK).
        embed_dim: word embedding size (the paper: 1000).
        hidden_size: LSTM cells per layer (the paper: 1000).
        num_layers: LSTM layers in the encoder and in the decoder (the paper: 4).
        dropout: dropout on embeddings, between layers and before the output projection
            (the paper uses none; small data needs some).
        reverse_source: reverse the source tokens before EOS (the paper's trick).
        init_range: every parameter is drawn from U[-init_range, init_range] (the paper: 0.08).
    """

    example_args: ClassVar[dict[str, Any]] = {"embed_dim": 8, "hidden_size": 12, "num_layers": 2}

    def __init__(
        self,
        src_vocab_size: int,
        tgt_vocab_size: int,
        embed_dim: int = 256,
        hidden_size: int = 256,
        num_layers: int = 2,
        dropout: float = 0.0,
        reverse_source: bool = False,
        init_range: float = 0.08,
    ) -> None:
        super().__init__()
        for key, value in (("src_vocab_size", src_vocab_size), ("tgt_vocab_size", tgt_vocab_size)):
            check_int(key, value, len(SPECIAL_TOKENS) + 1, where="Seq2Seq")  # the specials and one more
        for key, value in (("embed_dim", embed_dim), ("hidden_size", hidden_size), ("num_layers", num_layers)):
            check_int(key, value, 1, where="Seq2Seq")
        check_dropout("dropout", dropout, where="Seq2Seq")
        check_float("init_range", init_range, 0.0, low_open=True, where="Seq2Seq")
        self.src_vocab_size = src_vocab_size
        self.tgt_vocab_size = tgt_vocab_size
        self.embed_dim = embed_dim
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.reverse_source = bool(reverse_source)
        self.init_range = float(init_range)

        self.src_embed = nn.Embedding(src_vocab_size, embed_dim, padding_idx=PAD)
        self.tgt_embed = nn.Embedding(tgt_vocab_size, embed_dim, padding_idx=PAD)
        inner = float(dropout) if num_layers > 1 else 0.0
        self.encoder = nn.LSTM(embed_dim, hidden_size, num_layers, batch_first=True, dropout=inner)
        self.decoder = nn.LSTM(embed_dim, hidden_size, num_layers, batch_first=True, dropout=inner)
        self.dropout = nn.Dropout(float(dropout))
        self.generator = nn.Linear(hidden_size, tgt_vocab_size)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Sutskever's initialisation: every parameter uniform in [-init_range, init_range]."""
        for p in self.parameters():
            nn.init.uniform_(p, -self.init_range, self.init_range)
        with torch.no_grad():  # PAD embeddings stay zero
            self.src_embed.weight[PAD].zero_()
            self.tgt_embed.weight[PAD].zero_()

    # ------------------------------------------------------------------ encoder
    def encode(self, src: torch.Tensor, src_lengths: torch.Tensor) -> LSTMState:
        """Read the source; return the decoder's initial state ``(h, c)``, each (L, B, H).

        ``src`` (B, S) right-padded ids ending in EOS, ``src_lengths`` (B,) real lengths.
        """
        check_source(src, src_lengths, "Seq2Seq.encode")
        if self.reverse_source:
            src = reverse_padded(src, src_lengths)
        emb = self.dropout(self.src_embed(src))  # (B, S, E)
        packed = pack_padded_sequence(
            emb, src_lengths.detach().to("cpu", torch.int64), batch_first=True,
            enforce_sorted=False,
        )
        _, (h, c) = self.encoder(packed)  # (L, B, H) each, in the original batch order
        return h, c

    # ------------------------------------------------------------------ decoder
    def decode_sequence(self, tgt_in: torch.Tensor, state: LSTMState) -> torch.Tensor:
        """Teacher-forced decoder: ``tgt_in`` (B, T) -> logits (B, T, V)."""
        emb = self.dropout(self.tgt_embed(tgt_in))
        out, _ = self.decoder(emb, state)  # (B, T, H); PAD steps come after the labels' EOS
        return self.generator(self.dropout(out))

    def forward(self, batch: Any) -> torch.Tensor:
        """``batch.src``/``src_lengths``/``tgt_in`` -> logits (B, T, V) for ``batch.tgt_out``."""
        if batch.src is None:
            raise DataError("Seq2Seq.forward: the batch has no source (src is None)")
        refuse_packed(batch, "Seq2Seq.forward")
        state = self.encode(batch.src, batch.src_lengths)
        return self.decode_sequence(batch.tgt_in, state)

    def step(self, prev_tokens: torch.Tensor, state: LSTMState) -> tuple[torch.Tensor, LSTMState]:
        """One decoder step: ``prev_tokens`` (N,) -> ``log_probs`` (N, V) and the new state."""
        emb = self.dropout(self.tgt_embed(prev_tokens.unsqueeze(1)))  # (N, 1, E)
        out, state = self.decoder(emb, state)
        logits = self.generator(self.dropout(out.squeeze(1)))
        if logits.dtype in (torch.float16, torch.bfloat16):  # search in at least float32
            logits = logits.float()
        return torch.log_softmax(logits, dim=-1), state

    @staticmethod
    def reorder_state(state: LSTMState, index: torch.Tensor) -> LSTMState:
        """Select/repeat rows of the state: ``index`` (N',) -> state with N' rows."""
        h, c = state
        return h.index_select(1, index), c.index_select(1, index)


__all__ = ["Seq2Seq", "LSTMState", "alignment_lags", "lag_summary"]
