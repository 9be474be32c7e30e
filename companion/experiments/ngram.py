"""Character n-gram language models: the count-based baseline of the RNN chapter.

An order-``n`` model predicts a character from the ``n - 1`` characters before it. Two
smoothings keep unseen events from getting probability zero:

- ``"add_k"``: :math:`P(c \\mid u) = (N(u c) + k) / (N(u) + k |V|)`;
- ``"interpolated"`` (Jelinek-Mercer): :math:`P_m(c \\mid u) = \\lambda_m P^{ML}_m(c \\mid u)
  + (1 - \\lambda_m) P_{m-1}(c \\mid u')`, with ``u'`` the context shortened by one character,
  ``P_0 = 1/|V|``, and the maximum-likelihood term replaced by ``P_{m-1}`` for a context never
  seen in training.

The vocabulary ``V`` is the training characters plus one "unknown" symbol that any unseen
character maps to. The text is padded on the left with ``n - 1`` start symbols, so the first
characters are predicted from shorter real contexts.

Evaluation: perplexity is ``exp`` of the mean negative log-likelihood per predicted character
(natural log), and bits per character is that mean NLL divided by ``ln 2``.

:func:`tune_smoothing` scores a grid of settings on held-out text and :func:`best_settings` keeps
the best one per order, so the smoothing of each order is chosen by measurement.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.errors import ConfigError, DataError

START = "\x00"  # left padding; never predicted
UNKNOWN = "\x01"  # stands for any character not seen in training


@dataclass(frozen=True)
class LMScore:
    """Teacher-forced evaluation of a language model on a text."""

    nll: float  # mean negative log-likelihood per predicted character, in nats
    ntokens: int  # number of predicted characters

    @property
    def perplexity(self) -> float:
        return math.exp(self.nll)

    @property
    def bpc(self) -> float:
        return self.nll / math.log(2)


def perplexity(mean_nll: float) -> float:
    """``exp(mean NLL per token)`` with the NLL in nats."""
    return math.exp(mean_nll)


def bits_per_char(mean_nll: float) -> float:
    """Mean NLL per character in nats, converted to bits: ``mean_nll / ln 2``."""
    return mean_nll / math.log(2)


class NGramLM:
    """A character n-gram model; see the module docstring for the smoothing formulas.

    Args:
        order: ``n`` >= 1 (1 is the unigram model).
        smoothing: ``"add_k"`` or ``"interpolated"``.
        k: the pseudo-count of add-k smoothing (``k = 1`` is Laplace), > 0.
        lambdas: for ``"interpolated"``, the weights ``lambda_1 .. lambda_n`` of the orders
            1..n (each in ``[0, 1]``), or one float used for every order.
    """

    def __init__(self, order: int, smoothing: str = "add_k", k: float = 1.0,
                 lambdas: float | Sequence[float] = 0.8):
        if not isinstance(order, int) or isinstance(order, bool) or order < 1:
            raise ConfigError(f"order must be a positive int, got {order!r}")
        if smoothing not in ("add_k", "interpolated"):
            raise ConfigError(f"smoothing must be 'add_k' or 'interpolated', got {smoothing!r}")
        if smoothing == "add_k" and not k > 0:
            raise ConfigError(f"k must be positive for add-k smoothing, got {k!r}")
        if isinstance(lambdas, (int, float)):
            lambdas = [float(lambdas)] * order
        lambdas = [float(x) for x in lambdas]
        if len(lambdas) != order:
            raise ConfigError(f"lambdas needs {order} weights (one per order), got {len(lambdas)}")
        if any(not 0.0 <= x <= 1.0 for x in lambdas):
            raise ConfigError(f"lambdas must lie in [0, 1], got {lambdas}")
        self.order, self.smoothing, self.k, self.lambdas = order, smoothing, float(k), lambdas
        self.vocab: frozenset[str] = frozenset()
        self._grams: list[Counter] = []  # _grams[m]: counts of (m+1)-grams (context + char)
        self._contexts: list[Counter] = []  # _contexts[m]: counts of m-char contexts

    def _clean(self, text: str) -> str:
        """Map characters outside the vocabulary to UNKNOWN (which stands for itself)."""
        if START in text:
            raise DataError("text for NGramLM must not contain the control character \\x00")
        return "".join(c if c in self.vocab else UNKNOWN for c in text)

    def fit(self, text: str) -> "NGramLM":
        """Count every m-gram (m = 1..n) of ``text``; returns ``self``."""
        if not text:
            raise DataError("NGramLM.fit needs a non-empty training text")
        if START in text or UNKNOWN in text:
            raise DataError("text for NGramLM must not contain the control characters \\x00 or \\x01")
        self.vocab = frozenset(text) | {UNKNOWN}
        n = self.order
        padded = START * (n - 1) + text
        # one pass over the n-grams; with the left padding every position ends exactly one
        # n-gram, and its m-gram is that n-gram's last m characters, so the lower orders are
        # sums over suffixes
        top = Counter(padded[i - n + 1:i + 1] for i in range(n - 1, len(padded)))
        self._grams = [Counter() for _ in range(n)]
        self._grams[n - 1] = top
        for m in range(n - 2, -1, -1):
            lower, higher = self._grams[m], self._grams[m + 1]
            for gram, count in higher.items():
                lower[gram[1:]] += count
        self._contexts = []
        for grams in self._grams:
            contexts: Counter = Counter()
            for gram, count in grams.items():
                contexts[gram[:-1]] += count
            self._contexts.append(contexts)
        return self

    def variant(self, order: int | None = None, smoothing: str | None = None, k: float | None = None,
                lambdas: float | Sequence[float] | None = None) -> "NGramLM":
        """A model with other settings that shares this one's counts (no re-counting).

        ``order`` may be at most the fitted order; unspecified settings are kept.
        """
        self._check_fitted()
        order = self.order if order is None else order
        if isinstance(order, int) and order > self.order:
            raise ConfigError(f"variant order {order} exceeds the fitted order {self.order}")
        if lambdas is None:
            lambdas = self.lambdas[:order] if isinstance(order, int) and order >= 1 else self.lambdas
        other = NGramLM(order, self.smoothing if smoothing is None else smoothing,
                        self.k if k is None else k, lambdas)
        other.vocab = self.vocab
        other._grams = self._grams[:order]
        other._contexts = self._contexts[:order]
        return other

    def _check_fitted(self) -> None:
        if not self._grams:
            raise ConfigError("NGramLM is not fitted: call fit(text) first")

    def prob(self, context: str, char: str) -> float:
        """``P(char | last n-1 characters of context)``; unseen characters count as unknown."""
        self._check_fitted()
        context = (START * (self.order - 1) + self._clean(context))[-(self.order - 1):] \
            if self.order > 1 else ""
        return self._prob(context, self._clean(char))

    def _prob(self, context: str, char: str) -> float:
        V = len(self.vocab)
        if self.smoothing == "add_k":
            m = len(context)
            return (self._grams[m][context + char] + self.k) / (self._contexts[m][context] + self.k * V)
        p = 1.0 / V
        for m in range(self.order):  # from the unigram up to the full context
            u = context[len(context) - m:] if m else ""
            total = self._contexts[m][u]
            if total:
                lam = self.lambdas[m]
                p = lam * self._grams[m][u + char] / total + (1.0 - lam) * p
        return p

    def score(self, text: str, context: str = "") -> LMScore:
        """Mean NLL of every character of ``text`` given what precedes it (and ``context``)."""
        self._check_fitted()
        if not text:
            raise DataError("NGramLM.score needs a non-empty text")
        n = self.order - 1
        full = START * n + self._clean(context) + self._clean(text)
        start = n + len(context)
        total = 0.0
        for i in range(start, len(full)):
            total -= math.log(self._prob(full[i - n:i] if n else "", full[i]))
        return LMScore(nll=total / len(text), ntokens=len(text))


#: the settings :func:`tune_smoothing` tries by default: five pseudo-counts ``k`` and nine mixing
#: weights ``lambda`` (one weight shared by every order of a model)
DEFAULT_GRID: dict[str, tuple[dict, ...]] = {
    "add_k": tuple({"k": k} for k in (1.0, 0.1, 0.03, 0.01, 0.003)),
    "interpolated": tuple({"lambdas": lam} for lam in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99)),
}


@dataclass(frozen=True)
class SmoothingChoice:
    """The best setting of one smoothing method for one order, and its bits per character on
    the tuning text."""

    order: int
    smoothing: str
    options: dict = field(hash=False)
    bpc: float

    @property
    def setting(self) -> str:
        """``"k = 0.01"`` or ``"lambda = 0.8"``."""
        if "k" in self.options:
            return f"k = {self.options['k']}"
        return f"lambda = {self.options['lambdas']}"

    def model(self, counts: NGramLM) -> NGramLM:
        """This setting as a model sharing the counts of ``counts`` (see :meth:`NGramLM.variant`)."""
        return counts.variant(self.order, self.smoothing, **self.options)


def tune_smoothing(counts: NGramLM, tune_text: str, orders: Sequence[int],
                   grid: dict[str, Sequence[dict]] | None = None) -> list[SmoothingChoice]:
    """For every order and smoothing method, the setting of ``grid`` with the lowest bits per
    character on ``tune_text`` (text that was not counted). ``counts`` is a fitted model of at
    least ``max(orders)``; ``grid`` maps a method to a list of keyword options (default
    :data:`DEFAULT_GRID`). Returns one :class:`SmoothingChoice` per ``(order, method)``, in that
    order; a tie keeps the setting listed first."""
    grid = DEFAULT_GRID if grid is None else grid
    unknown = sorted(set(grid) - {"add_k", "interpolated"})
    if unknown:
        raise ConfigError(f"tune_smoothing: unknown smoothing {unknown}; use 'add_k' or 'interpolated'")
    if any(not options for options in grid.values()):
        raise ConfigError("tune_smoothing: every smoothing in the grid needs at least one setting")
    choices = []
    for order in orders:
        for smoothing, settings in grid.items():
            best = None
            for options in settings:
                bpc = counts.variant(order, smoothing, **options).score(tune_text).bpc
                if best is None or bpc < best.bpc:
                    best = SmoothingChoice(order, smoothing, dict(options), bpc)
            choices.append(best)
    return choices


def best_settings(choices: Sequence[SmoothingChoice]) -> dict[int, SmoothingChoice]:
    """The choice with the lowest tuning bpc for each order (the first one on a tie)."""
    best: dict[int, SmoothingChoice] = {}
    for choice in choices:
        if choice.order not in best or choice.bpc < best[choice.order].bpc:
            best[choice.order] = choice
    return best
