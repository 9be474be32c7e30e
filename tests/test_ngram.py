"""Character n-gram baseline: hand-computed probabilities, normalisation, metrics, errors."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import ConfigError, DataError
from companion.experiments.ngram import (DEFAULT_GRID, UNKNOWN, LMScore, NGramLM, SmoothingChoice,
                                        best_settings, bits_per_char, perplexity, tune_smoothing)


def test_add_one_bigram_by_hand():
    lm = NGramLM(2, "add_k", k=1.0).fit("abab")
    # vocabulary {a, b, unknown}: V = 3; bigrams after left padding: ^a, ab, ba, ab
    assert lm.prob("", "a") == pytest.approx((1 + 1) / (1 + 3), abs=1e-15)
    assert lm.prob("a", "b") == pytest.approx((2 + 1) / (2 + 3), abs=1e-15)
    assert lm.prob("b", "b") == pytest.approx((0 + 1) / (1 + 3), abs=1e-15)
    assert lm.prob("z", "a") == pytest.approx(1 / 3, abs=1e-15)  # unseen context
    score = lm.score("ab")
    nll = -(math.log(0.5) + math.log(0.6)) / 2
    assert score.ntokens == 2
    assert score.nll == pytest.approx(nll, abs=1e-15)
    assert score.perplexity == pytest.approx(math.exp(nll), abs=1e-15)
    assert score.bpc == pytest.approx(nll / math.log(2), abs=1e-15)


def test_interpolated_bigram_by_hand():
    lm = NGramLM(2, "interpolated", lambdas=[0.5, 0.5]).fit("abab")
    p_unigram_a = 0.5 * (2 / 4) + 0.5 * (1 / 3)
    assert lm.prob("", "a") == pytest.approx(0.5 * 1.0 + 0.5 * p_unigram_a, abs=1e-15)
    p_unigram_b = 0.5 * (2 / 4) + 0.5 * (1 / 3)
    assert lm.prob("a", "b") == pytest.approx(0.5 * (2 / 2) + 0.5 * p_unigram_b, abs=1e-15)
    # a context never seen falls back to the lower order entirely
    assert lm.prob("x", "a") == pytest.approx(p_unigram_a, abs=1e-15)


def test_context_argument_conditions_the_first_character():
    lm = NGramLM(2, "add_k", k=0.5).fit("abcabc")
    assert lm.score("c", context="ab").nll == pytest.approx(-math.log(lm.prob("b", "c")), abs=1e-15)


def test_unigram_add_k_and_unknown_characters():
    lm = NGramLM(1, "add_k", k=1.0).fit("aab")
    assert lm.prob("anything", "a") == pytest.approx(3 / 6)
    assert lm.prob("", "q") == lm.prob("", "r") == pytest.approx(1 / 6)
    assert UNKNOWN in lm.vocab and len(lm.vocab) == 3


@settings(max_examples=30, deadline=None)
@given(text=st.text(alphabet="abc d", min_size=1, max_size=40),
       order=st.integers(1, 4), smoothing=st.sampled_from(["add_k", "interpolated"]),
       context=st.text(alphabet="abcdxy", max_size=5))
def test_distributions_sum_to_one(text, order, smoothing, context):
    lm = NGramLM(order, smoothing, k=0.3, lambdas=0.7).fit(text)
    total = sum(lm.prob(context, c) for c in lm.vocab)
    assert total == pytest.approx(1.0, abs=1e-12)


def test_metric_helpers():
    assert perplexity(math.log(5.0)) == pytest.approx(5.0)
    assert bits_per_char(math.log(2.0) * 3) == pytest.approx(3.0)
    assert LMScore(nll=math.log(4.0), ntokens=1).bpc == pytest.approx(2.0)


def test_errors_have_clear_messages():
    with pytest.raises(ConfigError, match="order must be a positive int, got 0"):
        NGramLM(0)
    with pytest.raises(ConfigError, match="smoothing must be 'add_k' or 'interpolated', got 'kn'"):
        NGramLM(2, "kn")
    with pytest.raises(ConfigError, match="k must be positive"):
        NGramLM(2, "add_k", k=0)
    with pytest.raises(ConfigError, match="lambdas needs 3 weights"):
        NGramLM(3, "interpolated", lambdas=[0.5, 0.5])
    with pytest.raises(ConfigError, match=r"lambdas must lie in \[0, 1\]"):
        NGramLM(1, "interpolated", lambdas=[1.5])
    with pytest.raises(ConfigError, match="not fitted"):
        NGramLM(2).score("ab")
    with pytest.raises(DataError, match="non-empty training text"):
        NGramLM(2).fit("")
    with pytest.raises(DataError, match="control characters"):
        NGramLM(2).fit("a\x00b")
    with pytest.raises(DataError, match="non-empty text"):
        NGramLM(2).fit("ab").score("")


@pytest.mark.parametrize("smoothing", ["add_k", "interpolated"])
def test_variant_equals_a_fresh_fit(smoothing):
    text = "the cat sat on the mat; the hat."
    big = NGramLM(5, "add_k", k=0.5).fit(text)
    small = big.variant(order=3, smoothing=smoothing, k=0.2, lambdas=0.6)
    fresh = NGramLM(3, smoothing, k=0.2, lambdas=0.6).fit(text)
    probe = "the rat sat."
    assert small.score(probe).nll == pytest.approx(fresh.score(probe).nll, abs=1e-14)
    assert big.variant().score(probe).nll == pytest.approx(big.score(probe).nll, abs=1e-14)
    with pytest.raises(ConfigError, match="variant order 6 exceeds the fitted order 5"):
        big.variant(order=6)


def test_tune_smoothing_keeps_the_best_setting_of_each_method_and_order():
    fit_text = "the cat sat on the mat. the hat sat on the cat. " * 3
    tune_text = "the rat sat on the hat."
    counts = NGramLM(3).fit(fit_text)
    grid = {"add_k": [{"k": 1.0}, {"k": 0.1}], "interpolated": [{"lambdas": 0.5}, {"lambdas": 0.9}]}
    choices = tune_smoothing(counts, tune_text, [1, 3], grid)
    assert [(c.order, c.smoothing) for c in choices] == [
        (1, "add_k"), (1, "interpolated"), (3, "add_k"), (3, "interpolated")]
    for choice in choices:
        scores = {options[key]: counts.variant(choice.order, choice.smoothing, **options).score(tune_text).bpc
                  for options in grid[choice.smoothing] for key in options}
        assert choice.bpc == min(scores.values())
        assert choice.bpc == choice.model(counts).score(tune_text).bpc
    best = best_settings(choices)
    assert set(best) == {1, 3}
    for order, choice in best.items():
        assert choice.bpc == min(c.bpc for c in choices if c.order == order)


def test_smoothing_choice_setting_text_and_ties():
    a = SmoothingChoice(2, "add_k", {"k": 0.01}, 3.0)
    b = SmoothingChoice(2, "interpolated", {"lambdas": 0.8}, 3.0)
    assert a.setting == "k = 0.01" and b.setting == "lambda = 0.8"
    assert best_settings([a, b])[2] is a  # a tie keeps the first
    assert best_settings([b, a])[2] is b
    assert len(DEFAULT_GRID["add_k"]) == 5 and len(DEFAULT_GRID["interpolated"]) == 9


def test_tune_smoothing_errors():
    counts = NGramLM(2).fit("abab")
    with pytest.raises(ConfigError, match="unknown smoothing \\['kneser_ney'\\]"):
        tune_smoothing(counts, "ab", [2], {"kneser_ney": [{}]})
    with pytest.raises(ConfigError, match="needs at least one setting"):
        tune_smoothing(counts, "ab", [2], {"add_k": []})
