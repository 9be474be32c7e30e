"""Long short-term memory cells, written from the equations.

Three readable cells, each one step ``(x_t, state_{t-1}) -> state_t`` on a batch:

- :class:`PeepholeLSTMCell` -- Graves (2013), eqs. 7-11, with diagonal peephole weights
  (the formulation Sutskever et al. say they used);
- :class:`LSTMCell` -- the plain LSTM without peepholes, in the parameter layout of
  ``torch.nn.LSTM`` so that both can be checked against each other;
- :class:`GRUCell` -- the gated recurrent unit of Cho et al. (2014), in the layout of
  ``torch.nn.GRU``.

:func:`run_cell` unrolls any of them over a batch-first sequence ``(B, T, D)``, and
:class:`DeepLSTM` stacks readable cells into layers. Training elsewhere in the package uses the
fused ``torch.nn.LSTM`` / ``torch.nn.GRU`` (cuDNN on a GPU); these cells exist to explain the
equations and to verify the fused modules, and :func:`load_fused_weights` copies a fused
module's weights into them.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from companion.errors import ConfigError

State = tuple[torch.Tensor, torch.Tensor]


def _check_sizes(input_size: int, hidden_size: int) -> None:
    if not isinstance(input_size, int) or input_size < 1:
        raise ConfigError(f"input_size must be a positive int, got {input_size!r}")
    if not isinstance(hidden_size, int) or hidden_size < 1:
        raise ConfigError(f"hidden_size must be a positive int, got {hidden_size!r}")


class PeepholeLSTMCell(nn.Module):
    r"""One step of the Graves (2013) LSTM, eqs. 7-11, diagonal peepholes.

    .. math::

        i_t &= \sigma(W_{xi} x_t + W_{hi} h_{t-1} + w_{ci} \odot c_{t-1} + b_i) \\
        f_t &= \sigma(W_{xf} x_t + W_{hf} h_{t-1} + w_{cf} \odot c_{t-1} + b_f) \\
        c_t &= f_t \odot c_{t-1} + i_t \odot \tanh(W_{xc} x_t + W_{hc} h_{t-1} + b_c) \\
        o_t &= \sigma(W_{xo} x_t + W_{ho} h_{t-1} + w_{co} \odot c_t + b_o) \\
        h_t &= o_t \odot \tanh(c_t)

    The peephole matrices of the paper are diagonal, so each is stored as its diagonal
    ``w_c*`` of shape ``(H,)``. The input and forget gates look at the previous cell
    ``c_{t-1}``; the output gate looks at the new cell ``c_t`` (eq. 10).

    Parameters: ``W_x*`` ``(H, D)``, ``W_h*`` ``(H, H)``, ``w_c*`` ``(H,)``, ``b_*`` ``(H,)``.
    Initialisation: uniform in ``[-1/sqrt(H), 1/sqrt(H)]`` like ``torch.nn.LSTM``.
    """

    def __init__(self, input_size: int, hidden_size: int, dtype: torch.dtype = torch.float32):
        super().__init__()
        _check_sizes(input_size, hidden_size)
        self.input_size = input_size
        self.hidden_size = hidden_size
        H, D = hidden_size, input_size

        def p(*shape: int) -> nn.Parameter:
            return nn.Parameter(torch.empty(*shape, dtype=dtype))

        # input gate (eq. 7)
        self.W_xi, self.W_hi, self.w_ci, self.b_i = p(H, D), p(H, H), p(H), p(H)
        # forget gate (eq. 8)
        self.W_xf, self.W_hf, self.w_cf, self.b_f = p(H, D), p(H, H), p(H), p(H)
        # cell candidate (eq. 9)
        self.W_xc, self.W_hc, self.b_c = p(H, D), p(H, H), p(H)
        # output gate (eq. 10)
        self.W_xo, self.W_ho, self.w_co, self.b_o = p(H, D), p(H, H), p(H), p(H)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        bound = 1.0 / math.sqrt(self.hidden_size)
        for param in self.parameters():
            nn.init.uniform_(param, -bound, bound)

    def initial_state(self, batch_size: int) -> State:
        """Zero ``(h, c)``, each ``(B, H)``."""
        zeros = torch.zeros(batch_size, self.hidden_size, dtype=self.W_xi.dtype,
                            device=self.W_xi.device)
        return zeros, zeros.clone()

    def gates(self, x: torch.Tensor, state: State | None = None) -> dict[str, torch.Tensor]:
        """All intermediate values of one step: ``i, f, g, c, o, h``, each ``(B, H)``."""
        h_prev, c_prev = self.initial_state(x.shape[0]) if state is None else state
        i = torch.sigmoid(x @ self.W_xi.T + h_prev @ self.W_hi.T + self.w_ci * c_prev + self.b_i)
        f = torch.sigmoid(x @ self.W_xf.T + h_prev @ self.W_hf.T + self.w_cf * c_prev + self.b_f)
        g = torch.tanh(x @ self.W_xc.T + h_prev @ self.W_hc.T + self.b_c)
        c = f * c_prev + i * g
        o = torch.sigmoid(x @ self.W_xo.T + h_prev @ self.W_ho.T + self.w_co * c + self.b_o)
        h = o * torch.tanh(c)
        return {"i": i, "f": f, "g": g, "c": c, "o": o, "h": h}

    def forward(self, x: torch.Tensor, state: State | None = None) -> State:
        """``x`` ``(B, D)``, ``state`` = ``(h, c)`` each ``(B, H)`` or None (zeros) -> ``(h, c)``."""
        out = self.gates(x, state)
        return out["h"], out["c"]


class LSTMCell(nn.Module):
    r"""The plain LSTM step (no peepholes), in ``torch.nn.LSTM``'s parameter layout.

    .. math::

        i_t = \sigma(W_{ii} x_t + b_{ii} + W_{hi} h_{t-1} + b_{hi}),\quad
        f_t = \sigma(\dots),\quad g_t = \tanh(\dots),\quad o_t = \sigma(\dots) \\
        c_t = f_t \odot c_{t-1} + i_t \odot g_t,\qquad h_t = o_t \odot \tanh(c_t)

    ``weight_ih`` ``(4H, D)`` and ``weight_hh`` ``(4H, H)`` hold the four gates stacked in
    the order ``i, f, g, o`` (torch's order); ``bias_ih``, ``bias_hh`` ``(4H,)``.
    ``forget_bias`` is added to the forget-gate part of ``bias_ih`` at initialisation
    (Gers et al. 2000 recommend a positive value so that the cell remembers by default).
    """

    def __init__(self, input_size: int, hidden_size: int, forget_bias: float = 0.0,
                 dtype: torch.dtype = torch.float32):
        super().__init__()
        _check_sizes(input_size, hidden_size)
        self.input_size = input_size
        self.hidden_size = hidden_size
        H = hidden_size
        self.weight_ih = nn.Parameter(torch.empty(4 * H, input_size, dtype=dtype))
        self.weight_hh = nn.Parameter(torch.empty(4 * H, H, dtype=dtype))
        self.bias_ih = nn.Parameter(torch.empty(4 * H, dtype=dtype))
        self.bias_hh = nn.Parameter(torch.empty(4 * H, dtype=dtype))
        bound = 1.0 / math.sqrt(H)
        for param in self.parameters():
            nn.init.uniform_(param, -bound, bound)
        with torch.no_grad():
            self.bias_ih[H:2 * H] += forget_bias

    def initial_state(self, batch_size: int) -> State:
        zeros = torch.zeros(batch_size, self.hidden_size, dtype=self.weight_ih.dtype,
                            device=self.weight_ih.device)
        return zeros, zeros.clone()

    def gates(self, x: torch.Tensor, state: State | None = None) -> dict[str, torch.Tensor]:
        """All intermediate values of one step: ``i, f, g, c, o, h``, each ``(B, H)``."""
        h_prev, c_prev = self.initial_state(x.shape[0]) if state is None else state
        z = x @ self.weight_ih.T + self.bias_ih + h_prev @ self.weight_hh.T + self.bias_hh
        zi, zf, zg, zo = z.chunk(4, dim=-1)
        i, f, g, o = torch.sigmoid(zi), torch.sigmoid(zf), torch.tanh(zg), torch.sigmoid(zo)
        c = f * c_prev + i * g
        h = o * torch.tanh(c)
        return {"i": i, "f": f, "g": g, "c": c, "o": o, "h": h}

    def forward(self, x: torch.Tensor, state: State | None = None) -> State:
        """``x`` ``(B, D)``, ``state`` = ``(h, c)`` each ``(B, H)`` or None -> ``(h, c)``."""
        out = self.gates(x, state)
        return out["h"], out["c"]


class GRUCell(nn.Module):
    r"""The gated recurrent unit (Cho et al. 2014), in ``torch.nn.GRU``'s layout.

    .. math::

        r_t &= \sigma(W_{ir} x_t + b_{ir} + W_{hr} h_{t-1} + b_{hr}) \\
        z_t &= \sigma(W_{iz} x_t + b_{iz} + W_{hz} h_{t-1} + b_{hz}) \\
        n_t &= \tanh(W_{in} x_t + b_{in} + r_t \odot (W_{hn} h_{t-1} + b_{hn})) \\
        h_t &= (1 - z_t) \odot n_t + z_t \odot h_{t-1}

    ``z_t`` is the update gate: near 1 it copies the old state through, the GRU's analogue
    of the LSTM's forget gate. Gates are stacked ``r, z, n`` in ``weight_ih`` ``(3H, D)`` and
    ``weight_hh`` ``(3H, H)``.
    """

    def __init__(self, input_size: int, hidden_size: int, dtype: torch.dtype = torch.float32):
        super().__init__()
        _check_sizes(input_size, hidden_size)
        self.input_size = input_size
        self.hidden_size = hidden_size
        H = hidden_size
        self.weight_ih = nn.Parameter(torch.empty(3 * H, input_size, dtype=dtype))
        self.weight_hh = nn.Parameter(torch.empty(3 * H, H, dtype=dtype))
        self.bias_ih = nn.Parameter(torch.empty(3 * H, dtype=dtype))
        self.bias_hh = nn.Parameter(torch.empty(3 * H, dtype=dtype))
        bound = 1.0 / math.sqrt(H)
        for param in self.parameters():
            nn.init.uniform_(param, -bound, bound)

    def initial_state(self, batch_size: int) -> torch.Tensor:
        return torch.zeros(batch_size, self.hidden_size, dtype=self.weight_ih.dtype,
                           device=self.weight_ih.device)

    def forward(self, x: torch.Tensor, h_prev: torch.Tensor | None = None) -> torch.Tensor:
        """``x`` ``(B, D)``, ``h_prev`` ``(B, H)`` or None -> ``h`` ``(B, H)``."""
        if h_prev is None:
            h_prev = self.initial_state(x.shape[0])
        xi = x @ self.weight_ih.T + self.bias_ih
        hh = h_prev @ self.weight_hh.T + self.bias_hh
        xr, xz, xn = xi.chunk(3, dim=-1)
        hr, hz, hn = hh.chunk(3, dim=-1)
        r = torch.sigmoid(xr + hr)
        z = torch.sigmoid(xz + hz)
        n = torch.tanh(xn + r * hn)
        return (1 - z) * n + z * h_prev


def run_cell(cell: nn.Module, x: torch.Tensor, state=None):
    """Unroll a readable cell over time with a Python loop.

    ``x`` ``(B, T, D)`` -> ``(outputs (B, T, H), final_state)``; the state is ``(h, c)`` for
    the LSTM cells and ``h`` for the GRU and the vanilla RNN cell.
    """
    if x.dim() != 3:
        raise ConfigError(f"run_cell expects x of shape (B, T, D), got {tuple(x.shape)}")
    outputs = []
    for t in range(x.shape[1]):
        state = cell(x[:, t], state)
        outputs.append(state[0] if isinstance(state, tuple) else state)
    return torch.stack(outputs, dim=1), state


class DeepLSTM(nn.Module):
    """A stack of readable LSTM cells: layer ``l`` reads layer ``l-1``'s hidden states.

    ``cell`` is ``"lstm"`` (plain, :class:`LSTMCell`) or ``"peephole"``
    (:class:`PeepholeLSTMCell`). ``forward(x (B, T, D), states) -> (outputs (B, T, H),
    [(h, c)] per layer)``.
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int, cell: str = "lstm",
                 dtype: torch.dtype = torch.float32):
        super().__init__()
        if cell not in ("lstm", "peephole"):
            raise ConfigError(f"DeepLSTM cell must be 'lstm' or 'peephole', got {cell!r}")
        if not isinstance(num_layers, int) or num_layers < 1:
            raise ConfigError(f"num_layers must be a positive int, got {num_layers!r}")
        make = LSTMCell if cell == "lstm" else PeepholeLSTMCell
        self.layers = nn.ModuleList(
            make(input_size if layer == 0 else hidden_size, hidden_size, dtype=dtype)
            for layer in range(num_layers)
        )

    def forward(self, x: torch.Tensor, states: list[State] | None = None):
        finals = []
        for index, layer in enumerate(self.layers):
            x, final = run_cell(layer, x, None if states is None else states[index])
            finals.append(final)
        return x, finals


def load_fused_weights(cells: nn.Module | list[nn.Module], fused: nn.RNNBase) -> None:
    """Copy the weights of a fused ``nn.RNN``/``nn.LSTM``/``nn.GRU`` into readable cells.

    ``cells`` is one cell (single-layer ``fused``) or a sequence of cells, one per layer. Only
    unidirectional modules with biases are supported.
    """
    if isinstance(cells, nn.Module) and not isinstance(cells, (nn.ModuleList, list)):
        cells = [cells]
    cells = list(cells)
    if fused.bidirectional or not fused.bias:
        raise ConfigError("load_fused_weights supports unidirectional fused modules with bias")
    if len(cells) != fused.num_layers:
        raise ConfigError(
            f"load_fused_weights: {len(cells)} cells for a fused module of {fused.num_layers} layers"
        )
    with torch.no_grad():
        for layer, cell in enumerate(cells):
            for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
                source = getattr(fused, f"{name}_l{layer}")
                target = getattr(cell, name)
                if source.shape != target.shape:
                    raise ConfigError(
                        f"load_fused_weights: layer {layer} {name} shape {tuple(source.shape)} "
                        f"!= cell {tuple(target.shape)}"
                    )
                target.copy_(source)
