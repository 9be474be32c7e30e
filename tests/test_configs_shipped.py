"""Every preset shipped in the package (companion/presets, linked as the repository's configs/)
loads by name, validates and builds its model (on the meta device: shapes only), the gpu presets
have the papers' sizes and losses, and ``companion presets`` lists them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import torch

from companion import presets
from companion.config import load_config
from companion.errors import ConfigError
from companion.models import build_model

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = sorted(presets.PRESETS_DIR.glob("*/*.yaml"))


def test_configs_is_the_packages_presets_folder():
    """One source: the repository's configs/ is a link to the package data, not a copy."""
    link = ROOT / "configs"
    assert link.is_symlink() and link.resolve() == presets.PRESETS_DIR
    assert sorted(f"{p.parent.name}/{p.stem}" for p in link.glob("*/*.yaml")) == presets.names()


def test_config_takes_a_preset_name_or_a_file(tmp_path):
    by_name = load_config("gpu/rnnsearch", ["train.max_steps=3"])
    assert by_name == load_config(ROOT / "configs/gpu/rnnsearch.yaml", ["train.max_steps=3"])
    assert load_config("cpu/transformer.yaml") == load_config(presets.path("cpu/transformer"))
    own = tmp_path / "cpu" / "transformer"  # an existing file wins over a preset of that name
    own.parent.mkdir()
    own.write_text("train: {max_steps: 7}\n")
    assert load_config(own).train.max_steps == 7
    with pytest.raises(ConfigError, match=r"^transformer: config file not found, nor a preset \(did you mean "
                                          r"cpu/transformer or gpu/transformer\?\)$"):
        load_config("transformer")


def test_presets_command_lists_every_preset_on_one_line():
    done = subprocess.run([sys.executable, "-m", "companion", "presets"], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines] == presets.names() == [
        "cpu/rnnencdec", "cpu/rnnsearch", "cpu/seq2seq", "cpu/transformer",
        "gpu/rnnencdec", "gpu/rnnsearch", "gpu/seq2seq", "gpu/transformer"]
    for line, name in zip(lines, presets.names()):
        summary = line[len(name):].strip()
        assert summary == presets.summary(name) and summary.endswith(".") and len(summary) > 40
        first, second = presets.path(name).read_text(encoding="utf-8").splitlines()[:2]
        assert first == f"# {summary}" and second == "#"  # the file's first line, then a blank comment


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_preset_loads_and_builds(path):
    cfg = load_config(path)
    with torch.device("meta"):
        model = build_model(cfg.model, cfg.data.src_vocab_size, cfg.data.tgt_vocab_size)
    assert all(p.is_meta for p in model.parameters())
    assert sum(p.numel() for p in model.parameters()) > 0


def test_every_family_has_a_cpu_and_a_gpu_preset():
    names = {(p.parent.name, p.stem) for p in CONFIGS}
    for family in ("seq2seq", "rnnsearch", "rnnencdec", "transformer"):
        assert ("gpu", family) in names, f"gpu/{family} is missing"
        assert ("cpu", family) in names, f"cpu/{family} is missing"


def test_gpu_transformer_is_transformer_base():
    """Vaswani et al. (2017), Table 3, base: N = 6, d_model 512, d_ff 2048, h 8, 65M parameters
    with a shared 37k vocabulary. Counted here from the layer shapes, weights and biases."""
    cfg = load_config("gpu/transformer")
    args = dict(cfg.model.args, share_all_embeddings=True)
    with torch.device("meta"):
        model = build_model({"name": "transformer", **args}, 37_000, 37_000)
    d, f, n = 512, 2048, 6
    attention = 4 * (d * d + d)
    ffn = d * f + f + f * d + d
    norm = 2 * d
    encoder = n * (attention + ffn + 2 * norm)
    decoder = n * (2 * attention + ffn + 3 * norm)
    final_norms = sum(p.numel() for name, p in model.named_parameters()
                      if "norm" in name and "layers" not in name)
    expected = 37_000 * d + encoder + decoder + final_norms
    total = sum(p.numel() for p in model.parameters())
    assert total == expected
    assert abs(total - 65e6) / 65e6 < 0.05  # the paper's 65M (its count rounds differently)


def test_gpu_rnnsearch_has_the_papers_sizes():
    cfg = load_config("gpu/rnnsearch")
    a = cfg.model.args
    assert (a["embed_dim"], a["hidden_size"], a["attention_dim"], a["maxout_dim"]) == (620, 1000, 1000, 500)
    assert cfg.train.preset == "bahdanau" and cfg.train.clip_norm == 1.0 and cfg.data.max_len == 50


@pytest.mark.parametrize("name, preset, normalization, clip", [
    ("gpu/seq2seq", "sutskever", "sentences", 5.0),   # SGD 0.7 on the gradient "divided by ... 128"
    ("gpu/rnnsearch", "bahdanau", "sentences", 1.0),  # Adadelta on the minibatch's mean sentence log-likelihood
    ("gpu/rnnencdec", "bahdanau", "sentences", 1.0),
    ("gpu/transformer", "vaswani", "tokens", 0.0),
])
def test_gpu_presets_optimise_the_papers_loss(name, preset, normalization, clip):
    """The learning rates and clipping thresholds of the papers are meant for their losses: the
    LSTM papers summed each sentence's log-likelihood and averaged over the batch's sentences."""
    cfg = load_config(name)
    assert (cfg.train.preset, cfg.train.loss_normalization, cfg.train.clip_norm) == (preset, normalization, clip)


@pytest.mark.parametrize("family, recipe_name", [("seq2seq", "seq2seq_reversed"), ("rnnsearch", "rnnsearch"),
                                                 ("rnnencdec", "rnnencdec"), ("transformer", "transformer")])
def test_cpu_presets_are_the_books_recipes(family, recipe_name):
    """The preset cpu/<family> trains what the book's chapter trains (same model, optimiser,
    steps and batch budget), so the command line and the chapters cannot drift apart."""
    from companion.experiments.regime import REGIME, recipe

    if f"cpu/{family}" not in presets.names():
        pytest.fail(f"the preset cpu/{family} is missing")
    cfg = load_config(f"cpu/{family}")
    r = recipe(recipe_name)
    assert {"name": cfg.model.name, **cfg.model.args} == r.model
    for key, value in r.train.items():
        if key != "eval_every":
            assert getattr(cfg.train, key) == value, f"train.{key}"
    assert cfg.data.max_tokens == (r.max_tokens or REGIME.max_tokens)
    assert cfg.data.batching == r.batching
    assert (cfg.data.src_vocab_size, cfg.data.tgt_vocab_size) == (REGIME.src_vocab_size, REGIME.tgt_vocab_size)
