"""From sentences to a corpus: deduplication, leak-free splits, challenge sets, datasheet, files.

Layout written by :func:`write_corpus`::

    DIR/{train,valid,test}.{ko,en,align}     one sentence (or alignment) per line
    DIR/challenge/<phenomenon>.{ko,en,align}  numbers, negation, tense, wh, relative, long
    DIR/datasheet.json                        counts, length histograms, vocabularies, tags

A level (:mod:`companion.data.kosynth.level`) sets the lexicon cut, the name pool, the clause
budget and the longest sentence; ``full`` (the default) is the whole grammar.

Splits are leak-free: pairs are grouped by their English side (which determines nothing
about the Korean, but every Korean sentence has exactly one English), and whole groups go to
one split, so no Korean or English sentence of valid/test occurs in train.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from companion.data.kosynth.english import number_word
from companion.data.kosynth.grammar import SentenceBuilder, lexicon_of, make_sentence
from companion.data.kosynth.level import MIN_WORDS, Level, resolve_level
from companion.errors import DataError

SPLITS = ("train", "valid", "test")
#: challenge set name -> predicate on a pair
CHALLENGES = ("numbers", "negation", "tense", "wh", "relative", "long")
_REQUIRE = {"numbers": "number", "negation": "negation", "tense": "tense", "wh": "wh",
            "relative": "relative", "long": "long"}
LONG_WORDS = 40  # the long challenge set of the full level; see Level.long_words
MIN_SIZE = 3
MAX_WORDS = 80  # the full level's longest sentence; see Level.max_words


@dataclass(frozen=True)
class Pair:
    """One Korean sentence, its canonical English translation and their gold alignment.

    ``align`` holds Pharaoh links ``(i, j)``: i indexes Korean whitespace tokens (eojeols),
    j English whitespace tokens, both from 0. ``phenomena`` are tags such as "negation",
    "past", "wh", "relative", "number", "coordination", "subordination". ``refs`` are extra
    correct English references (possibly empty). ``lemmas`` are the lexicon keys of the
    lemmas the pair uses ("noun:사과", "verb:먹다/eat"; not compared).
    """

    ko: str
    en: str
    align: tuple[tuple[int, int], ...]
    phenomena: frozenset[str]
    refs: tuple[str, ...] = ()
    lemmas: frozenset[str] = field(default=frozenset(), compare=False, repr=False)


#: the English words the generator writes numbers with (``twenty-one`` is two of them)
NUMBER_TOKENS = frozenset(w for n in range(100) for w in number_word(n).split("-"))


def has_number(en: str) -> bool:
    """Whether an English sentence holds a number (digits or a number word)."""
    return any(w[0].isdigit() or w.lower() in NUMBER_TOKENS
               for w in en.replace("-", " ").replace(",", " ").replace(".", " ").replace("?", " ").split())


def _challenge_ok(name: str, pair: Pair, long_words: int = LONG_WORDS) -> bool:
    tags = pair.phenomena
    if name == "numbers":  # the tag also marks "How old is ...?", which has no number to keep
        return "number" in tags and has_number(pair.en)
    if name == "tense":
        return bool(tags & {"past", "future", "progressive"})
    if name == "long":
        return len(pair.en.split()) >= long_words
    return name in tags


def _draw(builder: SentenceBuilder, require: str | None = None) -> Pair:
    max_words = builder.level.max_words
    while True:
        s = make_sentence(builder, require)
        if s.en[0][0].isdigit() or not MIN_WORDS <= len(s.en) <= max_words:
            continue  # no sentence opens with a numeral; 3..max_words English words
        return Pair(" ".join(s.ko), " ".join(s.en), s.align, s.tags, s.refs, s.lemmas)


def generate_pairs(n: int, seed: int, level: str | Level | None = "full") -> list[Pair]:
    """``n`` distinct pairs drawn with ``random.Random(seed)`` at ``level`` (a name such as
    "small", or a :class:`Level`), deduplicated as pairs."""
    if n < 0:
        raise DataError(f"number of pairs must be >= 0, got {n}")
    builder = SentenceBuilder(random.Random(seed), resolve_level(level))
    seen: set[tuple[str, str]] = set()
    out: list[Pair] = []
    attempts = 0
    while len(out) < n:
        attempts += 1
        if attempts > 20 * n + 1000:
            raise DataError(f"could not draw {n} distinct pairs (got {len(out)})")
        p = _draw(builder)
        key = (p.ko, p.en)
        if key in seen:
            continue
        seen.add(key)
        out.append(p)
    return out


def split_sizes(size: int) -> dict[str, int]:
    """90/5/5 with at least one valid and one test pair: split_sizes(100000) -> 5000 test."""
    if size < MIN_SIZE:
        raise DataError(f"--size must be at least {MIN_SIZE} (one pair each for train, valid "
                        f"and test), got {size}")
    held = max(1, round(size * 0.05))
    return {"train": size - 2 * held, "valid": held, "test": held}


def split_pairs(pairs: list[Pair], seed: int) -> dict[str, list[Pair]]:
    """Leak-free 90/5/5 split: pairs sharing an English sentence stay in one split."""
    sizes = split_sizes(len(pairs))
    groups: dict[str, list[int]] = {}
    for i, p in enumerate(pairs):
        groups.setdefault(p.en, []).append(i)
    order = list(groups.values())  # first-appearance order: deterministic
    random.Random(f"{seed}/split").shuffle(order)
    chosen: dict[str, list[int]] = {"test": [], "valid": [], "train": []}
    for g in order:
        for name in ("test", "valid"):
            if len(chosen[name]) < sizes[name]:
                chosen[name].extend(g)
                break
        else:
            chosen["train"].extend(g)
    return {name: [pairs[i] for i in sorted(idx)] for name, idx in chosen.items()}


def challenge_sets(seed: int, size: int, exclude_ko: set[str], exclude_en: set[str],
                   level: str | Level | None = "full") -> dict[str, list[Pair]]:
    """One set per phenomenon, drawn from its own seeded stream, none of it in ``exclude``;
    ``long`` holds pairs of at least ``level.long_words`` English words."""
    level = resolve_level(level)
    out = {}
    for name in CHALLENGES:
        builder = SentenceBuilder(random.Random(f"{seed}/challenge/{name}"), level)
        got: list[Pair] = []
        seen: set[str] = set()
        attempts = 0
        while len(got) < size and attempts < 200 * size + 1000:
            attempts += 1
            p = _draw(builder, _REQUIRE[name])
            if (not _challenge_ok(name, p, level.long_words) or p.ko in seen or p.ko in exclude_ko
                    or p.en in exclude_en):
                continue
            seen.add(p.ko)
            got.append(p)
        out[name] = got
    return out


def format_alignment(pairs) -> str:
    """Pharaoh format: format_alignment([(0, 0), (0, 1), (1, 2)]) == "0-0 0-1 1-2"."""
    return " ".join(f"{i}-{j}" for i, j in pairs)


def parse_alignment(line: str, where: str = "<string>") -> list[tuple[int, int]]:
    out = []
    for item in line.split():
        a, sep, b = item.partition("-")
        if not sep or not a.isdigit() or not b.isdigit():
            raise DataError(f"{where}: bad alignment link {item!r} (expected i-j)")
        out.append((int(a), int(b)))
    return out


def read_alignments(path) -> list[list[tuple[int, int]]]:
    """Read a Pharaoh alignment file, one sentence per line."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror or exc}") from None
    return [parse_alignment(line, f"{path}:{n}") for n, line in enumerate(lines, 1)]


def _hist(lengths: list[int]) -> list[int]:
    counts = [0] * (max(lengths, default=0) + 1)
    for n in lengths:
        counts[n] += 1
    return counts


def _split_stats(pairs: list[Pair]) -> dict:
    ko_len = [len(p.ko.split()) for p in pairs]
    en_len = [len(p.en.split()) for p in pairs]
    ko_vocab = {w for p in pairs for w in p.ko.split()}
    en_vocab = {w for p in pairs for w in p.en.split()}
    return {
        "pairs": len(pairs),
        "ko_tokens": sum(ko_len),
        "en_tokens": sum(en_len),
        "ko_vocab": len(ko_vocab),
        "en_vocab": len(en_vocab),
        "ko_length_histogram": _hist(ko_len),
        "en_length_histogram": _hist(en_len),
        "en_words_20_plus": sum(n >= 20 for n in en_len),
        "en_words_30_plus": sum(n >= 30 for n in en_len),
        "pairs_with_extra_refs": sum(bool(p.refs) for p in pairs),
        "en_words_max": max(en_len, default=0),
        "lemmas_used": len(set().union(*(p.lemmas for p in pairs))),
    }


def level_sheet(level: str | Level | None) -> dict:
    """The level's name and knobs, its lexicon by kind, and the lemmas added for coverage."""
    level = resolve_level(level)
    lex = lexicon_of(level)
    return {"name": level.name, **level.knobs(), "min_words": MIN_WORDS,
            "long_words": level.long_words, "lexicon": lex.counts(),
            "added_for_coverage": list(lex.added)}


def datasheet(splits: dict[str, list[Pair]], challenges: dict[str, list[Pair]], seed: int,
              size: int, level: str | Level | None = "full") -> dict:
    """Counts per split, length histograms, vocabulary sizes (``ko_vocab``: distinct eojeols,
    ``en_vocab``: distinct English words, punctuation attached), lemmas used, phenomenon
    frequencies, and the level."""
    from companion import __version__

    tags: Counter = Counter()
    for name in SPLITS:
        for p in splits[name]:
            tags.update(p.phenomena)
    sheet = level_sheet(level)
    return {
        "generator": "companion.data.kosynth",
        "version": __version__,
        "seed": seed,
        "size": size,
        "level": sheet,
        "lexicon_lemmas": sheet["lexicon"]["lemmas"],
        "lemmas_used": len(set().union(*(p.lemmas for ps in splits.values() for p in ps))),
        "splits": {name: _split_stats(splits[name]) for name in SPLITS},
        "challenge": {name: len(v) for name, v in challenges.items()},
        "challenge_long_min_words": sheet["long_words"],
        "phenomena": dict(sorted(tags.items())),
        "alignment_format": "Pharaoh i-j (i: Korean eojeol, j: English word, from 0)",
    }


def _prepare_dir(out_dir: Path, force: bool) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise DataError(f"output path {out_dir} exists and is not a directory")
    if out_dir.is_dir() and any(out_dir.iterdir()) and not force:
        raise DataError(f"output directory {out_dir} is not empty (use --force to overwrite)")
    try:
        (out_dir / "challenge").mkdir(parents=True, exist_ok=True)
        probe = out_dir / ".write-test"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as exc:
        raise DataError(f"cannot write to output directory {out_dir}: "
                        f"{exc.strerror or exc}") from None


def _write_lines(path: Path, lines) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for line in lines:
            f.write(line)
            f.write("\n")


def _write_pairs(stem: Path, pairs: list[Pair]) -> None:
    _write_lines(stem.with_suffix(".ko"), (p.ko for p in pairs))
    _write_lines(stem.with_suffix(".en"), (p.en for p in pairs))
    _write_lines(stem.with_suffix(".align"), (format_alignment(p.align) for p in pairs))


def write_corpus(out_dir, size: int, seed: int, *, force: bool = False,
                 challenge_size: int | None = None, level: str | Level | None = "full") -> dict:
    """Generate ``size`` pairs with ``seed`` at ``level`` and write the corpus; returns the
    datasheet.

    Same seed and level -> byte-identical files. Raises :class:`DataError` for a size below
    3, an unwritable directory, or a non-empty directory without ``force``, and
    :class:`ConfigError` for an unknown level.
    """
    if not isinstance(size, int) or size < MIN_SIZE:
        split_sizes(size if isinstance(size, int) else -1)
    if challenge_size is not None and challenge_size < 0:
        raise DataError(f"--challenge-size must be >= 0, got {challenge_size}")
    level = resolve_level(level)
    out_dir = Path(out_dir)
    _prepare_dir(out_dir, force)
    pairs = generate_pairs(size, seed, level)
    splits = split_pairs(pairs, seed)
    train_ko = {p.ko for p in splits["train"]}
    train_en = {p.en for p in splits["train"]}
    if challenge_size is None:
        challenge_size = min(1000, max(20, size // 100))
    challenges = challenge_sets(seed, challenge_size, train_ko, train_en, level)
    for name in SPLITS:
        _write_pairs(out_dir / name, splits[name])
    for name, cpairs in challenges.items():
        _write_pairs(out_dir / "challenge" / name, cpairs)
    sheet = datasheet(splits, challenges, seed, size, level)
    with open(out_dir / "datasheet.json", "w", encoding="utf-8", newline="\n") as f:
        json.dump(sheet, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")
    return sheet

