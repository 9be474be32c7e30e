"""How much of a loss's gradient reaches the first time step.

Back-propagation through time multiplies one Jacobian per step. For the vanilla RNN each factor
is :math:`\\partial h_t / \\partial h_{t-1} = \\operatorname{diag}(\\tanh'(\\cdot)) W_{hh}`; along the
LSTM's cell state it is :math:`\\partial c_t / \\partial c_{t-1} = \\operatorname{diag}(f_t)` (plus
the paths through the gates). Two views of the same fact:

- :func:`product_table` / :func:`format_product_table`: the idealised picture, one scalar factor
  raised to the power ``T`` (e.g. 0.6^T, 0.95^T and 1.0^T side by side), and
  :func:`steps_to_shrink`, how many steps such a factor needs to shrink a signal to a fraction;
- :func:`state_gradients` / :func:`gradient_norms_vs_length`: the measured picture, the gradient
  of a loss at the last step with respect to the state after the first step,
  :math:`\\lVert \\partial L / \\partial h_1 \\rVert` (and :math:`\\lVert \\partial L / \\partial c_1
  \\rVert` for the LSTM), in a real network.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import torch
from torch import nn
from torch.nn import functional as F

from companion.errors import ConfigError


def product_table(factors: Sequence[float], steps: Sequence[int]) -> list[list[float]]:
    """``rows[i][j] = factors[j] ** steps[i]``: a per-step factor compounded over ``T`` steps."""
    return [[float(f) ** int(T) for f in factors] for T in steps]


def format_product_table(factors: Sequence[float], steps: Sequence[int],
                         labels: Sequence[str] | None = None) -> str:
    """:func:`product_table` as text: ``T`` then one column per factor, 6 significant digits
    (``%g``)."""
    if labels is None:
        labels = [f"{f:g}^T" for f in factors]
    if len(labels) != len(factors):
        raise ConfigError(f"format_product_table: {len(labels)} labels for {len(factors)} factors")
    widths = [max(len(label), 12) for label in labels]
    lines = [" | ".join([f"{'T':>4}"] + [f"{label:>{w}}" for label, w in zip(labels, widths)])]
    for T, row in zip(steps, product_table(factors, steps)):
        lines.append(" | ".join([f"{T:>4}"] + [f"{v:{w}.6g}" for v, w in zip(row, widths)]))
    return "\n".join(lines)


def steps_to_shrink(factor: float, fraction: float) -> float:
    """The number of steps ``T`` (real-valued) after which ``factor ** T == fraction``:
    ``log(fraction) / log(factor)``; ``inf`` for a factor of 1 or more, which never shrinks.
    ``factor`` and ``fraction`` must lie in ``(0, 1]`` and ``(0, 1)``."""
    if not 0.0 < factor:
        raise ConfigError(f"steps_to_shrink: factor must be positive, got {factor!r}")
    if not 0.0 < fraction < 1.0:
        raise ConfigError(f"steps_to_shrink: fraction must lie in (0, 1), got {fraction!r}")
    if factor >= 1.0:
        return math.inf
    return math.log(fraction) / math.log(factor)


OBJECTIVES = ("loss", "logit")


def state_gradients(model: nn.Module, ids: torch.Tensor, targets: torch.Tensor,
                    objective: str = "loss") -> dict[str, torch.Tensor]:
    """Gradients of the last step's loss with respect to the state after the first step.

    ``model`` has ``embedding``, a single-layer batch-first fused ``rnn`` (``nn.RNN``,
    ``nn.LSTM`` or ``nn.GRU``) and ``output`` (e.g. :class:`companion.experiments.tasks.SequenceClassifier`).
    ``ids`` ``(B, T)``, ``targets`` ``(B,)``. With ``objective="loss"`` the differentiated
    quantity is the summed cross-entropy of ``output(h_T)``; with ``"logit"`` it is the summed
    logit of the target class, which does not go flat when a trained model is already
    confident (the loss gradient is scaled by ``1 - p(target)``). Either way row ``b`` of each
    gradient belongs to example ``b`` alone.

    Returns ``{"h": dL/dh_1 (B, H)}`` and, for the LSTM, ``"c": dL/dc_1 (B, H)``.
    """
    if objective not in OBJECTIVES:
        raise ConfigError(f"objective must be 'loss' or 'logit', got {objective!r}")
    if ids.dim() != 2 or ids.shape[1] < 2:
        raise ConfigError(f"state_gradients needs ids of shape (B, T) with T >= 2, got {tuple(ids.shape)}")
    rnn = model.rnn
    if rnn.num_layers != 1 or rnn.bidirectional or not rnn.batch_first:
        raise ConfigError("state_gradients needs a single-layer, unidirectional, batch-first rnn")
    was_training = model.training
    model.eval()
    x = model.embedding(ids)
    with torch.no_grad():
        _, first = rnn(x[:, :1])
    if isinstance(first, tuple):
        h1, c1 = (s.detach().requires_grad_(True) for s in first)
        state = (h1, c1)
    else:
        h1, c1 = first.detach().requires_grad_(True), None
        state = h1
    out, _ = rnn(x[:, 1:], state)
    logits = model.output(out[:, -1])
    if objective == "loss":
        loss = F.cross_entropy(logits, targets, reduction="sum")
    else:
        loss = logits.gather(1, targets[:, None]).sum()
    grads = torch.autograd.grad(loss, [h1] if c1 is None else [h1, c1])
    model.train(was_training)
    result = {"h": grads[0][0].detach()}
    if c1 is not None:
        result["c"] = grads[1][0].detach()
    return result


def state_gradient_norms(model: nn.Module, ids: torch.Tensor, targets: torch.Tensor,
                         objective: str = "loss") -> dict[str, float]:
    """Per-example L2 norms of :func:`state_gradients`, averaged over the batch."""
    grads = state_gradients(model, ids, targets, objective)
    return {key: g.norm(dim=-1).mean().item() for key, g in grads.items()}


def gradient_norms_vs_length(model: nn.Module, make_batch, lengths: Sequence[int],
                             objective: str = "loss") -> dict[str, list[float]]:
    """:func:`state_gradient_norms` for each sequence length.

    ``make_batch(T) -> (ids (B, T'), targets (B,))`` builds the batch for length ``T`` (for
    example ``lambda T: recall_batch(task, 64, T, torch.Generator().manual_seed(0))``).
    Returns ``{"T": lengths, "h": [...], "c": [...]}`` (``"c"`` only for an LSTM).
    """
    result: dict[str, list[float]] = {"T": [int(T) for T in lengths]}
    for T in lengths:
        ids, targets = make_batch(T)
        for key, value in state_gradient_norms(model, ids, targets, objective).items():
            result.setdefault(key, []).append(value)
    return result
