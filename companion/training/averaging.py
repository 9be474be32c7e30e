"""Checkpoint averaging: the parameter-wise mean of the last checkpoints of one run.

Vaswani et al. (2017, section 6.1) report their base models "using a single model obtained by
averaging the last 5 checkpoints, which were written at 10-minute intervals". The checkpoints lie
close together on the loss surface late in training, and their mean usually scores a little
better than any one of them at no cost at decoding time.

:func:`average_checkpoints` takes checkpoints written by ``companion train`` (see
:mod:`companion.training.checkpoint`), refuses any that do not belong together -- a different
model config, different vocabularies, different parameter names or shapes -- and returns a
checkpoint dict whose ``model`` entry is the mean. Float tensors are averaged (accumulated in
float64, stored in their own dtype); other tensors (integer or boolean buffers) are copied from
the last checkpoint, like every other entry. The result loads with
:func:`companion.training.rundir.load_run`, so ``companion translate`` and ``companion
evaluate`` take it like any other checkpoint; ``averaged_from`` lists its inputs.

Keep enough checkpoints to average: a run keeps its ``train.keep_last`` newest
``checkpoint-step*.pt`` files (default 2), so set ``train.keep_last=5`` to average five.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch

from companion.errors import CheckpointError, CompanionError, ConfigError
from companion.models import with_defaults
from companion.training.checkpoint import STEP_FILE, first_model_difference, load_checkpoint, save_checkpoint


def _model_config(ckpt: dict) -> dict:
    """The checkpoint's ``config["model"]`` with the constructor's defaults filled in, so two
    configs that build the same model compare equal."""
    stored = dict((ckpt.get("config") or {}).get("model") or {})
    if "name" not in stored:
        return stored
    try:
        return with_defaults(stored)
    except CompanionError:  # an unknown model: compare what is written
        return stored


def _check_same_run(ckpt: dict, first: dict, path: Path, first_path: Path) -> None:
    """Refuse ``ckpt`` unless its model config and vocabularies equal ``first``'s."""
    mine, theirs = _model_config(ckpt), _model_config(first)
    key = first_model_difference(mine, theirs)
    if key is not None:
        raise CheckpointError(f"{path}: model.{key} is {mine.get(key)!r} but {theirs.get(key)!r} "
                              f"in {first_path}; only checkpoints of one model can be averaged")
    for side in ("src", "tgt"):
        a = ((ckpt.get("vocab") or {}).get(side) or {}).get("sha256")
        b = ((first.get("vocab") or {}).get(side) or {}).get("sha256")
        if a != b:
            raise CheckpointError(f"{path}: the {side} vocabulary differs from {first_path}'s "
                                  f"(sha256 {str(a)[:12]} vs {str(b)[:12]})")


def _check_same_tensors(state: dict, first: dict, path: Path, first_path: Path) -> None:
    """Refuse ``state`` unless it has ``first``'s parameter names, shapes and kinds."""
    missing = sorted(set(first) - set(state))
    extra = sorted(set(state) - set(first))
    if missing:
        raise CheckpointError(f"{path}: parameter '{missing[0]}' is missing (present in {first_path})")
    if extra:
        raise CheckpointError(f"{path}: parameter '{extra[0]}' is not in {first_path}")
    for name, ref in first.items():
        t = state[name]
        if not isinstance(ref, torch.Tensor):  # a non-tensor entry is copied from the last
            continue
        if not isinstance(t, torch.Tensor) or t.shape != ref.shape:
            shape = tuple(t.shape) if isinstance(t, torch.Tensor) else type(t).__name__
            raise CheckpointError(f"{path}: parameter '{name}' has shape {shape} but "
                                  f"{tuple(ref.shape)} in {first_path}")
        if t.is_floating_point() != ref.is_floating_point():
            raise CheckpointError(f"{path}: parameter '{name}' is {t.dtype} but {ref.dtype} in {first_path}")


def _distinct(paths: Sequence[Path]) -> None:
    """Refuse the same file twice (``checkpoint-last.pt`` is a link to a step file)."""
    for i, a in enumerate(paths):
        for b in paths[:i]:
            if a.exists() and b.exists() and os.path.samefile(a, b):
                raise CheckpointError(f"{a}: the same file as {b}; each checkpoint may be averaged once")


def average_checkpoints(paths: Sequence[str | Path]) -> dict[str, Any]:
    """The checkpoint whose ``model`` state dict is the parameter-wise mean of ``paths``'.

    Every other entry (config, vocabularies, step, optimizer state...) is the last checkpoint's;
    ``averaged_from`` lists the inputs as strings. Raises a one-line :class:`CheckpointError`
    for a missing or unreadable file, the same file given twice, or checkpoints that do not
    belong to one model (config, vocabularies, parameter names or shapes differ).
    """
    paths = [Path(p) for p in paths]
    if not paths:
        raise ConfigError("average: no checkpoints to average")
    _distinct(paths)
    first = last = None
    sums: dict[str, torch.Tensor] = {}
    for path in paths:  # one checkpoint in memory at a time, besides the running sums
        ckpt = load_checkpoint(path)
        state = ckpt["model"]
        if first is None:
            first, first_state = ckpt, state
            sums = {k: v.double() for k, v in state.items() if isinstance(v, torch.Tensor) and v.is_floating_point()}
        else:
            _check_same_run(ckpt, first, path, paths[0])
            _check_same_tensors(state, first_state, path, paths[0])
            for k in sums:
                sums[k] += state[k].double()
        last = ckpt
    n = len(paths)
    averaged = {k: (sums[k] / n).to(v.dtype) if k in sums else v for k, v in last["model"].items()}
    return {**last, "model": averaged, "averaged_from": [str(p) for p in paths]}


def last_checkpoints(run_dir: str | Path, n: int) -> list[Path]:
    """The ``n`` newest ``checkpoint-step{N}.pt`` files of a run directory, oldest first."""
    run_dir = Path(run_dir)
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ConfigError(f"average: the number of checkpoints must be an integer >= 1, got {n!r}")
    if not run_dir.is_dir():
        raise CheckpointError(f"{run_dir}: not a run directory")
    numbered = sorted((int(m.group(1)), p) for p in run_dir.iterdir() if (m := STEP_FILE.fullmatch(p.name)))
    if len(numbered) < n:
        raise CheckpointError(f"{run_dir}: holds {len(numbered)} checkpoint-step*.pt files, fewer than the {n} "
                              f"asked for (a run keeps train.keep_last of them; train with "
                              f"--set train.keep_last={n})")
    return [p for _, p in numbered[-n:]]


def save_average(paths: Sequence[str | Path], out: str | Path) -> dict[str, Any]:
    """Average ``paths`` (:func:`average_checkpoints`) and write the result to ``out``
    atomically; returns the checkpoint written. ``out`` may not be one of the inputs."""
    out = Path(out)
    for p in paths:
        if out.exists() and Path(p).exists() and os.path.samefile(out, p):
            raise CheckpointError(f"{out}: is one of the checkpoints being averaged; choose another --out")
    ckpt = average_checkpoints(paths)
    save_checkpoint(ckpt, out)
    return ckpt


__all__ = ["average_checkpoints", "last_checkpoints", "save_average"]
