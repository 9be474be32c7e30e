"""The Transformer: attention against PyTorch's, masks, positions, layers against nn.Transformer's,
tied embeddings, the key/value cache against full recomputation, errors, training."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from companion.data.batching import collate
from companion.decoding import beam_search, greedy_search
from companion.errors import ConfigError, DataError
from companion.experiments.tiny_transformer_run import package_key
from companion.models import build_model
from companion.models.contract import AttentionTranslator
from companion.models.transformer import (DecoderLayer, EncoderLayer, MultiHeadAttention, RecomputingDecoder,
                                          SinusoidalPositions, Transformer, cross_mask, decoder_self_mask,
                                          encoder_mask, scaled_dot_product_attention, sinusoid_table)
from companion.specials import BOS, EOS, PAD
from companion.training.trainer import Trainer, sequence_loss
from tests.helpers import random_pairs

SRC_V, TGT_V = 13, 11


def _model(seed: int = 0, **kw) -> Transformer:
    torch.manual_seed(seed)
    args = {**Transformer.example_args, **kw}
    return Transformer(kw.pop("src_vocab_size", SRC_V), kw.pop("tgt_vocab_size", TGT_V),
                       **{k: v for k, v in args.items() if not k.endswith("vocab_size")}).double().eval()


def _pairs(seed: int = 1, n: int = 5, src_v: int = SRC_V):
    return random_pairs(seed, n, src_v, TGT_V)


VARIANTS = [
    pytest.param({"pre_ln": False}, id="post-ln"),
    pytest.param({"pre_ln": True}, id="pre-ln"),
    pytest.param({"pre_ln": True, "tie_output": False, "num_decoder_layers": 3}, id="untied-3-layers"),
    pytest.param({"src_vocab_size": TGT_V, "share_all_embeddings": True, "num_encoder_layers": 1}, id="shared"),
]


# ---------------------------------------------------------------------------------- attention
def test_written_out_attention_equals_torch_sdpa():
    g = torch.Generator().manual_seed(0)
    q = torch.randn(2, 3, 4, 8, dtype=torch.float64, generator=g)
    k = torch.randn(2, 3, 6, 8, dtype=torch.float64, generator=g)
    v = torch.randn(2, 3, 6, 5, dtype=torch.float64, generator=g)
    mask = torch.rand(2, 1, 4, 6, generator=g) > 0.4
    mask[..., 0] = True  # every query sees something
    out, w = scaled_dot_product_attention(q, k, v, mask)
    torch.testing.assert_close(out, F.scaled_dot_product_attention(q, k, v, attn_mask=mask), rtol=0, atol=1e-12)
    torch.testing.assert_close(w.sum(-1), torch.ones(2, 3, 4, dtype=torch.float64))
    assert torch.all(w[~mask.expand_as(w)] == 0)
    # and the definition itself: softmax(q k^T / sqrt(d_k)) v
    manual = torch.softmax((q @ k.transpose(-1, -2) / math.sqrt(8)).masked_fill(~mask, -math.inf), -1) @ v
    torch.testing.assert_close(out, manual, rtol=0, atol=1e-12)


@pytest.mark.parametrize("cross", [False, True])
def test_multi_head_attention_equals_torch_given_the_same_weights(cross):
    torch.manual_seed(0)
    ours = MultiHeadAttention(12, 3).double().eval()
    theirs = nn.MultiheadAttention(12, 3, batch_first=True).double().eval()
    with torch.no_grad():  # nonzero biases
        ours.in_proj.bias.normal_()
        ours.out_proj.bias.normal_()
    theirs.load_state_dict({"in_proj_weight": ours.in_proj.weight, "in_proj_bias": ours.in_proj.bias,
                            "out_proj.weight": ours.out_proj.weight, "out_proj.bias": ours.out_proj.bias})
    x = torch.randn(2, 5, 12, dtype=torch.float64)
    memory = torch.randn(2, 7, 12, dtype=torch.float64) if cross else x
    S = memory.shape[1]
    pad = torch.zeros(2, S, dtype=torch.bool)
    pad[1, S - 2:] = True  # the second sequence's last two keys are padding
    mask = (~pad)[:, None, None, :]
    with torch.no_grad():
        out, w = ours(x, memory if cross else None, mask, need_weights=True)
        fast, none = ours(x, memory if cross else None, mask)
        ref, ref_w = theirs(x, memory, memory, key_padding_mask=pad, need_weights=True)
    assert none is None
    torch.testing.assert_close(out, ref, rtol=0, atol=1e-12)
    torch.testing.assert_close(fast, ref, rtol=0, atol=1e-12)
    torch.testing.assert_close(w.mean(1), ref_w, rtol=0, atol=1e-12)


def test_heads_must_divide_the_width():
    with pytest.raises(ConfigError, match=r"^MultiHeadAttention: num_heads \(5\) must divide d_model \(12\)$"):
        MultiHeadAttention(12, 5)
    with pytest.raises(ConfigError, match=r"^Transformer: num_heads \(3\) must divide d_model \(16\)$"):
        Transformer(SRC_V, TGT_V, d_model=16, num_heads=3)


# ---------------------------------------------------------------------------------- masks
def test_masks_on_the_seed_batch():
    """The seed document's table: encoder (B, S) source padding; decoder causal + target
    padding; cross-attention source padding only. True = may attend."""
    batch = collate([([4, 5, 6, EOS], [4, 5, 6]), ([7, EOS], [7])])
    enc, dec, cross = encoder_mask(batch.src), decoder_self_mask(batch.tgt_in), cross_mask(batch.src, 4)
    assert enc.shape == (2, 4, 4) and dec.shape == (2, 4, 4) and cross.shape == (2, 4, 4)
    assert enc.dtype == dec.dtype == cross.dtype == torch.bool
    assert enc[1].int().tolist() == [[1, 1, 0, 0]] * 4
    assert enc[0].all()
    assert dec[0].int().tolist() == [[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [1, 1, 1, 1]]
    assert dec[1].int().tolist() == [[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [1, 1, 1, 0]]  # tgt_in[1, 3] is PAD
    assert cross[1].int().tolist() == [[1, 1, 0, 0]] * 4  # no causal part
    assert cross_mask(batch.src, 3).shape == (2, 3, 4)
    for m in (enc, dec, cross):
        assert m.any(-1).all()  # no query row is left with nothing to attend to


def test_mask_errors_are_one_line_data_errors():
    with pytest.raises(DataError, match=r"^encoder_mask: src must be a \(B, L\) tensor of ids, got \(4,\)$"):
        encoder_mask(torch.tensor([4, 5, 6, EOS]))
    with pytest.raises(DataError, match=r"^cross_mask: T must be a positive integer, got 0$"):
        cross_mask(torch.tensor([[4, EOS]]), 0)


# ---------------------------------------------------------------------------------- positions, embeddings
def test_sinusoidal_positions_follow_the_formula_and_are_not_saved():
    table = sinusoid_table(50, 8)
    pos, i = 7, 2
    assert table[pos, 2 * i].item() == pytest.approx(math.sin(pos / 10000 ** (2 * i / 8)), abs=1e-15)
    assert table[pos, 2 * i + 1].item() == pytest.approx(math.cos(pos / 10000 ** (2 * i / 8)), abs=1e-15)
    assert table[0].tolist() == [0.0, 1.0] * 4
    pe = SinusoidalPositions(8, max_len=10).double()
    torch.testing.assert_close(pe(5, offset=3), table[3:8].float().double(), rtol=0, atol=0)
    torch.testing.assert_close(pe(30, offset=20), table[20:50], rtol=0, atol=1e-15)  # beyond the buffer
    model = _model()
    assert "positions.table" not in model.state_dict()
    assert "positions.table" in dict(model.named_buffers())


def test_embeddings_are_scaled_by_sqrt_d_model_and_the_output_is_tied():
    model = _model()
    ids = torch.tensor([[BOS, 5, 6, PAD]])
    table = sinusoid_table(4, 16).float().double()  # the buffer is stored in float32
    expected = model.tgt_embed.weight[ids] * math.sqrt(16) + table
    torch.testing.assert_close(model.embed(ids, model.tgt_embed), expected, rtol=0, atol=1e-12)
    h = torch.randn(3, 16, dtype=torch.float64)
    torch.testing.assert_close(model.logits(h), h @ model.tgt_embed.weight.T, rtol=0, atol=1e-12)
    names = {n for n, _ in model.named_parameters()}
    assert not any(n.startswith("output") for n in names)
    assert torch.all(model.tgt_embed.weight[PAD] == 0) and torch.all(model.src_embed.weight[PAD] == 0)
    assert model.tgt_embed.weight[4:].std().item() == pytest.approx(16 ** -0.5, rel=0.25)


def test_share_all_embeddings_uses_one_matrix_and_needs_one_vocabulary():
    model = Transformer(20, 20, d_model=16, num_heads=2, share_all_embeddings=True)
    assert model.src_embed is model.tgt_embed
    untied = Transformer(20, 20, d_model=16, num_heads=2, tie_output=False)
    n_shared = sum(p.numel() for p in model.parameters())
    assert sum(p.numel() for p in untied.parameters()) == n_shared + 2 * 20 * 16  # src embedding + output
    with pytest.raises(ConfigError, match=r"^Transformer: share_all_embeddings needs one joint vocabulary, "
                                          r"but src_vocab_size=13 != tgt_vocab_size=11$"):
        Transformer(SRC_V, TGT_V, share_all_embeddings=True)
    with pytest.raises(ConfigError, match="cannot be combined with tie_output=false"):
        Transformer(20, 20, share_all_embeddings=True, tie_output=False)


@pytest.mark.parametrize("kw, message", [
    ({"d_model": 0}, r"^Transformer: d_model must be an integer >= 1, got 0$"),
    ({"tgt_vocab_size": 4}, r"^Transformer: tgt_vocab_size must be an integer >= 5, got 4$"),
    ({"dropout": 1.0}, r"^Transformer: dropout must be a number in \[0.0, 1.0\), got 1.0$"),
    ({"attention_dropout": -0.1}, r"^Transformer: attention_dropout must be a number in \[0.0, 1.0\)"),
    ({"pre_ln": "yes"}, r"^Transformer: pre_ln must be true or false, got 'yes'$"),
])
def test_constructor_errors_are_one_line_config_errors(kw, message):
    args = {"src_vocab_size": SRC_V, "tgt_vocab_size": TGT_V, **kw}
    with pytest.raises(ConfigError, match=message):
        Transformer(**args)


# ---------------------------------------------------------------------------------- layers vs nn.Transformer's
@pytest.mark.parametrize("pre_ln", [False, True])
def test_layers_equal_torch_transformer_layers_given_the_same_weights(pre_ln):
    torch.manual_seed(0)
    kw = dict(d_model=12, nhead=3, dim_feedforward=20, dropout=0.0, batch_first=True, norm_first=pre_ln)
    t_enc = nn.TransformerEncoderLayer(**kw).double().eval()
    t_dec = nn.TransformerDecoderLayer(**kw).double().eval()
    enc = EncoderLayer(12, 3, 20, 0.0, pre_ln=pre_ln).double().eval()
    dec = DecoderLayer(12, 3, 20, 0.0, pre_ln=pre_ln).double().eval()
    for ours, theirs in ((enc, t_enc), (dec, t_dec)):
        with torch.no_grad():
            for p in theirs.parameters():  # nonzero biases and gains
                p.add_(0.1 * torch.randn_like(p))
        ours.load_state_dict({package_key(k): v for k, v in theirs.state_dict().items()})
    src = torch.tensor([[4, 5, 6, EOS], [7, EOS, PAD, PAD]])
    tgt = torch.tensor([[BOS, 4, 5], [BOS, 7, EOS]])
    x, y = torch.randn(2, 4, 12, dtype=torch.float64), torch.randn(2, 3, 12, dtype=torch.float64)
    with torch.no_grad():
        memory = enc(x, encoder_mask(src).unsqueeze(1))
        ref_memory = t_enc(x, src_key_padding_mask=src == PAD)
        torch.testing.assert_close(memory[0], ref_memory[0], rtol=0, atol=1e-12)
        torch.testing.assert_close(memory[1, :2], ref_memory[1, :2], rtol=0, atol=1e-12)  # real positions
        out, _, _ = dec(y, decoder_self_mask(tgt).unsqueeze(1), dec.cross_attn.project_kv(memory),
                        cross_mask(src, 3).unsqueeze(1))
        ref = t_dec(y, memory, tgt_mask=~torch.ones(3, 3, dtype=torch.bool).tril(),
                    memory_key_padding_mask=src == PAD)
    torch.testing.assert_close(out, ref, rtol=0, atol=1e-12)


# ---------------------------------------------------------------------------------- the key/value cache
@pytest.mark.parametrize("kw", VARIANTS)
def test_step_by_step_with_the_cache_equals_teacher_forcing(kw):
    model = _model(**kw)
    batch = collate(_pairs(src_v=model.src_vocab_size))
    with torch.no_grad():
        forced = torch.log_softmax(model(batch), -1)
        state = model.encode(batch.src, batch.src_lengths)
        stepped = []
        for t in range(batch.tgt_in.shape[1]):
            lp, state = model.step(batch.tgt_in[:, t], state)
            stepped.append(lp)
            assert state.self_kv[0][0].shape[2] == t + 1  # one more cached position per step
    real = batch.tgt_out != PAD
    torch.testing.assert_close(torch.stack(stepped, 1)[real], forced[real], rtol=0, atol=1e-10)


@pytest.mark.parametrize("kw", VARIANTS[:2])
def test_cached_decoding_equals_recomputing_the_whole_prefix(kw):
    model = _model(**kw)
    with torch.no_grad():  # sharpen the random model so that searches are not decided by ties
        for p in model.parameters():
            p.mul_(2.0)
    slow = RecomputingDecoder(model)
    batch = collate(_pairs(seed=3, n=6))
    g_fast = greedy_search(model, batch.src, batch.src_lengths, max_len=12)
    g_slow = greedy_search(slow, batch.src, batch.src_lengths, max_len=12)
    assert [h.tokens for h in g_fast] == [h.tokens for h in g_slow]
    assert any(len(h.tokens) > 3 for h in g_fast)  # the comparison covers several steps
    for a, b in zip(g_fast, g_slow):
        assert a.log_prob == pytest.approx(b.log_prob, abs=1e-9)
    b_fast = beam_search(model, batch.src, batch.src_lengths, beam_size=5, nbest=3, length_penalty=0.6, max_len=12)
    b_slow = beam_search(slow, batch.src, batch.src_lengths, beam_size=5, nbest=3, length_penalty=0.6, max_len=12)
    assert [[h.tokens for h in hs] for hs in b_fast] == [[h.tokens for h in hs] for hs in b_slow]
    for hs, ks in zip(b_fast, b_slow):
        for a, b in zip(hs, ks):
            assert a.score == pytest.approx(b.score, abs=1e-9)


def test_reorder_state_selects_every_cached_tensor():
    model = _model()
    batch = collate(_pairs(n=3))
    with torch.no_grad():
        state = model.encode(batch.src, batch.src_lengths)
        _, state = model.step(batch.tgt_in[:, 0], state)
        _, state = model.step(batch.tgt_in[:, 1], state, need_attention=True)
        index = torch.tensor([2, 2, 0])
        picked = model.reorder_state(state, index)
    assert picked.steps == 2 and picked.group == 1  # rows of mixed sentences: a copy per row
    assert torch.equal(picked.src_mask, state.src_mask[index])
    assert torch.equal(picked.attention, state.attention[index])
    for (k, v), (k0, v0) in zip(picked.self_kv + picked.cross_kv, state.self_kv + state.cross_kv):
        assert torch.equal(k, k0[index]) and torch.equal(v, v0[index])


def test_hypotheses_of_one_sentence_share_its_cross_attention_keys_and_values():
    model = _model()
    batch = collate(_pairs(n=3))
    with torch.no_grad():
        state = model.encode(batch.src, batch.src_lengths)
        beams = model.reorder_state(state, torch.arange(3).repeat_interleave(4))  # beam search's start
        assert beams.group == 4 and beams.cross_kv is state.cross_kv and beams.src_mask is state.src_mask
        log_probs, beams = model.step(torch.full((12,), BOS), beams, need_attention=True)
        alone, single = model.step(torch.full((3,), BOS), state, need_attention=True)
        torch.testing.assert_close(log_probs, alone.repeat_interleave(4, dim=0), rtol=0, atol=1e-12)
        torch.testing.assert_close(model.step_attention(beams), single.attention.repeat_interleave(4, dim=0),
                                   rtol=0, atol=1e-12)
        # sentence 1 finishes: its keys and values leave, the other two stay shared by their beams
        index = torch.tensor([1, 0, 0, 3, 9, 9, 8, 11])
        later = model.reorder_state(beams, index)
        assert later.group == 4 and later.cross_kv[0][0].shape[0] == 2
        assert torch.equal(later.cross_kv[0][0], state.cross_kv[0][0][[0, 2]])
        assert torch.equal(later.self_kv[0][0], beams.self_kv[0][0][index])


def test_attention_weights_are_computed_only_when_asked_for():
    model = _model()
    batch = collate(_pairs(n=3))
    with torch.no_grad():
        state = model.encode(batch.src, batch.src_lengths)
        plain, without = model.step(batch.tgt_in[:, 0], state)
        asked, with_weights = model.step(batch.tgt_in[:, 0], state, need_attention=True)
    assert without.attention is None and with_weights.attention.shape == batch.src.shape
    torch.testing.assert_close(plain, asked, rtol=0, atol=1e-12)  # fused or written out, the same numbers
    with pytest.raises(DataError, match=r"kept no attention weights; take it with step\(\.\.\., need_attention=True\)"):
        model.step_attention(without)


# ---------------------------------------------------------------------------------- attention weights
def test_cross_attention_shapes_and_step_attention_agree_with_it():
    model = _model(num_decoder_layers=3)
    assert isinstance(model, AttentionTranslator)
    batch = collate(_pairs())
    w = model.cross_attention(batch)
    B, S = batch.src.shape
    T = batch.tgt_in.shape[1]
    assert w.shape == (B, 3, 2, T, S)
    torch.testing.assert_close(w.sum(-1), torch.ones(B, 3, 2, T, dtype=torch.float64))
    assert torch.all(w.permute(0, 4, 1, 2, 3)[batch.src == PAD] == 0)
    assert not torch.allclose(w[:, 0], w[:, 2])  # layers attend differently
    with torch.no_grad():
        state = model.encode(batch.src, batch.src_lengths)
        for t in range(T):
            _, state = model.step(batch.tgt_in[:, t], state, need_attention=True)
            real = batch.tgt_in[:, t] != PAD  # (a PAD input is fed step by step but masked when forced)
            torch.testing.assert_close(model.step_attention(state)[real], w[real, -1, :, t].mean(1),
                                       rtol=0, atol=1e-12)


def test_step_attention_before_any_step_is_an_error():
    model = _model()
    batch = collate(_pairs(n=2))
    with pytest.raises(DataError, match="no step has been taken from this state yet"):
        model.step_attention(model.encode(batch.src, batch.src_lengths))


# ---------------------------------------------------------------------------------- errors on input
def test_input_errors_are_one_line_data_errors():
    model = _model()
    batch = collate(_pairs(n=2))
    batch.src = None
    with pytest.raises(DataError, match=r"^Transformer.forward: the batch has no source \(src is None\)$"):
        model(batch)
    bad = collate([([4, 40, EOS], [5])])
    with pytest.raises(DataError, match=r"^Transformer.forward: src holds ids outside the vocabulary \[0, 13\)"):
        model(bad)
    with pytest.raises(DataError, match=r"^Transformer.encode: src_lengths must have shape \(1,\)"):
        model.encode(bad.src, torch.tensor([3, 3]))


# ---------------------------------------------------------------------------------- dropout and training
def test_each_dropout_acts_only_in_training_mode():
    batch = collate(_pairs())
    for kw in ({"dropout": 0.3}, {"attention_dropout": 0.3}, {"activation_dropout": 0.3}):
        model = _model(**kw)
        with torch.no_grad():
            evaluated = model(batch)
            model.train()
            torch.manual_seed(1)
            a = model(batch)
            b = model(batch)
            model.eval()
            assert torch.equal(model(batch), evaluated)
        assert not torch.allclose(a, b), kw
        assert not torch.allclose(a, evaluated), kw


@pytest.fixture
def one_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # small matrices: one thread is fastest, and bitwise-repeatable
    yield
    torch.set_num_threads(threads)


@pytest.mark.parametrize("pre_ln", [False, True])
def test_trains_through_the_trainer_with_label_smoothing_and_the_vaswani_schedule(pre_ln, one_thread):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    # a copy task: the target is the source without its EOS
    examples = []
    for _ in range(64):
        s = torch.randint(4, 12, (int(torch.randint(2, 6, (1,), generator=g)),), generator=g).tolist()
        examples.append((s + [EOS], s))
    batches = [collate(examples[i : i + 16]) for i in range(0, 64, 16)]
    model = build_model({"name": "transformer", "d_model": 32, "num_heads": 4, "d_ff": 64, "dropout": 0.0,
                         "num_encoder_layers": 1, "num_decoder_layers": 1, "pre_ln": pre_ln}, 12, 12)
    assert model.d_model == 32

    def mean_nll():
        model.eval()
        with torch.no_grad():
            total = sum(float(sequence_loss(model(b), b.tgt_out)) for b in batches)
        model.train()
        return total / sum(b.ntokens for b in batches)

    before = mean_nll()
    trainer = Trainer(model, batches, None, preset="vaswani", lr=0.5, warmup_steps=40, max_steps=120,
                      eval_every=0, label_smoothing=0.1, progress=False)
    assert trainer.schedule.factor(40) == pytest.approx(32 ** -0.5 * 40 ** -0.5)  # the model's d_model
    trainer.fit()
    after = mean_nll()
    assert after < 0.15 * before, (before, after)
