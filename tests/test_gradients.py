"""Gradient flow through time: the idealised table and the measured state gradients."""

import math

import pytest
import torch
from torch.nn import functional as F

from companion.errors import ConfigError
from companion.experiments.gradients import (format_product_table, gradient_norms_vs_length, product_table,
                                            state_gradient_norms, state_gradients, steps_to_shrink)
from companion.models.lstm import LSTMCell, load_fused_weights, run_cell
from companion.models.rnn import RNNCell, load_fused_rnn
from companion.experiments.tasks import RecallTask, SequenceClassifier, recall_batch

ATOL = 1e-10


def test_product_table_values():
    rows = product_table([0.6, 0.95, 1.0], [5, 20])
    assert rows[0] == [0.6 ** 5, 0.95 ** 5, 1.0]
    assert rows[1][0] == pytest.approx(3.65616e-05, rel=1e-5)


def test_format_product_table_rows():
    text = format_product_table([0.6, 0.95, 1.0], [20, 100], ["a", "b", "c"])
    lines = text.splitlines()
    assert lines[0].split("|")[0].strip() == "T"
    assert [c.strip() for c in lines[1].split("|")] == ["20", "3.65616e-05", "0.358486", "1"]
    assert [c.strip() for c in lines[2].split("|")] == ["100", "6.53319e-23", "0.00592053", "1"]
    with pytest.raises(ConfigError, match="2 labels for 3 factors"):
        format_product_table([0.6, 0.95, 1.0], [5], ["a", "b"])


def test_steps_to_shrink():
    assert steps_to_shrink(0.5, 0.25) == pytest.approx(2.0, abs=1e-15)
    assert 0.6 ** steps_to_shrink(0.6, 1e-3) == pytest.approx(1e-3, rel=1e-12)
    assert steps_to_shrink(0.95, 0.5) == pytest.approx(13.513, abs=1e-3)
    assert steps_to_shrink(1.0, 0.5) == math.inf
    with pytest.raises(ConfigError, match="fraction must lie in \\(0, 1\\), got 1.5"):
        steps_to_shrink(0.6, 1.5)
    with pytest.raises(ConfigError, match="factor must be positive, got 0"):
        steps_to_shrink(0, 0.5)


def _model(cell, seed=0, hidden=5):
    torch.manual_seed(seed)
    return SequenceClassifier(7, 3, 4, hidden, cell).double()


def _readable_rnn_unroll(model, ids):
    """Run the model's RNN as the readable cell; returns (h_1 as a leaf, h_T)."""
    cell = RNNCell(4, 5, dtype=torch.float64)
    load_fused_rnn(cell, model.rnn)
    x = model.embedding(ids).detach()
    h1 = cell(x[:, 0]).detach().requires_grad_(True)
    h = h1
    for t in range(1, ids.shape[1]):
        h = cell(x[:, t], h)
    return h1, h


def test_rnn_state_gradient_matches_readable_unrolling():
    model = _model("rnn")
    ids = torch.randint(0, 7, (4, 9), generator=torch.Generator().manual_seed(1))
    targets = torch.tensor([0, 1, 2, 1])
    got = state_gradients(model, ids, targets)
    assert set(got) == {"h"} and got["h"].shape == (4, 5)
    h1, h = _readable_rnn_unroll(model, ids)
    loss = F.cross_entropy(model.output(h), targets, reduction="sum")
    (expected,) = torch.autograd.grad(loss, h1)
    assert torch.allclose(got["h"], expected, atol=ATOL, rtol=0)


def test_lstm_cell_gradient_is_product_of_forget_gates_without_recurrent_weights():
    """With W_hh = 0 the gates depend on x only, so dc_T/dc_1 = diag(f_2 ... f_T) exactly."""
    model = _model("lstm", seed=2)
    with torch.no_grad():
        model.rnn.weight_hh_l0.zero_()
        model.rnn.bias_ih_l0[5:10] += 3.0  # a large forget bias: f close to 1
    ids = torch.randint(0, 7, (3, 12), generator=torch.Generator().manual_seed(3))
    targets = torch.tensor([2, 0, 1])
    got = state_gradients(model, ids, targets)
    assert torch.all(got["h"] == 0)
    cell = LSTMCell(4, 5, dtype=torch.float64)
    load_fused_weights(cell, model.rnn)
    x = model.embedding(ids).detach()
    state, forget = None, torch.ones(3, 5, dtype=torch.float64)
    for t in range(ids.shape[1]):
        parts = cell.gates(x[:, t], state)
        if t > 0:
            forget = forget * parts["f"]
        state = (parts["h"], parts["c"])
    h_T = state[0].detach().requires_grad_(True)
    (dL_dh,) = torch.autograd.grad(F.cross_entropy(model.output(h_T), targets, reduction="sum"), h_T)
    expected = dL_dh * parts["o"] * (1 - torch.tanh(parts["c"]) ** 2) * forget
    assert torch.allclose(got["c"], expected.detach(), atol=ATOL, rtol=0)
    assert forget.min() > 0.1  # the forget bias keeps the product away from zero over 11 steps


def test_lstm_with_small_recurrent_weights_is_close_to_forget_product():
    model = _model("lstm", seed=4)
    with torch.no_grad():
        model.rnn.weight_hh_l0.mul_(0.01)
        model.rnn.bias_ih_l0[5:10] += 4.0
    ids = torch.randint(0, 7, (2, 10), generator=torch.Generator().manual_seed(5))
    out = run_cell(_loaded_cell(model), model.embedding(ids).detach())
    assert out[0].shape == (2, 10, 5)
    norms = state_gradient_norms(model, ids, torch.tensor([0, 1]))
    assert norms["c"] > 10 * norms["h"]


def _loaded_cell(model):
    cell = LSTMCell(4, 5, dtype=torch.float64)
    load_fused_weights(cell, model.rnn)
    return cell


def test_vanilla_rnn_gradient_vanishes_with_length():
    model = _model("rnn", seed=6, hidden=8)
    with torch.no_grad():
        model.rnn.weight_hh_l0.mul_(0.5)
    task = RecallTask(3, 3)
    result = gradient_norms_vs_length(
        model, lambda T: recall_batch(task, 16, T, torch.Generator().manual_seed(0)), [2, 5, 10, 20])
    assert result["T"] == [2, 5, 10, 20] and "c" not in result
    h = result["h"]
    assert all(a > b for a, b in zip(h, h[1:]))
    assert h[-1] < 1e-3 * h[0]
    assert all(math.isfinite(v) for v in h)


def test_lstm_norms_include_cell_and_model_mode_is_restored():
    model = _model("lstm").train()
    task = RecallTask(3, 3)
    result = gradient_norms_vs_length(
        model, lambda T: recall_batch(task, 8, T, torch.Generator().manual_seed(0)), [3, 6])
    assert set(result) == {"T", "h", "c"} and len(result["c"]) == 2
    assert model.training


def test_errors_have_clear_messages():
    model = _model("gru")
    with pytest.raises(ConfigError, match=r"ids of shape \(B, T\) with T >= 2, got \(2, 1\)"):
        state_gradients(model, torch.zeros(2, 1, dtype=torch.long), torch.zeros(2, dtype=torch.long))
    model.rnn = torch.nn.GRU(4, 5, num_layers=2, batch_first=True).double()
    with pytest.raises(ConfigError, match="single-layer"):
        state_gradients(model, torch.zeros(2, 3, dtype=torch.long), torch.zeros(2, dtype=torch.long))


def test_logit_objective_differentiates_the_target_logit():
    model = _model("rnn", seed=7)
    ids = torch.randint(0, 7, (3, 6), generator=torch.Generator().manual_seed(8))
    targets = torch.tensor([1, 0, 2])
    got = state_gradients(model, ids, targets, objective="logit")["h"]
    h1, h = _readable_rnn_unroll(model, ids)
    (expected,) = torch.autograd.grad(model.output(h).gather(1, targets[:, None]).sum(), h1)
    assert torch.allclose(got, expected, atol=ATOL, rtol=0)
    loss_grad = state_gradients(model, ids, targets)["h"]
    assert not torch.allclose(got, loss_grad)
    with pytest.raises(ConfigError, match="objective must be 'loss' or 'logit', got 'margin'"):
        state_gradients(model, ids, targets, objective="margin")
