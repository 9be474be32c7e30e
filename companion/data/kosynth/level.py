"""Difficulty levels: how much of the lexicon, how many names and clauses a corpus draws on.

A :class:`Level` is a frozen set of knobs that one generator instance carries (two generators
with different levels in one process do not interfere):

* ``lemmas_per_class`` -- the first N lemmas of every lexical list: nouns of each noun class,
  verbs of each frame, adjectives, adverbs, time expressions (``None``: all). The cut keeps
  selection restrictions satisfiable and adds back the few lemmas a phenomenon needs (see
  :func:`companion.data.kosynth.lexicon.select_lexicon`);
* ``surnames`` x ``given_names`` -- the name pool (``None``: all);
* ``max_clauses`` -- finite clauses joined by coordination/subordination in one sentence
  (1: none; 2: one "because/when/if" or "and/but"; 4: two subordinations coordinated);
* ``max_words`` -- the longest English sentence in words (the shortest is always 3).

>>> level_from_name("small").max_words
30
>>> level_from_name("small").long_words
20
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from companion.errors import ConfigError

MIN_WORDS = 3
#: bounds of the knobs (the grammar nests at most two coordinated subordinations: 4 clauses)
MAX_CLAUSES = 4
WORD_LIMITS = (10, 80)
#: the long challenge set of the full level; shorter levels scale it (see Level.long_words)
FULL_LONG_WORDS = 25
KNOBS = ("lemmas_per_class", "surnames", "given_names", "max_clauses", "max_words")


def _check_count(name: str, value, allow_none: bool = True) -> None:
    """A positive int (or None where ``allow_none``), else a one-line ConfigError."""
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        extra = " or None (all)" if allow_none else ""
        raise ConfigError(f"level knob {name} must be a positive integer{extra}, got {value!r}")


@dataclass(frozen=True)
class Level:
    """The knobs of one difficulty level; the default is ``full`` (the whole lexicon)."""

    name: str = "full"
    lemmas_per_class: int | None = None
    surnames: int | None = None
    given_names: int | None = None
    max_clauses: int = MAX_CLAUSES
    max_words: int = WORD_LIMITS[1]

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ConfigError(f"level name must be a non-empty string, got {self.name!r}")
        for knob in ("lemmas_per_class", "surnames", "given_names"):
            _check_count(knob, getattr(self, knob))
        _check_count("max_clauses", self.max_clauses, allow_none=False)
        if self.max_clauses > MAX_CLAUSES:
            raise ConfigError(f"level knob max_clauses must be 1..{MAX_CLAUSES}, "
                              f"got {self.max_clauses}")
        _check_count("max_words", self.max_words, allow_none=False)
        lo, hi = WORD_LIMITS
        if not lo <= self.max_words <= hi:
            raise ConfigError(f"level knob max_words must be {lo}..{hi}, got {self.max_words}")

    @property
    def long_words(self) -> int:
        """Threshold of the ``long`` challenge set and tag: two thirds of ``max_words`` (30 ->
        20, 20 -> 13), at most 25 English words (medium and full: 25). (A long sentence tells
        one story -- a linked pair of clauses about one participant whose arguments carry
        relative clauses -- and such a story seldom runs past 30 words.)"""
        return min(FULL_LONG_WORDS, max(MIN_WORDS + 1, (2 * self.max_words) // 3))

    def knobs(self) -> dict:
        """The knob values by name (what the datasheet records)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "name"}

    def with_knobs(self, **knobs) -> Level:
        """This level with some knobs changed; a change shows in the name
        (``small+max_words=25``) so that a datasheet never calls a modified level "small"."""
        unknown = sorted(set(knobs) - set(KNOBS))
        if unknown:
            raise ConfigError(f"unknown level knob {unknown[0]!r} (choose from "
                              f"{', '.join(KNOBS)})")
        changed = {k: v for k, v in knobs.items() if getattr(self, k) != v}
        if not changed:
            return self
        suffix = "".join(f"+{k}={'all' if v is None else v}" for k, v in changed.items())
        return replace(self, name=self.name + suffix, **changed)


#: the named levels, smallest first; ``full`` is today's corpus and the default
LEVELS: dict[str, Level] = {
    "tiny": Level("tiny", lemmas_per_class=3, surnames=2, given_names=3, max_clauses=3,
                  max_words=20),
    "small": Level("small", lemmas_per_class=6, surnames=4, given_names=4, max_clauses=3,
                   max_words=30),
    "medium": Level("medium", lemmas_per_class=30, surnames=10, given_names=10,
                    max_clauses=4, max_words=50),
    "full": Level("full"),
}


def level_from_name(name: str) -> Level:
    """The named level: level_from_name("small") -> Level("small", 6, ...)."""
    if name not in LEVELS:
        raise ConfigError(f"unknown level {name!r} (choose from {', '.join(LEVELS)})")
    return LEVELS[name]


def resolve_level(level: str | Level | None) -> Level:
    """A :class:`Level` from a level, a level name or None (``full``)."""
    if level is None:
        return LEVELS["full"]
    if isinstance(level, Level):
        return level
    if isinstance(level, str):
        return level_from_name(level)
    raise ConfigError(f"level must be a name ({', '.join(LEVELS)}) or a Level, "
                      f"got {type(level).__name__}")


def _parse_count(option: str, text: str, allow_all: bool) -> int | None:
    """``"6"`` -> 6, ``"all"`` -> None (where allowed), else a one-line ConfigError."""
    if allow_all and text == "all":
        return None
    if not text.isdigit() or int(text) < 1:
        hint = " or 'all'" if allow_all else ""
        raise ConfigError(f"{option} must be a positive integer{hint}, got {text!r}")
    return int(text)


def parse_knobs(*, lemmas_per_class: str | None = None, names: str | None = None,
                max_clauses: str | None = None, max_words: str | None = None) -> dict:
    """Command-line strings -> knob values (only those given).

    ``names`` is ``SxG`` (surnames x given names), ``N`` (N x N) or ``all``.
    """
    out: dict = {}
    if lemmas_per_class is not None:
        out["lemmas_per_class"] = _parse_count("--lemmas-per-class", lemmas_per_class, True)
    if names is not None:
        parts = names.lower().split("x")
        try:
            if len(parts) > 2:
                raise ConfigError(names)
            counts = [_parse_count("--names", p, True) for p in parts]
        except ConfigError:
            raise ConfigError(f"--names must be SxG (e.g. 4x4), N or 'all', "
                              f"got {names!r}") from None
        out["surnames"], out["given_names"] = counts[0], counts[-1]
    if max_clauses is not None:
        out["max_clauses"] = _parse_count("--max-clauses", max_clauses, False)
    if max_words is not None:
        out["max_words"] = _parse_count("--max-words", max_words, False)
    return out
