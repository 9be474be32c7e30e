"""Figures about decoding and evaluation: BLEU by source length, search settings compared,
validation perplexity curves of several runs.

Each function takes an optional matplotlib ``ax`` and returns it; nothing calls ``plt.show()``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import DataError


def _axes(ax):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(6.4, 3.6))
    return ax


def _bucket_label(bucket: tuple[float, float]) -> str:
    lo, hi = bucket
    return f"{int(lo)}+" if math.isinf(hi) else f"{int(lo)}-{int(hi) - 1}"


def plot_bleu_by_length(
    results: Mapping[str, Sequence[tuple[tuple[float, float], int, float]]],
    ax: Any = None,
    *,
    unit: str = "source tokens",
    title: str | None = None,
) -> Any:
    """Grouped bars of BLEU per length bucket, one colour per model (its family's,
    :func:`companion.plots.palette.colours_for`).

    ``results`` maps a model name to :func:`companion.evaluation.bleu_by_length` rows; every
    model must use the same buckets. A bucket a model has no sentence in (BLEU NaN) gets no bar.
    The number of sentences each bar rests on is written under its bucket's label: one ``n``
    when every model was scored on the same sentences, else one count per model in legend order
    (``n=115/115/345``), so a bar on few sentences is not labelled with another model's count.
    """
    if not results:
        raise DataError("plot_bleu_by_length: no results to plot")
    names = list(results)
    buckets = [row[0] for row in results[names[0]]]
    for name in names[1:]:
        if [row[0] for row in results[name]] != buckets:
            raise DataError(f"plot_bleu_by_length: {name!r} uses different buckets from {names[0]!r}")
    from companion.plots.palette import colours_for

    ax = _axes(ax)
    width = 0.8 / len(names)
    colours = colours_for(names)
    for j, name in enumerate(names):
        drawn = [(i + (j - (len(names) - 1) / 2) * width, row[2])
                 for i, row in enumerate(results[name]) if not math.isnan(row[2])]
        ax.bar([x for x, _ in drawn], [y for _, y in drawn], width=width, label=name,
               color=colours[name])
    # an empty bucket (BLEU NaN: no sentence of that length) gets no bar, not a bar at 0
    counts = [[int(results[n][i][1]) for n in names] for i in range(len(buckets))]
    ax.set_xticks(range(len(buckets)))
    ax.set_xticklabels([f"{_bucket_label(b)}\n(n={c[0] if len(set(c)) == 1 else '/'.join(map(str, c))})"
                        for b, c in zip(buckets, counts)])
    ax.set_xlabel(f"length ({unit})")
    ax.set_ylabel("BLEU")
    # the legend gets its own band above the tallest bar, so it never covers one
    top = max([row[2] for name in names for row in results[name] if not math.isnan(row[2])], default=0.0)
    ax.set_ylim(0, max(top, 1.0) * 1.2)
    ax.legend(frameon=False, ncol=min(len(names), 4), loc="upper center", fontsize="small")
    if title:
        ax.set_title(title)
    return ax


def plot_search_settings(rows: Sequence[Mapping[str, Any]], ax: Any = None, *,
                         title: str | None = None, model: str | None = None) -> Any:
    """BLEU (left axis, bars) and mean output length relative to the references (right axis,
    dots) for each decoding setting; ``rows`` hold ``setting``, ``BLEU`` and ``len_ratio``.
    The bars take the colour of ``model``'s family (grey without one); the dots are black."""
    if not rows:
        raise DataError("plot_search_settings: no rows to plot")
    for key in ("setting", "BLEU", "len_ratio"):
        if key not in rows[0]:
            raise DataError(f"plot_search_settings: rows need a {key!r} entry")
    from companion.plots.palette import FAMILY_COLOURS, family_of

    ax = _axes(ax)
    xs = range(len(rows))
    family = family_of(model) if model else None
    bars = FAMILY_COLOURS[family] if family else "#8c8c8c"
    ax.bar(xs, [r["BLEU"] for r in rows], color=bars, alpha=0.85)
    ax.set_ylabel("BLEU (bars)")
    ax.set_xticks(list(xs))
    ax.set_xticklabels([r["setting"] for r in rows], rotation=30, ha="right")
    twin = ax.twinx()
    twin.plot(list(xs), [r["len_ratio"] for r in rows], "o", color="black")
    twin.axhline(1.0, color="black", lw=0.8, ls=":")
    twin.set_ylabel("output length / reference length (dots)")
    ax.set_xlabel("decoding setting")
    if title:
        ax.set_title(title)
    return ax


def plot_valid_curves(
    histories: Mapping[str, Sequence[Mapping[str, Any]]], ax: Any = None, key: str = "valid_ppl",
    *, title: str | None = None,
) -> Any:
    """One line per run of ``key`` (default validation perplexity) against the training step,
    on a log axis whose ticks are plain numbers (1, 2, 5 times each power of ten), with the last
    value of each run written at the end of its line.

    ``histories`` maps a run name to its evaluation records, e.g. ``History.valid`` of
    :class:`companion.training.Trainer` (dicts with ``step`` and ``key``).
    """
    if not histories:
        raise DataError("plot_valid_curves: no runs to plot")
    from companion.plots.palette import colours_for

    from matplotlib.ticker import FuncFormatter, LogLocator

    from companion.plots.gradients import _label_end, _room_for_end_labels, _short

    ax = _axes(ax)
    colours = colours_for(list(histories))
    for name, records in histories.items():
        if not records or key not in records[0]:
            raise DataError(f"plot_valid_curves: run {name!r} has no {key!r} records")
        steps, values = [r["step"] for r in records], [r[key] for r in records]
        ax.plot(steps, values, marker="o", ms=3, label=name, color=colours[name])
        _label_end(ax, steps[-1], values[-1], _short(values[-1]), colours[name])
    ax.set_xlabel("training step")
    ax.set_ylabel("validation perplexity" if key == "valid_ppl" else key)
    ax.set_yscale("log")
    # plain numbers at 1, 2 and 5 times each power of ten (not 3x10^0), so a short range still
    # gets labelled ticks; the last value of every curve is written at its end
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))
    _room_for_end_labels(ax)
    ax.legend(frameon=False)
    if title:
        ax.set_title(title)
    return ax


__all__ = ["plot_bleu_by_length", "plot_search_settings", "plot_valid_curves"]
