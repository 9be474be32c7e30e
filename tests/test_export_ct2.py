"""CTranslate2 conversion: the specification built weight by weight translates as the package
does (Post-LN and Pre-LN, greedy; beam search where both rank alike), int8 quantization
runs, and what does not convert is refused in one line."""

from __future__ import annotations

import json

import pytest
import torch

from companion.errors import ConfigError
from tests.export_toy import toy_pairs, toy_rnnsearch, toy_transformer, toy_vocabs

pytest.importorskip("ctranslate2")

from companion.data.batching import source_ids  # noqa: E402
from companion.decoding.corpus import decode_corpus  # noqa: E402
from companion.export import CT2Translator, export_ctranslate2  # noqa: E402
from companion.export.parity import agreement  # noqa: E402

#: test sentences: the toy task's, one with characters no vocabulary has seen (UNK), one long
SENTENCES = [s for s, _ in toy_pairs(60, seed=99)] + ["고양이 펭귄 물", " ".join(["사과"] * 30)]


@pytest.fixture(scope="module")
def vocabs():
    return toy_vocabs()


@pytest.fixture(scope="module")
def sources(vocabs):
    return [source_ids(vocabs[0], s) for s in SENTENCES]


def _package(model, sources, beam=1, **search):
    return [h[0].tokens for h in decode_corpus(model, sources, beam_size=beam, batch_size=16, **search)]


@pytest.mark.parametrize("pre_ln", [False, True], ids=["post-ln", "pre-ln"])
def test_float32_translates_as_the_package(pre_ln, vocabs, sources, tmp_path):
    torch.set_num_threads(1)
    model = toy_transformer(vocabs, pre_ln=pre_ln)
    out = export_ctranslate2(model, vocabs, tmp_path / "ct2", decoding={"beam_size": 5, "length_penalty": 1.0})
    assert {"model.bin", "config.json", "src.model", "tgt.model", "manifest.json"} <= {p.name for p in out.iterdir()}
    config = json.loads((out / "config.json").read_text())
    assert config["layer_norm_epsilon"] == 1e-5 and config["decoder_start_token"] == "<s>"
    ct2 = CT2Translator(out)
    ref = _package(model, sources)
    report = agreement(model, sources, ref, ct2.decode_ids(sources, batch_size=16))
    assert report["equal"] == len(sources), report["differences"]
    # outputs cut by the length limit are cut at the same token
    cut = _package(model, sources, max_len_a=0.0, max_len_b=3)
    assert any(t[-1] != 2 for t in cut) and ct2.decode_ids(sources, max_len_a=0.0, max_len_b=3) == cut
    # beam search ranks alike with raw log-probabilities (CTranslate2's length penalty is |Y|^alpha)
    beam = _package(model, sources, beam=5)
    assert ct2.decode_ids(sources, beam=5, length_penalty=0.0) == beam
    assert beam != ref  # the beam found other outputs than greedy somewhere
    texts = ct2.translate(SENTENCES[:3])
    assert texts == [vocabs[1].decode(t) for t in ref[:3]]


def test_int8_quantization_runs_and_stays_close(vocabs, sources, tmp_path):
    torch.set_num_threads(1)
    model = toy_transformer(vocabs, steps=100)
    f32 = export_ctranslate2(model, vocabs, tmp_path / "f32")
    i8 = export_ctranslate2(model, vocabs, tmp_path / "i8", quantization="int8")
    assert json.loads((i8 / "manifest.json").read_text())["quantization"] == "int8"
    table = model.positions.table.numel() * 4  # the positional encodings stay float32 (stored once)
    assert (i8 / "model.bin").stat().st_size - table < 0.5 * ((f32 / "model.bin").stat().st_size - table)
    ref = CT2Translator(f32).decode_ids(sources)
    got = CT2Translator(i8).decode_ids(sources)
    assert all(t and len(t) <= 1.5 * len(s) + 10 for t, s in zip(got, sources))
    # the toy model is barely trained, so its outputs are full of near ties that int8 rounding
    # flips (how many depends on the CPU's int8 kernels: AVX2 flips more than AVX-512 VNNI); a
    # broken quantization -- a wrong scale, a transposed matrix -- agrees on almost no token
    same = sum(x == y for a, b in zip(ref, got) for x, y in zip(a, b))
    assert same >= 0.5 * sum(max(len(a), len(b)) for a, b in zip(ref, got))
    assert CT2Translator(f32, compute_type="int8").decode_ids(sources[:5])  # quantized as it loads


def test_what_does_not_convert_is_refused(vocabs, tmp_path):
    model = toy_rnnsearch(vocabs, steps=1)
    with pytest.raises(ConfigError, match="CTranslate2 export takes the Transformer; a RNNSearch does not convert"):
        export_ctranslate2(model, vocabs, tmp_path / "x")
    transformer = toy_transformer(vocabs, steps=1)
    with pytest.raises(ConfigError, match="quantization must be one of"):
        export_ctranslate2(transformer, vocabs, tmp_path / "x", quantization="int4")
    (tmp_path / "taken").mkdir()
    with pytest.raises(ConfigError, match="taken already exists"):
        export_ctranslate2(transformer, vocabs, tmp_path / "taken")
    assert not (tmp_path / "x").exists()
