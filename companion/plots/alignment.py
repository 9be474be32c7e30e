"""Word-alignment grids: Korean eojeols (rows) x English words (columns), a filled cell per
gold link -- the picture an attention heatmap is later compared with.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.errors import DataError


def _tokens(text: str | Sequence[str]) -> list[str]:
    return text.split() if isinstance(text, str) else list(text)


def _links(align) -> list[tuple[int, int]]:
    if isinstance(align, str):
        from companion.data.kosynth import parse_alignment

        return parse_alignment(align)
    return [(int(i), int(j)) for i, j in align]


def alignment_matrix(ko, en, align) -> list[list[int]]:
    """0/1 matrix of shape (len(ko), len(en)) with a 1 at every link ``(i, j)``."""
    ko_t, en_t = _tokens(ko), _tokens(en)
    m = [[0] * len(en_t) for _ in ko_t]
    for i, j in _links(align):
        if not (0 <= i < len(ko_t) and 0 <= j < len(en_t)):
            raise DataError(f"alignment link {i}-{j} is outside a {len(ko_t)} x {len(en_t)} "
                            f"sentence pair")
        m[i][j] = 1
    return m


def plot_alignment(ko, en, align, ax=None, *, title: str | None = None, cmap: str = "Blues"):
    """Draw the gold alignment of one pair as a grid and return the axes.

    ``ko``/``en`` are sentences (whitespace-tokenised) or token lists; ``align`` is a list of
    ``(i, j)`` links or a Pharaoh string ``"0-0 0-1 1-2"``. Hangul labels render through
    :func:`companion.plots.use_hangul_font`.
    """
    import matplotlib.pyplot as plt

    from companion.plots import use_hangul_font

    use_hangul_font()
    ko_t, en_t = _tokens(ko), _tokens(en)
    m = alignment_matrix(ko_t, en_t, align)
    if ax is None:
        _, ax = plt.subplots(figsize=(0.38 * len(en_t) + 1.6, 0.38 * len(ko_t) + 1.2))
    ax.imshow(m, cmap=cmap, vmin=0, vmax=1.25, aspect="equal")
    ax.set_xticks(range(len(en_t)), en_t, rotation=60, ha="right", fontsize=8)
    ax.set_yticks(range(len(ko_t)), ko_t, fontsize=8)
    ax.set_xticks([x - 0.5 for x in range(1, len(en_t))], minor=True)
    ax.set_yticks([y - 0.5 for y in range(1, len(ko_t))], minor=True)
    ax.grid(which="minor", color="0.85", linewidth=0.5)
    ax.tick_params(which="minor", length=0)
    ax.set_xlabel("English word")
    ax.set_ylabel("Korean eojeol")
    if title:
        ax.set_title(title, fontsize=9)
    return ax
