"""What one layer costs, counted: the three columns of Vaswani et al.'s Table 1 ("Why
self-attention") for a sequence of ``n`` positions of width ``d``.

The paper compares layer types by their order of growth: a self-attention layer does
O(n^2 d) work, a recurrent one O(n d^2), a convolution of width k O(k n d^2); the recurrent layer
needs O(n) operations in sequence where the others need O(1); and a signal between two
positions crosses O(1) layers of self-attention, O(n) recurrent steps, O(n / k) contiguous
convolutions. Here the same columns are exact counts for the layers this package builds, so the
orders can be set beside real widths and real sentence lengths:

- **multiply-adds** of one layer's forward pass over the sequence (matrix products only;
  biases, softmax and nonlinearities are lower-order);
- **sequential steps**: operations that must wait for one another (1 when all positions are
  computed at once);
- **maximum path**: the most layer-internal hops a signal from one position needs to reach
  another within one layer (for the convolution: within a stack of such layers).

>>> self_attention(10, 16).multiply_adds == 2 * 10 * 10 * 16 + 4 * 10 * 16 * 16
True
>>> lstm_crossover(128)
256
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from companion.errors import ConfigError


@dataclass(frozen=True)
class LayerCost:
    """One layer over a sequence of ``n`` positions of width ``d``."""

    kind: str
    multiply_adds: int
    sequential: int
    max_path: int


def _check(n: int, d: int) -> None:
    for name, value in (("n", n), ("d", d)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ConfigError(f"layer cost: {name} must be a positive integer, got {value!r}")


def self_attention(n: int, d: int) -> LayerCost:
    """Multi-head self-attention (any number of heads: the split into heads changes no count):
    the query, key, value and output projections, ``4 n d^2``, plus the scores ``Q K^T`` and the
    weighted sum of the values, ``n^2 d`` each. Every position is computed at once (1 sequential
    step) and every position reads every other directly (path 1)."""
    _check(n, d)
    return LayerCost("self-attention", 4 * n * d * d + 2 * n * n * d, 1, 1)


def recurrent(n: int, d: int, gates: int = 1, kind: str = "") -> LayerCost:
    """A recurrent layer with ``gates`` gate blocks (1: the simple RNN of chapter 1, 4: the
    LSTM, 3: the GRU), each multiplying the input and the previous state by a ``d x d`` matrix:
    ``2 gates n d^2``. Position ``t`` waits for ``t - 1`` (``n`` sequential steps), and the first
    position reaches the last through ``n - 1`` steps."""
    _check(n, d)
    if gates < 1:
        raise ConfigError(f"layer cost: gates must be at least 1, got {gates!r}")
    return LayerCost(kind or f"recurrent ({gates} gate block{'s' if gates > 1 else ''})",
                     2 * gates * n * d * d, n, max(n - 1, 0) or 1)


def convolution(n: int, d: int, k: int = 3) -> LayerCost:
    """A convolution of width ``k`` from ``d`` to ``d`` channels: ``k n d^2``; all positions at
    once; contiguous kernels need ``ceil((n - 1) / (k - 1))`` stacked layers to connect the first
    position with the last (the paper's O(n / k))."""
    _check(n, d)
    if k < 2:
        raise ConfigError(f"layer cost: a convolution needs a width k >= 2, got {k!r}")
    return LayerCost(f"convolution (k = {k})", k * n * d * d, 1, max(1, math.ceil((n - 1) / (k - 1))))


def lstm_crossover(d: int) -> int:
    """The length ``n`` at which a self-attention layer starts to cost more multiply-adds than an
    LSTM layer of the same width: ``4 n d^2 + 2 n^2 d > 8 n d^2`` exactly when ``n > 2 d``."""
    _check(1, d)
    return 2 * d
