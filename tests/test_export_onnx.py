"""ONNX export: the graphs pass the checker, the manifest states the contract, and decoding the
graphs with onnxruntime gives the package's own outputs (greedy and beam, the attention too),
for the Transformer and the RNNsearch; the errors a user can cause are one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from companion.errors import ConfigError, DataError
from tests.export_toy import toy_pairs, toy_rnnsearch, toy_transformer, toy_vocabs

pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")

from companion.data.batching import source_ids  # noqa: E402
from companion.decoding.corpus import decode_corpus, translate_corpus  # noqa: E402
from companion.decoding.search import greedy_search  # noqa: E402
from companion.export import OnnxTranslator, export_onnx, greedy_one  # noqa: E402
from companion.export.parity import agreement  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
#: test sentences: the toy task's, one with characters no vocabulary has seen (UNK), one long
SENTENCES = [s for s, _ in toy_pairs(40, seed=99)] + ["고양이 펭귄 물", " ".join(["사과"] * 30)]


@pytest.fixture(scope="module")
def vocabs():
    return toy_vocabs()


@pytest.fixture(scope="module")
def transformer(vocabs, tmp_path_factory):
    torch.set_num_threads(1)
    model = toy_transformer(vocabs)
    out = export_onnx(model, vocabs, tmp_path_factory.mktemp("onnx") / "transformer",
                      decoding={"beam_size": 5, "length_penalty": 0.6})
    return model, out


@pytest.fixture(scope="module")
def rnnsearch(vocabs, tmp_path_factory):
    torch.set_num_threads(1)
    model = toy_rnnsearch(vocabs)
    return model, export_onnx(model, vocabs, tmp_path_factory.mktemp("onnx") / "rnnsearch")


def _ids(vocab, sentences):
    return [source_ids(vocab, s) for s in sentences]


def _package(model, sources, beam=1, **search):
    return [h[0].tokens for h in decode_corpus(model, sources, beam_size=beam, batch_size=16, **search)]


def test_graphs_pass_the_checker_and_the_manifest_states_the_contract(transformer, vocabs):
    model, out = transformer
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    for name in ("encoder.onnx", "decoder_step.onnx"):
        onnx.checker.check_model(str(out / name), full_check=True)
    enc, dec = (onnx.load(str(out / n)) for n in ("encoder.onnx", "decoder_step.onnx"))
    assert [i.name for i in enc.graph.input] == ["src"]
    assert [o.name for o in enc.graph.output] == ["cross_keys", "cross_values"]
    assert [i.name for i in dec.graph.input] == ["prev_tokens", "src", "cross_keys", "cross_values",
                                                 "past_keys", "past_values"]
    assert [o.name for o in dec.graph.output] == ["log_probs", "present_keys", "present_values", "cross_attention"]
    dims = [d.dim_param or d.dim_value for d in dec.graph.input[4].type.tensor_type.shape.dim]
    assert dims == [2, "N", 4, "t", 8]  # (L, N, H, t, d_k)
    assert manifest["family"] == "transformer" and manifest["special_ids"] == {"pad": 0, "bos": 1, "eos": 2, "unk": 3}
    assert manifest["model"]["num_decoder_layers"] == 2 and manifest["model"]["num_heads"] == 4
    assert manifest["decoding"]["length_penalty"] == 0.6 and manifest["checkpoint"]["sha256"] is None
    assert manifest["src_vocab_size"] == len(vocabs[0]) and manifest["max_positions"] == 1024
    import hashlib
    for name, digest in manifest["files_sha256"].items():
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == digest
    assert (out / "src.model").read_bytes() == vocabs[0].to_bytes()
    pieces = json.loads((out / "tgt.vocab.json").read_text(encoding="utf-8"))["pieces"]
    assert pieces[:4] == vocabs[1].pieces(range(4)) and len(pieces) == len(vocabs[1])


def test_onnx_greedy_gives_the_package_tokens(transformer, vocabs):
    model, out = transformer
    sources = _ids(vocabs[0], SENTENCES)
    ref = _package(model, sources)
    got = OnnxTranslator(out).decode_ids(sources)
    report = agreement(model, sources, ref, got)
    assert report["equal"] == len(SENTENCES), report["differences"]
    cut = _package(model, sources, max_len_a=0.0, max_len_b=3)  # outputs cut by the length limit
    assert any(t[-1] != 2 for t in cut) and _package(OnnxTranslator(out), sources, max_len_a=0.0, max_len_b=3) == cut


def test_onnx_beam_gives_the_package_tokens(transformer, vocabs):
    model, out = transformer
    sources = _ids(vocabs[0], SENTENCES)
    ref = _package(model, sources, beam=5, length_penalty=0.6)
    assert OnnxTranslator(out).decode_ids(sources, beam=5) == ref
    assert ref != _package(model, sources)  # the beam found other outputs than greedy somewhere


def test_numpy_loop_and_attention_match_the_package(transformer, vocabs):
    model, out = transformer
    t = OnnxTranslator(out)
    sentence = SENTENCES[0]
    tokens, attention = greedy_one(t, sentence)
    src = torch.tensor([source_ids(vocabs[0], sentence)])
    hyp = greedy_search(model, src, torch.tensor([src.shape[1]]), return_attention=True)[0]
    assert tuple(tokens) == hyp.tokens
    assert attention.shape == (len(tokens), 2, 4, src.shape[1])  # (T, L, H, S)
    np.testing.assert_allclose(attention.sum(-1), 1.0, atol=1e-5)
    np.testing.assert_allclose(attention[:, -1].mean(axis=1), hyp.attention.numpy(), atol=1e-5)
    assert t.translate([sentence]) == translate_corpus(model, *vocabs, [sentence], beam_size=1)


def test_rnnsearch_graphs_give_the_package_tokens_in_padded_batches(rnnsearch, vocabs):
    model, out = rnnsearch
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["family"] == "rnnsearch" and manifest["decoder"]["state"]["hidden"]["output"] == "hidden_out"
    onnx.checker.check_model(str(out / "encoder.onnx"), full_check=True)
    sources = _ids(vocabs[0], SENTENCES)
    assert len({len(s) for s in sources}) > 3  # batches of 16 hold rows of several lengths: padding
    t = OnnxTranslator(out)
    ref = _package(model, sources)
    report = agreement(model, sources, ref, t.decode_ids(sources))
    assert report["equal"] == len(SENTENCES), report["differences"]
    assert t.decode_ids(sources, beam=3) == _package(model, sources, beam=3)
    tokens, attention = greedy_one(t, SENTENCES[1])
    src = torch.tensor([source_ids(vocabs[0], SENTENCES[1])])
    hyp = greedy_search(model, src, torch.tensor([src.shape[1]]), return_attention=True)[0]
    assert tuple(tokens) == hyp.tokens
    np.testing.assert_allclose(attention[:, 0, 0], hyp.attention.numpy(), atol=1e-5)


def test_export_refuses_what_it_cannot_write(transformer, vocabs, tmp_path):
    from companion.models.seq2seq import Seq2Seq

    model, out = transformer
    lstm = Seq2Seq(len(vocabs[0]), len(vocabs[1]), **Seq2Seq.example_args)
    with pytest.raises(ConfigError, match="a Seq2Seq does not export"):
        export_onnx(lstm, vocabs, tmp_path / "x")
    with pytest.raises(ConfigError, match="already exists"):
        export_onnx(model, vocabs, out)
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    with pytest.raises(ConfigError, match="not an earlier export; refusing to replace it"):
        export_onnx(model, vocabs, tmp_path / "mine", overwrite=True)
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep me"
    with pytest.raises(ConfigError, match="the target vocabulary has"):
        export_onnx(model, (vocabs[0], vocabs[0]) if len(vocabs[0]) != len(vocabs[1]) else (vocabs[0], _other()),
                    tmp_path / "y")
    with pytest.raises(DataError, match="not an ONNX export"):
        OnnxTranslator(tmp_path / "mine")
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


def _other():
    from companion.data.vocab import train_vocabs

    return train_vocabs(toy_pairs(200, seed=5), 30, 30, hard_vocab_limit=False)[1]


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::UserWarning")  # a 2-step run's translations are cut at the length limit
def test_the_command_exports_a_trained_run(tmp_path):
    """``companion export`` in a real process on a run of ``companion train`` (2 steps), then
    its graphs decode as the run does; an existing --out is one error line."""
    def companion(*args):
        return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True,
                              cwd=ROOT, timeout=600, env={"OMP_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"})

    data, run, out = tmp_path / "data", tmp_path / "run", tmp_path / "export"
    data.mkdir()
    for split, n in (("train", 300), ("valid", 20), ("test", 20)):
        pairs = toy_pairs(n, seed={"train": 1, "valid": 2, "test": 3}[split])
        (data / f"{split}.ko").write_text("".join(k + "\n" for k, _ in pairs), encoding="utf-8")
        (data / f"{split}.en").write_text("".join(e + "\n" for _, e in pairs), encoding="utf-8")
    r = companion("train", "--config", "cpu/transformer", "--data", str(data), "--out", str(run), "--max-steps", "2",
                  "--no-progress", "--set", "data.src_vocab_size=40", "data.tgt_vocab_size=40", "model.d_model=16",
                  "model.num_heads=2", "model.num_encoder_layers=1", "model.num_decoder_layers=1", "model.d_ff=16",
                  "train.eval_every=0")
    assert r.returncode == 0, r.stderr
    r = companion("export", str(run), "--format", "onnx", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"{out}: onnx export, 7 files")
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    import hashlib
    from companion.translator import checkpoint_of
    ckpt = checkpoint_of(run)  # the run's checkpoint-best.pt
    assert manifest["checkpoint"] == {"path": ckpt.name, "sha256": hashlib.sha256(ckpt.read_bytes()).hexdigest(),
                                      "step": 2}
    import companion as package
    sentences = (data / "test.ko").read_text(encoding="utf-8").splitlines()
    assert OnnxTranslator(out).translate(sentences, beam=1) == package.load(run).translate(sentences, beam=1)
    r = companion("export", str(run), "--format", "onnx", "--out", str(out))
    assert r.returncode == 2 and r.stderr == f"error: export: {out} already exists (choose a new --out directory)\n"


def test_without_the_extra_the_error_names_it(transformer, vocabs, tmp_path, monkeypatch):
    from companion.errors import MissingDependencyError

    model, _ = transformer
    monkeypatch.setitem(sys.modules, "onnxscript", None)  # as if not installed
    with pytest.raises(MissingDependencyError, match=r"pip install 'seq2seq-companion\[export\]'"):
        export_onnx(model, vocabs, tmp_path / "x")
    assert not (tmp_path / "x").exists()


def test_the_manifest_takes_the_book_decoding_setting():
    from companion.experiments.regime import DECODING
    from companion.export.onnx import decoding_options

    options = decoding_options(DECODING)
    assert (options["beam_size"], options["length_penalty"]) == (DECODING.beam_size, DECODING.length_penalty)
    assert options["max_len_a"] == DECODING.max_len_a and options["length_penalty_form"] == "gnmt"
