"""Every registered model against the contract of ``companion.models.contract``.

Registering a model in ``companion.models.MODELS`` is what subjects it to these tests: step-by-step
decoding equals the teacher-forced forward, padding and batching change nothing, ``reorder_state``
equals recomputation, greedy equals beam 1, batched beam equals one-by-one, attention weights are
distributions that ignore padding, and a checkpoint round trip gives the same outputs.
"""

from __future__ import annotations

import pytest
import torch

from companion.data.batching import collate, lm_batches
from companion.errors import DataError
from companion.decoding import beam_search, greedy_search
from companion.models import MODELS, build_model, get_model_class
from companion.models.contract import (CHECK_VALUES_ENV, AttentionTranslator, EveryRowReorder, LanguageModel,
                                       Translator, check_source, checks_values, is_translator, sentence_rows)
from companion.specials import PAD
from companion.training.checkpoint import atomic_save
from tests.helpers import random_pairs

SRC_V, TGT_V = 13, 11
NAMES = sorted(MODELS)


def _build(name: str, seed: int = 0) -> torch.nn.Module:
    torch.manual_seed(seed)
    cls = get_model_class(name)
    model = build_model({"name": name, **cls.example_args}, SRC_V, TGT_V).double().eval()
    with torch.no_grad():  # random init of some models is near-uniform: sharpen it so
        for p in model.parameters():  # that searches and comparisons are not decided by ties
            p.mul_(3.0)
    return model


def _pairs(seed: int = 1, n: int = 4) -> list[tuple[list[int], list[int]]]:
    return random_pairs(seed, n, SRC_V, TGT_V)


def _kind(name):
    return "translator" if is_translator(_build(name)) else "lm"


TRANSLATORS = [n for n in NAMES if _kind(n) == "translator"]
LMS = [n for n in NAMES if _kind(n) == "lm"]


def _lm_batch(seed: int = 1):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(4, TGT_V, (3 * 9,), generator=g)
    return next(iter(lm_batches(ids, batch_size=3, seq_len=8, shuffle=False)))


def _step_log_probs(model, batch) -> torch.Tensor:
    """Log-probabilities of every position computed one step at a time, (B, T, V)."""
    if is_translator(model):
        state = model.encode(batch.src, batch.src_lengths)
    else:
        state = model.initial_state(batch.tgt_in.shape[0])
    out = []
    for t in range(batch.tgt_in.shape[1]):
        lp, state = model.step(batch.tgt_in[:, t], state)
        out.append(lp)
    return torch.stack(out, dim=1)


# ---------------------------------------------------------------------------------- every model
@pytest.mark.parametrize("name", NAMES)
def test_meets_its_protocol_and_has_example_args(name):
    model = _build(name)
    assert isinstance(get_model_class(name).example_args, dict)
    assert isinstance(model, Translator) or isinstance(model, LanguageModel)


@pytest.mark.parametrize("name", NAMES)
def test_step_by_step_equals_teacher_forced_forward(name):
    model = _build(name)
    batch = collate(_pairs()) if is_translator(model) else _lm_batch()
    with torch.no_grad():
        logits = model(batch)
        assert logits.shape == (*batch.tgt_in.shape, TGT_V)
        forced = torch.log_softmax(logits, dim=-1)
        stepped = _step_log_probs(model, batch)
    real = batch.tgt_out != PAD
    torch.testing.assert_close(stepped[real], forced[real], rtol=0, atol=1e-9)


@pytest.mark.parametrize("name", NAMES)
def test_a_position_never_sees_later_targets(name):
    model = _build(name)
    batch = collate(_pairs()) if is_translator(model) else _lm_batch()
    changed = collate(_pairs()) if is_translator(model) else _lm_batch()
    changed.tgt_in[:, -1] = 4 + (changed.tgt_in[:, -1] - 3) % (TGT_V - 4)
    with torch.no_grad():
        a, b = model(batch), model(changed)
    torch.testing.assert_close(a[:, :-1], b[:, :-1], rtol=0, atol=1e-12)
    assert not torch.allclose(a[:, -1], b[:, -1])


@pytest.mark.parametrize("name", NAMES)
def test_reorder_state_equals_recomputation(name):
    model = _build(name)
    index = torch.tensor([2, 0, 0, 1])
    with torch.no_grad():
        if is_translator(model):
            batch = collate(_pairs()[:3])
            state = model.reorder_state(model.encode(batch.src, batch.src_lengths), index)
            fresh = model.encode(batch.src[index], batch.src_lengths[index])
        else:
            batch = _lm_batch()
            warm = model.initial_state(3)
            _, warm = model.step(batch.tgt_in[:, 0], warm)
            state = model.reorder_state(warm, index)
            fresh = model.initial_state(4)
            _, fresh = model.step(batch.tgt_in[index, 0], fresh)
        prev = torch.tensor([1, 5, 6, 7])
        for _ in range(3):
            a, state = model.step(prev, state)
            b, fresh = model.step(prev, fresh)
            torch.testing.assert_close(a, b, rtol=0, atol=1e-12)
            prev = a.argmax(-1)


@pytest.mark.parametrize("name", NAMES)
def test_checkpoint_round_trip(name, tmp_path):
    model = _build(name)
    path = tmp_path / "model.pt"
    atomic_save({"model": model.state_dict()}, path)
    loaded = _build(name, seed=123)
    loaded.load_state_dict(torch.load(path, weights_only=True)["model"])
    batch = collate(_pairs()) if is_translator(model) else _lm_batch()
    with torch.no_grad():
        assert torch.equal(model(batch), loaded(batch))


# ---------------------------------------------------------------------------------- translators
@pytest.mark.parametrize("name", TRANSLATORS)
def test_padding_and_batching_change_nothing(name):
    model = _build(name)
    pairs = _pairs()
    batch = collate(pairs)
    with torch.no_grad():
        together = model(batch)
        for i, pair in enumerate(pairs):
            alone = model(collate([pair]))
            T = alone.shape[1]
            torch.testing.assert_close(together[i, :T], alone[0], rtol=0, atol=1e-10)
        wide = collate(pairs)
        wide.src = torch.cat([wide.src, torch.full((len(pairs), 3), PAD)], dim=1)
        torch.testing.assert_close(model(wide), together, rtol=0, atol=1e-10)


@pytest.mark.parametrize("name", TRANSLATORS)
def test_greedy_equals_beam_of_one(name):
    model = _build(name)
    batch = collate(_pairs())
    greedy = greedy_search(model, batch.src, batch.src_lengths, max_len=8)
    beam = beam_search(model, batch.src, batch.src_lengths, beam_size=1, max_len=8)
    assert [h.tokens for h in greedy] == [b[0].tokens for b in beam]
    for g, b in zip(greedy, beam):
        assert g.log_prob == pytest.approx(b[0].log_prob, abs=1e-9)


@pytest.mark.parametrize("name", TRANSLATORS)
def test_batched_beam_equals_one_by_one(name):
    model = _build(name)
    batch = collate(_pairs())
    together = beam_search(model, batch.src, batch.src_lengths, beam_size=3, nbest=2,
                           length_penalty=0.6, max_len=8)
    for i in range(batch.src.shape[0]):
        n = int(batch.src_lengths[i])
        alone = beam_search(model, batch.src[i : i + 1, :n], batch.src_lengths[i : i + 1],
                            beam_size=3, nbest=2, length_penalty=0.6, max_len=8)[0]
        assert [h.tokens for h in together[i]] == [h.tokens for h in alone]
        for a, b in zip(together[i], alone):
            assert a.score == pytest.approx(b.score, abs=1e-9)


ATTENTION = [n for n in TRANSLATORS if isinstance(_build(n), AttentionTranslator)]


@pytest.mark.parametrize("name", ATTENTION or [pytest.param("none", marks=pytest.mark.skip(
    reason="no attention model is registered"))])
def test_attention_weights_are_distributions_over_real_tokens(name):
    model = _build(name)
    batch = collate(_pairs())
    with torch.no_grad():
        state = model.encode(batch.src, batch.src_lengths)
        _, state = model.step(batch.tgt_in[:, 0], state, need_attention=True)
        w = model.step_attention(state)
    assert w.shape == batch.src.shape
    torch.testing.assert_close(w.sum(-1), torch.ones(w.shape[0], dtype=w.dtype))
    assert torch.all(w[batch.src == PAD] == 0)
    hyps = greedy_search(model, batch.src, batch.src_lengths, max_len=6, return_attention=True)
    for h, n in zip(hyps, batch.src_lengths.tolist()):
        assert h.attention.shape == (len(h.tokens), n)


def test_a_model_without_attention_refuses_to_return_it():
    from companion.errors import ConfigError

    model = _build("seq2seq")
    batch = collate(_pairs())
    with pytest.raises(ConfigError, match="no attention to return"):
        greedy_search(model, batch.src, batch.src_lengths, max_len=4, return_attention=True)



# ---------------------------------------------------------------------------------- shared source state
def _grouped(name: str) -> bool:
    batch = collate(_pairs()[:1])
    with torch.no_grad():
        return hasattr(_build(name).encode(batch.src, batch.src_lengths), "per_sentence")


GROUPED = [n for n in TRANSLATORS if _grouped(n)]


def test_the_attention_models_share_their_source_tensors_per_sentence():
    assert {"transformer", "rnnsearch"} <= set(GROUPED)


@pytest.mark.parametrize("name", GROUPED)
def test_beam_like_reorders_keep_one_copy_per_sentence_and_equal_recomputation(name):
    """Rows in blocks per sentence (beam search's layout) share their sentence's tensors; the
    steps equal those of a state built from repeated sources, which has a copy per row."""
    model = _build(name)
    batch = collate(_pairs()[:3])
    k = 3
    with torch.no_grad():
        state = model.encode(batch.src, batch.src_lengths)
        shared = {f: getattr(state, f) for f in state.per_sentence}
        state = model.reorder_state(state, torch.arange(3).repeat_interleave(k))
        assert state.group == k
        for f in state.per_sentence:  # nothing copied: the very same tensors
            assert getattr(state, f) is shared[f]
        rows = torch.arange(3).repeat_interleave(k)
        fresh = model.encode(batch.src[rows], batch.src_lengths[rows])
        prev, live = torch.tensor([1] * (3 * k)), 3
        for t in range(4):
            a, state = model.step(prev, state)
            b, fresh = model.step(prev, fresh)
            torch.testing.assert_close(a, b, rtol=0, atol=1e-12)
            # each sentence keeps its k rows in a new order; after step 2 the middle one finishes
            order = torch.tensor([2, 0, 0]) if t % 2 else torch.tensor([1, 1, 2])
            index = (torch.arange(live).unsqueeze(1) * k + order).reshape(-1)
            if t == 2:
                index, live = index.view(live, k)[[0, 2]].reshape(-1), 2
            state, fresh = model.reorder_state(state, index), model.reorder_state(fresh, index)
            prev = a.argmax(-1)[index]
        first = getattr(state, state.per_sentence[-1])
        first = first[0][0] if isinstance(first, tuple) else first
        assert state.group == k and first.shape[0] == 2  # only the finished sentence was dropped


@pytest.mark.parametrize("name", GROUPED)
def test_per_sentence_reorder_gives_the_outputs_of_a_copy_per_row(name):
    """The reference reorder (every row its own copy, the search before per-sentence states)
    and the model's own give the same hypotheses."""
    model = _build(name)
    batch = collate(_pairs())
    kw = dict(beam_size=3, nbest=2, length_penalty=0.6, max_len=8)
    shared = beam_search(model, batch.src, batch.src_lengths, **kw)
    copied = beam_search(EveryRowReorder(model), batch.src, batch.src_lengths, **kw)
    for a, b in zip(shared, copied):
        assert [h.tokens for h in a] == [h.tokens for h in b]
        assert [h.score for h in a] == pytest.approx([h.score for h in b], abs=1e-12)


def test_sentence_rows_finds_blocks_of_rows_per_sentence():
    # beam search's first reorder: k = 3 copies of each of 2 sentences -> nothing to copy
    keep, group = sentence_rows(torch.tensor([0, 0, 0, 1, 1, 1]), 1, 2)
    assert keep is None and group == 3
    # hypotheses reordered within their sentence: still nothing to copy
    keep, group = sentence_rows(torch.tensor([2, 0, 0, 4, 3, 5]), 3, 2)
    assert keep is None and group == 3
    # sentence 0 finished: only sentence 1's tensors are kept
    keep, group = sentence_rows(torch.tensor([4, 3, 5]), 3, 2)
    assert keep.tolist() == [1] and group == 3
    # a reorder that mixes sentences gives each row its own copy
    keep, group = sentence_rows(torch.tensor([3, 0, 1]), 3, 2)
    assert keep.tolist() == [1, 0, 0] and group == 1
    keep, group = sentence_rows(torch.tensor([2, 0, 0, 1]), 1, 3)
    assert keep.tolist() == [2, 0, 0, 1] and group == 1
    keep, group = sentence_rows(torch.tensor([], dtype=torch.long), 2, 3)
    assert keep.numel() == 0 and group == 1


def test_value_checks_run_on_the_cpu_and_only_on_request_on_an_accelerator(monkeypatch):
    cpu = torch.zeros(2, dtype=torch.long)
    meta = torch.zeros(2, dtype=torch.long, device="meta")  # stands for a GPU: no values to read
    monkeypatch.delenv(CHECK_VALUES_ENV, raising=False)
    assert checks_values(cpu) and not checks_values(meta)
    check_source(torch.zeros(2, 3, dtype=torch.long, device="meta"), meta, "test")  # shapes only
    monkeypatch.setenv(CHECK_VALUES_ENV, "1")
    assert checks_values(meta)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_input_checks_do_not_synchronise_a_gpu(monkeypatch):
    from companion.models.transformer.model import _check_ids

    monkeypatch.delenv(CHECK_VALUES_ENV, raising=False)
    src = torch.tensor([[4, 5, 2], [6, 2, 0]], device="cuda")
    lengths = torch.tensor([3, 2], device="cuda")
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")  # any device-to-host copy raises
    try:
        check_source(src, lengths, "test")
        _check_ids(src, 13, "src", "test")
    finally:
        torch.cuda.set_sync_debug_mode("default")


# ---------------------------------------------------------------------------------- packed batches
PACKED_FIX = r"reads one pair per row, and a packed batch .* -- use data\.batching: bucketed"


def _packed_batch():
    from companion.data.packing import collate_packed

    return collate_packed([(s, t, i) for i, (s, t) in enumerate(_pairs(seed=3, n=6))])


@pytest.mark.parametrize("name", NAMES)
def test_a_model_that_cannot_read_packed_rows_refuses_them_in_forward(name):
    model, batch = _build(name), _packed_batch()
    assert batch.packed and int(batch.tgt_segments.max()) > 1  # rows that hold several pairs
    if getattr(model, "accepts_packed", False):
        assert model(batch).shape == (*batch.tgt_out.shape, TGT_V)
        return
    cls = type(model).__name__
    with pytest.raises(DataError, match=rf"^{cls}\.forward: {PACKED_FIX}"):
        model(batch)


@pytest.mark.parametrize("name", TRANSLATORS)
def test_encode_refuses_rows_that_hold_several_sources(name):
    model, batch = _build(name), _packed_batch()
    cls = type(model).__name__
    with pytest.raises(DataError, match=rf"^{cls}\.encode: reads one sentence per row, but row \d+ of src holds an "
                                        rf"EOS before its last token .* use data\.batching: bucketed"):
        model.encode(batch.src, batch.src_lengths)
    one = collate(_pairs(seed=3, n=6))  # the same pairs one per row are read
    model.encode(one.src, one.src_lengths)


def test_evaluate_loss_refuses_packed_batches_for_a_recurrent_model():
    from companion.data.batching import make_loader
    from companion.training import evaluate_loss

    model = _build("seq2seq").float()
    loader = make_loader(_pairs(seed=4, n=12), 40, shuffle=False, batching="packed")
    with pytest.raises(DataError, match=rf"^Seq2Seq\.forward: {PACKED_FIX}"):
        evaluate_loss(model, loader)
    assert evaluate_loss(model, make_loader(_pairs(seed=4, n=12), 40, shuffle=False))[2] > 0


def test_the_transformer_refuses_packed_batches_where_it_ignores_segments():
    model, batch = _build("transformer"), _packed_batch()
    with pytest.raises(DataError, match=rf"^Transformer\.cross_attention: {PACKED_FIX}"):
        model.cross_attention(batch)
