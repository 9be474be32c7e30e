"""Batch samplers: which examples go into each batch of an epoch, under a token budget.

- :class:`BucketBatchSampler`: examples of similar lengths (length buckets), little padding;
- :class:`MixedBatchSampler`: examples in random order, cut greedily under a cost rule (the
  padded size); :class:`~companion.data.packing.PackedBatchSampler` changes only that rule.

They work on an array of example lengths alone and yield lists of example indices; padding and
packing the examples is :mod:`companion.data.batching`'s and :mod:`companion.data.packing`'s.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
import torch
from torch.utils.data import Sampler

from companion.errors import DataError

__all__ = ["BucketBatchSampler", "MixedBatchSampler"]


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
    their order (and the batches theirs). The number of batches depends on the epoch's order:
    ``len()`` plans the epoch once and keeps the plan (the order and its batches), which the
    epoch's iteration then uses; ``set_epoch`` to another epoch makes a new plan.

    The cost rule is one hook, :meth:`batch_costs`; a subclass that changes what a batch costs
    (:class:`~companion.data.packing.PackedBatchSampler`: the sum of its examples' lengths)
    overrides that alone.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._plan: tuple[tuple, tuple[np.ndarray, np.ndarray, None]] | None = None

    @staticmethod
    def batch_costs(lengths: np.ndarray) -> np.ndarray:
        """The cost rule: ``(k,)`` int64 lengths of consecutive examples -> ``(k,)`` cost of the
        batch made of the first ``j + 1`` of them, non-decreasing in ``j``. Here the padded size,
        ``(j + 1) * max(lengths[:j + 1])``."""
        return np.arange(1, len(lengths) + 1, dtype=np.int64) * np.maximum.accumulate(lengths)

    def _greedy_bounds(self, lengths: np.ndarray) -> np.ndarray:
        """Boundaries ``[0, e_1, ..., N]`` of the greedy cut of ``lengths`` in their order: an
        example joins the open batch while the batch holds fewer than ``num_replicas`` examples
        or its cost with the example (:meth:`batch_costs`) stays within ``max_tokens``. The cost
        of the candidate batches is computed over a window of the examples ahead, widened until
        it reaches one over the budget (or the end). A final batch smaller than ``num_replicas``
        is dropped (``drop_last``) or merged into the one before it."""
        lengths = np.asarray(lengths).astype(np.int64, copy=False)
        R, budget, n = self.num_replicas, self.max_tokens, len(lengths)
        bounds = [0]
        s, window = 0, 64
        while s < n:
            while True:
                end = min(n, s + R + window)
                over = np.flatnonzero(self.batch_costs(lengths[s:end])[R:] > budget)
                if over.size or end == n:
                    e = s + R + int(over[0]) if over.size else n
                    break
                window *= 2
            bounds.append(e)
            window = max(64, 2 * (e - s))
            s = e
        if bounds[-1] - bounds[-2] < R and (self.drop_last or len(bounds) > 2):
            del bounds[-1 if self.drop_last else -2]
        return np.asarray(bounds, dtype=np.int64)

    def _plan_key(self) -> tuple:
        return (self.seed, self.epoch if self.shuffle else None, self.shuffle, self.max_tokens, self.num_replicas,
                self.drop_last)

    def _order_and_bounds(self) -> tuple[np.ndarray, np.ndarray, None]:
        """This epoch's order and batch boundaries, planned once per epoch (and seed) and kept."""
        key = self._plan_key()
        if self._plan is None or self._plan[0] != key:
            n = len(self.lengths)
            order = self._rng().permutation(n) if self.shuffle else np.arange(n)
            self._plan = (key, (order, self._greedy_bounds(self.lengths[order]), None))
        return self._plan[1]

    def __len__(self) -> int:
        return len(self._order_and_bounds()[1]) - 1
