"""Real parallel corpora: reading, validating, cleaning and splitting sentence pairs.

Three sources of sentence pairs:

- TSV files in the Tatoeba/Anki style, one pair a line: ``source \\t target [\\t attribution]``
  (:func:`read_tsv`; the columns are configurable, since Anki exports put English first);
- Moses-style file pairs, line ``i`` of ``train.ko`` translating line ``i`` of ``train.en``
  (:func:`read_moses`, and :func:`load_split` / :func:`write_split` for ``DIR/{split}.{lang}``);
- sacrebleu's test sets through sacrebleu's own API (:func:`load_sacrebleu`), which works when
  the set is in sacrebleu's cache (``$SACREBLEU``, default ``~/.sacrebleu``) or the network is up.

Large corpora stream: :func:`iter_lines` and :func:`iter_moses` read one line at a time with
the same checks and messages, for corpora that do not fit in memory (see
:mod:`companion.data.binarized`).

Every reader validates what it reads and stops at the first problem with a one-line
:class:`~companion.errors.DataError` naming the file and line (``train.en:17: empty target
side``): invalid UTF-8, a control character, an empty side, a missing column, files of
different lengths.

Pairs are only ever handled as pairs: :func:`clean_pairs` filters and deduplicates whole pairs
(one side is never sorted or deduplicated alone, which would misalign the corpus), and
:func:`split_pairs` makes train/valid/test splits without leakage: no source sentence and no
target sentence of valid or test appears in train (nor in the other held-out split).
Normalisation (:func:`normalize_text`) is Unicode NFC or NFKC plus whitespace clean-up and never
removes digits or punctuation ("3시에 만나요" keeps its 3).
"""

from __future__ import annotations

import difflib
import os
import random
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import zip_longest

from companion.errors import DataError

__all__ = [
    "Pair",
    "normalize_text",
    "read_lines",
    "iter_lines",
    "read_tsv",
    "read_moses",
    "iter_moses",
    "load_split",
    "split_files",
    "write_split",
    "load_sacrebleu",
    "CleaningReport",
    "clean_pairs",
    "split_pairs",
    "check_no_leak",
]

Pair = tuple[str, str]

# Control characters (Unicode category Cc) other than tab, plus the Unicode line and paragraph
# separators: they break line-based corpora. Tab is allowed inside a sentence (it is
# whitespace); TSV readers split on it first.
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")


def normalize_text(text: str, form: str | None = "NFC", whitespace: bool = True) -> str:
    """Unicode-normalise ``text`` and tidy its whitespace.

    Args:
        text: one sentence.
        form: ``"NFC"`` (compose; Hangul jamo sequences become syllables), ``"NFKC"`` (also
            folds compatibility forms: full-width ``３`` becomes ``3``), or ``None``.
        whitespace: collapse runs of whitespace (including tabs and no-break spaces) to one
            space and strip both ends.

    Digits, punctuation and letters are never removed.
    """
    if form is not None:
        if form not in ("NFC", "NFKC", "NFD", "NFKD"):
            raise DataError(f"unknown Unicode normalisation form {form!r} (use NFC, NFKC or None)")
        if not unicodedata.is_normalized(form, text):
            text = unicodedata.normalize(form, text)
    if whitespace:
        text = " ".join(text.split())
    return text


def _bad_char(text: str) -> tuple[int, str] | None:
    """First control character of ``text`` (other than tab) as (column, char), or None."""
    m = _CONTROL.search(text)
    return None if m is None else (m.start() + 1, m.group())


def _problem(text: str, side: str) -> str | None:
    """Why ``text`` cannot be one side of a pair, or None if it can."""
    if not text.strip():
        return f"empty {side} side"
    bad = _bad_char(text)
    if bad is not None:
        col, ch = bad
        return f"control character U+{ord(ch):04X} in the {side} side (column {col})"
    return None


_BOM = b"\xef\xbb\xbf"


def _invalid_utf8(path: str, lineno: int, byte: int, column: int) -> DataError:
    return DataError(f"{path}:{lineno}: invalid UTF-8 (byte 0x{byte:02x} at byte {column} of the line)")


def _open_text_file(path: str):
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise DataError(f"{path}: file not found") from None
    except IsADirectoryError:
        raise DataError(f"{path}: is a directory, expected a text file") from None


def read_lines(path: str | os.PathLike) -> list[str]:
    """Lines of a UTF-8 text file, without line endings (``\\n`` or ``\\r\\n``).

    Only ``\\n`` ends a line (other Unicode line breaks are reported later as control
    characters); a UTF-8 byte-order mark at the start is dropped; a final newline does not make
    an extra empty line. Raises DataError naming the file and line of invalid UTF-8.
    """
    path = os.fspath(path)
    with _open_text_file(path) as f:
        data = f.read()
    if data.startswith(_BOM):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        lineno = data.count(b"\n", 0, e.start) + 1
        raise _invalid_utf8(path, lineno, data[e.start], e.start - line_start + 1) from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def iter_lines(path: str | os.PathLike) -> Iterator[str]:
    """The lines of :func:`read_lines`, with its checks and messages, read one at a time: memory
    does not grow with the file."""
    path = os.fspath(path)
    with _open_text_file(path) as f:
        for lineno, raw in enumerate(f, 1):
            if lineno == 1 and raw.startswith(_BOM):
                raw = raw[3:]
            if raw.endswith(b"\n"):
                raw = raw[:-1]
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                raise _invalid_utf8(path, lineno, raw[e.start], e.start + 1) from None
            yield line[:-1] if line.endswith("\r") else line


def _check_on_invalid(on_invalid: str) -> None:
    if on_invalid not in ("raise", "skip"):
        raise DataError(f"on_invalid must be 'raise' or 'skip', got {on_invalid!r}")


def read_tsv(
    path: str | os.PathLike,
    *,
    src_col: int = 0,
    tgt_col: int = 1,
    normalize: str | None = None,
    on_invalid: str = "raise",
) -> list[Pair]:
    """Read ``source \\t target [\\t more columns]`` lines (Tatoeba/Anki exports).

    Args:
        path: the TSV file (UTF-8).
        src_col, tgt_col: 0-based columns of the source and target (Anki's ``eng-kor`` files
            hold English in column 0, Korean in column 1, attribution in column 2).
        normalize: ``None`` (keep the text), ``"NFC"`` or ``"NFKC"`` (see
            :func:`normalize_text`; whitespace is tidied too).
        on_invalid: ``"raise"`` (default) stops at the first bad line with a DataError naming
            ``path:line``; ``"skip"`` drops lines with a missing column, an empty side or a
            control character (invalid UTF-8 always raises).

    Returns:
        ``[(source, target), ...]`` in file order.
    """
    _check_on_invalid(on_invalid)
    path = os.fspath(path)
    need = max(src_col, tgt_col) + 1
    pairs: list[Pair] = []
    for i, line in enumerate(read_lines(path), 1):
        cols = line.split("\t")
        if len(cols) < need:
            if on_invalid == "skip":
                continue
            raise DataError(
                f"{path}:{i}: expected at least {need} tab-separated columns, found {len(cols)}"
            )
        pair = _checked_pair(cols[src_col], cols[tgt_col], path, path, i, on_invalid, normalize)
        if pair is not None:
            pairs.append(pair)
    return pairs


def _checked_pair(
    src: str, tgt: str, src_where: str, tgt_where: str, line: int, on_invalid: str, normalize: str | None
) -> Pair | None:
    """Validate one pair (DataError naming ``file:line``, or None when skipping) and normalise it."""
    for text, where, side in ((src, src_where, "source"), (tgt, tgt_where, "target")):
        why = _problem(text, side)
        if why:
            if on_invalid == "skip":
                return None
            raise DataError(f"{where}:{line}: {why}")
    if normalize is not None:
        src, tgt = normalize_text(src, normalize), normalize_text(tgt, normalize)
    return src, tgt


def read_moses(
    src_path: str | os.PathLike,
    tgt_path: str | os.PathLike,
    *,
    normalize: str | None = None,
    on_invalid: str = "raise",
) -> list[Pair]:
    """Read a Moses-style file pair: line ``i`` of ``tgt_path`` translates line ``i`` of ``src_path``.

    The files must have the same number of lines (otherwise DataError naming the shorter file
    and where it ends). ``normalize`` and ``on_invalid`` as in :func:`read_tsv`; with ``"skip"``
    a bad line drops the whole pair, never one side.
    """
    _check_on_invalid(on_invalid)
    src_path, tgt_path = os.fspath(src_path), os.fspath(tgt_path)
    src_lines = read_lines(src_path)
    tgt_lines = read_lines(tgt_path)
    if len(src_lines) != len(tgt_lines):
        raise _mismatch(src_path, len(src_lines), tgt_path, len(tgt_lines))
    pairs: list[Pair] = []
    for i, (s, t) in enumerate(zip(src_lines, tgt_lines), 1):
        pair = _checked_pair(s, t, src_path, tgt_path, i, on_invalid, normalize)
        if pair is not None:
            pairs.append(pair)
    return pairs


def _mismatch(src_path: str, n_src: int, tgt_path: str, n_tgt: int) -> DataError:
    short, n, long_, m = ((src_path, n_src, tgt_path, n_tgt) if n_src < n_tgt
                          else (tgt_path, n_tgt, src_path, n_src))
    return DataError(f"{short}:{n + 1}: line-count mismatch: {short} has {n} lines but {long_} has {m}")


def iter_moses(
    src_path: str | os.PathLike,
    tgt_path: str | os.PathLike,
    *,
    normalize: str | None = None,
    on_invalid: str = "raise",
) -> Iterator[Pair]:
    """:func:`read_moses` one pair at a time, for corpora of any size: the same pairs, checks
    and messages, except that the first problem *in line order* is reported (a file that ends
    early is reported when the other goes on)."""
    _check_on_invalid(on_invalid)
    src_path, tgt_path = os.fspath(src_path), os.fspath(tgt_path)
    src_lines, tgt_lines = iter_lines(src_path), iter_lines(tgt_path)
    i = 0
    for i, (s, t) in enumerate(zip_longest(src_lines, tgt_lines), 1):
        if s is None or t is None:
            rest = sum(1 for _ in (tgt_lines if s is None else src_lines))
            n_src, n_tgt = (i - 1, i + rest) if s is None else (i + rest, i - 1)
            raise _mismatch(src_path, n_src, tgt_path, n_tgt)
        pair = _checked_pair(s, t, src_path, tgt_path, i, on_invalid, normalize)
        if pair is not None:
            yield pair


def _split_path(data_dir: str, split: str, lang: str) -> str:
    return os.path.join(data_dir, f"{split}.{lang}")


def load_split(
    data_dir: str | os.PathLike, split: str, src_lang: str, tgt_lang: str
) -> list[Pair]:
    """Read ``DIR/{split}.{src_lang}`` and ``DIR/{split}.{tgt_lang}`` as validated pairs.

    Example: ``load_split("data/kosynth", "train", "ko", "en")``. A missing file raises a
    DataError that names the path and lists what the directory holds.
    """
    return read_moses(*split_files(data_dir, split, src_lang, tgt_lang))


def split_files(data_dir: str | os.PathLike, split: str, src_lang: str, tgt_lang: str) -> tuple[str, str]:
    """The paths ``DIR/{split}.{src_lang}`` and ``DIR/{split}.{tgt_lang}``, checked to exist (a
    missing one raises a DataError that names it and lists what the directory holds)."""
    data_dir = os.fspath(data_dir)
    if not os.path.isdir(data_dir):
        raise DataError(f"{data_dir}: data directory not found")
    for lang in (src_lang, tgt_lang):
        path = _split_path(data_dir, split, lang)
        if os.path.isdir(path):
            raise DataError(f"{path}: is a directory, expected a file (the {lang} side of the {split} split, "
                            f"one sentence per line)")
        if not os.path.isfile(path):
            present = sorted(os.listdir(data_dir))
            has = ", ".join(present[:20]) + (f", ... ({len(present)} files)" if len(present) > 20 else "")
            raise DataError(
                f"{path}: file not found (the directory has: {has or 'nothing'})"
            )
    return _split_path(data_dir, split, src_lang), _split_path(data_dir, split, tgt_lang)


def write_split(
    pairs: Sequence[Pair], data_dir: str | os.PathLike, split: str, src_lang: str, tgt_lang: str
) -> tuple[str, str]:
    """Write pairs as ``DIR/{split}.{src_lang}`` and ``DIR/{split}.{tgt_lang}`` (UTF-8, ``\\n``).

    Every pair is validated first (nothing is written if one is bad). Returns the two paths.
    """
    data_dir = os.fspath(data_dir)
    for i, (s, t) in enumerate(pairs, 1):
        for text, side in ((s, "source"), (t, "target")):
            if "\n" in text or "\r" in text:
                raise DataError(f"pair {i}: line break in the {side} side cannot be written to {split}.*")
            why = _problem(text, side)
            if why:
                raise DataError(f"pair {i}: {why}")
    os.makedirs(data_dir, exist_ok=True)
    paths = (_split_path(data_dir, split, src_lang), _split_path(data_dir, split, tgt_lang))
    for path, side in zip(paths, (0, 1)):
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            for p in pairs:
                f.write(p[side] + "\n")
    return paths


def load_sacrebleu(test_set: str, langpair: str, *, ref_index: int = 0) -> list[Pair]:
    """Source sentences and the ``ref_index``-th references of a sacrebleu test set.

    Uses sacrebleu's own dataset API, so files come from sacrebleu's cache (the ``$SACREBLEU``
    directory as it was when sacrebleu was imported, default ``~/.sacrebleu``) or are downloaded
    by sacrebleu. Offline with an empty cache this raises a DataError saying so.

    Example: ``load_sacrebleu("wmt14", "en-de")``.
    """
    from sacrebleu.dataset import DATASETS

    if test_set not in DATASETS:
        close = difflib.get_close_matches(test_set, list(DATASETS), n=4)
        hint = f" (similar: {', '.join(close)})" if close else ""
        raise DataError(f"unknown sacrebleu test set {test_set!r}{hint}; `sacrebleu --list` shows them all")
    ds = DATASETS[test_set]
    if langpair not in ds.langpairs:
        raise DataError(
            f"sacrebleu test set {test_set} has no language pair {langpair!r} "
            f"(it has: {', '.join(sorted(ds.langpairs))})"
        )
    cache = getattr(ds, "_outdir", None) or "the sacrebleu cache"
    try:
        src_file = ds.get_source_file(langpair)
        ref_files = ds.get_reference_files(langpair)
    except (Exception, SystemExit) as e:  # sacrebleu calls sys.exit on some download failures
        reason = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise DataError(
            f"sacrebleu test set {test_set} ({langpair}) is not in {cache} and could not be "
            f"downloaded ({type(e).__name__}: {reason}); fetch it once with network access "
            f"(`sacrebleu -t {test_set} -l {langpair} --echo src`) or copy a cache into $SACREBLEU"
        ) from None
    if not 0 <= ref_index < len(ref_files):
        raise DataError(
            f"sacrebleu test set {test_set} ({langpair}) has {len(ref_files)} reference(s), "
            f"ref_index {ref_index} is out of range"
        )
    return read_moses(src_file, ref_files[ref_index])


# -- cleaning --------------------------------------------------------------------------------------


@dataclass
class CleaningReport:
    """What :func:`clean_pairs` kept and why it dropped the rest (counts of pairs)."""

    input: int = 0
    kept: int = 0
    empty: int = 0
    too_long: int = 0
    bad_ratio: int = 0
    identical: int = 0
    duplicates: int = 0
    dropped_examples: dict[str, Pair] = field(default_factory=dict)

    def __str__(self) -> str:
        return (
            f"{self.input} pairs in, {self.kept} kept; dropped: {self.empty} empty, "
            f"{self.too_long} too long, {self.bad_ratio} length ratio, "
            f"{self.identical} untranslated, {self.duplicates} duplicates"
        )


def clean_pairs(
    pairs: Iterable[Pair],
    *,
    normalize: str | None = "NFC",
    max_words: int | None = None,
    max_ratio: float | None = None,
    drop_identical: bool = False,
    dedupe: bool = True,
) -> tuple[list[Pair], CleaningReport]:
    """Pair-level cleaning: every decision keeps or drops a whole pair.

    Args:
        pairs: ``(source, target)`` strings.
        normalize: Unicode form for :func:`normalize_text` (``None``: only tidy whitespace).
        max_words: drop a pair if either side has more whitespace-separated words.
        max_ratio: drop a pair if ``max(words) / min(words)`` exceeds it (misalignments).
        drop_identical: drop pairs whose two sides are equal (untranslated copies).
        dedupe: keep only the first occurrence of each (normalised) pair; a sentence that
            occurs with two different translations keeps both pairs.

    Returns:
        ``(kept_pairs, report)``, the pairs in their original order.
    """
    report = CleaningReport()
    seen: set[Pair] = set()
    kept: list[Pair] = []

    def drop(reason: str, pair: Pair) -> None:
        setattr(report, reason, getattr(report, reason) + 1)
        report.dropped_examples.setdefault(reason, pair)

    for s, t in pairs:
        report.input += 1
        s = normalize_text(s, normalize)
        t = normalize_text(t, normalize)
        if not s or not t:
            drop("empty", (s, t))
            continue
        ns, nt = len(s.split()), len(t.split())
        if max_words is not None and max(ns, nt) > max_words:
            drop("too_long", (s, t))
            continue
        if max_ratio is not None and max(ns, nt) / min(ns, nt) > max_ratio:
            drop("bad_ratio", (s, t))
            continue
        if drop_identical and s == t:
            drop("identical", (s, t))
            continue
        if dedupe:
            if (s, t) in seen:
                drop("duplicates", (s, t))
                continue
            seen.add((s, t))
        kept.append((s, t))
    report.kept = len(kept)
    return kept, report


# -- leak-free splits ------------------------------------------------------------------------------


def _key(text: str) -> str:
    """What counts as 'the same sentence' for leakage: case- and whitespace-insensitive."""
    return " ".join(text.split()).casefold()


def _components(pairs: Sequence[Pair]) -> list[list[int]]:
    """Groups of pair indices linked by a shared source or a shared target sentence."""
    parent = list(range(len(pairs)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first_src: dict[str, int] = {}
    first_tgt: dict[str, int] = {}
    for i, (s, t) in enumerate(pairs):
        for key, first in ((_key(s), first_src), (_key(t), first_tgt)):
            j = first.setdefault(key, i)
            if j != i:
                a, b = find(i), find(j)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for i in range(len(pairs)):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def _count(size: int | float, n: int, name: str) -> int:
    if isinstance(size, float):
        if not 0.0 <= size < 1.0:
            raise DataError(f"{name} fraction must be in [0, 1), got {size}")
        return int(round(size * n))
    if size < 0:
        raise DataError(f"{name} size must be >= 0, got {size}")
    return int(size)


def split_pairs(
    pairs: Sequence[Pair],
    valid: int | float = 0.05,
    test: int | float = 0.05,
    *,
    seed: int = 0,
) -> tuple[list[Pair], list[Pair], list[Pair]]:
    """Split pairs into train/valid/test without leakage.

    Exact duplicate pairs are removed first. Pairs that share a source sentence or a target
    sentence (compared case- and whitespace-insensitively) are linked, and each linked group
    goes to one split as a whole, so no source or target sentence of valid or test occurs in
    train or in the other held-out split; nothing is thrown away. Groups are visited in an
    order set by ``seed``; a group goes to test while it fits, then valid, else train, so the
    held-out sizes are exact unless large groups make that impossible.

    Args:
        pairs: ``(source, target)`` strings.
        valid, test: sizes as a count (int) or a fraction of the deduplicated pairs (float).
        seed: seed of the split's own generator (no global state is used).

    Returns:
        ``(train, valid, test)``, each in the pairs' original order.
    """
    unique = list(dict.fromkeys((s, t) for s, t in pairs))
    n = len(unique)
    n_valid, n_test = _count(valid, n, "valid"), _count(test, n, "test")
    if n_valid + n_test >= n:
        raise DataError(
            f"cannot hold out {n_valid} valid + {n_test} test pairs from {n} distinct pairs"
        )
    groups = _components(unique)
    random.Random(seed).shuffle(groups)
    parts: dict[str, list[int]] = {"train": [], "valid": [], "test": []}
    for g in groups:
        if len(parts["test"]) + len(g) <= n_test:
            parts["test"].extend(g)
        elif len(parts["valid"]) + len(g) <= n_valid:
            parts["valid"].extend(g)
        else:
            parts["train"].extend(g)
    train, valid_, test_ = ([unique[i] for i in sorted(parts[k])] for k in ("train", "valid", "test"))
    return train, valid_, test_


def check_no_leak(train: Sequence[Pair], valid: Sequence[Pair], test: Sequence[Pair] = ()) -> None:
    """Raise DataError if a source or target sentence of valid/test also occurs in train
    (or in the other held-out split). Sentences compare case- and whitespace-insensitively."""
    splits = {"train": train, "valid": valid, "test": test}
    where: dict[tuple[int, str], tuple[str, int]] = {}
    for name in ("train", "valid", "test"):
        for i, pair in enumerate(splits[name], 1):
            for side, text in enumerate(pair):
                k = (side, _key(text))
                if k in where and where[k][0] != name:
                    other, j = where[k]
                    what = ("source", "target")[side]
                    raise DataError(
                        f"{name} pair {i}: {what} sentence {text[:60]!r} also occurs in {other} "
                        f"(pair {j}): the splits leak"
                    )
                where.setdefault(k, (name, i))
