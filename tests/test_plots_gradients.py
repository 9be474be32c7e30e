"""The RNN/LSTM chapters' figures: right axes, scales and number of lines."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from companion.plots.gradients import (  # noqa: E402
    plot_accuracy_vs_length,
    plot_gradient_norms,
    plot_runs,
    plot_valid_bpc,
)
from companion.experiments.tasks import RecallRun  # noqa: E402


def test_gradient_norms_plot_is_log_scale_with_cell_lines_dashed():
    ax = plot_gradient_norms({"RNN": {"T": [1, 2], "h": [1.0, 0.1]},
                              "LSTM": {"T": [1, 2], "h": [1.0, 0.5], "c": [2.0, 1.5]}})
    assert ax.get_yscale() == "log" and ax.get_title() and ax.get_xlabel() and ax.get_ylabel()
    assert len(ax.lines) == 3 and ax.lines[2].get_linestyle() == "--"
    plt.close("all")


def test_accuracy_plot_has_means_and_chance():
    ax = plot_accuracy_vs_length({"LSTM": {5: [1.0, 0.9], 10: [0.8, 0.6]}}, chance=0.25)
    assert list(ax.lines[0].get_ydata()) == [0.95, 0.7]
    assert ax.lines[-1].get_ydata()[0] == 0.25
    assert ax.get_title() and ax.get_xlabel() == "distractors T" and ax.get_ylabel() == "recall accuracy"
    plt.close("all")


def test_runs_plot_two_panels():
    top, bottom = plot_runs({"a": RecallRun([1.0, 0.5], [3.0, 2.0])}, title="clipping")
    assert bottom.get_yscale() == "log" and list(top.lines[0].get_ydata()) == [1.0, 0.5]
    assert top.get_title() == "clipping" and top.get_ylabel() and bottom.get_ylabel()
    assert bottom.get_xlabel() == "step"
    plt.close("all")


def test_valid_bpc_plot_with_baseline():
    ax = plot_valid_bpc({"RNN": ([100, 200], [3.0, 2.5])}, baselines={"5-gram": 2.2})
    assert len(ax.lines) == 2 and ax.lines[1].get_ydata()[0] == 2.2
    assert ax.get_title() and ax.get_xlabel() and ax.get_ylabel()
    plt.close("all")


def test_curves_plot_has_a_title():
    from companion.plots.curves import plot_curves
    from companion.training.trainer import History

    history = History(steps=[1, 2], train_loss=[2.0, 1.5], valid=[{"step": 2, "valid_nll": 1.7}])
    ax = plot_curves(history, title="tiny run")
    assert ax.get_title() == "tiny run" and ax.get_xlabel() and ax.get_ylabel()
    assert plot_curves(history).get_title() == "training curves"
    plt.close("all")
