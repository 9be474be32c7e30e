"""The Transformer's building blocks (Vaswani et al. 2017, sections 3.1, 3.3, 3.5).

- :func:`sinusoid_table` / :class:`SinusoidalPositions`: ``PE(pos, 2i) = sin(pos / 10000^(2i/d))``,
  ``PE(pos, 2i+1) = cos(pos / 10000^(2i/d))``, added to the scaled embeddings;
- :class:`FeedForward`: ``FFN(x) = max(0, x W_1 + b_1) W_2 + b_2``, applied at every position;
- :class:`EncoderLayer`: self-attention, then the FFN;
- :class:`DecoderLayer`: masked self-attention, attention over the encoder output, then the FFN.

Every sub-layer is wrapped in a residual connection with dropout and layer normalisation, in one
of two orders (the ``pre_ln`` flag):

- Post-LN, the paper's: ``x = LayerNorm(x + Dropout(Sublayer(x)))``;
- Pre-LN (Xiong et al. 2020): ``x = x + Dropout(Sublayer(LayerNorm(x)))``, with one more
  LayerNorm after the last layer of the stack; it trains without a warmup-sensitive start.

The decoder layer runs in two modes with the same code: teacher-forced over a whole target
(``past=None`` and a ``(T, T)`` mask), or one new position at a time with the keys and values of
the earlier positions passed in as ``past`` (the key/value cache of
:meth:`companion.models.transformer.Transformer.step`).
"""

from __future__ import annotations

import math

import torch
from torch import nn

from companion.models.transformer.attention import MultiHeadAttention
from companion.validation import check_dropout, check_int


def sinusoid_table(length: int, d_model: int, offset: int = 0) -> torch.Tensor:
    """``(length, d_model)`` float64 positional encodings of positions ``offset .. offset+length-1``.

    Column ``2i`` holds ``sin(pos * w_i)`` and column ``2i + 1`` holds ``cos(pos * w_i)`` with
    ``w_i = 10000^(-2i / d_model)``: wavelengths from ``2 pi`` to ``10000 * 2 pi``."""
    pos = torch.arange(offset, offset + length, dtype=torch.float64).unsqueeze(1)  # (L, 1)
    freq = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float64) * (-math.log(10000.0) / d_model))
    table = torch.zeros(length, d_model, dtype=torch.float64)
    table[:, 0::2] = torch.sin(pos * freq)
    table[:, 1::2] = torch.cos(pos * freq[: d_model // 2])
    return table


class SinusoidalPositions(nn.Module):
    """The fixed positional encodings as a non-persistent buffer (``table``, ``(max_len, D)``):
    it moves with the model (``.to``, ``.double()``) but is not saved in checkpoints, since it is
    a function of the shape alone. Positions beyond ``max_len`` are computed on demand."""

    def __init__(self, d_model: int, max_len: int = 1024) -> None:
        super().__init__()
        self.d_model = check_int("d_model", d_model, 1, "SinusoidalPositions")
        check_int("max_len", max_len, 1, "SinusoidalPositions")
        self.register_buffer("table", sinusoid_table(max_len, d_model).float(), persistent=False)

    def forward(self, length: int, offset: int = 0) -> torch.Tensor:
        """``(length, D)`` encodings of positions ``offset .. offset+length-1``."""
        if offset + length <= self.table.shape[0]:
            return self.table[offset : offset + length]
        return sinusoid_table(length, self.d_model, offset).to(self.table)


class FeedForward(nn.Module):
    """``max(0, x W_1 + b_1) W_2 + b_2`` at every position: ``(B, T, D)`` -> ``(B, T, D)``,
    with dropout on the ReLU activations (``activation_dropout``)."""

    def __init__(self, d_model: int, d_ff: int, activation_dropout: float = 0.0) -> None:
        super().__init__()
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)
        self.dropout = nn.Dropout(check_dropout("activation_dropout", activation_dropout, "FeedForward"))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear2(self.dropout(torch.relu(self.linear1(x))))


class _Residual(nn.Module):
    """Shared by both layers: where the LayerNorm goes around a sub-layer (Pre-LN or Post-LN)."""

    pre_ln: bool
    dropout: nn.Dropout

    def _sublayer_input(self, x: torch.Tensor, norm: nn.LayerNorm) -> torch.Tensor:
        return norm(x) if self.pre_ln else x

    def _sublayer_output(self, x: torch.Tensor, out: torch.Tensor, norm: nn.LayerNorm) -> torch.Tensor:
        y = x + self.dropout(out)
        return y if self.pre_ln else norm(y)


class EncoderLayer(_Residual):
    """Self-attention over the source, then the FFN: ``(B, S, D)`` -> ``(B, S, D)``.

    Args:
        d_model, num_heads, d_ff: widths (the paper: 512, 8, 2048).
        dropout: residual dropout ``P_drop`` on each sub-layer's output (the paper: 0.1).
        attention_dropout: dropout on the attention weights.
        activation_dropout: dropout on the FFN's ReLU activations.
        pre_ln: Pre-LN instead of the paper's Post-LN.
    """

    def __init__(self, d_model: int, num_heads: int, d_ff: int, dropout: float = 0.1,
                 attention_dropout: float = 0.0, activation_dropout: float = 0.0, pre_ln: bool = False) -> None:
        super().__init__()
        self.pre_ln = bool(pre_ln)
        self.self_attn = MultiHeadAttention(d_model, num_heads, attention_dropout)
        self.ffn = FeedForward(d_model, d_ff, activation_dropout)
        self.norm1, self.norm2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(check_dropout("dropout", dropout, "EncoderLayer"))

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        """``x`` ``(B, S, D)``; ``mask`` bool broadcastable to ``(B, h, S, S)``, True = may attend
        (``encoder_mask(src).unsqueeze(1)``)."""
        y = self._sublayer_input(x, self.norm1)
        a, _ = self.self_attn(y, mask=mask)
        x = self._sublayer_output(x, a, self.norm1)
        return self._sublayer_output(x, self.ffn(self._sublayer_input(x, self.norm2)), self.norm2)


#: keys and values of one attention layer, each ``(B, h, L, d_k)``
KeyValue = tuple[torch.Tensor, torch.Tensor]


class DecoderLayer(_Residual):
    """Masked self-attention, attention over the encoder output, then the FFN.

    Arguments as for :class:`EncoderLayer`.
    """

    def __init__(self, d_model: int, num_heads: int, d_ff: int, dropout: float = 0.1,
                 attention_dropout: float = 0.0, activation_dropout: float = 0.0, pre_ln: bool = False) -> None:
        super().__init__()
        self.pre_ln = bool(pre_ln)
        self.self_attn = MultiHeadAttention(d_model, num_heads, attention_dropout)
        self.cross_attn = MultiHeadAttention(d_model, num_heads, attention_dropout)
        self.ffn = FeedForward(d_model, d_ff, activation_dropout)
        self.norm1, self.norm2, self.norm3 = nn.LayerNorm(d_model), nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(check_dropout("dropout", dropout, "DecoderLayer"))

    def forward(
        self, x: torch.Tensor, self_mask: torch.Tensor | None, cross_kv: KeyValue,
        cross_mask: torch.Tensor | None, past: KeyValue | None = None, need_weights: bool = False,
    ) -> tuple[torch.Tensor, KeyValue, torch.Tensor | None]:
        """Run the layer on ``T`` new positions.

        Args:
            x: ``(B, T, D)`` the layer's input at the new positions.
            self_mask: bool broadcastable to ``(B, h, T, P + T)`` (True = may attend) or None;
                teacher-forced: ``decoder_self_mask(tgt_in).unsqueeze(1)``; one step with a
                cache: None (every cached position is earlier and real).
            cross_kv: the encoder output's keys and values for this layer, each ``(B, h, S, d_k)``
                (:meth:`MultiHeadAttention.project_kv`) -- or ``(B / g, h, S, d_k)``, one per
                sentence shared by ``g`` consecutive rows of ``x`` (beam search's hypotheses).
            cross_mask: bool broadcastable to ``(B, h, T, S)`` (or ``(B / g, h, g T, S)`` with
                shared keys and values), True at real source positions.
            past: keys and values of ``P`` earlier positions, each ``(B, h, P, d_k)``, or None.
            need_weights: also return the cross-attention weights.

        Returns:
            ``(output (B, T, D), (keys, values) of all P + T positions, cross weights
            (B, h, T, S) or None)``.
        """
        y = self._sublayer_input(x, self.norm1)
        q, k, v = self.self_attn.project_qkv(y)
        if past is not None:
            k, v = torch.cat([past[0], k], dim=2), torch.cat([past[1], v], dim=2)
        a, _ = self.self_attn.attend(q, k, v, self_mask)
        x = self._sublayer_output(x, a, self.norm1)

        y = self._sublayer_input(x, self.norm2)
        q = self.cross_attn.project_q(y)  # (B, h, T, d_k)
        B, h, T, d_k = q.shape
        sentences = cross_kv[0].shape[0]
        if sentences == B:
            c, weights = self.cross_attn.attend(q, *cross_kv, cross_mask, need_weights)
        else:  # g rows per sentence: their queries attend to the sentence's one copy together
            g = B // sentences
            q = q.view(sentences, g, h, T, d_k).transpose(1, 2).reshape(sentences, h, g * T, d_k)
            c, weights = self.cross_attn.attend(q, *cross_kv, cross_mask, need_weights)
            c = c.reshape(B, T, -1)  # (B / g, g T, D) -> (B, T, D)
            if weights is not None:  # (B / g, h, g T, S) -> (B, h, T, S)
                weights = weights.view(sentences, h, g, T, -1).transpose(1, 2).reshape(B, h, T, -1)
        x = self._sublayer_output(x, c, self.norm2)

        x = self._sublayer_output(x, self.ffn(self._sublayer_input(x, self.norm3)), self.norm3)
        return x, (k, v), weights


__all__ = ["DecoderLayer", "EncoderLayer", "FeedForward", "KeyValue", "SinusoidalPositions", "sinusoid_table"]
