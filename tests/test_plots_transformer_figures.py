"""Chapter 5's figures draw the package's own numbers: the positional-encoding table, the
smoothed targets and the schedules, with titles, labels and one-line errors."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

from companion.errors import DataError  # noqa: E402
from companion.models.transformer.layers import sinusoid_table  # noqa: E402
from companion.plots.figure import figure_problems  # noqa: E402
from companion.plots.positions import plot_positional_encodings  # noqa: E402
from companion.plots.schedules import plot_lr_schedules  # noqa: E402
from companion.plots.targets import plot_smoothed_targets  # noqa: E402
from companion.training.smoothing import smoothed_targets  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_the_heatmap_is_the_models_table_and_the_curves_its_columns():
    heat, curves = plot_positional_encodings(20, 16, dims=(0, 5))
    (image,) = heat.get_images()
    table = sinusoid_table(20, 16).numpy()
    np.testing.assert_allclose(np.asarray(image.get_array()), table)
    lines = curves.get_lines()
    assert [ln.get_label() for ln in lines] == ["$j$ = 0 (sin)", "$j$ = 5 (cos)"]
    np.testing.assert_allclose(lines[1].get_ydata(), table[:, 5])
    assert figure_problems(heat.figure) == []


@pytest.mark.parametrize("args, message", [
    ((1, 16), "length must be an integer >= 2"),
    ((10, 15), "d_model must be an even integer"),
    ((10, 16, ()), "give 1 to"),
    ((10, 16, (0, 16)), r"dimensions \[16\] are outside 0..15"),
])
def test_positional_encodings_refuse_bad_arguments(args, message):
    with pytest.raises(DataError, match=message):
        plot_positional_encodings(*args)


def test_the_bars_are_the_smoothed_targets_of_the_label():
    ax = plot_smoothed_targets(3, 6, (0.0, 0.2), tokens=list("abcdef"))
    heights = [p.get_height() for p in ax.patches]
    assert len(heights) == 12
    for n, eps in enumerate((0.0, 0.2)):
        expected = smoothed_targets(torch.tensor([[3]]), 6, eps)[0, 0].tolist()
        assert heights[6 * n: 6 * (n + 1)] == pytest.approx(expected)
    assert heights[6 + 3] == pytest.approx(1 - 0.2 + 0.2 / 6)
    assert [t.get_text() for t in ax.get_xticklabels()] == list("abcdef")
    assert figure_problems(ax.figure) == []


@pytest.mark.parametrize("kwargs, message", [
    (dict(label=0, vocab_size=5), "non-PAD id"),
    (dict(label=7, vocab_size=5), "non-PAD id below 5"),
    (dict(label=2, vocab_size=1), "vocab_size must be an integer >= 2"),
    (dict(label=2, vocab_size=5, tokens=["a"]), "1 token names for 5 entries"),
    (dict(label=2, vocab_size=5, eps_values=()), "give 1 to"),
])
def test_smoothed_targets_plot_refuses_bad_arguments(kwargs, message):
    with pytest.raises(DataError, match=message):
        plot_smoothed_targets(**kwargs)


def test_a_smoothing_strength_outside_its_range_is_the_smoothing_modules_error():
    from companion.errors import ConfigError

    with pytest.raises(ConfigError, match=r"eps must be in \[0, 1\)"):
        plot_smoothed_targets(2, 5, (1.5,))


def test_schedules_are_drawn_step_by_step_with_plain_log_ticks():
    ax = plot_lr_schedules({"warmup": [1e-3, 2e-3, 3e-3], "constant": [3e-3] * 3}, first_step=5)
    a, b = ax.get_lines()
    assert list(a.get_xdata()) == [5, 6, 7] and list(a.get_ydata()) == [1e-3, 2e-3, 3e-3]
    assert a.get_color() != b.get_color() and a.get_linestyle() != b.get_linestyle()
    assert ax.get_yscale() == "log"
    ax.figure.canvas.draw()
    assert all("−" not in t.get_text() and "$" not in t.get_text() for t in ax.get_yticklabels())
    assert figure_problems(ax.figure) == []


@pytest.mark.parametrize("schedules, kwargs, message", [
    ({}, {}, "no schedules"),
    ({"a": [1.0], "b": [1.0, 2.0]}, {}, "the same, non-zero number of steps"),
    ({"a": [0.0, 1.0]}, {}, "positive rates"),
])
def test_schedules_refuse_what_cannot_be_drawn(schedules, kwargs, message):
    with pytest.raises(DataError, match=message):
        plot_lr_schedules(schedules, **kwargs)


def test_a_zero_rate_is_fine_on_a_linear_axis():
    ax = plot_lr_schedules({"a": [0.0, 1.0]}, log=False)
    assert ax.get_yscale() == "linear"
