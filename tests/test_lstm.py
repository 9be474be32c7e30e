"""Readable LSTM/GRU cells: hand computation (Graves eqs. 7-11) and equality with torch.nn."""

import math

import pytest
import torch
from torch import nn

from companion.errors import ConfigError
from companion.models.lstm import (
    DeepLSTM,
    GRUCell,
    LSTMCell,
    PeepholeLSTMCell,
    load_fused_weights,
    run_cell,
)

ATOL = 1e-10


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z))


def _hand_peephole_step(x, h, c, P):
    """Eqs. 7-11 by hand with Python floats; P maps parameter names to nested lists."""
    H = len(h)

    def pre(Wx, Wh, k):
        return (sum(Wx[k][j] * x[j] for j in range(len(x)))
                + sum(Wh[k][j] * h[j] for j in range(H)))

    i = [_sigmoid(pre(P["W_xi"], P["W_hi"], k) + P["w_ci"][k] * c[k] + P["b_i"][k]) for k in range(H)]
    f = [_sigmoid(pre(P["W_xf"], P["W_hf"], k) + P["w_cf"][k] * c[k] + P["b_f"][k]) for k in range(H)]
    g = [math.tanh(pre(P["W_xc"], P["W_hc"], k) + P["b_c"][k]) for k in range(H)]
    c_new = [f[k] * c[k] + i[k] * g[k] for k in range(H)]
    o = [_sigmoid(pre(P["W_xo"], P["W_ho"], k) + P["w_co"][k] * c_new[k] + P["b_o"][k])
         for k in range(H)]
    h_new = [o[k] * math.tanh(c_new[k]) for k in range(H)]
    return h_new, c_new


# The seed-000 toy encoder parameters (scale 1.0): two inputs, two hidden units.
TOY = {
    "W_xi": [[.40, -.10], [.20, .30]], "W_hi": [[.10, .20], [-.20, .10]],
    "W_xf": [[.30, .20], [-.10, .40]], "W_hf": [[.20, -.10], [.10, .20]],
    "W_xc": [[.50, -.30], [.20, .40]], "W_hc": [[.20, .10], [-.10, .30]],
    "W_xo": [[.30, .10], [.20, -.20]], "W_ho": [[.10, -.20], [.30, .10]],
    "w_ci": [.05, -.04], "w_cf": [.02, .03], "w_co": [.04, -.02],
    "b_i": [.10, -.05], "b_f": [.20, .15], "b_c": [.00, .05], "b_o": [.10, .00],
}


def _toy_cell() -> PeepholeLSTMCell:
    cell = PeepholeLSTMCell(2, 2, dtype=torch.float64)
    with torch.no_grad():
        for name, value in TOY.items():
            getattr(cell, name).copy_(torch.tensor(value, dtype=torch.float64))
    return cell


def test_peephole_parameter_names_and_shapes():
    cell = PeepholeLSTMCell(3, 5)
    shapes = {name: tuple(p.shape) for name, p in cell.named_parameters()}
    for gate in "ifco":
        assert shapes[f"W_x{gate}"] == (5, 3)
        assert shapes[f"W_h{gate}"] == (5, 5)
        assert shapes[f"b_{gate}"] == (5,)
    assert shapes["w_ci"] == shapes["w_cf"] == shapes["w_co"] == (5,)
    assert "w_cc" not in shapes and len(shapes) == 15
    assert cell.W_xi.dtype == torch.float32


def test_peephole_matches_hand_computation_over_three_steps():
    cell = _toy_cell()
    inputs = [[.40, -.20], [-.30, .50], [.10, .10]]
    h_hand, c_hand = [0.0, 0.0], [0.0, 0.0]
    state = None
    for x in inputs:
        h_hand, c_hand = _hand_peephole_step(x, h_hand, c_hand, TOY)
        state = cell(torch.tensor([x], dtype=torch.float64), state)
        assert torch.allclose(state[0][0], torch.tensor(h_hand, dtype=torch.float64), atol=ATOL, rtol=0)
        assert torch.allclose(state[1][0], torch.tensor(c_hand, dtype=torch.float64), atol=ATOL, rtol=0)


def test_output_gate_peeks_at_new_cell_not_old():
    cell = _toy_cell()
    x = torch.tensor([[0.3, -0.7]], dtype=torch.float64)
    state = (torch.tensor([[0.2, -0.1]], dtype=torch.float64),
             torch.tensor([[1.5, -2.0]], dtype=torch.float64))
    out = cell.gates(x, state)
    pre_o = x @ cell.W_xo.T + state[0] @ cell.W_ho.T + cell.b_o
    assert torch.allclose(out["o"], torch.sigmoid(pre_o + cell.w_co * out["c"]), atol=ATOL, rtol=0)
    assert not torch.allclose(out["o"], torch.sigmoid(pre_o + cell.w_co * state[1]), atol=1e-6)


def test_peephole_gradients_flow_to_every_parameter():
    torch.manual_seed(0)
    cell = PeepholeLSTMCell(3, 4, dtype=torch.float64)
    out, _ = run_cell(cell, torch.randn(2, 5, 3, dtype=torch.float64))
    out.sum().backward()
    for name, p in cell.named_parameters():
        assert p.grad is not None and p.grad.abs().sum() > 0, name


def test_peephole_gradcheck():
    torch.manual_seed(1)
    cell = PeepholeLSTMCell(2, 3, dtype=torch.float64)
    x = torch.randn(2, 2, dtype=torch.float64, requires_grad=True)
    c0 = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
    h0 = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a, b, c: torch.cat(cell(a, (b, c)), -1), (x, h0, c0))


@pytest.mark.parametrize("num_layers", [1, 2])
def test_lstm_cell_equals_torch_lstm(num_layers):
    torch.manual_seed(2)
    fused = nn.LSTM(3, 4, num_layers=num_layers, batch_first=True, dtype=torch.float64)
    deep = DeepLSTM(3, 4, num_layers, cell="lstm", dtype=torch.float64)
    load_fused_weights(deep.layers, fused)
    x = torch.randn(2, 6, 3, dtype=torch.float64)
    h0 = torch.randn(num_layers, 2, 4, dtype=torch.float64)
    c0 = torch.randn(num_layers, 2, 4, dtype=torch.float64)
    ref, (hn, cn) = fused(x, (h0, c0))
    out, finals = deep(x, [(h0[l], c0[l]) for l in range(num_layers)])
    assert torch.allclose(out, ref, atol=ATOL, rtol=0)
    for l in range(num_layers):
        assert torch.allclose(finals[l][0], hn[l], atol=ATOL, rtol=0)
        assert torch.allclose(finals[l][1], cn[l], atol=ATOL, rtol=0)


def test_gru_cell_equals_torch_gru():
    torch.manual_seed(3)
    fused = nn.GRU(3, 5, batch_first=True, dtype=torch.float64)
    cell = GRUCell(3, 5, dtype=torch.float64)
    load_fused_weights(cell, fused)
    x = torch.randn(4, 7, 3, dtype=torch.float64)
    h0 = torch.randn(1, 4, 5, dtype=torch.float64)
    ref, hn = fused(x, h0)
    out, h = run_cell(cell, x, h0[0])
    assert torch.allclose(out, ref, atol=ATOL, rtol=0)
    assert torch.allclose(h, hn[0], atol=ATOL, rtol=0)


def test_lstm_forget_bias_added_to_forget_gate_only():
    torch.manual_seed(4)
    a = LSTMCell(2, 3, forget_bias=0.0)
    torch.manual_seed(4)
    b = LSTMCell(2, 3, forget_bias=1.5)
    diff = b.bias_ih - a.bias_ih
    assert torch.allclose(diff[3:6], torch.full((3,), 1.5))
    assert torch.all(diff[:3] == 0) and torch.all(diff[6:] == 0)


def test_deep_peephole_stack_shapes():
    deep = DeepLSTM(3, 4, 3, cell="peephole")
    out, finals = deep(torch.zeros(2, 5, 3))
    assert out.shape == (2, 5, 4)
    assert len(finals) == 3 and finals[-1][0].shape == (2, 4)


def test_errors_have_clear_messages():
    with pytest.raises(ConfigError, match="hidden_size must be a positive int, got 0"):
        PeepholeLSTMCell(3, 0)
    with pytest.raises(ConfigError, match="input_size must be a positive int"):
        LSTMCell(-1, 2)
    with pytest.raises(ConfigError, match="cell must be 'lstm' or 'peephole', got 'gru'"):
        DeepLSTM(2, 2, 1, cell="gru")
    with pytest.raises(ConfigError, match="num_layers must be a positive int"):
        DeepLSTM(2, 2, 0)
    with pytest.raises(ConfigError, match=r"expects x of shape \(B, T, D\), got \(2, 3\)"):
        run_cell(LSTMCell(3, 2), torch.zeros(2, 3))
    with pytest.raises(ConfigError, match="2 cells for a fused module of 1 layers"):
        load_fused_weights([LSTMCell(2, 2), LSTMCell(2, 2)], nn.LSTM(2, 2))
    with pytest.raises(ConfigError, match="weight_ih shape"):
        load_fused_weights(GRUCell(2, 2), nn.LSTM(2, 2))
    with pytest.raises(ConfigError, match="unidirectional"):
        load_fused_weights(LSTMCell(2, 2), nn.LSTM(2, 2, bidirectional=True))
