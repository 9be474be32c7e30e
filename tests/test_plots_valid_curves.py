"""plot_valid_curves on its log axis: ticks a reader can read and the end of every curve labelled."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from companion.plots.decoding import plot_valid_curves  # noqa: E402


def test_ticks_are_plain_numbers_and_each_curve_end_is_labelled():
    runs = {"RNNsearch": [{"step": 100, "valid_ppl": 8.0}, {"step": 700, "valid_ppl": 1.083}],
            "RNNencdec": [{"step": 100, "valid_ppl": 12.0}, {"step": 700, "valid_ppl": 2.407}]}
    ax = plot_valid_curves(runs, title="t")
    ax.figure.canvas.draw()
    labels = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    lo, hi = ax.get_ylim()
    shown = [float(x) for x in labels if lo <= float(x) <= hi]
    assert {1.0, 2.0, 5.0, 10.0} <= set(shown), labels  # no 3x10^0 mathtext, no bare decades
    assert all("times" not in x and "^" not in x for x in labels), labels
    ends = sorted(a.get_text() for a in ax.texts)
    assert ends == ["1.08", "2.41"]  # the final values, where the curves stop
    xlo, xhi = ax.get_xlim()
    assert xhi > 700  # room on the right for the end labels
    plt.close("all")
