"""BLEU/chrF with signatures, BLEU by length, perplexity, corpus translation, results tables."""

import json
import math

import pytest
import torch

from companion.data.batching import collate
from companion.data.vocab import CharVocab
from companion.decoding.ensemble import Ensemble
from companion.decoding.search import beam_search, greedy_search
from companion.errors import ConfigError, DataError
from companion.evaluation.metrics import (MetricScore, bleu_by_length, corpus_bleu, corpus_chrf, perplexity)
from companion.decoding.corpus import decode_corpus, translate_corpus
from companion.evaluation.tables import results_markdown, write_results
from companion.models.seq2seq import Seq2Seq
from companion.specials import BOS, EOS, PAD

HYPS = ["the cat sat on the mat .", "a dog"]
REFS = ["the cat sat on a mat .", "the dog barked"]


def test_bleu_matches_the_definition_and_carries_its_signature():
    res = corpus_bleu(HYPS, REFS)
    assert isinstance(res, MetricScore) and res.name == "BLEU"
    assert res.signature == "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    # by hand: 9 hypothesis words vs 10 reference words; clipped matches 7/9, 4/7, 2/5, 1/4
    p = [7 / 9, 4 / 7, 2 / 5, 1 / 4]
    bp = math.exp(1 - 10 / 9)
    assert res.score == pytest.approx(100 * bp * math.exp(sum(math.log(x) for x in p) / 4))
    assert res.details["bp"] == pytest.approx(bp)
    assert (res.details["sys_len"], res.details["ref_len"]) == (9, 10)
    assert "BLEU = " in str(res) and "tok:13a" in str(res)


def test_bleu_is_100_for_identical_text_and_tokenizes_detokenized_text():
    assert corpus_bleu(REFS, REFS).score == pytest.approx(100.0)
    # 13a splits the final period: "mat." and "mat ." score the same
    assert corpus_bleu(["the cat sat on the mat."], ["the cat sat on the mat ."]).score == pytest.approx(100.0)


def test_chrf_has_a_signature():
    res = corpus_chrf(HYPS, REFS)
    assert res.name == "chrF2"
    assert "nc:6" in res.signature and "version:2.6.0" in res.signature
    assert 0 < res.score < 100


def test_bleu_by_length_splits_the_corpus():
    hyps = ["a b c d e", "x y", "p q r"]
    refs = ["a b c d e", "x z", "p q r"]
    rows = bleu_by_length(hyps, refs, [5, 2, 30], [0, 3, 10, math.inf])
    assert [r[0] for r in rows] == [(0, 3), (3, 10), (10, math.inf)]
    assert [r[1] for r in rows] == [1, 1, 1]
    assert rows[1][2] == pytest.approx(100.0)
    assert rows[0][2] == pytest.approx(corpus_bleu(["x y"], ["x z"]).score)
    empty = bleu_by_length(hyps, refs, [5, 2, 30], [100, 200])
    assert empty[0][1] == 0 and math.isnan(empty[0][2])


def _toy_model(seed=0):
    torch.manual_seed(seed)
    return Seq2Seq(12, 12, embed_dim=8, hidden_size=16, num_layers=1, init_range=0.5)


def test_perplexity_is_exp_of_the_mean_token_nll():
    model = _toy_model().eval()
    batches = [collate([([4, 5, EOS], [6, 7]), ([8, EOS], [9])]), collate([([5, EOS], [4, 4, 4])])]
    total, n = 0.0, 0
    with torch.no_grad():
        for b in batches:
            logp = torch.log_softmax(model(b), -1)
            mask = b.tgt_out != 0
            total -= float(logp.gather(-1, b.tgt_out.unsqueeze(-1)).squeeze(-1)[mask].sum())
            n += int(mask.sum())
    assert perplexity(model, batches) == pytest.approx(math.exp(total / n), rel=1e-5)


VOCAB = CharVocab.build("abcdefgh")


def test_translate_corpus_matches_direct_decoding_in_input_order():
    model = _toy_model(1)
    sentences = ["abc", "h", "gfedcba", "", "bb"]
    out = translate_corpus(model, VOCAB, VOCAB, sentences, beam_size=3, batch_size=2, max_len_b=5)
    assert len(out) == len(sentences)
    for s, text in zip(sentences, out):
        ids = torch.tensor([VOCAB.encode(s) + [EOS]])
        best = beam_search(model, ids, torch.tensor([ids.shape[1]]), beam_size=3, max_len_b=5)[0][0]
        assert text == VOCAB.decode(best.tokens)


def _hand_greedy_of_the_average(models, ids, limit):
    """Greedy decoding written out: at every step the members' next-token probabilities are
    averaged, ``log((p_1 + p_2) / 2)``, and the most probable token other than PAD and BOS (which
    are never generated) is taken; stops at EOS or after ``limit`` tokens."""
    src, lengths = torch.tensor([ids]), torch.tensor([len(ids)])
    with torch.no_grad():
        states = [m.eval().encode(src, lengths) for m in models]
        prev, out = torch.tensor([BOS]), []
        while len(out) < limit and (not out or out[-1] != EOS):
            steps = [m.step(prev, st) for m, st in zip(models, states)]
            states = [st for _, st in steps]
            avg = torch.log(sum(lp.double().exp() for lp, _ in steps) / len(models))
            avg[0, [PAD, BOS]] = -math.inf
            out.append(int(avg[0].argmax()))
            prev = torch.tensor([out[-1]])
    return out


def test_beam_one_in_translate_corpus_is_greedy_and_ensembles_combine():
    model = _toy_model(2)
    sentences = ["abc", "hhh", "ga", "hgfedcba", "cab"]
    greedy = translate_corpus(model, VOCAB, VOCAB, sentences, beam_size=1)
    ids = [VOCAB.encode(s) + [EOS] for s in sentences]
    for s, g in zip(ids, greedy):
        h = greedy_search(model, torch.tensor([s]), torch.tensor([len(s)]))[0]
        assert g == VOCAB.decode(h.tokens)
    # a two-member ensemble (probabilities averaged) against the average computed by hand
    members = [_toy_model(0), _toy_model(7)]
    ensembled = translate_corpus(Ensemble(members), VOCAB, VOCAB, sentences, beam_size=1)
    for s, ens in zip(ids, ensembled):
        hand = _hand_greedy_of_the_average(members, s, limit=int(1.5 * len(s) + 10))  # the default limit
        assert hand[-1] == EOS and ens == VOCAB.decode(hand)
    assert len(set(ensembled)) >= 3  # varied outputs, and not what either member says alone
    for m in members:
        assert ensembled != translate_corpus(m, VOCAB, VOCAB, sentences, beam_size=1)


def test_decode_corpus_returns_nbest_lists():
    model = _toy_model(3)
    out = decode_corpus(model, [[4, 5, EOS], [6, EOS]], beam_size=4, nbest=3)
    assert [len(h) for h in out] == [3, 3]
    assert all(h[0].score >= h[-1].score for h in out)


def test_results_tables(tmp_path):
    rows = [{"model": "seq2seq", "BLEU": 12.3456, "n": 3}, {"model": "reversed", "BLEU": float("nan"), "beam": 5}]
    md = results_markdown(rows)
    assert md.splitlines()[0] == "| model | BLEU | n | beam |"
    assert "| seq2seq | 12.35 | 3 |  |" in md and "| reversed | nan |  | 5 |" in md
    p = write_results(rows[:1], tmp_path / "r.json")
    assert json.loads(p.read_text()) == rows[:1]
    assert write_results(rows, tmp_path / "sub" / "r.md").read_text() == md


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: corpus_bleu(["a"], ["a", "b"]), DataError, "corpus_bleu: 1 hypotheses but 2 references"),
        (lambda: corpus_bleu([], []), DataError, "no sentences to score"),
        (lambda: corpus_bleu("a b", "a b"), DataError, "lists of strings, not one string"),
        (lambda: corpus_chrf([[4, 5]], ["a"]), DataError, "sentence 0 is list, expected str"),
        (lambda: bleu_by_length(["a"], ["a"], [1, 2], [0, 5]), DataError, "2 source lengths for 1 hypotheses"),
        (lambda: bleu_by_length(["a"], ["a"], [1], [5, 0]), ConfigError, "buckets must be >= 2 ascending edges"),
        (lambda: decode_corpus(_toy_model(), [[4, 5]]), DataError, "source 0 must end with EOS"),
        (lambda: decode_corpus(_toy_model(), [[4, EOS]], batch_size=0), ConfigError, "batch_size must be a positive"),
        (lambda: translate_corpus(_toy_model(), VOCAB, VOCAB, "abc"), DataError, "not one string"),
        (lambda: write_results([{"a": 1}], "x.csv"), ConfigError, "unknown table format '.csv'"),
        (lambda: results_markdown([]), DataError, "no rows"),
    ],
)
def test_user_errors_are_clear(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_decoding_plots():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from companion.plots.decoding import plot_bleu_by_length, plot_search_settings, plot_valid_curves

    rows = bleu_by_length(["a b c d e", "x y"], ["a b c d e", "x z"], [5, 2], [0, 3, math.inf])
    ax = plot_bleu_by_length({"plain": rows, "reversed": rows})
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0-2\n(n=1)", "3+\n(n=1)"]
    assert len(ax.patches) == 4
    empty = [((0, 3), 0, math.nan), ((3, math.inf), 1, 50.0)]
    ax = plot_bleu_by_length({"some": rows, "none short": empty}, title="t")
    assert len(ax.patches) == 3 and ax.get_title() == "t"  # no bar for the empty bucket
    ax = plot_search_settings([{"setting": "greedy", "BLEU": 10.0, "len_ratio": 0.9},
                               {"setting": "beam 5", "BLEU": 12.0, "len_ratio": 0.95}])
    assert len(ax.patches) == 2
    ax = plot_valid_curves({"run": [{"step": 10, "valid_ppl": 30.0}, {"step": 20, "valid_ppl": 12.0}]})
    assert list(ax.lines[0].get_ydata()) == [30.0, 12.0]
    plt.close("all")
    with pytest.raises(DataError, match="uses different buckets"):
        plot_bleu_by_length({"a": rows, "b": rows[:1]})
    with pytest.raises(DataError, match="rows need a 'len_ratio' entry"):
        plot_search_settings([{"setting": "greedy", "BLEU": 1.0}])
    with pytest.raises(DataError, match="run 'x' has no 'valid_ppl' records"):
        plot_valid_curves({"x": [{"step": 1}]})
