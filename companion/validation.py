"""Argument checks shared by models, decoding, training and the commands: each raises a one-line
:class:`~companion.errors.ConfigError` (or, for paths, :class:`~companion.errors.DataError`) that
names where the value came from.

The path checks exist so that a command refuses a bad path *before* its expensive work (training
vocabularies, decoding a corpus), not with a traceback once that work is done.

:func:`coerce` and :func:`type_name` convert a value to a declared type and name that type in a
message: the primitives under the config's sections (:mod:`companion.config`) and the models'
constructor arguments (:func:`companion.models.check_model_args`).
"""

from __future__ import annotations

import math
import os
import tempfile
import types
import typing
from pathlib import Path
from typing import Any, Literal

from companion.errors import ConfigError, DataError


def _prefix(where: str) -> str:
    return f"{where}: " if where else ""


def check_int(name: str, value: Any, minimum: int = 1, where: str = "") -> int:
    """``value`` if it is an int (not a bool) ``>= minimum``."""
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise ConfigError(f"{_prefix(where)}{name} must be an integer >= {minimum}, got {value!r}")
    return value


def check_float(name: str, value: Any, low: float = -math.inf, high: float = math.inf, *,
                low_open: bool = False, high_open: bool = False, where: str = "") -> float:
    """``float(value)`` if it is a finite real number in the interval (closed unless open)."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if ok:
        v = float(value)
        ok = (v > low if low_open else v >= low) and (v < high if high_open else v <= high)
    if not ok:
        lo = "(" if low_open else "["
        hi = ")" if high_open else "]"
        raise ConfigError(f"{_prefix(where)}{name} must be a number in {lo}{low}, {high}{hi}, got {value!r}")
    return float(value)


def check_dropout(name: str, value: Any, where: str = "") -> float:
    """A dropout probability in ``[0, 1)``."""
    return check_float(name, value, 0.0, 1.0, high_open=True, where=where)


def check_choice(name: str, value: Any, choices, where: str = "") -> Any:
    """``value`` if it is one of ``choices``."""
    if value not in choices:
        raise ConfigError(f"{_prefix(where)}{name} must be one of {', '.join(map(repr, choices))}, "
                          f"got {value!r}")
    return value


def check_bool(name: str, value: Any, where: str = "") -> bool:
    """``value`` if it is ``True`` or ``False`` (not 0/1, not a string)."""
    if not isinstance(value, bool):
        raise ConfigError(f"{_prefix(where)}{name} must be true or false, got {value!r}")
    return value


def check_device(name: str, value: Any, where: str = ""):
    """The :class:`torch.device` named by ``value`` if this machine has it: ``cpu``, ``cuda`` or
    ``cuda:N`` with ``N`` below the number of visible GPUs."""
    import torch

    try:
        device = torch.device(value)
    except (RuntimeError, TypeError, ValueError):
        raise ConfigError(f"{_prefix(where)}{name} {value}: not a device (expected cpu, cuda or cuda:N)") from None
    if device.type == "cpu":
        return device
    if device.type != "cuda":
        raise ConfigError(f"{_prefix(where)}{name} {value}: unsupported device type (expected cpu, cuda or cuda:N)")
    if not torch.cuda.is_available():
        why = "this torch build has no CUDA support" if torch.version.cuda is None else "no GPU is visible"
        raise ConfigError(f"{_prefix(where)}{name} {value}: CUDA is not available ({why}); use cpu")
    count = torch.cuda.device_count()
    if device.index is not None and device.index >= count:
        raise ConfigError(f"{_prefix(where)}{name} {value}: only {count} GPU(s) are visible")
    return device


def check_input_file(name: str, path: Any, what: str = "file") -> Path:
    """``Path(path)`` if it is an existing, readable regular file."""
    p = Path(path)
    if p.is_dir():
        raise DataError(f"{name} {p}: is a directory, expected a {what}")
    if not p.exists():
        raise DataError(f"{name} {p}: {what} not found")
    if not os.access(p, os.R_OK):
        raise DataError(f"{name} {p}: {what} is not readable")
    return p


def check_input_dir(name: str, path: Any, what: str = "directory") -> Path:
    """``Path(path)`` if it is an existing, readable directory."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise DataError(f"{name} {p}: is a file, expected a {what}")
    if not p.is_dir():
        raise DataError(f"{name} {p}: {what} not found")
    if not os.access(p, os.R_OK | os.X_OK):
        raise DataError(f"{name} {p}: {what} is not readable")
    return p


def check_output_dir(name: str, path: Any) -> Path:
    """``Path(path)``, created with its parents if missing, if a file can be written into it
    (tried with a temporary file, which is removed)."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise DataError(f"{name} {p}: exists and is not a directory")
    try:
        p.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=p):
            pass
    except OSError as exc:
        raise DataError(f"{name} {p}: cannot write into the directory ({exc.strerror})") from None
    return p


def check_output_file(name: str, path: Any) -> Path:
    """``Path(path)`` if a file can be written there: its directory exists and the file can be
    opened for writing (tried without truncating it; a file created by the try is removed)."""
    p = Path(path)
    if p.is_dir():
        raise DataError(f"{name} {p}: is a directory, expected a file name")
    if not p.parent.is_dir():
        raise DataError(f"{name} {p}: the directory {p.parent} does not exist")
    existed = p.exists()
    try:
        with open(p, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise DataError(f"{name} {p}: cannot write the file ({exc.strerror})") from None
    if not existed:
        p.unlink()
    return p


# ---------------------------------------------------------------- type conversion
def _is_union(origin: Any) -> bool:
    return origin is typing.Union or origin is types.UnionType


def type_name(tp: Any) -> str:
    """A declared type as a message names it: ``one of 'a', 'b'``, ``int or null``, ``float``."""
    origin = typing.get_origin(tp)
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in typing.get_args(tp))
    if _is_union(origin):
        names = [type_name(a) for a in typing.get_args(tp) if a is not type(None)]
        return " or ".join(names) + " or null"
    return getattr(tp, "__name__", str(tp))


def coerce(value: Any, tp: Any) -> Any:
    """Return ``value`` converted to type ``tp`` or raise ``ValueError``.

    Strict about the kind (a bool is not an int, a str is not a number) except that an int is
    accepted for a float and a numeric string for a float (PyYAML reads ``1e-3`` as a string).
    """
    origin = typing.get_origin(tp)
    if origin is Literal:
        if value in typing.get_args(tp):
            return value
        raise ValueError
    if _is_union(origin):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return coerce(value, arg)
            except ValueError:
                pass
        raise ValueError
    if tp is Any:
        return value
    if tp is bool:
        if isinstance(value, bool):
            return value
        raise ValueError
    if tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise ValueError
    if tp is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str):
            return float(value)
        raise ValueError
    if tp is str:
        if isinstance(value, str):
            return value
        raise ValueError
    if origin is dict or tp is dict:
        if isinstance(value, dict):
            return value
        raise ValueError
    raise ValueError


__all__ = ["check_bool", "check_choice", "check_device", "check_dropout", "check_float",
           "check_input_dir", "check_input_file", "check_int", "check_output_dir",
           "check_output_file", "coerce", "type_name"]
