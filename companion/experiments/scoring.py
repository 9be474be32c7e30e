"""Scoring the book's translators: BLEU, chrF, exact matches and BLEU by length of held-out
pairs, sample translations marked right or wrong, and a table of decoding settings.

Every score is sacrebleu's on detokenized text (see :mod:`companion.evaluation.metrics`).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.data.batching import source_ids
from companion.data.kosynth.corpus import Pair
from companion.decoding import decode_corpus, translate_corpus
from companion.errors import DataError
from companion.evaluation import MetricScore, bleu_by_length, corpus_bleu, corpus_chrf
from companion.experiments.regime import DECODING, BookData, words


@dataclass
class Evaluation:
    """Translations of held-out pairs and their scores.

    ``exact`` is the share of outputs identical to the reference; ``by_length`` holds
    :func:`~companion.evaluation.bleu_by_length` rows over English reference length.
    """

    pairs: list[Pair]
    hyps: list[str]
    bleu: MetricScore
    chrf: MetricScore
    exact: float
    by_length: list = field(default_factory=list)

    @property
    def refs(self) -> list[str]:
        return [p.en for p in self.pairs]

    def subset(self, keep) -> "Evaluation":
        """The evaluation restricted to the pairs for which ``keep(pair)`` is true."""
        idx = [i for i, p in enumerate(self.pairs) if keep(p)]
        return score([self.pairs[i] for i in idx], [self.hyps[i] for i in idx])


#: reference-length buckets (English words) of the chapters' BLEU-by-length figures
LENGTH_BUCKETS = (3, 6, 10, 15, 20, 25, 31)


def score(pairs: Sequence[Pair], hyps: Sequence[str],
          buckets: Sequence[int] = LENGTH_BUCKETS) -> Evaluation:
    """BLEU, chrF, exact-match rate and BLEU by English length of ``hyps`` against ``pairs``."""
    if not pairs or len(pairs) != len(hyps):
        raise DataError(f"score: {len(hyps)} outputs for {len(pairs)} pairs (need as many, at least one)")
    refs = [p.en for p in pairs]
    exact = sum(h == r for h, r in zip(hyps, refs)) / len(refs)
    lengths = [words(r) for r in refs]
    by_length = bleu_by_length(list(hyps), refs, lengths, list(buckets))
    return Evaluation(list(pairs), list(hyps), corpus_bleu(list(hyps), refs),
                      corpus_chrf(list(hyps), refs), exact, by_length)


def evaluate(model: Any, data: BookData, pairs: Sequence[Pair], *, beam_size: int | None = None,
             **search: Any) -> Evaluation:
    """Translate the Korean side of ``pairs`` with the book's decoding setting
    (:data:`~companion.experiments.regime.DECODING`; ``beam_size=1`` is greedy search, other
    ``search`` options override the setting's) and score the outputs against the English side."""
    options = {**DECODING.search(beam_size), **search}
    if options["beam_size"] == 1:
        options.pop("length_penalty", None)
    hyps = translate_corpus(model, data.src_vocab, data.tgt_vocab, [p.ko for p in pairs], **options)
    return score(pairs, hyps)


#: English words from which the length classes are scored on the whole test split: the scored test
#: pairs hold only a few dozen sentences this long, too few for a claim about long sentences
LONG_FROM = LENGTH_BUCKETS[3]


def with_long_sentences(model: Any, data: BookData, scored: Evaluation, max_words: int | None = None) -> Evaluation:
    """``scored`` (the scored test pairs, :meth:`BookData.held_out`, decoded) joined with every
    further test pair of at least :data:`LONG_FROM` English words, decoded the same way: each
    length bucket from :data:`LONG_FROM` on then holds every test sentence of its lengths, the
    shorter ones only the scored pairs. Scores of the whole join mix the two; read it by length
    (``by_length``, ``subset``)."""
    test = data.pairs("test", max_words)
    n = len(scored.pairs)
    if [p.ko for p in scored.pairs] != [p.ko for p in test[:n]]:
        raise DataError("with_long_sentences: the scored pairs are not the first test pairs "
                        "(score data.held_out('test', max_words))")
    rest = [p for p in test[n:] if words(p.en) >= LONG_FROM]
    if not rest:
        return scored
    extra = evaluate(model, data, rest)
    return score(scored.pairs + extra.pairs, scored.hyps + extra.hyps)


def samples(ev: Evaluation, n: int = 6, *, only_wrong: bool = False, start: int = 0) -> str:
    """``n`` source / reference / output triples as text, marking each output right or wrong."""
    lines = []
    for p, h in list(zip(ev.pairs, ev.hyps))[start:]:
        if only_wrong and h == p.en:
            continue
        mark = "✓" if h == p.en else "✗"
        lines.append(f"{p.ko}\n  reference {p.en}\n  {mark} output  {h}")
        if len(lines) == n:
            break
    return "\n".join(lines)


def compare_search(model: Any, data: BookData, pairs: Sequence[Pair],
                   settings: Sequence[tuple[int, float]]) -> list[dict[str, Any]]:
    """One row per ``(beam_size, length_penalty)`` setting (beam 1 = greedy): BLEU, the mean
    log-probability of the chosen outputs, their length relative to the references, and the
    CPU seconds the search took."""
    sources = [source_ids(data.src_vocab, p.ko) for p in pairs]
    refs = [p.en for p in pairs]
    ref_words = sum(words(r) for r in refs)
    rows = []
    for k, alpha in settings:
        start = time.process_time()
        out = decode_corpus(model, sources, beam_size=k, length_penalty=alpha,
                            max_len_a=DECODING.max_len_a, max_len_b=DECODING.max_len_b)
        spent = time.process_time() - start
        texts = [data.tgt_vocab.decode(h[0].tokens) for h in out]
        rows.append({"setting": "greedy" if k == 1 else f"beam {k}, α={alpha:g}",
                     "BLEU": corpus_bleu(texts, refs).score,
                     "exact": sum(t == r for t, r in zip(texts, refs)) / len(refs),
                     "mean log p": statistics.fmean(h[0].log_prob for h in out),
                     "len_ratio": sum(words(t) for t in texts) / ref_words, "CPU s": spent})
    return rows


__all__ = ["Evaluation", "LENGTH_BUCKETS", "compare_search", "evaluate", "samples", "score"]
