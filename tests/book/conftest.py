"""Fixtures for the tests of the *built* book (``_build/html``).

``make test`` builds the book from the nbval-checked notebooks first and sets
``COMPANION_REQUIRE_BOOK=1``, so a missing build is a failure there; a plain ``pytest`` run
without a build skips these tests and says why.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "_build" / "html"


def book_pages() -> list[Path]:
    """The HTML pages a reader navigates: index.html plus every page built from _toc.yml."""
    return sorted((HTML / "book").glob("*.html"))


@pytest.fixture(scope="session")
def built_book() -> Path:
    if not (HTML / "index.html").exists() or not book_pages():
        message = "the book is not built: run `make book` (or `make test`, which builds it)"
        if os.environ.get("COMPANION_REQUIRE_BOOK") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return HTML


def chromium() -> str:
    """The headless browser's executable; skips the test where there is none."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no Chromium on PATH: `apt-get install -y chromium` (.ci/run installs it)")
