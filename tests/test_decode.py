"""Greedy, batched beam, exhaustive search and ensembles (companion.decoding)."""

import math

import pytest
import torch

from companion.decoding.corpus import decode_corpus
from companion.decoding.ensemble import Ensemble
from companion.decoding.search import (NEVER_GENERATED, Hypothesis, all_outputs, ban_tokens, beam_search, evaluating,
                                       exhaustive_search, greedy_search, length_penalty, max_lengths,
                                       score_sequences)
from companion.errors import ConfigError, DataError
from companion.models.seq2seq import Seq2Seq
from companion.specials import BOS, EOS, PAD

SRC = torch.tensor([[4, 5, 6, EOS, PAD], [7, EOS, PAD, PAD, PAD], [5, 5, 5, 7, EOS]])
SRC_LEN = torch.tensor([4, 2, 5])


def tiny(seed: int, vocab: int = 7, layers: int = 1) -> Seq2Seq:
    """A random float64 model with a tiny target vocabulary (3 real tokens when vocab=7)."""
    torch.manual_seed(seed)
    return Seq2Seq(8, vocab, embed_dim=6, hidden_size=10, num_layers=layers, init_range=1.0).double()


def tokens(hyps):
    return [h.tokens for h in hyps]


class Reweighted:
    """A translator whose next-token log-probabilities pass through ``adjust`` and are
    renormalised: a model with the preferences a test needs."""

    def __init__(self, model, adjust):
        self.model, self.adjust = model, adjust

    def encode(self, src, src_lengths):
        return self.model.encode(src, src_lengths)

    def step(self, prev, state):
        log_probs, state = self.model.step(prev, state)
        return torch.log_softmax(self.adjust(log_probs.clone()), dim=-1), state

    def reorder_state(self, state, index):
        return self.model.reorder_state(state, index)


def without_specials(log_probs):
    """PAD and BOS get probability 0."""
    return ban_tokens(log_probs)


def avoiding_eos(log_probs):
    """EOS gets 30 nats less than the model says: sentences almost never end."""
    log_probs[:, EOS] -= 30.0
    return log_probs


def preferring_specials(log_probs):
    """Almost all the mass on PAD and BOS."""
    log_probs[:, [PAD, BOS]] += 50.0
    return log_probs


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("rule", ["top_k", "every"])
@pytest.mark.parametrize("alpha, form", [(0.0, "gnmt"), (0.6, "gnmt"), (1.0, "plain")])
@pytest.mark.parametrize("at_limit", ["truncate", "eos"])
def test_wide_beam_equals_exhaustive_search(seed, rule, alpha, form, at_limit):
    model = tiny(seed)
    kw = dict(nbest=3, max_len=4, length_penalty=alpha, length_penalty_form=form, at_limit=at_limit)
    exact = exhaustive_search(model, SRC, SRC_LEN, **kw)
    beam = beam_search(model, SRC, SRC_LEN, beam_size=200, finish_rule=rule, **kw)
    for e, b in zip(exact, beam):
        assert tokens(e) == tokens(b)
        for he, hb in zip(e, b):
            assert hb.score == pytest.approx(he.score, abs=1e-12)
            assert hb.log_prob == pytest.approx(he.log_prob, abs=1e-12)


def test_exhaustive_search_scores_every_output():
    model = Reweighted(tiny(0), without_specials)
    exact = exhaustive_search(model, SRC[:1], SRC_LEN[:1], nbest=1000, max_len=3)[0]
    # UNK (3) is a real token too; outputs cut at the limit (3 tokens, no EOS) are outputs too
    everything = list(all_outputs([3, 4, 5, 6], 3, truncated=True))
    assert len(everything) == 1 + 4 + 16 + 64
    assert sorted(tokens(exact)) == sorted(everything)
    assert all(h.truncated == (EOS not in h.tokens) for h in exact)
    scores = score_sequences(model, SRC[:1].repeat(len(everything), 1),
                             SRC_LEN[:1].repeat(len(everything)), everything)
    best = max(zip(scores, everything))
    assert exact[0].tokens == best[1]
    assert exact[0].log_prob == pytest.approx(best[0], abs=1e-12)
    # finished and truncated outputs partition the whole probability mass (1 with PAD, BOS at 0)
    assert sum(math.exp(s) for s in scores) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_beam_of_one_is_greedy(seed):
    model = tiny(seed, vocab=12, layers=2)
    greedy = greedy_search(model, SRC, SRC_LEN, max_len_a=2.0, max_len_b=3)
    beam = beam_search(model, SRC, SRC_LEN, beam_size=1, max_len_a=2.0, max_len_b=3)
    assert tokens(greedy) == [b[0].tokens for b in beam]
    assert [g.log_prob for g in greedy] == pytest.approx([b[0].log_prob for b in beam], abs=1e-12)


@pytest.mark.parametrize("rule", ["top_k", "every"])
@pytest.mark.parametrize("alpha", [0.0, 1.0])
def test_batched_beam_equals_one_sentence_at_a_time(rule, alpha):
    model = tiny(3, vocab=15, layers=2)
    kw = dict(beam_size=4, nbest=2, length_penalty=alpha, finish_rule=rule, max_len_b=4)
    batched = beam_search(model, SRC, SRC_LEN, **kw)
    for b in range(SRC.shape[0]):
        n = int(SRC_LEN[b])
        alone = beam_search(model, SRC[b : b + 1, :n], SRC_LEN[b : b + 1], **kw)[0]
        assert tokens(alone) == tokens(batched[b])
        assert [h.score for h in alone] == pytest.approx([h.score for h in batched[b]], abs=1e-10)


def test_greedy_batched_equals_one_by_one():
    model = tiny(1, vocab=15)
    batched = greedy_search(model, SRC, SRC_LEN)
    for b in range(3):
        assert greedy_search(model, SRC[b : b + 1], SRC_LEN[b : b + 1])[0].tokens == batched[b].tokens


def test_outputs_end_with_eos_or_are_cut_at_the_limit_and_never_hold_pad_or_bos():
    model = tiny(2, vocab=9, layers=2)
    limits = max_lengths(SRC_LEN, 0.5, 1)
    beams = beam_search(model, SRC, SRC_LEN, beam_size=3, nbest=3, max_len_a=0.5, max_len_b=1)
    greedy = greedy_search(model, SRC, SRC_LEN, max_len_a=0.5, max_len_b=1)
    cut = 0
    for b, hyps in enumerate(beams):
        assert 1 <= len(hyps) <= 3
        assert [h.score for h in hyps] == sorted((h.score for h in hyps), reverse=True)
        for h in hyps + [greedy[b]]:
            assert PAD not in h.tokens and BOS not in h.tokens and EOS not in h.tokens[:-1]
            assert len(h.tokens) <= int(limits[b])
            if h.truncated:
                assert len(h.tokens) == int(limits[b]) and h.tokens[-1] != EOS
                cut += 1
            else:
                assert h.tokens[-1] == EOS
    assert cut > 0  # the limits (2, 2, 3) are short enough to cut some hypotheses


def test_the_length_limit_keeps_the_chosen_tokens_and_marks_the_hypothesis_truncated():
    """"Stop at EOS or after max_len tokens": the limit never puts EOS in place of a token."""
    model = Reweighted(tiny(4, vocab=10), avoiding_eos)
    greedy = greedy_search(model, SRC, SRC_LEN, max_len=4)
    with evaluating(model.model):  # the argmax over every real token, EOS included, step by step
        state, prev, expected = model.encode(SRC, SRC_LEN), torch.full((3,), BOS), []
        for _ in range(4):
            log_probs, state = model.step(prev, state)
            prev = ban_tokens(log_probs).argmax(-1)
            expected.append(prev.tolist())
    for b, h in enumerate(greedy):
        assert h.tokens == tuple(row[b] for row in expected)
        assert h.truncated and len(h) == 4 and EOS not in h.tokens
    beams = beam_search(model, SRC, SRC_LEN, beam_size=1, max_len=4)
    exact = exhaustive_search(model, SRC, SRC_LEN, max_len=4)
    for g, b, e in zip(greedy, beams, exact):
        assert g.tokens == b[0].tokens and b[0].truncated and e[0].truncated and len(e[0]) == 4
        assert g.log_prob == pytest.approx(b[0].log_prob, abs=1e-12)
    wide = beam_search(model, SRC, SRC_LEN, beam_size=4, nbest=4, max_len=4)
    assert all(h.truncated and len(h) == 4 for hyps in wide for h in hyps)
    # at_limit="eos": complete outputs only, the last token EOS in place of the model's choice
    for hyps in ([greedy_search(model, SRC, SRC_LEN, max_len=4, at_limit="eos")],
                 beam_search(model, SRC, SRC_LEN, beam_size=4, nbest=4, max_len=4, at_limit="eos"),
                 exhaustive_search(model, SRC, SRC_LEN, nbest=4, max_len=4, at_limit="eos")):
        for h in (h for hs in hyps for h in hs):
            assert h.tokens[-1] == EOS and not h.truncated
    forced = greedy_search(model, SRC, SRC_LEN, max_len=4, at_limit="eos")
    assert [h.tokens[:3] for h in forced] == [h.tokens[:3] for h in greedy]
    assert not Hypothesis((4, EOS), -1.0, -1.0).truncated  # finished unless said otherwise


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("at_limit", ["truncate", "eos"])
def test_beam_of_one_is_greedy_at_the_length_limit_too(seed, at_limit):
    model = tiny(seed, vocab=12, layers=2)
    for max_len in (1, 2, 3):
        greedy = greedy_search(model, SRC, SRC_LEN, max_len=max_len, at_limit=at_limit)
        beam = beam_search(model, SRC, SRC_LEN, beam_size=1, max_len=max_len, at_limit=at_limit)
        assert [(g.tokens, g.truncated) for g in greedy] == [(b[0].tokens, b[0].truncated) for b in beam]
        assert [g.log_prob for g in greedy] == pytest.approx([b[0].log_prob for b in beam], abs=1e-12)


def test_specials_are_banned_even_when_the_model_prefers_them():
    model = Reweighted(tiny(1), preferring_specials)
    outputs = [greedy_search(model, SRC, SRC_LEN, max_len=3)]
    outputs += beam_search(model, SRC, SRC_LEN, beam_size=3, nbest=2, max_len=3)
    outputs += exhaustive_search(model, SRC, SRC_LEN, nbest=2, max_len=3)
    for hyps in outputs:
        for h in hyps:
            assert h.tokens and PAD not in h.tokens and BOS not in h.tokens and h.tokens[-1] == EOS


def test_ban_tokens():
    scores = torch.zeros(2, 3, 6)
    banned = ban_tokens(scores)
    assert NEVER_GENERATED == (PAD, BOS)
    assert torch.isinf(banned[..., [PAD, BOS]]).all() and (banned[..., [PAD, BOS]] < 0).all()
    assert torch.equal(banned[..., 2:], scores[..., 2:])
    assert torch.count_nonzero(scores) == 0  # a copy by default
    same = ban_tokens(scores, range(4), inplace=True)
    assert same is scores and torch.isinf(scores[..., :4]).all() and (scores[..., 4:] == 0).all()


def test_scores_are_the_models_log_probabilities_with_length_penalty():
    model = tiny(0, vocab=10)
    hyps = beam_search(model, SRC, SRC_LEN, beam_size=3, nbest=3, length_penalty=0.6)
    for b, hs in enumerate(hyps):
        scored = score_sequences(model, SRC[b : b + 1], SRC_LEN[b : b + 1], [h.tokens for h in hs][:1])
        assert hs[0].log_prob == pytest.approx(scored[0], abs=1e-10)
        for h in hs:
            assert h.score == pytest.approx(h.log_prob / ((5 + len(h)) / 6) ** 0.6)


def test_length_penalty_forms():
    assert length_penalty(1, 0.0) == 1.0
    assert length_penalty(7, 1.0) == pytest.approx(2.0)  # (5 + 7) / 6
    assert length_penalty(4, 1.0, "plain") == 4.0
    assert length_penalty(torch.tensor([1.0, 7.0]), 2.0).tolist() == pytest.approx([1.0, 4.0])


def test_max_lengths_is_linear_in_the_source_length():
    assert max_lengths(torch.tensor([2, 10]), 1.5, 3).tolist() == [6, 18]
    assert max_lengths(torch.tensor([2, 10]), 1.5, 3, max_len=8).tolist() == [6, 8]


def test_ensemble_of_one_model_is_that_model():
    model = tiny(0, vocab=12, layers=2)
    for combine in ("prob", "log_prob"):
        single = beam_search(model, SRC, SRC_LEN, beam_size=3, nbest=2)
        ens = beam_search(Ensemble([model], combine=combine), SRC, SRC_LEN, beam_size=3, nbest=2)
        for s, e in zip(single, ens):
            assert s == e


def test_ensemble_averages_probabilities_or_log_probabilities():
    m1, m2 = tiny(0, vocab=9), tiny(1, vocab=9)
    prev = torch.full((3,), BOS)
    with evaluating(m1), evaluating(m2):
        lp1, _ = m1.step(prev, m1.encode(SRC, SRC_LEN))
        lp2, _ = m2.step(prev, m2.encode(SRC, SRC_LEN))
        for combine, expected in (
            ("prob", torch.log((lp1.exp() + lp2.exp()) / 2)),
            ("log_prob", torch.log_softmax((lp1 + lp2) / 2, dim=-1)),
        ):
            ens = Ensemble([m1, m2], combine=combine)
            lp, _ = ens.step(prev, ens.encode(SRC, SRC_LEN))
            torch.testing.assert_close(lp, expected)
            assert float(lp.exp().sum(-1).sub(1).abs().max()) < 1e-12
    exact = exhaustive_search(Ensemble([m1, m2]), SRC, SRC_LEN, max_len=3)
    beam = beam_search(Ensemble([m1, m2]), SRC, SRC_LEN, beam_size=50, max_len=3)
    assert [e[0].tokens for e in exact] == [b[0].tokens for b in beam]


def test_decoding_restores_training_mode():
    model = tiny(0)
    model.train()
    greedy_search(model, SRC, SRC_LEN)
    assert model.training
    model.eval()
    beam_search(model, SRC, SRC_LEN)
    assert not model.training


def test_hypothesis_length():
    assert len(Hypothesis((4, 5, EOS), -1.0, -1.0)) == 3


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (dict(beam_size=0), ConfigError, "beam_size must be an integer >= 1, got 0"),
        (dict(beam_size=2, nbest=3), ConfigError, r"nbest \(3\) must not exceed beam_size \(2\)"),
        (dict(length_penalty=-1.0), ConfigError, "length_penalty .alpha. must be a finite number >= 0"),
        (dict(length_penalty_form="cubic"), ConfigError, "length_penalty_form must be 'gnmt' or 'plain'"),
        (dict(finish_rule="first"), ConfigError, "finish_rule must be 'top_k' or 'every'"),
        (dict(max_len_a=0.0, max_len_b=0), ConfigError, "must allow at least one token"),
        (dict(max_len=0), ConfigError, "max_len must be an integer >= 1, got 0"),
        (dict(at_limit="cut"), ConfigError, "at_limit must be 'truncate' or 'eos', got 'cut'"),
    ],
)
def test_bad_options_are_config_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        beam_search(tiny(0), SRC, SRC_LEN, **kwargs)


def test_bad_sources_are_data_errors():
    model = tiny(0)
    with pytest.raises(DataError, match=r"src must be a \(B, S\) tensor of ids, got \(5,\)"):
        beam_search(model, SRC[0], SRC_LEN[:1])
    with pytest.raises(DataError, match=r"src_lengths must have shape \(3,\), got \(2,\)"):
        greedy_search(model, SRC, SRC_LEN[:2])
    with pytest.raises(DataError, match=r"src_lengths must lie in \[1, 5\], got min 0 max 5"):
        exhaustive_search(model, SRC, torch.tensor([0, 2, 5]))
    with pytest.raises(DataError, match="must be non-empty with EOS only at its end"):
        score_sequences(model, SRC[:1], SRC_LEN[:1], [[4, EOS, 5]])
    with pytest.raises(DataError, match="must be non-empty with EOS only at its end"):
        score_sequences(model, SRC[:1], SRC_LEN[:1], [[]])


def test_exhaustive_search_refuses_huge_spaces():
    with pytest.raises(ConfigError, match="exceed max_hypotheses=10"):
        exhaustive_search(tiny(0, vocab=20), SRC[:1], SRC_LEN[:1], max_len=4, max_hypotheses=10)


def test_bad_ensembles_are_config_errors():
    with pytest.raises(ConfigError, match="needs at least one model"):
        Ensemble([])
    with pytest.raises(ConfigError, match="combine must be 'prob' or 'log_prob'"):
        Ensemble([tiny(0)], combine="max")
    with pytest.raises(ConfigError, match="different target vocabularies"):
        Ensemble([tiny(0, vocab=7), tiny(0, vocab=8)])



def test_an_ensemble_compares_its_target_vocabularies_by_identity_not_size():
    from companion.data.vocab import CharVocab

    ab, ac = CharVocab.build("ab"), CharVocab.build("ac")  # 6 entries each, different characters
    assert len(ab) == len(ac) == 6 and ab.sha256 != ac.sha256
    models = [tiny(0, vocab=6), tiny(1, vocab=6)]
    Ensemble(models, tgt_vocabs=[ab, CharVocab.build("ba")])  # the same vocabulary, built again
    with pytest.raises(ConfigError, match=rf"^Ensemble: member 1's target vocabulary \(6 entries, sha256 "
                                          rf"{ac.sha256[:12]}\) is not member 0's \(6 entries, sha256 "
                                          rf"{ab.sha256[:12]}\); the members must share one target vocabulary$"):
        Ensemble(models, tgt_vocabs=[ab, ac])
    with pytest.raises(ConfigError, match="1 target vocabularies for 2 members"):
        Ensemble(models, tgt_vocabs=[ab])


def test_decode_corpus_with_a_beam_of_one_honours_the_finish_rule():
    """Greedy search is beam 1 under "top_k" only; under "every" each EOS extension finishes,
    which can end a sentence differently, so decode_corpus must not switch to greedy there."""
    sources = [row[: int(n)].tolist() for row, n in zip(SRC, SRC_LEN)]
    differs = 0
    for seed in range(4):
        model = tiny(seed, vocab=9)
        kw = dict(beam_size=1, max_len=6)
        every = decode_corpus(model, sources, finish_rule="every", **kw)
        assert [h[0].tokens for h in every] == \
            [b[0].tokens for b in beam_search(model, SRC, SRC_LEN, finish_rule="every", **kw)]
        top_k = decode_corpus(model, sources, **kw)
        assert [h[0].tokens for h in top_k] == [g.tokens for g in greedy_search(model, SRC, SRC_LEN, max_len=6)]
        differs += [h[0].tokens for h in every] != [h[0].tokens for h in top_k]
    assert differs > 0  # the two rules really differ on these models


def test_decode_corpus_refuses_a_language_model():
    from companion.models.charlm import CharLM

    with pytest.raises(ConfigError, match=r"^decode_corpus: CharLM is a language model, not a translator"):
        decode_corpus(CharLM(9, 4, 4), [[4, EOS]])


def test_a_beam_that_cannot_fit_in_memory_is_refused_before_searching(monkeypatch):
    import companion.decoding.search as search

    model = tiny(0, vocab=9)
    with evaluating(model):
        state = model.encode(SRC, SRC_LEN)
    per_row = search.state_nbytes(state) / 3 + 6 * 9 * 4 + 4 * 6 * 8  # the documented estimate
    assert search.state_nbytes(state) == sum(t.numel() * t.element_size() for t in state)
    monkeypatch.setattr(search, "available_memory", lambda device: int(3 * 4 * per_row) + 1)
    assert beam_search(model, SRC, SRC_LEN, beam_size=4, max_len=6)  # just fits
    steps = []
    monkeypatch.setattr(model, "step", lambda *a, **k: steps.append(1))
    with pytest.raises(ConfigError, match=r"^decode: a beam of 5 over 3 sentence\(s\) needs about 0\.0 GiB "
                                          r"\(15 hypotheses x 9 target tokens and their decoder states\), "
                                          r"but only 0\.0 GiB of cpu memory is available; use a smaller beam"):
        beam_search(model, SRC, SRC_LEN, beam_size=5, max_len=6)
    assert steps == []  # refused before the first step
