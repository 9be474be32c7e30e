"""Batches: length bucketing under a token budget, padding, masks, shifted decoder input.

The path from sentence pairs to what a model sees::

    pairs --encode_pairs--> examples (source_ids: src ids + [EOS], tgt ids)
          --BucketBatchSampler--> lists of example indices (similar lengths, <= max_tokens)
          --collate--> Batch(src, src_lengths, tgt_in, tgt_out)

``make_loader`` wires the last two steps into a ``torch.utils.data.DataLoader`` (the sampler
runs in the main process, ``collate`` in the workers, so ``num_workers > 0`` works and an epoch's
order depends only on ``seed`` and ``epoch``, never on a global random generator).

Teacher forcing (seed 004): ``full = [BOS] + target + [EOS]`` right-padded with PAD;
``tgt_in = full[:, :-1]`` and ``tgt_out = full[:, 1:]``. For targets ``[4, 5, 6]`` and ``[7]``::

    tgt_in  = [[1, 4, 5, 6], [1, 7, 2, 0]]
    tgt_out = [[4, 5, 6, 2], [7, 2, 0, 0]]

Character language models have no source: ``lm_batches`` cuts a long id tensor into
``Batch(src=None, tgt_in=chunk[:, :-1], tgt_out=chunk[:, 1:])``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, fields
from functools import partial

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, Sampler

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


def causal_mask(T: int, device: torch.device | str | None = None) -> torch.Tensor:
    """``(T, T)`` bool, True where position ``i`` may attend to position ``j`` (``j <= i``)."""
    return torch.ones(T, T, dtype=torch.bool, device=device).tril_()


@dataclass
class Batch:
    """One batch, batch-first.

    Attributes:
        src: ``(B, S)`` source ids = sentence ids + ``[EOS]``, right-padded with PAD;
            ``None`` for language models.
        src_lengths: ``(B,)`` real source tokens per row (EOS included); ``None`` for LMs.
        tgt_in: ``(B, T)`` decoder input ``full[:, :-1]`` (starts with BOS for translation).
        tgt_out: ``(B, T)`` labels ``full[:, 1:]`` (ends with EOS, then PAD).
        indices: ``(B,)`` positions of the rows' examples in the dataset (so that outputs can
            be put back in corpus order), or ``None``.
        src_segments, tgt_segments: ``(B, S)`` / ``(B, T)`` for packed rows
            (:mod:`companion.data.packing`): which pair of the row each token belongs to (1, 2,
            ...; 0 at PAD); ``None`` when every row is one pair.
    """

    src: torch.Tensor | None
    src_lengths: torch.Tensor | None
    tgt_in: torch.Tensor
    tgt_out: torch.Tensor
    indices: torch.Tensor | None = None
    src_segments: torch.Tensor | None = None
    tgt_segments: torch.Tensor | None = None

    @property
    def packed(self) -> bool:
        """True when rows hold several pairs (segments given)."""
        return self.tgt_segments is not None

    @property
    def sentences(self) -> int:
        """Number of sentence pairs (rows, or segments of packed rows)."""
        if self.tgt_segments is None:
            return self.size
        return int(self.tgt_segments.max(dim=1).values.sum())

    @property
    def size(self) -> int:
        """Number of rows ``B``."""
        return self.tgt_in.size(0)

    def __len__(self) -> int:
        return self.size

    @property
    def src_mask(self) -> torch.Tensor | None:
        """``(B, S)`` bool, True at real source tokens (EOS included), False at PAD."""
        if self.src is None:
            return None
        S = self.src.size(1)
        positions = torch.arange(S, device=self.src.device)
        return positions.unsqueeze(0) < self.src_lengths.to(self.src.device).unsqueeze(1)

    @property
    def tgt_pad_mask(self) -> torch.Tensor:
        """``(B, T)`` bool, True at real tokens of ``tgt_in`` (BOS and EOS included)."""
        return self.tgt_in != PAD

    def causal_mask(self, T: int | None = None) -> torch.Tensor:
        """``(T, T)`` bool, True where attending is allowed; ``T`` defaults to ``tgt_in``'s."""
        return causal_mask(self.tgt_in.size(1) if T is None else T, device=self.tgt_in.device)

    @property
    def tgt_attn_mask(self) -> torch.Tensor:
        """``(B, T, T)`` bool: causal mask AND key padding mask of ``tgt_in``."""
        return self.causal_mask().unsqueeze(0) & self.tgt_pad_mask.unsqueeze(1)

    @property
    def ntokens(self) -> int:
        """Number of labels that count in the loss: ``tgt_out != PAD``."""
        return int((self.tgt_out != PAD).sum())

    def to(self, device: torch.device | str, non_blocking: bool = False) -> "Batch":
        """A copy with every tensor moved to ``device``."""
        return Batch(
            **{
                f.name: (None if v is None else v.to(device, non_blocking=non_blocking))
                for f in fields(self)
                for v in [getattr(self, f.name)]
            }
        )

    def pin_memory(self) -> "Batch":
        """Pinned-memory copy (called by ``DataLoader(pin_memory=True)``)."""
        return Batch(
            **{
                f.name: (None if v is None else v.pin_memory())
                for f in fields(self)
                for v in [getattr(self, f.name)]
            }
        )


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


# -- bucketing sampler -----------------------------------------------------------------------------


class BucketBatchSampler(Sampler[list[int]]):
    """Batches of similar-length examples under a token budget, reproducibly shuffled.

    A batch's cost is ``len(batch) * max(lengths[i] for i in batch)`` (its padded size) and is
    at most ``max_tokens``, except that an example longer than the budget forms a batch alone
    (and, with ``num_replicas > 1``, a batch always holds at least ``num_replicas`` examples).

    Order: examples are sorted by length (ties broken at random), cut greedily into batches,
    and the batches are put in random order. The random generator is seeded by
    ``(seed, epoch)`` only, so the same seed and epoch give the same batches in the same order
    in every process; ``set_epoch`` changes the order. With ``shuffle=False`` the batches come
    in increasing length order, independent of the epoch.

    Distributed training: every rank builds the same global batches and yields its share
    ``global_batch[rank::num_replicas]``, and all ranks yield the same number of batches. The
    union over ranks of the i-th batch is the i-th batch of one process with ``num_replicas=1``
    whenever every single-process batch holds at least ``num_replicas`` examples; a batch with
    fewer (an over-long example alone, or a short final batch) is merged into its neighbour
    under ``num_replicas > 1``, so a DDP run that must equal a single-process run should use a
    budget under which no batch is that small.

    The sampler works on the lengths array alone: batches are held as a permutation of the
    examples plus batch boundaries (8 bytes per example), and an index list is made for one
    batch at a time, so a memory-mapped corpus of millions of pairs is batched without
    materialising its pairs (:mod:`companion.data.binarized`).

    Args:
        lengths: ``(N,)`` padded cost of each example (see :func:`example_lengths`); any
            integer array (a memory-mapped one is not copied).
        max_tokens: token budget of one (global) batch.
        shuffle: random tie-breaking and batch order per epoch.
        seed: seed of this sampler's own generator.
        num_replicas, rank: data-parallel world size and this process's rank.
        drop_last: with ``num_replicas > 1``, drop a final batch that has fewer examples than
            replicas instead of merging it into the batch before it.
    """

    def __init__(
        self,
        lengths: Sequence[int],
        max_tokens: int,
        *,
        shuffle: bool = True,
        seed: int = 0,
        num_replicas: int = 1,
        rank: int = 0,
        drop_last: bool = False,
    ):
        if isinstance(lengths, torch.Tensor):
            lengths = lengths.detach().cpu().numpy()
        lengths = np.asarray(lengths).reshape(-1) if len(lengths) else np.zeros(0, np.int64)
        if lengths.dtype.kind not in "iu":
            lengths = lengths.astype(np.int64)
        self.lengths = lengths
        if len(self.lengths) == 0:
            raise DataError("BucketBatchSampler needs a non-empty list of example lengths")
        if (self.lengths < 1).any():
            raise DataError("BucketBatchSampler: every example length must be >= 1")
        if not isinstance(max_tokens, (int, np.integer)) or max_tokens < 1:
            raise DataError(f"max_tokens must be a positive integer, got {max_tokens!r}")
        if num_replicas < 1 or not 0 <= rank < num_replicas:
            raise DataError(f"rank {rank} is not in range for num_replicas={num_replicas}")
        if len(self.lengths) < num_replicas:
            raise DataError(
                f"{len(self.lengths)} examples cannot be shared by {num_replicas} replicas"
            )
        self.max_tokens = int(max_tokens)
        self.shuffle = shuffle
        self.seed = int(seed)
        self.num_replicas = num_replicas
        self.rank = rank
        self.drop_last = drop_last
        self.epoch = 0
        self._num_batches: int | None = None

    def set_epoch(self, epoch: int) -> None:
        """Select the epoch whose order ``__iter__`` yields next."""
        self.epoch = int(epoch)

    def _rng(self) -> np.random.Generator:
        return np.random.default_rng([self.seed, self.epoch])

    def _bounds(self, sorted_lengths: np.ndarray) -> np.ndarray:
        """Greedy cut of ascending ``sorted_lengths`` into batches under the budget: the
        boundaries ``[0, e_1, ..., N]`` of the batches in sorted order.

        An example joins the open batch while the batch holds fewer than ``num_replicas``
        examples or the padded cost ``(count + 1) * its length`` stays within ``max_tokens``.
        With ascending lengths that cost grows along the order, so: inside a run of equal
        lengths ``l`` every batch holds ``max(num_replicas, max_tokens // l)`` examples (cut
        all at once), and a batch that reaches into longer examples ends at the first one over
        the budget, found by one vectorised comparison over a window of at most
        ``max_tokens / l + 1`` examples. A final batch smaller than ``num_replicas`` is dropped
        (``drop_last``) or merged into the one before it."""
        n = len(sorted_lengths)
        R = self.num_replicas
        budget = self.max_tokens
        bounds = [0]
        s = 0
        while s < n:
            length = int(sorted_lengths[s])
            size = max(R, budget // length)
            run_end = int(np.searchsorted(sorted_lengths, length, side="right"))
            whole = (run_end - s) // size
            if whole:  # batches inside the run of equal lengths
                bounds.extend(range(s + size, s + whole * size + 1, size))
                s += whole * size
                continue
            lo = s + R  # the first example that may close the batch
            if lo >= n:
                e = n
            else:
                hi = min(n, s + budget // int(sorted_lengths[lo]) + 2)  # past it the cost exceeds
                idx = np.arange(lo, max(hi, lo + 1))
                over = (idx - s + 1) * sorted_lengths[idx].astype(np.int64) > budget
                e = int(idx[over.argmax()]) if over.any() else int(idx[-1]) + 1
                e = min(e, n)
            bounds.append(e)
            s = e
        if len(bounds) > 1 and bounds[-1] - bounds[-2] < R:
            if self.drop_last or len(bounds) > 2:
                del bounds[-2 if not self.drop_last else -1]
        return np.asarray(bounds, dtype=np.int64)

    def _order_and_bounds(self) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """This epoch's example order (ascending length), batch boundaries in that order, and
        the batches' random order (None without shuffling)."""
        n = len(self.lengths)
        if self.shuffle:  # by length, ties in random order: one sort of unique int64 keys
            key = self._rng().permutation(n)
            key += self.lengths.astype(np.int64) * n
            order = np.argsort(key)
            del key
        else:
            order = np.argsort(self.lengths, kind="stable")
        bounds = self._bounds(self.lengths[order])
        perm = None
        if self.shuffle:
            perm = np.random.default_rng([self.seed, self.epoch, 1]).permutation(len(bounds) - 1)
        return order, bounds, perm

    def _batches(self) -> Iterator[np.ndarray]:
        """This epoch's global batches in order, each an index array."""
        order, bounds, perm = self._order_and_bounds()
        for j in range(len(bounds) - 1) if perm is None else perm.tolist():
            yield order[bounds[j]:bounds[j + 1]]

    def global_batches(self) -> list[list[int]]:
        """This epoch's batches of all ranks, in order: ``list`` of index lists."""
        return [b.tolist() for b in self._batches()]

    def __iter__(self) -> Iterator[list[int]]:
        for b in self._batches():
            yield b[self.rank :: self.num_replicas].tolist()

    def __len__(self) -> int:
        if self._num_batches is None:
            # batch boundaries depend only on the sorted sequence of lengths, not on the epoch
            self._num_batches = len(self._bounds(np.sort(self.lengths))) - 1
        return self._num_batches


class MixedBatchSampler(BucketBatchSampler):
    """Batches of random composition under the same token budget: each epoch the examples are
    put in random order and cut greedily into batches whose padded size ``len(batch) * max
    length`` stays within ``max_tokens``, so one batch mixes short and long sentences.

    Why it exists: a length bucket holds sentences of nearly one length, which wastes no cell on
    padding but shows every update a single length. When what must be learnt depends on the
    length (reversing a sequence maps position ``i`` to ``n-1-i``), one-length batches reward a
    length-specific solution and the model learns several times more slowly per update
    (``book/results/convergence-transformer.json``: the package Transformer with these batches
    follows JoeyNMT's curve, with buckets it does not). The price is padding: with lengths
    spread uniformly over 5-40 about 57% of a batch's cells are real tokens, against nearly all
    in a bucket, so an update costs more time for the same budget.

    Same interface and guarantees as :class:`BucketBatchSampler`: seeded by ``(seed, epoch)``
    only, every example once per epoch, a batch holds at least ``num_replicas`` examples (a
    shorter final batch is merged into the one before it, or dropped with ``drop_last``), and
    rank ``r`` yields ``global_batch[r::num_replicas]``. With ``shuffle=False`` the examples keep
    their order (and the batches theirs). The number of batches depends on the epoch's order.
    """

    def _order_and_bounds(self) -> tuple[np.ndarray, np.ndarray, None]:
        n = len(self.lengths)
        order = self._rng().permutation(n) if self.shuffle else np.arange(n)
        return order, self._greedy_bounds(self.lengths[order]), None

    def _greedy_bounds(self, lengths: np.ndarray) -> np.ndarray:
        """Boundaries ``[0, e_1, ..., N]`` of the greedy cut of ``lengths`` in their order."""
        R, budget = self.num_replicas, self.max_tokens
        bounds = [0]
        count = longest = 0
        for i, length in enumerate(lengths.tolist()):
            wider = max(longest, length)
            if count >= R and (count + 1) * wider > budget:
                bounds.append(i)
                count, wider = 0, length
            count += 1
            longest = wider
        bounds.append(len(lengths))
        if bounds[-1] - bounds[-2] < R and (self.drop_last or len(bounds) > 2):
            del bounds[-1 if self.drop_last else -2]
        return np.asarray(bounds, dtype=np.int64)

    def __len__(self) -> int:
        return len(self._order_and_bounds()[1]) - 1


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


def make_loader(
    examples: Sequence[Example],
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
    """A DataLoader of :class:`Batch` built from ``encode_pairs`` examples.

    Call ``loader.batch_sampler.set_epoch(epoch)`` before each epoch. The batches' ``indices``
    give each row's position in ``examples``. ``batching``: ``"bucketed"``
    (:class:`BucketBatchSampler`) or ``"mixed"`` (:class:`MixedBatchSampler`).
    """
    if len(examples) == 0:
        raise DataError("make_loader: no examples (is the split empty?)")
    return dataset_loader(PairDataset(examples), example_lengths(examples), max_tokens, shuffle=shuffle,
                          seed=seed, reverse_source=reverse_source, num_workers=num_workers,
                          num_replicas=num_replicas, rank=rank, drop_last=drop_last, pin_memory=pin_memory,
                          batching=batching)


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
    for the same examples."""
    if len(dataset) == 0:
        raise DataError("make_loader: no examples (is the split empty?)")
    if batching not in BATCHINGS:
        raise DataError(f"batching must be one of {', '.join(BATCHINGS)}, got {batching!r}")
    collate_fn = partial(collate, reverse_source=reverse_source)
    sampler_class = {"bucketed": BucketBatchSampler, "mixed": MixedBatchSampler}.get(batching)
    if batching == "packed":
        from companion.data.packing import PackedBatchSampler, collate_packed  # it imports this module

        if reverse_source:
            raise DataError("batching 'packed' cannot reverse the source (a packed row holds several sources)")
        sampler_class, collate_fn = PackedBatchSampler, collate_packed
    sampler = sampler_class(
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
