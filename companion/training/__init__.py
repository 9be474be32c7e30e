"""Training: one :class:`Trainer` for every model, the papers' optimiser presets and schedules,
atomic checkpoints with exact resume, signal handling, and DistributedDataParallel helpers.

- :mod:`~companion.training.trainer` -- the Trainer, the PAD-ignoring token loss, validation
- :mod:`~companion.training.optim` -- presets ``adam``/``sutskever``/``bahdanau``/``vaswani``
- :mod:`~companion.training.checkpoint` -- atomic writes, safe loads, compatibility checks
- :mod:`~companion.training.stream`, :mod:`~companion.training.signals` -- a resumable batch
  stream; SIGINT/SIGTERM that save and stop
- :mod:`~companion.training.distributed` -- ``torchrun`` process groups (gloo, NCCL)
- :mod:`~companion.training.rundir` -- run directories: vocabularies, loaders, reloading a run
"""

from companion.training.trainer import History, Trainer, evaluate_loss, sequence_loss

__all__ = ["History", "Trainer", "evaluate_loss", "sequence_loss"]
