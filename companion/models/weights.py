"""Whose weights a state dict holds: a model and a checkpoint's weights that do not fit, said in
one line -- the family the weights look like beside the one the config builds, the first
missing and unexpected parameter names, the first shape that differs -- instead of torch's
``Error(s) in loading state_dict`` with every key of the model."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import torch

from companion.errors import ConfigError
from companion.models import MODELS, build_model, get_model_class


def _pattern(key: str) -> str:
    """A parameter name with its layer indices dropped (``decoder.layers.3.ffn.w1.weight`` ->
    ``decoder.layers.#.ffn.w1.weight``), so that models of one family but different depths
    have the same names."""
    return re.sub(r"(?<=\.)\d+(?=\.)", "#", key)


def family_of(weights: Mapping[str, Any]) -> str | None:
    """The registered model family whose parameter names (layer indices aside, each family
    built with its default arguments on the ``meta`` device) are those of ``weights``; None
    when no family's names cover at least half of them."""
    names = {_pattern(k) for k in weights}
    best, best_share = None, 0.5
    for family in list(MODELS):
        try:
            with torch.device("meta"):
                model = build_model({"name": family}, 8, 8)
        except (ConfigError, TypeError, ValueError, RuntimeError, NotImplementedError):
            continue
        if not isinstance(model, torch.nn.Module):  # a registered stand-in without weights
            continue
        theirs = {_pattern(k) for k in model.state_dict()}
        share = len(names & theirs) / max(len(names | theirs), 1)
        if share > best_share:
            best, best_share = family, share
    return best


def registered_name(model: Any) -> str:
    """The name ``model``'s class is registered under, else the class name."""
    cls = type(model)
    for name in MODELS:
        try:
            if get_model_class(name) is cls:
                return name
        except ConfigError:
            continue
    return cls.__name__


def weights_mismatch(model: torch.nn.Module, weights: Mapping[str, Any], family: str | None = None) -> str | None:
    """None if ``weights`` (a state dict) has exactly ``model``'s parameter names and shapes,
    else what differs, in one line. ``family``: the name of the family the config builds
    (default: :func:`registered_name` of ``model``)."""
    expected = model.state_dict()
    missing = [k for k in expected if k not in weights]
    unexpected = [k for k in weights if k not in expected]
    reshaped = [k for k in expected
                if k in weights and tuple(getattr(weights[k], "shape", ())) != tuple(expected[k].shape)]
    if not (missing or unexpected or reshaped):
        return None
    family = family or registered_name(model)
    parts = []
    if missing or unexpected:
        seen = family_of(weights)
        if seen is not None and seen != family:
            parts.append(f"the weights are a {seen} model's, the config builds a {family}")
    if missing:
        parts.append(f"{len(missing)} parameter(s) missing, the first {missing[0]!r}")
    if unexpected:
        parts.append(f"{len(unexpected)} unexpected, the first {unexpected[0]!r}")
    if reshaped:
        k = reshaped[0]
        parts.append(f"{k!r} has shape {tuple(weights[k].shape)} in the weights, {tuple(expected[k].shape)} "
                     f"in the model")
    return "; ".join(parts)


__all__ = ["family_of", "registered_name", "weights_mismatch"]
