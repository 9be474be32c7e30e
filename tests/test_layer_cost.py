"""The layer-cost counts of Table 1 ("Why self-attention") against counts taken from the
package's own modules."""

import pytest
import torch

from companion.errors import ConfigError
from companion.experiments.layer_cost import convolution, lstm_crossover, recurrent, self_attention
from companion.models.transformer.attention import MultiHeadAttention


def test_self_attention_projection_count_matches_the_module():
    d = 24
    attention = MultiHeadAttention(d, 4)
    weights = sum(p.numel() for name, p in attention.named_parameters() if p.dim() == 2)
    n = 7
    assert self_attention(n, d).multiply_adds - 2 * n * n * d == n * weights  # each weight used once per position


def test_lstm_count_matches_torch_lstm_weights():
    d, n = 16, 9
    lstm = torch.nn.LSTM(d, d)
    weights = lstm.weight_ih_l0.numel() + lstm.weight_hh_l0.numel()
    assert recurrent(n, d, gates=4).multiply_adds == n * weights


@pytest.mark.parametrize("d", [16, 128, 512])
def test_crossover_is_where_self_attention_overtakes_the_lstm(d):
    n = lstm_crossover(d)
    assert self_attention(n, d).multiply_adds == recurrent(n, d, gates=4).multiply_adds
    assert self_attention(n + 1, d).multiply_adds > recurrent(n + 1, d, gates=4).multiply_adds
    assert self_attention(n - 1, d).multiply_adds < recurrent(n - 1, d, gates=4).multiply_adds


def test_sequential_steps_and_paths():
    assert (self_attention(50, 8).sequential, self_attention(50, 8).max_path) == (1, 1)
    assert (recurrent(50, 8).sequential, recurrent(50, 8).max_path) == (50, 49)
    assert convolution(50, 8, k=3).max_path == 25 and convolution(50, 8, k=5).max_path == 13
    assert self_attention(1, 8).multiply_adds > recurrent(1, 8).multiply_adds  # projections dominate short inputs


@pytest.mark.parametrize("bad", [0, -3, 2.5, True, "7"])
def test_bad_sizes_are_refused_clearly(bad):
    with pytest.raises(ConfigError, match="positive integer"):
        self_attention(bad, 8)
    with pytest.raises(ConfigError, match="positive integer"):
        recurrent(8, bad)
    with pytest.raises(ConfigError, match="gates"):
        recurrent(8, 8, gates=0)
    with pytest.raises(ConfigError, match="width k"):
        convolution(8, 8, k=1)


def test_the_figure_has_titles_labels_and_refuses_empty_lengths():
    import matplotlib

    matplotlib.use("Agg")
    from companion.errors import DataError
    from companion.plots.layer_cost import plot_layer_costs

    left, right = plot_layer_costs(16, [3, 5, 5, 9], title="costs")
    assert left.get_title() and right.get_title() and left.get_xlabel() and left.get_ylabel() and right.get_ylabel()
    assert [line.get_label() for line in left.get_lines()][:2] == ["self-attention", "LSTM"]
    assert sum(patch.get_height() for patch in right.patches) == 4
    with pytest.raises(DataError, match="positive integers"):
        plot_layer_costs(16, [])
    with pytest.raises(DataError, match="positive integers"):
        plot_layer_costs(16, [3, 0])
