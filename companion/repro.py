"""Reproducibility helpers every chapter uses.

- :func:`set_determinism` fixes every random source and the thread count, so a chapter gives the
  same bits on every run of the same machine.
- :func:`fmt` prints numbers in a fixed format, so an exact nbval cell does not depend on
  ``repr`` details (``-0.0``, trailing digits, numpy scalar types).
- :func:`check` implements the book's nbval policy for training results: their last digits differ
  between CPUs, so a chapter compares each against a *recorded number with a tolerance* and prints
  a line that depends only on the recorded number, never on the value's last digits.
- :func:`glue_number` and :func:`glue_text` hand a computed number or text fragment to the prose
  (myst-nb's ``glue``; the markdown pastes it with ``{glue:text}`NAME```), so no number a reader
  sees is typed by hand; :func:`claim` asserts a qualitative statement the prose makes.

How glued values meet nbval: a value glued plainly is compared exactly on re-execution, like any
output. A value glued with ``recorded=``/``tol=`` (a training result, whose last digits differ
between CPUs) is checked against its band instead, and its stored output carries the marker
:data:`MEASURED_MARKER`, which ``tests/nbval_sanitize.cfg`` blanks before comparing.
"""

from __future__ import annotations

import math
import os
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from numbers import Real
from typing import Any

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


#: why the recorded bands are not compared (None: they are); see :func:`use_bands`
_BANDS_OFF: str | None = None


def use_bands(active: bool, reason: str = "") -> None:
    """Compare training results with their recorded bands (``active``, the default), or not.

    A band is measured on one corpus. While a chapter's records and bands describe an earlier
    edition of the generated corpus (the generator changed, the records are being remade), a
    comparison with them tests nothing: then :func:`check` prints that the number was not
    compared and why (``reason``), and :func:`glue_number` glues the value as measured without
    comparing it. Both stay CPU-independent, so nbval passes on any machine either way.
    """
    global _BANDS_OFF
    if not active and not reason:
        raise ConfigError("use_bands(False) needs the reason the bands are not compared")
    _BANDS_OFF = None if active else reason


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
    if _BANDS_OFF is not None:
        print(f"{name}: not compared ({_BANDS_OFF})")
        return
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


# ------------------------------------------------------------------------- glue for the prose

#: marks a glued value whose last digits depend on the CPU; ``tests/nbval_sanitize.cfg`` blanks
#: every stored output line that ends with it, so nbval compares the band check, not the digits
MEASURED_MARKER = "companion:measured"

#: a glue name: no ``:`` (the ``{glue:text}`` role splits ``name:format`` on the last one)
_GLUE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")


class _Measured:
    """A glued text whose stored repr ends with :data:`MEASURED_MARKER`.

    myst-nb pastes ``{glue:text}`` by ``ast.literal_eval`` of the stored ``text/plain``; a Python
    comment after the string literal is ignored there, so the page shows the text alone."""

    def __init__(self, text: str, note: str) -> None:
        self.text, self.note = text, note

    def __repr__(self) -> str:
        return f"{self.text!r}  # {MEASURED_MARKER}{self.note}"


def _glue(name: str, obj: Any) -> None:
    """``myst_nb.glue(name, obj, display=False)``: stored in the cell's outputs, shown nowhere."""
    from companion.errors import require_extra

    require_extra("myst_nb", "book", "gluing a value into the prose")
    from myst_nb import glue

    glue(name, obj, display=False)


def _check_glue_name(name: object, where: str) -> str:
    if not isinstance(name, str) or not _GLUE_NAME.match(name):
        raise ConfigError(f"{where}: the glue name must be a Python-like identifier (letters, digits, "
                          f"_ . -; no ':'), got {name!r}")
    return name


def _band(where: str, recorded: float | None, tol: float | None) -> tuple[float, float] | None:
    if recorded is None and tol is None:
        return None
    if recorded is None or tol is None:
        raise ConfigError(f"{where}: give both recorded= and tol= (a measured value's band), or neither")
    if not (isinstance(tol, Real) and math.isfinite(tol) and tol >= 0):
        raise ConfigError(f"{where}: tol must be a finite number >= 0, got {tol!r}")
    return _as_float(recorded), float(tol)


def format_number(value: object, spec: str) -> str:
    """``value`` formatted with the format spec ``spec`` (``".1f"``, ``",d"``, ``".0%"``...).

    Integer specs (``d``, ``,d``) need an integral value; a rounded zero prints without its sign
    (``-0.0`` as ``0.0``); NaN and infinity are refused (the book never prints ``nan``)."""
    if not isinstance(spec, str) or not spec:
        raise ConfigError(f"format_number: the format spec must be a non-empty string such as '.1f', got {spec!r}")
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"format_number: expected a number, got a bool ({value!r})")
    v = _as_float(value)
    if not math.isfinite(v):
        raise ValueError(f"format_number: cannot show {v!r} as a number in the prose")
    if spec[-1] in "bcdoxX":  # integer presentation types
        if v != int(v):
            raise ValueError(f"format_number: integer format {spec!r} for the non-integral value {v!r}")
        number: float | int = int(v)
    else:
        number = v
    try:
        text = format(number, spec)
    except ValueError as exc:
        raise ConfigError(f"format_number: bad format spec {spec!r} ({exc})") from None
    if text.lstrip().startswith("-") and not any(ch in "123456789" for ch in text):
        text = text.replace("-", "", 1)
    return text


def glue_number(name: str, value: object, spec: str, *, recorded: float | None = None,
                tol: float | None = None) -> None:
    """Glue ``value``, formatted with ``spec``, for the prose to paste; display nothing.

    The markdown writes ``{glue:text}`NAME``` (no format spec: the format is fixed here, next to
    the computation, so the text and the stored output agree digit for digit). Another page of
    the book pastes it with ``{glue:text}`CHAPTER.ipynb::NAME:s``` (the role splits a format
    spec off the last ``:``, so the cross-page form needs its ``:s``).

    Args:
        name: the glue key (unique in the notebook; myst-nb warns on a duplicate and ``-W``
            fails the build).
        value: the computed number (Python, NumPy or torch scalar).
        spec: a format spec, e.g. ``".1f"``, ``",d"`` (thousands separators), ``".0%"``.
        recorded, tol: for a number whose last digits depend on the CPU (anything trained): the
            band it must lie in, as :func:`check` (a :class:`RecordedNumberError` outside it).
            The glued output is then marked :data:`MEASURED_MARKER`, and nbval compares the check,
            not the digits. Without them the glued text is compared exactly.

    Returns ``None`` (a value returned at the end of a cell would be displayed).
    """
    where = f"glue_number({name!r})"
    _check_glue_name(name, "glue_number")
    band = _band(where, recorded, tol)
    text = format_number(value, spec)
    if band is None:
        _glue(name, text)
        return
    v = _as_float(value)
    rec, t = band
    if _BANDS_OFF is not None:
        _glue(name, _Measured(text, f", not compared: {_BANDS_OFF}"))
        return
    if abs(v - rec) > t:
        raise RecordedNumberError(f"{name}: got {v!r}, outside the recorded band {rec!r} ± {t!r} "
                                  f"(off by {abs(v - rec)!r})")
    _glue(name, _Measured(text, f", recorded {rec!r} ± {t!r}"))


def join_words(items: Sequence[object], sep: str = ", ", last: str = " and ") -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"`` (one item: itself)."""
    words = [str(x) for x in items]
    if not words:
        raise ValueError("join_words: no items to join")
    return words[0] if len(words) == 1 else sep.join(words[:-1]) + last + words[-1]


def glue_text(name: str, text: str | Sequence[object], *, measured: bool = False,
              markdown: bool = False) -> None:
    """Glue a computed text fragment (a sample sentence, the list of buckets where a claim holds)
    for the prose; display nothing.

    Args:
        name: the glue key.
        text: a string, or a sequence joined as ``"a, b and c"`` (:func:`join_words`).
        measured: the text depends on the last bits of training (a sample translation, a
            ranking): nbval then does not compare it (it is marked :data:`MEASURED_MARKER`); the
            cell should :func:`claim` whatever the prose says about it.
        markdown: paste with ``{glue:md}`NAME``` (the text is MyST markdown: ``*emphasis*``,
            ``code``); otherwise ``{glue:text}`NAME``` pastes it verbatim. Measured markdown is
            refused: nbval compares a markdown output as a whole.
    """
    _check_glue_name(name, "glue_text")
    if not isinstance(text, str):
        if not isinstance(text, Sequence):
            raise TypeError(f"glue_text({name!r}): expected a string or a sequence of items, "
                            f"got {type(text).__name__}")
        text = join_words(text)
    if not text.strip():
        raise ValueError(f"glue_text({name!r}): the text is empty")
    if markdown:
        if measured:
            raise ConfigError(f"glue_text({name!r}): measured markdown cannot be compared by nbval; "
                              f"glue it as plain text (markdown=False)")
        from IPython.display import Markdown

        _glue(name, Markdown(text))
    else:
        _glue(name, _Measured(text, "") if measured else text)


class ClaimError(AssertionError):
    """A statement the prose makes about the results does not hold for this run."""


def _truth(condition: object, where: str) -> bool:
    if isinstance(condition, (bool, np.bool_)):
        return bool(condition)
    if isinstance(condition, torch.Tensor) and condition.dtype == torch.bool and condition.numel() == 1:
        return bool(condition.item())
    raise TypeError(f"{where}: the condition must be a bool (or a mapping of case -> bool), got "
                    f"{type(condition).__name__}: {condition!r}"[:300])


def claim(statement: str, condition: bool | Mapping[object, bool], *, evidence: object = None,
          show: bool = True) -> None:
    """Assert a qualitative statement the prose makes about this run's results.

    ``claim("RNNsearch beats RNNencdec on every length bucket", {b: s > e for b, s, e in rows})``
    passes when every case holds and prints ``✓ RNNsearch beats ...``; when one fails it raises
    :class:`ClaimError` naming the statement, the failing cases and ``evidence`` -- so a
    re-execution on another CPU either confirms the sentence or fails loudly.

    Args:
        statement: the sentence as the prose states it (fixed text: no measured digits in it,
            since it is printed and compared by nbval).
        condition: a bool (NumPy and one-element torch bools too), or a mapping ``case -> bool``
            that must hold for every case (an empty mapping is an error: a claim about nothing).
        evidence: shown in the error message (the numbers the claim rests on).
        show: print the confirmed statement (``✓ ...``).
    """
    if not isinstance(statement, str) or not statement.strip():
        raise ConfigError(f"claim: the statement must be a non-empty sentence, got {statement!r}")
    where = f"claim({statement!r})"
    if isinstance(condition, Mapping):
        if not condition:
            raise ClaimError(f"{where}: no cases to check (an empty mapping)")
        failing = [str(case) for case, ok in condition.items() if not _truth(ok, where)]
    else:
        failing = [] if _truth(condition, where) else ["it is false"]
    if failing:
        detail = f" (fails for: {', '.join(failing)})" if isinstance(condition, Mapping) else ""
        extra = f"; evidence: {evidence!r}"[:2000] if evidence is not None else ""
        raise ClaimError(f"claim does not hold: {statement}{detail}{extra}")
    if show:
        print(f"✓ {statement}")
