"""One colour per model family across the book: the palette, and every plotting function that
draws models taking its colours from it."""

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

from companion.experiments.tasks import RecallRun  # noqa: E402
from companion.plots.palette import (FAMILY_COLOURS, OTHER_COLOURS, TRAIN_COLOUR,  # noqa: E402
                                     VALID_COLOUR, colours_for, family_colour, family_of, shade)

C = FAMILY_COLOURS


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


@pytest.mark.parametrize("label, family", [
    ("RNNsearch", "rnnsearch"), ("RNNsearch (attention)", "rnnsearch"),
    ("rnnsearch_dot", "rnnsearch"), ("RNNencdec (fixed vector)", "rnnencdec"),
    ("seq2seq", "seq2seq"), ("seq2seq_reversed", "seq2seq_reversed"),
    ("LSTM seq2seq, reversed source", "seq2seq_reversed"), ("Transformer", "transformer"),
    ("Transformer (Post-LN)", "transformer_postln"), ("transformer_postln", "transformer_postln"),
    ("LSTM, forget bias 3", "lstm"), ("GRU, update bias 3", "gru"), ("RNN, init", "rnn"),
    ("RNN-256, state carried", "rnn"), ("5-gram", "ngram"), ("ngram", "ngram"),
    ("chance", None), ("monotone oracle", None),
])
def test_a_label_names_its_family(label, family):
    assert family_of(label) == family


def test_every_family_and_the_two_curve_hues_are_distinct_colours():
    colours = [to_hex(c) for c in [*C.values(), TRAIN_COLOUR, VALID_COLOUR, *OTHER_COLOURS]]
    assert len(set(colours)) == len(colours)
    assert set(C) >= {"ngram", "rnn", "lstm", "gru", "seq2seq", "seq2seq_reversed", "rnnencdec",
                      "rnnsearch", "transformer", "transformer_postln"}
    with pytest.raises(KeyError, match="no colour for model family 'cnn'"):
        family_colour("cnn")


def test_labels_of_one_family_get_shades_and_the_rest_other_colours():
    got = colours_for(["LSTM, forget bias 3", "LSTM, forget bias 0", "RNN", "chance", "oracle"])
    assert got["LSTM, forget bias 3"] == C["lstm"]
    assert got["LSTM, forget bias 0"] == shade(C["lstm"], 1, 2) != C["lstm"]
    assert got["RNN"] == C["rnn"]
    assert [got["chance"], got["oracle"]] == list(OTHER_COLOURS[:2])
    # the same label gets the same colour in every figure
    assert colours_for(["RNNsearch", "Transformer"])["RNNsearch"] == colours_for(["RNNsearch"])["RNNsearch"]


def test_shade_runs_from_the_colour_to_half_white():
    assert shade("#000000", 0, 3) == "#000000"
    assert shade("#000000", 2, 3) == "#808080"
    assert shade("#ff0000", 1, 1) == "#ff0000"


def _bars_by_label(ax):
    handles, labels = ax.get_legend_handles_labels()
    return {label: to_hex(h.patches[0].get_facecolor()) for h, label in zip(handles, labels)}


def test_bleu_by_length_bars_take_the_family_colours():
    from companion.plots.decoding import plot_bleu_by_length

    rows = [((0, 10), 5, 40.0), ((10, math.inf), 3, 30.0)]
    ax = plot_bleu_by_length({"RNNencdec": rows, "RNNsearch": rows, "Transformer": rows}, title="t")
    assert _bars_by_label(ax) == {"RNNencdec": C["rnnencdec"], "RNNsearch": C["rnnsearch"],
                                  "Transformer": C["transformer"]}
    # the order of the models does not change their colours
    ax = plot_bleu_by_length({"Transformer": rows, "RNNsearch": rows}, title="t")
    assert _bars_by_label(ax) == {"Transformer": C["transformer"], "RNNsearch": C["rnnsearch"]}


def test_valid_curves_take_the_family_colours():
    from companion.plots.decoding import plot_valid_curves

    recs = [{"step": 1, "valid_ppl": 9.0}, {"step": 2, "valid_ppl": 5.0}]
    ax = plot_valid_curves({"seq2seq": recs, "seq2seq_reversed": recs})
    assert [to_hex(line.get_color()) for line in ax.lines] == [C["seq2seq"], C["seq2seq_reversed"]]


def test_training_curves_give_train_and_valid_distinct_hues():
    from companion.plots.curves import plot_curves
    from companion.training import History

    h = History()
    h.steps, h.train_loss, h.valid = [1, 2], [3.0, 2.0], [{"step": 2, "valid_nll": 2.5}]
    ax = plot_curves(h)
    assert [to_hex(line.get_color()) for line in ax.lines] == [TRAIN_COLOUR, VALID_COLOUR]
    ax = plot_curves(h, label="Transformer")
    train, valid = (to_hex(line.get_color()) for line in ax.lines)
    assert valid == C["transformer"] and train == shade(C["transformer"], 1, 2) != valid


def test_rnn_lstm_chapter_plots_take_the_family_colours():
    from companion.plots.gradients import (plot_accuracy_vs_length, plot_gradient_norms,
                                           plot_runs, plot_valid_bpc)

    ax = plot_gradient_norms({"RNN": {"T": [1, 2], "h": [1.0, 0.1]},
                              "LSTM": {"T": [1, 2], "h": [1.0, 0.5], "c": [2.0, 1.5]}})
    assert [to_hex(line.get_color()) for line in ax.lines] == [C["rnn"], C["lstm"], C["lstm"]]
    ax = plot_accuracy_vs_length({"GRU": {5: [1.0]}, "LSTM": {5: [0.5]}}, chance=0.25)
    assert [to_hex(line.get_color()) for line in ax.lines[:2]] == [C["gru"], C["lstm"]]
    top, bottom = plot_runs({"RNN": RecallRun([1.0, 0.5], [3.0, 2.0])})
    assert to_hex(top.lines[0].get_color()) == to_hex(bottom.lines[0].get_color()) == C["rnn"]
    ax = plot_valid_bpc({"RNN": ([1, 2], [3.0, 2.5])}, baselines={"4-gram": 2.6, "5-gram": 2.4})
    assert to_hex(ax.lines[0].get_color()) == C["rnn"]
    assert [to_hex(line.get_color()) for line in ax.lines[1:]] == [C["ngram"], shade(C["ngram"], 1, 2)]


def test_search_settings_bars_take_the_models_colour():
    from companion.plots.decoding import plot_search_settings

    rows = [{"setting": "greedy", "BLEU": 70.0, "len_ratio": 0.98}]
    ax = plot_search_settings(rows, title="t", model="seq2seq_reversed")
    assert to_hex(ax.patches[0].get_facecolor()) == C["seq2seq_reversed"]
    ax = plot_search_settings(rows, title="t")
    assert to_hex(ax.patches[0].get_facecolor()) not in {to_hex(c) for c in C.values()}


def test_bleu_by_length_labels_each_bucket_with_the_counts_the_bars_rest_on():
    """One n when the models share the test sentences, one per model (legend order) when not."""
    from companion.plots.decoding import plot_bleu_by_length

    same = [((3, 6), 115, 40.0), ((6, math.inf), 345, 30.0)]
    other = [((3, 6), 235, 41.0), ((6, math.inf), 656, 31.0)]
    ax = plot_bleu_by_length({"RNNsearch": same, "Transformer": same}, title="t")
    assert [t.get_text() for t in ax.get_xticklabels()] == ["3-5\n(n=115)", "6+\n(n=345)"]
    ax = plot_bleu_by_length({"RNNsearch": same, "LSTM": other}, title="t")
    assert [t.get_text() for t in ax.get_xticklabels()] == ["3-5\n(n=115/235)", "6+\n(n=345/656)"]
