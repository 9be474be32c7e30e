"""SIGINT/SIGTERM during training: the first signal asks the loop to save and stop."""

from __future__ import annotations

import signal
import threading

import torch

from companion.training.distributed import DistInfo, all_reduce_sum


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
