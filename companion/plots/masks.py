"""The Transformer's attention masks drawn as grids: one row per query, one column per key, a
filled cell where the query may attend (the package's convention, True = may attend; see
:mod:`companion.models.transformer.masks`).

- :func:`plot_mask` draws one ``(Tq, Tk)`` boolean mask with token labels;
- :func:`plot_transformer_masks` draws the three masks of one sentence of a batch side by side:
  encoder self-attention ``(S, S)``, decoder self-attention ``(T, T)``, cross-attention
  ``(T, S)``.

Each function takes optional matplotlib axes and returns them; nothing calls ``plt.show()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

from companion.errors import DataError

#: colours of a blocked and an open cell
BLOCKED, OPEN = "#f2f2f2", "#3b6fb6"


def _matrix(mask: Any) -> torch.Tensor:
    """``mask`` as a 2-D bool tensor ``(Tq, Tk)``; a one-line error for anything else."""
    m = torch.as_tensor(mask)
    if m.dim() != 2:
        raise DataError(f"plot_mask: the mask must be 2-D (queries x keys), got shape {tuple(m.shape)}")
    if m.dtype != torch.bool:
        if not bool(((m == 0) | (m == 1)).all()):
            raise DataError("plot_mask: the mask must hold only True/False (or 1/0) entries")
        m = m.bool()
    return m


def _labels(labels: Sequence[str] | None, n: int, what: str) -> list[str]:
    if labels is None:
        return [str(i) for i in range(n)]
    labels = [str(x) for x in labels]
    if len(labels) != n:
        raise DataError(f"plot_mask: {len(labels)} labels for {n} {what} positions")
    return labels


def plot_mask(mask: Any, ax: Any = None, *, queries: Sequence[str] | None = None,
              keys: Sequence[str] | None = None, title: str = "attention mask",
              query_axis: str = "query position", key_axis: str = "key position") -> Any:
    """Draw one boolean mask ``(Tq, Tk)`` (rows: queries, columns: keys; True = may attend).

    Args:
        mask: bool (or 0/1) tensor or nested list of shape ``(Tq, Tk)``.
        ax: matplotlib axes to draw on (a new figure if None).
        queries, keys: tick labels of the rows and columns (default: positions 0, 1, ...).
        title, query_axis, key_axis: the title and the axis labels.

    Returns:
        The axes. Open cells are dark blue, blocked cells light grey.
    """
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap

    from companion.plots import use_hangul_font

    use_hangul_font()  # token labels may be Korean
    m = _matrix(mask)
    Tq, Tk = m.shape
    rows, cols = _labels(queries, Tq, "query"), _labels(keys, Tk, "key")
    if ax is None:
        _, ax = plt.subplots(figsize=(0.42 * Tk + 1.6, 0.42 * Tq + 1.3))
    ax.imshow(m.int().numpy(), cmap=ListedColormap([BLOCKED, OPEN]), vmin=0, vmax=1, aspect="equal")
    ax.set_xticks(range(Tk), cols, rotation=60, ha="right", fontsize=8)
    ax.set_yticks(range(Tq), rows, fontsize=8)
    ax.set_xticks([x - 0.5 for x in range(1, Tk)], minor=True)
    ax.set_yticks([y - 0.5 for y in range(1, Tq)], minor=True)
    ax.grid(which="minor", color="white", linewidth=1.0)
    ax.tick_params(which="minor", length=0)
    ax.set_xlabel(key_axis)
    ax.set_ylabel(query_axis)
    ax.set_title(title, fontsize=9)
    return ax


def plot_transformer_masks(src: torch.Tensor, tgt_in: torch.Tensor, row: int = 0, *,
                           src_tokens: Sequence[str] | None = None,
                           tgt_tokens: Sequence[str] | None = None, axes: Any = None) -> Any:
    """The three masks of sentence ``row`` of a batch, computed by the model's own mask functions.

    Args:
        src: ``(B, S)`` source ids (PAD = 0); tgt_in: ``(B, T)`` decoder input ids.
        row: which sentence of the batch to draw.
        src_tokens, tgt_tokens: labels of the ``S`` source and ``T`` decoder-input positions
            (default: the ids).
        axes: three matplotlib axes (a new 1 x 3 figure if None).

    Returns:
        The three axes: encoder self-attention ``(S, S)``, decoder self-attention ``(T, T)``,
        decoder-encoder attention ``(T, S)``.
    """
    import matplotlib.pyplot as plt

    from companion.models.transformer.masks import cross_mask, decoder_self_mask, encoder_mask
    from companion.plots import use_hangul_font

    if not (isinstance(src, torch.Tensor) and isinstance(tgt_in, torch.Tensor) and src.dim() == tgt_in.dim() == 2):
        raise DataError("plot_transformer_masks: src and tgt_in must be (B, L) tensors of ids")
    if src.shape[0] != tgt_in.shape[0]:
        raise DataError(f"plot_transformer_masks: {src.shape[0]} source rows but {tgt_in.shape[0]} target rows")
    if not 0 <= row < src.shape[0]:
        raise DataError(f"plot_transformer_masks: row {row} is outside a batch of {src.shape[0]} sentences")
    use_hangul_font()  # before any axes exist: tick labels take the font current at creation
    S, T = src.shape[1], tgt_in.shape[1]
    s_lab = _labels(src_tokens if src_tokens is not None else src[row].tolist(), S, "source")
    t_lab = _labels(tgt_tokens if tgt_tokens is not None else tgt_in[row].tolist(), T, "target")
    if axes is None:
        width = 0.42 * (2 * S + T) + 4.5
        _, axes = plt.subplots(1, 3, figsize=(width, 0.42 * max(S, T) + 2.0),
                               gridspec_kw={"width_ratios": [S, T, S], "wspace": 0.45})
    plot_mask(encoder_mask(src)[row], axes[0], queries=s_lab, keys=s_lab,
              title="encoder self-attention (S, S)", query_axis="source position (query)",
              key_axis="source position (key)")
    plot_mask(decoder_self_mask(tgt_in)[row], axes[1], queries=t_lab, keys=t_lab,
              title="decoder self-attention (T, T)", query_axis="decoder input (query)",
              key_axis="decoder input (key)")
    plot_mask(cross_mask(src, T)[row], axes[2], queries=t_lab, keys=s_lab,
              title="cross-attention (T, S)", query_axis="decoder input (query)",
              key_axis="source position (key)")
    return axes


__all__ = ["plot_mask", "plot_transformer_masks"]
