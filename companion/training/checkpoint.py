"""Checkpoints: atomic writes, safe loads, and the checks that a checkpoint fits a run.

A checkpoint is a ``torch.save`` dict of tensors and plain Python containers only, so it loads
with ``torch.load(path, weights_only=True)`` (this package never unpickles arbitrary objects)::

    model, optimizer, scheduler   state dicts
    step, epoch, batch_in_epoch   where training stopped (the sampler position inside the epoch)
    rng                           python / numpy / torch / cuda generator states (lists, tensors)
    rng_by_rank                   under DDP only: every rank's ``rng``, in rank order, so that each
                                  rank resumes its own dropout stream
    config                        the run's configuration as a plain nested dict
    vocab                         {"src"|"tgt": {"bytes": SentencePiece model, "sha256": hex}}
    best                          the best validation loss so far
    resumes                       the resumes that reset or changed options (see
                                  :mod:`companion.training.resume`)

A vocabulary is ``bytes`` in memory but a ``uint8`` tensor on disk (:func:`save_checkpoint`
packs it, :func:`load_checkpoint` unpacks it): torch 2.2, 2.3 and 2.4 (at least) refuse Python
``bytes`` under ``weights_only=True`` ("Unsupported class _codecs.encode"), and a tensor loads
everywhere. Checkpoints written with ``bytes`` still load where torch accepts them.

Nothing in a checkpoint grows with the number of steps: the per-step metrics are in the run's
``metrics.jsonl``, not here.

Files are written to a temporary file in the same directory, flushed and fsynced, then renamed
over the target: a process killed mid-write leaves the previous checkpoint intact.
"""

from __future__ import annotations

import hashlib
import os
import random
import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import torch

from companion.errors import CheckpointError

#: the name of a numbered checkpoint, ``checkpoint-step{N}.pt`` (group 1: N)
STEP_FILE = re.compile(r"checkpoint-step(\d+)\.pt")
REQUIRED_KEYS = ("model", "optimizer", "scheduler", "step", "epoch", "rng", "config", "vocab")


def atomic_save(obj: Any, path: str | Path) -> None:
    """``torch.save(obj, path)`` such that ``path`` is always either the old or the new file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "wb") as f:
            torch.save(obj, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    fsync_dir(path.parent)


def fsync_dir(directory: str | Path) -> None:
    """Make renames and links inside ``directory`` durable (a no-op where directories cannot
    be fsynced)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - directories cannot be fsynced on some systems
        pass
    finally:
        os.close(fd)


def link_atomic(src: Path, dst: Path) -> None:
    """Make ``dst`` the same file as ``src`` atomically (hard link, else copy, then rename),
    and fsync the directory so the new name survives a crash."""
    tmp = dst.with_name(f".{dst.name}.link")
    tmp.unlink(missing_ok=True)
    try:
        tmp.hardlink_to(src)
    except OSError:
        shutil.copyfile(src, tmp)
    tmp.replace(dst)
    fsync_dir(dst.parent)


def save_checkpoint(ckpt: dict, path: str | Path) -> None:
    """:func:`atomic_save` of a checkpoint dict, its vocabularies' bytes stored as uint8 tensors."""
    vocab = ckpt.get("vocab")
    if isinstance(vocab, dict):
        packed = {side: dict(entry, bytes=torch.frombuffer(bytearray(entry["bytes"]), dtype=torch.uint8).clone())
                  if isinstance(entry, dict) and isinstance(entry.get("bytes"), (bytes, bytearray)) else entry
                  for side, entry in vocab.items()}
        ckpt = dict(ckpt, vocab=packed)
    atomic_save(ckpt, path)


def _unpack_vocab(ckpt: dict) -> None:
    """Turn the uint8 tensors of :func:`save_checkpoint` back into ``bytes``, in place."""
    vocab = ckpt.get("vocab")
    if isinstance(vocab, dict):
        for entry in vocab.values():
            if isinstance(entry, dict) and isinstance(entry.get("bytes"), torch.Tensor):
                entry["bytes"] = entry["bytes"].to(torch.uint8).numpy().tobytes()


def load_checkpoint(path: str | Path, map_location: str | torch.device = "cpu") -> dict:
    """Load and sanity-check a checkpoint; every failure is a one-line :class:`CheckpointError`."""
    path = Path(path)
    if path.is_dir():
        raise CheckpointError(f"{path}: is a directory, expected a checkpoint file")
    if not path.is_file():
        raise CheckpointError(f"{path}: checkpoint not found")
    try:
        ckpt = torch.load(path, map_location=map_location, weights_only=True)
    except Exception:  # noqa: BLE001 - any unpickling failure is a bad file
        # torch's own message is paragraphs of advice about weights_only; the user needs this:
        raise CheckpointError(
            f"{path}: not a readable checkpoint (truncated or foreign file; "
            f"expected a .pt file written by `companion train`)"
        ) from None
    if not isinstance(ckpt, dict):
        raise CheckpointError(f"{path}: not a companion checkpoint (top level is {type(ckpt).__name__})")
    missing = [k for k in REQUIRED_KEYS if k not in ckpt]
    if missing:
        raise CheckpointError(f"{path}: not a companion checkpoint (missing {', '.join(missing)})")
    _unpack_vocab(ckpt)
    return ckpt


# ---------------------------------------------------------------- random generator states
def rng_state() -> dict:
    """All generator states as tensors and lists (loadable with ``weights_only=True``)."""
    version, internal, gauss = random.getstate()
    name, keys, pos, has_gauss, cached = np.random.get_state()
    return {
        "python": [version, list(internal), gauss],
        "numpy": [name, torch.from_numpy(keys.astype(np.int64)), int(pos), int(has_gauss), float(cached)],
        "torch": torch.get_rng_state(),
        "cuda": torch.cuda.get_rng_state_all() if torch.cuda.is_available() else [],
    }


def set_rng_state(state: dict) -> None:
    """Restore what :func:`rng_state` returned."""
    version, internal, gauss = state["python"]
    random.setstate((version, tuple(internal), gauss))
    name, keys, pos, has_gauss, cached = state["numpy"]
    np.random.set_state((name, keys.numpy().astype(np.uint32), pos, has_gauss, cached))
    torch.set_rng_state(state["torch"].cpu())
    if state.get("cuda") and torch.cuda.is_available():
        torch.cuda.set_rng_state_all([s.cpu() for s in state["cuda"]])


# ---------------------------------------------------------------- vocabularies and config
def vocab_entry(model_bytes: bytes) -> dict:
    """``{"bytes": ..., "sha256": ...}`` for a serialized vocabulary."""
    return {"bytes": bytes(model_bytes), "sha256": hashlib.sha256(model_bytes).hexdigest()}


def check_vocab(ckpt: dict, hashes: dict[str, str], path: str | Path) -> None:
    """Refuse a checkpoint whose vocabularies differ from ``hashes`` (``{"src": hex, ...}``)."""
    stored = ckpt.get("vocab") or {}
    for side, digest in hashes.items():
        have = (stored.get(side) or {}).get("sha256")
        if have != digest:
            raise CheckpointError(
                f"{path}: the {side} vocabulary does not match this run's "
                f"(checkpoint sha256 {str(have)[:12]}, given {digest[:12]})"
            )


def first_model_difference(a: dict, b: dict) -> str | None:
    """The first key in which two model configs differ: ``name`` when the model families differ
    (their other keys are not comparable), else the first in sorted order; None if equal."""
    if a.get("name") != b.get("name"):
        return "name"
    return next((k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)), None)


def check_model_config(ckpt: dict, model_cfg: dict, path: str | Path) -> None:
    """Refuse a checkpoint whose ``config["model"]`` differs from ``model_cfg``."""
    stored = (ckpt.get("config") or {}).get("model") or {}
    key = first_model_difference(stored, model_cfg)
    if key is not None:
        raise CheckpointError(
            f"{path}: model.{key} is {stored.get(key)!r} in the checkpoint but "
            f"{model_cfg.get(key)!r} in the config"
        )


def rotate(out_dir: Path, keep_last: int) -> None:
    """Delete all but the ``keep_last`` newest ``checkpoint-step*.pt`` files."""
    numbered = [(int(m.group(1)), p) for p in out_dir.glob("checkpoint-step*.pt")
                if (m := STEP_FILE.fullmatch(p.name))]  # a stray checkpoint-stepX.pt is not ours
    files = [p for _, p in sorted(numbered)]
    for old in files[: max(0, len(files) - keep_last)]:
        old.unlink(missing_ok=True)


def remove_stale_temporaries(out_dir: str | Path) -> list[Path]:
    """Delete the half-written ``.*.tmp-PID`` files a killed save left in ``out_dir``; returns them.
    Call it only when no other process is saving into ``out_dir``."""
    stale = sorted(Path(out_dir).glob(".*.pt.tmp-*"))
    for p in stale:
        p.unlink(missing_ok=True)
    return stale
