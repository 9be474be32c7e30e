"""One colour per model family, the same in every figure of the book.

A reader who has seen RNNsearch drawn in orange in chapter 4 should find it orange in chapter 6.
Every plotting function of :mod:`companion.plots` that draws models takes its colours from here:
:func:`family_of` reads the family from a display label ("RNNsearch (attention)", "LSTM, forget
bias 3", "5-gram"), :func:`colours_for` gives each label its family's colour, and several labels
of one family in one figure (two LSTM variants) get shades of that colour, darkest first.

Training curves use two more hues, :data:`TRAIN_COLOUR` and :data:`VALID_COLOUR`, so a train
and a validation line never share one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from matplotlib.colors import to_hex, to_rgb

#: the colour of each model family (distinct hues, from matplotlib's tab10 and tab20b)
FAMILY_COLOURS: dict[str, str] = {
    "ngram": "#7f7f7f",               # grey: the counting baselines
    "rnn": "#8c564b",                 # brown
    "lstm": "#1f77b4",                # blue
    "gru": "#17becf",                 # cyan
    "seq2seq": "#9467bd",             # purple: Sutskever et al.'s LSTM encoder-decoder
    "seq2seq_reversed": "#e377c2",    # pink: the same, source reversed
    "rnnencdec": "#2ca02c",           # green: Cho et al.'s fixed-vector baseline
    "rnnsearch": "#ff7f0e",           # orange: Bahdanau et al.'s attention
    "transformer": "#d62728",         # red: Vaswani et al., pre-LN (the package's default)
    "transformer_postln": "#bcbd22",  # olive: the paper's post-LN placement
}

#: training loss and validation curves of one run: two hues used by no family
TRAIN_COLOUR = "#393b79"  # dark indigo
VALID_COLOUR = "#bd9e39"  # dark gold

#: colours for labels that name no family (a baseline, an oracle), in order
OTHER_COLOURS = ("#000000", "#637939", "#843c39", "#5254a3", "#8c6d31")

#: (pattern in the normalised label, family): the first match wins, so a specific name comes
#: before the name it contains ("rnnsearch" before "rnn", "postln" before "transformer")
_RULES: tuple[tuple[str, str], ...] = (
    ("postln", "transformer_postln"),
    ("transformer", "transformer"),
    ("rnnsearch", "rnnsearch"),
    ("attention", "rnnsearch"),
    ("rnnencdec", "rnnencdec"),
    ("reversed", "seq2seq_reversed"),
    ("seq2seq", "seq2seq"),
    ("gru", "gru"),
    ("lstm", "lstm"),
    ("rnn", "rnn"),
    ("gram", "ngram"),
    ("kneser", "ngram"),
)


def _normalise(label: str) -> str:
    return re.sub(r"[^a-z0-9]", "", label.lower())


def family_of(label: str) -> str | None:
    """The model family a display label names (a key of :data:`FAMILY_COLOURS`), or None.

    >>> family_of("RNNsearch (attention)"), family_of("LSTM, forget bias 3"), family_of("5-gram")
    ('rnnsearch', 'lstm', 'ngram')
    >>> family_of("Transformer, post-LN"), family_of("seq2seq, reversed"), family_of("chance")
    ('transformer_postln', 'seq2seq_reversed', None)
    """
    key = _normalise(str(label))
    exact = {family.replace("_", ""): family for family in FAMILY_COLOURS}
    if key in exact:
        return exact[key]
    for pattern, family in _RULES:
        if pattern in key:
            return family
    return None


def family_colour(family: str) -> str:
    """The colour of ``family`` (a key of :data:`FAMILY_COLOURS`)."""
    try:
        return FAMILY_COLOURS[family]
    except KeyError:
        raise KeyError(f"no colour for model family {family!r} (families: {', '.join(FAMILY_COLOURS)})") from None


def shade(colour: str, k: int, n: int) -> str:
    """Shade ``k`` of ``n`` of ``colour``: the colour itself for ``k = 0``, then lighter, up to
    half-way to white for the last one."""
    if n <= 1 or k == 0:
        return to_hex(colour)
    mix = 0.5 * k / (n - 1)
    return to_hex(tuple(c + (1.0 - c) * mix for c in to_rgb(colour)))


def colours_for(labels: Sequence[str]) -> dict[str, str]:
    """A colour for each label: its family's, in shades when a family has several labels;
    labels of no family take :data:`OTHER_COLOURS` in order."""
    labels = list(dict.fromkeys(str(x) for x in labels))
    families = {label: family_of(label) for label in labels}
    members: dict[str, list[str]] = {}
    for label, family in families.items():
        if family is not None:
            members.setdefault(family, []).append(label)
    colours: dict[str, str] = {}
    others = iter(OTHER_COLOURS * (1 + len(labels) // len(OTHER_COLOURS)))
    for label, family in families.items():
        if family is None:
            colours[label] = next(others)
        else:
            group = members[family]
            colours[label] = shade(FAMILY_COLOURS[family], group.index(label), len(group))
    return colours


__all__ = ["FAMILY_COLOURS", "OTHER_COLOURS", "TRAIN_COLOUR", "VALID_COLOUR", "colours_for",
           "family_colour", "family_of", "shade"]
