"""`make test` must fail when a stored notebook number, a citation or a local link is broken.

Each test builds the smallest thing that shows it: a one-cell notebook under nbval, a one-page
book with our _config.yml. Both the broken and the intact variant are run, so the test shows the
check discriminates rather than always failing.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent

pytestmark = pytest.mark.slow


def notebook(tmp_path: Path, source: str, stored: str) -> Path:
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell(source, execution_count=1)
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=stored)]
    nb.cells = [cell]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = tmp_path / "chapter.ipynb"
    nbformat.write(nb, path)
    return path


def nbval(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "--nbval", str(path), "-q", "-p", "no:cacheprovider",
         "--nbval-sanitize-with", str(ROOT / "tests" / "nbval_sanitize.cfg")],
        cwd=path.parent, capture_output=True, text=True, timeout=300,
    )


def test_nbval_fails_on_a_changed_exact_number(tmp_path):
    src = "from companion.repro import fmt\nprint(fmt(2 / 3, 4))"
    assert nbval(notebook(tmp_path, src, "0.6667\n")).returncode == 0
    proc = nbval(notebook(tmp_path, src, "0.6666\n"))
    assert proc.returncode != 0 and "0.6666" in proc.stdout


def test_nbval_fails_when_a_training_number_leaves_its_band(tmp_path):
    ok = "from companion.repro import check\ncheck('test BLEU', 60.9, recorded=61.4, tol=1.5)"
    assert nbval(notebook(tmp_path, ok, "test BLEU: 61.4 ± 1.5 ✓\n")).returncode == 0
    bad = ok.replace("60.9", "58.0")
    proc = nbval(notebook(tmp_path, bad, "test BLEU: 61.4 ± 1.5 ✓\n"))
    assert proc.returncode != 0 and "outside the recorded band" in proc.stdout


def build_one_page_book(tmp_path: Path, page: str) -> subprocess.CompletedProcess:
    book = tmp_path / "b"
    (book / "book").mkdir(parents=True)
    shutil.copy(ROOT / "_config.yml", book / "_config.yml")
    shutil.copy(ROOT / "book" / "references.bib", book / "book" / "references.bib")
    (book / "_toc.yml").write_text("format: jb-book\nroot: book/intro\n", encoding="utf-8")
    (book / "book" / "intro.md").write_text(page, encoding="utf-8")
    (book / "book" / "other.md").write_text("# Other\n", encoding="utf-8")
    return subprocess.run(
        [str(BIN / "jupyter-book"), "build", "-W", "-n", "--keep-going", str(book)],
        capture_output=True, text=True, timeout=300,
    )


def test_book_build_fails_on_an_unknown_citation(tmp_path):
    good = build_one_page_book(tmp_path / "good", "# Intro\n\nSee {cite}`sutskever2014`.\n\n```{bibliography}\n```\n")
    assert good.returncode == 0, good.stdout[-3000:] + good.stderr[-3000:]
    bad = build_one_page_book(tmp_path / "bad", "# Intro\n\nSee {cite}`sutskever2041`.\n\n```{bibliography}\n```\n")
    assert bad.returncode != 0
    assert "sutskever2041" in bad.stdout + bad.stderr


def test_book_build_fails_on_a_broken_local_link(tmp_path):
    bad = build_one_page_book(tmp_path / "bad", "# Intro\n\nSee [the next chapter](missing.md).\n")
    assert bad.returncode != 0
    assert "missing" in bad.stdout + bad.stderr
