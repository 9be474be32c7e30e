"""Packed batches: several sentence pairs share one row, kept apart by segment ids.

A batch of mixed lengths (:class:`~companion.data.samplers.MixedBatchSampler`) pads every row to
its longest sentence; with lengths spread evenly over 5-40, half its cells are padding. Packing
keeps the mixture and drops most of the padding: the batch's pairs are laid end to end in rows
of the batch's longest source and target, and every token carries the number of its pair within
the row (its *segment*, 1, 2, ...; 0 at padding). A Transformer that reads the segments
(:meth:`companion.models.transformer.Transformer.forward`) lets a token attend only within its
own pair -- the encoder within its source, the decoder within its target prefix and across to
its own source -- and restarts the positions at every pair, so a packed row computes exactly what
the pairs would compute in rows of their own. For targets ``[4, 5]`` and ``[6]`` sharing a row
of width 5 (a batch whose longest target has 4 tokens)::

    tgt_in       = [BOS, 4, 5, BOS, 6]       tgt_out = [4, 5, EOS, 6, EOS]
    tgt_segments = [1,   1, 1, 2,   2]       positions [0, 1, 2, 0, 1]

Only the Transformer reads segments; a recurrent model would run through a row as one sequence,
so the Trainer refuses packed batches for a model without ``accepts_packed``, and such a model's
``forward`` refuses them too (:func:`companion.models.contract.refuse_packed`).

- :class:`PackedBatchSampler` draws the batches: random order, and a budget on the pairs' own
  lengths (what the packed rows will hold), not on padded cells;
- :func:`pack_rows` places the pairs in rows (first fit, longest first);
- :func:`collate_packed` builds the :class:`~companion.data.batch.Batch`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from companion.data.batch import Batch
from companion.data.samplers import MixedBatchSampler
from companion.errors import DataError
from companion.specials import BOS, EOS, PAD


class PackedBatchSampler(MixedBatchSampler):
    """Batches of random composition whose examples' costs (``lengths``, the padded cost of each
    example alone, see :func:`~companion.data.batching.example_lengths`) *sum* to at most
    ``max_tokens``: the real tokens a packed batch holds, the same unit in which a length bucket
    of ``max_tokens`` cells is nearly full. Only the cost rule differs; everything else (seeding,
    every example once per epoch, data-parallel shares, the final batch, the kept plan behind
    ``len()``) is :class:`~companion.data.samplers.MixedBatchSampler`'s."""

    @staticmethod
    def batch_costs(lengths: np.ndarray) -> np.ndarray:
        """The cost rule: the batch of the first ``j + 1`` examples costs ``sum(lengths[:j + 1])``."""
        return np.cumsum(lengths, dtype=np.int64)


def pack_rows(src_lengths: Sequence[int], tgt_lengths: Sequence[int]) -> list[list[int]]:
    """Place pairs ``i`` with source length ``src_lengths[i]`` and target length
    ``tgt_lengths[i]`` in rows as wide as the longest of each: first fit, the pairs taken from
    the longest down (ties in their given order). Returns each row's pair indices in placing
    order; a row never holds more than its widths on either side."""
    if len(src_lengths) != len(tgt_lengths) or not len(src_lengths):
        raise DataError(f"pack_rows: needs as many source as target lengths, at least one "
                        f"(got {len(src_lengths)} and {len(tgt_lengths)})")
    S, T = max(src_lengths), max(tgt_lengths)
    rows: list[list[int]] = []
    room: list[list[int]] = []  # per row: [source room, target room]
    for i in sorted(range(len(src_lengths)), key=lambda k: -max(src_lengths[k], tgt_lengths[k])):
        s, t = src_lengths[i], tgt_lengths[i]
        for row, left in zip(rows, room):
            if left[0] >= s and left[1] >= t:
                row.append(i)
                left[0] -= s
                left[1] -= t
                break
        else:
            rows.append([i])
            room.append([S - s, T - t])
    return rows


def collate_packed(items: Sequence[tuple[list[int], list[int], int]]) -> Batch:
    """Pack ``(src_ids_with_EOS, tgt_ids, index)`` items into a :class:`Batch` with segments.

    Each pair contributes its source ids (EOS included) to a row's ``src`` and
    ``[BOS] + target`` / ``target + [EOS]`` to its ``tgt_in`` / ``tgt_out``; ``src_segments``
    ``(B, S)`` and ``tgt_segments`` ``(B, T)`` number the pairs of a row from 1 (0 at PAD);
    ``src_lengths`` counts a row's real source tokens; ``sentences`` is the number of pairs.
    ``indices`` is None: a row holds several examples."""
    if not items:
        raise DataError("collate_packed: empty batch")
    src = [list(it[0]) for it in items]
    tgt = [list(it[1]) for it in items]
    rows = pack_rows([len(s) for s in src], [len(t) + 1 for t in tgt])
    S, T = max(len(s) for s in src), max(len(t) for t in tgt) + 1
    B = len(rows)
    out = {name: torch.full((B, width), PAD, dtype=torch.long)
           for name, width in (("src", S), ("tgt_in", T), ("tgt_out", T))}
    src_seg = torch.zeros(B, S, dtype=torch.long)
    tgt_seg = torch.zeros(B, T, dtype=torch.long)
    for r, row in enumerate(rows):
        s_at = t_at = 0
        for k, i in enumerate(row, start=1):
            s, t = src[i], tgt[i]
            out["src"][r, s_at:s_at + len(s)] = torch.tensor(s, dtype=torch.long)
            src_seg[r, s_at:s_at + len(s)] = k
            out["tgt_in"][r, t_at:t_at + len(t) + 1] = torch.tensor([BOS] + t, dtype=torch.long)
            out["tgt_out"][r, t_at:t_at + len(t) + 1] = torch.tensor(t + [EOS], dtype=torch.long)
            tgt_seg[r, t_at:t_at + len(t) + 1] = k
            s_at += len(s)
            t_at += len(t) + 1
    return Batch(src=out["src"], src_lengths=(src_seg > 0).sum(1), tgt_in=out["tgt_in"], tgt_out=out["tgt_out"],
                 src_segments=src_seg, tgt_segments=tgt_seg)


def segment_positions(segments: torch.Tensor) -> torch.Tensor:
    """``(B, L)`` position of every token within its segment (0 at each segment's first token;
    a row's trailing PAD is numbered like one more segment, never read): for segments
    ``[1, 1, 2, 2, 2, 0]`` -> ``[0, 1, 0, 1, 2, 0]``."""
    L = segments.shape[1]
    index = torch.arange(L, device=segments.device).expand_as(segments)
    starts = torch.ones_like(segments, dtype=torch.bool)
    starts[:, 1:] = segments[:, 1:] != segments[:, :-1]
    first = torch.where(starts, index, torch.zeros_like(index)).cummax(dim=1).values
    return index - first


def segment_mask(query: torch.Tensor, key: torch.Tensor) -> torch.Tensor:
    """``(B, Q, K)`` bool attention mask of packed rows: a real query (segment > 0) may attend to
    the keys of its own segment; a PAD query to every real key (its output is never read, and a
    softmax over nothing would be NaN)."""
    same = query.unsqueeze(2) == key.unsqueeze(1)
    real_key = (key > 0).unsqueeze(1)
    return torch.where((query > 0).unsqueeze(2), same & real_key, real_key)


__all__ = ["PackedBatchSampler", "collate_packed", "pack_rows", "segment_mask", "segment_positions"]
