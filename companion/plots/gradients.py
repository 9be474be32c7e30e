"""Figures of the RNN and LSTM chapters: gradient norms against sequence length, recall accuracy
against the number of distractors, and a training run's loss and gradient norm per step.

Each function takes an optional matplotlib ``ax`` and returns it, and sets a title and axis labels.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt

from companion.plots.palette import colours_for


def _axis(ax):
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))
    return ax


def plot_gradient_norms(curves: Mapping[str, Mapping[str, Sequence[float]]], ax=None,
                        title: str = "gradient reaching the first step"):
    """Log-scale ``||dL/dh_1||`` (solid) and ``||dL/dc_1||`` (dashed) against ``T``.

    ``curves`` maps a label (e.g. ``"RNN, init"``) to the dict returned by
    :func:`companion.experiments.gradients.gradient_norms_vs_length` (keys ``"T"``, ``"h"``, maybe ``"c"``).
    """
    ax = _axis(ax)
    colours = colours_for(list(curves))
    for label, curve in curves.items():
        line, = ax.plot(curve["T"], curve["h"], marker="o", label=f"{label}: ||dL/dh_1||",
                        color=colours[label])
        if "c" in curve:
            ax.plot(curve["T"], curve["c"], marker="s", linestyle="--", color=line.get_color(),
                    label=f"{label}: ||dL/dc_1||")
    ax.set_yscale("log")
    ax.set_xlabel("sequence length T")
    ax.set_ylabel("gradient norm (mean over examples)")
    ax.set_title(title)
    ax.legend(fontsize=7)
    ax.grid(True, which="both", alpha=0.3)
    return ax


def plot_accuracy_vs_length(accuracy: Mapping[str, Mapping[int, Sequence[float]]], chance: float,
                            ax=None, title: str = "recall of the first symbol after T distractors"):
    """Recall accuracy against the number of distractors ``T``: the mean over seeds as a line,
    every seed as a dot; ``accuracy[label][T]`` is the list of per-seed accuracies."""
    ax = _axis(ax)
    colours = colours_for(list(accuracy))
    for label, by_length in accuracy.items():
        lengths = sorted(by_length)
        means = [sum(by_length[T]) / len(by_length[T]) for T in lengths]
        line, = ax.plot(lengths, means, marker="o", label=label, color=colours[label])
        for T in lengths:
            ax.scatter([T] * len(by_length[T]), by_length[T], color=line.get_color(), s=12, alpha=0.5)
    ax.axhline(chance, color="gray", linestyle=":", label="chance")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("distractors T")
    ax.set_ylabel("recall accuracy")
    ax.set_ylim(0, 1.05)
    ax.set_title(title)
    ax.legend()
    ax.grid(True, alpha=0.3)
    return ax


def plot_runs(runs: Mapping[str, object], ax=None, title: str = "training loss and gradient norm per step"):
    """Loss (top) and global gradient norm before clipping (bottom, log scale) per step, for
    :class:`companion.experiments.tasks.RecallRun` s keyed by label; ``title`` goes above the
    top panel. Returns the two axes."""
    if ax is None:
        _, ax = plt.subplots(2, 1, figsize=(6, 5), sharex=True)
    top, bottom = ax
    colours = colours_for(list(runs))
    for label, run in runs.items():
        top.plot(run.losses, label=label, color=colours[label])
        bottom.plot(run.grad_norms, label=label, color=colours[label])
    top.set_title(title)
    top.set_ylabel("training loss")
    bottom.set_ylabel("gradient norm (before clipping)")
    bottom.set_yscale("log")
    bottom.set_xlabel("step")
    top.legend()
    for a in ax:
        a.grid(True, alpha=0.3)
    return ax


def plot_valid_bpc(curves: Mapping[str, tuple[Sequence[int], Sequence[float]]], ax=None,
                   baselines: Mapping[str, float] | None = None,
                   title: str = "validation bits per character during training"):
    """Validation bits per character against the training step, one line per model, with
    horizontal lines for ``baselines`` (e.g. n-gram models)."""
    ax = _axis(ax)
    colours = colours_for([*curves, *(baselines or {})])
    for label, (steps, bpc) in curves.items():
        ax.plot(steps, bpc, marker="o", label=label, color=colours[label])
    for label, value in (baselines or {}).items():
        ax.axhline(value, linestyle="--", color=colours[label], alpha=0.8)
        ax.annotate(label, xy=(0.01, value), xycoords=("axes fraction", "data"),
                    textcoords="offset points", xytext=(2, 3), fontsize=8)
    ax.set_xlabel("training step")
    ax.set_ylabel("validation bits per character")
    ax.set_title(title)
    ax.legend()
    ax.grid(True, alpha=0.3)
    return ax
