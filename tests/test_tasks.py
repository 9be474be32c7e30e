"""The first-symbol recall task and its training loop."""

import pytest
import torch

from companion.errors import ConfigError
from companion.data.batching import lm_batches
from companion.experiments.tasks import (RecallRun, RecallTask, SequenceClassifier, accuracy_vs_length,
                                        recall_accuracy, recall_batch, shakespeare_batches,
                                        shakespeare_stream, shakespeare_tuning_split, stream_nll,
                                        stream_validator, train_char_lm, train_recall)
from companion.models.charlm import CharLM
from companion.training.trainer import evaluate_loss


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
    assert result.steps == [2, 4] and len(result.valid_bpc) == 2 and len(result.stream_bpc) == 2
    assert result.final_bpc == result.valid_bpc[-1]
    assert result.final_stream_bpc == result.stream_bpc[-1] != result.final_bpc
    assert 4.0 < result.final_stream_bpc < 7.5
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


def _streams(seed=0, n=1 + 3 * 23, vocab=9):
    ids = torch.randint(4, vocab, (n,), generator=torch.Generator().manual_seed(seed))
    return ids, lm_batches(ids, 3, 5, shuffle=False)  # 3 streams of 23 steps, chunks of 5


def _lm(cell, seed=0):
    torch.manual_seed(seed)
    return CharLM(9, 4, 6, num_layers=2, cell=cell).double()


@pytest.mark.parametrize("cell", ["rnn", "lstm", "gru"])
def test_stream_nll_equals_one_forward_pass_over_each_whole_stream(cell):
    ids, batches = _streams()
    model = _lm(cell)
    nll, ntokens = stream_nll(model, batches)
    # the same 3 rows read in one call, from the zero state, without chunking
    x, y = ids[:69].view(3, 23), ids[1:70].view(3, 23)
    logits, _ = model.forward_ids(x)
    expected = torch.nn.functional.cross_entropy(logits.reshape(-1, 9), y.reshape(-1)).item()
    assert ntokens == 69
    assert nll == pytest.approx(expected, abs=1e-12)
    # resetting the state every chunk (what evaluate_loss does) gives another number
    assert abs(evaluate_loss(model, batches)[0] - nll) > 1e-6


def test_stream_nll_restores_training_mode_and_validator_reports_it():
    _, batches = _streams(seed=1)
    model = _lm("lstm")
    model.train()
    record = stream_validator(batches)(model)
    assert model.training
    assert set(record) == {"stream_nll", "stream_tokens"}
    assert record["stream_nll"] == pytest.approx(stream_nll(model, batches)[0], abs=1e-12)


def test_stream_nll_errors():
    _, batches = _streams()
    other = lm_batches(torch.arange(4, 9).repeat(10), 2, 5, shuffle=False)
    with pytest.raises(ConfigError, match="same number of rows \\(streams\\), got 2 after 3"):
        stream_nll(_lm("rnn"), batches[:1] + other[:1])
    with pytest.raises(ConfigError, match="the batches hold no target characters"):
        stream_nll(_lm("rnn"), [])


@pytest.mark.slow
def test_shakespeare_stream_scores_the_characters_the_ngram_scores():
    from companion.data.text import shakespeare_corpus, shakespeare_vocab

    valid = shakespeare_corpus()[1][:3_000]
    batches = shakespeare_stream(seq_len=64, valid_chars=3_000)
    assert all(b.tgt_in.shape[0] == 1 for b in batches)
    targets = torch.cat([b.tgt_out[0] for b in batches])
    inputs = torch.cat([b.tgt_in[0] for b in batches])
    vocab = shakespeare_vocab()
    # NGramLM.score(valid[1:], context=valid[:1]) predicts characters 2..N from all before them
    assert targets.tolist() == vocab.encode(valid[1:])
    assert inputs.tolist() == vocab.encode(valid[:-1])


@pytest.mark.slow
def test_tuning_split_holds_out_one_unseen_training_play():
    from companion.data.text import DEFAULT_VALID_PLAYS, shakespeare_corpus, shakespeare_plays

    fit_text, tune_text, tune_play = shakespeare_tuning_split(tune_chars=1_000)
    plays = shakespeare_plays()
    assert tune_play not in DEFAULT_VALID_PLAYS
    assert tune_text == plays[tune_play][:1_000]
    assert plays[tune_play] not in fit_text
    train_text = shakespeare_corpus()[0]
    assert len(fit_text) < len(train_text) and plays[tune_play] in train_text
    assert not any(plays[title][:2_000] in fit_text for title in DEFAULT_VALID_PLAYS)


def test_sample_measures():
    from companion.experiments.tasks import known_word_share, speaker_lines, words_of

    assert words_of("I'll go, MY lord--'tis done.") == ["i'll", "go", "my", "lord", "tis", "done"]
    assert known_word_share("my lord, my lorf", {"my", "lord"}) == 0.75
    text = "KING:\nMy lord.\n\nFIRST MURDERER:\nAy.\nNot a Speaker:\nKING: speaks\n"
    assert speaker_lines(text) == ["KING:", "FIRST MURDERER:"]
    with pytest.raises(ConfigError, match="no words"):
        known_word_share("... 123 !", {"a"})
