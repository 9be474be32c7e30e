"""Results tables: markdown for the book, JSON for the record."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.errors import ConfigError, DataError


def _cell(value: Any, digits: int) -> str:
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:.{digits}f}"
    return str(value)


def results_markdown(rows: Sequence[dict[str, Any]], digits: int = 2) -> str:
    """A markdown table of ``rows`` (dicts); columns in first-seen order, floats fixed-format."""
    if not rows:
        raise DataError("results_markdown: no rows")
    columns: list[str] = []
    for row in rows:
        columns += [c for c in row if c not in columns]
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(_cell(row.get(c), digits) for c in columns) + " |")
    return "\n".join(lines) + "\n"


def write_results(rows: Sequence[dict[str, Any]], path: str | Path, digits: int = 2) -> Path:
    """Write ``rows`` to ``path``: ``.md`` as a markdown table, ``.json`` as a JSON list."""
    path = Path(path)
    if path.suffix == ".md":
        text = results_markdown(rows, digits)
    elif path.suffix == ".json":
        if not rows:
            raise DataError("write_results: no rows")
        text = json.dumps(list(rows), indent=2, ensure_ascii=False) + "\n"
    else:
        raise ConfigError(f"write_results: {path}: unknown table format {path.suffix!r} (use .md or .json)")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


__all__ = ["results_markdown", "write_results"]
