"""From sentences to a corpus: deduplication, leak-free splits, challenge sets, datasheet, files.

Layout written by :func:`write_corpus`::

    DIR/{train,valid,test}.{ko,en,align}     one sentence (or alignment) per line
    DIR/challenge/<phenomenon>.{ko,en,align}  numbers, negation, tense, wh, relative, long
    DIR/datasheet.json                        counts, length histograms, vocabularies, tags

A level (:mod:`companion.data.kosynth.level`) sets the lexicon cut, the name pool, the clause
budget and the longest sentence; ``full`` (the default) is the whole grammar.

The writer streams: it draws pairs and writes them as it goes, in memory independent of the
corpus size but for about 6 bytes per pair (the Korean digests that keep pairs distinct, see
:mod:`.digests`, and the held-out split keys; no pair is held). Splits are leak-free: a Korean
sentence occurs once in a corpus, and pairs are grouped by a seeded hash of their English side
(:mod:`.heldout`), whole groups going to one split, so no Korean or English sentence of
valid/test occurs in train. :func:`generate_pairs` and :func:`split_pairs` give the same pairs
and splits in memory, through the same code.

Format 2 (:data:`FORMAT_VERSION`, recorded in the datasheet): splits by the English side's
hash. Format 1 (the datasheets without ``format_version``) shuffled the English groups in memory:
the same pairs for a seed and level, in other splits.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
from collections import Counter
from array import array
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from companion.data.kosynth import korean as KO
from companion.data.kosynth.english import number_word
from companion.data.kosynth.digests import DigestSet, digest64
from companion.data.kosynth.grammar import NATURALNESS_RULES, SentenceBuilder, lexicon_of, make_sentence
from companion.data.kosynth.heldout import KEY_SPACE, HeldOut, assign, candidate_bound, split_key
from companion.data.kosynth.level import MIN_WORDS, Level, resolve_level
from companion.data.kosynth.probes import PROBES, pick_builder
from companion.errors import DataError

SPLITS = ("train", "valid", "test")
#: challenge set name -> predicate on a pair
CHALLENGES = ("numbers", "negation", "tense", "wh", "relative", "long")
_REQUIRE = {"numbers": "number", "negation": "negation", "tense": "tense", "wh": "wh",
            "relative": "relative", "long": "long"}
LONG_WORDS = 25  # the long challenge set of the full level; see Level.long_words
#: the relative set keeps sentences of moderate length, so that the relative clause, not the
#: rest of a long sentence, decides whether a translation is right
RELATIVE_MAX_WORDS = 16
#: what each challenge set tests and what it does not (recorded in the datasheet)
CHALLENGE_NOTES = {
    "numbers": {
        "tests": "counted noun phrases (native numerals and digits with their counters: 명, 분, "
                 "마리, 개, 권, 장 ...) and clock times, each number to be kept exactly",
        "does_not_test": "ordinals, dates, prices, arithmetic; ages asked with 몇 살 (no "
                         "number in the reference) are left out"},
    "negation": {
        "tests": "안 and -지 않다 (short and long negation) in main and relative clauses; 못 "
                 "'cannot / could not / will not be able to'; 없다 'does not have', 'there is "
                 "no'; 모르다 'does not know'; negation and quantity: 한 명도 안 V 'none of ... "
                 "V' against 다 V-지는 않다 'not all of ... V'",
        "does_not_test": "negative polarity items (아무도, 전혀), 아니다 'is not', double "
                         "negation, prohibitions (-지 마), negated questions"},
    "tense": {
        "tests": "past, future and progressive main clauses, with the tense of subordinate "
                 "and relative clauses as the references give it (sequence of tenses in past "
                 "sentences: 'would meet', 'was cooking')",
        "does_not_test": "perfect aspects, the pluperfect, habitual -곤 하다, evidentials"},
    "wh": {
        "tests": "questions with 누가, 누구를, 무엇을, 어디로, 어디에서, 언제, 왜; 몇 + counter "
                 "'how many' (of the object or of the subject); 무슨 N 'what N'",
        "does_not_test": "어떤 'which', embedded questions, several wh-words in one sentence, "
                         "echo questions, yes/no questions"},
    "relative": {
        "tests": "subject and object relative clauses (present, past, future, progressive, "
                 "negated) in sentences of at most 16 English words, so that the relative "
                 "clause decides the outcome",
        "does_not_test": "relatives on adjuncts (the park where ...), stacked relatives, "
                         "non-restrictive relatives, long-distance dependencies"},
    "long": {
        "tests": "sentences of at least the level's long_words English words: coordinated "
                 "and subordinated clauses with relative clauses inside",
        "does_not_test": "any one phenomenon: an error anywhere fails the item"},
}
MIN_SIZE = 3
MAX_WORDS = 80  # the full level's longest sentence; see Level.max_words
#: the corpus format the writer produces (see the module docstring)
FORMAT_VERSION = 2
FORMAT_NOTE = ("splits by a seeded 64-bit hash of the English side (kosynth.heldout), written while "
               "generating; format 1 (datasheets without format_version) shuffled English groups in "
               "memory: the same pairs for a seed and level, in other splits")


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
    if name == "relative":
        return name in tags and len(pair.en.split()) <= RELATIVE_MAX_WORDS
    return name in tags


#: the share of training pairs drawn from the builders of :mod:`.probes` (못, 없다, 모르다,
#: 한 명도 / 다 ...지는 않다, 몇, 무슨): what a challenge set tests, training shows too
PROBE_SHARE = 0.05


def _draw(builder: SentenceBuilder, require: str | None = None) -> Pair:
    if require is None and builder.rng.random() < PROBE_SHARE:
        return _draw_probe(builder, PROBES[int(builder.rng.random() * len(PROBES))])
    max_words = builder.level.max_words
    while True:
        s = make_sentence(builder, require)
        if s.en[0][0].isdigit() or not MIN_WORDS <= len(s.en) <= max_words:
            continue  # no sentence opens with a numeral; 3..max_words English words
        return Pair(" ".join(s.ko), " ".join(s.en), s.align, s.tags, s.refs, s.lemmas)


def _draw_challenge(builder: SentenceBuilder, name: str) -> Pair:
    """One candidate of challenge set ``name``: from the main grammar, or from one of the
    builders of :mod:`.probes` (못, 없다, 모르다, the scope of 다, 몇, 무슨), chosen by the
    set's mix."""
    fn = pick_builder(builder, name)
    if fn is None:
        return _draw(builder, _REQUIRE[name])
    return _draw_probe(builder, fn)


def _draw_probe(builder: SentenceBuilder, fn) -> Pair:
    """One pair from the probe builder ``fn``, in a random speech level."""
    max_words = builder.level.max_words
    while True:
        s = fn(builder, KO.LEVELS[int(builder.rng.random() * len(KO.LEVELS))])
        if s.en[0][0].isdigit() or not MIN_WORDS <= len(s.en) <= max_words:
            continue
        return Pair(" ".join(s.ko), " ".join(s.en), s.align, s.tags, s.refs, s.lemmas)


def iter_pairs(n: int, seed: int, level: str | Level | None = "full") -> Iterator[Pair]:
    """Yield ``n`` pairs with distinct Korean sides, drawn with ``random.Random(seed)`` at
    ``level``, as they are drawn. Memory: 32 bits of a digest per Korean sentence (a
    :class:`~.digests.DigestSet`: 5 MB per million pairs), nothing per pair beyond that.

    The grammar gives every Korean sentence one English translation, so distinct Korean sides
    are distinct pairs; a Korean sentence drawn again with another English would be dropped, so
    that a source sentence never occurs twice in a corpus (nor in two splits)."""
    if n < 0:
        raise DataError(f"number of pairs must be >= 0, got {n}")
    builder = SentenceBuilder(random.Random(seed), resolve_level(level))
    seen = DigestSet(expected=n)
    made = attempts = 0
    while made < n:
        attempts += 1
        if attempts > 20 * n + 1000:
            raise DataError(f"could not draw {n} distinct pairs (got {made})")
        p = _draw(builder)
        if seen.add(digest64(p.ko)):
            made += 1
            yield p


def generate_pairs(n: int, seed: int, level: str | Level | None = "full") -> list[Pair]:
    """``n`` distinct pairs drawn with ``random.Random(seed)`` at ``level`` (a name such as
    "small", or a :class:`Level`): :func:`iter_pairs` as a list."""
    return list(iter_pairs(n, seed, level))


def split_sizes(size: int) -> dict[str, int]:
    """90/5/5 with at least one valid and one test pair: split_sizes(100000) -> 5000 test."""
    if size < MIN_SIZE:
        raise DataError(f"--size must be at least {MIN_SIZE} (one pair each for train, valid "
                        f"and test), got {size}")
    held = max(1, round(size * 0.05))
    return {"train": size - 2 * held, "valid": held, "test": held}


def held_out_of(pairs: list[Pair], seed: int) -> tuple[HeldOut, list[int]]:
    """The held-out groups of an in-memory corpus, and each pair's split key."""
    keys = [split_key(p.en, seed) for p in pairs]
    return assign(np.sort(np.array(keys, dtype=np.uint64)), split_sizes(len(pairs))), keys


def split_pairs(pairs: list[Pair], seed: int) -> dict[str, list[Pair]]:
    """Leak-free 90/5/5 split by the English side's split key (:mod:`.heldout`): pairs sharing
    an English sentence stay in one split; each split keeps the pairs' order. The files that
    :func:`write_corpus` writes hold the same splits."""
    held, keys = held_out_of(pairs, seed)
    out: dict[str, list[Pair]] = {"test": [], "valid": [], "train": []}
    for p, k in zip(pairs, keys):
        out[held.split_of(k)].append(p)
    return out


#: a batch of challenge candidates' ``(ko, en)`` -> for each, whether a training sentence
#: excludes it
Excluder = Callable[[list[tuple[str, str]]], list[bool]]


class _ChallengeDraw:
    """The seeded stream of one challenge set: candidates of its phenomenon, each Korean
    sentence once, in draw order, under the attempt limit."""

    def __init__(self, name: str, seed: int, size: int, level: Level):
        self.name, self.size, self.level = name, size, level
        self.builder = SentenceBuilder(random.Random(f"{seed}/challenge/{name}"), level)
        self.seen: set[str] = set()
        self.got: list[Pair] = []
        self.attempts = 0
        self.limit = 200 * size + 1000
        self.kept_share = 1.0  # of the candidates, the share no training sentence excludes

    @property
    def open(self) -> bool:
        return len(self.got) < self.size and self.attempts < self.limit

    def candidates(self) -> list[str]:
        """The next batch of candidates, each as a spool line (a tenth of a Pair's memory)."""
        want = min(20_000, int((self.size - len(self.got)) / self.kept_share * 1.25) + 8)
        out: list[str] = []
        while len(out) < want and self.attempts < self.limit:
            self.attempts += 1
            p = _draw_challenge(self.builder, self.name)
            if not _challenge_ok(self.name, p, self.level.long_words) or p.ko in self.seen:
                continue
            self.seen.add(p.ko)  # an excluded Korean sentence stays excluded when drawn again
            out.append(_spool_line(0, p))
        return out


def _challenge_sets(seed: int, size: int, level: str | Level | None,
                    excluded: Excluder) -> dict[str, list[Pair]]:
    """Draw each challenge set in rounds: a batch of candidates, one call of ``excluded`` to
    judge them, and the first candidates not excluded are kept. The outcome does not depend on
    the batch sizes: it is the first ``size`` acceptable pairs of each set's stream (within its
    attempt limit). One set's batch is in memory at a time."""
    level = resolve_level(level)
    out = {}
    for name in CHALLENGES:
        d = _ChallengeDraw(name, seed, size, level)
        while d.open:
            cands = d.candidates()
            marks = excluded([tuple(line.split("\t", 3)[1:3]) for line in cands])
            for line, bad in zip(cands, marks):
                if not bad and len(d.got) < d.size:
                    d.got.append(_from_spool(line)[1])
            if cands:
                d.kept_share = max(0.02, marks.count(False) / len(cands))
        out[name] = d.got
    return out


def challenge_sets(seed: int, size: int, exclude_ko: set[str], exclude_en: set[str],
                   level: str | Level | None = "full") -> dict[str, list[Pair]]:
    """One set per phenomenon, drawn from its own seeded stream, none of it in ``exclude``;
    ``long`` holds pairs of at least ``level.long_words`` English words."""
    return _challenge_sets(seed, size, level,
                           lambda batch: [ko in exclude_ko or en in exclude_en for ko, en in batch])


def _excluded_by_files(ko_path: Path, en_path: Path) -> Excluder:
    """An :data:`Excluder` that reads the training sentences from files, one pass per batch."""

    def excluded(batch: list[tuple[str, str]]) -> list[bool]:
        hits = []
        for path, want in ((ko_path, {ko for ko, _ in batch}), (en_path, {en for _, en in batch})):
            with open(path, encoding="utf-8") as f:
                hits.append({s for s in (line.rstrip("\n") for line in f) if s in want})
        return [ko in hits[0] or en in hits[1] for ko, en in batch]

    return excluded


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


class SplitStats:
    """The datasheet's figures of one split, gathered one pair at a time (:meth:`add`) so that
    a corpus of any size is described without holding it; :meth:`as_dict` is the split's entry
    in the datasheet."""

    def __init__(self) -> None:
        self.pairs = self.ko_tokens = self.en_tokens = 0
        self.en_20_plus = self.en_30_plus = self.with_refs = 0
        self.ko_vocab: set[str] = set()
        self.en_vocab: set[str] = set()
        self.ko_hist: list[int] = []
        self.en_hist: list[int] = []
        self.lemmas: set[str] = set()
        self.tags: Counter = Counter()

    @staticmethod
    def _count(hist: list[int], n: int) -> None:
        if n >= len(hist):
            hist.extend([0] * (n + 1 - len(hist)))
        hist[n] += 1

    def add(self, p: Pair) -> None:
        ko, en = p.ko.split(), p.en.split()
        self.pairs += 1
        self.ko_tokens += len(ko)
        self.en_tokens += len(en)
        self.ko_vocab.update(ko)
        self.en_vocab.update(en)
        self._count(self.ko_hist, len(ko))
        self._count(self.en_hist, len(en))
        self.en_20_plus += len(en) >= 20
        self.en_30_plus += len(en) >= 30
        self.with_refs += bool(p.refs)
        self.lemmas.update(p.lemmas)
        self.tags.update(p.phenomena)

    def as_dict(self) -> dict:
        return {
            "pairs": self.pairs,
            "ko_tokens": self.ko_tokens,
            "en_tokens": self.en_tokens,
            "ko_vocab": len(self.ko_vocab),
            "en_vocab": len(self.en_vocab),
            "ko_length_histogram": self.ko_hist or [0],
            "en_length_histogram": self.en_hist or [0],
            "en_words_20_plus": self.en_20_plus,
            "en_words_30_plus": self.en_30_plus,
            "pairs_with_extra_refs": self.with_refs,
            "en_words_max": len(self.en_hist) - 1 if self.en_hist else 0,
            "lemmas_used": len(self.lemmas),
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
    frequencies, the level and the corpus format."""
    stats = {name: SplitStats() for name in SPLITS}
    for name in SPLITS:
        for p in splits[name]:
            stats[name].add(p)
    return _datasheet(stats, {name: len(v) for name, v in challenges.items()}, seed, size, level)


#: the levels a fingerprint covers (a record of the book's regime depends on ``small`` only)
FINGERPRINT_LEVELS = ("small", "full")


def _pairs_digest(levels: tuple[str, ...]) -> str:
    h = hashlib.sha256()
    for level in levels:
        for p in generate_pairs(64, 0, level):
            h.update(f"{p.ko}\t{p.en}\n".encode())
    return h.hexdigest()[:16]


@functools.lru_cache(maxsize=None)
def level_fingerprint(level: str) -> str:
    """16 hex digits that change whenever the generator's output at one named ``level``
    changes: the sha256 of the first 64 pairs of seed 0 at that level. A record computed on
    the small level stays current while the full level's lexicon is revised."""
    return _pairs_digest((level,))


@functools.lru_cache(maxsize=1)
def generator_fingerprint() -> str:
    """16 hex digits that change whenever the generator's output changes: the sha256 of the
    first 64 pairs of seed 0 at the small and full levels. Datasheets and records carry it, so
    that a result computed on an earlier corpus is recognised as such
    (:func:`companion.experiments.records.corpus_current`); records also carry
    :func:`level_fingerprint` of each level."""
    return _pairs_digest(FINGERPRINT_LEVELS)


def _datasheet(stats: dict[str, SplitStats], challenge_counts: dict[str, int], seed: int, size: int,
               level: str | Level | None) -> dict:
    from companion import __version__

    tags: Counter = Counter()
    for name in SPLITS:
        tags.update(stats[name].tags)
    sheet = level_sheet(level)
    return {
        "generator": "companion.data.kosynth",
        "version": __version__,
        "format_version": FORMAT_VERSION,
        "format_note": FORMAT_NOTE,
        "generator_fingerprint": generator_fingerprint(),
        "seed": seed,
        "size": size,
        "level": sheet,
        "lexicon_lemmas": sheet["lexicon"]["lemmas"],
        "lemmas_used": len(set().union(*(stats[name].lemmas for name in SPLITS))),
        "splits": {name: stats[name].as_dict() for name in SPLITS},
        "challenge": challenge_counts,
        "challenge_notes": CHALLENGE_NOTES,
        "challenge_long_min_words": sheet["long_words"],
        "phenomena": dict(sorted(tags.items())),
        "alignment_format": "Pharaoh i-j (i: Korean eojeol, j: English word, from 0)",
        "rules": list(NATURALNESS_RULES),  # what the grammar guarantees beyond grammar
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


# -- the streaming writer: pass 1 draws pairs into a spool file, pass 2 routes them to splits ----
_SPOOL = ".pairs.spool"
_SEP = "\x1f"  # between the items of a spool field (tags, references, lemmas)


def _spool_line(key: int, p: Pair) -> str:
    fields = (f"{key:016x}", p.ko, p.en, format_alignment(p.align), _SEP.join(sorted(p.phenomena)),
              _SEP.join(p.refs), _SEP.join(sorted(p.lemmas)))
    return "\t".join(fields) + "\n"


def _from_spool(line: str) -> tuple[int, Pair]:
    key, ko, en, align, tags, refs, lemmas = line.rstrip("\n").split("\t")

    def items(text: str) -> tuple[str, ...]:
        return tuple(text.split(_SEP)) if text else ()

    return int(key, 16), Pair(ko, en, tuple(parse_alignment(align)), frozenset(items(tags)), items(refs),
                              frozenset(items(lemmas)))


def _spool_pairs(path: Path, size: int, seed: int, level: Level) -> HeldOut:
    """Pass 1: draw the corpus into the spool, in draw order, keeping in memory only the split
    keys under :func:`~.heldout.candidate_bound`; return the held-out groups."""
    sizes = split_sizes(size)
    bound = candidate_bound(size, sizes["test"] + sizes["valid"])
    kept = array("Q")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for p in iter_pairs(size, seed, level):
            key = split_key(p.en, seed)
            if key < bound:
                kept.append(key)
            f.write(_spool_line(key, p))
    held = assign(np.sort(np.array(kept, dtype=np.uint64)), sizes, complete=bound >= KEY_SPACE)
    if held is None:  # the kept keys did not fill both held-out splits: read every key back
        with open(path, encoding="utf-8") as f:
            every = np.fromiter((int(line[:16], 16) for line in f), dtype=np.uint64, count=size)
        held = assign(np.sort(every), sizes)
    return held


def _route_spool(path: Path, out_dir: Path, held: HeldOut) -> dict[str, SplitStats]:
    """Pass 2: each spooled pair to its split's files, in draw order; the splits' figures."""
    stats = {name: SplitStats() for name in SPLITS}
    with ExitStack() as stack:
        files = {name: [stack.enter_context(open(out_dir / f"{name}.{ext}", "w", encoding="utf-8",
                                                 newline="\n")) for ext in ("ko", "en", "align")]
                 for name in SPLITS}
        for line in stack.enter_context(open(path, encoding="utf-8")):
            key, p = _from_spool(line)
            name = held.split_of(key)
            ko, en, align = files[name]
            ko.write(p.ko + "\n")
            en.write(p.en + "\n")
            align.write(format_alignment(p.align) + "\n")
            stats[name].add(p)
    return stats


def write_corpus(out_dir, size: int, seed: int, *, force: bool = False,
                 challenge_size: int | None = None, level: str | Level | None = "full") -> dict:
    """Generate ``size`` pairs with ``seed`` at ``level`` and write the corpus; returns the
    datasheet.

    Streams: pairs go to a spool file in ``out_dir`` as they are drawn, and from there to their
    splits' files (removed at the end), so memory does not grow with the pairs (about 6 bytes
    per pair, see the module docstring). The splits are those of :func:`split_pairs` on
    :func:`generate_pairs`, the challenge sets those of :func:`challenge_sets` excluding the
    training sentences, the datasheet that of :func:`datasheet`.

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
    spool = out_dir / _SPOOL
    try:
        held = _spool_pairs(spool, size, seed, level)
        stats = _route_spool(spool, out_dir, held)
    finally:
        spool.unlink(missing_ok=True)
    if challenge_size is None:
        challenge_size = min(1000, max(20, size // 100))
    challenges = _challenge_sets(seed, challenge_size, level,
                                 _excluded_by_files(out_dir / "train.ko", out_dir / "train.en"))
    for name, cpairs in challenges.items():
        _write_pairs(out_dir / "challenge" / name, cpairs)
    sheet = _datasheet(stats, {name: len(v) for name, v in challenges.items()}, seed, size, level)
    with open(out_dir / "datasheet.json", "w", encoding="utf-8", newline="\n") as f:
        json.dump(sheet, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")
    return sheet
