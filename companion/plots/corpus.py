"""Figures about the corpus: what a fixed training budget buys as the lexicon grows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import DataError


def plot_lexicon_budget(rows: Sequence[Mapping[str, Any]], ax: Any = None, *,
                        title: str | None = None) -> Any:
    """Test BLEU and the share of exactly right outputs (both 0-100) against the number of
    distinct English words in the training corpus (log scale), one point per corpus; each point
    is labelled with its lemmas per lexical list. ``rows`` are the ``levels`` of the
    ``lexicon-budget`` record (``english_words``, ``test_bleu``, ``test_exact``,
    ``lemmas_per_class``)."""
    if not rows:
        raise DataError("plot_lexicon_budget: no rows to plot")
    for key in ("english_words", "test_bleu", "test_exact", "lemmas_per_class"):
        if key not in rows[0]:
            raise DataError(f"plot_lexicon_budget: rows need a {key!r} entry")
    from companion.plots.palette import OTHER_COLOURS

    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(6.4, 3.8))
    rows = sorted(rows, key=lambda r: r["english_words"])
    xs = [r["english_words"] for r in rows]
    # two measures of one model, not two models: colours no model family uses
    ax.plot(xs, [r["test_bleu"] for r in rows], "o-", color=OTHER_COLOURS[0], label="test BLEU")
    ax.plot(xs, [100 * r["test_exact"] for r in rows], "s--", color=OTHER_COLOURS[1],
            label="sentences exactly right (%)")
    for r in rows:
        lemmas = r["lemmas_per_class"] or "all"
        ax.annotate(f"{lemmas}/list", (r["english_words"], r["test_bleu"]), textcoords="offset points",
                    xytext=(4, 6), fontsize=8)
    ax.set_xscale("log")
    ax.set_xlabel("distinct English words in the training corpus (log scale)")
    ax.set_ylabel("score (0-100)")
    ax.set_ylim(0, 100)
    ax.legend(frameon=False)
    if title:
        ax.set_title(title)
    return ax


__all__ = ["plot_lexicon_budget"]
