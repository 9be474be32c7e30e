"""Evaluation: corpus BLEU and chrF with their signatures, perplexity, BLEU by source length,
results tables, and translating a whole corpus.

BLEU (Papineni et al. 2002) is computed by sacrebleu (Post 2018) on *detokenized* text -- the
strings a reader would see, what ``vocab.decode`` returns -- with sacrebleu's own ``13a``
tokenization, never on our SentencePiece pieces: BLEU over pieces is a different, larger and
incomparable number. Every score carries sacrebleu's signature string
(``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``) so a reader can tell exactly
what was measured.

Perplexity is ``exp`` of the teacher-forced mean negative log-likelihood per target token; it is
computed by :func:`companion.train.evaluate_loss` (the Trainer's own validation) and
:func:`perplexity` here only wraps it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
from sacrebleu.metrics import BLEU, CHRF

from companion.decode import Ensemble, Hypothesis, beam_search, greedy_search
from companion.errors import ConfigError, DataError
from companion.specials import EOS, PAD


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
    (via :func:`companion.train.evaluate_loss`; EOS counts, PAD does not)."""
    from companion.train import evaluate_loss

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


# ------------------------------------------------------------------ translating a corpus
def _device_of(model: Any) -> torch.device:
    first = model.models[0] if isinstance(model, Ensemble) else model
    try:
        return next(first.parameters()).device
    except (AttributeError, StopIteration):
        return torch.device("cpu")


def decode_corpus(
    model: Any,
    sources: Sequence[Sequence[int]],
    *,
    beam_size: int = 5,
    nbest: int = 1,
    batch_size: int = 64,
    **search: Any,
) -> list[list[Hypothesis]]:
    """Decode id sequences (each ending with EOS) in length-sorted batches; input order kept.

    ``beam_size=1`` with no length penalty uses :func:`~companion.decode.greedy_search` (the
    same output, faster); other options go to :func:`~companion.decode.beam_search`.
    """
    if not isinstance(batch_size, int) or batch_size < 1:
        raise ConfigError(f"decode_corpus: batch_size must be a positive integer, got {batch_size!r}")
    for i, s in enumerate(sources):
        if len(s) == 0 or s[-1] != EOS:
            raise DataError(f"decode_corpus: source {i} must end with EOS (id {EOS}), got {list(s)[-5:]}")
    device = _device_of(model)
    order = sorted(range(len(sources)), key=lambda i: (len(sources[i]), i))
    out: list[list[Hypothesis] | None] = [None] * len(sources)
    use_greedy = beam_size == 1 and nbest == 1 and not search.get("length_penalty", 0.0)
    for start in range(0, len(order), batch_size):
        ids = order[start : start + batch_size]
        width = max(len(sources[i]) for i in ids)
        src = torch.full((len(ids), width), PAD, dtype=torch.long)
        for row, i in enumerate(ids):
            src[row, : len(sources[i])] = torch.as_tensor(list(sources[i]), dtype=torch.long)
        lengths = torch.tensor([len(sources[i]) for i in ids])
        src, lengths = src.to(device), lengths.to(device)
        if use_greedy:
            greedy_kw = {k: v for k, v in search.items() if k in ("max_len_a", "max_len_b", "max_len")}
            hyps = [[h] for h in greedy_search(model, src, lengths, **greedy_kw)]
        else:
            hyps = beam_search(model, src, lengths, beam_size=beam_size, nbest=nbest, **search)
        for row, i in enumerate(ids):
            out[i] = hyps[row]
    return out  # type: ignore[return-value]


def translate_corpus(
    model: Any,
    src_vocab: Any,
    tgt_vocab: Any,
    sentences: Sequence[str],
    beam_size: int = 5,
    *,
    batch_size: int = 64,
    **search: Any,
) -> list[str]:
    """Translate raw sentences: encode with ``src_vocab`` (+ EOS), search, decode the best
    hypothesis of each with ``tgt_vocab``. Source reversal, if any, is the model's business.

    ``search`` holds :func:`~companion.decode.beam_search` options (``length_penalty``,
    ``max_len_a``, ``max_len_b``, ``finish_rule``, ...).
    """
    if isinstance(sentences, str):
        raise DataError("translate_corpus: sentences must be a list of strings, not one string")
    sources = [list(src_vocab.encode(s)) + [EOS] for s in sentences]
    hyps = decode_corpus(model, sources, beam_size=beam_size, batch_size=batch_size, **search)
    return [tgt_vocab.decode(h[0].tokens) if h else "" for h in hyps]


# ------------------------------------------------------------------ results tables
def _cell(value: Any, digits: int) -> str:
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:.{digits}f}"
    return str(value)


def results_markdown(rows: Sequence[dict[str, Any]], digits: int = 2) -> str:
    """A markdown table of ``rows`` (dicts); columns in first-seen order, floats fixed-format."""
    if not rows:
        raise DataError("results_markdown: no rows")
    columns: list[str] = []
    for row in rows:
        columns += [c for c in row if c not in columns]
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(_cell(row.get(c), digits) for c in columns) + " |")
    return "\n".join(lines) + "\n"


def write_results(rows: Sequence[dict[str, Any]], path: str | Path, digits: int = 2) -> Path:
    """Write ``rows`` to ``path``: ``.md`` as a markdown table, ``.json`` as a JSON list."""
    path = Path(path)
    if path.suffix == ".md":
        text = results_markdown(rows, digits)
    elif path.suffix == ".json":
        if not rows:
            raise DataError("write_results: no rows")
        text = json.dumps(list(rows), indent=2, ensure_ascii=False) + "\n"
    else:
        raise ConfigError(f"write_results: {path}: unknown table format {path.suffix!r} (use .md or .json)")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


__all__ = [
    "MetricScore",
    "corpus_bleu",
    "corpus_chrf",
    "perplexity",
    "bleu_by_length",
    "decode_corpus",
    "translate_corpus",
    "results_markdown",
    "write_results",
]
