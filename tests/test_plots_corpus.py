"""The lexicon-vs-budget figure."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from companion.errors import DataError  # noqa: E402
from companion.plots.corpus import plot_lexicon_budget  # noqa: E402

ROWS = [{"lemmas_per_class": 3, "english_words": 400, "test_bleu": 80.0, "test_exact": 0.6},
        {"lemmas_per_class": None, "english_words": 5000, "test_bleu": 8.0, "test_exact": 0.01}]


def test_draws_both_series_on_a_log_axis_with_labels():
    ax = plot_lexicon_budget(ROWS, title="budget")
    assert ax.get_xscale() == "log" and ax.get_title() == "budget"
    assert ax.get_xlabel() and ax.get_ylabel()
    lines = ax.get_lines()
    assert [list(line.get_ydata()) for line in lines] == [[80.0, 8.0], [60.0, 1.0]]
    assert [t.get_text() for t in ax.texts] == ["3/list", "all/list"]


def test_bad_rows_are_one_line_errors():
    with pytest.raises(DataError, match="no rows"):
        plot_lexicon_budget([])
    with pytest.raises(DataError, match="need a 'test_exact' entry"):
        plot_lexicon_budget([{"english_words": 1, "test_bleu": 1, "lemmas_per_class": 1}])
