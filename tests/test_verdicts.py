"""The rule that turns per-seed differences into a verdict on a paper's claim."""

from __future__ import annotations

import pytest

from companion.errors import DataError
from companion.experiments.verdicts import HOLDS, NOISE, OPPOSITE, judge, paired


def test_consistent_large_difference_holds():
    v = judge([3.0, 4.0, 5.0])
    assert v.verdict == HOLDS and v.mean == pytest.approx(4.0) and v.sd == pytest.approx(1.0)
    assert v.evidence("BLEU") == "+4.0 ± 1.0 BLEU (3/3 seeds agree)"


def test_claimed_negative_sign():
    assert judge([-3.0, -4.0, -5.0], sign=-1).verdict == HOLDS
    assert judge([3.0, 4.0, 5.0], sign=-1).verdict == OPPOSITE
    assert judge([-0.02, 0.01, -0.03], sign=-1).evidence(digits=2).endswith("(2/3 seeds agree)")


def test_seeds_that_disagree_are_noise_however_large_the_mean():
    assert judge([10.0, 12.0, -0.5]).verdict == NOISE


def test_same_sign_but_small_beside_the_spread_is_noise():
    # mean 1.2, sd ~1.9, standard error ~1.1: all positive, yet not twice the standard error
    assert judge([0.1, 0.1, 0.1, 0.1, 5.0]).verdict == NOISE


def test_needs_two_seeds_and_a_sign():
    with pytest.raises(DataError, match="at least two seeds"):
        judge([1.0])
    with pytest.raises(ValueError, match="sign"):
        judge([1.0, 2.0], sign=0)


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
