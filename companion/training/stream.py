"""A resumable stream of training batches: :class:`BatchStream` knows its epoch and its position
inside the epoch, so a resumed run continues mid-epoch with the same batches."""

from __future__ import annotations

from typing import Any, Iterable

import torch

from companion.errors import TrainingError


class BatchStream:
    """Endless stream of batches over epochs that knows where it is (``epoch``, ``position``),
    so a resumed run continues mid-epoch with the same batches. Loaders whose sampler has
    ``set_epoch`` (the bucket sampler, ``DistributedSampler``) get a different, reproducible
    order each epoch; creating an iterator never consumes the global torch generator."""

    def __init__(self, loader: Iterable, epoch: int = 0, position: int = 0):
        self.loader, self.epoch, self.position = loader, epoch, position
        self._it = None

    def _start(self) -> None:
        for obj in (self.loader, getattr(self.loader, "batch_sampler", None), getattr(self.loader, "sampler", None)):
            if hasattr(obj, "set_epoch"):
                obj.set_epoch(self.epoch)
        state = torch.get_rng_state()
        self._it = iter(self.loader)
        torch.set_rng_state(state)
        for _ in range(self.position):
            next(self._it, None)

    def next(self) -> Any:
        if self._it is None:
            self._start()
        batch = next(self._it, None)
        if batch is None:
            self.epoch, self.position = self.epoch + 1, 0
            self._start()
            batch = next(self._it, None)
            if batch is None:
                raise TrainingError("the training loader is empty")
        self.position += 1
        return batch
