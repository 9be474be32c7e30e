"""The sinusoidal positional encodings drawn two ways (Vaswani et al. 2017, section 3.5).

:func:`plot_positional_encodings` shows the table that
:func:`~companion.models.transformer.layers.sinusoid_table` computes -- the very values the model
adds to its embeddings -- as a heatmap (positions down, dimensions across: fast waves on the left,
slow ones on the right) and a few chosen dimensions as curves over the positions, so a reader sees
both that every position gets a distinct pattern and that each dimension is one wave.

Returns the axes; nothing calls ``plt.show()`` (a chapter shows the figure with
:func:`companion.plots.show`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.errors import DataError

#: the heatmap's colour map: diverging, white at 0, so sin/cos = -1 and +1 read as opposites
CMAP = "RdBu_r"


def plot_positional_encodings(length: int, d_model: int, dims: Sequence[int] = (0, 1, 6, 7), *,
                              axes: Any = None, title: str | None = None) -> Any:
    """Draw ``sinusoid_table(length, d_model)``: a heatmap and the columns ``dims`` as curves.

    Args:
        length: how many positions (rows of the table) to draw.
        d_model: the model width (columns of the table).
        dims: the dimensions drawn as curves (each a column index below ``d_model``).
        axes: two matplotlib axes (a new 1 x 2 figure if None).
        title: the figure's title (default names the width and the number of positions).

    Returns:
        The two axes: the heatmap (with a colour bar) and the curves.
    """
    import matplotlib.pyplot as plt

    from companion.models.transformer.layers import sinusoid_table
    from companion.plots.palette import OTHER_COLOURS

    if not isinstance(length, int) or isinstance(length, bool) or length < 2:
        raise DataError(f"plot_positional_encodings: length must be an integer >= 2, got {length!r}")
    if not isinstance(d_model, int) or isinstance(d_model, bool) or d_model < 2 or d_model % 2:
        raise DataError(f"plot_positional_encodings: d_model must be an even integer >= 2, got {d_model!r}")
    dims = list(dims)
    if not dims or len(dims) > len(OTHER_COLOURS):
        raise DataError(f"plot_positional_encodings: give 1 to {len(OTHER_COLOURS)} dimensions to draw, "
                        f"got {len(dims)}")
    bad = [d for d in dims if not isinstance(d, int) or isinstance(d, bool) or not 0 <= d < d_model]
    if bad:
        raise DataError(f"plot_positional_encodings: dimensions {bad} are outside 0..{d_model - 1}")
    table = sinusoid_table(length, d_model).numpy()
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(11.0, 3.9), gridspec_kw={"width_ratios": [1.0, 1.1], "wspace": 0.35})
    heat, curves = axes
    image = heat.imshow(table, aspect="auto", cmap=CMAP, vmin=-1.0, vmax=1.0, interpolation="nearest")
    bar = heat.figure.colorbar(image, ax=heat, fraction=0.05, pad=0.02)
    bar.ax.set_title("value", fontsize=8)
    heat.set_xlabel("dimension $j$ of the encoding")
    heat.set_ylabel("position in the sentence")
    heat.set_title("the whole table", fontsize=10)
    for colour, d in zip(OTHER_COLOURS, dims):
        wave = "sin" if d % 2 == 0 else "cos"
        curves.plot(range(length), table[:, d], color=colour, lw=1.5,
                    linestyle="-" if d % 2 == 0 else "--", label=f"$j$ = {d} ({wave})")
    curves.set_xlabel("position in the sentence")
    curves.set_ylabel("value of the encoding")
    curves.set_ylim(-1.15, 1.15)
    curves.set_title("a few dimensions as curves", fontsize=10)
    curves.legend(frameon=False, fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    curves.grid(alpha=0.3)
    heat.figure.suptitle(title or f"Sinusoidal positional encodings, d_model = {d_model}, "
                         f"positions 0 to {length - 1}")
    return axes


__all__ = ["CMAP", "plot_positional_encodings"]
