"""The rule that turns per-seed measurements into a verdict on a paper's claim: its false-"holds"
rate under no effect (simulated), its power on a large effect, and its one-line refusals."""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.errors import DataError
from companion.experiments.verdicts import (ALPHA, FEW, HOLDS, NOISE, OPPOSITE, decide, judge, judge_not_worse,
                                            judge_unpaired, paired, per_seed, permutation_pvalues,
                                            sign_flip_pvalues)

#: symmetric noise of several shapes: what paired differences look like when the claim is void
NULLS = {
    "normal": lambda rng, size: rng.normal(0.0, 2.0, size),
    "laplace": lambda rng, size: rng.laplace(0.0, 1.5, size),
    "student-t, 2 df": lambda rng, size: rng.standard_t(2, size),
    "uniform": lambda rng, size: rng.uniform(-3.0, 3.0, size),
    "rounded to 0.5 (ties)": lambda rng, size: np.round(2 * rng.normal(0.0, 1.0, size)) / 2,
    "bimodal": lambda rng, size: rng.choice([-1.0, 1.0], size) * (2.0 + 0.3 * rng.normal(size=size)),
}
TRIALS = 200_000


def _null_holds_rate(draw, n: int, rng) -> float:
    """The share of simulated null experiments with ``n`` seeds that the rule calls "holds"
    (claim "+", no minimum effect: the most permissive setting). The p-values come from
    :func:`sign_flip_pvalues`, the function :func:`judge` calls; the decision from
    :func:`decide`, the rule :func:`judge` applies."""
    held = 0
    for start in range(0, TRIALS, 20_000):
        d = draw(rng, (20_000, n))
        greater, less = sign_flip_pvalues(d)
        mean = d.mean(axis=1)
        held += sum(decide(m, p, q, 2.0 ** -n) == HOLDS for m, p, q in zip(mean, greater, less))
    return held / TRIALS


@pytest.mark.parametrize("noise", list(NULLS))
def test_under_no_effect_the_rule_says_holds_at_most_five_percent_of_the_time(noise):
    rng = np.random.default_rng(17)
    for n in range(2, 9):
        rate = _null_holds_rate(NULLS[noise], n, rng)
        # exact for continuous noise: floor(0.05 * 2^n) / 2^n (0, 0, 0, 1/32, 3/64, 6/128, 12/256);
        # the simulation's standard error is below 0.0005
        assert rate <= ALPHA, f"{noise}, {n} seeds: P(holds) = {rate:.4f}"
        if n <= 4:
            assert rate == 0.0  # 1/16 > 0.05: the design cannot reach the level


def test_the_vectorised_p_values_are_judges():
    rng = np.random.default_rng(3)
    d = rng.normal(0.5, 1.0, (300, 5))
    greater, less = sign_flip_pvalues(d)
    for row, p, q in zip(d, greater, less):
        v = judge(row)
        assert (v.p, v.p_other) == (p, q)


def test_sign_flip_p_value_counts_sign_patterns_exactly():
    v = judge([1.0, 2.0, 3.0, 4.0, 5.0])
    assert v.p == 1 / 32 and v.p_other == 1.0
    # flipping the smallest difference gives the second-largest sum: p = 2/32
    assert judge([-1.0, 2.0, 3.0, 4.0, 5.0]).p == 2 / 32
    assert judge([-1.0, 2.0, 3.0, 4.0, 5.0]).verdict == NOISE  # 0.0625 > 0.05


def test_a_large_effect_with_five_seeds_holds_and_its_mirror_is_opposite():
    gains = [6.1, 4.8, 7.3, 5.5, 6.6]
    v = judge(gains, min_effect=1.0)
    assert v.verdict == HOLDS and v.p == pytest.approx(1 / 32) and v.min_effect == 1.0
    assert v.evidence("BLEU") == "+6.1 ± 1.0 BLEU (5/5 seeds agree, p = 0.031)"
    assert judge([-g for g in gains], min_effect=1.0).verdict == OPPOSITE
    assert judge([-g for g in gains], min_effect=1.0).evidence("BLEU").endswith(
        "(0/5 seeds agree, p = 0.031 against the claim)")
    assert judge(gains, sign=-1, min_effect=1.0).verdict == OPPOSITE
    assert judge([-g for g in gains], sign=-1, min_effect=1.0).verdict == HOLDS


def test_a_significant_but_tiny_effect_is_within_noise_below_the_minimum_effect():
    assert judge([1e-6] * 5).verdict == HOLDS  # significant, and no minimum stated
    assert judge([1e-6] * 5, min_effect=1.0).verdict == NOISE
    assert judge([0.3, 0.4, 0.5, 0.35, 0.45], min_effect=1.0).verdict == NOISE
    assert judge([-0.3, -0.4, -0.5, -0.35, -0.45], min_effect=1.0).verdict == NOISE


def test_fewer_seeds_than_the_level_needs_say_so():
    assert judge([1e-6] * 3).verdict == FEW
    assert judge([50.0, 60.0, 55.0, 58.0]).verdict == FEW  # 1/16 > 0.05, however large
    assert judge([50.0, 60.0, 55.0, 58.0], alpha=0.1).verdict == HOLDS  # a looser level could
    assert judge([3.0, 4.0, 5.0]).smallest_p == 1 / 8


def test_seeds_that_disagree_are_noise_however_large_the_mean():
    assert judge([10.0, 12.0, -0.5, 11.0, 9.0]).verdict == NOISE


def test_unpaired_permutation_test():
    search = [90.1, 91.4, 89.2, 92.0, 90.5]
    encdec = [27.3, 28.1, 26.0, 27.9, 29.2]
    v = judge_unpaired(search, encdec, min_effect=1.0)
    assert v.verdict == HOLDS and not v.paired and v.p == pytest.approx(1 / math.comb(10, 5))
    assert v.evidence("BLEU").startswith("+62.9 BLEU (unpaired, 5 vs 5 runs, p = 0.004")
    assert judge_unpaired(encdec, search, min_effect=1.0).verdict == OPPOSITE
    assert judge_unpaired([1.0, 2.0], [0.0, 0.5]).verdict == FEW  # 1/6 > 0.05
    # overlapping groups: no verdict either way
    assert judge_unpaired([1.0, 3.0, 5.0, 7.0], [2.0, 4.0, 6.0, 8.0]).verdict == NOISE


def test_unpaired_p_values_by_hand():
    greater, less = permutation_pvalues([3.0, 4.0], [1.0, 2.0])
    assert greater == pytest.approx(1 / 6) and less == 1.0  # the observed split is the largest of 6


@pytest.mark.parametrize("noise", ["normal", "student-t, 2 df", "rounded to 0.5 (ties)"])
def test_unpaired_null_holds_rate_is_at_most_five_percent(noise):
    rng = np.random.default_rng(5)
    draw = NULLS[noise]
    for n in (3, 4, 5):
        held = sum(judge_unpaired(draw(rng, n), draw(rng, n)).verdict == HOLDS for _ in range(3000))
        # exact for continuous noise: 1/20, 3/70, 12/252; 3000 trials: standard error <= 0.004
        bound = {3: 1 / 20, 4: 3 / 70, 5: 12 / 252}[n]
        assert held / 3000 <= bound + 3 * math.sqrt(bound * (1 - bound) / 3000), (noise, n, held)


def test_not_worse_than_a_margin():
    close = [-0.4, 0.2, -0.6, 0.1, -0.2]  # within 1 BLEU of the reference in every seed
    assert judge_not_worse(close, margin=1.0).verdict == HOLDS
    assert judge_not_worse([-5.0, -6.0, -4.5, -7.0, -5.5], margin=1.0).verdict == OPPOSITE
    assert judge_not_worse([-0.4, 2.0, -3.0, 0.1, -1.2], margin=1.0).verdict == NOISE
    # lower is better (perplexity): A's higher perplexity by at most the margin
    assert judge_not_worse([0.01, 0.02, 0.0, 0.015, 0.005], margin=0.05, sign=-1).verdict == HOLDS
    # at the margin's boundary (true mean -margin) the rule rarely says holds
    rng = np.random.default_rng(11)
    held = sum(judge_not_worse(-1.0 + rng.normal(0, 1.0, 5), margin=1.0).verdict == HOLDS for _ in range(4000))
    assert held / 4000 <= 1 / 32 + 3 * math.sqrt((1 / 32) * (31 / 32) / 4000)


def test_bad_input_is_refused_in_one_line():
    with pytest.raises(DataError, match="at least two seeds"):
        judge([1.0])
    with pytest.raises(ValueError, match="sign"):
        judge([1.0, 2.0], sign=0)
    with pytest.raises(ValueError, match="min_effect"):
        judge([1.0, 2.0], min_effect=-1.0)
    with pytest.raises(DataError, match="finite"):
        judge([1.0, float("nan"), 2.0])
    with pytest.raises(DataError, match="two runs a side"):
        judge_unpaired([1.0], [2.0, 3.0])


def _record(rows):
    return {"name": "r", "results": {"per_seed": rows}}


def test_paired_differences_seed_by_seed_across_records():
    a = _record({"0": {"x": {"bleu": 10.0}}, "1": {"x": {"bleu": 12.0}}, "2": {"x": {"bleu": 9.0}}})
    b = _record({"0": {"y": {"bleu": 8.0}}, "1": {"y": {"bleu": 11.0}}})
    assert paired(a, "x", "y", "bleu", b) == [2.0, 1.0]          # seed 2 has no partner
    with pytest.raises(DataError, match="1 common seeds"):
        paired(a, "x", "y", "bleu", _record({"0": {"y": {"bleu": 1.0}}}))
    with pytest.raises(DataError, match="no 'chrf'"):
        paired(a, "x", "x", "chrf")
    assert per_seed(a, "x", "bleu") == [10.0, 12.0, 9.0]
    with pytest.raises(DataError, match="no 'chrf'"):
        per_seed(a, "x", "chrf")


def test_not_worse_evidence_counts_seeds_within_the_margin():
    from companion.experiments.verdicts import judge_not_worse

    v = judge_not_worse([-0.5, -0.2, -0.8, -0.1, -0.4], margin=1.0)
    assert v.verdict == "holds"
    assert "5/5 seeds agree" in v.evidence("BLEU")


def test_fisher_exact_matches_known_tables_and_refuses_non_counts():
    """Fisher's tea-tasting table (3 of 4 vs 1 of 4) has two-sided p = 34/70; equal shares give
    1; a lopsided table a small p; symmetric in the two samples; bad counts one-line errors."""
    from companion.errors import DataError
    from companion.experiments.verdicts import fisher_exact

    assert fisher_exact(3, 4, 1, 4) == pytest.approx(34 / 70)
    assert fisher_exact(5, 10, 5, 10) == pytest.approx(1.0)
    assert fisher_exact(0, 20, 10, 20) < 0.001
    assert fisher_exact(7, 120, 19, 120) == pytest.approx(fisher_exact(19, 120, 7, 120))
    assert 0.01 < fisher_exact(7, 120, 19, 120) < 0.05
    for bad in ((5, 4, 1, 4), (-1, 4, 1, 4), (1, 0, 1, 4), (1.5, 4, 1, 4)):
        with pytest.raises(DataError, match="fisher_exact"):
            fisher_exact(*bad)


def test_unpaired_power_is_the_false_positive_rate_at_no_effect_and_grows_with_the_effect():
    from companion.experiments.verdicts import ALPHA, unpaired_power

    # with no effect the exact test rejects on the 12 most extreme of the 252 splits of 5 vs 5 runs
    exact = math.floor(ALPHA * math.comb(10, 5)) / math.comb(10, 5)
    null = unpaired_power(0.0, 5, 5, trials=20000)
    assert abs(null - exact) < 3 * (exact * (1 - exact) / 20000) ** 0.5
    small, one, two = (unpaired_power(e, 5, 5, trials=3000) for e in (0.5, 1.0, 2.0))
    assert null < small < one < two and two > 0.7
    assert unpaired_power(1.0, 5, 5, trials=500, seed=3) == unpaired_power(1.0, 5, 5, trials=500, seed=3)
    with pytest.raises(DataError, match="n_a must be an integer of at least 2"):
        unpaired_power(1.0, 1, 5)
    with pytest.raises(DataError, match="too many splits"):
        unpaired_power(1.0, 10, 10)
