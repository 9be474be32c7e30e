"""The first-symbol recall task and its training loop."""

import pytest
import torch

from companion.errors import ConfigError
from companion.experiments.tasks import (RecallRun, RecallTask, SequenceClassifier, accuracy_vs_length, recall_accuracy, recall_batch, shakespeare_batches, train_char_lm, train_recall)


def test_batch_layout():
    task = RecallTask(num_symbols=3, num_distractors=5)
    assert (task.query, task.vocab_size, task.chance) == (8, 9, pytest.approx(1 / 3))
    inputs, targets = recall_batch(task, 50, 7, torch.Generator().manual_seed(0))
    assert inputs.shape == (50, 9) and targets.shape == (50,)
    assert torch.equal(inputs[:, 0], targets)
    assert torch.all((inputs[:, 1:-1] >= 3) & (inputs[:, 1:-1] < 8))
    assert torch.all(inputs[:, -1] == 8)
    assert set(targets.tolist()) == {0, 1, 2}


def test_batches_are_reproducible_from_the_generator():
    task = RecallTask()
    a = recall_batch(task, 4, 5, torch.Generator().manual_seed(3))
    b = recall_batch(task, 4, 5, torch.Generator().manual_seed(3))
    assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1])


def test_zero_distractors():
    inputs, _ = recall_batch(RecallTask(), 2, 0)
    assert inputs.shape == (2, 2)


@pytest.mark.slow
@pytest.mark.parametrize("cell", ["lstm", "gru", "rnn"])
def test_short_recall_is_learned(cell):
    torch.manual_seed(0)
    task = RecallTask(4, 4)
    model = SequenceClassifier(task.vocab_size, task.num_symbols, 8, 16, cell)
    assert recall_accuracy(model, task, 3, n=400) < 0.6
    run = train_recall(model, task, 3, steps=120, batch_size=16, lr=2e-2, clip_norm=1.0)
    assert len(run.losses) == 120 and not run.diverged
    assert recall_accuracy(model, task, 3, n=400) > 0.95


def test_update_gate_bias_for_gru_and_forget_bias_for_lstm():
    for cell in ("lstm", "gru"):
        torch.manual_seed(1)
        plain = SequenceClassifier(5, 2, 3, 4, cell)
        torch.manual_seed(1)
        biased = SequenceClassifier(5, 2, 3, 4, cell, forget_bias=2.0)
        diff = biased.rnn.bias_ih_l0 - plain.rnn.bias_ih_l0
        assert torch.allclose(diff[4:8], torch.full((4,), 2.0)) and diff[:4].abs().max() == 0


def test_divergence_stops_training():
    torch.manual_seed(0)
    task = RecallTask()
    model = SequenceClassifier(task.vocab_size, task.num_symbols, 4, 4, "rnn")
    with torch.no_grad():
        model.output.weight.fill_(float("nan"))
    run = train_recall(model, task, 2, steps=10)
    assert run.diverged and len(run.losses) == 1
    assert not RecallRun([1.0], [2.0]).diverged


def test_errors_have_clear_messages():
    with pytest.raises(ConfigError, match="num_symbols must be a positive int, got 0"):
        RecallTask(0, 2)
    with pytest.raises(ConfigError, match="T \\(number of distractors\\) must be a non-negative int"):
        recall_batch(RecallTask(), 2, -1)
    with pytest.raises(ConfigError, match="batch_size must be a positive int"):
        recall_batch(RecallTask(), 0, 3)
    with pytest.raises(ConfigError, match="cell must be one of"):
        SequenceClassifier(5, 2, 3, 4, "peephole")
    model = SequenceClassifier(9, 4, 3, 4, "rnn")
    with pytest.raises(ConfigError, match="optimizer must be 'adam' or 'sgd', got 'rmsprop'"):
        train_recall(model, RecallTask(), 2, steps=1, optimizer="rmsprop")
    with pytest.raises(ConfigError, match="clip_norm must be positive or None"):
        train_recall(model, RecallTask(), 2, steps=1, clip_norm=0.0)


def test_accuracy_vs_length_returns_one_model_per_cell_and_length():
    task = RecallTask(2, 2)
    acc, models = accuracy_vs_length({"R": {"cell": "rnn"}, "L": {"cell": "lstm", "forget_bias": 1.0}},
                                     [1, 2], task=task, steps=2, hidden_size=4, batch_size=4)
    assert set(acc) == {"R", "L"} and set(acc["R"]) == {1, 2}
    assert all(0.0 <= a <= 1.0 for row in acc.values() for a in row.values())
    assert set(models) == {("R", 1), ("R", 2), ("L", 1), ("L", 2)}
    assert models["L", 2].cell_type == "lstm"


@pytest.mark.slow
def test_train_char_lm_on_shakespeare_records_validation_bpc():
    result = train_char_lm("gru", 8, steps=4, eval_every=2, embed_dim=4, batch_size=4, seq_len=8,
                           valid_chars=2_000, seed=1)
    assert result.steps == [2, 4] and len(result.valid_bpc) == 2
    assert result.final_bpc == result.valid_bpc[-1]
    # an untrained model over ~80 characters is near log2(80) = 6.3 bits
    assert 4.0 < result.final_bpc < 7.5
    assert result.parameters == sum(p.numel() for p in result.model.parameters())
    assert result.seconds > 0 and len(result.vocab) > 60


@pytest.mark.slow
def test_shakespeare_batches_layout():
    vocab, train, valid = shakespeare_batches(batch_size=4, seq_len=16, valid_chars=5_000, seed=0)
    assert train[0].tgt_in.shape == (4, 16) and train[0].src is None
    assert torch.equal(train[0].tgt_in[:, 1:], train[0].tgt_out[:, :-1])
    assert valid[0].tgt_in.shape[0] == 64
