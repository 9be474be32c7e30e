"""The "Try the translator" panel in headless Chromium, as a reader uses it.

A small Transformer is trained (seconds), exported with :func:`companion.export.panel.write_panel`
and placed on a standalone page that includes exactly the files the book ships
(``scripts/build_panel.py`` builds them into the test's folder). Chromium runs with default
flags -- no ``--allow-file-access-from-files`` -- and the page is driven through the DevTools
protocol (:mod:`tests.book.cdp`): sentences are typed into the text box and the Translate button
is clicked. What a reader sees must be what the package computes: 50 test sentences give the
package's greedy translations, beam search its beam translations, and the heatmap is the
package's cross-attention. The timings (first translation, per sentence) are printed for the
bench; nothing asserts on them.
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import json
import socketserver
import sys
import threading
import time

import numpy as np
import pytest
import torch

from tests.book.cdp import Chromium, time_panel
from tests.book.conftest import ROOT, chromium

pytestmark = pytest.mark.browser

SENTENCES = 50
TRAIN_SET = ["--max-steps", "150", "--no-progress", "--set", "data.src_vocab_size=40", "data.tgt_vocab_size=40",
             "data.max_tokens=400", "model.d_model=32", "model.num_heads=2", "model.num_encoder_layers=1",
             "model.num_decoder_layers=2", "model.d_ff=64", "train.eval_every=0", "train.log_every=1000",
             "train.warmup_steps=20", "decode.beam_size=3"]
RNN_SET = ["--max-steps", "150", "--no-progress", "--set", "data.src_vocab_size=40", "data.tgt_vocab_size=40",
           "data.max_tokens=400", "model.embed_dim=16", "model.hidden_size=32", "model.attention_dim=32",
           "model.maxout_dim=16", "train.eval_every=0", "train.log_every=1000", "decode.beam_size=3"]
PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>panel test</title></head>
<body><h1>Try the translator</h1>
<div class="companion-panel" data-model="tiny"></div>
<h2>RNNsearch</h2>
<div class="companion-panel" data-model="tinyrnn"></div>
<script src="_static/companion-panel/panel.js"></script>
</body></html>
"""
PANEL = "document.querySelector('.companion-panel')"
STATE = f"{PANEL}.dataset.state"
RNN_PANEL = "document.querySelector('.companion-panel[data-model=tinyrnn]')"


@functools.lru_cache(maxsize=None)
def build_panel_module():
    spec = importlib.util.spec_from_file_location("build_panel", ROOT / "scripts" / "build_panel.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A trained tiny Transformer, its panel files and a page that shows it; the package's
    greedy and beam translations of the test sentences."""
    chromium()  # skips without a browser
    import companion
    from companion.cli import main
    from companion.export.panel import write_panel

    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from test_cli_train import write_corpus
    finally:
        sys.path.remove(str(ROOT / "tests"))
    base = tmp_path_factory.mktemp("panel")
    data = write_corpus(base / "data", sizes=(("train", 300), ("valid", 30), ("test", SENTENCES)))
    threads, det = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    try:
        assert main(["train", "--config", "cpu/transformer", "--data", str(data), "--out", str(base / "run"),
                     *TRAIN_SET]) == 0
        assert main(["train", "--config", "cpu/rnnsearch", "--data", str(data), "--out", str(base / "rnn"),
                     *RNN_SET]) == 0
    finally:
        torch.set_num_threads(threads)
        torch.use_deterministic_algorithms(det)
    t, rnn = companion.load(base / "run"), companion.load(base / "rnn")
    sources = (data / "test.ko").read_text(encoding="utf-8").splitlines()
    static = base / "site" / "_static"
    panel_dir = build_panel_module().build(static)
    write_panel(t.model, (t.src_vocab, t.tgt_vocab), panel_dir, "tiny", decoding=t.config.decode,
                examples=sources[:3], title="tiny Transformer")
    write_panel(rnn.model, (rnn.src_vocab, rnn.tgt_vocab), panel_dir, "tinyrnn", decoding=rnn.config.decode,
                title="tiny RNNsearch")
    page = base / "site" / "index.html"
    page.write_text(PAGE, encoding="utf-8")
    return {"translator": t, "sources": sources, "page": page, "greedy": t.translate(sources, beam=1),
            "beam": t.translate(sources[:10], beam=t.config.decode.beam_size),
            "rnn": rnn, "rnn_greedy": rnn.translate(sources, beam=1),
            "rnn_beam": rnn.translate(sources[:10], beam=rnn.config.decode.beam_size)}


@pytest.fixture(scope="module")
def browser():
    with Chromium(chromium()) as c:
        yield c


def open_panel(c: Chromium, url: str) -> float:
    """Load the page and wait for the panel to be ready; returns the seconds it took."""
    t0 = time.perf_counter()
    c.navigate(url)
    state = c.wait_for(f"(() => {{ const s = {STATE}; return s !== 'loading' && s; }})()", timeout=90)
    assert state == "ready", c.evaluate(f"{PANEL}.querySelector('.cp-status').textContent")
    return time.perf_counter() - t0


def type_and_translate(c: Chromium, text: str, mode: str = "greedy") -> dict:
    """Type ``text`` into the box, choose ``mode``, press Translate; what the panel shows."""
    c.evaluate(f"""(() => {{ const box = {PANEL}.querySelector('.cp-input');
        box.value = ''; box.focus();
        {PANEL}.querySelector('input[value={mode}]').checked = true;
        {PANEL}.dataset.state = 'typing'; }})()""")
    if text:
        c.type_text(text)
    c.evaluate(f"{PANEL}.querySelector('.cp-go').click()")
    state = c.wait_for(f"(() => {{ const s = {STATE}; return ['done', 'message', 'error'].includes(s) && s; }})()",
                       timeout=120)
    return c.evaluate(f"""(() => ({{state: {json.dumps(state)},
        output: {PANEL}.querySelector('.cp-output').textContent,
        status: {PANEL}.querySelector('.cp-status').textContent,
        typed: {PANEL}.querySelector('.cp-input').value}}))()""")


def test_typed_sentences_give_the_packages_greedy_translations_offline_from_file(site, browser, capsys):
    browser.offline()
    load = open_panel(browser, site["page"].as_uri())
    got, times = [], []
    for i, sentence in enumerate(site["sources"]):
        t0 = time.perf_counter()
        shown = type_and_translate(browser, sentence)
        times.append(time.perf_counter() - t0)
        assert shown["state"] == "done", shown["status"]
        assert shown["typed"] == sentence
        got.append(shown["output"])
    wrong = [(s, g, e) for s, g, e in zip(site["sources"], got, site["greedy"]) if g != e]
    assert not wrong, f"{len(wrong)} of {len(got)} differ from the package's greedy output: {wrong[:5]}"
    assert len(got) == SENTENCES
    assert not [u for u in browser.requested_urls() if not u.startswith("file://")]
    with capsys.disabled():
        print(f"\npanel bench: page ready {load:.2f} s, first translation {times[0] * 1e3:.0f} ms, "
              f"then {np.mean(times[1:]) * 1e3:.0f} ms per sentence typed and translated "
              f"(median {np.median(times[1:]) * 1e3:.0f} ms, {len(times)} sentences, headless Chromium, file://)")


def test_the_model_script_records_the_packages_greedy_translations_of_its_examples(site):
    """What the built-book test compares the chapter's panel with."""
    script = (site["page"].parent / "_static" / "companion-panel" / "models" / "tiny.js").read_text()
    record = json.loads(script.split('root.models["tiny"] = ', 1)[1].rsplit(";\n})", 1)[0])
    assert record["examples"] == site["sources"][:3]
    assert record["package_greedy"] == site["greedy"][:3]


def test_beam_search_gives_the_packages_beam_translations(site, browser):
    open_panel(browser, site["page"].as_uri())
    got = [type_and_translate(browser, s, "beam")["output"] for s in site["sources"][:10]]
    assert got == site["beam"]


def translate_all(c: Chromium, model: str, sentences: list[str], mode: str) -> list[str]:
    """The panel's translations through its script interface, one sentence after another."""
    return c.evaluate(f"""(async () => {{ const out = [];
        for (const s of {json.dumps(sentences)}) out.push((await CompanionPanel.translate({json.dumps(model)}, s,
                                                                                          {json.dumps(mode)})).text);
        return out; }})()""")


def package_attention(translator, sentence: str) -> tuple[list[int], np.ndarray]:
    """The package's greedy tokens of ``sentence`` and their attention (the last layer's mean
    over heads, what ``step_attention`` returns) ``(T, S)``."""
    from companion.decoding.search import greedy_search
    from companion.specials import EOS

    ids = translator.src_vocab.encode(sentence) + [EOS]
    src = torch.tensor([ids])
    d = translator.config.decode
    hyp = greedy_search(translator.model, src, torch.tensor([len(ids)]), max_len_a=d.max_len_a,
                        max_len_b=d.max_len_b, return_attention=True)[0]
    return list(hyp.tokens), hyp.attention.numpy()


def heatmap_cells(c: Chromium) -> dict:
    """The canvas' size, its rows and columns, and the darkness (0 white .. 255) of every cell's
    centre pixel, read back from the canvas."""
    return c.evaluate(f"""(() => {{
        const canvas = {PANEL}.querySelector('.cp-heatmap');
        const g = canvas.getContext('2d');
        const rows = Number(canvas.dataset.rows), cols = Number(canvas.dataset.cols);
        const cell = 22, left = 90, top = 70, dark = [];
        for (let t = 0; t < rows; t++) {{
          const row = [];
          for (let s = 0; s < cols; s++) {{
            const p = g.getImageData(left + s * cell + cell / 2, top + t * cell + cell / 2, 1, 1).data;
            row.push(255 - p[0]);
          }}
          dark.push(row);
        }}
        return {{width: canvas.width, height: canvas.height, rows, cols, dark}};
    }})()""")


def test_the_heatmap_is_the_packages_cross_attention(site, browser):
    open_panel(browser, site["page"].as_uri())
    t = site["translator"]
    sentence = site["sources"][0]
    shown = type_and_translate(browser, sentence)
    assert shown["state"] == "done"
    tokens, attention = package_attention(t, sentence)
    cells = heatmap_cells(browser)
    T, S = attention.shape
    assert (cells["rows"], cells["cols"]) == (len(tokens), S) == (T, S)
    assert cells["width"] == 90 + S * 22 + 4 and cells["height"] == 70 + T * 22 + 4
    dark = np.array(cells["dark"], dtype=float)
    assert dark.max() > 100 and dark.min() < 30  # drawn: dark cells and light cells
    # every row's darkest cell is the package's most attended source position (clear winners)
    for row, weights in zip(dark, attention):
        top2 = np.sort(weights)[-2:]
        if top2[1] - top2[0] > 0.05:
            assert int(row.argmax()) == int(weights.argmax())
    # the darkness follows the weights across the whole map (scaled by the largest weight)
    expected = attention / attention.max() * (255 - 8)  # white .. the red channel of the darkest blue
    assert np.abs(dark - expected).max() <= 2.0
    # the head picker: one head alone draws another map
    heads = browser.evaluate(f"{PANEL}.querySelector('.cp-head').options.length")
    assert heads == 1 + t.model.num_heads
    browser.evaluate(f"(() => {{ const h = {PANEL}.querySelector('.cp-head'); h.value = '0';"
                     "h.dispatchEvent(new Event('change')); })()")
    assert heatmap_cells(browser)["dark"] != cells["dark"]


def test_the_rnnsearch_panel_gives_the_packages_translations_and_its_alignment(site, browser):
    """Chapter 4's model in the same page: one alignment per step (no layer or head to pick)."""
    open_panel(browser, site["page"].as_uri())
    ready = browser.wait_for(f"{RNN_PANEL}.dataset.state === 'ready'", timeout=90)
    assert ready
    assert browser.evaluate(f"{RNN_PANEL}.querySelector('.cp-picker').hidden") is True
    assert translate_all(browser, "tinyrnn", site["sources"], "greedy") == site["rnn_greedy"]
    assert translate_all(browser, "tinyrnn", site["sources"][:10], "beam") == site["rnn_beam"]
    tokens, attention = package_attention(site["rnn"], site["sources"][0])
    shown = browser.evaluate(f"CompanionPanel.translate('tinyrnn', {json.dumps(site['sources'][0])})"
                             ".then(r => ({tokens: r.tokens, attention: r.attention.map(a => Array.from(a))}))")
    assert shown["tokens"] == tokens
    np.testing.assert_allclose(np.array(shown["attention"]), attention, atol=1e-5)


def test_empty_and_overlong_input_get_a_message_and_the_page_still_translates(site, browser):
    open_panel(browser, site["page"].as_uri())
    empty = type_and_translate(browser, "")
    assert empty["state"] == "message" and "Type a Korean sentence" in empty["status"]
    spaces = type_and_translate(browser, "   ")
    assert spaces["state"] == "message"
    long = type_and_translate(browser, ("고양이가 물을 마신다 " * 300)[:3000])
    assert long["state"] == "message" and "3000 characters" in long["status"], long["status"]
    assert long["output"] == ""
    after = type_and_translate(browser, site["sources"][1])
    assert after["state"] == "done" and after["output"] == site["greedy"][1]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def test_served_over_http_with_every_other_host_unreachable(site):
    """Served by a local web server (as GitHub Pages serves the book) to a browser that can
    resolve no host name: the panel loads everything from the server and translates."""
    handler = functools.partial(_QuietHandler, directory=str(site["page"].parent))
    with socketserver.TCPServer(("127.0.0.1", 0), handler) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        origin = f"http://127.0.0.1:{server.server_address[1]}/"
        try:
            with Chromium(chromium(), "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1") as c:
                open_panel(c, origin + "index.html")
                shown = type_and_translate(c, site["sources"][2])
                assert shown["state"] == "done" and shown["output"] == site["greedy"][2]
                urls = c.requested_urls()
                assert urls and all(u.startswith(origin) for u in urls), urls
                assert not c.failed_requests()
        finally:
            server.shutdown()
            thread.join()


def test_time_panel_reports_the_pages_own_timings(site):
    timings = time_panel(chromium(), site["page"].as_uri(), "tiny", site["sources"][:5])
    assert timings["sentences"] == 5 and timings["mode"] == "greedy"
    assert timings["load_s"] > 0 and timings["first_ms"] > 0 and timings["per_sentence_ms"] > 0


def test_the_page_without_its_model_says_so(site, browser, tmp_path):
    """A panel whose model file is missing reports it in one line instead of hanging."""
    page = site["page"].with_name("missing.html")
    page.write_text(PAGE.replace('data-model="tiny"', 'data-model="nosuchmodel"'), encoding="utf-8")
    browser.navigate(page.as_uri())
    state = browser.wait_for(f"(() => {{ const s = {STATE}; return s !== 'loading' && s; }})()", timeout=90)
    assert state == "error"
    assert "could not load models/nosuchmodel.js" in browser.evaluate(f"{PANEL}.querySelector('.cp-status').textContent")


@pytest.mark.builtbook
@pytest.mark.parametrize("page, name", [("05_transformer", "transformer"), ("04_attention", "rnnsearch")])
def test_the_built_chapter_carries_a_working_panel(built_book, page, name):
    """Chapters 5 (the Transformer) and 4 (RNNsearch) of the built book place the panel, its
    files are in _static, and, offline from file://, 50 of its example sentences typed into it
    give the package's greedy translations (recorded beside them by the chapter's export)."""
    chapter = built_book / "book" / f"{page}.html"
    html = chapter.read_text(encoding="utf-8")
    assert f'class="companion-panel" data-model="{name}"' in html and "_static/companion-panel/panel.js" in html
    static = built_book / "_static" / "companion-panel"
    for file in ("panel.js", "panel.css", "vendor.js", "ort-wasm.js", f"models/{name}.js"):
        assert (static / file).is_file(), f"{file} is missing from the built book"
    with Chromium(chromium()) as c:
        c.offline()
        c.navigate(chapter.as_uri())
        state = c.wait_for(f"(() => {{ const s = {STATE}; return s !== 'loading' && s; }})()", timeout=90)
        assert state == "ready", c.evaluate(f"{PANEL}.querySelector('.cp-status').textContent")
        model = c.evaluate(f"{PANEL}.dataset.model")
        record = c.evaluate(f"(() => {{ const m = CompanionPanel.models[{json.dumps(model)}];"
                            "return {examples: m.examples, expected: m.package_greedy}; })()")
        assert record["expected"] and len(record["examples"]) >= SENTENCES
        got = [type_and_translate(c, s)["output"] for s in record["examples"][:SENTENCES]]
        wrong = [(s, g, e) for s, g, e in zip(record["examples"], got, record["expected"]) if g != e]
        assert not wrong, f"{len(wrong)} of {len(got)} differ from the package's greedy output: {wrong[:5]}"
        cells = heatmap_cells(c)
        assert cells["rows"] > 0 and cells["cols"] > 0 and max(map(max, cells["dark"])) > 100
