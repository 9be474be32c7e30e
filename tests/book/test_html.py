"""The built HTML is self-contained: nothing loads from the network, every local link resolves,
every citation resolved, every chapter of _toc.yml was rendered."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import yaml

from tests.book.conftest import ROOT, book_pages

pytestmark = pytest.mark.builtbook


class _Refs(HTMLParser):
    """Collects (tag, attribute, url) for every script/link/img/a reference in a page."""

    def __init__(self) -> None:
        super().__init__()
        self.refs: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for attr in ("src", "href"):
            if a.get(attr):
                self.refs.append((tag, attr, a[attr]))


def refs_of(page: Path) -> list[tuple[str, str, str]]:
    parser = _Refs()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.refs


def remote_assets(page: Path) -> list[str]:
    """Scripts, stylesheets, images and iframes that a browser would fetch from the network."""
    bad = []
    for tag, attr, url in refs_of(page):
        fetched = (tag in ("script", "img", "iframe") and attr == "src") or (tag == "link" and attr == "href")
        if fetched and (url.startswith("//") or urlsplit(url).scheme in ("http", "https")):
            bad.append(f"<{tag} {attr}={url}>")
    return bad


def broken_local_links(page: Path, root: Path) -> list[str]:
    """Local href/src targets (files, and #anchors in them) that do not exist."""
    broken = []
    for tag, attr, url in refs_of(page):
        parts = urlsplit(url)
        if parts.scheme or url.startswith("//") or url.startswith("mailto:"):
            continue
        target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
        if not target.exists() or (target.is_dir() and not (target / "index.html").exists()):
            broken.append(f"<{tag} {attr}={url}>")
            continue
        if parts.fragment and target.suffix == ".html" and tag == "a":
            ids = set(re.findall(r'\sid="([^"]+)"', target.read_text(encoding="utf-8")))
            if unquote(parts.fragment) not in ids:
                broken.append(f"<{tag} {attr}={url}> (no such anchor)")
    return broken


def test_every_toc_page_was_built(built_book):
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = [toc["root"]] + [c["file"] for c in toc.get("chapters", [])]
    for f in files:
        assert (built_book / f"{Path(f).with_suffix('')}.html").exists(), f"{f} listed in _toc.yml was not rendered"


def test_no_page_loads_anything_from_the_network(built_book):
    pages = [built_book / "index.html", built_book / "search.html", *book_pages()]
    offenders = {p.name: remote_assets(p) for p in pages if remote_assets(p)}
    assert not offenders, f"remote assets: {offenders}"


def test_mathjax_is_served_locally(built_book):
    assert (built_book / "_static" / "mathjax" / "tex-chtml.js").exists()
    intro = (built_book / "book" / "intro.html").read_text(encoding="utf-8")
    assert "_static/mathjax/tex-chtml.js" in intro


def test_every_local_link_resolves(built_book):
    broken = {p.name: broken_local_links(p, built_book) for p in book_pages()}
    broken = {k: v for k, v in broken.items() if v}
    assert not broken, f"broken local links: {broken}"


def test_every_citation_resolved(built_book):
    for page in book_pages():
        text = page.read_text(encoding="utf-8")
        # sphinxcontrib-bibtex renders an unknown key as the raw key followed by "?" inside the
        # citation span; -W turns the warning into a build failure, this catches the output.
        assert not re.search(r'class="[^"]*cite[^"]*"[^>]*>[^<]*\?<', text), f"unresolved citation in {page.name}"
    refs = (built_book / "book" / "references.html").read_text(encoding="utf-8")
    assert "sequence to sequence learning with neural networks" in refs.lower()


# --- the checkers themselves must be able to fail -------------------------------------------


def test_remote_asset_scanner_flags_a_cdn_script(tmp_path):
    page = tmp_path / "p.html"
    page.write_text(
        '<script src="https://cdn.example.org/mathjax.js"></script>'
        '<link rel="stylesheet" href="//cdn.example.org/x.css"><a href="https://example.org">ok</a>',
        encoding="utf-8",
    )
    assert remote_assets(page) == [
        "<script src=https://cdn.example.org/mathjax.js>",
        "<link href=//cdn.example.org/x.css>",
    ]


def test_link_checker_flags_missing_files_and_anchors(tmp_path):
    (tmp_path / "b.html").write_text('<h1 id="here">b</h1>', encoding="utf-8")
    page = tmp_path / "a.html"
    page.write_text(
        '<a href="b.html#here">fine</a><a href="b.html#gone">x</a><img src="fig.png"><a href="#top">t</a>',
        encoding="utf-8",
    )
    assert broken_local_links(page, tmp_path) == [
        "<a href=b.html#gone> (no such anchor)",
        "<img src=fig.png>",
        "<a href=#top> (no such anchor)",
    ]


# --- what a reader sees in the chapters' outputs ---------------------------------------------


class _Reader(HTMLParser):
    """What a page shows: its visible text, the text of every notebook output area
    (``div.cell_output``), every table's cells, and every image inside an output area."""

    _VOID = {"img", "br", "hr", "meta", "link", "input", "source", "col", "wbr", "area", "base"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.outputs: list[list[str]] = []
        self.tables: list[list[str]] = []
        self.images: list[dict[str, str]] = []
        self._stack: list[str] = []
        self._output_depth: list[int] = []
        self._hidden = 0
        self._cell: list[str] | None = None
        self._figures: list[dict] = []  # open <figure>s: their images and caption text

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("script", "style", "template"):
            self._hidden += 1
        if tag == "img":
            if self._output_depth:
                image = {k: v or "" for k, v in a.items()}
                (self._figures[-1]["images"] if self._figures else self.images).append(image)
            return
        if tag == "figure":
            self._figures.append({"images": [], "caption": [], "in_caption": False})
        if tag == "figcaption" and self._figures:
            self._figures[-1]["in_caption"] = True
        if tag in self._VOID:
            return
        self._stack.append(tag)
        if tag == "div" and "cell_output" in (a.get("class") or "").split():
            self._output_depth.append(len(self._stack))
            self.outputs.append([])
        if tag == "table":
            self.tables.append([])
        if tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template"):
            self._hidden = max(0, self._hidden - 1)
        if tag in self._VOID or tag not in self._stack:
            return
        while self._stack:
            top = self._stack.pop()
            if self._output_depth and len(self._stack) < self._output_depth[-1]:
                self._output_depth.pop()
            if top == "figcaption" and self._figures:
                self._figures[-1]["in_caption"] = False
            if top == "figure" and self._figures:
                figure = self._figures.pop()
                caption = " ".join("".join(figure["caption"]).split())
                self.images += [dict(img, caption=caption) for img in figure["images"]]
            if top in ("td", "th") and self._cell is not None and self.tables:
                self.tables[-1].append(" ".join("".join(self._cell).split()))
                self._cell = None
            if top == tag:
                break

    def handle_data(self, data):
        if self._hidden:
            return
        self.text.append(data)
        if self._output_depth:
            self.outputs[-1].append(data)
        if self._cell is not None:
            self._cell.append(data)
        if self._figures and self._figures[-1]["in_caption"]:
            self._figures[-1]["caption"].append(data)


def read_page(html: str) -> _Reader:
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader


#: a markdown table printed as text: a delimiter row such as |---|---| or | :-- | --: |
MARKDOWN_PIPES = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*$", re.M)
#: an image's default alt text is its file path: no description at all
PATH_LIKE = re.compile(r"(^|/)[^/\s]+\.(png|jpe?g|svg|gif)$", re.I)


def markdown_tables_in_outputs(reader: _Reader) -> list[str]:
    return [" ".join("".join(out).split())[:80] for out in reader.outputs if MARKDOWN_PIPES.search("".join(out))]


def nan_in_tables(reader: _Reader) -> list[str]:
    return [" | ".join(cells)[:120] for cells in reader.tables
            if any(re.search(r"\bnan\b", cell, re.I) for cell in cells)]


def visible_nbval_markers(reader: _Reader) -> list[str]:
    found = []
    for line in "".join(reader.text).splitlines():
        found += [f"{m.group(0)} in {' '.join(line.split())[:80]!r}" for m in re.finditer(r"NBVAL_\w*", line)]
    return found


def images_without_alt_text(reader: _Reader) -> list[str]:
    return [img.get("src", "?") for img in reader.images if not img.get("caption")
            and (not img.get("alt", "").strip() or PATH_LIKE.search(img.get("alt", "").strip()))]


def _pages() -> list[Path]:
    return book_pages() or [ROOT / "_build" / "html" / "book" / "intro.html"]


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.stem)
def test_no_output_prints_a_markdown_table(built_book, page):
    """Results are HTML tables (companion.evaluation.tables.html_table), not printed pipes."""
    found = markdown_tables_in_outputs(read_page(page.read_text(encoding="utf-8")))
    assert not found, f"{page.name}: {len(found)} outputs print |---| tables: {found}"


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.stem)
def test_no_table_shows_nan(built_book, page):
    found = nan_in_tables(read_page(page.read_text(encoding="utf-8")))
    assert not found, f"{page.name}: tables with nan: {found}"


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.stem)
def test_no_nbval_marker_is_visible(built_book, page):
    found = visible_nbval_markers(read_page(page.read_text(encoding="utf-8")))
    assert not found, f"{page.name}: visible nbval markers (use the cell tag): {found}"


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.stem)
def test_every_output_figure_has_alt_text(built_book, page):
    """A figure's alt text describes it (cell metadata ``mystnb: {image: {alt: ...}}``), or it has
    a caption (``mystnb: {figure: {caption: ...}}``); myst-nb's default alt is the file name."""
    found = images_without_alt_text(read_page(page.read_text(encoding="utf-8")))
    assert not found, f"{page.name}: {len(found)} output images without alt text: {found}"


def test_the_output_checks_flag_what_they_should():
    page = (
        '<p>NBVAL_ in prose? no: only <code>x</code></p>'
        '<div class="cell docutils container"><div class="cell_input"><pre># NBVAL_IGNORE_OUTPUT\n'
        'print(t)</pre></div>'
        '<div class="cell_output docutils container"><div class="output"><pre>| a | b |\n|---|---|\n'
        '| 1 | nan |</pre></div></div></div>'
        '<div class="cell_output docutils container"><div><table><tr><th>BLEU</th></tr>'
        '<tr><td>NaN</td></tr></table><img src="../_images/ab12.png" alt="../_images/ab12.png">'
        '<img src="x.png" alt="BLEU by length, three models"><figure><img src="c.png" alt="c.png">'
        '<figcaption><p>Loss per step</p></figcaption></figure><figure><img src="d.png"></figure>'
        '</div></div>'
        '<p>| a | b |</p><p>|---|---|</p><table><tr><td>banana, finance</td></tr></table>'
        '<script>var s = "NBVAL_SKIP";</script>'
    )
    reader = read_page(page)
    assert markdown_tables_in_outputs(reader) == ["| a | b | |---|---| | 1 | nan |"]
    assert nan_in_tables(reader) == ["BLEU | NaN"]
    assert [m.split(" in ")[0] for m in visible_nbval_markers(reader)] == ["NBVAL_", "NBVAL_IGNORE_OUTPUT"]
    assert images_without_alt_text(reader) == ["../_images/ab12.png", "d.png"]
    clean = read_page('<div class="cell_output"><table><tr><td>91.9</td><td>—</td></tr></table>'
                      '<pre>ok: 3 of 3</pre><img src="a.png" alt="loss per step"></div>')
    assert not (markdown_tables_in_outputs(clean) or nan_in_tables(clean) or visible_nbval_markers(clean)
                or images_without_alt_text(clean))
