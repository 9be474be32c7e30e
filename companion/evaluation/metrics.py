"""Metrics: corpus BLEU and chrF with their signatures, perplexity, BLEU by source length.

BLEU (Papineni et al. 2002) is computed by sacrebleu (Post 2018) on *detokenized* text -- the
strings a reader would see, what ``vocab.decode`` returns -- with sacrebleu's own ``13a``
tokenization, never on our SentencePiece pieces: BLEU over pieces is a different, larger and
incomparable number. Every score carries sacrebleu's signature string
(``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``) so a reader can tell exactly
what was measured.

Perplexity is ``exp`` of the teacher-forced mean negative log-likelihood per target token; it is
computed by :func:`companion.training.trainer.evaluate_loss` (the Trainer's own validation) and
:func:`perplexity` here only wraps it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch
from sacrebleu.metrics import BLEU, CHRF

from companion.errors import ConfigError, DataError


@dataclass(frozen=True)
class MetricScore:
    """A corpus-level score and how it was computed.

    Attributes:
        name: ``"BLEU"`` or ``"chrF2"``.
        score: the score on sacrebleu's 0-100 scale.
        signature: sacrebleu's signature string (tokenizer, smoothing, version, ...).
        details: for BLEU ``precisions`` (1- to 4-gram, %), ``bp``, ``sys_len``, ``ref_len``.
    """

    name: str
    score: float
    signature: str
    details: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.name} = {self.score:.2f}  ({self.signature})"


def _check_pairs(hyps: Sequence[str], refs: Sequence[str], where: str) -> None:
    if isinstance(hyps, str) or isinstance(refs, str):
        raise DataError(f"{where}: hypotheses and references must be lists of strings, not one string")
    if len(hyps) != len(refs):
        raise DataError(f"{where}: {len(hyps)} hypotheses but {len(refs)} references")
    if len(hyps) == 0:
        raise DataError(f"{where}: no sentences to score")
    for i, (h, r) in enumerate(zip(hyps, refs)):
        if not isinstance(h, str) or not isinstance(r, str):
            bad = h if not isinstance(h, str) else r
            raise DataError(f"{where}: sentence {i} is {type(bad).__name__}, expected str (detokenized text)")


def corpus_bleu(hyps: Sequence[str], refs: Sequence[str], *, tokenize: str = "13a",
                lowercase: bool = False) -> MetricScore:
    """Corpus BLEU of detokenized ``hyps`` against one reference each (sacrebleu).

    ``BLEU = BP * exp(mean_n log p_n)``, ``n = 1..4``, with clipped n-gram precisions ``p_n``
    pooled over the corpus and brevity penalty ``BP = min(1, exp(1 - r / c))``.
    """
    _check_pairs(hyps, refs, "corpus_bleu")
    metric = BLEU(tokenize=tokenize, lowercase=lowercase)
    res = metric.corpus_score(list(hyps), [list(refs)])
    details = {"precisions": list(res.precisions), "bp": res.bp, "sys_len": res.sys_len,
               "ref_len": res.ref_len, "counts": list(res.counts), "totals": list(res.totals)}
    return MetricScore("BLEU", float(res.score), str(metric.get_signature()), details)


def corpus_chrf(hyps: Sequence[str], refs: Sequence[str]) -> MetricScore:
    """Corpus chrF (Popović 2015): character n-gram F-score, beta = 2 (sacrebleu's default)."""
    _check_pairs(hyps, refs, "corpus_chrf")
    metric = CHRF()
    res = metric.corpus_score(list(hyps), [list(refs)])
    return MetricScore(res.name, float(res.score), str(metric.get_signature()))


def perplexity(model: Any, loader: Iterable, device: str | torch.device | None = None) -> float:
    """Teacher-forced perplexity ``exp(sum NLL / #target tokens)`` of ``model`` on ``loader``
    (via :func:`companion.training.trainer.evaluate_loss`; EOS counts, PAD does not)."""
    from companion.training.trainer import evaluate_loss

    return evaluate_loss(model, loader, device=device)[1]


def bleu_by_length(
    hyps: Sequence[str], refs: Sequence[str], src_lengths: Sequence[int], buckets: Sequence[int]
) -> list[tuple[tuple[int, float], int, float]]:
    """Corpus BLEU within source-length buckets (the fixed-vector bottleneck, made visible).

    ``buckets`` are ascending edges ``[e_0, e_1, ..., e_m]``; bucket ``j`` holds the sentences
    with ``e_j <= src_length < e_{j+1}`` (use ``math.inf`` as the last edge for an open end).
    Sentences outside ``[e_0, e_m)`` are left out. Returns ``[((lo, hi), n, bleu), ...]``;
    an empty bucket has ``n = 0`` and BLEU ``nan``.
    """
    _check_pairs(hyps, refs, "bleu_by_length")
    if len(src_lengths) != len(hyps):
        raise DataError(f"bleu_by_length: {len(src_lengths)} source lengths for {len(hyps)} hypotheses")
    edges = list(buckets)
    if len(edges) < 2 or any(b <= a for a, b in zip(edges, edges[1:])):
        raise ConfigError(f"bleu_by_length: buckets must be >= 2 ascending edges, got {edges}")
    out = []
    for lo, hi in zip(edges, edges[1:]):
        idx = [i for i, n in enumerate(src_lengths) if lo <= n < hi]
        if idx:
            score = corpus_bleu([hyps[i] for i in idx], [refs[i] for i in idx]).score
        else:
            score = math.nan
        out.append(((lo, hi), len(idx), score))
    return out


def bleu_validator(src_vocab: Any, tgt_vocab: Any, pairs: Sequence[tuple[str, str]], *,
                   max_len_a: float = 1.5, max_len_b: int = 10) -> Callable[[torch.nn.Module], dict]:
    """A Trainer ``validate_fn``: sacrebleu BLEU of greedy translations of ``pairs``'s sources
    against their targets, reported as ``valid_bleu``."""
    from companion.decoding.corpus import translate_corpus

    def validate(model: torch.nn.Module) -> dict:
        hyps = translate_corpus(model, src_vocab, tgt_vocab, [s for s, _ in pairs], beam_size=1,
                                max_len_a=max_len_a, max_len_b=max_len_b)
        return {"valid_bleu": corpus_bleu(hyps, [t for _, t in pairs]).score}

    return validate


__all__ = [
    "MetricScore",
    "corpus_bleu",
    "corpus_chrf",
    "perplexity",
    "bleu_by_length",
    "bleu_validator",
]
