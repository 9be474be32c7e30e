"""The vanilla (Elman, tanh) recurrent network, written from its two equations.

.. math::

    h_t = \\tanh(W_{hh} h_{t-1} + W_{xh} x_t + b_h), \\qquad y_t = W_{hy} h_t + b_y

- :class:`RNNCell` is one step of the recurrence on a batch;
- :class:`RNNLayer` unrolls it over time with a Python loop, :class:`DeepRNN` stacks layers
  (layer ``l`` reads the hidden states of layer ``l-1``);
- :class:`OneHotRNNLM` is the smallest complete character language model: one-hot inputs, one
  recurrent layer, a linear read-out (chapter 1 fits it to the single word "cocoa");
- :func:`train_full_batch` fits such a toy model to one short string, full batch;
- :func:`per_step_recurrent_gradients` splits the gradient on the shared ``W_hh`` into the part
  each time step contributes (back-propagation through time sums them).

The readable cells exist to explain and to verify: :func:`load_fused_rnn` copies the weights of
a fused ``torch.nn.RNN`` into them (``b_h = b_ih + b_hh``), and the tests check both agree.
Real training uses the fused modules (see :mod:`companion.models.charlm`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import torch
from torch import nn
from torch.func import functional_call
from torch.nn import functional as F

from companion.errors import ConfigError


def _check_positive(name: str, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ConfigError(f"{name} must be a positive int, got {value!r}")


class RNNCell(nn.Module):
    """One step ``h_t = tanh(W_hh h_{t-1} + W_xh x_t + b_h)``.

    Parameters ``W_xh`` ``(H, D)``, ``W_hh`` ``(H, H)``, ``b_h`` ``(H,)``, initialised
    uniformly in ``[-1/sqrt(H), 1/sqrt(H)]`` as ``torch.nn.RNN`` does.
    ``forward(x (B, D), h_prev (B, H) | None) -> h (B, H)``.
    """

    def __init__(self, input_size: int, hidden_size: int, dtype: torch.dtype = torch.float32):
        super().__init__()
        _check_positive("input_size", input_size)
        _check_positive("hidden_size", hidden_size)
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.W_xh = nn.Parameter(torch.empty(hidden_size, input_size, dtype=dtype))
        self.W_hh = nn.Parameter(torch.empty(hidden_size, hidden_size, dtype=dtype))
        self.b_h = nn.Parameter(torch.empty(hidden_size, dtype=dtype))
        bound = 1.0 / math.sqrt(hidden_size)
        for param in self.parameters():
            nn.init.uniform_(param, -bound, bound)

    def initial_state(self, batch_size: int) -> torch.Tensor:
        return torch.zeros(batch_size, self.hidden_size, dtype=self.W_xh.dtype,
                           device=self.W_xh.device)

    def forward(self, x: torch.Tensor, h_prev: torch.Tensor | None = None) -> torch.Tensor:
        if h_prev is None:
            h_prev = self.initial_state(x.shape[0])
        return torch.tanh(h_prev @ self.W_hh.T + x @ self.W_xh.T + self.b_h)


class RNNLayer(nn.Module):
    """An :class:`RNNCell` unrolled over time.

    ``forward(x (B, T, D), h0 (B, H) | None) -> (outputs (B, T, H), h_T (B, H))``.
    """

    def __init__(self, input_size: int, hidden_size: int, dtype: torch.dtype = torch.float32):
        super().__init__()
        self.cell = RNNCell(input_size, hidden_size, dtype=dtype)

    def forward(self, x: torch.Tensor, h0: torch.Tensor | None = None):
        if x.dim() != 3:
            raise ConfigError(f"RNNLayer expects x of shape (B, T, D), got {tuple(x.shape)}")
        h = h0
        outputs = []
        for t in range(x.shape[1]):
            h = self.cell(x[:, t], h)
            outputs.append(h)
        return torch.stack(outputs, dim=1), h


class DeepRNN(nn.Module):
    """``num_layers`` stacked :class:`RNNLayer` s, each with its own weights.

    ``forward(x (B, T, D), h0 (L, B, H) | None) -> (outputs (B, T, H), h_T (L, B, H))``:
    the same shapes as a batch-first ``torch.nn.RNN``.
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int,
                 dtype: torch.dtype = torch.float32):
        super().__init__()
        _check_positive("num_layers", num_layers)
        self.layers = nn.ModuleList(
            RNNLayer(input_size if layer == 0 else hidden_size, hidden_size, dtype=dtype)
            for layer in range(num_layers)
        )

    def forward(self, x: torch.Tensor, h0: torch.Tensor | None = None):
        finals = []
        for index, layer in enumerate(self.layers):
            x, h = layer(x, None if h0 is None else h0[index])
            finals.append(h)
        return x, torch.stack(finals)


def load_fused_rnn(model: RNNCell | RNNLayer | DeepRNN, fused: nn.RNN) -> None:
    """Copy a unidirectional tanh ``torch.nn.RNN`` with biases into readable cells.

    torch keeps two biases per layer; the recurrence only sees their sum, so
    ``b_h = b_ih + b_hh``.
    """
    if not isinstance(fused, nn.RNN) or fused.nonlinearity != "tanh":
        raise ConfigError("load_fused_rnn needs a torch.nn.RNN with nonlinearity='tanh'")
    if fused.bidirectional or not fused.bias:
        raise ConfigError("load_fused_rnn supports unidirectional torch.nn.RNN with bias")
    if isinstance(model, RNNCell):
        cells = [model]
    elif isinstance(model, RNNLayer):
        cells = [model.cell]
    else:
        cells = [layer.cell for layer in model.layers]
    if len(cells) != fused.num_layers:
        raise ConfigError(
            f"load_fused_rnn: {len(cells)} layers here, {fused.num_layers} in the fused module"
        )
    with torch.no_grad():
        for layer, cell in enumerate(cells):
            w_ih = getattr(fused, f"weight_ih_l{layer}")
            if w_ih.shape != cell.W_xh.shape:
                raise ConfigError(
                    f"load_fused_rnn: layer {layer} weight_ih shape {tuple(w_ih.shape)} "
                    f"!= W_xh {tuple(cell.W_xh.shape)}"
                )
            cell.W_xh.copy_(w_ih)
            cell.W_hh.copy_(getattr(fused, f"weight_hh_l{layer}"))
            cell.b_h.copy_(getattr(fused, f"bias_ih_l{layer}") + getattr(fused, f"bias_hh_l{layer}"))


class OneHotRNNLM(nn.Module):
    """The smallest character LM: one-hot ``x_t``, one tanh layer, ``y_t = W_hy h_t + b_y``.

    ``forward(ids (B, T)) -> logits (B, T, V)``; ``hidden_states(ids)`` returns the ``h_t``
    ``(B, T, H)`` as well. Built this way (no embedding table) so that every weight is one of
    the notes' matrices: ``rnn.cell.W_xh`` ``(H, V)``, ``rnn.cell.W_hh`` ``(H, H)``,
    ``W_hy`` ``(V, H)``.
    """

    def __init__(self, vocab_size: int, hidden_size: int, dtype: torch.dtype = torch.float32):
        super().__init__()
        _check_positive("vocab_size", vocab_size)
        self.vocab_size = vocab_size
        self.rnn = RNNLayer(vocab_size, hidden_size, dtype=dtype)
        self.W_hy = nn.Parameter(torch.empty(vocab_size, hidden_size, dtype=dtype))
        self.b_y = nn.Parameter(torch.zeros(vocab_size, dtype=dtype))
        bound = 1.0 / math.sqrt(hidden_size)
        nn.init.uniform_(self.W_hy, -bound, bound)

    def one_hot(self, ids: torch.Tensor) -> torch.Tensor:
        """``ids`` ``(B, T)`` -> one-hot ``(B, T, V)`` in the model's dtype."""
        if ids.dim() != 2:
            raise ConfigError(f"OneHotRNNLM expects ids of shape (B, T), got {tuple(ids.shape)}")
        if ids.numel() and (int(ids.min()) < 0 or int(ids.max()) >= self.vocab_size):
            raise ConfigError(f"OneHotRNNLM: ids must lie in [0, {self.vocab_size}), "
                              f"got {int(ids.min())}..{int(ids.max())}")
        return F.one_hot(ids, self.vocab_size).to(self.W_hy.dtype)

    def hidden_states(self, ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``ids`` ``(B, T)`` -> ``(h (B, T, H), logits (B, T, V))``."""
        h, _ = self.rnn(self.one_hot(ids))
        return h, h @ self.W_hy.T + self.b_y

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.hidden_states(ids)[1]


def per_step_recurrent_gradients(model: OneHotRNNLM, inputs: torch.Tensor,
                                  targets: torch.Tensor) -> torch.Tensor:
    """What each time step contributes to the gradient of the mean loss on the shared ``W_hh``.

    The recurrence uses one ``W_hh`` at every step. Here the model is run with a separate copy of
    it at each step ``t`` (the same values, so the same outputs), and autograd gives the gradient
    on every copy: ``contributions[t]`` is the part of ``dL/dW_hh`` that flows through step ``t``.
    Back-propagation through time adds them up: their sum is the gradient of the shared matrix.
    The copy of step 1 multiplies ``h_0 = 0`` and gets a zero gradient.

    ``inputs``, ``targets`` ``(B, T)`` character ids; returns ``(T, H, H)``. The model's own
    parameters are not touched (no ``.grad`` is written).
    """
    if inputs.dim() != 2 or inputs.shape != targets.shape:
        raise ConfigError(f"per_step_recurrent_gradients: inputs and targets must both be (B, T), "
                          f"got {tuple(inputs.shape)} and {tuple(targets.shape)}")
    cell = model.rnn.cell
    x = model.one_hot(inputs)
    copies = [cell.W_hh.detach().clone().requires_grad_(True) for _ in range(x.shape[1])]
    h, states = None, []
    for t, W_hh in enumerate(copies):
        h = functional_call(cell, {"W_hh": W_hh}, (x[:, t], h))
        states.append(h)
    logits = torch.stack(states, dim=1) @ model.W_hy.T + model.b_y
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
    return torch.stack(torch.autograd.grad(loss, copies))


def encode_chars(text: str, alphabet: Sequence[str]) -> torch.Tensor:
    """Characters of ``text`` -> their positions in ``alphabet``, as a ``(len(text),)`` tensor."""
    index = {ch: i for i, ch in enumerate(alphabet)}
    missing = sorted(set(text) - set(index))
    if missing:
        raise ConfigError(f"encode_chars: characters {missing} are not in the alphabet {list(alphabet)}")
    return torch.tensor([index[ch] for ch in text], dtype=torch.long)


def train_full_batch(model: nn.Module, inputs: torch.Tensor, targets: torch.Tensor, *,
                     steps: int, lr: float, log_every: int = 0) -> list[tuple[int, float]]:
    """Fit ``model`` (``ids (B, T) -> logits (B, T, V)``) to one fixed batch with Adam.

    Loss: the mean softmax cross-entropy over the ``B*T`` targets. Returns the loss before the
    first step and then every ``log_every`` steps (and after the last) as ``(step, loss)``.
    """
    _check_positive("steps", steps)
    if not lr > 0:
        raise ConfigError(f"lr must be positive, got {lr!r}")
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def loss_now() -> torch.Tensor:
        logits = model(inputs)
        return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))

    history = []
    for step in range(steps):
        optimizer.zero_grad()
        loss = loss_now()
        if step == 0 or (log_every and step % log_every == 0):
            history.append((step, loss.item()))
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        history.append((steps, loss_now().item()))
    return history
