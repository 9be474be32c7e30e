"""Translating a whole corpus: length-sorted batches through greedy or beam search, input order
kept, ids turned back into text by the vocabularies; with :func:`translate_sentences`, under
decode-time settings (:mod:`companion.decoding.settings`) that bound each sentence's work and
count what they cut."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import torch

from companion.data.batching import source_ids
from companion.decoding.search import Hypothesis, beam_search, greedy_search
from companion.decoding.settings import DecodeSettings, DecodeTally
from companion.errors import ConfigError, DataError
from companion.specials import EOS, PAD


def _device_of(model: Any) -> torch.device:
    members = getattr(model, "models", None)
    first = members[0] if isinstance(members, (list, tuple)) and members else model
    try:
        return next(first.parameters()).device
    except (AttributeError, StopIteration):
        return torch.device("cpu")


def check_translator(model: Any, where: str) -> None:
    """Refuse (one-line :class:`ConfigError`) a model that cannot translate: a language model
    (no source to ``encode``) or anything else without the decoding interface."""
    missing = [m for m in ("encode", "step", "reorder_state") if not callable(getattr(model, m, None))]
    if not missing:
        return
    name = type(model).__name__
    if callable(getattr(model, "initial_state", None)):
        raise ConfigError(f"{where}: {name} is a language model, not a translator (it has no source to encode)")
    raise ConfigError(f"{where}: {name} is not a translator (it lacks {', '.join(missing)})")


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

    Options go to :func:`~companion.decoding.search.beam_search`. Where beam search of width 1
    is exactly greedy search -- one hypothesis returned, no length penalty, the ``"top_k"``
    finish rule -- :func:`~companion.decoding.search.greedy_search` runs instead (the same
    output, faster); ``finish_rule="every"`` with ``beam_size=1`` keeps every EOS extension, so
    it stays a beam search.
    """
    if not isinstance(batch_size, int) or batch_size < 1:
        raise ConfigError(f"decode_corpus: batch_size must be a positive integer, got {batch_size!r}")
    check_translator(model, "decode_corpus")
    for i, s in enumerate(sources):
        if len(s) == 0 or s[-1] != EOS:
            raise DataError(f"decode_corpus: source {i} must end with EOS (id {EOS}), got {list(s)[-5:]}")
    device = _device_of(model)
    order = sorted(range(len(sources)), key=lambda i: (len(sources[i]), i))
    out: list[list[Hypothesis] | None] = [None] * len(sources)
    use_greedy = (beam_size == 1 and nbest == 1 and not search.get("length_penalty", 0.0)
                  and search.get("finish_rule", "top_k") == "top_k")
    for start in range(0, len(order), batch_size):
        ids = order[start : start + batch_size]
        width = max(len(sources[i]) for i in ids)
        src = torch.full((len(ids), width), PAD, dtype=torch.long)
        for row, i in enumerate(ids):
            src[row, : len(sources[i])] = torch.as_tensor(list(sources[i]), dtype=torch.long)
        lengths = torch.tensor([len(sources[i]) for i in ids])
        src, lengths = src.to(device), lengths.to(device)
        if use_greedy:
            greedy_kw = {k: v for k, v in search.items() if k in ("max_len_a", "max_len_b", "max_len", "at_limit")}
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
    """Translate raw sentences: encode with ``src_vocab`` (:func:`~companion.data.batching.source_ids`,
    which appends EOS), search, decode the best
    hypothesis of each with ``tgt_vocab``. Source reversal, if any, is the model's business.

    ``search`` holds :func:`~companion.decoding.search.beam_search` options (``length_penalty``,
    ``max_len_a``, ``max_len_b``, ``finish_rule``, ...).
    """
    sentences = check_sentences(sentences, "translate_corpus")
    sources = [source_ids(src_vocab, s) for s in sentences]
    hyps = decode_corpus(model, sources, beam_size=beam_size, batch_size=batch_size, **search)
    return [tgt_vocab.decode(h[0].tokens) if h else "" for h in hyps]


def check_sentences(sentences: Any, where: str) -> list[str]:
    """``sentences`` as a list, refused in one line (a :class:`DataError` naming the index and
    the type) if it is one string or holds anything but strings."""
    if isinstance(sentences, str):
        raise DataError(f"{where}: sentences must be a list of strings, not one string")
    try:
        out = list(sentences)
    except TypeError:
        raise DataError(f"{where}: sentences must be a list of strings, got {type(sentences).__name__}") from None
    for i, s in enumerate(out):
        if not isinstance(s, str):
            shown = repr(s) if len(repr(s)) <= 40 else repr(s)[:37] + "..."
            raise DataError(f"{where}: sentences[{i}] is {shown} ({type(s).__name__}), not a string")
    return out


def translate_sentences(
    model: Any,
    src_vocab: Any,
    tgt_vocab: Any,
    sentences: Sequence[str],
    settings: DecodeSettings,
    *,
    batch_size: int = 64,
    tally: DecodeTally | None = None,
    label: Callable[[int], str] = lambda i: f"sentences[{i}]",
) -> list[list[tuple[str, Hypothesis]]]:
    """Translate raw sentences under ``settings``: per sentence, its ``settings.nbest`` best
    ``(text, hypothesis)`` pairs, best first; an empty list for a source skipped at the source
    limit (:meth:`DecodeSettings.fit_source`; a refused one raises a :class:`DataError` naming
    ``label(i)`` before anything is decoded). ``tally`` (if given) counts the sentences, the
    skipped and truncated sources, the best hypotheses cut at the output limit and the empty
    best outputs of non-empty sources."""
    full = [source_ids(src_vocab, s) for s in sentences]
    sources = [settings.fit_source(ids, label(i)) for i, ids in enumerate(full)]
    kept = [i for i, ids in enumerate(sources) if ids is not None]
    hyps = decode_corpus(model, [sources[i] for i in kept], beam_size=settings.beam, nbest=settings.nbest,
                         batch_size=batch_size, **settings.search_options())
    out: list[list[tuple[str, Hypothesis]]] = [[] for _ in sentences]
    for i, hs in zip(kept, hyps):
        out[i] = [(tgt_vocab.decode(h.tokens), h) for h in hs]
    if tally is not None:
        tally.sentences += len(sentences)
        tally.skipped += len(sentences) - len(kept)
        tally.shortened += sum(1 for i in kept if len(full[i]) > len(sources[i]))
        tally.cut += sum(1 for i in kept if out[i] and out[i][0][1].truncated)
        tally.empty += sum(1 for i in kept if out[i] and not out[i][0][0] and sentences[i].strip())
    return out


__all__ = ["check_sentences", "check_translator", "decode_corpus", "translate_corpus", "translate_sentences"]
