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


def test_gradient_norms_name_what_was_differentiated_and_label_the_ends():
    ax = plot_gradient_norms({"LSTM": {"T": [2, 50, 100], "h": [1.0, 1e-3, 0.0], "c": [2.0, 0.5, 0.1]}},
                             of="logit")
    labels = [line.get_label() for line in ax.lines]
    assert all("z_y" in label for label in labels) and not any("L/" in label for label in labels)
    assert "logit" in ax.get_ylabel()
    assert list(ax.lines[0].get_xdata()) == [2, 50]  # the zero (an underflow) is not drawn
    assert {t.get_text() for t in ax.texts} == {"0.001", "0.1"}  # where each curve ends
    plt.close("all")


def test_gradient_norms_refuse_an_unknown_objective():
    import pytest

    with pytest.raises(ValueError, match="of must be one of"):
        plot_gradient_norms({"RNN": {"T": [1], "h": [1.0]}}, of="accuracy")


def test_accuracy_plot_ticks_are_the_lengths_and_coinciding_curves_differ_in_style():
    ax = plot_accuracy_vs_length({"LSTM, forget bias 3": {5: [1.0], 40: [1.0]},
                                  "GRU, update bias 3": {5: [1.0], 40: [1.0]}}, chance=0.25)
    assert list(ax.get_xticks()) == [5, 40]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["5", "40"]
    first, second = ax.lines[:2]
    assert first.get_linestyle() != second.get_linestyle() and first.get_marker() != second.get_marker()
    plt.close("all")


def test_valid_bpc_names_baselines_outside_the_plot():
    ax = plot_valid_bpc({"RNN": ([100, 200], [3.0, 2.5]), "RNN, reset": ([100, 200], [3.1, 2.6])},
                        baselines={"3-gram": 2.9})
    assert ax.lines[0].get_linestyle() != ax.lines[1].get_linestyle()
    (note,) = ax.texts
    assert note.get_text() == "3-gram" and note.xy[0] == 1.0  # at the right edge, outside the data
    plt.close("all")
