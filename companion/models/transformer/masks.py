"""The Transformer's three attention masks, as boolean tensors that can be printed and drawn.

Convention: **True means "may attend"** (query row ``i`` may look at key column ``j``); a False
entry gets the score ``-inf`` before the softmax, so its weight is exactly 0. This is the
convention of :func:`torch.nn.functional.scaled_dot_product_attention`'s boolean ``attn_mask``
and the opposite of ``nn.Transformer``'s ``*_key_padding_mask`` arguments (True = blocked).

With ``B`` sentences, source length ``S`` and decoder input length ``T``:

==================================  ================  =================================================
attention                           mask shape        a query may attend to ...
==================================  ================  =================================================
encoder self-attention              ``(B, S, S)``     every real source token (source PAD is hidden)
decoder self-attention              ``(B, T, T)``     itself and earlier positions (causal) that are
                                                      not PAD in the decoder input
decoder-encoder (cross) attention   ``(B, T, S)``     every real source token; no causal mask: the
                                                      whole source is known before decoding starts
==================================  ================  =================================================

Rows are queries, columns keys; every row of every mask has at least one True entry (the
source's EOS, the decoder's BOS), so no softmax is taken over nothing. With right padding the
decoder's target-padding part changes no real position's output (the causal part already hides
everything after EOS); it keeps the PAD positions' own rows tidy. Masking PAD *inputs* here and
ignoring PAD *labels* in the loss (:func:`companion.training.sequence_loss`) are separate jobs.

The masks are broadcast views (``expand``), not copies; add the head axis with
``mask.unsqueeze(1)`` to get ``(B, 1, Tq, Tk)``.
"""

from __future__ import annotations

import torch

from companion.data.batching import causal_mask
from companion.errors import DataError
from companion.specials import PAD


def _ids(x: torch.Tensor, name: str, where: str) -> torch.Tensor:
    if not isinstance(x, torch.Tensor) or x.dim() != 2:
        shape = tuple(x.shape) if isinstance(x, torch.Tensor) else type(x).__name__
        raise DataError(f"{where}: {name} must be a (B, L) tensor of ids, got {shape}")
    return x


def key_padding(ids: torch.Tensor) -> torch.Tensor:
    """``(B, L)`` bool: True at real tokens, False at PAD -- one row of keys that may be seen."""
    return ids != PAD


def encoder_mask(src: torch.Tensor) -> torch.Tensor:
    """Encoder self-attention mask ``(B, S, S)`` for source ids ``src`` ``(B, S)``:
    ``mask[b, i, j]`` is True iff source position ``j`` of sentence ``b`` is not PAD."""
    src = _ids(src, "src", "encoder_mask")
    B, S = src.shape
    return key_padding(src).unsqueeze(1).expand(B, S, S)


def decoder_self_mask(tgt_in: torch.Tensor) -> torch.Tensor:
    """Decoder self-attention mask ``(B, T, T)`` for the decoder input ``tgt_in`` ``(B, T)``:
    ``mask[b, i, j]`` is True iff ``j <= i`` (causal) and ``tgt_in[b, j]`` is not PAD."""
    tgt_in = _ids(tgt_in, "tgt_in", "decoder_self_mask")
    T = tgt_in.shape[1]
    return causal_mask(T, device=tgt_in.device).unsqueeze(0) & key_padding(tgt_in).unsqueeze(1)


def cross_mask(src: torch.Tensor, T: int) -> torch.Tensor:
    """Decoder-encoder attention mask ``(B, T, S)``: every one of the ``T`` decoder positions may
    attend to every real (non-PAD) source position of ``src`` ``(B, S)``."""
    src = _ids(src, "src", "cross_mask")
    if not isinstance(T, int) or isinstance(T, bool) or T < 1:
        raise DataError(f"cross_mask: T must be a positive integer, got {T!r}")
    B, S = src.shape
    return key_padding(src).unsqueeze(1).expand(B, T, S)


__all__ = ["cross_mask", "decoder_self_mask", "encoder_mask", "key_padding"]
