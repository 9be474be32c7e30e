"""Vanilla RNN from its equations: equality with torch.nn.RNN, the toy LM, errors."""

import math

import pytest
import torch
from torch import nn

from companion.errors import ConfigError
from companion.models.rnn import (
    DeepRNN,
    OneHotRNNLM,
    RNNCell,
    RNNLayer,
    encode_chars,
    load_fused_rnn,
    train_full_batch,
)

ATOL = 1e-10


def test_cell_is_the_recurrence():
    torch.manual_seed(0)
    cell = RNNCell(3, 4, dtype=torch.float64)
    x, h = torch.randn(2, 3, dtype=torch.float64), torch.randn(2, 4, dtype=torch.float64)
    expected = torch.tanh(h @ cell.W_hh.T + x @ cell.W_xh.T + cell.b_h)
    assert torch.allclose(cell(x, h), expected, atol=ATOL, rtol=0)
    assert torch.allclose(cell(x), torch.tanh(x @ cell.W_xh.T + cell.b_h), atol=ATOL, rtol=0)


@pytest.mark.parametrize("num_layers", [1, 3])
def test_deep_rnn_equals_torch_rnn(num_layers):
    torch.manual_seed(1)
    fused = nn.RNN(5, 4, num_layers=num_layers, batch_first=True, dtype=torch.float64)
    deep = DeepRNN(5, 4, num_layers, dtype=torch.float64)
    load_fused_rnn(deep, fused)
    x = torch.randn(3, 7, 5, dtype=torch.float64)
    h0 = torch.randn(num_layers, 3, 4, dtype=torch.float64)
    ref, ref_h = fused(x, h0)
    out, h = deep(x, h0)
    assert out.shape == ref.shape and h.shape == ref_h.shape
    assert torch.allclose(out, ref, atol=ATOL, rtol=0)
    assert torch.allclose(h, ref_h, atol=ATOL, rtol=0)


def test_layer_and_cell_load_from_single_layer_rnn():
    torch.manual_seed(2)
    fused = nn.RNN(2, 3, batch_first=True, dtype=torch.float64)
    layer = RNNLayer(2, 3, dtype=torch.float64)
    load_fused_rnn(layer, fused)
    x = torch.randn(4, 6, 2, dtype=torch.float64)
    assert torch.allclose(layer(x)[0], fused(x)[0], atol=ATOL, rtol=0)
    cell = RNNCell(2, 3, dtype=torch.float64)
    load_fused_rnn(cell, fused)
    assert torch.allclose(cell(x[:, 0]), fused(x[:, :1])[0][:, 0], atol=ATOL, rtol=0)


def test_one_hot_lm_shapes_and_logits():
    torch.manual_seed(3)
    model = OneHotRNNLM(4, 3, dtype=torch.float64)
    ids = encode_chars("hell", "helo")[None]
    h, logits = model.hidden_states(ids)
    assert h.shape == (1, 4, 3) and logits.shape == (1, 4, 4)
    assert torch.allclose(logits, h @ model.W_hy.T + model.b_y, atol=ATOL, rtol=0)
    # one-hot input selects a column of W_xh: h_1 = tanh(W_xh[:, id('h')] + b_h)
    expected_h1 = torch.tanh(model.rnn.cell.W_xh[:, 0] + model.rnn.cell.b_h)
    assert torch.allclose(h[0, 0], expected_h1, atol=ATOL, rtol=0)


def test_one_word_is_learned():
    """Chapter 1's word: the two o's of "cocoa" follow the same letter c, yet one must predict c
    and the other a, so the state has to carry more than the last input."""
    torch.manual_seed(0)
    model = OneHotRNNLM(3, 3, dtype=torch.float64)
    ids = encode_chars("cocoa", "coa")
    x, y = ids[:-1][None], ids[1:][None]
    history = train_full_batch(model, x, y, steps=150, lr=0.05, log_every=50)
    assert [step for step, _ in history] == [0, 50, 100, 150]
    assert history[-1][1] < 0.05 < history[0][1]
    assert "".join("coa"[i] for i in model(x).argmax(-1)[0]) == "ocoa"
    h, _ = model.hidden_states(x)
    assert (h[0, 1] - h[0, 3]).norm() > 0.5   # the two o's: different states


def test_one_word_cannot_be_learned_without_the_recurrence():
    """With W_hh fixed at zero both o's of "cocoa" get one prediction: the loss stays above
    ln(2)/2, the floor chapter 1's first exercise derives."""
    torch.manual_seed(0)
    model = OneHotRNNLM(3, 3, dtype=torch.float64)
    with torch.no_grad():
        model.rnn.cell.W_hh.zero_()
    model.rnn.cell.W_hh.requires_grad_(False)
    ids = encode_chars("cocoa", "coa")
    x, y = ids[:-1][None], ids[1:][None]
    history = train_full_batch(model, x, y, steps=200, lr=0.05)
    assert math.log(2) / 2 - 1e-12 <= history[-1][1] < math.log(2) / 2 + 0.01
    probs = torch.softmax(model(x)[0], dim=-1)
    assert torch.allclose(probs[1], probs[3], atol=1e-12, rtol=0)


def test_training_is_deterministic():
    def run():
        torch.manual_seed(5)
        model = OneHotRNNLM(4, 3, dtype=torch.float64)
        ids = encode_chars("hello", "helo")
        return train_full_batch(model, ids[:-1][None], ids[1:][None], steps=20, lr=0.05)

    assert run() == run()


def test_errors_have_clear_messages():
    with pytest.raises(ConfigError, match="hidden_size must be a positive int, got 0"):
        RNNCell(2, 0)
    with pytest.raises(ConfigError, match="num_layers must be a positive int"):
        DeepRNN(2, 2, 0)
    with pytest.raises(ConfigError, match=r"expects x of shape \(B, T, D\)"):
        RNNLayer(2, 2)(torch.zeros(3, 2))
    with pytest.raises(ConfigError, match=r"characters \['x'\] are not in the alphabet"):
        encode_chars("hex", "helo")
    with pytest.raises(ConfigError, match=r"ids must lie in \[0, 4\)"):
        OneHotRNNLM(4, 3)(torch.tensor([[0, 4]]))
    with pytest.raises(ConfigError, match="nonlinearity='tanh'"):
        load_fused_rnn(RNNCell(2, 2), nn.RNN(2, 2, nonlinearity="relu"))
    with pytest.raises(ConfigError, match="unidirectional"):
        load_fused_rnn(RNNCell(2, 2), nn.RNN(2, 2, bidirectional=True))
    with pytest.raises(ConfigError, match="1 layers here, 2 in the fused module"):
        load_fused_rnn(RNNCell(2, 2), nn.RNN(2, 2, num_layers=2))
    with pytest.raises(ConfigError, match="weight_ih shape"):
        load_fused_rnn(RNNCell(3, 2), nn.RNN(2, 2))
    with pytest.raises(ConfigError, match="lr must be positive"):
        train_full_batch(OneHotRNNLM(4, 2), torch.zeros(1, 2, dtype=torch.long),
                         torch.zeros(1, 2, dtype=torch.long), steps=1, lr=0)


def test_per_step_gradients_sum_to_the_shared_gradient():
    """Back-propagation through time: the per-step parts add up to autograd's gradient on the
    shared W_hh, and step 1 (which multiplies h_0 = 0) contributes nothing."""
    from companion.models.rnn import per_step_recurrent_gradients

    torch.manual_seed(0)
    model = OneHotRNNLM(4, 3, dtype=torch.float64)
    ids = encode_chars("hello", "helo")
    inputs, targets = ids[:-1][None], ids[1:][None]
    parts = per_step_recurrent_gradients(model, inputs, targets)
    assert parts.shape == (4, 3, 3)
    assert torch.equal(parts[0], torch.zeros(3, 3, dtype=torch.float64))
    assert all(parts[t].abs().max() > 1e-6 for t in range(1, 4))
    logits = model(inputs)
    loss = torch.nn.functional.cross_entropy(logits.reshape(-1, 4), targets.reshape(-1))
    (shared,) = torch.autograd.grad(loss, [model.rnn.cell.W_hh])
    assert torch.allclose(parts.sum(0), shared, atol=1e-14, rtol=0)
    assert model.rnn.cell.W_hh.grad is None


def test_per_step_gradients_refuse_mismatched_shapes():
    from companion.models.rnn import per_step_recurrent_gradients

    model = OneHotRNNLM(4, 3)
    with pytest.raises(ConfigError, match="must both be"):
        per_step_recurrent_gradients(model, torch.zeros(1, 4, dtype=torch.long),
                                     torch.zeros(1, 3, dtype=torch.long))
