"""The model registry: a config's ``model.name`` -> model class.

Every model takes plain keyword constructor arguments, so a YAML ``model:`` section maps to
``cls(src_vocab_size=..., tgt_vocab_size=..., **args)`` (language models take ``vocab_size``
instead). Classes are imported lazily, so a registry entry costs nothing until it is used.
"""

from __future__ import annotations

import importlib
import inspect
import typing
from typing import TYPE_CHECKING, Any

from companion.errors import ConfigError
from companion.validation import coerce, type_name

if TYPE_CHECKING:  # the registry itself imports no torch: a config can be checked without it
    from torch import nn

#: name -> "module:Class"; :func:`register_model` adds classes at run time (tests, notebooks).
MODELS: dict[str, str | type] = {
    "seq2seq": "companion.models.seq2seq:Seq2Seq",
    "charlm": "companion.models.charlm:CharLM",
    "transformer": "companion.models.transformer:Transformer",
    "rnnsearch": "companion.models.attention:RNNSearch",
    "rnnencdec": "companion.models.attention:RNNEncDec",
}

#: constructor parameters filled from the vocabularies, never from the config
VOCAB_ARGS = ("src_vocab_size", "tgt_vocab_size", "vocab_size")


def register_model(name: str, cls: type) -> None:
    """Make ``cls`` buildable as ``model: {name: <name>, ...}``."""
    MODELS[name] = cls


def get_model_class(name: str, where: str = "config") -> type:
    """The class registered as ``name``; :class:`ConfigError` if unknown or not importable."""
    entry = MODELS.get(name)
    if entry is None:
        raise ConfigError(f"{where}: model.name: unknown model {name!r} (known: {', '.join(sorted(MODELS))})")
    if isinstance(entry, type):
        return entry
    module_name, cls_name = entry.split(":")
    try:
        module = importlib.import_module(module_name)
        return getattr(module, cls_name)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"{where}: model {name!r} is not available ({exc})") from None


def _parameters(cls: type) -> dict[str, inspect.Parameter]:
    params = dict(inspect.signature(cls.__init__).parameters)
    params.pop("self", None)
    return {k: p for k, p in params.items()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and k not in VOCAB_ARGS}


def model_arg_type(name: str, key: str, where: str = "config") -> Any:
    """Declared type of constructor argument ``key`` of model ``name`` (``Any`` if unannotated)."""
    cls = get_model_class(name, where)
    params = _parameters(cls)
    if key not in params:
        raise ConfigError(f"{where}: unknown key 'model.{key}' ({cls.__name__} takes: {', '.join(params)})")
    try:
        hints = typing.get_type_hints(cls.__init__)
    except Exception:  # noqa: BLE001 - unresolvable annotations: fall back to the default's type
        hints = {}
    if key in hints:
        return hints[key]
    default = params[key].default
    if default is not inspect.Parameter.empty and default is not None:
        return type(default)
    return Any


def check_model_args(name: str, args: dict[str, Any], where: str = "config") -> dict[str, Any]:
    """Validate a ``model:`` section against the constructor; return the coerced arguments."""
    cls = get_model_class(name, where)
    params = _parameters(cls)
    out = {}
    for key, value in args.items():
        tp = model_arg_type(name, key, where)
        try:
            out[key] = coerce(value, tp)
        except ValueError:
            raise ConfigError(f"{where}: model.{key}: expected {type_name(tp)}, got {value!r}") from None
    missing = [k for k, p in params.items() if p.default is inspect.Parameter.empty and k not in out]
    if missing:
        raise ConfigError(f"{where}: model.{missing[0]}: required by {cls.__name__} but missing")
    return out


def with_defaults(model_cfg: dict[str, Any]) -> dict[str, Any]:
    """``{"name": ..., **args}`` completed with the constructor's default values, so two configs
    that build the same model compare equal."""
    name = model_cfg["name"]
    params = _parameters(get_model_class(name))
    defaults = {k: p.default for k, p in params.items() if p.default is not inspect.Parameter.empty}
    return {"name": name, **defaults, **{k: v for k, v in model_cfg.items() if k != "name"}}


def build_model(model_cfg: Any, src_vocab_size: int | None, tgt_vocab_size: int) -> nn.Module:
    """Instantiate ``model_cfg`` (a :class:`~companion.config.ModelConfig` or a dict with
    ``name`` and the constructor arguments) for the given vocabulary sizes."""
    if isinstance(model_cfg, dict):
        args = dict(model_cfg)
        name = args.pop("name")
    else:
        name, args = model_cfg.name, dict(model_cfg.args)
    cls = get_model_class(name)
    args = check_model_args(name, args)
    sig = inspect.signature(cls.__init__).parameters
    if "vocab_size" in sig:
        args["vocab_size"] = tgt_vocab_size
    else:
        args["src_vocab_size"] = src_vocab_size
        args["tgt_vocab_size"] = tgt_vocab_size
    return cls(**args)
