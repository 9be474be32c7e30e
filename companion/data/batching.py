"""Batches: length bucketing under a token budget, padding, masks, shifted decoder input.

The path from sentence pairs to what a model sees::

    pairs --encode_pairs--> examples (source_ids: src ids + [EOS], tgt ids)
          --BucketBatchSampler--> lists of example indices (similar lengths, <= max_tokens)
          --collate--> Batch(src, src_lengths, tgt_in, tgt_out)

``make_loader`` wires the last two steps into a ``torch.utils.data.DataLoader`` (the sampler
runs in the main process, ``collate`` in the workers, so ``num_workers > 0`` works and an epoch's
order depends only on ``seed`` and ``epoch``, never on a global random generator). The batch type
lives in :mod:`companion.data.batch`, the samplers in :mod:`companion.data.samplers` (both
importable from here too).

Teacher forcing: ``full = [BOS] + target + [EOS]`` right-padded with PAD;
``tgt_in = full[:, :-1]`` and ``tgt_out = full[:, 1:]``. For targets ``[4, 5, 6]`` and ``[7]``::

    tgt_in  = [[1, 4, 5, 6], [1, 7, 2, 0]]
    tgt_out = [[4, 5, 6, 2], [7, 2, 0, 0]]

Character language models have no source: ``lm_batches`` cuts a long id tensor into
``Batch(src=None, tgt_in=chunk[:, :-1], tgt_out=chunk[:, 1:])``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from functools import partial

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

from companion.data.batch import Batch, causal_mask
from companion.data.packing import PackedBatchSampler, collate_packed
from companion.data.samplers import BucketBatchSampler, MixedBatchSampler
from companion.errors import DataError
from companion.specials import BOS, EOS, PAD

__all__ = [
    "Batch",
    "causal_mask",
    "reverse_source_tokens",
    "reverse_padded",
    "source_ids",
    "encode_pairs",
    "example_lengths",
    "collate",
    "BATCHINGS",
    "BucketBatchSampler",
    "MixedBatchSampler",
    "PairDataset",
    "make_loader",
    "dataset_loader",
    "describe_batches",
    "lm_batches",
]

log = logging.getLogger(__name__)

Example = tuple[list[int], list[int]]


# -- source reversal (Sutskever et al. 2014) -------------------------------------------------------


def reverse_source_tokens(src: Sequence[int]) -> list[int]:
    """Reverse the sentence tokens, keeping a final EOS in place: ``[a, b, c, EOS] -> [c, b, a, EOS]``.

    A list without a final EOS is reversed entirely. Applying it twice gives the input back.
    """
    src = list(src)
    if src and src[-1] == EOS:
        return src[-2::-1] + [EOS]
    return src[::-1]


def reverse_padded(src: torch.Tensor, src_lengths: torch.Tensor) -> torch.Tensor:
    """Reverse each row's real tokens before its final EOS; PAD and EOS stay in place.

    Args:
        src: ``(B, S)`` ids, row ``b`` holding ``src_lengths[b]`` real tokens, the last being EOS.
        src_lengths: ``(B,)``.
    Returns:
        ``(B, S)`` with ``out[b, :L-1] = src[b, :L-1].flip()`` for ``L = src_lengths[b]``.
    """
    B, S = src.shape
    lengths = src_lengths.to(src.device).long().unsqueeze(1)  # (B, 1)
    pos = torch.arange(S, device=src.device).unsqueeze(0)  # (1, S)
    n_words = lengths - 1  # tokens before EOS
    rev = n_words - 1 - pos  # mirrored position for pos < n_words
    index = torch.where(pos < n_words, rev, pos)
    return src.gather(1, index)


# -- encoding --------------------------------------------------------------------------------------


def source_ids(vocab, text: str) -> list[int]:
    """What every encoder reads for a source sentence: ``vocab.encode(text) + [EOS]``. The one
    place where the source's EOS is appended (training, translation and evaluation all use it)."""
    return [*vocab.encode(text), EOS]


def encode_pairs(
    pairs: Iterable[tuple[str, str]],
    src_vocab,
    tgt_vocab,
    max_len: int | None = None,
    *,
    truncate: bool = False,
    return_dropped: bool = False,
):
    """Encode sentence pairs to id lists.

    Args:
        pairs: ``(source, target)`` strings.
        src_vocab, tgt_vocab: vocabularies with ``encode(text) -> list[int]``.
        max_len: longest sentence kept, counted in pieces without specials (None: no limit).
        truncate: if True, cut longer sentences to ``max_len`` pieces instead of dropping them.
        return_dropped: if True, return ``(examples, n_dropped)``.

    Returns:
        ``examples``: list of ``(src_ids + [EOS], tgt_ids)``, the target without BOS/EOS
        (``collate`` adds them), in the order of ``pairs`` minus the dropped ones.
    """
    if max_len is not None and max_len < 1:
        raise DataError(f"max_len must be a positive integer or None, got {max_len!r}")
    out: list[Example] = []
    dropped = 0
    for src, tgt in pairs:
        s = source_ids(src_vocab, src)
        t = tgt_vocab.encode(tgt)
        if max_len is not None and (len(s) - 1 > max_len or len(t) > max_len):
            if not truncate:
                dropped += 1
                continue
            del s[max_len:-1]  # keep the first max_len pieces and the EOS
            t = t[:max_len]
        out.append((s, t))
    if dropped:
        log.info("encode_pairs: dropped %d of %d pairs longer than %d pieces", dropped, dropped + len(out), max_len)
    return (out, dropped) if return_dropped else out


def example_lengths(examples: Sequence[Example]) -> list[int]:
    """Padded cost of each example: ``max(len(src), len(tgt) + 1)`` (tgt_in/tgt_out length)."""
    return [max(len(s), len(t) + 1) for s, t, *_ in examples]


def _pad(rows: Sequence[Sequence[int]], width: int) -> torch.Tensor:
    out = torch.full((len(rows), width), PAD, dtype=torch.long)
    for i, r in enumerate(rows):
        if r:
            out[i, : len(r)] = torch.as_tensor(r, dtype=torch.long)
    return out


def collate(examples: Sequence, reverse_source: bool = False) -> Batch:
    """Pad a list of examples into a :class:`Batch`.

    Args:
        examples: ``(src_ids_with_EOS, tgt_ids)`` or ``(src_ids_with_EOS, tgt_ids, index)``.
        reverse_source: reverse each source sentence before its EOS (Sutskever et al. 2014).

    Returns:
        Batch with ``src (B, S)``, ``src_lengths (B,)``, ``tgt_in``/``tgt_out (B, T)`` where
        ``S = max len(src)`` and ``T = max len(tgt) + 1``.
    """
    if len(examples) == 0:
        raise DataError("cannot collate an empty list of examples")
    srcs = [list(e[0]) for e in examples]
    if reverse_source:
        srcs = [reverse_source_tokens(s) for s in srcs]
    fulls = [[BOS, *e[1], EOS] for e in examples]
    src_lengths = torch.tensor([len(s) for s in srcs], dtype=torch.long)
    src = _pad(srcs, max(len(s) for s in srcs))
    full = _pad(fulls, max(len(f) for f in fulls))
    indices = None
    if all(len(e) > 2 for e in examples):
        indices = torch.tensor([int(e[2]) for e in examples], dtype=torch.long)
    return Batch(src=src, src_lengths=src_lengths, tgt_in=full[:, :-1], tgt_out=full[:, 1:], indices=indices)


#: ``batching`` of :func:`make_loader`: length buckets, batches of random composition, or
#: random composition packed into rows (:mod:`companion.data.packing`, Transformer only)
BATCHINGS = ("bucketed", "mixed", "packed")


def describe_batches(loader: Iterable, limit: int | None = None) -> dict[str, float]:
    """What the first ``limit`` batches of ``loader`` (all if None) hold, on average per batch:
    ``sentences`` (pairs), ``target_tokens`` (labels that count in the loss), ``target_cells``
    (``tgt_out`` entries, padding included), ``real_share`` (tokens / cells over all batches) and
    ``length_spread`` (longest minus shortest target of a batch, in tokens, EOS included)."""
    n = sentences = tokens = cells = spread = 0
    for batch in loader:
        if limit is not None and n >= limit:
            break
        lengths = _target_lengths(batch)
        n += 1
        sentences += len(lengths)
        tokens += int(batch.ntokens)
        cells += batch.tgt_out.numel()
        spread += max(lengths) - min(lengths)
    if not n:
        raise DataError("describe_batches: the loader yielded no batch")
    return {"batches": n, "sentences": sentences / n, "target_tokens": tokens / n, "target_cells": cells / n,
            "real_share": tokens / cells, "length_spread": spread / n}


def _target_lengths(batch: Batch) -> list[int]:
    """Each pair's target length (labels, EOS included) in ``batch``, packed rows too."""
    if batch.tgt_segments is None:
        return (batch.tgt_out != PAD).sum(1).tolist()
    counts = torch.stack([(batch.tgt_segments == k).sum(1) for k in range(1, int(batch.tgt_segments.max()) + 1)], 1)
    return counts[counts > 0].tolist()


class PairDataset(Dataset):
    """Map-style dataset over encoded examples; item ``i`` is ``(src_ids, tgt_ids, i)``."""

    def __init__(self, examples: Sequence[Example]):
        self.examples = list(examples)

    def __len__(self) -> int:
        return len(self.examples)

    def __getitem__(self, i: int):
        s, t = self.examples[i][0], self.examples[i][1]
        return s, t, i


def make_loader(examples: Sequence[Example], max_tokens: int, **options) -> DataLoader:
    """A DataLoader of :class:`Batch` built from ``encode_pairs`` examples: :func:`dataset_loader`
    over them, with the same keyword ``options`` (``shuffle`` required; ``seed``, ``batching``,
    ``reverse_source``, ``num_workers``, ``num_replicas``, ``rank``, ``drop_last``,
    ``pin_memory``).

    Call ``loader.batch_sampler.set_epoch(epoch)`` before each epoch. The batches' ``indices``
    give each row's position in ``examples``.
    """
    if len(examples) == 0:
        raise DataError("make_loader: no examples (is the split empty?)")
    return dataset_loader(PairDataset(examples), example_lengths(examples), max_tokens, **options)


#: the sampler of each ``batching`` (``packed`` rows are made by
#: :func:`~companion.data.packing.collate_packed`)
_SAMPLERS = {"bucketed": BucketBatchSampler, "mixed": MixedBatchSampler, "packed": PackedBatchSampler}


def dataset_loader(
    dataset: Dataset,
    lengths: Sequence[int] | np.ndarray,
    max_tokens: int,
    *,
    shuffle: bool,
    seed: int = 0,
    reverse_source: bool = False,
    num_workers: int = 0,
    num_replicas: int = 1,
    rank: int = 0,
    drop_last: bool = False,
    pin_memory: bool = False,
    batching: str = "bucketed",
) -> DataLoader:
    """A DataLoader of :class:`Batch` over any dataset whose item ``i`` is
    ``(src_ids_with_EOS, tgt_ids, i)``, batched by ``lengths`` (``(N,)``, the padded cost of
    each item, see :func:`example_lengths`) as ``batching`` says (:data:`BATCHINGS`):
    :func:`make_loader` for in-memory examples, a
    memory-mapped corpus (:mod:`companion.data.binarized`) for large ones -- the same batches
    for the same examples.

    Args:
        shuffle, seed: the sampler's random order, set by ``(seed, epoch)`` only.
        reverse_source: reverse each source before its EOS (not with ``packed``).
        num_workers, pin_memory: as :class:`torch.utils.data.DataLoader`'s.
        num_replicas, rank, drop_last: data-parallel shares (see :class:`BucketBatchSampler`).
        batching: ``"bucketed"`` (:class:`BucketBatchSampler`), ``"mixed"``
            (:class:`MixedBatchSampler`) or ``"packed"`` (:mod:`companion.data.packing`).
    """
    if len(dataset) == 0:
        raise DataError("make_loader: no examples (is the split empty?)")
    if batching not in BATCHINGS:
        raise DataError(f"batching must be one of {', '.join(BATCHINGS)}, got {batching!r}")
    collate_fn = partial(collate, reverse_source=reverse_source)
    if batching == "packed":
        if reverse_source:
            raise DataError("batching 'packed' cannot reverse the source (a packed row holds several sources)")
        collate_fn = collate_packed
    sampler = _SAMPLERS[batching](
        lengths,
        max_tokens,
        shuffle=shuffle,
        seed=seed,
        num_replicas=num_replicas,
        rank=rank,
        drop_last=drop_last,
    )
    return DataLoader(
        dataset,
        batch_sampler=sampler,
        collate_fn=collate_fn,
        num_workers=num_workers,
        pin_memory=pin_memory,
    )


# -- language-model batches ------------------------------------------------------------------------


def lm_batches(
    ids: torch.Tensor,
    batch_size: int,
    seq_len: int,
    *,
    shuffle: bool,
    seed: int = 0,
    epoch: int = 0,
    drop_last: bool = False,
) -> list[Batch]:
    """Cut a token stream into language-model batches ``Batch(src=None, tgt_in, tgt_out)``.

    Args:
        ids: ``(N,)`` LongTensor, e.g. ``CharVocab.encode(text)``.
        batch_size: rows ``B`` per batch.
        seq_len: time steps ``T`` per row.
        shuffle: False gives ``B`` contiguous streams: row ``b`` of batch ``k+1`` continues row
            ``b`` of batch ``k``, so a recurrent state may be carried across batches (truncated
            BPTT). True gives non-overlapping chunks of ``T + 1`` tokens in an order set by
            ``(seed, epoch)``.
        drop_last: drop a final batch with fewer rows (shuffle) or steps (streams).

    Returns:
        list of Batch with ``tgt_in``/``tgt_out`` ``(B, T)`` and ``tgt_out[:, t] = next token``.
    """
    ids = torch.as_tensor(ids, dtype=torch.long).reshape(-1)
    N = ids.numel()
    if batch_size < 1 or seq_len < 1:
        raise DataError(f"batch_size and seq_len must be positive, got {batch_size} and {seq_len}")
    batches: list[Batch] = []
    if shuffle:
        n_chunks = (N - 1) // seq_len
        if n_chunks < 1:
            raise DataError(f"a stream of {N} tokens is too short for seq_len={seq_len}")
        starts = torch.arange(n_chunks) * seq_len
        chunks = ids[starts.unsqueeze(1) + torch.arange(seq_len + 1).unsqueeze(0)]  # (n, T+1)
        perm = torch.from_numpy(np.random.default_rng([int(seed), int(epoch)]).permutation(n_chunks))
        chunks = chunks[perm]
        for k in range(0, n_chunks, batch_size):
            c = chunks[k : k + batch_size]
            if drop_last and c.size(0) < batch_size:
                break
            batches.append(Batch(None, None, c[:, :-1].contiguous(), c[:, 1:].contiguous()))
    else:
        L = (N - 1) // batch_size
        if L < 1:
            raise DataError(f"a stream of {N} tokens is too short for batch_size={batch_size}")
        x = ids[: batch_size * L].view(batch_size, L)
        y = ids[1 : batch_size * L + 1].view(batch_size, L)
        for k in range(0, L, seq_len):
            if drop_last and k + seq_len > L:
                break
            batches.append(
                Batch(None, None, x[:, k : k + seq_len].contiguous(), y[:, k : k + seq_len].contiguous())
            )
    return batches
