"""Architecture diagrams: each draws, renders to PNG and shows the labels its chapter names."""

import io

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from companion.errors import ConfigError  # noqa: E402
from companion.plots.diagrams import (  # noqa: E402
    encoder_decoder_diagram,
    lstm_cell_diagram,
    unrolled_rnn_diagram,
)


def render(ax) -> bytes:
    buffer = io.BytesIO()
    ax.figure.savefig(buffer, format="png")
    data = buffer.getvalue()
    plt.close(ax.figure)
    return data


def texts(ax) -> list[str]:
    return [t.get_text() for t in ax.texts]


def test_unrolled_rnn_has_one_box_per_step_and_shared_weights():
    ax = unrolled_rnn_diagram(steps=3)
    labels = texts(ax)
    for t in (1, 2, 3):
        assert {f"$x_{t}$", f"$h_{t}$", f"$y_{t}$"} <= set(labels)
    assert "$x_4$" not in labels and "$h_0$" in labels
    # the same three matrices, once per unrolled step (plus the folded cell)
    assert labels.count("$W_{xh}$") == 4 and labels.count("$W_{hy}$") == 4
    assert labels.count("$W_{hh}$") == 4
    assert "unrolled" in ax.get_title()
    assert render(ax).startswith(b"\x89PNG")


def test_lstm_cell_shows_the_gates_and_the_cell_path():
    ax = lstm_cell_diagram()
    labels = " ".join(texts(ax))
    for gate in ("$f_t$", "$i_t$", "$g_t$", "$o_t$"):
        assert gate in labels
    for state in ("$c_{t-1}$", "$c_t$", "$h_{t-1}$", "$h_t$"):
        assert state in labels
    assert "cell state" in labels and "+" in texts(ax) and texts(ax).count("×") == 3
    assert "LSTM" in ax.get_title()
    assert render(ax).startswith(b"\x89PNG")


def test_encoder_decoder_reads_source_and_writes_target_through_one_vector():
    ax = encoder_decoder_diagram(src_tokens=["je", "vais"], tgt_tokens=["I", "go"])
    labels = texts(ax)
    assert labels.count("<EOS>") == 2  # ends the source, and is the decoder's last output
    assert labels.count("<BOS>") == 1 and labels.count("$v$") == 1 and "fixed vector" in labels
    assert labels.count("I") == 2 and labels.count("go") == 2  # predicted, then fed back
    assert "fixed vector" in ax.get_title()
    assert render(ax).startswith(b"\x89PNG")


def test_diagrams_draw_on_a_given_axes():
    fig, axes = plt.subplots(1, 3)
    assert unrolled_rnn_diagram(ax=axes[0]) is axes[0]
    assert lstm_cell_diagram(ax=axes[1]) is axes[1]
    assert encoder_decoder_diagram(ax=axes[2]) is axes[2]
    plt.close(fig)


def test_diagram_errors():
    with pytest.raises(ConfigError, match="steps must be an int from 1 to 8, got 0"):
        unrolled_rnn_diagram(steps=0)
    with pytest.raises(ConfigError, match="at least one source and one target token"):
        encoder_decoder_diagram(src_tokens=[])
    with pytest.raises(ConfigError, match="at most 8 tokens a side"):
        encoder_decoder_diagram(tgt_tokens=list("abcdefghi"))
