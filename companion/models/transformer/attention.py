"""Scaled dot-product attention and multi-head attention (Vaswani et al. 2017, section 3.2).

``Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k)) V``: every query row is compared with every
key row, the scores are scaled by ``1/sqrt(d_k)`` so that their variance does not grow with the
dimension, and the softmax weights average the value rows.

``MultiHead(Q, K, V) = Concat(head_1, ..., head_h) W^O`` with
``head_i = Attention(Q W_i^Q, K W_i^K, V W_i^V)``: ``h`` heads of width ``d_k = d_model / h``
attend in parallel, each in its own learned projection, for the cost of one full-width head.

Two paths compute the same numbers:

- :func:`scaled_dot_product_attention` is the equation written out; it also returns the weights
  (for plots and :meth:`~companion.models.transformer.Transformer.cross_attention`);
- :func:`torch.nn.functional.scaled_dot_product_attention` is PyTorch's fused kernel (no
  ``(Tq, Tk)`` weight matrix is kept for the backward pass); :class:`MultiHeadAttention` uses it
  whenever the weights are not asked for -- that is, in training.

The projections are stored as in ``nn.MultiheadAttention``: ``in_proj`` holds
``[W^Q; W^K; W^V]`` as one ``(3 d_model, d_model)`` matrix (head ``i`` owns rows
``i*d_k:(i+1)*d_k`` of each block) and ``out_proj`` is ``W^O``, so weights copy across 1:1.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from companion.errors import ConfigError
from companion.validation import check_dropout, check_int


def scaled_dot_product_attention(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: torch.Tensor | None = None,
    dropout_p: float = 0.0, training: bool = False,
) -> tuple[torch.Tensor, torch.Tensor]:
    """``softmax(q k^T / sqrt(d_k)) v``, written from the equation.

    Args:
        q: ``(..., Tq, d_k)`` queries; k: ``(..., Tk, d_k)`` keys; v: ``(..., Tk, d_v)`` values.
        mask: bool, broadcastable to ``(..., Tq, Tk)``; True = may attend (see
            :mod:`companion.models.transformer.masks`); None attends everywhere.
        dropout_p, training: dropout on the attention weights (only when ``training``).

    Returns:
        ``(output (..., Tq, d_v), weights (..., Tq, Tk))``; the returned weights are those before
        dropout: each row sums to 1 and is exactly 0 where ``mask`` is False.
    """
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    used = F.dropout(weights, dropout_p) if training and dropout_p > 0 else weights
    return used @ v, weights


class MultiHeadAttention(nn.Module):
    """``h`` attention heads of width ``d_k = d_model / h`` and the output projection ``W^O``.

    Args:
        d_model: model width (the paper: 512).
        num_heads: ``h`` (the paper: 8); must divide ``d_model``.
        dropout: dropout on the attention weights (the paper's base model: none).
    """

    def __init__(self, d_model: int, num_heads: int, dropout: float = 0.0) -> None:
        super().__init__()
        where = "MultiHeadAttention"
        check_int("d_model", d_model, 1, where)
        check_int("num_heads", num_heads, 1, where)
        if d_model % num_heads:
            raise ConfigError(f"{where}: num_heads ({num_heads}) must divide d_model ({d_model})")
        self.d_model, self.num_heads, self.d_k = d_model, num_heads, d_model // num_heads
        self.dropout = check_dropout("dropout", dropout, where)
        self.in_proj = nn.Linear(d_model, 3 * d_model)  # [W^Q; W^K; W^V]
        self.out_proj = nn.Linear(d_model, d_model)  # W^O
        nn.init.xavier_uniform_(self.in_proj.weight)
        nn.init.zeros_(self.in_proj.bias)
        nn.init.zeros_(self.out_proj.bias)

    # -------------------------------------------------------------- projections
    def _heads(self, x: torch.Tensor) -> torch.Tensor:
        """``(B, L, D)`` -> ``(B, h, L, d_k)``."""
        B, L, _ = x.shape
        return x.view(B, L, self.num_heads, self.d_k).transpose(1, 2)

    def project_q(self, x: torch.Tensor) -> torch.Tensor:
        """Queries ``x W^Q`` split into heads: ``(B, T, D)`` -> ``(B, h, T, d_k)``."""
        D = self.d_model
        return self._heads(F.linear(x, self.in_proj.weight[:D], self.in_proj.bias[:D]))

    def project_kv(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Keys ``x W^K`` and values ``x W^V``, each ``(B, h, S, d_k)``, from ``x`` ``(B, S, D)``.

        For cross-attention they depend on the encoder output only: a decoder computes them once
        per sentence (:meth:`~companion.models.transformer.Transformer.encode`)."""
        D = self.d_model
        k, v = F.linear(x, self.in_proj.weight[D:], self.in_proj.bias[D:]).chunk(2, dim=-1)
        return self._heads(k), self._heads(v)

    def project_qkv(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Self-attention's queries, keys and values from one matrix product, each
        ``(B, h, T, d_k)``."""
        q, k, v = self.in_proj(x).chunk(3, dim=-1)
        return self._heads(q), self._heads(k), self._heads(v)

    # -------------------------------------------------------------- attention
    def attend(
        self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: torch.Tensor | None = None,
        need_weights: bool = False,
    ) -> tuple[torch.Tensor, torch.Tensor | None]:
        """Attend with projected heads and apply ``W^O``.

        Args:
            q: ``(B, h, Tq, d_k)``; k, v: ``(B, h, Tk, d_k)``.
            mask: bool broadcastable to ``(B, h, Tq, Tk)``, True = may attend.
            need_weights: also return the weights (computed by the written-out equation
                instead of the fused kernel).

        Returns:
            ``(output (B, Tq, D), weights (B, h, Tq, Tk) or None)``.
        """
        p = self.dropout if self.training else 0.0
        if need_weights:
            out, weights = scaled_dot_product_attention(q, k, v, mask, p, self.training)
        else:
            out, weights = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=p), None
        B, _, Tq, _ = out.shape
        out = out.transpose(1, 2).reshape(B, Tq, self.d_model)  # Concat(head_1, ..., head_h)
        return self.out_proj(out), weights

    def forward(
        self, x: torch.Tensor, memory: torch.Tensor | None = None, mask: torch.Tensor | None = None,
        need_weights: bool = False,
    ) -> tuple[torch.Tensor, torch.Tensor | None]:
        """Self-attention over ``x`` ``(B, T, D)``, or attention from ``x`` to ``memory``
        ``(B, S, D)``; ``mask`` as in :meth:`attend`. Returns ``(output (B, T, D), weights)``."""
        if memory is None:
            q, k, v = self.project_qkv(x)
        else:
            q, (k, v) = self.project_q(x), self.project_kv(memory)
        return self.attend(q, k, v, mask, need_weights)


__all__ = ["MultiHeadAttention", "scaled_dot_product_attention"]
