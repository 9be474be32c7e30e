"""The claims forest plot draws each measured claim where its numbers put it: the mean and the
seeds in units of the claim's minimum effect, the claimed direction positive, coloured by verdict."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from companion.errors import DataError  # noqa: E402
from companion.plots.claims import VERDICT_STYLE, plot_claims, scaled_effects  # noqa: E402

ROWS = [
    {"key": "bleu_up", "mean": 2.0, "min_effect": 1.0, "sign": 1, "diffs": [1.0, 2.0, 3.0],
     "verdict": "holds"},
    {"key": "aer_down", "mean": -0.02, "min_effect": 0.01, "sign": -1, "diffs": [-0.01, -0.03],
     "verdict": "holds"},
    {"key": "against", "mean": -0.6, "min_effect": 0.5, "sign": 1, "diffs": [-0.5, -0.7],
     "verdict": "opposite"},
    {"key": "unpaired", "mean": 40.0, "min_effect": 1.0, "sign": 1, "diffs": None,
     "verdict": "within noise"},
    {"key": "untested", "mean": None, "min_effect": 1.0, "sign": 1, "diffs": None,
     "verdict": "not tested"},
]


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_scaled_effects_orient_and_scale():
    assert scaled_effects(ROWS[0]) == (2.0, [1.0, 2.0, 3.0])
    mean, seeds = scaled_effects(ROWS[1])  # lower AER claimed: a fall is positive
    assert mean == pytest.approx(2.0) and seeds == pytest.approx([1.0, 3.0])
    assert scaled_effects(ROWS[3]) == (40.0, [])
    with pytest.raises(DataError, match="min_effect"):
        scaled_effects({**ROWS[0], "min_effect": 0})


def test_plot_claims_puts_each_claim_at_its_numbers():
    ax = plot_claims(ROWS)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["unpaired", "against", "aer_down", "bleu_up"]  # first row on top
    means = {}
    hexes = {v: matplotlib.colors.to_rgba(c) for v, (c, _) in VERDICT_STYLE.items()}
    for coll in ax.collections:
        offsets = np.asarray(coll.get_offsets())
        colours = coll.get_facecolors()
        for (x, y), colour in zip(offsets, colours if len(colours) == len(offsets)
                                  else [colours[0]] * len(offsets)):
            for verdict, rgba in hexes.items():
                if np.allclose(colour, rgba):
                    means[labels[int(round(y))]] = (x, verdict)
    assert means["bleu_up"] == (pytest.approx(2.0), "holds")
    assert means["aer_down"] == (pytest.approx(2.0), "holds")
    assert means["against"] == (pytest.approx(-1.2), "opposite")
    assert means["unpaired"] == (pytest.approx(8.0), "within noise")  # clipped at the edge
    assert any(t.get_text() == "40" for t in ax.texts)  # ... with its value beside it
    assert ax.get_title() and "minimum effect" in ax.get_xlabel() and ax.get_ylabel() == "claim"


def test_plot_claims_refuses_rows_with_nothing_measured():
    with pytest.raises(DataError, match="no measured claim"):
        plot_claims([ROWS[-1]])
