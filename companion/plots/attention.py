"""Attention heatmaps: a model's word-level attention over one sentence pair, with the corpus's
gold alignment drawn on top -- Bahdanau et al.'s Figure 3 on Korean-English pairs.

The input is what :func:`companion.evaluation.alignment.teacher_forced_word_attention` returns
for each pair (a :class:`~companion.evaluation.alignment.WordAttention`: an ``(n_en, n_ko)``
matrix with its word labels). The figure puts Korean eojeols on the rows and English words on
the columns, like :func:`companion.plots.alignment.plot_alignment`, so a heatmap and a gold grid
read the same way: cell ``(i, j)`` is how much English word ``j`` attended to eojeol ``i``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.errors import DataError

#: colour of the squares that mark gold links
GOLD_COLOUR = "tab:red"


def _checked(attention: Any) -> tuple[Any, list[str], list[str]]:
    """``(matrix (n_ko, n_en) as nested lists, ko_words, en_words)`` of a WordAttention."""
    try:
        matrix, en, ko = attention.matrix, list(attention.en_words), list(attention.ko_words)
    except AttributeError:
        raise DataError(f"plot_attention: expected a WordAttention (matrix, en_words, ko_words), "
                        f"got {type(attention).__name__}") from None
    rows = [[float(x) for x in row] for row in matrix.tolist()]
    if len(rows) != len(en) or any(len(r) != len(ko) for r in rows):
        shape = (len(rows), len(rows[0]) if rows else 0)
        raise DataError(f"plot_attention: a {shape[0]} x {shape[1]} matrix for {len(en)} English "
                        f"words and {len(ko)} Korean eojeols")
    if not rows or not ko:
        raise DataError("plot_attention: the sentence pair has no words")
    return [list(col) for col in zip(*rows)], ko, en  # transpose: eojeols on the rows


def plot_attention(attention: Any, gold: Iterable[tuple[int, int]] | None = None, ax: Any = None,
                   *, title: str = "Attention weights", cmap: str = "Greys",
                   colorbar: bool = False) -> Any:
    """Draw one pair's attention as a heatmap and return the axes.

    Args:
        attention: a :class:`~companion.evaluation.alignment.WordAttention` (``matrix``
            ``(n_en, n_ko)``, ``en_words``, ``ko_words``).
        gold: Pharaoh links ``(i, j)`` (eojeol ``i``, English word ``j``), each drawn as a
            coloured square outline over its cell; None draws none.
        ax: axes to draw on (a new figure sized to the sentence pair if None).
        title: the axes' title.
        cmap: colour map of the weights, fixed to the range [0, 1].
        colorbar: add a colour bar for the weights.

    Hangul labels render through :func:`companion.plots.use_hangul_font`.
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    from companion.plots import use_hangul_font

    use_hangul_font()
    grid, ko, en = _checked(attention)
    links = []
    for link in gold or ():
        i, j = (int(v) for v in link)
        if not (0 <= i < len(ko) and 0 <= j < len(en)):
            raise DataError(f"plot_attention: gold link {i}-{j} is outside a {len(ko)} x "
                            f"{len(en)} sentence pair")
        links.append((i, j))
    if ax is None:
        _, ax = plt.subplots(figsize=(0.42 * len(en) + 2.0, 0.42 * len(ko) + 1.4))
    image = ax.imshow(grid, cmap=cmap, vmin=0.0, vmax=1.0, aspect="equal")
    for i, j in links:
        ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor=GOLD_COLOUR, lw=1.4))
    if links:  # a legend entry for the squares, above the top right corner
        ax.plot([], [], "s", mfc="none", mec=GOLD_COLOUR, label="gold link")
        ax.legend(loc="lower right", bbox_to_anchor=(1.0, 1.0), borderaxespad=0.2, fontsize=7,
                  frameon=False)
    ax.set_xticks(range(len(en)), en, rotation=60, ha="right", fontsize=8)
    ax.set_yticks(range(len(ko)), ko, fontsize=8)
    ax.set_xlabel("English word (target)")
    ax.set_ylabel("Korean eojeol (source)")
    ax.set_title(title, fontsize=9)
    if colorbar:
        ax.figure.colorbar(image, ax=ax, fraction=0.03, pad=0.02, label="attention weight")
    return ax


__all__ = ["GOLD_COLOUR", "plot_attention"]
