"""Every preset shipped in configs/ loads, validates and builds its model (on the meta device:
shapes only), and the gpu presets have the papers' sizes."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from companion.config import load_config
from companion.models import build_model

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = sorted((ROOT / "configs").glob("*/*.yaml"))


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
        assert ("gpu", family) in names, f"configs/gpu/{family}.yaml is missing"
        assert ("cpu", family) in names, f"configs/cpu/{family}.yaml is missing"


def test_gpu_transformer_is_transformer_base():
    """Vaswani et al. (2017), Table 3, base: N = 6, d_model 512, d_ff 2048, h 8, 65M parameters
    with a shared 37k vocabulary. Counted here from the layer shapes, weights and biases."""
    cfg = load_config(ROOT / "configs/gpu/transformer.yaml")
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
    cfg = load_config(ROOT / "configs/gpu/rnnsearch.yaml")
    a = cfg.model.args
    assert (a["embed_dim"], a["hidden_size"], a["attention_dim"], a["maxout_dim"]) == (620, 1000, 1000, 500)
    assert cfg.train.preset == "bahdanau" and cfg.train.clip_norm == 1.0 and cfg.data.max_len == 50


@pytest.mark.parametrize("family, recipe_name", [("seq2seq", "seq2seq_reversed"), ("rnnsearch", "rnnsearch"),
                                                 ("rnnencdec", "rnnencdec"), ("transformer", "transformer")])
def test_cpu_presets_are_the_books_recipes(family, recipe_name):
    """configs/cpu/<family>.yaml trains what the book's chapter trains (same model, optimiser,
    steps and batch budget), so the command line and the chapters cannot drift apart."""
    from companion.experiments.regime import REGIME, recipe

    path = ROOT / "configs" / "cpu" / f"{family}.yaml"
    if not path.exists():
        pytest.fail(f"configs/cpu/{family}.yaml is missing")
    cfg = load_config(path)
    r = recipe(recipe_name)
    assert {"name": cfg.model.name, **cfg.model.args} == r.model
    for key, value in r.train.items():
        if key != "eval_every":
            assert getattr(cfg.train, key) == value, f"train.{key}"
    assert cfg.data.max_tokens == (r.max_tokens or REGIME.max_tokens)
    assert (cfg.data.src_vocab_size, cfg.data.tgt_vocab_size) == (REGIME.src_vocab_size, REGIME.tgt_vocab_size)
