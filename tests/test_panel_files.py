"""The panel's files without a browser: the npm lockfile, the build step (scripts/build_panel.py)
and the model script that :mod:`companion.export.panel` writes."""

from __future__ import annotations

import base64
import gzip
import importlib.util
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.errors import ConfigError, DataError
from companion.export.panel import panel_bundle, panel_script, write_panel, write_panel_from_export

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"


def build_panel():
    spec = importlib.util.spec_from_file_location("build_panel", ROOT / "scripts" / "build_panel.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def registered(script: str) -> tuple[str, dict]:
    """The model name and record that a panel model script registers."""
    match = re.search(r'root\.models\[("[^"]+")\] = (\{.*\});\n', script, re.S)
    assert match, script[:200]
    return json.loads(match.group(1)), json.loads(match.group(2))


def gunzip64(text: str) -> bytes:
    return gzip.decompress(base64.b64decode(text))


# ------------------------------------------------------------------------------- npm packages
def test_the_lockfile_pins_every_library_with_its_hash():
    package = json.loads((WEB / "package.json").read_text())
    lock = json.loads((WEB / "package-lock.json").read_text())
    wanted = {**package["dependencies"], **package["devDependencies"]}
    assert {"onnxruntime-web", "@sctg/sentencepiece-js", "esbuild"} <= set(wanted)
    for name, version in wanted.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{name} is not pinned to one version: {version}"
        assert lock["packages"][f"node_modules/{name}"]["version"] == version
    assert lock["lockfileVersion"] >= 2
    for path, entry in lock["packages"].items():
        if path:
            assert entry.get("integrity", "").startswith("sha512-"), f"{path} has no hash in the lockfile"
            assert entry.get("resolved", "https://registry.npmjs.org/").startswith("https://registry.npmjs.org/")


def test_node_modules_stays_out_of_git():
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout")
    proc = subprocess.run(["git", "check-ignore", "-q", "web/node_modules/onnxruntime-web/package.json"], cwd=ROOT)
    assert proc.returncode == 0


def test_the_panel_script_loads_nothing_but_its_neighbours():
    """No CDN, no fetch, no module import: what a file:// page may load is <script src> beside it."""
    source = (WEB / "panel.js").read_text(encoding="utf-8")
    assert not re.search(r"https?://", source)
    assert "fetch(" not in source and "import(" not in source and "XMLHttpRequest" not in source
    assert "el.src = BASE + name" in source


# ------------------------------------------------------------------------------- the build step
def fake_web(tmp_path: Path, installed: bool) -> Path:
    web = tmp_path / "web"
    web.mkdir()
    (web / "package-lock.json").write_text('{"lockfileVersion": 3, "packages": {}}')
    if installed:
        wasm = web / "node_modules" / "onnxruntime-web" / "dist" / "ort-wasm-simd-threaded.wasm"
        wasm.parent.mkdir(parents=True)
        wasm.write_bytes(b"\0asm")
        (web / "node_modules" / ".bin").mkdir()
        (web / "node_modules" / ".bin" / "esbuild").write_text("")
    return web


def test_install_skips_npm_when_node_modules_matches_the_lockfile(tmp_path, monkeypatch):
    bp = build_panel()
    web = fake_web(tmp_path, installed=True)
    (web / "node_modules" / bp.LOCK_STAMP).write_text(bp._lock_digest(web))
    monkeypatch.setattr(bp.subprocess, "run", lambda *a, **k: pytest.fail("npm was run"))
    bp.install(web)


def test_install_uses_an_existing_node_modules_when_npm_fails(tmp_path, monkeypatch, capsys):
    bp = build_panel()
    web = fake_web(tmp_path, installed=True)
    monkeypatch.setattr(bp.shutil, "which", lambda name: "/bin/false")
    bp.install(web)  # /bin/false fails like an offline `npm ci`
    assert "warning: `npm ci` failed" in capsys.readouterr().err
    assert not (web / "node_modules" / bp.LOCK_STAMP).exists()


def test_install_without_npm_nor_node_modules_is_one_clear_error(tmp_path, monkeypatch):
    bp = build_panel()
    web = fake_web(tmp_path, installed=False)
    monkeypatch.setattr(bp.shutil, "which", lambda name: None)
    with pytest.raises(bp.PanelBuildError, match=r"cannot install the panel's libraries: npm is not installed"):
        bp.install(web)


def test_embedded_script_round_trips_the_bytes():
    bp = build_panel()
    data = bytes(range(256)) * 50
    script = bp.embedded_script("ortWasm", data)
    match = re.fullmatch(r'\(window\.CompanionPanel = window\.CompanionPanel \|\| \{models: \{\}\}\)\["ortWasm"\] '
                         r'= "([A-Za-z0-9+/=]+)";\n', script)
    assert match and gunzip64(match.group(1)) == data


@pytest.mark.slow
def test_build_writes_the_books_panel_files(tmp_path, monkeypatch):
    if shutil.which("npm") is None and not (WEB / "node_modules" / ".bin" / "esbuild").exists():
        pytest.skip("neither npm nor an installed web/node_modules")
    bp = build_panel()
    monkeypatch.chdir(tmp_path)  # a relative folder, as the Makefile passes it (esbuild runs in web/)
    target = bp.build(Path("_static"), models=tmp_path / "models")
    assert target == tmp_path / "_static" / "companion-panel"
    assert (target / "panel.js").read_bytes() == (WEB / "panel.js").read_bytes()
    assert (target / "panel.css").read_bytes() == (WEB / "panel.css").read_bytes()
    assert (target / "models").is_dir()
    wasm = (WEB / "node_modules" / bp.WASM).read_bytes()
    script = (target / "ort-wasm.js").read_text()
    assert gunzip64(script.split('"')[-2]) == wasm and wasm[:4] == b"\0asm"
    vendor = (target / "vendor.js").read_text(encoding="utf-8")
    assert "globalThis.ort" in vendor and "globalThis.SentencePieceProcessor" in vendor
    assert "import.meta" not in vendor and not re.search(r"^\s*(import|export)\s", vendor, re.M)
    # npm ci left its stamp: the next build does not reinstall
    assert (WEB / "node_modules" / bp.LOCK_STAMP).read_text().strip() == bp._lock_digest(WEB)


# ------------------------------------------------------------------------------- model scripts
def fake_export(directory: Path) -> Path:
    """An export directory with the contract's files (bytes that are not real graphs)."""
    from companion.export.onnx import FILES, FORMAT

    directory.mkdir()
    payload = {"encoder": b"ENCODER" * 100, "decoder_step": b"DECODER" * 100, "src_spm": b"SRC\0model",
               "tgt_spm": b"TGT\0model"}
    for key, data in payload.items():
        (directory / FILES[key]).write_bytes(data)
    for key, pieces in (("src_vocab", ["<pad>", "<s>", "</s>", "<unk>", "▁고양이"]),
                        ("tgt_vocab", ["<pad>", "<s>", "</s>", "<unk>", "▁cat"])):
        (directory / FILES[key]).write_text(json.dumps({"pieces": pieces, "scores": [0.0] * 5}), encoding="utf-8")
    manifest = {"format": FORMAT, "family": "transformer", "files": dict(FILES), "max_positions": 64}
    (directory / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return directory


def test_the_model_script_embeds_the_export_exactly(tmp_path):
    export = fake_export(tmp_path / "export")
    path = write_panel_from_export(export, tmp_path / "static" / "companion-panel", "transformer",
                                   examples=[" 고양이가 물을 마신다 "], title="Chapter 5's Transformer")
    assert path == tmp_path / "static" / "companion-panel" / "models" / "transformer.js"
    script = path.read_text(encoding="ascii")  # \u escapes only: any page encoding reads it
    name, record = registered(script)
    assert name == "transformer"
    assert gunzip64(record["encoder"]) == (export / "encoder.onnx").read_bytes()
    assert gunzip64(record["decoder_step"]) == (export / "decoder_step.onnx").read_bytes()
    assert base64.b64decode(record["src_spm"]) == (export / "src.model").read_bytes()
    assert base64.b64decode(record["tgt_spm"]) == (export / "tgt.model").read_bytes()
    assert record["src_pieces"][4] == "▁고양이" and record["tgt_pieces"][4] == "▁cat"
    assert record["manifest"] == json.loads((export / "manifest.json").read_text())
    assert record["examples"] == ["고양이가 물을 마신다"] and record["title"] == "Chapter 5's Transformer"
    assert record["package_greedy"] is None  # an export alone does not know the package's translations
    assert not list(path.parent.glob(".*tmp"))
    # the same export written twice is the same file (no timestamps): rebuilding changes nothing
    again = write_panel_from_export(export, tmp_path / "again", "transformer",
                                    examples=["고양이가 물을 마신다"], title="Chapter 5's Transformer")
    assert again.read_bytes() == path.read_bytes()


def test_model_script_errors_are_one_line(tmp_path):
    export = fake_export(tmp_path / "export")
    for bad in ("", "../evil", "a b", "x" * 65, 3):
        with pytest.raises(ConfigError, match="panel: the model name must be 1-64 letters"):
            write_panel_from_export(export, tmp_path / "out", bad)
    with pytest.raises(ConfigError, match="examples must be a list of sentences, not one string"):
        panel_bundle(export, examples="고양이")
    with pytest.raises(ConfigError, match="every example must be a non-empty sentence"):
        panel_bundle(export, examples=["ok", "  "])
    with pytest.raises(ConfigError, match="panel: 2 examples but 1 expected translations"):
        panel_bundle(export, examples=["a", "b"], expected=["x"])
    with pytest.raises(DataError, match="not an ONNX export"):
        panel_bundle(tmp_path)
    assert not (tmp_path / "out").exists()
    with pytest.raises(ConfigError, match="panel: the model name"):
        panel_script({}, "no/slash")


@pytest.mark.slow
def test_write_panel_exports_graphs_that_onnxruntime_runs(tmp_path):
    """A real export (a random tiny Transformer): the embedded graphs are the contract's."""
    ort = pytest.importorskip("onnxruntime")
    import numpy as np
    import torch

    from companion.data.vocab import SentencePieceVocab
    from companion.models.transformer import Transformer

    sentences = ["고양이가 물을 마신다", "개가 밥을 먹는다", "학생이 책을 읽는다"] * 30
    english = ["the cat drinks water", "the dog eats rice", "the student reads a book"] * 30
    src = SentencePieceVocab.train(sentences, vocab_size=24, hard_vocab_limit=False)
    tgt = SentencePieceVocab.train(english, vocab_size=30, hard_vocab_limit=False)
    torch.manual_seed(0)
    model = Transformer(len(src), len(tgt), d_model=16, num_heads=2, num_encoder_layers=1, num_decoder_layers=1,
                        d_ff=32, pre_ln=True)
    path = write_panel(model, (src, tgt), tmp_path / "panel", "tiny", examples=sentences[:2])
    _, record = registered(path.read_text(encoding="ascii"))
    assert record["manifest"]["family"] == "transformer" and record["title"] == "transformer"
    encoder = ort.InferenceSession(gunzip64(record["encoder"]), providers=["CPUExecutionProvider"])
    decoder = ort.InferenceSession(gunzip64(record["decoder_step"]), providers=["CPUExecutionProvider"])
    ids = np.array([src.encode(sentences[0]) + [2]], dtype=np.int64)
    enc = dict(zip(["cross_keys", "cross_values"], encoder.run(["cross_keys", "cross_values"], {"src": ids})))
    L, _, H, S, dk = enc["cross_keys"].shape
    empty = np.zeros((L, 1, H, 0, dk), dtype=np.float32)
    log_probs, attention = decoder.run(["log_probs", "cross_attention"], {
        "prev_tokens": np.array([1], dtype=np.int64), "src": ids, **enc, "past_keys": empty, "past_values": empty})
    assert log_probs.shape == (1, len(tgt)) and attention.shape == (1, L, H, S)
    assert record["src_pieces"] == [src.pieces([i])[0] for i in range(len(src))]
    # the recorded translations of the examples are the package's greedy ones
    from companion.decoding.search import greedy_search

    for sentence, recorded in zip(sentences[:2], record["package_greedy"], strict=True):
        ids = torch.tensor([src.encode(sentence) + [2]])
        hyp = greedy_search(model, ids, torch.tensor([ids.shape[1]]), max_len_a=1.5, max_len_b=10)[0]
        assert recorded == tgt.decode(hyp.tokens)
    with pytest.raises(ConfigError, match="vocabs must be a pair"):
        write_panel(model, src, tmp_path / "panel", "tiny")
