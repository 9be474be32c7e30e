"""Argument checks shared by models, decoding and training: each raises a one-line
:class:`~companion.errors.ConfigError` that names where the value came from."""

from __future__ import annotations

import math
from typing import Any

from companion.errors import ConfigError


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


__all__ = ["check_choice", "check_dropout", "check_float", "check_int"]
