"""Typed YAML configs: defaults, validation, one-line errors, --set overrides."""

from __future__ import annotations

from pathlib import Path

import pytest

import torch

from companion.config import (Config, DataConfig, DecodeConfig, TrainConfig, apply_overrides, coerce,
                              config_from_dict, drop_removed_keys, load_config, parse_scalar)
from companion.errors import ConfigError
from companion.models import (build_model, check_model_args, get_model_class, register_model,
                              with_defaults)
from companion.training.optim import PRESETS, Preset

ROOT = Path(__file__).resolve().parents[1]


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "c.yaml"
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize("name", ["cpu/seq2seq", "gpu/seq2seq"])
def test_shipped_configs_load(name):
    cfg = load_config(name)  # a preset, by name
    assert cfg.model.name == "seq2seq"
    model = build_model(cfg.model, 50, 60) if name.startswith("cpu") else None
    if model is not None:
        assert model.src_vocab_size == 50 and model.tgt_vocab_size == 60


def lstm_weights(layers: int, inputs: int, hidden: int) -> int:
    """Weights (no biases) of a stack of LSTM layers: 4 gates, each W_x (H x in) and W_h (H x H)."""
    return sum(4 * hidden * ((inputs if layer == 0 else hidden) + hidden) for layer in range(layers))


def test_gpu_profile_builds_the_papers_model():
    """Sutskever et al. (2014), section 3.4: 4 layers of 1000 cells, 1000-dimensional embeddings,
    160k source and 80k target words: 384M parameters, 64M of them recurrent connections."""
    cfg = load_config("gpu/seq2seq")
    assert cfg.train.preset == "sutskever" and cfg.model.args["reverse_source"] is True
    with torch.device("meta"):  # shapes only: no memory, no time
        model = build_model(cfg.model, 160_000, 80_000)
    assert all(p.is_meta for p in model.parameters())
    L, E, H = 4, 1000, 1000
    recurrent = 2 * lstm_weights(L, E, H)  # encoder and decoder
    assert recurrent == 64_000_000  # the paper's "64M pure recurrent connections"
    biases = 2 * L * 2 * 4 * H  # torch's LSTM has b_ih and b_hh per layer
    embeddings = 160_000 * E + 80_000 * E
    softmax = H * 80_000 + 80_000
    total = sum(p.numel() for p in model.parameters())
    assert total == embeddings + recurrent + biases + softmax == 384_144_000
    assert round(total / 1e6) == 384  # the paper's 384M
    assert sum(p.numel() for n, p in model.named_parameters() if "weight_hh" in n) == 2 * L * 4 * H * H


def test_defaults_and_round_trip(tmp_path):
    cfg = load_config(write(tmp_path, "train: {max_steps: 7}\nmodel: {name: seq2seq, hidden_size: 8}\n"))
    assert cfg.train.max_steps == 7 and cfg.train.preset == "adam"
    assert cfg.decode == DecodeConfig()
    again = config_from_dict(cfg.to_dict())
    assert again == cfg
    assert cfg.to_dict()["model"] == {"name": "seq2seq", "hidden_size": 8}


def test_empty_file_gives_defaults(tmp_path):
    assert load_config(write(tmp_path, "")) == Config()


@pytest.mark.parametrize("text, message", [
    ("train: {lrr: 0.1}", "c.yaml: unknown key 'train.lrr'"),
    ("trian: {}", "c.yaml: unknown key 'trian'"),
    ("model: {name: seq2seq, hidden_sizee: 3}", "c.yaml: unknown key 'model.hidden_sizee'"),
    ("train: {lr: abc}", "c.yaml: train.lr: expected float or null, got 'abc'"),
    ("train: {max_steps: 1.5}", "c.yaml: train.max_steps: expected int, got 1.5"),
    ("train: {compile: 1}", "c.yaml: train.compile: expected bool, got 1"),
    ("train: {preset: sgd}", "c.yaml: train.preset must be one of 'adam', 'sutskever', 'bahdanau', "
                             "'vaswani', got 'sgd'"),
    ("train: {precision: fp8}", "c.yaml: train.precision: expected one of 'auto', 'fp32', 'bf16', 'fp16', got 'fp8'"),
    ("train: {init_uniform: 0.08}", "c.yaml: 'train.init_uniform' was removed: initialisation belongs to the model"),
    ("train: {accum_steps: 0}", "c.yaml: train.accum_steps must be an integer >= 1, got 0"),
    ("train: {log_every: 0}", "c.yaml: train.log_every must be an integer >= 1, got 0"),
    ("train: {threads: 0}", "c.yaml: train.threads must be an integer >= 1, got 0"),
    ("train: {seed: -1}", "c.yaml: train.seed must be an integer >= 0, got -1"),
    ("data: {src_vocab_size: 4}", "c.yaml: data.src_vocab_size must be an integer >= 5, got 4"),
    ("data: {character_coverage: 0}", "c.yaml: data.character_coverage must be a number in (0.0, 1.0], got 0.0"),
    ("decode: {beam_size: 2, nbest: 3}", "c.yaml: decode.nbest (3) must not exceed decode.beam_size (2)"),
    ("decode: {beam_size: 0}", "c.yaml: decode.beam_size must be an integer >= 1, got 0"),
    ("model: {name: seq2seq, hidden_size: big}", "c.yaml: model.hidden_size: expected int, got 'big'"),
    ("model: {name: nope}", "c.yaml: model.name: unknown model 'nope'"),
    ("train: [1, 2]", "c.yaml: 'train' must be a mapping"),
    ("train: {max_steps: 0}", "c.yaml: train.max_steps must be an integer >= 1, got 0"),
    ("train: {label_smoothing: 1.5}", "c.yaml: train.label_smoothing must be a number in [0.0, 1.0), got 1.5"),
    ("[1, 2]", "c.yaml: the top level must be a mapping"),
])
def test_bad_values_are_one_line_errors(tmp_path, text, message):
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, text))
    assert message in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("section, cls, key, value", [
    ("train", TrainConfig, "accum_steps", 0),
    ("train", TrainConfig, "log_every", 0),
    ("train", TrainConfig, "preset", "sgd"),
    ("train", TrainConfig, "precision", "fp8"),
    ("train", TrainConfig, "lr", -1.0),
    ("train", TrainConfig, "max_epochs", 0),
    ("data", DataConfig, "max_tokens", 0),
    ("decode", DecodeConfig, "length_penalty", -0.5),
])
def test_yaml_and_python_share_one_validation(tmp_path, section, cls, key, value):
    with pytest.raises(ConfigError) as python:
        cls(**{key: value})
    with pytest.raises(ConfigError) as yaml_file:
        load_config(write(tmp_path, f"{section}: {{{key}: {value}}}"))
    assert str(yaml_file.value) == f"{tmp_path / 'c.yaml'}: {python.value}"
    assert str(python.value).startswith(f"{section}.{key}")


def test_preset_names_come_from_the_optimiser_table(monkeypatch):
    for name in PRESETS:
        assert TrainConfig(preset=name).preset == name
    with pytest.raises(ConfigError, match="train.preset must be one of"):
        TrainConfig(preset="luong")
    monkeypatch.setitem(PRESETS, "luong", Preset("luong", 1.0, 0))  # a preset added in one place
    assert TrainConfig(preset="luong").preset == "luong"


def test_batching_is_one_of_the_samplers():
    from companion.config import DataConfig
    from companion.data.batching import BATCHINGS

    from companion.config import Config, config_from_dict
    from companion.training.resume import complete_config
    from companion.training.rundir import effective_batching

    assert DataConfig().batching == "auto"
    assert {DataConfig(batching=b).batching for b in BATCHINGS} == set(BATCHINGS)
    with pytest.raises(ConfigError, match="data.batching: expected one of 'auto', 'bucketed', 'mixed', 'packed', "
                                          "got 'sorted'"):
        DataConfig(batching="sorted")
    # auto packs a model that reads packed rows, and buckets the others
    assert effective_batching(config_from_dict({"model": {"name": "transformer"}})) == "packed"
    assert effective_batching(config_from_dict({"model": {"name": "rnnsearch"}})) == "bucketed"
    assert effective_batching(config_from_dict({"model": {"name": "transformer"}, "data": {"batching": "mixed"}})) == "mixed"
    # a run saved before the option existed was bucketed: resuming it must not start packing
    old = config_from_dict({"model": {"name": "transformer"}}).to_dict()
    del old["data"]["batching"]
    assert complete_config(old)["data"]["batching"] == "bucketed"
    # auto is compared as what it resolves to for the model: the batches the run trains on
    assert complete_config(Config().to_dict())["data"]["batching"] == "bucketed"
    assert complete_config(config_from_dict({"model": {"name": "transformer"}}).to_dict())["data"]["batching"] == \
        "packed"


def test_python_values_are_converted_to_the_declared_type():
    cfg = TrainConfig(lr=1, clip_norm=2)
    assert isinstance(cfg.lr, float) and isinstance(cfg.clip_norm, float)
    with pytest.raises(ConfigError, match=r"train.compile: expected bool, got 'yes'"):
        TrainConfig(compile="yes")


def test_stored_configs_drop_removed_keys():
    old = {"train": {"init_uniform": 0.08, "lr": 0.5}, "model": {"name": "seq2seq"}}
    assert drop_removed_keys(old) == {"train": {"lr": 0.5}, "model": {"name": "seq2seq"}}
    assert old["train"]["init_uniform"] == 0.08  # the input is not changed
    assert config_from_dict(drop_removed_keys(old)).train.lr == 0.5


def test_yaml_syntax_error_names_the_line(tmp_path):
    with pytest.raises(ConfigError, match=r"c.yaml: line 3: expected the node content"):
        load_config(write(tmp_path, "train:\n  lr: [1, \n"))


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="nope.yaml: config file not found"):
        load_config(tmp_path / "nope.yaml")


def test_overrides_are_parsed_as_the_declared_type(tmp_path):
    cfg = load_config(write(tmp_path, "train: {lr: 0.1}\n"),
                      ["train.lr=0.5", "train.compile=true", "train.debug_nan_step=3",
                       "train.max_epochs=null", "model.hidden_size=16", "data.src_lang=de",
                       "train.valid_bleu=no"])
    assert cfg.train.lr == 0.5 and cfg.train.compile is True and cfg.train.debug_nan_step == 3
    assert cfg.train.max_epochs is None and cfg.model.args["hidden_size"] == 16
    assert cfg.data.src_lang == "de" and cfg.train.valid_bleu is False


@pytest.mark.parametrize("item, message", [
    ("train.lr=abc", "--set train.lr=abc: expected float"),
    ("train.lrr=1", "--set train.lrr=1: unknown key 'train.lrr'"),
    ("train.max_steps=2.5", "--set train.max_steps=2.5: expected int"),
    ("train.compile=maybe", "--set train.compile=maybe: expected bool"),
    ("model.hidden=3", "--set model.hidden=3: unknown key 'model.hidden'"),
    ("lr=3", "--set lr=3: unknown key 'lr'"),
    ("train.lr", "--set train.lr: expected key=value"),
    ("train.init_uniform=0.1", "--set train.init_uniform=0.1: 'train.init_uniform' was removed"),
])
def test_bad_overrides(item, message):
    with pytest.raises(ConfigError) as err:
        apply_overrides({}, [item])
    assert str(err.value).startswith(message)


def test_coerce_and_parse_scalar():
    assert coerce(3, float) == 3.0 and isinstance(coerce(3, float), float)
    assert coerce("1e-3", float) == 1e-3  # PyYAML reads 1e-3 as a string
    with pytest.raises(ValueError):
        coerce(True, int)
    assert parse_scalar("none", int | None) is None
    assert parse_scalar("5", int | None) == 5
    assert TrainConfig().clip_norm == 5.0


def test_registry_and_model_args():
    class Tiny:  # a model taking the vocabulary size of a language model
        def __init__(self, vocab_size: int, width: int = 4):
            self.vocab_size, self.width = vocab_size, width

    register_model("tiny-test", Tiny)
    assert get_model_class("tiny-test") is Tiny
    assert check_model_args("tiny-test", {"width": 8}) == {"width": 8}
    model = build_model({"name": "tiny-test", "width": 2}, None, 11)
    assert (model.vocab_size, model.width) == (11, 2)
    assert with_defaults({"name": "tiny-test"}) == {"name": "tiny-test", "width": 4}
    assert with_defaults({"name": "tiny-test", "width": 5}) == {"name": "tiny-test", "width": 5}
    with pytest.raises(ConfigError, match="unknown key 'model.depth'"):
        check_model_args("tiny-test", {"depth": 1})
