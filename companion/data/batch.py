"""The batch every model reads: :class:`Batch`, batch-first tensors of one batch, and its masks.

It sits below the modules that make batches (:mod:`companion.data.batching` pads pairs one per
row, :mod:`companion.data.packing` packs several per row) and the models that read them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import torch

from companion.errors import DataError
from companion.specials import PAD

__all__ = ["Batch", "causal_mask"]


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

    def _refuse_packed(self, name: str) -> None:
        if self.packed or self.src_segments is not None:
            raise DataError(f"Batch.{name}: a packed batch holds several pairs per row and this mask ignores "
                            f"their segments (use companion.data.packing.segment_mask, or data.batching: bucketed)")

    @property
    def src_mask(self) -> torch.Tensor | None:
        """``(B, S)`` bool, True at real source tokens (EOS included), False at PAD. Refused for a
        packed batch, whose pairs it would not keep apart (:func:`~companion.data.packing.segment_mask`)."""
        if self.src is None:
            return None
        self._refuse_packed("src_mask")
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
        """``(B, T, T)`` bool: causal mask AND key padding mask of ``tgt_in``. Refused for a packed
        batch, like :attr:`src_mask`."""
        self._refuse_packed("tgt_attn_mask")
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
