"""Typed YAML configs: defaults, validation, one-line errors, --set overrides."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.config import (Config, DecodeConfig, TrainConfig, apply_overrides, coerce,
                              config_from_dict, load_config, parse_scalar)
from companion.errors import ConfigError
from companion.models import (build_model, check_model_args, get_model_class, register_model,
                              with_defaults)

ROOT = Path(__file__).resolve().parents[1]


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "c.yaml"
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize("name", ["cpu/seq2seq.yaml", "gpu/seq2seq.yaml"])
def test_shipped_configs_load(name):
    cfg = load_config(ROOT / "configs" / name)
    assert cfg.model.name == "seq2seq"
    model = build_model(cfg.model, 50, 60) if name.startswith("cpu") else None
    if model is not None:
        assert model.src_vocab_size == 50 and model.tgt_vocab_size == 60


def test_gpu_config_is_the_papers_setup():
    cfg = load_config(ROOT / "configs/gpu/seq2seq.yaml")
    assert cfg.model.args["num_layers"] == 4 and cfg.model.args["hidden_size"] == 1000
    assert cfg.train.preset == "sutskever" and cfg.train.clip_norm == 5.0
    assert cfg.train.precision == "auto" and cfg.model.args["reverse_source"] is True


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
    ("train: {preset: sgd}", "c.yaml: train.preset: expected one of 'adam', 'sutskever'"),
    ("model: {name: seq2seq, hidden_size: big}", "c.yaml: model.hidden_size: expected int, got 'big'"),
    ("model: {name: nope}", "c.yaml: model.name: unknown model 'nope'"),
    ("train: [1, 2]", "c.yaml: 'train' must be a mapping"),
    ("train: {max_steps: 0}", "c.yaml: train.max_steps: must be > 0, got 0"),
    ("train: {label_smoothing: 1.5}", "c.yaml: train.label_smoothing: must be in [0, 1)"),
    ("[1, 2]", "c.yaml: the top level must be a mapping"),
])
def test_bad_values_are_one_line_errors(tmp_path, text, message):
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, text))
    assert message in str(err.value)
    assert "\n" not in str(err.value)


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
