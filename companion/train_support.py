"""Helpers of :mod:`companion.train`: a resumable batch stream, SIGINT/SIGTERM handling and
atomic hard links for the ``checkpoint-last``/``-best`` names."""

from __future__ import annotations

import shutil
import signal
import threading
from pathlib import Path
from typing import Any, Iterable

import torch

from companion.distributed import DistInfo, all_reduce_sum
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


class StopSignals:
    """While alive, SIGINT and SIGTERM only set a flag that the training loop polls (the first
    signal; a second one raises KeyboardInterrupt). Only the main thread can install handlers;
    elsewhere this is inert. :meth:`restore` puts the previous handlers back."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self._old: dict = {}
        if threading.current_thread() is threading.main_thread():
            for s in (signal.SIGINT, signal.SIGTERM):
                self._old[s] = signal.getsignal(s)
                signal.signal(s, self._handler)

    def _handler(self, signum, frame) -> None:  # noqa: ARG002
        if self.signum is not None:
            raise KeyboardInterrupt
        self.signum = signum

    def requested(self, dist: DistInfo, device: torch.device) -> bool:
        """True once any process got a signal (all ranks agree, so they stop at the same step)."""
        flag = 1.0 if self.signum is not None else 0.0
        if dist.enabled:
            flag = all_reduce_sum(flag, device)
            if flag and self.signum is None:
                self.signum = signal.SIGTERM
        return bool(flag)

    def restore(self) -> None:
        for s, h in self._old.items():
            signal.signal(s, h)


def link_atomic(src: Path, dst: Path) -> None:
    """Make ``dst`` the same file as ``src`` atomically (hard link, else copy, then rename)."""
    tmp = dst.with_name(f".{dst.name}.link")
    tmp.unlink(missing_ok=True)
    try:
        tmp.hardlink_to(src)
    except OSError:
        shutil.copyfile(src, tmp)
    tmp.replace(dst)
