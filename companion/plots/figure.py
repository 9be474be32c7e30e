"""Showing a figure in a chapter: check first that a reader can tell what it shows.

Chapters end a plotting cell with :func:`show` instead of ``plt.show()``. It checks every open
figure with :func:`figure_problems` and raises :class:`FigureError` naming each panel that lacks
what a reader needs, then shows them:

- a title on every panel, or one title for the figure (``fig.suptitle``); a panel stacked on a
  panel it shares its x axis with, or twinned with one (``ax.twinx()``), may use that panel's;
- x and y axis labels on every panel whose axes are drawn; an axis shared with a labelled panel
  (``sharex=True`` stacks, ``sharey=True`` rows) counts as labelled, and so does a twin's x axis.

Panels with no axes drawn (``ax.axis("off")``: the architecture diagrams) need only the title;
colour bars are exempt; a picture whose axes mean nothing (a sample image) is exempted
explicitly with :func:`no_axis_labels`. ``tests/test_book_prose.py`` holds the chapters to this:
no code cell calls ``plt.show()``, and every cell with a stored figure calls :func:`show`.
"""

from __future__ import annotations

import weakref
from typing import Any

from companion.errors import CompanionError

#: axes exempted from the axis-label check by :func:`no_axis_labels`
_UNLABELLED: weakref.WeakSet = weakref.WeakSet()


class FigureError(CompanionError, ValueError):
    """A figure a chapter is about to show lacks a title or an axis label."""


def no_axis_labels(ax: Any) -> Any:
    """Exempt ``ax`` from the axis-label check (its title is still required): for a picture
    whose x and y mean nothing. Returns ``ax``."""
    _UNLABELLED.add(ax)
    return ax


def _siblings(group: Any, ax: Any) -> list[Any]:
    return [a for a in group.get_siblings(ax) if a is not ax]


def _has(ax: Any, what: str) -> bool:
    return bool(getattr(ax, f"get_{what}")().strip())


def figure_problems(fig: Any) -> list[str]:
    """What a reader would miss in ``fig``: one line per panel and missing label ([] if none)."""
    suptitle = fig._suptitle.get_text().strip() if getattr(fig, "_suptitle", None) else ""
    panels = [ax for ax in fig.axes if ax.get_visible() and not hasattr(ax, "_colorbar")]
    problems = []
    for n, ax in enumerate(panels):
        name = f"panel {n + 1} of {len(panels)}" if len(panels) > 1 else "the plot"
        if ax.get_title().strip():
            name += f" ({ax.get_title().strip()!r})"
        twins = _siblings(ax._twinned_axes, ax)
        shared_x = _siblings(ax.get_shared_x_axes(), ax)
        shared_y = _siblings(ax.get_shared_y_axes(), ax)
        titled = (bool(suptitle) or _has(ax, "title")
                  or any(_has(a, "title") for a in twins + shared_x))
        if not titled:
            problems.append(f"{name}: no title (ax.set_title, or fig.suptitle for the figure)")
        if not ax.axison or ax in _UNLABELLED:
            continue
        if not (_has(ax, "xlabel") or any(_has(a, "xlabel") for a in twins + shared_x)):
            problems.append(f"{name}: no x-axis label (ax.set_xlabel)")
        if not (_has(ax, "ylabel") or any(_has(a, "ylabel") for a in shared_y)):
            problems.append(f"{name}: no y-axis label (ax.set_ylabel)")
    return problems


def check_figure(fig: Any) -> None:
    """Raise :class:`FigureError` listing :func:`figure_problems` of ``fig``, if any."""
    problems = figure_problems(fig)
    if problems:
        raise FigureError("figure not shown: " + "; ".join(problems))


def show() -> None:
    """Check every open figure with :func:`check_figure`, then ``plt.show()`` (which shows them
    all). A figure that fails is closed before the error is raised, so it is not shown either."""
    import matplotlib.pyplot as plt

    for number in plt.get_fignums():
        fig = plt.figure(number)
        try:
            check_figure(fig)
        except FigureError:
            plt.close(fig)
            raise
    plt.show()


__all__ = ["FigureError", "check_figure", "figure_problems", "no_axis_labels", "show"]
