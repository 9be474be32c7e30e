"""Figures of the RNN and LSTM chapters: gradient norms against sequence length, recall accuracy
against the number of distractors, a training run's loss and gradient norm per step, and
validation bits per character during training beside n-gram baselines.

Each function takes an optional matplotlib ``ax`` and returns it, sets a title and axis labels,
and colours each model by its family (:mod:`companion.plots.palette`); several variants of one
family get shades of its colour and distinct line styles, so that a line drawn exactly over
another stays visible. On a log axis the last value of every curve is written next to it, so the
reader can read where a curve ends without interpolating between decades.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
from matplotlib.ticker import NullLocator

from companion.plots.palette import colours_for, family_of

#: what a gradient norm is taken of: ``objective`` of
#: :func:`companion.experiments.gradients.state_gradients` -> the symbol in the labels
OBJECTIVE_SYMBOLS = {"loss": "L", "logit": "z_y"}
_STYLES = ("-", "--", ":", "-.")
_MARKERS = ("o", "s", "D", "^", "v")


def _axis(ax):
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))
    return ax


def _variant_index(labels: Sequence[str]) -> dict[str, int]:
    """For each label, how many labels of the same family come before it (0 for the first)."""
    seen: dict[object, int] = {}
    index = {}
    for label in labels:
        family = family_of(label) or label
        index[label] = seen.get(family, 0)
        seen[family] = index[label] + 1
    return index


def _label_end(ax, x: float, y: float, text: str, colour: str) -> None:
    """Write ``text`` just right of the point ``(x, y)`` (the end of a curve)."""
    ax.annotate(text, xy=(x, y), xytext=(4, 0), textcoords="offset points", va="center",
                ha="left", fontsize=7, color=colour)


def _room_for_end_labels(ax, fraction: float = 0.16) -> None:
    """Widen the x range on the right so that the end labels sit inside the panel."""
    lo, hi = ax.get_xlim()
    ax.set_xlim(lo, hi + fraction * (hi - lo))


def _short(value: float) -> str:
    """A value for an end label: 3 significant digits, powers of ten as ``1.2e-05``."""
    return f"{value:.2g}" if value and (abs(value) < 1e-2 or abs(value) >= 1e3) else f"{value:.3g}"


def plot_gradient_norms(curves: Mapping[str, Mapping[str, Sequence[float]]], ax=None,
                        title: str = "gradient reaching the first step", of: str = "loss"):
    """Log-scale gradient norms with respect to the first state against ``T``: ``h_1`` (solid,
    circles) and, for an LSTM, the cell ``c_1`` (dashed, squares).

    ``curves`` maps a label (e.g. ``"RNN"``) to the dict returned by
    :func:`companion.experiments.gradients.gradient_norms_vs_length` (keys ``"T"``, ``"h"``,
    maybe ``"c"``). ``of`` is the differentiated quantity, the ``objective`` the norms were
    measured with: ``"loss"`` (labels ``||dL/dh_1||``) or ``"logit"``, the target class's logit
    ``z_y`` (labels ``||dz_y/dh_1||``). A zero norm (an underflow) cannot be drawn on the log axis
    and is left out; the last drawn point of each curve is labelled with its value.
    """
    if of not in OBJECTIVE_SYMBOLS:
        raise ValueError(f"plot_gradient_norms: of must be one of {sorted(OBJECTIVE_SYMBOLS)}, got {of!r}")
    symbol = OBJECTIVE_SYMBOLS[of]
    ax = _axis(ax)
    colours = colours_for(list(curves))
    for label, curve in curves.items():
        for key, style, marker in (("h", "-", "o"), ("c", "--", "s")):
            if key not in curve:
                continue
            points = [(T, v) for T, v in zip(curve["T"], curve[key]) if v > 0]
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            ax.plot(xs, ys, marker=marker, linestyle=style, color=colours[label],
                    label=rf"{label}: $\|\partial {symbol}/\partial {key}_1\|$")
            if points:
                _label_end(ax, xs[-1], ys[-1], _short(ys[-1]), colours[label])
    ax.set_yscale("log")
    _room_for_end_labels(ax)
    ax.set_xlabel("sequence length T")
    quantity = "the loss L" if of == "loss" else "the target logit $z_y$"
    ax.set_ylabel(f"norm of the gradient of {quantity}\n(mean over examples)")
    ax.set_title(title)
    ax.legend(fontsize=7)
    ax.grid(True, which="major", alpha=0.3)
    return ax


def plot_accuracy_vs_length(accuracy: Mapping[str, Mapping[int, Sequence[float]]], chance: float,
                            ax=None, title: str = "recall of the first symbol after T distractors"):
    """Recall accuracy against the number of distractors ``T``: the mean over seeds as a line,
    every seed as a dot; ``accuracy[label][T]`` is the list of per-seed accuracies.

    The x axis is logarithmic with a tick at every ``T`` drawn, labelled with its value. Each
    label has its own line style and marker, the later ones hollow and larger, so that curves that
    coincide (two models both at 100%) remain distinguishable."""
    ax = _axis(ax)
    colours = colours_for(list(accuracy))
    all_lengths: set[int] = set()
    for k, (label, by_length) in enumerate(accuracy.items()):
        lengths = sorted(by_length)
        all_lengths.update(lengths)
        means = [sum(by_length[T]) / len(by_length[T]) for T in lengths]
        line, = ax.plot(lengths, means, linestyle=_STYLES[k % len(_STYLES)],
                        marker=_MARKERS[k % len(_MARKERS)], markersize=5 + 2.5 * k,
                        fillstyle="full" if k == 0 else "none", markeredgewidth=1.5,
                        linewidth=1.5 + 0.5 * (k % 2), label=label, color=colours[label], zorder=3 + k)
        for T in lengths:
            if len(by_length[T]) > 1:
                ax.scatter([T] * len(by_length[T]), by_length[T], color=line.get_color(), s=12,
                           alpha=0.5, zorder=2)
    ax.axhline(chance, color="gray", linestyle=":", label="chance")
    ax.set_xscale("log")
    ticks = sorted(all_lengths)
    ax.set_xticks(ticks)
    ax.set_xticklabels([str(T) for T in ticks])
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xlabel("distractors T")
    ax.set_ylabel("recall accuracy")
    ax.set_ylim(0, 1.08)
    ax.set_title(title)
    ax.legend(fontsize=8)
    ax.grid(True, alpha=0.3)
    return ax


def plot_runs(runs: Mapping[str, object], ax=None, title: str = "training loss and gradient norm per step"):
    """Loss (top) and global gradient norm before clipping (bottom, log scale) per step, for
    :class:`companion.experiments.tasks.RecallRun` s keyed by label; ``title`` goes above the
    top panel, and the last gradient norm of each run is written at the end of its curve.
    Returns the two axes."""
    if ax is None:
        _, ax = plt.subplots(2, 1, figsize=(6, 5), sharex=True)
    top, bottom = ax
    colours = colours_for(list(runs))
    for label, run in runs.items():
        top.plot(run.losses, label=label, color=colours[label], linewidth=1.2)
        bottom.plot(run.grad_norms, label=label, color=colours[label], linewidth=1.2)
        if run.grad_norms:
            _label_end(bottom, len(run.grad_norms) - 1, run.grad_norms[-1], _short(run.grad_norms[-1]),
                       colours[label])
    top.set_title(title)
    top.set_ylabel("training loss")
    bottom.set_ylabel("gradient norm (before clipping)")
    bottom.set_yscale("log")
    _room_for_end_labels(bottom)
    bottom.set_xlabel("step")
    top.legend()
    for a in ax:
        a.grid(True, alpha=0.3)
    return ax


def plot_valid_bpc(curves: Mapping[str, tuple[Sequence[int], Sequence[float]]], ax=None,
                   baselines: Mapping[str, float] | None = None,
                   title: str = "validation bits per character during training"):
    """Validation bits per character against the training step, one line per model, with a
    horizontal line for each of the ``baselines`` (e.g. n-gram models), named in the right
    margin outside the plot, where no curve can run under the name."""
    ax = _axis(ax)
    colours = colours_for([*curves, *(baselines or {})])
    variant = _variant_index(list(curves))
    for label, (steps, bpc) in curves.items():
        ax.plot(steps, bpc, marker="o", linestyle=_STYLES[variant[label] % len(_STYLES)],
                label=label, color=colours[label])
    for label, value in (baselines or {}).items():
        ax.axhline(value, linestyle="--", color=colours[label], alpha=0.8)
        ax.annotate(label, xy=(1.0, value), xycoords=("axes fraction", "data"), xytext=(4, 0),
                    textcoords="offset points", va="center", ha="left", fontsize=8,
                    color=colours[label], annotation_clip=False)
    ax.set_xlabel("training step")
    ax.set_ylabel("validation bits per character")
    ax.set_title(title)
    ax.legend(loc="best", fontsize=8)
    ax.grid(True, alpha=0.3)
    return ax
