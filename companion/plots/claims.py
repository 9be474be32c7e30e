"""Every tested claim on one axis: a forest plot of chapter 6's claim table.

Claims are measured in different units (BLEU, AER, perplexity, accuracy), each with its own
minimum effect fixed before its runs. :func:`plot_claims` puts them on one scale by dividing
each effect by that minimum and orienting it so that the claimed direction is positive: a
value of 1 is "exactly the smallest effect the claim counts", 0 is no effect, below 0 is the
opposite of the claim (a non-inferiority claim's line is its margin, at -1). Each row shows the seeds' differences (paired claims) as small dots and
the mean as a large marker coloured by the verdict, so a reader sees at a glance which claims
cleared their line, which were within noise, and how far the seeds spread.

Returns the axes; nothing calls ``plt.show()``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import DataError

#: verdict -> (colour, marker); the verdicts of :mod:`companion.experiments.verdicts`
VERDICT_STYLE = {"holds": ("#2ca02c", "o"), "within noise": ("#7f7f7f", "s"),
                 "opposite": ("#d62728", "D")}


def scaled_effects(row: Mapping[str, Any]) -> tuple[float, list[float]]:
    """(mean, per-seed values) of one claim row in units of its minimum effect, the claimed
    direction positive. An unpaired row has no per-seed differences (an empty list).

    >>> scaled_effects({"mean": -1.5, "sign": -1, "min_effect": 0.5, "diffs": [-1.0, -2.0]})
    (3.0, [2.0, 4.0])
    """
    line = float(row["min_effect"])
    if not line > 0:
        raise DataError(f"claim {row.get('key', '?')!r}: min_effect must be positive, got {line}")
    sign = int(row.get("sign", 1))
    seeds = [sign * float(d) / line for d in (row.get("diffs") or [])]
    return sign * float(row["mean"]) / line, seeds


def plot_claims(rows: Sequence[Mapping[str, Any]], *, ax: Any = None, title: str | None = None,
                clip: float = 8.0) -> Any:
    """Draw one line per measured claim (verdict holds / within noise / opposite), in the order
    given, top to bottom.

    Args:
        rows: claim rows of :func:`companion.experiments.papers.claim_rows` (``key``, ``mean``,
            ``min_effect``, ``sign``, ``diffs``, ``verdict``); rows of another verdict ("not
            tested", "not measured") are skipped.
        ax: a matplotlib axes (a new figure sized to the rows if None).
        title: the title (a default names what the axis means).
        clip: values beyond +-clip minimum effects are drawn at the edge with their value
            beside them, so one large effect does not squeeze the others.

    Returns:
        The axes.
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    measured = [r for r in rows if r.get("verdict") in VERDICT_STYLE]
    if not measured:
        raise DataError("plot_claims: no measured claim among the rows (verdicts holds, "
                        "within noise or opposite)")
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 0.32 * len(measured) + 1.6))
    n = len(measured)
    for i, row in enumerate(measured):
        y = n - 1 - i
        mean, seeds = scaled_effects(row)
        colour, marker = VERDICT_STYLE[row["verdict"]]
        ax.scatter([max(-clip, min(clip, s)) for s in seeds], [y] * len(seeds), s=10,
                   color="0.6", zorder=2, linewidths=0)
        shown = max(-clip, min(clip, mean))
        ax.scatter([shown], [y], s=46, color=colour, marker=marker, zorder=3)
        if shown != mean:  # beyond the edge: its value beside it
            ax.annotate(f"{mean:.0f}", (shown, y), xytext=(6 if mean > 0 else -6, 0),
                        textcoords="offset points", va="center",
                        ha="left" if mean > 0 else "right", fontsize="x-small")
    for x, style in ((0, "-"), (1, "--"), (-1, ":")):
        ax.axvline(x, color="0.3", linestyle=style, linewidth=0.8, zorder=1)
    ax.set_yticks(range(n))
    ax.set_yticklabels([r["key"] for r in reversed(measured)], fontsize="small")
    ax.set_ylim(-0.7, n - 0.3)
    ax.set_xlim(-clip - 0.8, clip + 0.8)
    ax.set_xlabel("effect in the claimed direction, in units of the claim's minimum effect")
    ax.set_ylabel("claim")
    ax.set_title(title or "Every tested claim: mean effect (large marker) and each seed (dots)")
    handles = [Line2D([], [], color=c, marker=m, linestyle="", label=v)
               for v, (c, m) in VERDICT_STYLE.items()]
    handles.append(Line2D([], [], color="0.6", marker="o", linestyle="", markersize=4,
                          label="one seed's difference"))
    handles.append(Line2D([], [], color="0.3", linestyle="--", label="minimum effect (1)"))
    ax.legend(handles=handles, frameon=False, fontsize="small", loc="lower right")
    return ax


__all__ = ["VERDICT_STYLE", "plot_claims", "scaled_effects"]
