"""Verdicts on the papers' claims, decided by a stated rule from per-seed measurements.

**Paired comparisons.** A claim "A beats B" about two variants trained in the same run under the
same seeds (same corpus, same batches, only the compared choice differs) is measured as the
per-seed differences ``d_s = A_s - B_s``. The test is an exact one-sided sign-flip
(randomisation) test: if the claim were void, A and B would be exchangeable within a seed, so each
``d_s`` would be as likely to carry either sign; the p-value is the share of the ``2^n`` sign
patterns whose sum ``sum_s e_s |d_s|`` is at least the observed ``sum_s d_s`` in the claimed
direction. No normality is assumed.

**Unpaired comparisons.** Models of different families trained in separate runs share no random
factor through their seed numbers (other batches, other initial weights), so pairing them by seed
means nothing. They are compared by an exact two-sample permutation test on the difference of the
means, over every way of splitting the pooled values into groups of the two sizes, and labelled
"unpaired".

**The rule** (level :data:`ALPHA` = 0.05, a minimum effect ``min_effect`` stated per claim, in the
claim's unit -- e.g. 1 BLEU or 0.02 AER):

* **holds** -- ``p <= ALPHA`` in the claimed direction and the mean difference is at least
  ``min_effect`` in that direction;
* **opposite** -- the same in the other direction;
* **within noise** -- anything else;
* **too few seeds** -- the design cannot reach ``p <= ALPHA`` at all: the smallest one-sided
  p-value of the sign-flip test with ``n`` seeds is ``1 / 2^n`` (1/8 with 3 seeds, 1/16 with 4,
  1/32 = 0.031 with 5), of the permutation test ``1 / C(n + m, n)``.

A claim that "A is not worse than B" (Xiong et al.: Pre-LN trains *without* warmup) is tested by
:func:`judge_not_worse`: the same sign-flip test on ``d_s + margin``, i.e. the mean difference is
significantly above ``-margin``.

**What it can detect.** Under no effect the rule says "holds" with probability at most ``ALPHA``
(``tests/test_verdicts.py`` simulates it: 2 to 8 seeds, several noise distributions). With five
seeds, p <= 0.05 requires all five differences to have the claimed sign, so a true mean
difference ``mu`` with seed-to-seed spread ``sigma`` (normal) holds with probability about
``Phi(mu / sigma)^5``: 0.89 at ``mu = 2 sigma``, 0.42 at ``mu = sigma``, 0.16 at
``mu = sigma / 2``.

**What it cannot detect.** "Within noise" is absence of evidence, not evidence of no difference:
an effect smaller than the spread between seeds, or smaller than ``min_effect``, is not found.
Fewer than five paired seeds (or three unpaired runs a side) can never establish anything at this
level.
The verdict holds for the stated scope only -- our model sizes, CPU budgets, corpus and thread
count -- and says nothing about the papers' scale. Each claim is tested at 0.05 on its own, with no
correction for testing many: with a table of fifteen claims and no real effect anywhere, about
15/32 = 0.47 of them would be expected to "hold" by chance with five seeds, so one surprising
"holds" is weak evidence. The test assumes the runs of a
comparison differ only by the compared choice and the seed; it knows nothing of bugs shared by
both arms.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.errors import DataError

HOLDS, OPPOSITE, NOISE, FEW = "holds", "opposite", "within noise", "too few seeds"
#: each verdict (and the two states of an untested claim) as the verb of a sentence: "the claim
#: that ... holds / comes out opposite / is within noise"
SAYS = {HOLDS: "holds", OPPOSITE: "comes out opposite", NOISE: "is within noise",
        FEW: "cannot be judged with so few seeds", "not measured": "was not measured",
        "not tested": "is not tested"}
#: the level of every test of the book
ALPHA = 0.05
#: the most seeds an exact sign-flip test enumerates (2^20 patterns)
MAX_SEEDS = 20


@dataclass(frozen=True)
class Verdict:
    """The outcome of one comparison.

    ``diffs`` are the per-seed differences of a paired comparison (empty for an unpaired one,
    whose two groups are ``a`` and ``b``); ``mean`` is the mean difference (paired) or the
    difference of the means (unpaired); ``sd`` the sample standard deviation of the differences
    (paired) or the pooled one (unpaired); ``p`` the one-sided p-value in the claimed direction
    ``sign``; ``p_other`` the one in the opposite direction.
    """

    diffs: tuple[float, ...]
    mean: float
    sd: float
    sign: int
    verdict: str
    p: float = math.nan
    p_other: float = math.nan
    alpha: float = ALPHA
    min_effect: float = 0.0
    paired: bool = True
    a: tuple[float, ...] = ()
    b: tuple[float, ...] = ()
    test: str = "sign-flip"

    @property
    def n(self) -> int:
        """Seeds behind the verdict (paired), or the smaller group's (unpaired)."""
        return len(self.diffs) if self.paired else min(len(self.a), len(self.b))

    @property
    def smallest_p(self) -> float:
        """The smallest p-value the design can produce."""
        if self.paired:
            return 2.0 ** -len(self.diffs)
        return 1 / math.comb(len(self.a) + len(self.b), len(self.a))

    def evidence(self, unit: str = "", digits: int = 1) -> str:
        """``"+1.4 ± 4.5 BLEU (4/5 seeds agree, p = 0.19)"`` for a paired comparison: mean and sd
        of the differences, how many seeds' differences have the claimed sign, the one-sided p (of
        the claimed direction; of the other when the verdict is opposite);
        ``"+5.4 BLEU (unpaired, 5 vs 5 runs, p = 0.004)"`` for an unpaired one."""
        unit = f" {unit}" if unit else ""
        p = f"p = {self.p:.2g}" if self.verdict != OPPOSITE else f"p = {self.p_other:.2g} against the claim"
        if not self.paired:
            return f"{self.mean:+.{digits}f}{unit} (unpaired, {len(self.a)} vs {len(self.b)} runs, {p})"
        # a non-inferiority test agrees where A is not worse by more than the margin
        floor = -self.min_effect if self.test.endswith("non-inferiority") else 0.0
        agree = sum(d * self.sign > floor for d in self.diffs)
        return f"{self.mean:+.{digits}f} ± {self.sd:.{digits}f}{unit} ({agree}/{len(self.diffs)} seeds agree, {p})"


# ------------------------------------------------------------------------------ the tests
def _sign_patterns(n: int) -> np.ndarray:
    """Every ``+-1`` pattern of length ``n``: ``(n, 2^n)`` float64."""
    return np.array(list(itertools.product((1.0, -1.0), repeat=n))).T


def sign_flip_pvalues(diffs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Exact one-sided sign-flip p-values of many samples at once.

    ``diffs`` ``(N, n)`` -> ``(p_greater, p_less)``, each ``(N,)``: the share of the ``2^n``
    sign patterns ``e`` with ``sum(e * |d|) >= sum(d)`` (resp. ``<=``). Ties count for the
    pattern (the conservative choice); sums equal up to rounding are ties.
    """
    d = np.atleast_2d(np.asarray(diffs, dtype=np.float64))
    n = d.shape[1]
    if n > MAX_SEEDS:
        raise DataError(f"a sign-flip test enumerates 2^n patterns: at most {MAX_SEEDS} seeds, got {n}")
    sums = np.abs(d) @ _sign_patterns(n)  # (N, 2^n)
    observed = d.sum(axis=1, keepdims=True)
    tol = 1e-9 * np.maximum(np.abs(d).sum(axis=1, keepdims=True), 1e-300)
    total = sums.shape[1]
    return (sums >= observed - tol).sum(axis=1) / total, (sums <= observed + tol).sum(axis=1) / total


def permutation_pvalues(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Exact one-sided two-sample permutation p-values of ``mean(a) - mean(b)``: the share of
    the ``C(n + m, n)`` splits of the pooled values whose difference of means is at least (resp.
    at most) the observed one."""
    pooled = np.asarray([*a, *b], dtype=np.float64)
    n, total = len(a), len(a) + len(b)
    if math.comb(total, n) > 2_000_000:
        raise DataError(f"an exact permutation test of {n} vs {len(b)} runs has too many splits")
    everything = pooled.sum()
    first = np.array([pooled[list(idx)].sum() for idx in itertools.combinations(range(total), n)])
    stats = first / n - (everything - first) / (total - n)
    observed = pooled[:n].mean() - pooled[n:].mean()
    tol = 1e-9 * np.abs(pooled).sum() + 1e-300
    return float((stats >= observed - tol).mean()), float((stats <= observed + tol).mean())


def unpaired_power(effect_sd: float, n_a: int, n_b: int, *, alpha: float = ALPHA, trials: int = 4000,
                   seed: int = 0) -> float:
    """How often the exact permutation test of :func:`judge_unpaired` reaches ``alpha`` in the
    claimed direction when the true difference of means is ``effect_sd`` standard deviations of
    normal run-to-run noise: the share of ``trials`` simulated experiments of ``n_a`` against
    ``n_b`` runs (a seeded generator, so the estimate is the same on every run; its standard
    error is at most ``0.5 / sqrt(trials)``). With no effect it is the test's false-positive
    rate, at most ``alpha``."""
    for name, value in (("n_a", n_a), ("n_b", n_b), ("trials", trials)):
        if isinstance(value, bool) or not isinstance(value, int) or value < (1 if name == "trials" else 2):
            raise DataError(f"unpaired_power: {name} must be an integer of at least "
                            f"{1 if name == 'trials' else 2}, got {value!r}")
    total = n_a + n_b
    if math.comb(total, n_a) > 20_000:
        raise DataError(f"unpaired_power: {n_a} vs {n_b} runs have too many splits to simulate")
    splits = np.zeros((math.comb(total, n_a), total))
    for row, idx in enumerate(itertools.combinations(range(total), n_a)):
        splits[row, list(idx)] = 1.0  # row 0 is the observed split: the first n_a values are a's
    rng = np.random.default_rng(seed)
    pooled = rng.standard_normal((trials, total))
    pooled[:, :n_a] += effect_sd
    first = pooled @ splits.T                                     # (trials, splits): sums of a's side
    stats = first / n_a - (pooled.sum(axis=1, keepdims=True) - first) / n_b
    tol = 1e-9 * np.abs(pooled).sum(axis=1, keepdims=True)
    p = (stats >= stats[:, :1] - tol).mean(axis=1)
    return float((p <= alpha).mean())


def fisher_exact(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value of Fisher's exact test that two shares ``k1 / n1`` and ``k2 / n2``
    (sentences judged odd among those read, in two rounds of review) come from one rate: the
    probability, with the margins fixed, of a table no more likely than the observed one
    (float64 from exact binomial coefficients)."""
    for name, value in (("k1", k1), ("n1", n1), ("k2", k2), ("n2", n2)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise DataError(f"fisher_exact: {name} must be a count (a non-negative int), got {value!r}")
    if k1 > n1 or k2 > n2 or n1 == 0 or n2 == 0:
        raise DataError(f"fisher_exact: counts {k1}/{n1} and {k2}/{n2} are not shares of a sample")
    k, n = k1 + k2, n1 + n2
    whole = math.comb(n, k)

    def prob(x: int) -> float:
        return math.comb(n1, x) * math.comb(n2, k - x) / whole

    observed = prob(k1)
    lo, hi = max(0, k - n2), min(k, n1)
    return min(1.0, sum(q for q in map(prob, range(lo, hi + 1)) if q <= observed * (1 + 1e-7)))


def _check(sign: int, min_effect: float, alpha: float) -> None:
    if sign not in (1, -1):
        raise ValueError(f"sign must be +1 or -1, got {sign!r}")
    if not (min_effect >= 0 and math.isfinite(min_effect)):
        raise ValueError(f"min_effect must be a finite number >= 0, got {min_effect!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha!r}")


def decide(effect: float, p: float, p_other: float, smallest_p: float, *, min_effect: float = 0.0,
           alpha: float = ALPHA) -> str:
    """The rule: ``effect`` is the mean difference in the claimed direction (positive: as
    claimed), ``p``/``p_other`` the one-sided p-values for and against the claim."""
    if smallest_p > alpha:
        return FEW
    if p <= alpha and effect >= min_effect:
        return HOLDS
    if p_other <= alpha and -effect >= min_effect:
        return OPPOSITE
    return NOISE


def _values(name: str, values: Sequence[float]) -> tuple[float, ...]:
    out = tuple(float(v) for v in values)
    if not all(math.isfinite(v) for v in out):
        raise DataError(f"{name}: every value must be a finite number, got {list(out)}")
    return out


def judge(diffs: Sequence[float], sign: int = 1, *, min_effect: float = 0.0,
          alpha: float = ALPHA) -> Verdict:
    """The verdict on "the difference is ``sign``-signed (by at least ``min_effect``)" from the
    per-seed differences ``diffs`` of a paired comparison (at least two seeds; fewer than the
    level needs -- five at 0.05 -- give :data:`FEW`)."""
    values = _values("judge", diffs)
    if len(values) < 2:
        raise DataError(f"a verdict needs at least two seeds, got {len(values)}")
    _check(sign, min_effect, alpha)
    greater, less = sign_flip_pvalues(np.array([values]))
    p, p_other = (float(greater[0]), float(less[0])) if sign == 1 else (float(less[0]), float(greater[0]))
    mean, sd = statistics.fmean(values), statistics.stdev(values)
    verdict = decide(sign * mean, p, p_other, 2.0 ** -len(values), min_effect=min_effect, alpha=alpha)
    return Verdict(values, mean, sd, sign, verdict, p, p_other, alpha, min_effect)


def judge_not_worse(diffs: Sequence[float], margin: float, sign: int = 1, *,
                    alpha: float = ALPHA) -> Verdict:
    """The verdict on "A is not worse than B by more than ``margin``" (``sign`` = +1: higher is
    better; -1: lower is better, e.g. perplexity) from paired differences ``A_s - B_s``: it
    *holds* when the mean difference is significantly above ``-margin`` (the sign-flip test on
    ``d_s + margin``), and is *opposite* when it is significantly below ``-margin`` (A is worse by
    more than the margin)."""
    values = _values("judge_not_worse", diffs)
    if len(values) < 2:
        raise DataError(f"a verdict needs at least two seeds, got {len(values)}")
    _check(sign, margin, alpha)
    shifted = np.array([[sign * v + margin for v in values]])
    greater, less = sign_flip_pvalues(shifted)
    mean, sd = statistics.fmean(values), statistics.stdev(values)
    verdict = decide(float(shifted.mean()), float(greater[0]), float(less[0]), 2.0 ** -len(values),
                     alpha=alpha)
    return Verdict(values, mean, sd, sign, verdict, float(greater[0]), float(less[0]), alpha, margin,
                   test="sign-flip, non-inferiority")


def judge_unpaired(a: Sequence[float], b: Sequence[float], sign: int = 1, *, min_effect: float = 0.0,
                   alpha: float = ALPHA) -> Verdict:
    """The verdict on "``mean(a) - mean(b)`` is ``sign``-signed (by at least ``min_effect``)"
    for runs that share nothing but the corpus (other families, other runs): an exact two-sample
    permutation test, labelled unpaired."""
    xs, ys = _values("judge_unpaired", a), _values("judge_unpaired", b)
    if len(xs) < 2 or len(ys) < 2:
        raise DataError(f"an unpaired verdict needs at least two runs a side, got {len(xs)} and {len(ys)}")
    _check(sign, min_effect, alpha)
    greater, less = permutation_pvalues(xs, ys)
    p, p_other = (greater, less) if sign == 1 else (less, greater)
    mean = statistics.fmean(xs) - statistics.fmean(ys)
    pooled = math.sqrt(((len(xs) - 1) * statistics.variance(xs) + (len(ys) - 1) * statistics.variance(ys))
                       / (len(xs) + len(ys) - 2))
    smallest = 1 / math.comb(len(xs) + len(ys), len(xs))
    verdict = decide(sign * mean, p, p_other, smallest, min_effect=min_effect, alpha=alpha)
    return Verdict((), mean, pooled, sign, verdict, p, p_other, alpha, min_effect, paired=False,
                   a=xs, b=ys, test="permutation")


# ------------------------------------------------------------------------ reading records
def paired(record: Mapping[str, Any], a: str, b: str, key: str, record_b: Mapping[str, Any] | None = None,
           ) -> list[float]:
    """``a``'s ``key`` minus ``b``'s, seed by seed, from seed-spread records (``b`` may live in
    another record, ``record_b``, trained under the same seeds -- but runs of other records share
    no random factor with these, so such differences belong in :func:`judge_unpaired`, not
    :func:`judge`); seeds missing from either are skipped, and fewer than two common seeds is an
    error."""
    first = record["results"]["per_seed"]
    second = (record_b or record)["results"]["per_seed"]
    diffs = []
    for seed in first:
        if seed in second and a in first[seed] and b in second[seed]:
            try:
                diffs.append(float(first[seed][a][key]) - float(second[seed][b][key]))
            except (KeyError, TypeError):
                raise DataError(f"{record.get('name')}: seed {seed} has no {key!r} for {a!r} or {b!r}") from None
    if len(diffs) < 2:
        raise DataError(f"{a} vs {b}: {len(diffs)} common seeds with {key!r}, need at least two")
    return diffs


def per_seed(record: Mapping[str, Any], model: str, key: str) -> list[float]:
    """``model``'s ``key`` in every seed of a seed-spread record (seed order), for
    :func:`judge_unpaired`."""
    rows = record["results"]["per_seed"]
    try:
        return [float(rows[s][model][key]) for s in rows if model in rows[s]]
    except (KeyError, TypeError):
        raise DataError(f"{record.get('name')}: some seed has no {key!r} for {model!r}") from None


__all__ = ["ALPHA", "FEW", "HOLDS", "NOISE", "OPPOSITE", "SAYS", "Verdict", "decide", "judge", "judge_not_worse",
           "judge_unpaired", "paired", "per_seed", "permutation_pvalues", "sign_flip_pvalues"]
