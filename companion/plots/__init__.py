"""Figures for the book: one module per kind of figure (alignments, curves, heatmaps, ...).

Every plotting function takes an optional matplotlib ``ax`` and returns it, so a chapter can
compose figures; nothing here calls ``plt.show()``. A chapter shows its figures with
:func:`show` (:mod:`companion.plots.figure`: every panel titled and its axes labelled), and model
families keep one colour across the book (:mod:`companion.plots.palette`).
"""

from __future__ import annotations

from companion.errors import require_extra

require_extra("matplotlib", "plots", "companion.plots")

from companion.plots.figure import FigureError, check_figure, no_axis_labels, show  # noqa: E402
from companion.plots.palette import FAMILY_COLOURS, colours_for, family_of  # noqa: E402


def use_hangul_font() -> str:
    """Make matplotlib render Hangul, offline, on any machine.

    matplotlib's default font has no Hangul glyphs (they draw as empty boxes). The
    ``koreanize-matplotlib`` wheel ships NanumGothic; importing it registers the font file and
    sets it as the default family. Returns the family name now in use.
    """
    import matplotlib

    require_extra("koreanize_matplotlib", "plots", "drawing Hangul")  # importing it registers the font

    matplotlib.rcParams["axes.unicode_minus"] = False
    return matplotlib.rcParams["font.family"][0]
