"""Typed run configuration: a tree of dataclasses loaded from YAML.

A config file has four sections, each a dataclass below::

    data:   {src_lang: ko, tgt_lang: en, src_vocab_size: 1000, ...}   -> DataConfig
    model:  {name: seq2seq, hidden_size: 128, ...}                     -> ModelConfig
    train:  {preset: adam, max_steps: 1000, ...}                       -> TrainConfig
    decode: {beam_size: 5, ...}                                        -> DecodeConfig

``model`` holds a registry name plus the keyword arguments of that model's constructor; they are
checked against the constructor's signature (see :mod:`companion.models`). Every unknown key and
every value of the wrong type or out of range is a :class:`~companion.errors.ConfigError` with a
one-line message naming the file and the key, e.g. ``my.yaml: unknown key 'train.lrr'``.
Command-line overrides ``--set train.lr=0.5`` go through :func:`apply_overrides`.

Types and ranges are checked in one place, each section's ``__post_init__``, so a YAML file and
the Python API (``Trainer(accum_steps=0)`` builds a :class:`TrainConfig` too) refuse the same
values with the same message.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml

from companion.errors import ConfigError
from companion.specials import SPECIAL_TOKENS
from companion.models import check_model_args, model_arg_type
from companion.presets import resolve
from companion.validation import check_choice, check_float, check_int, coerce
from companion.validation import type_name as _type_name

#: keys that no longer exist, with what replaces them (a config naming one is refused with this)
REMOVED_KEYS = {
    "train.init_uniform": "initialisation belongs to the model (Seq2Seq draws U[-model.init_range, "
                          "model.init_range]) or to an explicit companion.training.optim.init_uniform_ call",
}


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _coerce_fields(obj: Any, section: str) -> None:
    """Convert every field of the dataclass ``obj`` to its declared type, in place; a value of
    the wrong kind is a one-line :class:`ConfigError` naming ``section.key``."""
    hints = _hints(type(obj))
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        try:
            setattr(obj, f.name, coerce(value, hints[f.name]))
        except ValueError:
            raise ConfigError(f"{section}.{f.name}: expected {_type_name(hints[f.name])}, "
                              f"got {value!r}") from None


def _optional(check, name: str, value: Any, *args, **kwargs) -> None:
    if value is not None:
        check(name, value, *args, **kwargs)


@dataclass
class DataConfig:
    """Corpus, vocabularies and batching."""

    src_lang: str = "ko"
    tgt_lang: str = "en"
    src_vocab_size: int = 1000
    tgt_vocab_size: int = 1000
    vocab_model_type: Literal["unigram", "bpe", "char", "word"] = "unigram"
    character_coverage: float = 1.0
    vocab_sample_sentences: int = 200_000  # SentencePiece trains on at most this many per side
    max_tokens: int = 2000
    #: training batches: ``bucketed`` (similar lengths, little padding; the papers' choice),
    #: ``mixed`` (random composition, padded: see :class:`~companion.data.batching.MixedBatchSampler`),
    #: ``packed`` (random composition, several pairs per row; Transformer only,
    #: :mod:`companion.data.packing`) or ``auto``: ``packed`` for a model that reads packed rows,
    #: ``bucketed`` for the others. Why ``auto`` packs the Transformer: at equal updates packed
    #: batches trained the book's Transformer 2.1 BLEU better than length buckets (5 seeds, every
    #: seed, for roughly 15% more CPU per update), and on a word-reversal task
    #: (:mod:`companion.experiments.convergence`) length buckets slowed its learning several times over (records batching-transformer and
    #: convergence-transformer, chapter 5). A run saved before this option existed was bucketed.
    batching: Literal["auto", "bucketed", "mixed", "packed"] = "auto"
    max_len: int = 100
    valid_max_sentences: int | None = None
    num_workers: int = 0

    def __post_init__(self) -> None:
        _coerce_fields(self, "data")
        for side in ("src", "tgt"):  # a vocabulary holds the specials and at least one piece
            check_int(f"data.{side}_vocab_size", getattr(self, f"{side}_vocab_size"), len(SPECIAL_TOKENS) + 1)
        check_float("data.character_coverage", self.character_coverage, 0.0, 1.0, low_open=True)
        check_int("data.vocab_sample_sentences", self.vocab_sample_sentences, 1)
        check_int("data.max_tokens", self.max_tokens, 1)
        check_int("data.max_len", self.max_len, 1)
        _optional(check_int, "data.valid_max_sentences", self.valid_max_sentences, 1)
        check_int("data.num_workers", self.num_workers, 0)


@dataclass
class ModelConfig:
    """A registered model name and its constructor's keyword arguments."""

    name: str = "seq2seq"
    args: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, **self.args}


#: what ``train.precision`` can be: ``auto`` is bf16 autocast on a CUDA device with native bf16,
#: fp16 autocast with loss scaling on an older CUDA device, and float32 elsewhere
PRECISIONS = ("auto", "fp32", "bf16", "fp16")

#: what ``train.loss_normalization`` can be: what the summed NLL of a batch is divided by (see
#: :mod:`companion.training.trainer`)
LOSS_NORMALIZATIONS = ("tokens", "sentences", "batch")


@dataclass
class TrainConfig:
    """Optimisation and bookkeeping; the fields are also :class:`companion.training.Trainer`'s
    keyword arguments, and both paths (YAML and ``Trainer(**options)``) are checked here.

    ``preset`` is a name of :data:`companion.training.optim.PRESETS`. ``seed``, ``threads`` and
    ``deterministic`` go to :func:`companion.repro.set_determinism`; the Trainer applies them when
    they are given (see :class:`~companion.training.Trainer`).
    """

    preset: str = "adam"
    lr: float | None = None
    warmup_steps: int | None = None
    decay_start_epoch: float = 5.0
    decay_every_epochs: float = 0.5
    max_steps: int = 1000
    max_epochs: float | None = None
    eval_every: int = 500
    log_every: int = 10
    clip_norm: float = 5.0
    accum_steps: int = 1
    label_smoothing: float = 0.0
    loss_normalization: Literal[LOSS_NORMALIZATIONS] = "tokens"  # type: ignore[valid-type]
    keep_last: int = 2
    precision: Literal[PRECISIONS] = "auto"  # type: ignore[valid-type]
    compile: bool = False
    deterministic: bool = True
    threads: int | None = None
    seed: int = 0
    valid_bleu: bool = False
    debug_nan_step: int | None = None

    def __post_init__(self) -> None:
        from companion.training.optim import PRESETS  # the one list of preset names

        _coerce_fields(self, "train")
        check_choice("train.preset", self.preset, tuple(PRESETS))
        _optional(check_float, "train.lr", self.lr, 0.0, low_open=True)
        _optional(check_int, "train.warmup_steps", self.warmup_steps, 0)
        check_float("train.decay_start_epoch", self.decay_start_epoch, 0.0)
        check_float("train.decay_every_epochs", self.decay_every_epochs, 0.0, low_open=True)
        check_int("train.max_steps", self.max_steps, 1)
        _optional(check_float, "train.max_epochs", self.max_epochs, 0.0, low_open=True)
        check_int("train.eval_every", self.eval_every, 0)
        check_int("train.log_every", self.log_every, 1)
        check_float("train.clip_norm", self.clip_norm, 0.0)
        check_int("train.accum_steps", self.accum_steps, 1)
        check_float("train.label_smoothing", self.label_smoothing, 0.0, 1.0, high_open=True)
        check_int("train.keep_last", self.keep_last, 0)
        _optional(check_int, "train.threads", self.threads, 1)
        check_int("train.seed", self.seed, 0)
        _optional(check_int, "train.debug_nan_step", self.debug_nan_step, 1)


@dataclass
class DecodeConfig:
    """Decoding used by ``translate``, ``evaluate`` and validation BLEU."""

    beam_size: int = 5
    nbest: int = 1
    max_len_a: float = 1.5
    max_len_b: int = 10
    length_penalty: float = 1.0

    def __post_init__(self) -> None:
        _coerce_fields(self, "decode")
        check_int("decode.beam_size", self.beam_size, 1)
        check_int("decode.nbest", self.nbest, 1)
        if self.nbest > self.beam_size:
            raise ConfigError(f"decode.nbest ({self.nbest}) must not exceed decode.beam_size ({self.beam_size})")
        check_float("decode.max_len_a", self.max_len_a, 0.0)
        if self.max_len_a + self.max_len_b < 1:  # the shortest source is one token (its EOS)
            raise ConfigError(f"decode.max_len_a * |src| + decode.max_len_b must allow at least one token for a "
                              f"one-token source, got {self.max_len_a} * 1 + {self.max_len_b}")
        check_float("decode.length_penalty", self.length_penalty, 0.0)


@dataclass
class Config:
    data: DataConfig = field(default_factory=DataConfig)
    model: ModelConfig = field(default_factory=ModelConfig)
    train: TrainConfig = field(default_factory=TrainConfig)
    decode: DecodeConfig = field(default_factory=DecodeConfig)

    def to_dict(self) -> dict[str, Any]:
        """Plain nested dict (what a checkpoint stores and :func:`config_from_dict` reads)."""
        out = {f.name: dataclasses.asdict(getattr(self, f.name)) for f in dataclasses.fields(self)}
        out["model"] = self.model.to_dict()
        return out


SECTIONS = {"data": DataConfig, "train": TrainConfig, "decode": DecodeConfig}


# ---------------------------------------------------------------- type conversion
def parse_scalar(text: str, tp: Any) -> Any:
    """Parse a command-line string as type ``tp`` (``null``/``none`` for None)."""
    low = text.strip().lower()
    origin = typing.get_origin(tp)
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        if low in ("null", "none", "~"):
            if type(None) in typing.get_args(tp):
                return None
        for arg in typing.get_args(tp):
            if arg is type(None):
                continue
            try:
                return parse_scalar(text, arg)
            except ValueError:
                pass
        raise ValueError
    if tp is bool:
        if low in ("true", "yes", "1", "on"):
            return True
        if low in ("false", "no", "0", "off"):
            return False
        raise ValueError
    if tp is int:
        return int(text)
    if tp is float:
        return float(text)
    if tp is Any:
        loaded = yaml.safe_load(text)
        return loaded
    return coerce(text, tp)


# ---------------------------------------------------------------- building the tree
def _build_section(cls: type, raw: Any, where: str, prefix: str) -> Any:
    """``cls(**raw)``: unknown keys here, types and ranges in the dataclass itself."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}: '{prefix}' must be a mapping, got {type(raw).__name__}")
    names = {f.name for f in dataclasses.fields(cls)}
    for key in raw:
        if key not in names:
            raise ConfigError(f"{where}: {unknown_key_message(f'{prefix}.{key}')}")
    try:
        return cls(**raw)
    except ConfigError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def unknown_key_message(key: str) -> str:
    """``unknown key 'train.lrr'``, or what replaced a removed key."""
    if key in REMOVED_KEYS:
        return f"'{key}' was removed: {REMOVED_KEYS[key]}"
    return f"unknown key '{key}'"


def drop_removed_keys(raw: dict) -> dict:
    """``raw`` without the :data:`REMOVED_KEYS`: for configs stored in checkpoints written before
    a key was removed (a config file naming one is refused instead)."""
    out = {k: (dict(v) if isinstance(v, dict) else v) for k, v in raw.items()}
    for key in REMOVED_KEYS:
        section, name = key.split(".")
        if isinstance(out.get(section), dict):
            out[section].pop(name, None)
    return out


def config_from_dict(raw: Any, where: str = "config") -> Config:
    """Build and validate a :class:`Config` from a plain nested dict."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}: the top level must be a mapping of sections")
    for key in raw:
        if key not in ("data", "model", "train", "decode"):
            raise ConfigError(f"{where}: unknown key '{key}'")
    sections = {name: _build_section(cls, raw.get(name), where, name) for name, cls in SECTIONS.items()}
    model_raw = raw.get("model") or {}
    if not isinstance(model_raw, dict):
        raise ConfigError(f"{where}: 'model' must be a mapping")
    model_raw = dict(model_raw)
    name = model_raw.pop("name", ModelConfig.name)
    if not isinstance(name, str):
        raise ConfigError(f"{where}: model.name: expected str, got {name!r}")
    args = check_model_args(name, model_raw, where)
    return Config(model=ModelConfig(name=name, args=args), **sections)


def load_config(path: str | Path, overrides: list[str] | tuple[str, ...] = ()) -> Config:
    """Read a YAML config file, or a preset by name (``cpu/transformer``, see
    :mod:`companion.presets`), and apply ``--set key=value`` overrides."""
    path = resolve(path)
    if path.is_dir():
        raise ConfigError(f"{path}: is a directory, expected a YAML config file")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: config file not found") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read config ({exc.strerror})") from None
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise ConfigError(f"{path}:{line}: {problem}") from None
    if raw is not None and not isinstance(raw, dict):
        raise ConfigError(f"{path}: the top level must be a mapping of sections")
    raw = apply_overrides(raw or {}, overrides)
    return config_from_dict(raw, str(path))


def apply_overrides(raw: dict, overrides: list[str] | tuple[str, ...]) -> dict:
    """Apply ``section.key=value`` strings to a raw config dict, parsing each value as the
    declared type of its key (``--set train.lr=abc: expected float``)."""
    raw = {k: (dict(v) if isinstance(v, dict) else v) for k, v in raw.items()}
    for item in overrides:
        if "=" not in item:
            raise ConfigError(f"--set {item}: expected key=value")
        key, text = item.split("=", 1)
        parts = key.strip().split(".")
        if len(parts) != 2 or parts[0] not in ("data", "model", "train", "decode"):
            raise ConfigError(f"--set {item}: unknown key '{key}'")
        section, name = parts
        if section == "model":
            model_name = (raw.get("model") or {}).get("name", ModelConfig.name)
            tp = str if name == "name" else model_arg_type(model_name, name, f"--set {item}")
        else:
            hints = typing.get_type_hints(SECTIONS[section])
            if name not in hints:
                raise ConfigError(f"--set {item}: {unknown_key_message(key)}")
            tp = hints[name]
        try:
            value = parse_scalar(text, tp)
        except ValueError:
            raise ConfigError(f"--set {item}: expected {_type_name(tp)}") from None
        raw.setdefault(section, {})
        if raw[section] is None:
            raw[section] = {}
        raw[section][name] = value
    return raw
