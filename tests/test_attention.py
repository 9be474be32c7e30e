"""Attention: the three score functions on hand-checked float64 numbers, RNNsearch's equations
(annotations, s_0, the order of a step, the deep output), RNNencdec, and every user error.

The registry-wide contract (step = forward, padding, reorder, beams, checkpoints) is checked by
``tests/test_contract.py`` for the default configurations; here the other configurations
(dot/general scores, the "current" read-out, no maxout) go through the same checks.
"""

from __future__ import annotations

import math

import pytest
import torch

from companion.data.batching import collate
from companion.decoding import beam_search, greedy_search
from companion.errors import ConfigError, DataError
from companion.models import build_model
from companion.models.attention import (BahdanauAttention, DeepOutput, LuongDotAttention,
                                        LuongGeneralAttention, RNNEncDec, RNNSearch,
                                        attention_context, make_attention, masked_softmax, maxout)
from companion.models.contract import AttentionTranslator, Translator
from companion.specials import BOS, EOS, PAD
from companion.training import Trainer
from tests.helpers import random_pairs

SRC_V, TGT_V = 13, 11
D = torch.float64


@pytest.fixture(autouse=True)
def _one_thread(one_thread):
    """Every test here on one thread (see conftest.one_thread)."""


def _pairs(seed: int = 1, n: int = 4):
    return random_pairs(seed, n, SRC_V, TGT_V)


def _model(cls=RNNSearch, seed: int = 0, **kw):
    torch.manual_seed(seed)
    args = {**cls.example_args, **kw}
    model = cls(SRC_V, TGT_V, **args).double().eval()
    with torch.no_grad():  # sharpen the near-uniform random init (as tests/test_contract.py)
        for p in model.parameters():
            p.mul_(3.0)
    return model


# ---------------------------------------------------------------------------- one step by hand
# two sentences, three source positions; the second has a PAD at position 2
QUERY = [[0.5, -1.0], [2.0, 0.25]]  # s_{i-1}: (N=2, Q=2)
ANN = [[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],  # h_j: (N=2, S=3, K=2)
       [[-1.0, 0.5], [0.5, 0.5], [9.0, 9.0]]]
MASK = [[True, True, True], [True, True, False]]


def _hand_step(scores):
    """Softmax over real positions and the weighted sum of annotations, in plain Python."""
    weights, contexts = [], []
    for n in range(2):
        real = [j for j in range(3) if MASK[n][j]]
        z = sum(math.exp(scores[n][j]) for j in real)
        w = [math.exp(scores[n][j]) / z if MASK[n][j] else 0.0 for j in range(3)]
        weights.append(w)
        contexts.append([sum(w[j] * ANN[n][j][k] for j in range(3)) for k in range(2)])
    return weights, contexts


def _run(module):
    q, h, m = torch.tensor(QUERY, dtype=D), torch.tensor(ANN, dtype=D), torch.tensor(MASK)
    with torch.no_grad():
        return module(q, h, m)


def _check(context, weights, scores):
    hw, hc = _hand_step(scores)
    torch.testing.assert_close(weights, torch.tensor(hw, dtype=D), rtol=0, atol=1e-15)
    torch.testing.assert_close(context, torch.tensor(hc, dtype=D), rtol=0, atol=1e-15)
    torch.testing.assert_close(weights.sum(-1), torch.ones(2, dtype=D), rtol=0, atol=1e-15)
    assert weights[1, 2].item() == 0.0  # exactly 0 at PAD, although h_2 of row 1 is large


def test_additive_attention_step_by_hand():
    att = BahdanauAttention(2, 2, 3).double()
    W = [[0.5, -0.25], [1.0, 0.5], [-0.75, 0.25]]  # W_a (A=3, Q=2)
    U = [[0.25, 1.0], [-0.5, 0.5], [1.0, -1.0]]  # U_a (A=3, K=2)
    b = [0.1, -0.2, 0.3]
    v = [1.5, -2.0, 0.5]
    with torch.no_grad():
        att.W_a.weight.copy_(torch.tensor(W, dtype=D))
        att.U_a.weight.copy_(torch.tensor(U, dtype=D))
        att.U_a.bias.copy_(torch.tensor(b, dtype=D))
        att.v_a.weight.copy_(torch.tensor([v], dtype=D))
    scores = [[sum(v[a] * math.tanh(sum(W[a][q] * QUERY[n][q] for q in range(2))
                                    + sum(U[a][k] * ANN[n][j][k] for k in range(2)) + b[a])
                   for a in range(3)) for j in range(3)] for n in range(2)]
    q, keys = torch.tensor(QUERY, dtype=D), att.project_keys(torch.tensor(ANN, dtype=D))
    with torch.no_grad():
        torch.testing.assert_close(att.score(q, keys), torch.tensor(scores, dtype=D), rtol=0, atol=1e-14)
    context, weights = _run(att)
    _check(context, weights, scores)
    with torch.no_grad():  # the readable form the chapter shows: the same hand-computed scores
        readable = att.readable_score(q, torch.tensor(ANN, dtype=D))
    torch.testing.assert_close(readable, torch.tensor(scores, dtype=D), rtol=0, atol=1e-14)


@pytest.mark.parametrize("dtype, atol", [(torch.float64, 1e-12), (torch.float32, 1e-5)])
def test_the_readable_additive_score_equals_the_optimised_one(dtype, atol):
    """``readable_score`` (``v_a^T tanh(W_a s + U_a h)`` as written) and ``score`` (keys computed
    once, the tanh through a sigmoid, in place) agree, values and gradients."""
    torch.manual_seed(0)
    att = BahdanauAttention(7, 6, 5).to(dtype)
    with torch.no_grad():
        for p in att.parameters():
            p.mul_(3.0)  # push the energies into tanh's saturated range too
    query = torch.randn(4, 7, dtype=dtype, requires_grad=True)
    annotations = torch.randn(4, 9, 6, dtype=dtype, requires_grad=True)
    fast = att.score(query, att.project_keys(annotations))
    slow = att.readable_score(query, annotations)
    assert fast.shape == slow.shape == (4, 9)
    torch.testing.assert_close(fast, slow, rtol=0, atol=atol)
    weights = torch.randn(4, 9, dtype=dtype)
    grads_fast = torch.autograd.grad((fast * weights).sum(), [query, annotations, *att.parameters()])
    grads_slow = torch.autograd.grad((slow * weights).sum(), [query, annotations, *att.parameters()])
    for a, b in zip(grads_fast, grads_slow):
        torch.testing.assert_close(a, b, rtol=0, atol=atol * 10)


def test_dot_attention_step_by_hand():
    scores = [[sum(QUERY[n][k] * ANN[n][j][k] for k in range(2)) for j in range(3)] for n in range(2)]
    context, weights = _run(LuongDotAttention(2, 2))
    _check(context, weights, scores)
    assert list(LuongDotAttention(2, 2).parameters()) == []


def test_general_attention_step_by_hand():
    att = LuongGeneralAttention(2, 2).double()
    W = [[0.5, -1.5], [2.0, 0.25]]  # W_a (Q=2, K=2): s^T W_a h
    with torch.no_grad():
        att.W_a.weight.copy_(torch.tensor(W, dtype=D))
    scores = [[sum(QUERY[n][q] * W[q][k] * ANN[n][j][k] for q in range(2) for k in range(2))
               for j in range(3)] for n in range(2)]
    context, weights = _run(att)
    _check(context, weights, scores)


def test_masked_softmax_gives_exact_zeros_and_context_is_the_weighted_sum():
    scores = torch.tensor([[1.0, 2.0, 50.0], [0.0, -3.0, 1e6]], dtype=D)
    mask = torch.tensor([[True, True, False], [True, False, False]])
    w = masked_softmax(scores, mask)
    assert w[0, 2].item() == 0.0 and w[1, 1].item() == 0.0 and w[1, 2].item() == 0.0
    assert w[1, 0].item() == 1.0
    assert w[0, 0].item() == pytest.approx(1 / (1 + math.e), abs=1e-15)
    ann = torch.arange(12, dtype=D).view(2, 3, 2)
    torch.testing.assert_close(attention_context(w, ann)[1], ann[1, 0], rtol=0, atol=0)


def test_keys_are_projected_once_per_sentence_not_per_step(monkeypatch):
    model = _model()
    calls = []
    original = model.attention.project_keys
    monkeypatch.setattr(model.attention, "project_keys", lambda h: calls.append(1) or original(h))
    batch = collate(_pairs())
    with torch.no_grad():
        state = model.encode(batch.src, batch.src_lengths)
        for t in range(batch.tgt_in.shape[1]):
            _, state = model.step(batch.tgt_in[:, t], state)
        assert len(calls) == 1
        model(batch)
    assert len(calls) == 2  # once more for the whole teacher-forced batch


def test_maxout_takes_the_max_of_adjacent_pairs():
    x = torch.tensor([[1.0, 3.0, -2.0, -5.0, 0.5, 0.25]])
    assert maxout(x).tolist() == [[3.0, -2.0, 0.5]]
    assert maxout(x, 3).tolist() == [[3.0, 0.5]]
    with pytest.raises(DataError, match="not a multiple of 4"):
        maxout(x, 4)


def test_deep_output_is_one_linear_layer_over_state_embedding_and_context():
    torch.manual_seed(0)
    out = DeepOutput(3, 2, 4, maxout_dim=5, vocab_size=7).double()
    s, e, c = (torch.randn(2, n, dtype=D) for n in (3, 2, 4))
    W = out.readin.weight  # (2M, H + E + K) = [U_o | V_o | C_o]
    t_tilde = s @ W[:, :3].T + e @ W[:, 3:5].T + c @ W[:, 5:].T + out.readin.bias
    t = torch.maximum(t_tilde[:, 0::2], t_tilde[:, 1::2])
    torch.testing.assert_close(out(s, e, c), out.W_o(t), rtol=0, atol=1e-14)
    linear = DeepOutput(3, 2, 4, maxout_dim=5, vocab_size=7, maxout=False)
    assert linear.readin.out_features == 5 and out.readin.out_features == 10


def test_the_decoder_update_is_torchs_gru_cell():
    from companion.models.attention import _gru_update

    torch.manual_seed(0)
    cell = torch.nn.GRUCell(5, 4).double()
    x, h = torch.randn(3, 5, dtype=D), torch.randn(3, 4, dtype=D)
    with torch.no_grad():
        gi = torch.nn.functional.linear(x, cell.weight_ih, cell.bias_ih)
        torch.testing.assert_close(_gru_update(gi, h, cell.weight_hh, cell.bias_hh), cell(x, h),
                                   rtol=0, atol=1e-15)


# ---------------------------------------------------------------------------- RNNsearch equations
def test_annotations_are_forward_and_backward_gru_states():
    model = _model()
    src = torch.tensor([[5, 6, 7, EOS], [8, 9, EOS, PAD]])
    lengths = torch.tensor([4, 3])
    H = model.hidden_size
    fwd = torch.nn.GRU(model.embed_dim, H, batch_first=True).double()
    bwd = torch.nn.GRU(model.embed_dim, H, batch_first=True).double()
    with torch.no_grad():
        for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
            getattr(fwd, f"{name}_l0").copy_(getattr(model.encoder, f"{name}_l0"))
            getattr(bwd, f"{name}_l0").copy_(getattr(model.encoder, f"{name}_l0_reverse"))
        state = model.encode(src, lengths)
        for b, n in enumerate(lengths.tolist()):
            emb = model.src_embed(src[b : b + 1, :n])
            f_out, _ = fwd(emb)
            b_out, _ = bwd(emb.flip(1))
            expected = torch.cat([f_out[0], b_out[0].flip(0)], dim=-1)  # h_j = [fwd_h_j ; bwd_h_j]
            torch.testing.assert_close(state.annotations[b, :n], expected, rtol=0, atol=1e-12)
            assert torch.all(state.annotations[b, n:] == 0)
            s0 = torch.tanh(model.W_s(b_out[0, -1]))  # bwd_h_1: the backward GRU after x_1
            torch.testing.assert_close(state.hidden[b], s0, rtol=0, atol=1e-12)
    assert state.mask.tolist() == [[True] * 4, [True, True, True, False]]


def test_a_step_attends_with_the_previous_state():
    model = _model()
    batch = collate(_pairs())
    with torch.no_grad():
        state = model.encode(batch.src, batch.src_lengths)
        expected = masked_softmax(model.attention.score(state.hidden, state.keys), state.mask)
        _, after = model.step(torch.full((4,), BOS), state)
        torch.testing.assert_close(model.step_attention(after), expected, rtol=0, atol=0)
        _, other = model.step(torch.full((4,), 7), state)  # y_{i-1} does not enter a_i
        torch.testing.assert_close(model.step_attention(other), expected, rtol=0, atol=0)


@pytest.mark.parametrize("readout_state, first_step_changes", [("previous", False), ("current", True)])
def test_readout_reads_the_state_the_option_names(readout_state, first_step_changes):
    """With s_{i-1} in the read-out the first prediction cannot depend on the decoder GRU."""
    model = _model(readout_state=readout_state)
    batch = collate(_pairs())
    bos = torch.full((4,), BOS)
    with torch.no_grad():
        state = model.encode(batch.src, batch.src_lengths)
        first, s1 = model.step(bos, state)
        second, _ = model.step(torch.full((4,), 5), s1)
        model.decoder.weight_hh.add_(0.5)
        first_b, s1_b = model.step(bos, state)
        second_b, _ = model.step(torch.full((4,), 5), s1_b)
    assert torch.equal(first, first_b) is not first_step_changes
    assert not torch.allclose(second, second_b)


def test_attention_weights_of_the_teacher_forced_batch_equal_the_steps():
    model = _model()
    batch = collate(_pairs())
    with torch.no_grad():
        weights = model.attention_weights(batch)
        state = model.encode(batch.src, batch.src_lengths)
        for t in range(batch.tgt_in.shape[1]):
            _, state = model.step(batch.tgt_in[:, t], state)
            torch.testing.assert_close(weights[:, t], model.step_attention(state), rtol=0, atol=1e-12)
    assert weights.shape == (*batch.tgt_in.shape, batch.src.shape[1])
    torch.testing.assert_close(weights.sum(-1), torch.ones(batch.tgt_in.shape, dtype=D))
    assert torch.all(weights.masked_select((batch.src == PAD).unsqueeze(1).expand_as(weights)) == 0)


VARIANTS = [
    pytest.param(RNNSearch, {"attention": "dot"}, id="search-dot"),
    pytest.param(RNNSearch, {"attention": "general"}, id="search-general"),
    pytest.param(RNNSearch, {"readout_state": "current"}, id="search-current"),
    pytest.param(RNNSearch, {"maxout": False, "dropout": 0.3}, id="search-linear-readout"),
    pytest.param(RNNEncDec, {"readout_state": "current", "maxout": False}, id="encdec-current-linear"),
]


@pytest.mark.parametrize("cls, kw", VARIANTS)
def test_variants_step_equals_forward_and_ignore_padding(cls, kw):
    model = _model(cls, **kw)
    pairs = _pairs()
    batch = collate(pairs)
    with torch.no_grad():
        forced = torch.log_softmax(model(batch), -1)
        state = model.encode(batch.src, batch.src_lengths)
        for t in range(batch.tgt_in.shape[1]):
            lp, state = model.step(batch.tgt_in[:, t], state)
            real = batch.tgt_out[:, t] != PAD
            torch.testing.assert_close(lp[real], forced[real, t], rtol=0, atol=1e-9)
        for i, pair in enumerate(pairs):
            alone = model(collate([pair]))
            torch.testing.assert_close(model(batch)[i, : alone.shape[1]], alone[0], rtol=0, atol=1e-10)


@pytest.mark.parametrize("cls, kw", VARIANTS)
def test_variants_batched_beam_equals_one_by_one(cls, kw):
    model = _model(cls, **kw)
    batch = collate(_pairs())
    together = beam_search(model, batch.src, batch.src_lengths, beam_size=3, max_len=7)
    for i in range(4):
        n = int(batch.src_lengths[i])
        alone = beam_search(model, batch.src[i : i + 1, :n], batch.src_lengths[i : i + 1],
                            beam_size=3, max_len=7)[0]
        assert together[i][0].tokens == alone[0].tokens


def test_dot_attention_halves_each_encoder_direction():
    model = RNNSearch(SRC_V, TGT_V, embed_dim=8, hidden_size=12, attention="dot")
    assert model.encoder.hidden_size == 6 and model.annotation_dim == 12
    assert RNNSearch(SRC_V, TGT_V, hidden_size=12).annotation_dim == 24


def test_greedy_search_returns_attention_of_every_step():
    model = _model()
    batch = collate(_pairs())
    hyps = greedy_search(model, batch.src, batch.src_lengths, max_len=5, return_attention=True)
    for h, n in zip(hyps, batch.src_lengths.tolist()):
        assert h.attention.shape == (len(h.tokens), n)
        torch.testing.assert_close(h.attention.sum(-1), torch.ones(len(h.tokens)))


def _expected_rnnsearch_parameters(Vs, Vt, E, H, A, M):
    gru = lambda i, h: 3 * h * i + 3 * h * h + 6 * h  # noqa: E731 - W_ih, W_hh, two biases
    return (Vs * E + Vt * E + 2 * gru(E, H) + (H * H + H)  # embeddings, BiGRU, W_s
            + (H * A + 2 * H * A + A + A)  # W_a, U_a (+ bias), v_a
            + gru(E + 2 * H, H)  # decoder GRU over [E y ; c]
            + ((H + E + 2 * H) * 2 * M + 2 * M) + (M * Vt + Vt))  # [U_o|V_o|C_o], W_o


def test_parameter_counts_follow_the_equations():
    search = RNNSearch(SRC_V, TGT_V, embed_dim=8, hidden_size=12, attention_dim=10, maxout_dim=7)
    assert search.num_parameters() == _expected_rnnsearch_parameters(SRC_V, TGT_V, 8, 12, 10, 7)
    encdec = RNNEncDec(SRC_V, TGT_V, embed_dim=8, hidden_size=12, maxout_dim=7)
    gru = lambda i, h: 3 * h * i + 3 * h * h + 6 * h  # noqa: E731
    expected = (SRC_V * 8 + TGT_V * 8 + gru(8, 12) + 2 * (12 * 12 + 12) + gru(8 + 12, 12)
                + (12 + 8 + 12) * 14 + 14 + 7 * TGT_V + TGT_V)
    assert encdec.num_parameters() == expected
    assert encdec.num_parameters() < search.num_parameters()


# ---------------------------------------------------------------------------- RNNencdec
def test_rnnencdec_reads_one_fixed_context():
    model = _model(RNNEncDec)
    src = torch.tensor([[5, 6, 7, EOS], [8, 9, EOS, PAD]])
    lengths = torch.tensor([4, 3])
    with torch.no_grad():
        s0, c = model.encode(src, lengths)
        for b, n in enumerate(lengths.tolist()):
            _, h = model.encoder(model.src_embed(src[b : b + 1, :n]))
            expected_c = torch.tanh(model.V(h[0, 0]))
            torch.testing.assert_close(c[b], expected_c, rtol=0, atol=1e-12)
            torch.testing.assert_close(s0[b], torch.tanh(model.V_init(expected_c)), rtol=0, atol=1e-12)
        _, (s1, c1) = model.step(torch.full((2,), BOS), (s0, c))
    assert torch.equal(c1, c) and not torch.equal(s1, s0)
    assert isinstance(model, Translator) and not isinstance(model, AttentionTranslator)


def test_both_models_build_from_the_registry():
    search = build_model({"name": "rnnsearch", "hidden_size": 16, "attention": "general"}, 20, 30)
    encdec = build_model({"name": "rnnencdec", "hidden_size": 16}, 20, 30)
    assert isinstance(search, RNNSearch) and search.attention_kind == "general"
    assert search.tgt_vocab_size == 30 and encdec.src_vocab_size == 20
    with pytest.raises(ConfigError, match="model.attention: expected str"):
        build_model({"name": "rnnsearch", "attention": 3}, 20, 30)


def test_rnnsearch_learns_a_reordering_task_through_the_trainer():
    """Reverse short random sequences: the loss must fall far below its start in 100 steps."""
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    pairs = []
    for _ in range(64):
        n = int(torch.randint(3, 7, (1,), generator=g))
        s = torch.randint(4, 12, (n,), generator=g).tolist()
        pairs.append((s + [EOS], s[::-1]))
    batches = [collate(pairs[k : k + 16]) for k in range(0, 64, 16)]
    model = RNNSearch(12, 12, embed_dim=16, hidden_size=32, attention_dim=16, maxout_dim=16)
    history = Trainer(model, batches, None, preset="adam", lr=0.01, max_steps=100,
                      eval_every=0, progress=False).fit()
    first = sum(history.train_loss[:4]) / 4
    last = sum(history.train_loss[-4:]) / 4
    assert first > 2.0 and last < 0.25 * first, (first, last)


# ---------------------------------------------------------------------------- user errors
@pytest.mark.parametrize("kw, message", [
    ({"attention": "multiplicative"}, "RNNSearch: attention must be one of 'additive', 'dot', 'general'"),
    ({"readout_state": "next"}, "RNNSearch: readout_state must be one of 'previous', 'current'"),
    ({"dropout": 1.0}, r"RNNSearch: dropout must be a number in \[0.0, 1.0\)"),
    ({"hidden_size": 0}, "RNNSearch: hidden_size must be an integer >= 1, got 0"),
    ({"maxout_dim": 2.5}, "RNNSearch: maxout_dim must be an integer >= 1, got 2.5"),
    ({"maxout": "yes"}, "RNNSearch: maxout must be true or false, got 'yes'"),
    ({"attention": "dot", "hidden_size": 7}, "attention='dot' needs an even hidden_size"),
    ({"tgt_vocab_size": 4}, "RNNSearch: tgt_vocab_size must be an integer >= 5, got 4"),
])
def test_rnnsearch_configuration_errors(kw, message):
    args = {"src_vocab_size": SRC_V, "tgt_vocab_size": TGT_V, **kw}
    with pytest.raises(ConfigError, match=message):
        RNNSearch(**args)


@pytest.mark.parametrize("kw, message", [
    ({"readout_state": "both"}, "RNNEncDec: readout_state must be one of"),
    ({"embed_dim": -1}, "RNNEncDec: embed_dim must be an integer >= 1"),
    ({"dropout": -0.1}, "RNNEncDec: dropout must be a number in"),
])
def test_rnnencdec_configuration_errors(kw, message):
    with pytest.raises(ConfigError, match=message):
        RNNEncDec(SRC_V, TGT_V, **kw)


def test_score_module_errors():
    with pytest.raises(ConfigError,
                       match="LuongDotAttention: dot scores need query_dim == key_dim, got 4 and 6"):
        LuongDotAttention(4, 6)
    with pytest.raises(ConfigError, match="make_attention: attention must be one of"):
        make_attention("cosine", 4, 4, 4)
    with pytest.raises(ConfigError, match="BahdanauAttention: attention_dim must be an integer >= 1"):
        BahdanauAttention(4, 4, 0)


@pytest.mark.parametrize("cls", [RNNSearch, RNNEncDec])
def test_data_errors_are_one_line(cls):
    model = _model(cls)
    batch = collate(_pairs())
    batch.src = None
    with pytest.raises(DataError, match=f"{cls.__name__}.forward: the batch has no source"):
        model(batch)
    with pytest.raises(DataError, match=f"{cls.__name__}.encode: src_lengths must lie in"):
        model.encode(torch.tensor([[5, EOS]]), torch.tensor([3]))


def test_step_attention_before_any_step_is_an_error():
    model = _model()
    state = model.encode(torch.tensor([[5, EOS]]), torch.tensor([2]))
    with pytest.raises(DataError, match="no step has attended yet"):
        model.step_attention(state)
