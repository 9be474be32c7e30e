"""Results tables: HTML for the book's pages, markdown and JSON for the record.

:func:`html_table` is what a chapter displays: a real HTML table (no ``|---|`` pipes in the
page), numbers in a fixed format, a missing value as an em dash (never ``nan``), short headers
that wrap, so it fits the page at 1280 px without a horizontal scrollbar. Its ``text/plain`` form
is a fixed ``<table: R rows × C columns>``; the cells of *measured* columns (training results,
whose last digits differ between CPUs) carry the class :data:`MEASURED_CLASS`, which
``tests/nbval_sanitize.cfg`` blanks, so nbval compares the table's shape, headers and labels
exactly and leaves the numbers to the ``check()`` calls of the cell.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Collection, Mapping, Sequence
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


#: class of a table cell whose value depends on the last bits of training (see the module docstring)
MEASURED_CLASS = "companion-measured"
#: what a missing value (None, NaN) shows as
MISSING = "—"


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _html_cell(value: Any, digits: int) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return MISSING
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if math.isinf(value):
            return "∞" if value > 0 else "−∞"
        text = f"{value:.{digits}f}"
        if text.startswith("-"):
            text = text[1:] if float(text) == 0.0 else "−" + text[1:]  # a typographic minus
        return text
    if isinstance(value, int):
        text = f"{abs(value):,}" if abs(value) >= 10_000 else str(abs(value))
        return "−" + text if value < 0 else text
    return str(value)


class HTMLTable:
    """A table for a notebook output: ``_repr_html_`` is the table, ``repr`` a fixed summary.

    Built by :func:`html_table`; ``rows`` and ``columns`` keep what it was built from."""

    def __init__(self, rows: list[list[str]], columns: list[str], html_text: str) -> None:
        self.rows, self.columns, self._html = rows, columns, html_text

    def _repr_html_(self) -> str:
        return self._html

    def __repr__(self) -> str:
        return f"<table: {len(self.rows)} rows × {len(self.columns)} columns>"


def _plain(value: Any) -> Any:
    """NumPy scalars and one-element tensors as Python numbers; anything else unchanged."""
    import numpy as np
    import torch

    if isinstance(value, np.generic) or (isinstance(value, torch.Tensor) and value.numel() == 1):
        return value.item()
    return value


def _as_rows(rows: Sequence[Any], columns: Sequence[str] | None) -> tuple[list[str], list[list[Any]]]:
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence) or not rows:
        raise DataError("html_table: no rows (expected a non-empty list of dicts or of sequences)")
    if all(isinstance(r, Mapping) for r in rows):
        cols = list(columns) if columns is not None else []
        if columns is None:
            for row in rows:
                cols += [str(c) for c in row if str(c) not in cols]
        return cols, [[row.get(c) for c in cols] for row in rows]
    if columns is None:
        raise DataError("html_table: rows given as sequences need columns=[...] (one name per value)")
    cols = [str(c) for c in columns]
    out = []
    for i, row in enumerate(rows):
        if isinstance(row, (str, bytes, Mapping)) or not isinstance(row, Sequence) or len(row) != len(cols):
            raise DataError(f"html_table: row {i} has {len(row) if isinstance(row, Sequence) else 'no'} "
                            f"values for {len(cols)} columns")
        out.append(list(row))
    return cols, out


def html_table(rows: Sequence[Any], columns: Sequence[str] | None = None, *,
               digits: int | Mapping[str, int] = 2, headers: Mapping[str, str] | None = None,
               measured: bool | Collection[str] = False, caption: str | None = None) -> HTMLTable:
    """An HTML table of ``rows`` for a chapter to display (the last expression of a cell).

    Args:
        rows: dicts (columns in first-seen order, or ``columns``), or sequences with ``columns``.
        columns: the column keys, in order (required for sequence rows).
        digits: decimals of float cells: one number, or per column (default 2 elsewhere).
        headers: the header shown for a column key (keep them short; they wrap).
        measured: the columns whose values depend on the last bits of training (``True``: every
            column holding a number). Their cells are not compared by nbval (see the module
            docstring): the cell must ``check()`` the numbers it states.
        caption: a caption above the table.

    Floats print with fixed decimals (a negative with a typographic minus), integers from 10,000
    up with thousands separators, booleans as yes/no, None and NaN as an em dash.
    """
    cols, values = _as_rows(rows, columns)
    values = [[_plain(v) for v in row] for row in values]
    headers = dict(headers or {})
    unknown = sorted(set(headers) - set(cols))
    if unknown:
        raise ConfigError(f"html_table: headers for unknown columns {unknown} (columns: {cols})")
    per_column = dict(digits) if isinstance(digits, Mapping) else {}
    default = 2 if isinstance(digits, Mapping) else digits
    for name, d in [("*", default), *per_column.items()]:
        if not isinstance(d, int) or isinstance(d, bool) or not 0 <= d <= 12:
            raise ConfigError(f"html_table: digits for {name!r} must be an integer 0-12, got {d!r}")
    numeric = [any(_is_number(row[j]) for row in values) for j in range(len(cols))]
    if measured is True:
        measured_cols = {c for c, num in zip(cols, numeric) if num}
    elif measured is False:
        measured_cols = set()
    elif isinstance(measured, Collection) and not isinstance(measured, str):
        measured_cols = {str(c) for c in measured}
        missing = sorted(measured_cols - set(cols))
        if missing:
            raise ConfigError(f"html_table: measured columns {missing} are not columns ({cols})")
    else:
        raise ConfigError(f"html_table: measured must be True, False or a list of columns, got {measured!r}")
    text = [[_html_cell(v, per_column.get(c, default)) for c, v in zip(cols, row)] for row in values]
    esc = html.escape
    parts = ['<table class="table companion-table" style="width:auto;max-width:100%;'
             'border-collapse:collapse;font-size:0.9em">']
    if caption:
        parts.append(f'<caption style="caption-side:top;text-align:left">{esc(caption)}</caption>')
    parts.append("<thead><tr>")
    for c, num in zip(cols, numeric):
        align = "right" if num else "left"
        parts.append(f'<th style="text-align:{align};white-space:normal">{esc(headers.get(c, c))}</th>')
    parts.append("</tr></thead><tbody>")
    for row in text:
        parts.append("<tr>")
        for c, num, cell in zip(cols, numeric, row):
            klass = f' class="{MEASURED_CLASS}"' if c in measured_cols else ""
            style = "text-align:right;white-space:nowrap" if num else "text-align:left"
            parts.append(f'<td{klass} style="{style}">{esc(cell)}</td>')
        parts.append("</tr>")
    parts.append("</tbody></table>")
    return HTMLTable(text, [headers.get(c, c) for c in cols], "".join(parts))


__all__ = ["MEASURED_CLASS", "MISSING", "HTMLTable", "html_table", "results_markdown", "write_results"]
