"""The cost columns of Vaswani et al.'s Table 1 drawn at a real width, beside real sentence
lengths (:mod:`companion.experiments.layer_cost` counts them).

:func:`plot_layer_costs` draws, on the left, the multiply-adds of one layer over a sequence of
``n`` positions for self-attention, the LSTM, the simple RNN and a convolution, with the length
where self-attention overtakes the LSTM marked; on the right, how many sentences of a corpus
have each length, on the same horizontal scale, so a reader sees where real inputs fall.

Returns the axes; nothing calls ``plt.show()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.errors import DataError


def plot_layer_costs(d: int, lengths: Sequence[int], *, axes: Any = None, max_n: int | None = None,
                     title: str | None = None, corpus_label: str = "training sources") -> Any:
    """Draw the layer costs at width ``d`` and the histogram of ``lengths`` (in positions).

    Args:
        d: the model width.
        lengths: the lengths of real inputs (one per sentence), drawn as a histogram.
        axes: two matplotlib axes (a new 1 x 2 figure if None).
        max_n: the longest sequence drawn (default: three times the LSTM crossover).
        title: the figure's title.
        corpus_label: what the lengths are, for the histogram's title.

    Returns:
        The two axes.
    """
    import matplotlib.pyplot as plt

    from companion.experiments.layer_cost import convolution, lstm_crossover, recurrent, self_attention
    from companion.plots.palette import OTHER_COLOURS, family_colour

    lengths = list(lengths)
    if not lengths or any(not isinstance(n, int) or n < 1 for n in lengths):
        raise DataError("plot_layer_costs: lengths must be a non-empty list of positive integers")
    cross = lstm_crossover(d)
    max_n = max_n or 3 * cross
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    left, right = axes
    ns = list(range(1, max_n + 1))
    layers = (("self-attention", lambda n: self_attention(n, d), family_colour("transformer")),
              ("LSTM", lambda n: recurrent(n, d, gates=4), family_colour("lstm")),
              ("simple RNN", lambda n: recurrent(n, d, gates=1), family_colour("rnn")),
              ("convolution, k = 3", lambda n: convolution(n, d, k=3), OTHER_COLOURS[1]))
    for label, cost, colour in layers:
        left.plot(ns, [cost(n).multiply_adds / 1e6 for n in ns], label=label, color=colour)
    for ax in (left, right):
        ax.axvline(cross, color="0.5", linestyle=":", linewidth=1)
    left.annotate(f"n = 2d = {cross}", (cross, 1), xycoords=("data", "axes fraction"), xytext=(-4, -14),
                  textcoords="offset points", ha="right", fontsize="small")
    left.set_xscale("log")
    left.set_yscale("log")
    left.set_xlabel("sequence length n (positions, log scale)")
    left.set_ylabel("multiply-adds per layer (millions, log)")
    left.set_title(f"Cost of one layer at width d = {d}")
    left.legend(frameon=False, fontsize="small", loc="lower right")
    edges = [1.0]
    while edges[-1] < max_n:  # ten bins per factor of ten: equal widths on the log axis
        edges.append(edges[-1] * 10 ** 0.1)
    right.hist(lengths, bins=edges, color=OTHER_COLOURS[0])
    right.set_xscale("log")
    right.set_xlabel("sequence length n (positions, log scale)")
    right.set_ylabel("sentences")
    right.set_title(f"Lengths of the {corpus_label}")
    for ax in (left, right):
        ax.set_xlim(1, max_n)
    if title:
        left.figure.suptitle(title)
    return left, right
