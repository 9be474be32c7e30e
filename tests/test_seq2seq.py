"""Sutskever's LSTM encoder-decoder: shapes, padding, reversal, init, decoding interface."""

import pytest
import torch

from companion.data.batching import collate
from companion.errors import ConfigError, DataError
from companion.models.seq2seq import Seq2Seq
from companion.specials import BOS, EOS, PAD


def _batch():
    # two pairs of different lengths: sources end with EOS, targets get BOS/EOS from collate
    return collate([([4, 5, 6, EOS], [4, 5, 6]), ([7, EOS], [7])])


def _model(**kw):
    torch.manual_seed(0)
    args = dict(embed_dim=8, hidden_size=12, num_layers=2)
    args.update(kw)
    return Seq2Seq(10, 11, **args).double().eval()


def test_forward_returns_logits_for_every_label():
    batch = _batch()
    logits = _model()(batch)
    assert logits.shape == (2, 4, 11)
    assert logits.dtype == torch.float64


def test_init_is_uniform_in_range_and_pad_rows_are_zero():
    m = Seq2Seq(10, 11, embed_dim=8, hidden_size=12, num_layers=2, init_range=0.08)
    for name, p in m.named_parameters():
        assert float(p.detach().abs().max()) <= 0.08, name
    assert float(m.src_embed.weight[PAD].detach().abs().max()) == 0.0
    assert float(m.tgt_embed.weight[PAD].detach().abs().max()) == 0.0
    # and it is not all zeros
    assert float(m.encoder.weight_hh_l1.detach().abs().max()) > 0.05


def test_padding_does_not_change_the_final_state():
    m = _model()
    src = torch.tensor([[7, EOS, PAD, PAD, PAD]])
    h_pad, c_pad = m.encode(src, torch.tensor([2]))
    h, c = m.encode(src[:, :2], torch.tensor([2]))
    torch.testing.assert_close(h_pad, h, rtol=0, atol=1e-12)
    torch.testing.assert_close(c_pad, c, rtol=0, atol=1e-12)


def test_state_has_one_row_per_layer_and_sentence():
    h, c = _model(num_layers=3).encode(_batch().src, _batch().src_lengths)
    assert h.shape == c.shape == (3, 2, 12)


def test_reverse_source_equals_reversed_input():
    batch = _batch()
    plain, rev = _model(), _model(reverse_source=True)
    reversed_src = torch.tensor([[6, 5, 4, EOS], [7, EOS, PAD, PAD]])
    h1, _ = rev.encode(batch.src, batch.src_lengths)
    h2, _ = plain.encode(reversed_src, batch.src_lengths)
    torch.testing.assert_close(h1, h2, rtol=0, atol=0)
    h3, _ = plain.encode(batch.src, batch.src_lengths)
    assert not torch.allclose(h1[:, 0], h3[:, 0])  # the order changes the state
    torch.testing.assert_close(h1[:, 1], h3[:, 1], rtol=0, atol=0)  # one word: nothing to reverse


def test_step_matches_teacher_forced_forward():
    m = _model()
    batch = _batch()
    logits = m(batch)
    state = m.encode(batch.src, batch.src_lengths)
    for t in range(batch.tgt_in.shape[1]):
        log_probs, state = m.step(batch.tgt_in[:, t], state)
        torch.testing.assert_close(log_probs, torch.log_softmax(logits[:, t], -1))
    assert batch.tgt_in[0, 0] == BOS


def test_reorder_state_selects_and_repeats_rows():
    m = _model()
    batch = _batch()
    h, c = m.encode(batch.src, batch.src_lengths)
    h2, c2 = m.reorder_state((h, c), torch.tensor([1, 1, 0]))
    assert h2.shape == (2, 3, 12)
    torch.testing.assert_close(h2[:, 0], h[:, 1])
    torch.testing.assert_close(c2[:, 2], c[:, 0])


def test_gradients_reach_the_encoder():
    m = Seq2Seq(10, 11, embed_dim=8, hidden_size=12, num_layers=1)
    batch = _batch()
    loss = torch.nn.functional.cross_entropy(m(batch).transpose(1, 2), batch.tgt_out, ignore_index=PAD)
    loss.backward()
    assert float(m.src_embed.weight.grad.abs().sum()) > 0
    assert float(m.encoder.weight_ih_l0.grad.abs().sum()) > 0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(hidden_size=0), "Seq2Seq: hidden_size must be an integer >= 1, got 0"),
        (dict(num_layers=1.5), "Seq2Seq: num_layers must be an integer >= 1, got 1.5"),
        (dict(embed_dim=True), "Seq2Seq: embed_dim must be an integer >= 1, got True"),
        (dict(dropout=1.0), "Seq2Seq: dropout must be a number in [0.0, 1.0), got 1.0"),
        (dict(init_range=0.0), "Seq2Seq: init_range must be a number in (0.0, inf], got 0.0"),
    ],
)
def test_bad_constructor_arguments_are_config_errors(kwargs, message):
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("(", r"\(").replace(")", r"\)")):
        Seq2Seq(10, 11, **kwargs)


def test_vocabulary_must_exceed_the_specials():
    with pytest.raises(ConfigError, match="Seq2Seq: tgt_vocab_size must be an integer >= 5, got 4"):
        Seq2Seq(10, 4)


def test_bad_source_shapes_are_data_errors():
    m = _model()
    with pytest.raises(DataError, match=r"Seq2Seq.encode: src must be a \(B, S\) tensor"):
        m.encode(torch.tensor([4, 5, EOS]), torch.tensor([3]))
    with pytest.raises(DataError, match=r"src_lengths must lie in \[1, 3\]"):
        m.encode(torch.tensor([[4, 5, EOS]]), torch.tensor([4]))
    with pytest.raises(DataError, match="the batch has no source"):
        from types import SimpleNamespace

        m(SimpleNamespace(src=None, src_lengths=None, tgt_in=torch.tensor([[BOS]])))


def test_alignment_lags_reversal_shortens_the_minimal_lag():
    from companion.models.seq2seq import alignment_lags

    monotone = [(i, i) for i in range(4)]  # a b c d -> w x y z
    forward = alignment_lags(monotone, 4)
    backward = alignment_lags(monotone, 4, reverse=True)
    assert forward == [5, 5, 5, 5]
    assert backward == [2, 4, 6, 8]
    assert min(backward) < min(forward) and sum(backward) / 4 == sum(forward) / 4
    with pytest.raises(DataError, match="source index 4 outside a sentence of 4 words"):
        alignment_lags([(4, 0)], 4)


@pytest.mark.slow
def test_seeds_script_runs_end_to_end(tmp_path):
    """scripts/seq2seq_seeds.py (the chapter's tolerances) in --quick mode: plumbing only."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "scripts" / "seq2seq_seeds.py"
    out = tmp_path / "spread.json"
    proc = subprocess.run([sys.executable, str(script), "--quick", "--seeds", "0", "1", "--json", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = json.loads(out.read_text())
    assert set(data["per_seed"]) == {"0", "1"}
    for key in ("valid_ppl_forward", "valid_ppl_reversed", "test_bleu_forward", "test_bleu_reversed",
                "test_bleu_ensemble"):
        row = data["summary"][key]
        values = [data["per_seed"][seed][key] for seed in ("0", "1")]
        assert row["values"] == values  # the summary is of the per-seed numbers, in seed order
        assert row["max_dist_from_first"] == pytest.approx(abs(values[1] - values[0]), abs=1e-12)
        assert row["mean"] == pytest.approx(sum(values) / 2, abs=1e-12)
    for key in ("valid_ppl_forward", "valid_ppl_reversed"):  # seeds 0 and 1 train different models
        assert data["summary"][key]["max_dist_from_first"] > 0
    assert "valid_ppl_forward" in proc.stdout
