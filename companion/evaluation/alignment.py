"""Word alignments from attention, scored against the corpus's gold alignments.

The generated corpus knows the true word alignment of every pair (:mod:`companion.data.kosynth`):
Pharaoh links ``(i, j)``, ``i`` a Korean eojeol (a whitespace token), ``j`` an English
whitespace word, both from 0. A model sees SentencePiece pieces instead, so its attention matrix
``(T_pieces, S_pieces)`` is first brought to words:

1. pieces -> words (:func:`word_index`): a piece that starts with ``"▁"`` opens the next word;
   every other piece (``<unk>`` included) continues the current one. The source's EOS column
   and the target's EOS row (the step that emits EOS) are dropped: they belong to no word.
2. pieces -> word matrix (:func:`aggregate_attention`): ``M[w, e] = mean over the target pieces
   t of English word w of (sum over the source pieces s of eojeol e of alpha[t, s])``. Summing
   over source pieces keeps each row a distribution over eojeols (minus the mass on EOS) however
   finely an eojeol is cut; averaging over target pieces gives a word the weight of a typical
   piece of it, so long words do not count more than short ones.
3. word matrix -> hard links (:func:`hard_links`): the most attended eojeol of each English
   word (``argmax``), and/or every cell of weight ``>= threshold``.

**Alignment error rate** (Och & Ney 2003), :func:`alignment_error_rate`: with predicted links
``A``, sure gold links ``S`` and possible gold links ``P`` (``S ⊆ P``),
``AER = 1 - (|A ∩ S| + |A ∩ P|) / (|A| + |S|)``, each count summed over the corpus before the
division. Our gold has only sure links (``P = S``), so ``AER = 1 - 2 |A ∩ S| / (|A| + |S|)``,
one minus the F1 of precision and recall. 0 is perfect, 1 shares no link with the gold.

Two baselines put a model's AER in context; both link each English word to one eojeol, like
``argmax`` links:

- :func:`diagonal_alignment`: English word ``j`` of ``T`` -> eojeol ``round(j * S / T)`` of
  ``S`` -- what a position-only aligner does;
- :func:`monotone_oracle_alignment`: the monotone (non-crossing) one-eojeol-per-word alignment
  that agrees best with the gold, found by dynamic programming. It is an oracle (it reads the
  gold): no aligner that never reorders can beat it, so an attention AER below it is evidence of
  learned reordering -- Korean is verb-final, English is not.

:func:`evaluate_alignment` runs a model over pairs and returns the AER of its attention and of
both baselines; :func:`teacher_forced_word_attention` returns the per-sentence word matrices
with their row and column labels (what a heatmap needs).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from companion.errors import ConfigError, DataError
from companion.specials import EOS
from companion.validation import check_float, check_int

#: a Pharaoh link (Korean eojeol i, English word j)
Link = tuple[int, int]

WORD_START = "\u2581"  # "▁", SentencePiece's word-boundary mark


# ============================================================================ pieces -> words


def word_index(pieces: Sequence[str]) -> list[int]:
    """The word (from 0) of every piece: a piece starting with ``"▁"`` opens a new word.

    >>> word_index(["▁고양이", "가", "▁", "3", "시", "에"])
    [0, 0, 1, 1, 1, 1]

    A first piece without the mark (possible only for pieces not made by SentencePiece's
    encoder) opens word 0 all the same. Special pieces must already be removed, except
    ``<unk>``, which continues the current word (SentencePiece keeps ``"▁"`` as a piece of its
    own before an unknown character, so word boundaries survive unknown characters).
    """
    out, word = [], -1
    for n, piece in enumerate(pieces):
        if piece.startswith(WORD_START) or n == 0:
            word += 1
        out.append(word)
    return out


def _words_of(ids: Sequence[int], vocab: Any, text: str | None, side: str) -> tuple[list[int], list[str]]:
    """Word index per id (EOS excluded, must already be stripped) and the word labels."""
    pieces = vocab.pieces(ids)
    index = word_index(pieces)
    n = index[-1] + 1 if index else 0
    if text is not None:
        labels = text.split()
        if len(labels) != n:
            raise DataError(f"{side} sentence {text!r}: {len(labels)} whitespace words but "
                            f"{n} words in its pieces {pieces}")
    else:
        labels = [""] * n
        for w, p in zip(index, pieces):
            labels[w] += p
        labels = [w.lstrip(WORD_START) for w in labels]
    return index, labels


# ============================================================================ aggregation


def aggregate_attention(weights: torch.Tensor, tgt_words: Sequence[int], src_words: Sequence[int],
                        n_tgt: int | None = None, n_src: int | None = None) -> torch.Tensor:
    """Piece-level attention ``(T, S)`` -> word-level ``(n_tgt, n_src)`` float64.

    ``M[w, e] = mean_{t: tgt_words[t] = w} sum_{s: src_words[s] = e} weights[t, s]``.

    Args:
        weights: ``(T, S)`` attention of ``T`` target pieces over ``S`` source pieces (EOS row
            and column already removed).
        tgt_words: ``(T,)`` word of each target piece; ``src_words``: ``(S,)`` likewise.
        n_tgt, n_src: number of words (default: the largest index + 1).
    """
    if not isinstance(weights, torch.Tensor) or weights.dim() != 2:
        got = tuple(weights.shape) if isinstance(weights, torch.Tensor) else type(weights).__name__
        raise DataError(f"aggregate_attention: weights must be a (T, S) tensor, got {got}")
    T, S = weights.shape
    if len(tgt_words) != T or len(src_words) != S:
        raise DataError(f"aggregate_attention: weights are {T} x {S} but there are "
                        f"{len(tgt_words)} target and {len(src_words)} source word indices")
    n_tgt = (max(tgt_words) + 1 if T else 0) if n_tgt is None else n_tgt
    n_src = (max(src_words) + 1 if S else 0) if n_src is None else n_src
    w = weights.detach().to("cpu", torch.float64)
    tgt = torch.as_tensor(list(tgt_words), dtype=torch.long)
    src = torch.as_tensor(list(src_words), dtype=torch.long)
    if T and (int(tgt.min()) < 0 or int(tgt.max()) >= n_tgt):
        raise DataError(f"aggregate_attention: target word indices must lie in [0, {n_tgt})")
    if S and (int(src.min()) < 0 or int(src.max()) >= n_src):
        raise DataError(f"aggregate_attention: source word indices must lie in [0, {n_src})")
    by_src = torch.zeros(T, n_src, dtype=torch.float64).index_add_(1, src, w)  # sum over pieces
    summed = torch.zeros(n_tgt, n_src, dtype=torch.float64).index_add_(0, tgt, by_src)
    counts = torch.zeros(n_tgt, dtype=torch.float64).index_add_(0, tgt, torch.ones(T, dtype=torch.float64))
    return summed / counts.clamp(min=1).unsqueeze(1)  # mean over pieces; a word without pieces: 0


@dataclass(frozen=True)
class WordAttention:
    """Attention of one sentence pair at the word level, ready to plot or to align.

    Attributes:
        matrix: ``(n_en, n_ko)`` float64: row ``j`` is English word ``j``, column ``i`` Korean
            eojeol ``i`` (see :func:`aggregate_attention`).
        en_words: the ``n_en`` row labels.
        ko_words: the ``n_ko`` column labels.
    """

    matrix: torch.Tensor
    en_words: list[str]
    ko_words: list[str]

    def links(self, *, argmax: bool = True, threshold: float | None = None) -> list[Link]:
        """Hard links ``(i, j)`` of this matrix; see :func:`hard_links`."""
        return hard_links(self.matrix, argmax=argmax, threshold=threshold)


def word_attention(weights: torch.Tensor, src_ids: Sequence[int], tgt_ids: Sequence[int],
                   src_vocab: Any, tgt_vocab: Any, *, src_text: str | None = None,
                   tgt_text: str | None = None) -> WordAttention:
    """One sentence's piece-level attention -> :class:`WordAttention`.

    Args:
        weights: ``(T, S')`` weights of the decoder steps that emitted ``tgt_ids`` over the
            source positions (``S' >= len(src_ids)``; columns beyond are padding).
        src_ids: the source ids as the model read them, ending with EOS.
        tgt_ids: the emitted (or teacher-forced) target ids, ending with EOS; ``T`` must equal
            ``len(tgt_ids)``.
        src_vocab, tgt_vocab: vocabularies with ``pieces(ids)``.
        src_text, tgt_text: the sentences, to check the word counts and label the words with
            their surface forms (otherwise labels are rebuilt from the pieces).
    """
    src_ids, tgt_ids = [int(i) for i in src_ids], [int(i) for i in tgt_ids]
    for side, ids in (("source", src_ids), ("target", tgt_ids)):
        if not ids or ids[-1] != EOS:
            raise DataError(f"word_attention: the {side} ids must end with EOS, got {ids}")
    if weights.dim() != 2 or weights.shape[0] != len(tgt_ids) or weights.shape[1] < len(src_ids):
        raise DataError(f"word_attention: weights of shape {tuple(weights.shape)} do not cover "
                        f"{len(tgt_ids)} target steps x {len(src_ids)} source tokens")
    src_words, ko = _words_of(src_ids[:-1], src_vocab, src_text, "source")
    tgt_words, en = _words_of(tgt_ids[:-1], tgt_vocab, tgt_text, "target")
    matrix = aggregate_attention(weights[: len(tgt_ids) - 1, : len(src_ids) - 1], tgt_words,
                                 src_words, len(en), len(ko))
    return WordAttention(matrix, en, ko)


# ============================================================================ hard links


def hard_links(matrix: torch.Tensor, *, argmax: bool = True, threshold: float | None = None) -> list[Link]:
    """Links ``(i, j)`` (eojeol, English word) read off a word matrix ``(n_en, n_ko)``.

    ``argmax=True`` links each English word to its most attended eojeol (ties: the first);
    ``threshold`` adds every cell with weight ``>= threshold``. Links come sorted by ``(i, j)``.
    """
    if not argmax and threshold is None:
        raise ConfigError("hard_links: ask for argmax links, a threshold, or both")
    if threshold is not None:
        threshold = check_float("threshold", threshold, 0.0, 1.0, low_open=True, where="hard_links")
    links: set[Link] = set()
    if matrix.numel():
        if argmax:
            links.update((int(i), j) for j, i in enumerate(matrix.argmax(dim=1).tolist()))
        if threshold is not None:
            links.update((int(i), int(j)) for j, i in (matrix >= threshold).nonzero().tolist())
    return sorted(links)


# ============================================================================ AER


@dataclass(frozen=True)
class AERScore:
    """Corpus alignment scores (counts summed over sentences).

    Attributes:
        aer: ``1 - (|A∩S| + |A∩P|) / (|A| + |S|)``.
        precision: ``|A∩P| / |A|``; recall: ``|A∩S| / |S|`` (0 where undefined).
        predicted, sure, sure_hits, possible_hits: ``|A|``, ``|S|``, ``|A∩S|``, ``|A∩P|``.
        sentences: number of sentence pairs.
    """

    aer: float
    precision: float
    recall: float
    predicted: int
    sure: int
    sure_hits: int
    possible_hits: int
    sentences: int


def _link_set(links: Iterable, where: str) -> set[Link]:
    out = set()
    for link in links:
        try:
            i, j = link
            out.add((int(i), int(j)))
        except (TypeError, ValueError):
            raise DataError(f"{where}: a link must be a pair (i, j) of integers, got {link!r}") from None
    return out


def alignment_error_rate(predicted: Sequence[Iterable[Link]], sure: Sequence[Iterable[Link]],
                         possible: Sequence[Iterable[Link]] | None = None) -> AERScore:
    """Corpus AER of ``predicted`` link sets against the gold (one link list per sentence).

    ``possible`` (default: none beyond the sure links) holds extra possible links; ``P`` is
    taken as ``S ∪ possible``, so ``S ⊆ P`` always holds.
    """
    if len(predicted) != len(sure):
        raise DataError(f"alignment_error_rate: {len(predicted)} predicted alignments for "
                        f"{len(sure)} gold alignments")
    if possible is not None and len(possible) != len(sure):
        raise DataError(f"alignment_error_rate: {len(possible)} possible-link lists for "
                        f"{len(sure)} sentences")
    n_a = n_s = hit_s = hit_p = 0
    for k, (a_links, s_links) in enumerate(zip(predicted, sure)):
        a = _link_set(a_links, f"alignment_error_rate: predicted alignment {k}")
        s = _link_set(s_links, f"alignment_error_rate: gold alignment {k}")
        p = s | (_link_set(possible[k], f"alignment_error_rate: possible links {k}") if possible else set())
        n_a, n_s = n_a + len(a), n_s + len(s)
        hit_s, hit_p = hit_s + len(a & s), hit_p + len(a & p)
    if n_a + n_s == 0:
        raise DataError("alignment_error_rate: neither predicted nor gold links: AER is undefined")
    return AERScore(aer=1.0 - (hit_s + hit_p) / (n_a + n_s),
                    precision=hit_p / n_a if n_a else 0.0, recall=hit_s / n_s if n_s else 0.0,
                    predicted=n_a, sure=n_s, sure_hits=hit_s, possible_hits=hit_p,
                    sentences=len(sure))


# ============================================================================ baselines


def _check_lengths(n_ko: Any, n_en: Any, where: str) -> None:
    check_int("n_ko", n_ko, 1, where=where)
    check_int("n_en", n_en, 1, where=where)


def diagonal_alignment(n_ko: int, n_en: int) -> list[Link]:
    """English word ``j`` -> eojeol ``round(j * n_ko / n_en)`` (halves round up, at most
    ``n_ko - 1``): one link per English word, in order."""
    _check_lengths(n_ko, n_en, "diagonal_alignment")
    return [(min(n_ko - 1, (2 * j * n_ko + n_en) // (2 * n_en)), j) for j in range(n_en)]


def monotone_oracle_alignment(gold: Iterable[Link], n_ko: int, n_en: int) -> list[Link]:
    """The best monotone alignment: eojeols ``a_0 <= a_1 <= ... <= a_{n_en-1}``, one per English
    word, maximising the number of links ``(a_j, j)`` in ``gold`` (an oracle: it reads the gold).

    Dynamic programming over (word, eojeol): ``best[j][i] = hit(i, j) + max_{i' <= i}
    best[j-1][i']``, ``O(n_en * n_ko)``. Ties go to the smallest eojeol, from the last word back.
    Since every such alignment has ``n_en`` links, the most hits is also the lowest AER among
    them: no aligner that links each English word to one eojeol without reordering does better.
    """
    _check_lengths(n_ko, n_en, "monotone_oracle_alignment")
    g = _link_set(gold, "monotone_oracle_alignment: gold")
    for i, j in g:
        if not (0 <= i < n_ko and 0 <= j < n_en):
            raise DataError(f"monotone_oracle_alignment: gold link {i}-{j} is outside a "
                            f"{n_ko} x {n_en} sentence pair")
    # best[j][i]: most hits of words 0..j with a_j = i; prefix[j][i] = max over i' <= i
    prefix: list[list[int]] = []
    for j in range(n_en):
        row, run = [], -1
        for i in range(n_ko):
            value = int((i, j) in g) + (prefix[j - 1][i] if j else 0)
            run = max(run, value)
            row.append(run)
        prefix.append(row)
    # back-track: a_j is the smallest i <= a_{j+1} reaching prefix[j][a_{j+1}]
    out: list[Link] = []
    bound = n_ko - 1
    for j in range(n_en - 1, -1, -1):
        target = prefix[j][bound]
        i = next(k for k in range(bound + 1) if prefix[j][k] == target)
        out.append((i, j))
        bound = i
    return sorted(out, key=lambda link: link[1])


# ============================================================================ running a model


def _pair_fields(pair: Any, k: int) -> tuple[str, str, list[Link]]:
    if hasattr(pair, "ko") and hasattr(pair, "en") and hasattr(pair, "align"):
        return pair.ko, pair.en, list(pair.align)
    try:
        ko, en, align = pair
    except (TypeError, ValueError):
        raise DataError(f"pair {k}: expected a kosynth Pair or (ko, en, links), got "
                        f"{type(pair).__name__}") from None
    return ko, en, list(align)


def _teacher_forced_weights(model: Any, batch: Any) -> torch.Tensor:
    """``(B, T, S)`` attention of every teacher-forced step."""
    if callable(getattr(model, "attention_weights", None)):
        return model.attention_weights(batch)
    state = model.encode(batch.src, batch.src_lengths)
    rows = []
    for t in range(batch.tgt_in.shape[1]):
        _, state = model.step(batch.tgt_in[:, t], state, need_attention=True)
        rows.append(model.step_attention(state))
    return torch.stack(rows, 1)


def teacher_forced_word_attention(model: Any, pairs: Sequence[Any], src_vocab: Any, tgt_vocab: Any,
                                  *, batch_size: int = 64) -> list[WordAttention]:
    """The model's attention on the *reference* translations, at the word level.

    Each pair (a kosynth :class:`~companion.data.kosynth.Pair` or ``(ko, en, links)``) is
    encoded with the vocabularies, the reference is teacher-forced through the model (in eval
    mode, without gradients) and the weights of every step are aggregated with
    :func:`word_attention`. The model needs ``attention_weights(batch)`` or ``step_attention``.

    Returns one :class:`WordAttention` per pair, in order.
    """
    from companion.data.batching import collate, source_ids
    from companion.decoding.search import evaluating

    if not (callable(getattr(model, "attention_weights", None))
            or callable(getattr(model, "step_attention", None))):
        raise ConfigError(f"teacher_forced_word_attention: {type(model).__name__} has no attention "
                          f"(neither attention_weights nor step_attention)")
    check_int("batch_size", batch_size, 1, where="teacher_forced_word_attention")
    fields = [_pair_fields(p, k) for k, p in enumerate(pairs)]
    examples = [(source_ids(src_vocab, ko), tgt_vocab.encode(en)) for ko, en, _ in fields]
    device = next(model.parameters()).device if isinstance(model, torch.nn.Module) else None
    out: list[WordAttention] = []
    with evaluating(model):
        for start in range(0, len(examples), batch_size):
            chunk = examples[start : start + batch_size]
            batch = collate(chunk)
            if device is not None:
                batch = batch.to(device)
            weights = _teacher_forced_weights(model, batch).cpu()
            for b, (src, tgt) in enumerate(chunk):
                ko, en, _ = fields[start + b]
                out.append(word_attention(weights[b, : len(tgt) + 1], src, tgt + [EOS], src_vocab,
                                          tgt_vocab, src_text=ko, tgt_text=en))
    return out


def evaluate_alignment(model: Any, pairs: Sequence[Any], src_vocab: Any, tgt_vocab: Any, *,
                       argmax: bool = True, threshold: float | None = None,
                       batch_size: int = 64) -> dict[str, AERScore]:
    """AER of the model's teacher-forced attention and of the two baselines on ``pairs``.

    Returns ``{"attention": ..., "diagonal": ..., "monotone_oracle": ...}`` (:class:`AERScore`
    each); the attention's links come from :func:`hard_links` with ``argmax``/``threshold``.
    """
    maps = teacher_forced_word_attention(model, pairs, src_vocab, tgt_vocab, batch_size=batch_size)
    gold = [_pair_fields(p, k)[2] for k, p in enumerate(pairs)]
    shapes = [(len(m.ko_words), len(m.en_words)) for m in maps]
    return {
        "attention": alignment_error_rate([m.links(argmax=argmax, threshold=threshold) for m in maps], gold),
        "diagonal": alignment_error_rate([diagonal_alignment(s, t) for s, t in shapes], gold),
        "monotone_oracle": alignment_error_rate(
            [monotone_oracle_alignment(g, s, t) for g, (s, t) in zip(gold, shapes)], gold),
    }


__all__ = ["AERScore", "Link", "WordAttention", "aggregate_attention", "alignment_error_rate",
           "diagonal_alignment", "evaluate_alignment", "hard_links", "monotone_oracle_alignment",
           "teacher_forced_word_attention", "word_attention", "word_index"]
