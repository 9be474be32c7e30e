"""Packed batches (companion.data.packing): several pairs per row compute what they compute alone."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.data.batching import BucketBatchSampler, collate, make_loader
from companion.data.packing import (PackedBatchSampler, collate_packed, pack_rows, segment_mask,
                                    segment_positions)
from companion.errors import ConfigError, DataError
from companion.models.transformer import Transformer
from companion.specials import BOS, EOS, PAD
from companion.training import Trainer, sequence_loss

SETTINGS = settings(max_examples=40, deadline=None)
pair = st.tuples(st.lists(st.integers(4, 30), min_size=1, max_size=9).map(lambda s: s + [EOS]),
                 st.lists(st.integers(4, 25), min_size=0, max_size=9))
pairs = st.lists(pair, min_size=1, max_size=12)


def test_the_documented_layout():
    # the longest pair sets the widths (5 and 5) and fills row 0; the other two share row 1
    batch = collate_packed([([7, 8, EOS], [4, 5], 0), ([9, EOS], [6], 1), ([4, 4, 4, 4, EOS], [8, 8, 8, 8], 2)])
    assert batch.tgt_in[1].tolist() == [BOS, 4, 5, BOS, 6] and batch.tgt_out[1].tolist() == [4, 5, EOS, 6, EOS]
    assert batch.tgt_segments.tolist() == [[1] * 5, [1, 1, 1, 2, 2]]
    assert batch.src[1].tolist() == [7, 8, EOS, 9, EOS] and batch.src_segments[1].tolist() == [1, 1, 1, 2, 2]
    assert batch.src_lengths.tolist() == [5, 5] and batch.sentences == 3 and batch.packed and batch.indices is None
    assert segment_positions(batch.tgt_segments)[1].tolist() == [0, 1, 2, 0, 1]
    assert segment_positions(torch.tensor([[1, 1, 2, 2, 2, 0]])).tolist() == [[0, 1, 0, 1, 2, 0]]


@SETTINGS
@given(st.lists(st.tuples(st.integers(1, 20), st.integers(1, 20)), min_size=1, max_size=30))
def test_rows_hold_every_pair_once_within_their_widths(lengths):
    src, tgt = [s for s, _ in lengths], [t for _, t in lengths]
    rows = pack_rows(src, tgt)
    assert sorted(i for r in rows for i in r) == list(range(len(lengths)))
    for r in rows:
        assert sum(src[i] for i in r) <= max(src) and sum(tgt[i] for i in r) <= max(tgt)


@SETTINGS
@given(pairs)
def test_packed_batches_hold_the_same_tokens_as_one_pair_per_row(items):
    items = [(s, t, i) for i, (s, t) in enumerate(items)]
    packed, plain = collate_packed(items), collate(items)
    assert packed.ntokens == plain.ntokens and packed.sentences == plain.size == len(items)
    assert packed.size <= plain.size
    want = {"src": [x for s, _, _ in items for x in s], "tgt_in": [x for _, t, _ in items for x in [BOS] + t],
            "tgt_out": [x for _, t, _ in items for x in t + [EOS]]}
    for field, tokens in want.items():
        got = getattr(packed, field)
        assert sorted(got[got != PAD].tolist()) == sorted(tokens)
        segments = packed.src_segments if field == "src" else packed.tgt_segments
        assert torch.equal(segments > 0, got != PAD)


@pytest.mark.parametrize("pre_ln", [True, False])
def test_a_packed_row_computes_what_its_pairs_compute_alone(pre_ln):
    torch.manual_seed(0)
    model = Transformer(40, 30, d_model=16, num_heads=2, num_encoder_layers=2, num_decoder_layers=2, d_ff=24,
                        dropout=0.0, pre_ln=pre_ln).double().eval()
    g = torch.Generator().manual_seed(1)
    items = []
    for i, (n, m) in enumerate([(11, 12), (3, 4), (5, 2), (1, 1), (6, 7), (2, 5), (4, 3), (7, 6), (1, 3)]):
        s = torch.randint(4, 40, (n,), generator=g).tolist()
        t = torch.randint(4, 30, (m,), generator=g).tolist()
        items.append((s + [EOS], t, i))
    packed = collate_packed(items)
    assert packed.size < len(items)  # rows really are shared
    with torch.no_grad():
        logits = model(packed)
        for r in range(packed.size):
            for k in range(1, int(packed.tgt_segments[r].max()) + 1):
                cols = packed.tgt_segments[r] == k
                src = packed.src[r][packed.src_segments[r] == k]
                tgt_in = packed.tgt_in[r][cols]
                alone = model(collate([(src.tolist(), tgt_in[1:].tolist(), 0)]))[0]
                assert torch.allclose(logits[r][cols], alone, atol=1e-10)
        total = sequence_loss(logits, packed.tgt_out)
        plain = collate(items)
        assert torch.allclose(total, sequence_loss(model(plain), plain.tgt_out), atol=1e-9)


def test_the_packed_sampler_budgets_real_tokens():
    lengths = [5 + (i * 7919) % 36 for i in range(2000)]
    s = PackedBatchSampler(lengths, 800, seed=0)
    batches = list(s)
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
    assert all(sum(lengths[i] for i in b) <= 800 for b in batches)
    assert sum(lengths) / len(batches) > 750  # nearly full: as many real tokens as a bucket of 800
    spread = sum(max(lengths[i] for i in b) - min(lengths[i] for i in b) for b in batches) / len(batches)
    assert spread > 25  # and mixed lengths
    two = [PackedBatchSampler(lengths, 800, seed=0, num_replicas=2, rank=r) for r in range(2)]
    assert [sorted(a + b) for a, b in zip(*two)] == [sorted(b) for b in batches]


def test_packed_loader_and_its_refusals():
    exs = [([4] * n + [EOS], [5] * (n % 7 + 1)) for n in range(1, 40)]
    loader = make_loader(exs, 60, shuffle=True, seed=1, batching="packed")
    batches = list(loader)
    assert all(b.packed for b in batches) and sum(b.sentences for b in batches) == len(exs)
    assert type(make_loader(exs, 60, shuffle=False).batch_sampler) is BucketBatchSampler
    with pytest.raises(DataError, match="cannot reverse the source"):
        make_loader(exs, 60, shuffle=True, batching="packed", reverse_source=True)


def test_the_trainer_refuses_packed_batches_for_a_recurrent_model():
    from companion.models import build_model

    exs = [([4] * n + [EOS], [5] * n) for n in range(1, 12)]
    loader = make_loader(exs, 40, shuffle=True, batching="packed")
    rnn = build_model({"name": "rnnsearch", "embed_dim": 8, "hidden_size": 8, "attention_dim": 8,
                       "maxout_dim": 4}, 10, 10)
    before = [p.detach().clone() for p in rnn.parameters()]
    with pytest.raises(ConfigError, match=r"RNNSearch cannot train on packed batches .* use batching 'mixed'"):
        Trainer(rnn, loader, None, preset="adam", lr=1e-3, max_steps=2, eval_every=0, progress=False).fit()
    assert all(torch.equal(a, b) for a, b in zip(before, rnn.parameters()))
    transformer = Transformer(10, 10, **Transformer.example_args)
    Trainer(transformer, loader, None, preset="adam", lr=1e-3, max_steps=2, eval_every=0, progress=False).fit()


def test_a_half_packed_batch_is_refused():
    batch = collate_packed([([7, EOS], [4], 0), ([9, EOS], [6], 1)])
    batch.src_segments = None
    with pytest.raises(DataError, match="needs both src_segments and tgt_segments"):
        Transformer(12, 12, **Transformer.example_args)(batch)


def test_segment_masks_never_leave_a_query_without_keys():
    q = torch.tensor([[1, 1, 2, 0]])
    m = segment_mask(q, torch.tensor([[1, 2, 2, 0, 0]]))
    assert m[0].tolist() == [[True, False, False, False, False], [True, False, False, False, False],
                             [False, True, True, False, False], [True, True, True, False, False]]


def test_describe_batches_counts_what_each_batching_holds():
    from companion.data.batching import describe_batches

    exs = [([4] * (n % 9 + 1) + [EOS], [5] * (n % 9 + 1)) for n in range(300)]
    seen = {b: describe_batches(make_loader(exs, 60, shuffle=True, batching=b))
            for b in ("bucketed", "mixed", "packed")}
    for stats in seen.values():
        assert stats["sentences"] * stats["batches"] == pytest.approx(len(exs))
        assert stats["target_tokens"] * stats["batches"] == pytest.approx(sum(len(t) + 1 for _, t in exs))
    assert seen["bucketed"]["length_spread"] < 1 < seen["mixed"]["length_spread"]
    assert seen["packed"]["length_spread"] > 1 and seen["packed"]["real_share"] > seen["mixed"]["real_share"]
    assert describe_batches(make_loader(exs, 60, shuffle=False), limit=2)["batches"] == 2
