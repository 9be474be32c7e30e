"""`make test` must fail when a stored notebook number, a citation or a local link is broken.

Each test builds the smallest thing that shows it: a one-cell notebook under nbval, a one-page
book with our _config.yml. Both the broken and the intact variant are run, so the test shows the
check discriminates rather than always failing.
"""

from __future__ import annotations

import re
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


# --- glued numbers and HTML tables: what nbval compares, what the page shows -----------------


def executed(tmp_path: Path, name: str, sources: list[str]) -> Path:
    """A notebook of ``sources`` executed by a real kernel (its outputs stored), at tmp_path/name."""
    import nbclient

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    path = tmp_path / name
    nbformat.write(nb, path)
    return path


def with_sources(path: Path, sources: list[str]) -> Path:
    """The same notebook, its stored outputs kept, its cells' code replaced."""
    nb = nbformat.read(path, as_version=4)
    for cell, source in zip(nb.cells, sources):
        cell.source = source
    nbformat.write(nb, path)
    return path


GLUE_MEASURED = ("from companion.repro import glue_number\n"
                 "glue_number('bleu', {}, '.2f', recorded=91.9, tol=1.5)")
GLUE_EXACT = "from companion.repro import glue_number\nglue_number('pairs', {}, ',d')"
TABLE = ("from companion.evaluation.tables import html_table\n"
         "html_table([{{'model': '{}', 'BLEU': {}}}], measured=['BLEU'])")


def test_nbval_compares_measured_glue_and_table_cells_by_band_and_the_rest_exactly(tmp_path):
    cells = [GLUE_MEASURED.format(91.87), GLUE_EXACT.format(100000), TABLE.format("RNNsearch", 91.87)]
    # another CPU: the measured number and the measured table cell differ in their last digits
    nb = with_sources(executed(tmp_path, "a.ipynb", cells),
                      [GLUE_MEASURED.format(91.84), cells[1], TABLE.format("RNNsearch", 91.84)])
    proc = nbval(nb)
    assert proc.returncode == 0, proc.stdout[-3000:]
    # ... outside its band it fails on the check, not on the digits
    proc = nbval(with_sources(nb, [GLUE_MEASURED.format(80.0)] + cells[1:]))
    assert proc.returncode != 0 and "outside the recorded band" in proc.stdout
    # an exact glue and a table label are compared exactly
    proc = nbval(with_sources(nb, [cells[0], GLUE_EXACT.format(100001), cells[2]]))
    assert proc.returncode != 0 and "100,001" in proc.stdout
    proc = nbval(with_sources(nb, cells[:2] + [TABLE.format("RNNencdec", 91.87)]))
    assert proc.returncode != 0 and "RNNencdec" in proc.stdout


def test_the_book_pastes_glued_values_and_renders_html_tables(tmp_path):
    """myst-nb pastes a measured glue without its marker, an exact one as formatted, glued
    markdown as markdown, into the notebook's own page and into another page; html_table is an
    HTML table on the page."""
    book = tmp_path / "b"
    (book / "book").mkdir(parents=True)
    config = (ROOT / "_config.yml").read_text(encoding="utf-8")
    (book / "_config.yml").write_text(
        config.replace("  execute_notebooks: cache", '  execute_notebooks: "off"'), encoding="utf-8")
    shutil.copy(ROOT / "book" / "references.bib", book / "book" / "references.bib")
    (book / "_toc.yml").write_text("format: jb-book\nroot: book/intro\nchapters:\n  - file: book/ch\n",
                                   encoding="utf-8")
    (book / "book" / "intro.md").write_text(
        "# Intro\n\nThe chapter measures {glue:text}`ch.ipynb::bleu:s` BLEU.\n", encoding="utf-8")
    path = executed(book / "book", "ch.ipynb", [
        GLUE_MEASURED.format(91.874) + "\nglue_number('pairs', 100000, ',d')\n"
        "from companion.repro import glue_text\nglue_text('best', ['3-5', '6-9'], measured=True)\n"
        "glue_text('md', '*every* bucket', markdown=True)",
        TABLE.format("RNNsearch", 91.874),
    ])
    nb = nbformat.read(path, as_version=4)
    nb.cells.insert(0, nbformat.v4.new_markdown_cell(
        "# Chapter\n\nBLEU {glue:text}`bleu` on {glue:text}`pairs` pairs; best on {glue:text}`best`; "
        "wins on {glue:md}`md`."))
    nbformat.write(nb, path)
    proc = subprocess.run([str(BIN / "jupyter-book"), "build", "-W", "-n", "--keep-going", str(book)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    page = (book / "_build" / "html" / "book" / "ch.html").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", "", page)
    assert "BLEU 91.87 on 100,000 pairs; best on 3-5 and 6-9; wins on every bucket." in " ".join(text.split())
    assert "<em>every</em>" in page and "companion:measured" not in page
    assert re.search(r'<table class="table companion-table"', page) and "<table: 1 rows" not in page
    intro = (book / "_build" / "html" / "book" / "intro.html").read_text(encoding="utf-8")
    assert "The chapter measures 91.87 BLEU." in " ".join(re.sub(r"<[^>]+>", "", intro).split())
