"""How far an engine's outputs are from the package's: equal outputs, and for every sentence
that differs, where and by how much the package's own model preferred its token.

An engine (onnxruntime, CTranslate2) computes the same function in another order of floating
point operations, so two candidate tokens whose log-probabilities are almost equal can swap;
the *logit gap* -- the package model's log-probability of its token minus that of the engine's
token, teacher-forced on the common prefix -- says whether a difference is such a near tie
(a gap of the order of 1e-5) or a bug (a gap of whole units).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

from companion.specials import BOS


def first_difference(a: Sequence[int], b: Sequence[int]) -> int | None:
    """The first position where ``a`` and ``b`` differ (None when equal)."""
    for p, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return p
    return None if len(a) == len(b) else min(len(a), len(b))


@torch.no_grad()
def logit_gap(model: Any, source: Sequence[int], prefix: Sequence[int], mine: int, theirs: int) -> float:
    """``log p(mine) - log p(theirs)`` of ``model`` at the position after ``prefix`` (BOS
    first, then ``prefix``), for ``source`` (ids ending with EOS)."""
    was = model.training
    model.eval()
    try:
        device = next(model.parameters()).device
        src = torch.tensor([list(source)], device=device)
        state = model.encode(src, torch.tensor([len(source)], device=device))
        log_probs = None
        for token in [BOS, *prefix]:
            log_probs, state = model.step(torch.tensor([token], device=device), state)
        return float(log_probs[0, mine] - log_probs[0, theirs])
    finally:
        model.train(was)


def greedy_differences(model: Any, sources: Sequence[Sequence[int]], reference: Sequence[Sequence[int]],
                       engine: Sequence[Sequence[int]]) -> list[dict]:
    """Every sentence whose engine output differs from the package's (``reference``): ``{"index",
    "position", "package", "engine", "package_token", "engine_token", "gap"}`` (``gap``: the
    package model's :func:`logit_gap` at the first difference; None where one output is a
    prefix of the other, which only a length limit can cause)."""
    out = []
    for i, (src, ref, eng) in enumerate(zip(sources, reference, engine)):
        p = first_difference(ref, eng)
        if p is None:
            continue
        mine = ref[p] if p < len(ref) else None
        theirs = eng[p] if p < len(eng) else None
        gap = None if mine is None or theirs is None else logit_gap(model, src, ref[:p], mine, theirs)
        out.append({"index": i, "position": p, "package": list(ref), "engine": list(eng),
                    "package_token": mine, "engine_token": theirs, "gap": gap})
    return out


def agreement(model: Any, sources: Sequence[Sequence[int]], reference: Sequence[Sequence[int]],
              engine: Sequence[Sequence[int]]) -> dict:
    """``{"sentences", "equal", "differences"}``: how many outputs are equal, and
    :func:`greedy_differences` for the others."""
    diffs = greedy_differences(model, sources, reference, engine)
    return {"sentences": len(sources), "equal": len(sources) - len(diffs), "differences": diffs}


__all__ = ["agreement", "first_difference", "greedy_differences", "logit_gap"]
