"""companion.evaluation.tables.html_table: what a chapter displays as a results table."""

from __future__ import annotations

import math
import re
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
import torch

from companion.errors import ConfigError, DataError
from companion.evaluation.tables import MEASURED_CLASS, HTMLTable, html_table

SANITIZE = Path(__file__).with_name("nbval_sanitize.cfg")


class _Cells(HTMLParser):
    """Header and body cell texts of one table, and the class of every body cell."""

    def __init__(self) -> None:
        super().__init__()
        self.head: list[str] = []
        self.body: list[list[str]] = []
        self.classes: list[list[str | None]] = []
        self._cell: str | None = None
        self._tag = ""

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.body.append([])
            self.classes.append([])
        if tag in ("th", "td"):
            self._cell, self._tag = "", tag
            if tag == "td":
                self.classes[-1].append(dict(attrs).get("class"))

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data

    def handle_endtag(self, tag):
        if tag in ("th", "td") and self._cell is not None:
            (self.head if tag == "th" else self.body[-1]).append(self._cell)
            self._cell = None


def parse(table: HTMLTable) -> _Cells:
    cells = _Cells()
    cells.feed(table._repr_html_())
    cells.body = [row for row in cells.body if row]
    cells.classes = [row for row in cells.classes if row]
    return cells


ROWS = [{"model": "RNNsearch", "BLEU": 91.873, "sentences": 115, "AER": None},
        {"model": "RNNencdec", "BLEU": float("nan"), "sentences": 34500, "AER": -0.0001}]


def test_an_html_table_with_fixed_formats_and_no_nan():
    t = html_table(ROWS, digits={"AER": 3}, headers={"sentences": "n"})
    cells = parse(t)
    assert cells.head == ["model", "BLEU", "n", "AER"]
    assert cells.body == [["RNNsearch", "91.87", "115", "—"], ["RNNencdec", "—", "34,500", "0.000"]]
    assert "nan" not in t._repr_html_().lower()
    assert t.rows == cells.body and t.columns == ["model", "BLEU", "n", "AER"]


def test_the_plain_repr_is_a_fixed_summary():
    """nbval compares text/plain: it must not hold a CPU-dependent digit."""
    assert repr(html_table(ROWS)) == "<table: 2 rows × 4 columns>"
    shifted = [dict(r, BLEU=91.5) for r in ROWS]
    assert repr(html_table(shifted)) == repr(html_table(ROWS))


def test_sequence_rows_numpy_and_torch_scalars_negatives_and_booleans():
    t = html_table([("a", np.float32(1.25), torch.tensor(3), True), ("b", -2.5, np.int64(-4), False)],
                   columns=["name", "x", "n", "ok"], digits=1)
    assert parse(t).body == [["a", "1.2", "3", "yes"], ["b", "−2.5", "−4", "no"]]
    assert parse(html_table([{"x": math.inf}])).body == [["∞"]]


def test_measured_cells_are_marked_and_blanked_by_the_nbval_sanitizer():
    from nbval.plugin import get_sanitize_patterns

    patterns = get_sanitize_patterns(SANITIZE.read_text(encoding="utf-8"))

    def sanitized(table):
        text = table._repr_html_()
        for regex, replace in patterns:
            text = re.sub(regex, replace, text)
        return text

    t = html_table(ROWS, measured=["BLEU"])
    assert parse(t).classes[0] == [None, MEASURED_CLASS, None, None]
    other_cpu = html_table([dict(r, BLEU=91.79) for r in ROWS], measured=["BLEU"])
    assert sanitized(t) == sanitized(other_cpu)  # another CPU's digits pass nbval
    changed_label = html_table([dict(r, model=r["model"] + "!") for r in ROWS], measured=["BLEU"])
    assert sanitized(t) != sanitized(changed_label)  # labels are still compared exactly
    changed_count = html_table([dict(r, sentences=r["sentences"] + 1) for r in ROWS], measured=["BLEU"])
    assert sanitized(t) != sanitized(changed_count)  # so are unmeasured numbers
    every_number = parse(html_table(ROWS, measured=True)).classes[0]
    assert every_number == [None, MEASURED_CLASS, MEASURED_CLASS, MEASURED_CLASS]


def test_text_is_escaped():
    t = html_table([{"sentence": "<b>x</b> & y"}])
    assert "&lt;b&gt;x&lt;/b&gt; &amp; y" in t._repr_html_()


@pytest.mark.parametrize("call, error, message", [
    (lambda: html_table([]), DataError, "no rows"),
    (lambda: html_table([(1, 2)]), DataError, "need columns="),
    (lambda: html_table([(1, 2)], columns=["a"]), DataError, "row 0 has 2 values for 1 columns"),
    (lambda: html_table(ROWS, headers={"bleu": "B"}), ConfigError, "headers for unknown columns ['bleu']"),
    (lambda: html_table(ROWS, measured=["ppl"]), ConfigError, "measured columns ['ppl'] are not columns"),
    (lambda: html_table(ROWS, measured="BLEU"), ConfigError, "measured must be True, False or a list"),
    (lambda: html_table(ROWS, digits=-1), ConfigError, "integer 0-12"),
    (lambda: html_table(ROWS, digits={"AER": 2.5}), ConfigError, "digits for 'AER'"),
])
def test_user_errors_are_one_line(call, error, message):
    with pytest.raises(error, match=re.escape(message)):
        call()
