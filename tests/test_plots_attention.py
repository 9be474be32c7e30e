"""The attention heatmap: it draws the weights (eojeols on the rows), marks gold links, has a
title and labelled axes, and renders Hangul without missing glyphs."""

import io
import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

from companion.errors import DataError  # noqa: E402
from companion.evaluation.alignment import WordAttention  # noqa: E402
from companion.plots.attention import GOLD_COLOUR, plot_attention  # noqa: E402

KO = ["고양이가", "우유를", "마셨어요."]
EN = ["The", "cat", "drank", "milk."]
GOLD = [(0, 0), (0, 1), (2, 2), (1, 3)]


def example() -> WordAttention:
    # (n_en, n_ko): each English word's weights over the three eojeols
    matrix = torch.tensor([[0.9, 0.05, 0.05], [0.8, 0.1, 0.1], [0.1, 0.2, 0.7], [0.0, 1.0, 0.0]],
                          dtype=torch.float64)
    return WordAttention(matrix, EN, KO)


def saved_warnings(fig) -> list[str]:
    """Messages of every warning raised while the figure is rendered to PNG."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig.savefig(io.BytesIO(), format="png")
    return [str(w.message) for w in caught]


def test_heatmap_is_the_transposed_matrix_with_labels_and_title():
    ax = plot_attention(example(), title="demo pair")
    grid = ax.images[0].get_array()
    assert grid.shape == (3, 4)  # eojeols x English words
    assert grid[1, 3] == pytest.approx(1.0) and grid[2, 2] == pytest.approx(0.7)
    assert ax.images[0].get_clim() == (0.0, 1.0)
    assert [t.get_text() for t in ax.get_yticklabels()] == KO
    assert [t.get_text() for t in ax.get_xticklabels()] == EN
    assert ax.get_title() == "demo pair"
    assert "Korean" in ax.get_ylabel() and "English" in ax.get_xlabel()
    plt.close(ax.figure)


def test_gold_links_are_squares_over_their_cells():
    ax = plot_attention(example(), GOLD)
    squares = [p for p in ax.patches if p.get_edgecolor() == matplotlib.colors.to_rgba(GOLD_COLOUR)]
    corners = sorted((round(p.get_x() + 0.5), round(p.get_y() + 0.5)) for p in squares)
    assert corners == sorted((j, i) for i, j in GOLD)  # x = English word, y = eojeol
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["gold link"]
    plt.close(ax.figure)
    bare = plot_attention(example())
    assert not bare.patches and bare.get_legend() is None
    plt.close(bare.figure)


def test_draws_on_given_axes_with_a_colorbar():
    fig, axes = plt.subplots(1, 2)
    out = plot_attention(example(), GOLD, axes[1], colorbar=True)
    assert out is axes[1] and len(fig.axes) == 3  # two axes and the colour bar
    plt.close(fig)


def test_hangul_renders_without_missing_glyphs():
    ax = plot_attention(example(), GOLD)
    messages = saved_warnings(ax.figure)
    assert not [m for m in messages if "missing from" in m], messages
    plt.close(ax.figure)


def test_the_glyph_check_catches_a_font_without_hangul():
    # the same labels in matplotlib's own font, which has no Hangul: the check must see it
    with matplotlib.rc_context({"font.family": "DejaVu Sans"}):
        fig, ax = plt.subplots()
        ax.set_title(KO[0])
        messages = saved_warnings(fig)
    plt.close(fig)
    assert any("missing from" in m for m in messages), messages


def test_bad_inputs_have_one_line_messages():
    with pytest.raises(DataError, match="gold link 3-0 is outside a 3 x 4 sentence pair"):
        plot_attention(example(), [(3, 0)])
    with pytest.raises(DataError, match="a 4 x 3 matrix for 4 English words and 2 Korean eojeols"):
        plot_attention(WordAttention(example().matrix, EN, KO[:2]))
    with pytest.raises(DataError, match="expected a WordAttention"):
        plot_attention(torch.zeros(2, 2))
    plt.close("all")
