"""Verdicts on the papers' claims, decided by a stated rule from per-seed measurements.

A claim "A beats B" is measured as the paired differences ``d_s = A_s - B_s`` over seeds ``s``
(same data, same seed, only the compared choice differs). The rule:

* **holds** — every seed's difference has the claimed sign and the mean exceeds twice its
  standard error (``|mean| > 2 sd / sqrt(n)``);
* **opposite** — the same, with every difference of the other sign;
* **within noise** — anything else: the seeds disagree, or the mean is small beside its spread.

With three to five seeds this is a deliberately blunt test; the chapters show the per-seed
numbers behind every verdict.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import DataError

HOLDS, OPPOSITE, NOISE = "holds", "opposite", "within noise"


@dataclass(frozen=True)
class Verdict:
    """The outcome of one paired comparison: ``diffs`` per seed, their mean and sd, the claimed
    ``sign`` and the verdict."""

    diffs: tuple[float, ...]
    mean: float
    sd: float
    sign: int
    verdict: str

    def evidence(self, unit: str = "", digits: int = 1) -> str:
        """``"+1.4 ± 4.5 BLEU (4/5 seeds agree)"``: the mean and sd of the differences, and how
        many seeds' differences have the claimed sign."""
        agree = sum(d * self.sign > 0 for d in self.diffs)
        unit = f" {unit}" if unit else ""
        return (f"{self.mean:+.{digits}f} ± {self.sd:.{digits}f}{unit} "
                f"({agree}/{len(self.diffs)} seeds agree)")


def judge(diffs: Sequence[float], sign: int = 1) -> Verdict:
    """The verdict on "the difference is ``sign``-signed" (``sign`` = +1 or -1) from per-seed
    differences ``diffs`` (at least two)."""
    values = tuple(float(d) for d in diffs)
    if len(values) < 2:
        raise DataError(f"a verdict needs at least two seeds, got {len(values)}")
    if sign not in (1, -1):
        raise ValueError(f"sign must be +1 or -1, got {sign!r}")
    mean, sd = statistics.fmean(values), statistics.stdev(values)
    clear = abs(mean) > 2 * sd / math.sqrt(len(values))
    if clear and all(d * sign > 0 for d in values):
        verdict = HOLDS
    elif clear and all(d * sign < 0 for d in values):
        verdict = OPPOSITE
    else:
        verdict = NOISE
    return Verdict(values, mean, sd, sign, verdict)


def paired(record: Mapping[str, Any], a: str, b: str, key: str, record_b: Mapping[str, Any] | None = None,
           ) -> list[float]:
    """``a``'s ``key`` minus ``b``'s, seed by seed, from seed-spread records (``b`` may live in
    another record, ``record_b``, trained under the same seeds); seeds missing from either are
    skipped, and fewer than two common seeds is an error."""
    first = record["results"]["per_seed"]
    second = (record_b or record)["results"]["per_seed"]
    diffs = []
    for seed in first:
        if seed in second and a in first[seed] and b in second[seed]:
            try:
                diffs.append(float(first[seed][a][key]) - float(second[seed][b][key]))
            except KeyError:
                raise DataError(f"{record.get('name')}: seed {seed} has no {key!r} for {a!r} or {b!r}") from None
    if len(diffs) < 2:
        raise DataError(f"{a} vs {b}: {len(diffs)} common seeds with {key!r}, need at least two")
    return diffs
