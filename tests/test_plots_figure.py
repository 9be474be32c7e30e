"""companion.plots.show: a chapter's figure is shown only with a title and labelled axes."""

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

from companion.plots import FigureError, check_figure, no_axis_labels, show  # noqa: E402
from companion.plots.figure import figure_problems  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    plt.close("all")
    yield
    plt.close("all")


def _labelled(ax, title="t"):
    ax.plot([0, 1], [1, 0])
    ax.set(title=title, xlabel="x", ylabel="y")
    return ax


def test_a_titled_labelled_plot_passes():
    fig, ax = plt.subplots()
    _labelled(ax)
    assert figure_problems(fig) == []
    check_figure(fig)


def test_each_missing_piece_is_named():
    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0])
    assert figure_problems(fig) == [
        "the plot: no title (ax.set_title, or fig.suptitle for the figure)",
        "the plot: no x-axis label (ax.set_xlabel)",
        "the plot: no y-axis label (ax.set_ylabel)",
    ]
    ax.set_title("loss")
    ax.set_xlabel("step")
    with pytest.raises(FigureError, match=r"figure not shown: the plot \('loss'\): no y-axis label"):
        check_figure(fig)


def test_panels_are_checked_one_by_one_and_a_suptitle_titles_them_all():
    fig, (a, b) = plt.subplots(1, 2)
    _labelled(a)
    b.plot([0, 1], [0, 1])
    b.set_xlabel("x")
    assert figure_problems(fig) == [
        "panel 2 of 2: no title (ax.set_title, or fig.suptitle for the figure)",
        "panel 2 of 2: no y-axis label (ax.set_ylabel)",
    ]
    fig.suptitle("two panels")
    b.set_ylabel("y")
    assert figure_problems(fig) == []


def test_shared_and_twinned_axes_borrow_labels_and_titles():
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True)
    top.plot([0, 1], [0, 1])
    bottom.plot([0, 1], [1, 0])
    top.set(title="loss and gradient norm", ylabel="loss")
    bottom.set(xlabel="step", ylabel="norm")
    assert figure_problems(fig) == []
    fig, ax = plt.subplots()
    _labelled(ax)
    twin = ax.twinx()
    twin.plot([0, 1], [2, 3])
    assert figure_problems(fig) == ["panel 2 of 2: no y-axis label (ax.set_ylabel)"]
    twin.set_ylabel("length ratio")
    assert figure_problems(fig) == []


def test_diagrams_colour_bars_and_exempted_pictures_need_only_a_title():
    from companion.plots.diagrams import lstm_cell_diagram

    ax = lstm_cell_diagram()
    assert not ax.axison and figure_problems(ax.figure) == []
    ax.set_title("")
    assert figure_problems(ax.figure) == ["the plot: no title (ax.set_title, or fig.suptitle for the figure)"]
    fig, ax = plt.subplots()
    image = ax.imshow([[0.0, 1.0]])
    fig.colorbar(image, ax=ax, label="weight")
    ax.set_title("a picture")
    assert len(figure_problems(fig)) == 2  # the image's axes, not the colour bar's
    no_axis_labels(ax)
    assert figure_problems(fig) == []


def test_show_checks_every_open_figure_then_shows(monkeypatch):
    shown = []
    monkeypatch.setattr(plt, "show", lambda *a, **k: shown.append(plt.get_fignums()))
    _, good = plt.subplots()
    _labelled(good)
    bad_fig, bad = plt.subplots()
    bad.plot([0, 1], [0, 1])
    with pytest.raises(FigureError, match="no title"):
        show()
    assert shown == [] and not plt.fignum_exists(bad_fig.number)  # the bad figure is closed
    show()
    assert shown == [[good.figure.number]]


def test_the_packages_plots_pass_when_given_a_title():
    """The figures the chapters draw come out complete from the plotting functions."""
    from companion.experiments.tasks import RecallRun
    from companion.plots.decoding import plot_bleu_by_length, plot_search_settings
    from companion.plots.diagrams import encoder_decoder_diagram, unrolled_rnn_diagram
    from companion.plots.gradients import plot_runs
    from companion.plots.masks import plot_transformer_masks

    rows = [((0, 10), 5, 40.0), ((10, math.inf), 3, 30.0)]
    figures = [
        plot_bleu_by_length({"RNNsearch": rows}, title="BLEU by length").figure,
        plot_search_settings([{"setting": "greedy", "BLEU": 1.0, "len_ratio": 0.9}], title="s").figure,
        plot_runs({"RNN": RecallRun([1.0, 0.5], [3.0, 2.0])}, title="clipping")[0].figure,
        plot_transformer_masks(torch.tensor([[5, 6, 2, 0]]), torch.tensor([[1, 7, 8]]))[0].figure,
        unrolled_rnn_diagram().figure,
        encoder_decoder_diagram().figure,
    ]
    for fig in figures:
        assert figure_problems(fig) == [], fig.axes[0].get_title()
