"""Training curves: train loss and validation NLL (or perplexity) against optimiser steps.

The source is a run directory or its ``metrics.jsonl`` (what ``companion train`` writes) or the
:class:`~companion.training.History` that :meth:`Trainer.fit` returns.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from companion.errors import DataError


def read_metrics(source: str | Path) -> tuple[list[dict], list[dict]]:
    """``(train_records, valid_records)`` from ``RUN/metrics.jsonl`` (or the file itself)."""
    path = Path(source)
    if path.is_dir():
        path = path / "metrics.jsonl"
    if not path.is_file():
        raise DataError(f"{path}: metrics file not found")
    train, valid = [], []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            raise DataError(f"{path}:{n}: not a JSON object") from None
        if "valid_nll" in rec:
            valid.append(rec)
        elif "train_loss" in rec:
            train.append(rec)
    return train, valid


def _series(source: Any) -> tuple[list[int], list[float], list[int], list[float]]:
    if hasattr(source, "train_loss") and hasattr(source, "valid"):  # a History
        steps, losses = list(source.steps), list(source.train_loss)
        valid = list(source.valid)
    else:
        train, valid = read_metrics(source)
        steps, losses = [r["step"] for r in train], [r["train_loss"] for r in train]
    return steps, losses, [r["step"] for r in valid], [r["valid_nll"] for r in valid]


def plot_curves(source: Any, ax=None, *, perplexity: bool = False, label: str | None = None,
                title: str = "training curves"):
    """Draw train loss and validation NLL (nats per target token) against steps; with
    ``perplexity=True`` draw ``exp`` of both on a log axis. ``title`` titles the axes.

    Colours (:mod:`companion.plots.palette`): without ``label`` the train and validation curves
    take :data:`~companion.plots.palette.TRAIN_COLOUR` and
    :data:`~companion.plots.palette.VALID_COLOUR`; with a ``label`` naming a model family (so
    that several runs can share the axes) validation takes the family's colour and train a
    lighter shade of it. Returns the axes."""
    import matplotlib.pyplot as plt

    from companion.plots.palette import TRAIN_COLOUR, VALID_COLOUR, colours_for, shade

    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.5))
    steps, losses, vsteps, vnll = _series(source)
    f = (lambda x: math.exp(min(x, 700.0))) if perplexity else (lambda x: x)
    prefix = f"{label}: " if label else ""
    train_colour, valid_colour = TRAIN_COLOUR, VALID_COLOUR
    if label:
        valid_colour = colours_for([label])[label]
        train_colour = shade(valid_colour, 1, 2)
    ax.plot(steps, [f(x) for x in losses], lw=1, alpha=0.8, color=train_colour, label=f"{prefix}train")
    if vsteps:
        ax.plot(vsteps, [f(x) for x in vnll], "o-", color=valid_colour, lw=2, ms=3,
                label=f"{prefix}valid")
    ax.set_xlabel("optimiser step")
    ax.set_ylabel("perplexity" if perplexity else "NLL per target token (nats)")
    if perplexity:
        ax.set_yscale("log")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    return ax


#: distinct colours for the runs of one convergence figure (all of one family, so the book's family
#: palette would draw them in shades of one red); a run whose label names JoeyNMT is drawn in black
RUN_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf")


def plot_convergence(record: Any, names: list[str] | None = None, axes=None, *,
                     title: str = "Learning speed on the reversal task",
                     tokens: dict[str, float] | None = None):
    """Learning curves of several runs side by side, from a convergence record
    (``book/results/convergence-transformer.json``, written by ``scripts/convergence.py``; a
    record dict or its name/path).

    Panels: dev perplexity (log scale) against optimiser updates, the measure of learning per
    update; with ``tokens`` (run name -> real target tokens per update, see
    :func:`companion.experiments.convergence.tokens_per_update`), against millions of real target
    tokens seen, the measure of learning per datum; and against CPU minutes spent training (one
    thread, evaluations excluded), the measure a user waits for. ``names`` picks and orders the
    experiments (default: every one of the full size); each is drawn with its ``label``, in a
    colour and line style of its own. Returns the axes."""
    import matplotlib.pyplot as plt

    from companion.experiments.records import read_record

    if not isinstance(record, dict):
        record = read_record(record)
    runs = record.get("results", {}).get("experiments", {})
    if names is None:
        names = [n for n, e in runs.items() if e.get("size") == "full"]
    missing = [n for n in names if n not in runs]
    if missing or not names:
        raise DataError(f"{record.get('name')}: no experiment {', '.join(missing) or '(none chosen)'} "
                        f"(has: {', '.join(runs) or 'none'})")
    if tokens is not None and any(n not in tokens for n in names):
        raise DataError(f"plot_convergence: no tokens per update for {[n for n in names if n not in tokens]}")
    panels = 3 if tokens is not None else 2
    if axes is None:
        fig, axes = plt.subplots(1, panels, figsize=(5.5 * panels, 3.8))
        fig.suptitle(title)
    if len(axes) != panels:
        raise DataError(f"plot_convergence: {panels} axes needed, got {len(axes)}")
    labels = [runs[n].get("label", n) for n in names]
    styles = [("o", "-"), ("s", "--"), ("^", "-."), ("D", ":"), ("v", (0, (5, 1, 1, 1)))]
    others = iter(RUN_COLOURS * 2)
    colours = {label: "black" if "joeynmt" in label.lower() else next(others) for label in labels}
    for i, (name, label) in enumerate(zip(names, labels)):
        curve = runs[name]["curve"]
        marker, line = styles[i % len(styles)]
        style = {"marker": marker, "linestyle": line, "ms": 3.5, "lw": 1.5, "color": colours[label]}
        xs = [curve["updates"]]
        if tokens is not None:
            xs.append([u * tokens[name] / 1e6 for u in curve["updates"]])
        xs.append([s / 60 for s in curve["cpu_s"]])
        for ax, x in zip(axes, xs):
            ax.plot(x, curve["dev_ppl"], label=label, **style)
    titles = [("optimiser updates", "per update")]
    if tokens is not None:
        titles.append(("millions of real target tokens seen", "per real target token"))
    titles.append(("CPU minutes of training (one thread)", "per CPU minute"))
    for ax, (xlabel, panel) in zip(axes, titles):
        ax.set_yscale("log")
        ax.set_ylabel("dev perplexity (log scale)")
        ax.set_xlabel(xlabel)
        ax.set_title(panel)
        ax.grid(alpha=0.3)
    axes[0].legend(frameon=False, fontsize=8)
    return axes
