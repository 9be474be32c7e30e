"""The chapters' prose as a reader gets it: no template left unfilled, no TODO, no pointer to a
text the reader cannot see, and every code excerpt included from the package's source."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "book").glob("*.ipynb")) + sorted((ROOT / "book").glob("*.md"))

#: unfilled templates and notes to self
LEFTOVERS = [
    (re.compile(r"%\([A-Za-z_][A-Za-z0-9_]*\)[sdfr]"), "a %(...)s template"),
    (re.compile(r"\{\{.*?\}\}", re.S), "a {{...}} template"),
    (re.compile(r"\b(TODO|FIXME|XXX)\b"), "a TODO note"),
    (re.compile(r"%%[A-Z_]+%%|«[A-Z_]+»"), "a %%NAME%% / «NAME» placeholder"),
]
#: texts the reader of the book cannot see
UNSEEN = re.compile(r"seed document|the seed's|seeds?/\d{3}|source document|the lecture notes", re.I)


def markdown_of(path: Path) -> list[tuple[str, str]]:
    """``(where, text)`` of every markdown cell of a notebook, or of a markdown page."""
    if path.suffix == ".md":
        return [(path.name, path.read_text(encoding="utf-8"))]
    nb = json.loads(path.read_text(encoding="utf-8"))
    return [(f"{path.name} cell {i}", "".join(c["source"]))
            for i, c in enumerate(nb["cells"]) if c["cell_type"] == "markdown"]


def leftovers(text: str) -> list[str]:
    return [what for pattern, what in LEFTOVERS if pattern.search(text)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_template_or_todo_is_left_in_the_prose(page):
    found = [f"{where}: {what}" for where, text in markdown_of(page) for what in leftovers(text)]
    assert not found, "; ".join(found)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_prose_points_only_to_texts_the_reader_can_see(page):
    found = [f"{where}: {m.group(0)!r}" for where, text in markdown_of(page)
             for m in UNSEEN.finditer(text)]
    assert not found, "; ".join(found)


@pytest.mark.parametrize("text, expected", [
    ("The score was %(BLEU_TEXT)s today.", ["a %(...)s template"]),
    ("Fill {{ value }} in.", ["a {{...}} template"]),
    ("TODO: rewrite this", ["a TODO note"]),
    ("%%ABLATION_TEXT%%", ["a %%NAME%% / «NAME» placeholder"]),
    ("«VERDICTS»", ["a %%NAME%% / «NAME» placeholder"]),
    ("A sentence with $x_{t}$ and {cite}`bahdanau2015`.", []),
])
def test_the_leftover_scanner_flags_templates(text, expected):
    assert leftovers(text) == expected


def test_literalincludes_point_at_existing_package_objects():
    """Every ``literalinclude`` of a chapter names an existing file and, with ``:pyobject:``,
    an object defined in it, so the code a reader sees is the code that runs."""
    import ast

    pattern = re.compile(r"```\{literalinclude\}\s+(\S+)\s*\n((?::[a-z-]+:.*\n)*)")
    for page in PAGES:
        for where, text in markdown_of(page):
            for m in pattern.finditer(text + "\n"):
                target = (page.parent / m.group(1)).resolve()
                assert target.is_file(), f"{where}: {m.group(1)} does not exist"
                obj = re.search(r":pyobject:\s*(\S+)", m.group(2))
                if obj:
                    tree = ast.parse(target.read_text(encoding="utf-8"))
                    names = set()
                    for node in ast.walk(tree):
                        if isinstance(node, ast.ClassDef):
                            names.add(node.name)
                            names.update(f"{node.name}.{n.name}" for n in node.body
                                         if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
                        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                            names.add(node.name)
                    assert obj.group(1) in names, f"{where}: {obj.group(1)} is not in {m.group(1)}"
