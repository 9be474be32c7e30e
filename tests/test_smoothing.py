"""The written-out label smoothing equals the Trainer's fused loss."""

import pytest
import torch

from companion.errors import ConfigError
from companion.specials import PAD
from companion.training.smoothing import smoothed_loss, smoothed_targets
from companion.training.trainer import sequence_loss


def _batch(seed=0):
    g = torch.Generator().manual_seed(seed)
    logits = torch.randn(3, 5, 11, generator=g, dtype=torch.float64)
    targets = torch.randint(4, 11, (3, 5), generator=g)
    targets[0, 3:] = PAD
    targets[2, 1:] = PAD
    return logits, targets


@pytest.mark.parametrize("eps", [0.0, 0.1, 0.3])
def test_written_out_equals_fused(eps):
    logits, targets = _batch()
    fused = sequence_loss(logits, targets, label_smoothing=eps)
    assert torch.allclose(smoothed_loss(logits, targets, eps), fused.double(), atol=1e-9)


def test_distribution_rows():
    _, targets = _batch(1)
    q = smoothed_targets(targets, 11, 0.1)
    real = targets != PAD
    assert torch.allclose(q.sum(-1)[real], torch.ones(int(real.sum()), dtype=torch.float64))
    assert torch.all(q.sum(-1)[~real] == 0)
    row = q[real][0]
    label = int(targets[real][0])
    assert row[label] == pytest.approx(0.9 + 0.1 / 11)
    assert row.argmax() == label
    assert torch.allclose(row[torch.arange(11) != label], torch.full((10,), 0.1 / 11, dtype=torch.float64))


def test_zero_eps_is_nll():
    logits, targets = _batch(2)
    nll = -torch.log_softmax(logits, -1).gather(-1, targets.unsqueeze(-1)).squeeze(-1)[targets != PAD].sum()
    assert torch.allclose(smoothed_loss(logits, targets, 0.0), nll)


def test_bad_eps():
    _, targets = _batch()
    with pytest.raises(ConfigError, match="eps must be in"):
        smoothed_targets(targets, 11, 1.0)
