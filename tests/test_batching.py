"""Tests of companion.data.batching: Batch, collate, bucketing, loaders, LM batches."""

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.data.batching import (
    Batch,
    BucketBatchSampler,
    MixedBatchSampler,
    causal_mask,
    collate,
    encode_pairs,
    source_ids,
    example_lengths,
    lm_batches,
    make_loader,
    reverse_padded,
    reverse_source_tokens,
)
from companion.data.vocab import CharVocab
from companion.errors import DataError
from companion.specials import BOS, EOS, PAD

SETTINGS = settings(max_examples=40, deadline=None)

# an example: source = ids >= 4 then EOS; target = ids >= 4
sentence = st.lists(st.integers(4, 50), min_size=0, max_size=12)
example = st.tuples(sentence.map(lambda s: s + [EOS]), sentence)
examples = st.lists(example, min_size=1, max_size=30)


def test_seed_004_shifted_decoder_input_and_labels():
    b = collate([([9, EOS], [4, 5, 6]), ([8, EOS], [7])])
    assert b.tgt_in.tolist() == [[1, 4, 5, 6], [1, 7, 2, 0]]
    assert b.tgt_out.tolist() == [[4, 5, 6, 2], [7, 2, 0, 0]]
    assert b.ntokens == 6  # the 6 scored tokens of seed 004
    assert b.tgt_in.dtype == torch.long and b.src.dtype == torch.long
    assert b.indices is None


def test_collate_source_padding_and_masks():
    b = collate([([9, 8, 7, EOS], [4], 5), ([6, EOS], [4, 4, 4], 2)])
    assert b.src.tolist() == [[9, 8, 7, 2], [6, 2, 0, 0]]
    assert b.src_lengths.tolist() == [4, 2]
    assert b.src_mask.tolist() == [[True] * 4, [True, True, False, False]]
    assert b.tgt_pad_mask.tolist() == [[True, True, True, False], [True, True, True, True]]
    assert b.indices.tolist() == [5, 2]
    assert len(b) == 2 and b.size == 2
    assert b.causal_mask().tolist() == causal_mask(4).tolist()
    assert b.causal_mask(2).tolist() == [[True, False], [True, True]]
    m = b.tgt_attn_mask
    assert m.shape == (2, 4, 4)
    assert m[0, 3].tolist() == [True, True, True, False]  # row 0 key 3 is PAD
    assert m[1, 1].tolist() == [True, True, False, False]  # causal


def test_the_masks_of_one_pair_per_row_refuse_a_packed_batch():
    from companion.data.packing import collate_packed

    packed = collate_packed([([9, 8, 7, EOS], [4, 5, 6], 0), ([9, EOS], [4], 1), ([8, EOS], [5], 2)])
    assert packed.packed and int(packed.src_segments.max()) == 2  # two pairs share a row
    for name in ("src_mask", "tgt_attn_mask"):
        with pytest.raises(DataError, match=rf"^Batch\.{name}: a packed batch holds several pairs per row and "
                                            rf"this mask ignores their segments"):
            getattr(packed, name)
    assert packed.tgt_pad_mask.shape == packed.tgt_in.shape  # padding alone is still well defined


def test_collate_empty_raises():
    with pytest.raises(DataError, match="cannot collate an empty list of examples"):
        collate([])


def test_batch_to_keeps_fields():
    b = collate([([9, EOS], [4], 0)]).to("cpu")
    assert isinstance(b, Batch) and b.indices.tolist() == [0]
    lm = Batch(None, None, torch.tensor([[5, 6]]), torch.tensor([[6, 7]])).to("cpu")
    assert lm.src is None and lm.src_mask is None and lm.ntokens == 2


@SETTINGS
@given(examples)
def test_masks_match_padding(exs):
    b = collate(exs)
    assert torch.equal(b.src_mask, b.src != PAD)  # real ids are never PAD
    assert torch.equal(b.tgt_pad_mask, b.tgt_in != PAD)
    assert b.src_lengths.tolist() == [len(s) for s, _ in exs]
    assert b.ntokens == sum(len(t) + 1 for _, t in exs)
    for row, (_, t) in zip(range(len(exs)), exs):
        assert b.tgt_in[row, : len(t) + 1].tolist() == [BOS, *t]
        assert b.tgt_out[row, : len(t) + 1].tolist() == [*t, EOS]
        assert (b.tgt_out[row, len(t) + 1 :] == PAD).all()
    assert torch.equal(b.tgt_in[:, 1:], b.tgt_out[:, :-1])


@SETTINGS
@given(examples)
def test_reversal_is_an_involution_and_keeps_pad_and_eos(exs):
    b = collate(exs)
    r = collate(exs, reverse_source=True)
    assert torch.equal(r.src_lengths, b.src_lengths)
    assert torch.equal(r.src == PAD, b.src == PAD)
    eos_pos = b.src_lengths - 1
    rows = torch.arange(len(exs))
    assert (r.src[rows, eos_pos] == EOS).all()
    for i, (s, _) in enumerate(exs):
        assert r.src[i, : len(s) - 1].tolist() == s[-2::-1]
    assert torch.equal(reverse_padded(b.src, b.src_lengths), r.src)
    assert torch.equal(reverse_padded(r.src, r.src_lengths), b.src)
    assert torch.equal(r.tgt_in, b.tgt_in) and torch.equal(r.tgt_out, b.tgt_out)


def test_reverse_source_tokens():
    assert reverse_source_tokens([5, 6, 7, EOS]) == [7, 6, 5, EOS]
    assert reverse_source_tokens([EOS]) == [EOS]
    assert reverse_source_tokens([5, 6]) == [6, 5]
    assert reverse_source_tokens([]) == []


lengths_st = st.lists(st.integers(1, 40), min_size=1, max_size=80)


@SETTINGS
@given(lengths_st, st.integers(1, 120), st.integers(0, 3), st.booleans())
def test_every_example_once_and_budget_respected(lengths, max_tokens, epoch, shuffle):
    s = BucketBatchSampler(lengths, max_tokens, shuffle=shuffle, seed=7)
    s.set_epoch(epoch)
    batches = list(s)
    assert len(batches) == len(s)
    flat = [i for b in batches for i in b]
    assert sorted(flat) == list(range(len(lengths)))
    for b in batches:
        assert b
        cost = len(b) * max(lengths[i] for i in b)
        assert cost <= max_tokens or len(b) == 1


@SETTINGS
@given(lengths_st, st.integers(1, 120), st.integers(0, 1000))
def test_same_seed_and_epoch_same_order(lengths, max_tokens, seed):
    a = BucketBatchSampler(lengths, max_tokens, seed=seed)
    b = BucketBatchSampler(lengths, max_tokens, seed=seed)
    a.set_epoch(3)
    b.set_epoch(3)
    assert list(a) == list(b)
    assert list(a) == list(a)  # iterating does not advance anything


def test_different_epoch_different_order():
    lengths = [(i * 7) % 13 + 1 for i in range(200)]
    s = BucketBatchSampler(lengths, 60, seed=0)
    orders = []
    for epoch in range(3):
        s.set_epoch(epoch)
        orders.append(list(s))
    assert orders[0] != orders[1] and orders[1] != orders[2]
    # and the batches still group similar lengths
    for b in orders[0]:
        assert max(lengths[i] for i in b) - min(lengths[i] for i in b) <= 1


def test_no_shuffle_is_length_sorted_and_epoch_independent():
    lengths = [5, 1, 3, 2, 4]
    s = BucketBatchSampler(lengths, 6, shuffle=False)
    first = list(s)
    s.set_epoch(9)
    assert list(s) == first == [[1, 3], [2], [4], [0]]


def test_over_long_example_goes_alone():
    s = BucketBatchSampler([2, 2, 50, 2], 10, shuffle=False)
    assert list(s) == [[0, 1, 3], [2]]
    assert list(BucketBatchSampler(torch.tensor([2, 2, 50, 2]), 10, shuffle=False)) == list(s)


@SETTINGS
@given(lengths_st, st.integers(1, 120), st.integers(2, 4), st.integers(0, 2))
def test_replicas_split_each_global_batch(lengths, max_tokens, replicas, epoch):
    if len(lengths) < replicas:
        return
    single = BucketBatchSampler(lengths, max_tokens, seed=3, num_replicas=replicas)
    single.set_epoch(epoch)
    global_batches = single.global_batches()
    per_rank = []
    for rank in range(replicas):
        s = BucketBatchSampler(lengths, max_tokens, seed=3, num_replicas=replicas, rank=rank)
        s.set_epoch(epoch)
        per_rank.append(list(s))
        assert len(per_rank[-1]) == len(global_batches) == len(s)
    for i, g in enumerate(global_batches):
        parts = [per_rank[r][i] for r in range(replicas)]
        assert all(parts)  # every rank gets something
        assert sorted(j for p in parts for j in p) == sorted(g)
    assert sorted(j for g in global_batches for j in g) == list(range(len(lengths)))


def test_replicas_union_equals_single_process_batches():
    lengths = [(i * 5) % 11 + 1 for i in range(100)]
    one = BucketBatchSampler(lengths, 40, seed=1)
    two = [BucketBatchSampler(lengths, 40, seed=1, num_replicas=2, rank=r) for r in range(2)]
    for s in [one, *two]:
        s.set_epoch(2)
    merged = [sorted(a + b) for a, b in zip(*two)]
    assert merged == [sorted(b) for b in one]


def test_replicas_drop_last():
    s = BucketBatchSampler([1, 1, 1, 1, 9], 4, shuffle=False, num_replicas=2, drop_last=True)
    assert s.global_batches() == [[0, 1, 2, 3]]
    t = BucketBatchSampler([1, 1, 1, 1, 9], 4, shuffle=False, num_replicas=2)
    assert t.global_batches() == [[0, 1, 2, 3, 4]]


def test_sampler_errors():
    with pytest.raises(DataError, match="max_tokens must be a positive integer, got 0"):
        BucketBatchSampler([1, 2], 0)
    with pytest.raises(DataError, match="non-empty list of example lengths"):
        BucketBatchSampler([], 10)
    with pytest.raises(DataError, match="rank 2 is not in range for num_replicas=2"):
        BucketBatchSampler([1, 2], 10, num_replicas=2, rank=2)
    with pytest.raises(DataError, match="1 examples cannot be shared by 2 replicas"):
        BucketBatchSampler([1], 10, num_replicas=2)


class _WordVocab:
    """Whitespace tokenizer over a fixed word list (ids from 4)."""

    def __init__(self, words):
        self.ids = {w: i + 4 for i, w in enumerate(words)}

    def encode(self, text):
        return [self.ids[w] for w in text.split()]


# -- mixed-length batches --------------------------------------------------------------------------


@SETTINGS
@given(lengths_st, st.integers(1, 120), st.integers(0, 3), st.booleans(), st.integers(1, 3))
def test_mixed_every_example_once_and_budget_respected(lengths, max_tokens, epoch, shuffle, replicas):
    if len(lengths) < replicas:
        return
    s = MixedBatchSampler(lengths, max_tokens, shuffle=shuffle, seed=7, num_replicas=replicas)
    s.set_epoch(epoch)
    batches = s.global_batches()
    assert len(batches) == len(s)
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
    for k, b in enumerate(batches):
        assert len(b) >= replicas
        last = k == len(batches) - 1  # a short final batch is merged into the one before it
        # over budget only when a batch could not be cut sooner: at its minimum size, or merged
        assert len(b) * max(lengths[i] for i in b) <= max_tokens or len(b) == replicas or last
    if not shuffle:
        assert [i for b in batches for i in b] == list(range(len(lengths)))  # the examples' own order


@SETTINGS
@given(lengths_st, st.integers(1, 120), st.integers(2, 3), st.integers(0, 2))
def test_mixed_replicas_share_the_global_batches(lengths, max_tokens, replicas, epoch):
    if len(lengths) < replicas:
        return
    ranks = [MixedBatchSampler(lengths, max_tokens, seed=3, num_replicas=replicas, rank=r) for r in range(replicas)]
    for s in ranks:
        s.set_epoch(epoch)
    global_batches = ranks[0].global_batches()
    per_rank = [list(s) for s in ranks]
    assert all(len(p) == len(global_batches) for p in per_rank)  # every rank steps together
    for i, g in enumerate(global_batches):
        assert sorted(j for p in per_rank for j in p[i]) == sorted(g)


def test_mixed_batches_mix_lengths_where_buckets_do_not():
    lengths = [5 + (i * 7919) % 36 for i in range(3000)]  # 5..40, spread evenly
    spread = lambda bs: sum(max(lengths[i] for i in b) - min(lengths[i] for i in b) for b in bs) / len(bs)  # noqa: E731
    real = lambda bs: sum(lengths[i] for b in bs for i in b) / sum(len(b) * max(lengths[i] for i in b) for b in bs)  # noqa: E731
    mixed, bucketed = MixedBatchSampler(lengths, 800, seed=0), BucketBatchSampler(lengths, 800, seed=0)
    assert spread(list(mixed)) > 25 and spread(list(bucketed)) <= 1
    assert real(list(bucketed)) > 0.95 and 0.5 < real(list(mixed)) < 0.75  # the price: padding
    first = list(mixed)
    mixed.set_epoch(1)
    assert list(mixed) != first
    mixed.set_epoch(0)
    assert list(mixed) == first == list(MixedBatchSampler(lengths, 800, seed=0))  # (seed, epoch) decide


def test_mixed_greedy_cut_and_drop_last():
    s = MixedBatchSampler([2, 3, 9, 2, 2], 8, shuffle=False)
    assert list(s) == [[0, 1], [2], [3, 4]]  # [0,1,2] would cost 3*9; the 9 goes alone
    t = MixedBatchSampler([2, 2, 2, 2, 9], 4, shuffle=False, num_replicas=2)
    assert t.global_batches() == [[0, 1], [2, 3, 4]]  # a final batch of one joins the one before
    u = MixedBatchSampler([2, 2, 2, 2, 9], 4, shuffle=False, num_replicas=2, drop_last=True)
    assert u.global_batches() == [[0, 1], [2, 3]]


def test_make_loader_batching_choice():
    exs = [([4] * n + [EOS], [5] * n) for n in range(1, 30)]
    loader = make_loader(exs, 40, shuffle=True, seed=2, batching="mixed")
    assert isinstance(loader.batch_sampler, MixedBatchSampler)
    assert sorted(i for b in loader for i in b.indices.tolist()) == list(range(len(exs)))
    assert isinstance(make_loader(exs, 40, shuffle=True).batch_sampler, BucketBatchSampler)  # the default
    with pytest.raises(DataError, match="batching must be one of bucketed, mixed, packed, got 'sorted'"):
        make_loader(exs, 40, shuffle=True, batching="sorted")


def test_source_ids_append_eos_once():
    v = _WordVocab("a b c".split())
    assert source_ids(v, "a c") == [4, 6, EOS]
    assert source_ids(v, "") == [EOS]
    assert [s for s, _ in encode_pairs([("a c", "b")], v, v)] == [source_ids(v, "a c")]


def test_encode_pairs_eos_and_max_len():
    v = _WordVocab("a b c d e".split())
    pairs = [("a b", "c"), ("a b c d", "e"), ("e", "a b c d e")]
    assert encode_pairs(pairs, v, v) == [([4, 5, 2], [6]), ([4, 5, 6, 7, 2], [8]), ([8, 2], [4, 5, 6, 7, 8])]
    kept, dropped = encode_pairs(pairs, v, v, max_len=3, return_dropped=True)
    assert kept == [([4, 5, 2], [6])] and dropped == 2
    cut = encode_pairs(pairs, v, v, max_len=3, truncate=True)
    assert cut[1] == ([4, 5, 6, 2], [8]) and cut[2] == ([8, 2], [4, 5, 6])
    with pytest.raises(DataError, match="max_len must be a positive integer or None, got 0"):
        encode_pairs(pairs, v, v, max_len=0)
    assert example_lengths(kept) == [3]


def _loader_examples():
    g = torch.Generator().manual_seed(0)
    out = []
    for _ in range(60):
        n, m = int(torch.randint(1, 9, (1,), generator=g)), int(torch.randint(1, 9, (1,), generator=g))
        out.append(([*torch.randint(4, 30, (n,), generator=g).tolist(), EOS], torch.randint(4, 30, (m,), generator=g).tolist()))
    return out


def _rows(loader):
    rows = []
    for b in loader:
        for k in range(len(b)):
            rows.append((int(b.indices[k]), b.src[k, : b.src_lengths[k]].tolist()))
    return rows


def test_make_loader_covers_examples_and_is_reproducible():
    exs = _loader_examples()
    loader = make_loader(exs, 40, shuffle=True, seed=5)
    loader.batch_sampler.set_epoch(1)
    rows = _rows(loader)
    assert sorted(i for i, _ in rows) == list(range(len(exs)))
    assert all(src == exs[i][0] for i, src in rows)
    again = make_loader(exs, 40, shuffle=True, seed=5)
    again.batch_sampler.set_epoch(1)
    assert _rows(again) == rows
    rev = make_loader(exs, 40, shuffle=False, reverse_source=True)
    for b in rev:
        for k in range(len(b)):
            i = int(b.indices[k])
            assert b.src[k, : b.src_lengths[k]].tolist() == reverse_source_tokens(exs[i][0])
    with pytest.raises(DataError, match="no examples"):
        make_loader([], 40, shuffle=False)


def test_make_loader_with_workers_matches_main_process():
    exs = _loader_examples()
    main = make_loader(exs, 40, shuffle=True, seed=2)
    workers = make_loader(exs, 40, shuffle=True, seed=2, num_workers=2)
    for loader in (main, workers):
        loader.batch_sampler.set_epoch(4)
    assert _rows(workers) == _rows(main)


def test_lm_batches_streams_are_contiguous():
    ids = torch.arange(23)
    bs = lm_batches(ids, batch_size=2, seq_len=4, shuffle=False)
    assert [b.tgt_in.shape[1] for b in bs] == [4, 4, 3]
    assert bs[0].tgt_in.tolist() == [[0, 1, 2, 3], [11, 12, 13, 14]]
    assert bs[1].tgt_in.tolist() == [[4, 5, 6, 7], [15, 16, 17, 18]]
    for b in bs:
        assert b.src is None and b.src_lengths is None
        assert torch.equal(b.tgt_out, b.tgt_in + 1)
    assert len(lm_batches(ids, 2, 4, shuffle=False, drop_last=True)) == 2


def test_lm_batches_shuffled_chunks():
    ids = torch.arange(41)
    a = lm_batches(ids, batch_size=3, seq_len=5, shuffle=True, seed=1, epoch=0)
    b = lm_batches(ids, batch_size=3, seq_len=5, shuffle=True, seed=1, epoch=0)
    c = lm_batches(ids, batch_size=3, seq_len=5, shuffle=True, seed=1, epoch=1)
    assert [x.tgt_in.tolist() for x in a] == [x.tgt_in.tolist() for x in b]
    assert [x.tgt_in.tolist() for x in a] != [x.tgt_in.tolist() for x in c]
    starts = sorted(int(r[0]) for x in a for r in x.tgt_in)
    assert starts == [0, 5, 10, 15, 20, 25, 30, 35]  # every chunk exactly once
    for x in a:
        assert torch.equal(x.tgt_out, x.tgt_in + 1)
    assert [len(x) for x in a] == [3, 3, 2]
    assert [len(x) for x in lm_batches(ids, 3, 5, shuffle=True, drop_last=True)] == [3, 3]


def test_lm_batches_char_text_and_errors():
    v = CharVocab.build("hello world")
    ids = torch.tensor(v.encode("hello world"))
    (b,) = lm_batches(ids, 1, 10, shuffle=False)
    assert v.decode(b.tgt_in[0].tolist()) == "hello worl" and v.decode(b.tgt_out[0].tolist()) == "ello world"
    with pytest.raises(DataError, match="a stream of 3 tokens is too short for seq_len=5"):
        lm_batches(torch.arange(3), 1, 5, shuffle=True)
    with pytest.raises(DataError, match="a stream of 3 tokens is too short for batch_size=4"):
        lm_batches(torch.arange(3), 4, 5, shuffle=False)
    with pytest.raises(DataError, match="batch_size and seq_len must be positive, got 0 and 5"):
        lm_batches(torch.arange(30), 0, 5, shuffle=False)


# -- the greedy cut of mixed and packed batches: one rule, a plan kept per epoch -------------------


def _greedy_reference(lengths, budget, replicas, drop_last, cost):
    """The cut the samplers document, one example at a time: an example joins the open batch while
    it holds fewer than ``replicas`` examples or ``cost(batch + [example]) <= budget``."""
    bounds, batch = [0], []
    for i, length in enumerate(lengths):
        if len(batch) >= replicas and cost(batch + [length]) > budget:
            bounds.append(i)
            batch = []
        batch.append(length)
    bounds.append(len(lengths))
    if bounds[-1] - bounds[-2] < replicas and (drop_last or len(bounds) > 2):
        del bounds[-1 if drop_last else -2]
    return bounds


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 60), min_size=1, max_size=400), st.integers(1, 300), st.integers(1, 3),
       st.booleans(), st.booleans())
def test_mixed_and_packed_cuts_follow_their_cost_rules(lengths, budget, replicas, drop_last, packed):
    from companion.data.packing import PackedBatchSampler

    if len(lengths) < replicas:
        return
    cls, cost = ((PackedBatchSampler, sum) if packed else
                 (MixedBatchSampler, lambda b: len(b) * max(b)))
    s = cls(lengths, budget, shuffle=False, num_replicas=replicas, drop_last=drop_last)
    expected = _greedy_reference(lengths, budget, replicas, drop_last, cost)
    assert s._greedy_bounds(np.asarray(lengths)).tolist() == expected
    assert len(s) == len(expected) - 1


@pytest.mark.parametrize("packed", [False, True])
def test_len_plans_an_epoch_once(monkeypatch, packed):
    from companion.data.packing import PackedBatchSampler

    cls = PackedBatchSampler if packed else MixedBatchSampler
    lengths = [5 + (i * 7919) % 36 for i in range(3000)]
    s = cls(lengths, 800, seed=0)
    fresh = {epoch: len(_planned(cls, lengths, epoch)) for epoch in range(4)}  # before counting
    assert len(set(fresh.values())) > 1  # the count depends on the epoch's order: a stale one would show
    plans = []
    plan = cls._greedy_bounds
    monkeypatch.setattr(cls, "_greedy_bounds", lambda self, x: plans.append(self) or plan(self, x))
    assert len(s) == fresh[0] and len(plans) == 1
    assert len(s) == fresh[0] and len(plans) == 1  # the second len() reads the kept plan
    assert len(list(s)) == fresh[0] and len(plans) == 1  # and the epoch's iteration uses it
    s.set_epoch(0)
    assert len(s) == fresh[0] and len(plans) == 1  # the same epoch: the same plan
    for epoch in (1, 2, 3):
        s.set_epoch(epoch)
        assert len(s) == fresh[epoch] and len(plans) == epoch + 1  # a new epoch is planned once
        assert len(s) == len(list(s)) == fresh[epoch] and len(plans) == epoch + 1


def _planned(cls, lengths, epoch):
    s = cls(lengths, 800, seed=0)
    s.set_epoch(epoch)
    return s.global_batches()
