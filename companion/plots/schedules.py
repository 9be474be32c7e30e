"""Learning-rate schedules against the optimiser step.

:func:`plot_lr_schedules` draws one line per schedule (the rate each step of a run would use),
in the book's colours (:func:`companion.plots.palette.colours_for`: a label naming a model family
takes its colour, others the neutral colours in order), on a logarithmic rate axis by default, so
a first step many times the peak and a slow decay are both visible. Tick labels are plain numbers
(the Hangul font the chapters use has no mathtext minus sign).

Returns the axes; nothing calls ``plt.show()``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import DataError

#: line styles cycled over the schedules, so lines differ in more than colour
STYLES = ("-", "--", ":", "-.")


def plot_lr_schedules(schedules: Mapping[str, Sequence[float]], *, first_step: int = 1, ax: Any = None,
                      log: bool = True, title: str = "learning rate per step") -> Any:
    """Draw each schedule's rate per step.

    Args:
        schedules: label -> the rate of steps ``first_step, first_step + 1, ...`` (all as long).
        first_step: the number of the first step drawn.
        ax: matplotlib axes (a new figure if None).
        log: a logarithmic rate axis (rates must be positive).
        title: the axes' title.

    Returns:
        The axes.
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, LogLocator

    from companion.plots.palette import colours_for

    if not schedules:
        raise DataError("plot_lr_schedules: no schedules to draw")
    lengths = {len(rates) for rates in schedules.values()}
    if len(lengths) != 1 or 0 in lengths:
        raise DataError(f"plot_lr_schedules: every schedule needs the same, non-zero number of steps "
                        f"(got {sorted(lengths)})")
    if log and any(r <= 0 for rates in schedules.values() for r in rates):
        raise DataError("plot_lr_schedules: a logarithmic axis needs positive rates (log=False for others)")
    if ax is None:
        _, ax = plt.subplots(figsize=(6.6, 3.6))
    colours = colours_for(list(schedules))
    steps = range(first_step, first_step + lengths.pop())
    for n, (label, rates) in enumerate(schedules.items()):
        ax.plot(steps, list(rates), color=colours[label], linestyle=STYLES[n % len(STYLES)], lw=1.8, label=label)
    if log:
        ax.set_yscale("log")
        low = min(r for rates in schedules.values() for r in rates)
        high = max(r for rates in schedules.values() for r in rates)
        decades = math.log10(high / low)  # 1-2-5 ticks over a short range, powers of ten over a long one
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0) if decades <= 3 else (1.0,)))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.yaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))
    ax.set_xlabel("optimiser step")
    ax.set_ylabel("learning rate")
    ax.set_title(title)
    ax.grid(alpha=0.3, which="major")
    ax.legend(frameon=False, fontsize="small")
    return ax


__all__ = ["STYLES", "plot_lr_schedules"]
