"""Headless Chromium opens every page of the built book, as a reader would.

For each page the harness (browser_harness.html) reports whether MathJax rendered the page's math
(``mjx-container`` elements, no ``mjx-merror``), whether every image loaded, and whether Korean
text got the offline Hangul font. A screenshot of
each page is kept in ``_build/screenshots/`` for a person to look at.
"""

from __future__ import annotations

import functools
import json
import re
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.book.conftest import ROOT, book_pages, chromium

pytestmark = [pytest.mark.builtbook, pytest.mark.browser]

HARNESS = Path(__file__).with_name("browser_harness.html")
SHOTS = ROOT / "_build" / "screenshots"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--hide-scrollbars",
]


def run_chromium(*args: str) -> str:
    with tempfile.TemporaryDirectory() as profile:
        proc = subprocess.run(
            [chromium(), *FLAGS, f"--user-data-dir={profile}", *args],
            capture_output=True, text=True, timeout=120,
        )
    assert proc.returncode == 0, f"chromium failed ({proc.returncode}): {proc.stderr[-2000:]}"
    return proc.stdout


@functools.lru_cache(maxsize=None)
def inspect_page(page: Path) -> dict:
    url = f"{HARNESS.as_uri()}#{quote(page.as_uri(), safe='')}"
    dom = run_chromium("--allow-file-access-from-files", "--virtual-time-budget=30000", "--dump-dom", url)
    match = re.search(r'<pre id="result">(.*?)</pre>', dom, re.S)
    assert match and match.group(1) != "pending", f"the harness did not report on {page.name}"
    return json.loads(match.group(1).replace("&quot;", '"').replace("&amp;", "&"))


def pages() -> list[Path]:
    return book_pages() or [ROOT / "_build" / "html" / "book" / "intro.html"]


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.stem)
def test_page_renders_math_and_images(built_book, page):
    report = inspect_page(page)
    if report["math_sources"]:
        assert report["mjx_containers"] > 0, f"{page.name}: math present but MathJax rendered none"
    assert report["mjx_errors"] == 0, f"{page.name}: MathJax reported {report['mjx_errors']} errors"
    assert not report["broken_images"], f"{page.name}: images did not load: {report['broken_images']}"
    if report["has_hangul"]:
        assert report["hangul_font_loaded"], f"{page.name}: Korean text but the Hangul web font did not load"
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot = SHOTS / f"{page.stem}.png"
    run_chromium("--window-size=1280,1600", "--virtual-time-budget=15000", f"--screenshot={shot}", page.as_uri())
    assert shot.exists() and shot.stat().st_size > 10_000, f"no screenshot of {page.name}"


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.stem)
def test_no_output_or_table_scrolls_sideways_at_1280px(built_book, page):
    """Results tables fit the page (html_table: short headers that wrap); printed text and
    tables wider than the column get a horizontal scrollbar, which this reports."""
    wide = inspect_page(page)["wide_outputs"]
    assert not wide, (f"{page.name}: {len(wide)} outputs need a horizontal scrollbar at 1280 px: "
                      + "; ".join(f"{w['text']!r} ({w['scroll_width']} > {w['client_width']} px)" for w in wide))


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.stem)
def test_no_table_header_breaks_inside_a_word(built_book, page):
    """A header reads "BLEU", never "BLE" over "U": headers wrap between words only."""
    broken = inspect_page(page)["broken_header_words"]
    assert not broken, f"{page.name}: table headers broken inside a word: {broken[:10]}"


def test_the_harness_reports_a_header_broken_inside_a_word(tmp_path):
    """The header check can fail: a word forced to break in a narrow header is reported, the same
    header that fits is not."""
    chromium()  # skips without a browser
    def table(style):
        return (f"<html><head><style>th {{ {style} }}</style></head><body><div class='cell_output'>"
                "<table><tr><th>perplexity</th></tr><tr><td>1</td></tr></table></div></body></html>")
    narrow = tmp_path / "narrow.html"
    narrow.write_text(table("width: 20px; max-width: 20px; overflow-wrap: anywhere;"), encoding="utf-8")
    whole = tmp_path / "whole.html"
    whole.write_text(table("word-break: keep-all;"), encoding="utf-8")
    assert inspect_page(narrow)["broken_header_words"] == ["perplexity"]
    assert inspect_page(whole)["broken_header_words"] == []


def test_intro_has_rendered_math(built_book):
    report = inspect_page(built_book / "book" / "intro.html")
    assert report["mjx_containers"] >= 2


def test_the_harness_reports_an_output_wider_than_the_page(tmp_path):
    """The sideways-scroll check can fail: a 3000 px line in an output area is reported, a
    short one is not."""
    chromium()  # skips without a browser
    style = "<style>.cell_output pre { overflow-x: auto; }</style>"
    wide = tmp_path / "wide.html"
    wide.write_text(f"<html><head>{style}</head><body><div class='cell_output'><pre>{'x' * 400}</pre>"
                    "</div></body></html>", encoding="utf-8")
    narrow = tmp_path / "narrow.html"
    narrow.write_text(f"<html><head>{style}</head><body><div class='cell_output'><pre>short</pre>"
                      "</div></body></html>", encoding="utf-8")
    reported = inspect_page(wide)["wide_outputs"]
    assert len(reported) == 1 and reported[0]["text"].startswith("xxx")
    assert reported[0]["scroll_width"] > reported[0]["client_width"]
    assert inspect_page(narrow)["wide_outputs"] == []
