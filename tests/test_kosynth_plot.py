"""The alignment grid figure."""

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from companion.errors import DataError  # noqa: E402
from companion.plots.alignment import alignment_matrix, plot_alignment  # noqa: E402


def test_alignment_matrix():
    m = alignment_matrix("사과를 먹었다", "ate the apple", "0-1 0-2 1-0")
    assert m == [[0, 1, 1], [1, 0, 0]]
    with pytest.raises(DataError, match="alignment link 2-0 is outside a 2 x 3"):
        alignment_matrix(["사과를", "먹었다"], ["ate", "the", "apple"], [(2, 0)])


def test_plot_alignment_labels_and_cells():
    import matplotlib.pyplot as plt

    ax = plot_alignment("소년이 사과를 먹었다.", "The boy ate the apple.",
                        [(0, 0), (0, 1), (1, 3), (1, 4), (2, 2)], title="demo")
    assert [t.get_text() for t in ax.get_yticklabels()] == ["소년이", "사과를", "먹었다."]
    assert [t.get_text() for t in ax.get_xticklabels()][2] == "ate"
    assert ax.images[0].get_array().sum() == 5
    assert ax.get_title() == "demo"
    plt.close(ax.figure)
