"""Alignment evaluation: pieces -> words, attention aggregation, hard links, AER (Och & Ney 2003)
on hand-made cases, and the diagonal and monotone-oracle baselines."""

from __future__ import annotations

import itertools
import random

import pytest
import torch

from companion.errors import ConfigError, DataError
from companion.evaluation.alignment import (AERScore, WordAttention, aggregate_attention,
                                            alignment_error_rate, diagonal_alignment,
                                            evaluate_alignment, hard_links,
                                            monotone_oracle_alignment,
                                            teacher_forced_word_attention, word_attention,
                                            word_index)
from companion.models.attention import RNNSearch
from companion.models.seq2seq import Seq2Seq
from companion.specials import EOS

D = torch.float64


@pytest.fixture(autouse=True)
def _one_thread(one_thread):
    """Every test here on one thread (see conftest.one_thread)."""


class ToyVocab:
    """Cuts every word into chunks of two characters; the first chunk carries "▁"."""

    def __init__(self):
        self.table = {"<pad>": 0, "<s>": 1, "</s>": 2, "<unk>": 3}

    def _id(self, piece):
        return self.table.setdefault(piece, len(self.table))

    def encode(self, text):
        ids = []
        for word in text.split():
            chunks = [word[k : k + 2] for k in range(0, len(word), 2)]
            ids += [self._id("▁" + chunks[0])] + [self._id(c) for c in chunks[1:]]
        return ids

    def pieces(self, ids):
        inverse = {v: k for k, v in self.table.items()}
        return [inverse[int(i)] for i in ids]

    def __len__(self):
        return 64


# ---------------------------------------------------------------------------- pieces -> words
def test_word_index_opens_a_word_at_each_boundary_mark():
    pieces = ["▁고양이", "가", "▁", "3", "시", "에", "▁마", "셔", "요", "."]
    assert word_index(pieces) == [0, 0, 1, 1, 1, 1, 2, 2, 2, 2]
    assert word_index(["▁", "<unk>", "고", "▁", "<unk>"]) == [0, 0, 0, 1, 1]
    assert word_index(["ab", "▁c", "d"]) == [0, 1, 1]
    assert word_index([]) == []


def test_aggregation_sums_source_pieces_and_averages_target_pieces():
    # target pieces -> English words [0, 0, 1]; source pieces -> eojeols [0, 1, 1]
    w = torch.tensor([[0.5, 0.25, 0.25],
                      [0.1, 0.6, 0.3],
                      [0.7, 0.2, 0.1]], dtype=D)
    m = aggregate_attention(w, [0, 0, 1], [0, 1, 1])
    expected = [[(0.5 + 0.1) / 2, (0.5 + 0.9) / 2],
                [0.7, 0.3]]
    torch.testing.assert_close(m, torch.tensor(expected, dtype=D), rtol=0, atol=1e-15)
    torch.testing.assert_close(m.sum(1), torch.ones(2, dtype=D))  # rows stay distributions
    with pytest.raises(DataError, match="weights are 3 x 3 but there are 2 target and 3 source"):
        aggregate_attention(w, [0, 0], [0, 1, 1])
    with pytest.raises(DataError, match=r"source word indices must lie in \[0, 1\)"):
        aggregate_attention(w, [0, 0, 1], [0, 1, 1], n_src=1)


def test_word_attention_drops_the_eos_row_and_column_and_labels_the_words():
    vocab = ToyVocab()
    ko, en = "고양이가 우유를", "cats drink"
    src = vocab.encode(ko) + [EOS]  # ▁고양 이가 ▁우유 를 EOS: eojeols [0, 0, 1, 1]
    tgt = vocab.encode(en) + [EOS]  # ▁ca ts ▁dr in k EOS: words [0, 0, 1, 1, 1]
    assert len(src) == 5 and len(tgt) == 6
    g = torch.Generator().manual_seed(0)
    weights = torch.softmax(torch.randn(6, 7, generator=g, dtype=D), -1)  # 2 PAD columns too
    wa = word_attention(weights, src, tgt, vocab, vocab, src_text=ko, tgt_text=en)
    assert wa.en_words == ["cats", "drink"] and wa.ko_words == ["고양이가", "우유를"]
    expected = torch.tensor([[weights[t, 0:2].sum(), weights[t, 2:4].sum()] for t in range(5)], dtype=D)
    expected = torch.stack([expected[0:2].mean(0), expected[2:5].mean(0)])
    torch.testing.assert_close(wa.matrix, expected, rtol=0, atol=1e-15)
    rebuilt = word_attention(weights, src, tgt, vocab, vocab)  # labels from the pieces
    assert rebuilt.en_words == ["cats", "drink"] and torch.equal(rebuilt.matrix, wa.matrix)
    with pytest.raises(DataError, match="3 whitespace words but 2 words in its pieces"):
        word_attention(weights, src, tgt, vocab, vocab, tgt_text="cats drink milk")
    with pytest.raises(DataError, match="the target ids must end with EOS"):
        word_attention(weights, src, tgt[:-1], vocab, vocab)
    with pytest.raises(DataError, match=r"weights of shape \(6, 4\) do not cover 6 target steps x 5"):
        word_attention(weights[:, :4], src, tgt, vocab, vocab)


# ---------------------------------------------------------------------------- hard links
def test_hard_links_by_argmax_threshold_or_both():
    m = torch.tensor([[0.6, 0.4, 0.0],
                      [0.1, 0.2, 0.7],
                      [0.45, 0.45, 0.1]], dtype=D)  # rows: English words; columns: eojeols
    assert hard_links(m) == [(0, 0), (0, 2), (2, 1)]  # a tie goes to the first eojeol
    assert hard_links(m, argmax=False, threshold=0.4) == [(0, 0), (0, 2), (1, 0), (1, 2), (2, 1)]
    assert hard_links(m, threshold=0.65) == [(0, 0), (0, 2), (2, 1)]
    assert WordAttention(m, ["a", "b", "c"], ["x", "y", "z"]).links() == hard_links(m)
    with pytest.raises(ConfigError, match="hard_links: ask for argmax links, a threshold, or both"):
        hard_links(m, argmax=False)
    with pytest.raises(ConfigError, match=r"hard_links: threshold must be a number in \(0.0, 1.0\]"):
        hard_links(m, threshold=0.0)


# ---------------------------------------------------------------------------- AER
def test_aer_of_perfect_and_disjoint_alignments():
    gold = [[(0, 0), (1, 2), (2, 1)], [(0, 0)]]
    assert alignment_error_rate(gold, gold).aer == 0.0
    disjoint = [[(0, 1), (1, 1)], [(1, 0)]]
    score = alignment_error_rate(disjoint, gold)
    assert score.aer == 1.0 and score.precision == 0.0 and score.recall == 0.0


def test_aer_worked_example():
    sure = [[(0, 0), (1, 1), (2, 2)]]
    predicted = [[(0, 0), (1, 2), (2, 2)]]
    score = alignment_error_rate(predicted, sure)  # |A∩S| = 2, |A| = |S| = 3
    assert score == AERScore(aer=pytest.approx(1 - 4 / 6), precision=pytest.approx(2 / 3),
                             recall=pytest.approx(2 / 3), predicted=3, sure=3, sure_hits=2,
                             possible_hits=2, sentences=1)
    with_possible = alignment_error_rate(predicted, sure, possible=[[(1, 2)]])  # |A∩P| = 3
    assert with_possible.aer == pytest.approx(1 - 5 / 6)
    assert with_possible.precision == 1.0 and with_possible.recall == pytest.approx(2 / 3)


def test_aer_pools_counts_over_the_corpus():
    sure = [[(0, 0)], [(0, 0), (1, 1), (2, 2), (3, 3)]]
    predicted = [[(0, 1)], [(0, 0), (1, 1), (2, 2), (3, 3)]]
    pooled = alignment_error_rate(predicted, sure).aer
    assert pooled == pytest.approx(1 - 8 / 10)  # not the mean of 1.0 and 0.0
    duplicates = alignment_error_rate([[(0, 0), (0, 0)]], [[(0, 0)]])
    assert duplicates.aer == 0.0 and duplicates.predicted == 1  # links are sets


def test_aer_errors():
    with pytest.raises(DataError, match="2 predicted alignments for 1 gold alignments"):
        alignment_error_rate([[], []], [[(0, 0)]])
    with pytest.raises(DataError, match="neither predicted nor gold links: AER is undefined"):
        alignment_error_rate([[]], [[]])
    with pytest.raises(DataError, match=r"predicted alignment 0: a link must be a pair \(i, j\) of integers"):
        alignment_error_rate([[(0, 1, 2)]], [[(0, 0)]])


# ---------------------------------------------------------------------------- baselines
def test_diagonal_alignment_rounds_j_times_s_over_t():
    assert diagonal_alignment(3, 5) == [(0, 0), (1, 1), (1, 2), (2, 3), (2, 4)]  # 0 .6 1.2 1.8 2.4
    assert diagonal_alignment(2, 4) == [(0, 0), (1, 1), (1, 2), (1, 3)]  # .5 rounds up; 1.5 -> 1
    assert diagonal_alignment(4, 4) == [(i, i) for i in range(4)]
    with pytest.raises(ConfigError, match="diagonal_alignment: n_en must be an integer >= 1, got 0"):
        diagonal_alignment(3, 0)


def _brute_force_best(gold, n_ko, n_en):
    best = -1
    for a in itertools.combinations_with_replacement(range(n_ko), n_en):  # non-decreasing
        best = max(best, sum((i, j) in gold for j, i in enumerate(a)))
    return best


def test_monotone_oracle_on_monotone_and_reversed_gold():
    gold = [(0, 0), (1, 1), (1, 2), (3, 3)]
    assert monotone_oracle_alignment(gold, 4, 4) == gold  # already monotone: itself
    reversed_gold = [(3 - j, j) for j in range(4)]
    links = monotone_oracle_alignment(reversed_gold, 4, 4)
    assert len(links) == 4 and sum(link in reversed_gold for link in links) == 1
    assert [i for i, _ in links] == sorted(i for i, _ in links)


def test_monotone_oracle_is_optimal_and_beats_the_diagonal():
    rng = random.Random(0)
    for _ in range(200):
        n_ko, n_en = rng.randint(1, 5), rng.randint(1, 6)
        gold = {(rng.randrange(n_ko), rng.randrange(n_en)) for _ in range(rng.randint(0, 7))}
        links = monotone_oracle_alignment(gold, n_ko, n_en)
        assert [j for _, j in links] == list(range(n_en))
        assert all(a[0] <= b[0] for a, b in zip(links, links[1:]))
        hits = sum(link in gold for link in links)
        assert hits == _brute_force_best(gold, n_ko, n_en)
        assert hits >= sum(link in gold for link in diagonal_alignment(n_ko, n_en))


def test_monotone_oracle_rejects_links_outside_the_sentence():
    with pytest.raises(DataError, match="gold link 4-0 is outside a 3 x 2 sentence pair"):
        monotone_oracle_alignment([(4, 0)], 3, 2)


# ---------------------------------------------------------------------------- with a model
PAIRS = [("고양이가 우유를 마셔요.", "The cat drinks milk.", [(0, 0), (0, 1), (2, 2), (1, 3)]),
         ("아이가 사과를 먹었어요.", "The child ate an apple.",
          [(0, 0), (0, 1), (2, 2), (1, 3), (1, 4)]),
         ("학생이 잤어요.", "A student slept.", [(0, 0), (0, 1), (1, 2)])]


class GoldAttention(torch.nn.Module):
    """A fake model whose teacher-forced attention is the gold alignment spread over pieces."""

    def __init__(self, vocab):
        super().__init__()
        self.dummy = torch.nn.Parameter(torch.zeros(1))
        self.rows = {}
        for ko, en, links in PAIRS:
            src, tgt = vocab.encode(ko), vocab.encode(en)
            src_w, tgt_w = word_index(vocab.pieces(src)), word_index(vocab.pieces(tgt))
            w = torch.zeros(len(tgt) + 1, len(src) + 1, dtype=D)
            w[-1, -1] = 1.0  # the EOS step looks at EOS
            for t, j in enumerate(tgt_w):
                i = min(i for i, jj in links if jj == j)
                cols = [s for s, e in enumerate(src_w) if e == i]
                w[t, cols] = 1.0 / len(cols)
            self.rows[tuple(src)] = w

    def attention_weights(self, batch):
        B, T = batch.tgt_in.shape
        out = torch.zeros(B, T, batch.src.shape[1], dtype=D)
        for b in range(B):
            n = int(batch.src_lengths[b])
            w = self.rows[tuple(batch.src[b, : n - 1].tolist())]
            out[b, : w.shape[0], : w.shape[1]] = w
        return out


def test_evaluate_alignment_of_gold_attention_is_zero_and_baselines_are_scored():
    vocab = ToyVocab()
    scores = evaluate_alignment(GoldAttention(vocab), PAIRS, vocab, vocab, batch_size=2)
    assert scores["attention"].aer == 0.0 and scores["attention"].sentences == 3
    # the diagonal: 4 + 5 + 3 links, of which 2 + 1 + 2 are gold
    assert scores["diagonal"].sure_hits == 5 and scores["diagonal"].aer == pytest.approx(1 - 10 / 24)
    # the only crossing gold links are the verb/object swaps: the oracle loses one per sentence
    assert scores["monotone_oracle"].sure_hits == 3 + 4 + 3
    assert scores["monotone_oracle"].aer < scores["diagonal"].aer


def test_word_attention_of_a_real_model_through_both_paths():
    vocab = ToyVocab()
    for ko, en, _ in PAIRS:
        vocab.encode(ko), vocab.encode(en)
    torch.manual_seed(0)
    model = RNNSearch(len(vocab), len(vocab), embed_dim=8, hidden_size=12, attention_dim=10, maxout_dim=7)
    maps = teacher_forced_word_attention(model, PAIRS, vocab, vocab, batch_size=2)
    for wa, (ko, en, _) in zip(maps, PAIRS):
        assert wa.matrix.shape == (len(en.split()), len(ko.split()))
        assert wa.ko_words == ko.split() and wa.en_words == en.split()
        assert torch.all(wa.matrix >= 0) and torch.all(wa.matrix.sum(1) < 1)  # EOS keeps some mass

    class StepOnly(torch.nn.Module):  # an attention model without attention_weights
        def __init__(self, inner):
            super().__init__()
            self.inner = inner
            self.encode, self.step, self.step_attention = inner.encode, inner.step, inner.step_attention

    stepped = teacher_forced_word_attention(StepOnly(model), PAIRS, vocab, vocab)
    for a, b in zip(maps, stepped):
        torch.testing.assert_close(a.matrix, b.matrix, rtol=0, atol=1e-6)
    assert model.training  # the caller's mode is restored


def test_a_model_without_attention_is_refused():
    vocab = ToyVocab()
    model = Seq2Seq(20, 20, embed_dim=4, hidden_size=4, num_layers=1)
    with pytest.raises(ConfigError, match="Seq2Seq has no attention"):
        teacher_forced_word_attention(model, PAIRS, vocab, vocab)
    with pytest.raises(DataError, match="pair 0: expected a kosynth Pair or"):
        teacher_forced_word_attention(RNNSearch(20, 20, hidden_size=4), [42], vocab, vocab)
