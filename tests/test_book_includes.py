"""Each model chapter shows its whole model by inclusion (issue "Literate chapters").

A reader who wants to rebuild a model from the page needs its constructor, its encoder and
decoding step, its attention (head split, scaling, masks, merge), its positional encoding, the
core of the search and the training step -- the package's own code, included with
``literalinclude`` and ``:pyobject:`` so that what the page shows is what runs. This module lists
the required objects per chapter and fails for every one a chapter does not include.

An include of a class covers its methods (``:pyobject: EncoderLayer`` covers
``EncoderLayer.forward``); an include of a whole file (no ``:pyobject:`` and no line selection)
covers everything in it. Where the package runs an optimised form, the readable one is required
(``BahdanauAttention.readable_score``, tested equal to ``score`` in ``tests/test_attention.py``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.helpers import defined_objects

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"

SEARCH = "companion/decoding/search.py"
TRAINER = "companion/training/trainer.py"
ATTENTION = "companion/models/attention.py"
TRANSFORMER = "companion/models/transformer"

#: chapter -> (file, object) pairs it must include, each with what the reader learns from it
REQUIRED: dict[str, list[tuple[str, str, str]]] = {
    "03_seq2seq.ipynb": [
        ("companion/models/seq2seq.py", "Seq2Seq.__init__", "the model's layers (constructor)"),
        ("companion/models/seq2seq.py", "Seq2Seq.encode", "the encoder"),
        ("companion/models/seq2seq.py", "Seq2Seq.step", "one decoding step"),
        ("companion/models/seq2seq.py", "Seq2Seq.forward", "teacher-forced training"),
        ("companion/models/seq2seq.py", "Seq2Seq.decode_sequence", "the decoder over a whole prefix"),
        (SEARCH, "greedy_search", "greedy search"),
        (SEARCH, "beam_search", "beam search"),
        (TRAINER, "Trainer._train_step", "the training step"),
        (TRAINER, "sequence_loss", "the loss, padding ignored"),
    ],
    "04_attention.ipynb": [
        (ATTENTION, "BahdanauAttention.__init__", "the alignment model's parameters"),
        (ATTENTION, "BahdanauAttention.readable_score", "the additive score as the paper writes it"),
        (ATTENTION, "RNNSearch.__init__", "the model's layers (constructor)"),
        (ATTENTION, "RNNSearch.encode", "the bidirectional encoder and s_0"),
        (ATTENTION, "RNNSearch.step", "one decoding step: attend, read out, update"),
        (ATTENTION, "RNNSearch.forward", "teacher-forced training"),
        (ATTENTION, "RNNSearch._teacher_forced", "the training loop over target positions"),
        (ATTENTION, "RNNEncDec.forward", "the fixed-vector model in training"),
        ("companion/evaluation/alignment.py", "alignment_error_rate", "AER against gold links"),
    ],
    "05_transformer.ipynb": [
        (f"{TRANSFORMER}/attention.py", "scaled_dot_product_attention", "scaling and masking"),
        (f"{TRANSFORMER}/attention.py", "MultiHeadAttention.__init__", "the projections"),
        (f"{TRANSFORMER}/attention.py", "MultiHeadAttention._heads", "the head split"),
        (f"{TRANSFORMER}/attention.py", "MultiHeadAttention.attend", "the head merge and W^O"),
        (f"{TRANSFORMER}/attention.py", "MultiHeadAttention.project_qkv", "Q, K, V in one product"),
        (f"{TRANSFORMER}/masks.py", "encoder_mask", "the encoder's padding mask"),
        (f"{TRANSFORMER}/masks.py", "decoder_self_mask", "the causal mask"),
        (f"{TRANSFORMER}/masks.py", "cross_mask", "the cross-attention mask"),
        (f"{TRANSFORMER}/layers.py", "sinusoid_table", "the positional encodings"),
        (f"{TRANSFORMER}/layers.py", "SinusoidalPositions", "positions added to the embeddings"),
        (f"{TRANSFORMER}/layers.py", "EncoderLayer.__init__", "an encoder layer's parts"),
        (f"{TRANSFORMER}/layers.py", "EncoderLayer.forward", "an encoder layer"),
        (f"{TRANSFORMER}/layers.py", "DecoderLayer.__init__", "a decoder layer's parts"),
        (f"{TRANSFORMER}/layers.py", "DecoderLayer.forward", "a decoder layer"),
        (f"{TRANSFORMER}/model.py", "Transformer.__init__", "the model (constructor)"),
        (f"{TRANSFORMER}/model.py", "Transformer.encoder_output", "the encoder stack"),
        (f"{TRANSFORMER}/model.py", "Transformer.decoder_output", "the decoder stack"),
        (f"{TRANSFORMER}/model.py", "Transformer.forward", "teacher-forced training"),
        (f"{TRANSFORMER}/model.py", "Transformer.encode", "the state before generation"),
        (f"{TRANSFORMER}/model.py", "Transformer.step", "one decoding step"),
        ("companion/data/packing.py", "segment_mask", "packed rows: attention within a pair"),
        ("companion/data/packing.py", "segment_positions", "packed rows: positions restart"),
        ("companion/data/packing.py", "pack_rows", "packed rows: first fit"),
        (TRAINER, "sequence_loss", "the label-smoothed loss"),
        ("companion/training/optim.py", "inverse_sqrt_factor", "the learning-rate schedule"),
    ],
}

_INCLUDE = re.compile(r"```\{literalinclude\}\s+(\S+)[^\n]*\n((?::[\w-]+:.*\n)*)")
_LINE_SELECTORS = (":lines:", ":start-after:", ":end-before:", ":start-at:", ":end-at:", ":emphasize-lines:")


def includes(page: Path) -> list[tuple[Path, str | None]]:
    """``(file, pyobject or None for the whole file)`` of every literalinclude in the markdown
    cells of a notebook; an include that selects lines is left out (it cannot be checked)."""
    nb = json.loads(page.read_text(encoding="utf-8"))
    found = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        text = "".join(cell["source"]) + "\n"
        for m in _INCLUDE.finditer(text):
            target = (page.parent / m.group(1)).resolve()
            options = m.group(2)
            obj = re.search(r":pyobject:\s*(\S+)", options)
            if obj:
                found.append((target, obj.group(1)))
            elif not any(sel in options for sel in _LINE_SELECTORS):
                found.append((target, None))
    return found


def covered(required_file: str, name: str, found: list[tuple[Path, str | None]]) -> bool:
    target = (ROOT / required_file).resolve()
    for path, obj in found:
        if path != target:
            continue
        if obj is None or obj == name or name.startswith(obj + "."):
            return True
    return False


def test_every_required_object_exists_in_the_package():
    """The list itself stays true to the code: a renamed object fails here, not silently."""
    missing = [f"{chapter}: {file}::{name}" for chapter, rows in REQUIRED.items()
               for file, name, _ in rows if name not in defined_objects(ROOT / file)]
    assert not missing, "required objects not defined: " + "; ".join(missing)


@pytest.mark.parametrize("chapter", sorted(REQUIRED))
def test_the_chapter_includes_its_whole_model(chapter):
    found = includes(BOOK / chapter)
    missing = [f"{name} ({file}: {what})" for file, name, what in REQUIRED[chapter]
               if not covered(file, name, found)]
    assert not missing, (f"{chapter} does not include (```{{literalinclude}} ../FILE``` with "
                         f":pyobject: NAME): " + "; ".join(missing))


def test_coverage_rules(tmp_path):
    """A class include covers its methods, a whole-file include everything, a line selection
    nothing; another file's object of the same name does not count."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(
        "```{literalinclude} ../companion/models/transformer/layers.py\n:pyobject: EncoderLayer\n```\n"
        "```{literalinclude} ../companion/training/optim.py\n```\n"
        "```{literalinclude} ../companion/models/seq2seq.py\n:lines: 1-40\n```\n"
        "```{literalinclude} ../companion/models/attention.py\n:pyobject: RNNSearch.step\n"
        ":language: python\n```\n")]
    (tmp_path / "book").mkdir()
    page = tmp_path / "book" / "ch.ipynb"
    nbformat.write(nb, page)
    found = [(ROOT / p.relative_to(tmp_path), o) for p, o in includes(page)]
    assert covered(f"{TRANSFORMER}/layers.py", "EncoderLayer.forward", found)
    assert not covered(f"{TRANSFORMER}/layers.py", "DecoderLayer.forward", found)
    assert covered("companion/training/optim.py", "inverse_sqrt_factor", found)
    assert not covered("companion/models/seq2seq.py", "Seq2Seq.step", found)
    assert covered(ATTENTION, "RNNSearch.step", found)
    assert not covered(ATTENTION, "RNNSearch.stepper", found)
    assert not covered(f"{TRANSFORMER}/model.py", "RNNSearch.step", found)
