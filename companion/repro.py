"""Reproducibility helpers every chapter uses.

- :func:`set_determinism` fixes every random source and the thread count, so a chapter gives the
  same bits on every run of the same machine.
- :func:`fmt` prints numbers in a fixed format, so an exact nbval cell does not depend on
  ``repr`` details (``-0.0``, trailing digits, numpy scalar types).
- :func:`check` implements the book's nbval policy for training results: their last digits differ
  between CPUs, so a chapter compares each against a *recorded number with a tolerance* and prints
  a line that depends only on the recorded number, never on the value's last digits.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Iterable
from numbers import Real

import numpy as np
import torch

from companion.errors import ConfigError


def set_determinism(seed: int, threads: int | None = 1, deterministic: bool = True) -> None:
    """Seed Python, NumPy and torch, fix the thread count, and ask for deterministic kernels.

    The one seeding function of the package: chapters call it with the defaults, the ``train``
    command with the config's ``train.seed``/``train.threads``/``train.deterministic``.

    One thread matters for the book: the same torch program gives different low-order bits on
    one and on two CPU threads, so every chapter runs with ``threads=1``.

    Args:
        seed: the seed for :mod:`random`, :mod:`numpy` and :mod:`torch` (all devices).
        threads: intra-op threads for torch (and the BLAS libraries of child processes);
            ``None`` leaves the thread count alone.
        deterministic: ask torch for deterministic kernels (CPU and cuDNN; warn where none
            exists) -- bitwise-repeatable runs at some cost in speed on GPUs.
    """
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ConfigError(f"seed must be a non-negative integer, got {seed!r}")
    if threads is not None and (not isinstance(threads, int) or isinstance(threads, bool) or threads < 1):
        raise ConfigError(f"threads must be a positive integer or None, got {threads!r}")
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)
    if threads is not None:
        torch.set_num_threads(threads)
        for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ[var] = str(threads)
    if deterministic:
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
        torch.use_deterministic_algorithms(True, warn_only=True)
        if torch.backends.cudnn.is_available():
            torch.backends.cudnn.benchmark = False
            torch.backends.cudnn.deterministic = True
    else:
        torch.use_deterministic_algorithms(False)


def _as_float(x: object) -> float:
    if isinstance(x, torch.Tensor):
        if x.numel() != 1:
            raise ValueError(f"expected a scalar tensor, got shape {tuple(x.shape)}")
        return float(x.item())
    if isinstance(x, (Real, np.generic)):
        return float(x)
    raise TypeError(f"expected a number, got {type(x).__name__}")


def fmt(x: object, digits: int = 4, sep: str = ",") -> str:
    """Format a number, tensor or sequence of numbers with exactly ``digits`` decimals.

    ``-0.000`` is written ``0.000``, so a value that rounds to zero prints the same whatever its
    sign; integers (Python or torch integer dtypes) print without decimals. A tensor or sequence
    is flattened and joined with ``sep``.

    >>> fmt(3.14159, 3)
    '3.142'
    >>> fmt([-0.00001, 2], 2)
    '0.00,2'
    """
    if isinstance(x, torch.Tensor) and x.numel() != 1:
        return sep.join(fmt(v, digits, sep) for v in x.detach().flatten().tolist())
    if isinstance(x, np.ndarray) and x.size != 1:
        return sep.join(fmt(v, digits, sep) for v in x.flatten().tolist())
    if isinstance(x, (list, tuple)):
        return sep.join(fmt(v, digits, sep) for v in x)
    if isinstance(x, torch.Tensor):
        if not x.dtype.is_floating_point:
            return str(int(x.item()))
        x = x.item()
    if isinstance(x, np.ndarray):
        x = x.item()
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    value = _as_float(x)
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    text = f"{value:.{digits}f}"
    if text.startswith("-") and float(text) == 0.0:
        text = text[1:]
    return text


class RecordedNumberError(AssertionError):
    """A training result left the band around its recorded number."""


def _decimals(x: float) -> int:
    text = repr(float(x))
    if "e" in text or "E" in text:
        return 6
    return len(text.split(".")[1].rstrip("0")) if "." in text else 0


def check(name: str, value: object, recorded: float, tol: float, *, unit: str = "") -> None:
    """Compare ``value`` with its ``recorded`` number and print a CPU-independent line.

    Inside ``[recorded - tol, recorded + tol]`` it prints ``name: recorded ± tol ✓`` (the value
    itself is not printed, so the line is the same on every CPU). Outside, it raises
    :class:`RecordedNumberError` naming the value, the band and the distance. It returns ``None``
    on purpose: a returned float at the end of a notebook cell would be displayed, and its last
    digits would differ between CPUs.

    Args:
        name: what the number is, e.g. ``"test BLEU, RNNsearch"``.
        value: the computed number (float, numpy or torch scalar).
        recorded: the number recorded in the chapter when it was written.
        tol: the half-width of the band; it comes from running the cell under several seeds.
        unit: optional unit appended to the printed line (``"bpc"``, ``"%"``).
    """
    v = _as_float(value)
    if not (isinstance(tol, Real) and tol >= 0 and math.isfinite(tol)):
        raise ValueError(f"{name}: tol must be a finite number >= 0, got {tol!r}")
    digits = max(_decimals(recorded), _decimals(tol))
    band = f"{recorded:.{digits}f} ± {tol:.{digits}f}" + (f" {unit}" if unit else "")
    if not math.isfinite(v) or abs(v - recorded) > tol:
        raise RecordedNumberError(
            f"{name}: got {v!r}, outside the recorded band {band} "
            f"(off by {abs(v - recorded) if math.isfinite(v) else v!r})"
        )
    print(f"{name}: {band} ✓")


def check_all(rows: Iterable[tuple[str, object, float, float]]) -> None:
    """Run :func:`check` over ``(name, value, recorded, tol)`` rows, all of them.

    Every row is checked before failing, so one failure reports every number out of its band.
    """
    failures = []
    for name, value, recorded, tol in rows:
        try:
            check(name, value, recorded, tol)
        except RecordedNumberError as exc:
            failures.append(str(exc))
    if failures:
        raise RecordedNumberError("; ".join(failures))
