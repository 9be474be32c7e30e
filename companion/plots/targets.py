"""The training target of one position, with and without label smoothing (Szegedy et al. 2016;
Vaswani et al. 2017, section 5.4).

:func:`plot_smoothed_targets` draws the distribution the loss asks the model to match for one
reference token, as :func:`companion.training.smoothing.smoothed_targets` computes it, for several
smoothing strengths side by side: a bar per vocabulary entry and strength, the reference token's
bar reaching ``1 - eps + eps / V`` and every other ``eps / V``.

Returns the axes; nothing calls ``plt.show()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

from companion.errors import DataError


def plot_smoothed_targets(label: int, vocab_size: int, eps_values: Sequence[float] = (0.0, 0.1, 0.3), *,
                          tokens: Sequence[str] | None = None, ax: Any = None, log: bool = False,
                          title: str | None = None) -> Any:
    """Draw the smoothed target distribution ``q(k | label)`` over ``vocab_size`` entries for each
    ``eps`` in ``eps_values``.

    Args:
        label: the reference token's id (not PAD: a PAD label has no target).
        vocab_size: ``V``, the number of entries (bars per group).
        eps_values: the smoothing strengths compared (each in ``[0, 1)``; 0 is the one-hot label).
        tokens: names of the ``V`` entries for the x ticks (default: the ids).
        ax: matplotlib axes (a new figure if None).
        log: a logarithmic probability axis (the ``eps / V`` bars are small next to the label's).
        title: the axes' title.

    Returns:
        The axes.
    """
    import matplotlib.pyplot as plt

    from companion.plots.palette import OTHER_COLOURS
    from companion.specials import PAD
    from companion.training.smoothing import smoothed_targets

    if not isinstance(vocab_size, int) or isinstance(vocab_size, bool) or vocab_size < 2:
        raise DataError(f"plot_smoothed_targets: vocab_size must be an integer >= 2, got {vocab_size!r}")
    if not isinstance(label, int) or isinstance(label, bool) or not 0 <= label < vocab_size or label == PAD:
        raise DataError(f"plot_smoothed_targets: label must be a non-PAD id below {vocab_size}, got {label!r}")
    eps_values = list(eps_values)
    if not eps_values or len(eps_values) > len(OTHER_COLOURS):
        raise DataError(f"plot_smoothed_targets: give 1 to {len(OTHER_COLOURS)} smoothing strengths, "
                        f"got {len(eps_values)}")
    names = [str(i) for i in range(vocab_size)] if tokens is None else [str(t) for t in tokens]
    if len(names) != vocab_size:
        raise DataError(f"plot_smoothed_targets: {len(names)} token names for {vocab_size} entries")
    if ax is None:
        _, ax = plt.subplots(figsize=(max(5.0, 0.55 * vocab_size + 1.5), 3.4))
    width = 0.8 / len(eps_values)
    for n, (colour, eps) in enumerate(zip(OTHER_COLOURS, eps_values)):
        q = smoothed_targets(torch.tensor([[label]]), vocab_size, float(eps))[0, 0]
        xs = [k - 0.4 + width * (n + 0.5) for k in range(vocab_size)]
        ax.bar(xs, q.tolist(), width=width, color=colour, label=f"ε = {eps:g}")
    ax.set_xticks(range(vocab_size), names, rotation=45 if max(len(s) for s in names) > 3 else 0,
                  ha="right" if max(len(s) for s in names) > 3 else "center", fontsize=8)
    if log:
        ax.set_yscale("log")
    ax.set_xlabel("vocabulary entry $k$")
    ax.set_ylabel("target probability $q(k \\mid y)$")
    ax.set_title(title or f"Training target for the reference {names[label]!r}, V = {vocab_size}")
    ax.legend(frameon=False, fontsize="small")
    ax.grid(axis="y", alpha=0.3)
    return ax


__all__ = ["plot_smoothed_targets"]
