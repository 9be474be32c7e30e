"""The book's "Try the translator" panel: one exported model as a script the page can load.

A page opened from ``file://`` may not ``fetch`` the files beside it, so the panel
(``web/panel.js``, copied into the book by ``scripts/build_panel.py``) loads everything with
``<script src>``. :func:`write_panel` exports a trained Transformer or RNNsearch to ONNX
(:func:`companion.export.onnx.export_onnx`) and writes ``models/<name>.js`` into the panel's
static folder: one classic script that stores, at ``window.CompanionPanel.models[name]``::

    manifest        the export's manifest.json (the decoding contract, the decoding options)
    encoder         encoder.onnx,        gzip-compressed, base64
    decoder_step    decoder_step.onnx,   gzip-compressed, base64
    src_spm         src.model, base64 (SentencePiece's loader takes base64)
    tgt_spm         tgt.model, base64
    src_pieces      the source pieces by id (the heatmap's column labels)
    tgt_pieces      the target pieces by id (its row labels)
    examples        a few source sentences the reader may pick
    package_greedy  the package's own greedy translation of each example (what the panel must
                    show for it: the book's browser test compares the two)
    title           what the panel calls the model

The page places the panel with::

    <div class="companion-panel" data-model="NAME"></div>
    <script src="../_static/companion-panel/panel.js"></script>
"""

from __future__ import annotations

import base64
import gzip
import json
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.errors import ConfigError

__all__ = ["MODEL_NAME", "package_greedy", "panel_bundle", "panel_script", "write_panel", "write_panel_from_export"]

#: What a panel model may be called (it becomes a file name and a ``data-model`` value).
MODEL_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def _gz64(data: bytes) -> str:
    return base64.b64encode(gzip.compress(data, compresslevel=9, mtime=0)).decode("ascii")


def _check_name(name: Any) -> str:
    if not isinstance(name, str) or not MODEL_NAME.match(name):
        raise ConfigError(f"panel: the model name must be 1-64 letters, digits, '-' or '_', got {name!r}")
    return name


def _check_examples(examples: Sequence[str]) -> list[str]:
    if isinstance(examples, str):
        raise ConfigError("panel: examples must be a list of sentences, not one string")
    out = []
    for s in examples:
        if not isinstance(s, str) or not s.strip():
            raise ConfigError(f"panel: every example must be a non-empty sentence, got {s!r}")
        out.append(s.strip())
    return out


def package_greedy(model: Any, vocabs: Any, sentences: Sequence[str], decoding: Any = None) -> list[str]:
    """The package's greedy translations of ``sentences`` (:func:`~companion.decoding.search.greedy_search`
    with the length limit of ``decoding``, as the panel applies it), one sentence at a time."""
    import torch

    from companion.data.batching import source_ids
    from companion.decoding.search import greedy_search
    from companion.export.onnx import decoding_options, family_of, max_positions

    src_vocab, tgt_vocab = vocabs
    options = decoding_options(decoding)
    limit = max_positions(model, family_of(model))
    device = next(model.parameters()).device
    out = []
    for sentence in sentences:
        ids = source_ids(src_vocab, sentence)
        hyp = greedy_search(model, torch.tensor([ids], device=device), torch.tensor([len(ids)], device=device),
                            max_len_a=options["max_len_a"], max_len_b=options["max_len_b"], max_len=limit)[0]
        out.append(tgt_vocab.decode(hyp.tokens))
    return out


def panel_bundle(export_dir: str | Path, *, examples: Sequence[str] = (), title: str | None = None,
                 expected: Sequence[str] | None = None) -> dict:
    """The panel's record of one ONNX export directory (see the module docstring); ``expected``:
    the package's greedy translations of ``examples``, if known."""
    from companion.export.runtime import read_manifest

    export_dir = Path(export_dir)
    manifest = read_manifest(export_dir)
    files = manifest["files"]

    def read(key: str) -> bytes:
        return (export_dir / files[key]).read_bytes()

    def pieces(key: str) -> list[str]:
        return json.loads(read(key).decode("utf-8"))["pieces"]

    examples = _check_examples(examples)
    if expected is not None and len(expected) != len(examples):
        raise ConfigError(f"panel: {len(examples)} examples but {len(expected)} expected translations")
    return {
        "manifest": manifest,
        "encoder": _gz64(read("encoder")),
        "decoder_step": _gz64(read("decoder_step")),
        "src_spm": base64.b64encode(read("src_spm")).decode("ascii"),
        "tgt_spm": base64.b64encode(read("tgt_spm")).decode("ascii"),
        "src_pieces": pieces("src_vocab"),
        "tgt_pieces": pieces("tgt_vocab"),
        "examples": examples,
        "package_greedy": list(expected) if expected is not None else None,
        "title": title or manifest["family"],
    }


def panel_script(bundle: dict, name: str) -> str:
    """The classic script that registers ``bundle`` as the panel model ``name``."""
    _check_name(name)
    # json.dumps escapes nothing that could close a <script> element in a JS file: the file is
    # loaded by src, never inlined, and every string in it is JSON (base64, pieces, sentences).
    return ("(function (root) {\n  root.models = root.models || {};\n"
            f"  root.models[{json.dumps(name)}] = {json.dumps(bundle, ensure_ascii=True)};\n"
            "})(window.CompanionPanel = window.CompanionPanel || {});\n")


def write_panel_from_export(export_dir: str | Path, panel_dir: str | Path, name: str, *,
                            examples: Sequence[str] = (), title: str | None = None,
                            expected: Sequence[str] | None = None) -> Path:
    """Write ``panel_dir/models/<name>.js`` from an ONNX export directory; returns its path."""
    _check_name(name)
    script = panel_script(panel_bundle(export_dir, examples=examples, title=title, expected=expected), name)
    target = Path(panel_dir) / "models" / f"{name}.js"
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp")
    tmp.write_text(script, encoding="ascii")
    tmp.replace(target)
    return target


def write_panel(model: Any, vocabs: Any, panel_dir: str | Path, name: str, *, decoding: Any = None,
                examples: Sequence[str] = (), title: str | None = None) -> Path:
    """Export ``model`` (a Transformer or an RNNSearch in memory) with its vocabularies
    ``(src_vocab, tgt_vocab)`` and write it as the panel model ``name`` into ``panel_dir``
    (the book's ``_static/companion-panel``); returns the script's path.

    ``decoding``: the decoding options the panel applies (a config's ``decode`` section, a
    :class:`~companion.experiments.regime.Decoding`, a mapping; None: the package defaults);
    ``examples``: source sentences offered in the panel's menu (the package's greedy
    translations of them are recorded beside them); ``title``: the panel's name for the model.
    """
    from companion.export.onnx import export_onnx

    _check_name(name)
    examples = _check_examples(examples)
    with tempfile.TemporaryDirectory(prefix="companion-panel-") as tmp:
        export = export_onnx(model, vocabs, Path(tmp) / "export", decoding=decoding)
        expected = package_greedy(model, vocabs, examples, decoding)
        return write_panel_from_export(export, panel_dir, name, examples=examples, title=title, expected=expected)
