"""Binarised corpora: every sentence encoded once, stored as flat token arrays on disk and
memory-mapped, as fairseq's binarised datasets are.

A cache directory (``RUN/data-bin/``) holds, for each split and side (``src``, ``tgt``)::

    {split}.{side}.tok   the token ids of every sentence, one sentence after the other
                         (uint16 when the vocabulary has at most 65,536 pieces, else int32)
    {split}.{side}.off   int64 offsets, N + 1 of them: sentence i is tok[off[i]:off[i + 1]]
    {split}.len          int32 (N, 2): the source and target lengths in pieces (no EOS)
    manifest.json        what the cache holds and what it was built from (written last)

The manifest keys the cache: the sha256 of both vocabularies' model bytes and, for every text
file, its size, modification time and BLAKE2b hash (streamed in 1 MiB blocks;
:func:`fingerprint`). A cache is used only if its format, vocabularies, file sizes and
content hashes all match (:func:`read_manifest`), so other vocabularies or other data are never
read through a stale cache; a touched but unchanged file keeps it. A file truncated afterwards
fails the manifest's size check, and the cache is rebuilt, never read.

Builders and readers, on disk::

    data-bin -> data-bin.v-TOKEN   a symbolic link to the current version (relative)
    data-bin.v-TOKEN/              a complete version: the files above and ``readers.lock``;
                                   never written again once published
    data-bin.tmp-PID-TOKEN/        a version being written by process PID
    data-bin.lock                  held (``fcntl.flock``) by the one process that builds

A builder takes ``data-bin.lock`` (the kernel releases it when the process ends, however it
ends), looks again whether another builder has just made the cache it needs, removes the
temporaries of builders that are no longer running (their pid is in the name and checked), writes
a new version into its own temporary directory (the manifest last), renames it to a version
directory and points the link at it with one atomic rename: a reader sees the old version or the
new one, never a mixture, and a build killed half-way leaves the current version as it was. A
process that maps a version holds a shared lock on its ``readers.lock`` (DataLoader workers, which
map the files again by path, inherit it or outlive it in their parent), so a builder removes only
the old versions that nobody maps, and later builds remove the rest. A ``data-bin`` directory of
the earlier layout (files directly inside) is read as it is and replaced by a link on the next
build.

Why numpy memory maps rather than Arrow (``datasets``): the format is three flat arrays per side
that numpy opens without another dependency; an item is two slices found by two offsets; the
bucketing sampler needs only the lengths array, which is read without building a single pair;
and every process that maps the same files (the ranks of a DDP job) shares one copy in the page
cache. Arrow would map the same bytes through a heavier layer (list arrays, record batches, a
dependency of some 100 MB) and key its cache by its own transform fingerprints rather than by our
vocabularies.

>>> CACHE_FORMAT
'companion-data-bin'
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import chain, islice
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: builds are not serialised
    fcntl = None

import numpy as np
from torch.utils.data import Dataset

from companion.data.parallel import _mismatch, iter_lines, iter_moses, split_files
from companion.errors import DataError
from companion.specials import EOS

__all__ = ["CACHE_FORMAT", "CACHE_VERSION", "MappedSplit", "build_cache", "cache_lock", "ensure_cache",
           "fingerprint", "open_cache", "read_manifest", "remove_stale", "scan_splits", "validate_splits"]

log = logging.getLogger(__name__)

CACHE_FORMAT = "companion-data-bin"
CACHE_VERSION = 1
MANIFEST = "manifest.json"
#: the file of a version directory that its readers hold a shared lock on
READERS_LOCK = "readers.lock"
SIDES = ("src", "tgt")
#: pairs encoded per call into SentencePiece while building
CHUNK = 8192
_BLOCK = 1 << 20

# file pairs validated in this process: (path, bytes, blake2b) of both files
_VALIDATED: set[tuple] = set()


def fingerprint(path: str | os.PathLike) -> dict:
    """``{"bytes", "mtime_ns", "lines", "blake2b"}`` of a text file, read once in 1 MiB blocks
    (``lines`` counts as :func:`companion.data.parallel.read_lines` does)."""
    path = os.fspath(path)
    st = os.stat(path)
    h = hashlib.blake2b(digest_size=16)
    newlines = 0
    last = b"\n"
    with open(path, "rb") as f:
        while block := f.read(_BLOCK):
            h.update(block)
            newlines += block.count(b"\n")
            last = block[-1:]
    return {"bytes": st.st_size, "mtime_ns": st.st_mtime_ns, "lines": newlines + (last != b"\n"),
            "blake2b": h.hexdigest()}


def scan_splits(data_dir: str | os.PathLike, splits: Sequence[str], src_lang: str, tgt_lang: str) -> dict:
    """The fingerprints of ``DIR/{split}.{lang}`` for each split and both languages, keyed by
    file name; a split whose two files differ in length is reported (file:line) here, before
    anything is read line by line."""
    out = {}
    for split in splits:
        src, tgt = split_files(data_dir, split, src_lang, tgt_lang)
        fs, ft = fingerprint(src), fingerprint(tgt)
        if fs["lines"] != ft["lines"]:
            raise _mismatch(src, fs["lines"], tgt, ft["lines"])
        out[os.path.basename(src)] = fs
        out[os.path.basename(tgt)] = ft
    return out


def validate_splits(data_dir: str | os.PathLike, splits: Sequence[str], src_lang: str, tgt_lang: str,
                    corpus: dict) -> None:
    """Read every pair of the splits once with :func:`~companion.data.parallel.iter_moses`'s
    checks (invalid UTF-8, an empty side, a control character: file:line), in constant memory.
    ``corpus`` holds the files' fingerprints (:func:`scan_splits`): files with the same content
    already validated in this process are not read again."""
    for split in splits:
        src, tgt = split_files(data_dir, split, src_lang, tgt_lang)
        key = tuple((os.path.abspath(p), corpus[os.path.basename(p)]["bytes"], corpus[os.path.basename(p)]["blake2b"])
                    for p in (src, tgt))
        if key in _VALIDATED:
            continue
        for _ in iter_moses(src, tgt):
            pass
        _VALIDATED.add(key)


# -- building ---------------------------------------------------------------------------------

def _token_dtype(vocab_size: int) -> np.dtype:
    return np.dtype(np.uint16) if vocab_size <= 1 << 16 else np.dtype(np.int32)


def _chunks(items: Iterable, n: int) -> Iterator[list]:
    it = iter(items)
    while chunk := list(islice(it, n)):
        yield chunk


def _write_split(out: Path, split: str, pairs: Iterable[tuple[str, str]], vocabs: dict, threads: int) -> dict:
    """Encode ``pairs`` chunk by chunk into the split's files; memory: one chunk."""
    dtypes = {side: _token_dtype(len(vocabs[side])) for side in SIDES}
    totals = {side: 0 for side in SIDES}
    n = 0
    with open(out / f"{split}.src.tok", "wb") as src_tok, open(out / f"{split}.tgt.tok", "wb") as tgt_tok, \
            open(out / f"{split}.src.off", "wb") as src_off, open(out / f"{split}.tgt.off", "wb") as tgt_off, \
            open(out / f"{split}.len", "wb") as lens:
        files = {"src": (src_tok, src_off), "tgt": (tgt_tok, tgt_off)}
        for f_off in (src_off, tgt_off):
            np.zeros(1, np.int64).tofile(f_off)
        for chunk in _chunks(pairs, CHUNK):
            both = []
            for k, side in enumerate(SIDES):
                ids = vocabs[side].encode_batch([p[k] for p in chunk], num_threads=threads)
                length = np.fromiter(map(len, ids), dtype=np.int64, count=len(ids))
                tok, off = files[side]
                np.fromiter(chain.from_iterable(ids), dtype=dtypes[side], count=int(length.sum())).tofile(tok)
                (totals[side] + np.cumsum(length)).tofile(off)
                totals[side] += int(length.sum())
                both.append(length)
            np.stack(both, axis=1).astype(np.int32).tofile(lens)
            n += len(chunk)
        for f in (src_tok, tgt_tok, src_off, tgt_off, lens):
            f.flush()
            os.fsync(f.fileno())
    files_bytes = {p.name: p.stat().st_size for p in sorted(out.glob(f"{split}.*"))}
    return {"pairs": n, "src_tokens": totals["src"], "tgt_tokens": totals["tgt"],
            "src_dtype": dtypes["src"].name, "tgt_dtype": dtypes["tgt"].name, "files": files_bytes}


def _vocab_key(src_vocab, tgt_vocab) -> dict:
    return {"src": src_vocab.sha256, "tgt": tgt_vocab.sha256}


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's live process
        return True
    return True


# the cache lock files this process holds (a second entry into cache_lock is a no-op)
_HELD: set[str] = set()


@contextmanager
def cache_lock(cache_dir: str | os.PathLike) -> Iterator[None]:
    """Hold ``{cache_dir}.lock`` exclusively (``fcntl.flock``; waits for another builder; the
    kernel releases it when the process ends, however it ends). Re-entrant within a process."""
    cache_dir = Path(cache_dir)
    key = os.path.abspath(f"{cache_dir}.lock")
    if key in _HELD or fcntl is None:
        yield
        return
    cache_dir.parent.mkdir(parents=True, exist_ok=True)
    with open(key, "a") as f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        _HELD.add(key)
        try:
            yield
        finally:
            _HELD.discard(key)
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)


def _try_lock(path: Path, shared: bool):
    """The open lock file ``path`` locked (shared or exclusive) without waiting, or None where
    another process holds a conflicting lock (or the file is gone)."""
    try:
        f = open(path, "a")
    except OSError:
        return None
    if fcntl is None:
        return f
    try:
        fcntl.flock(f.fileno(), (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
    except OSError:
        f.close()
        return None
    return f


def remove_stale(cache_dir: str | os.PathLike) -> list[Path]:
    """(Under :func:`cache_lock`.) Remove what earlier builds left beside ``cache_dir``: the
    temporary directories of builders that are no longer running, the ``.old-PID`` directories of
    the earlier layout's swap, and the versions that are neither current nor mapped by any
    process. Returns what was removed."""
    cache_dir = Path(cache_dir)
    current = os.readlink(cache_dir) if cache_dir.is_symlink() else None
    removed = []
    for p in sorted(cache_dir.parent.glob(f"{cache_dir.name}.*")):
        kind, _, rest = p.name[len(cache_dir.name) + 1:].partition("-")
        if kind == "tmp":
            pid = rest.split("-")[0]
            if pid.isdigit() and _pid_alive(int(pid)) and int(pid) != os.getpid():
                continue  # a live writer's
        elif kind == "v":
            if p.name == current:
                continue
            lock = _try_lock(p / READERS_LOCK, shared=False)
            if lock is None:
                continue  # mapped by a running process
            lock.close()
        elif kind != "old":
            continue
        shutil.rmtree(p, ignore_errors=True)
        removed.append(p)
    return removed


def _publish(cache_dir: Path, tmp: Path) -> None:
    """Rename the complete ``tmp`` to a version directory and point ``cache_dir`` at it (one
    atomic rename of a symbolic link)."""
    version = cache_dir.parent / f"{cache_dir.name}.v-{tmp.name.rsplit('-', 1)[-1]}"
    tmp.rename(version)
    link = cache_dir.parent / f".{cache_dir.name}.link-{os.getpid()}"
    link.unlink(missing_ok=True)
    link.symlink_to(version.name)
    if cache_dir.is_dir() and not cache_dir.is_symlink():  # the earlier layout: a plain directory
        old = cache_dir.parent / f"{cache_dir.name}.old-{os.getpid()}"
        cache_dir.rename(old)
    os.replace(link, cache_dir)
    try:  # make the new link durable
        fd = os.open(cache_dir.parent, os.O_RDONLY)
    except OSError:  # pragma: no cover - directories cannot be opened on some systems
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def build_cache(cache_dir: str | os.PathLike, data_dir: str | os.PathLike, splits: Sequence[str],
                src_lang: str, tgt_lang: str, src_vocab, tgt_vocab, *, threads: int = 1,
                corpus: dict | None = None) -> dict:
    """Encode the splits of DIR into a new version of ``cache_dir`` and return its manifest.
    The whole corpus is validated first (:func:`validate_splits`); then, holding
    :func:`cache_lock`, the version is written into ``{cache_dir}.tmp-PID-TOKEN`` (the manifest
    last), renamed and published (see the module's docstring), and what earlier builds left is
    removed (:func:`remove_stale`)."""
    t0 = time.perf_counter()
    cache_dir = Path(cache_dir)
    corpus = corpus or scan_splits(data_dir, splits, src_lang, tgt_lang)
    validate_splits(data_dir, splits, src_lang, tgt_lang, corpus)
    with cache_lock(cache_dir):
        remove_stale(cache_dir)  # builds that were killed
        tmp = cache_dir.parent / f"{cache_dir.name}.tmp-{os.getpid()}-{time.time_ns():x}"
        tmp.mkdir(parents=True)
        try:
            manifest = _write_version(tmp, data_dir, splits, src_lang, tgt_lang, src_vocab, tgt_vocab, threads,
                                      corpus, t0)
            _publish(cache_dir, tmp)
        finally:
            if tmp.exists():  # a bad input or an error while writing: nothing is published
                shutil.rmtree(tmp, ignore_errors=True)
        remove_stale(cache_dir)
    return manifest


def _write_version(tmp: Path, data_dir, splits, src_lang, tgt_lang, src_vocab, tgt_vocab, threads, corpus,
                   t0) -> dict:
    vocabs = {"src": src_vocab, "tgt": tgt_vocab}
    info = {}
    for split in splits:  # validated: read without checking again
        src, tgt = split_files(data_dir, split, src_lang, tgt_lang)
        info[split] = _write_split(tmp, split, zip(iter_lines(src), iter_lines(tgt)), vocabs, threads)
        if info[split]["pairs"] != corpus[f"{split}.{src_lang}"]["lines"]:
            raise DataError(f"{data_dir}: {split}.{src_lang} changed while it was being encoded")
    from companion import __version__

    (tmp / READERS_LOCK).touch()
    manifest = {"format": CACHE_FORMAT, "version": CACHE_VERSION, "vocab": _vocab_key(src_vocab, tgt_vocab),
                "langs": [src_lang, tgt_lang], "corpus": corpus, "splits": info,
                "built": {"by_pid": os.getpid(), "seconds": round(time.perf_counter() - t0, 3),
                          "companion": __version__}}
    with open(tmp / MANIFEST, "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.flush()
        os.fsync(f.fileno())
    return manifest


# -- reading ----------------------------------------------------------------------------------

def read_manifest(cache_dir: str | os.PathLike, *, vocab: dict | None = None, corpus: dict | None = None,
                  splits: Sequence[str] = ()) -> tuple[dict | None, str]:
    """``(manifest, "")`` if ``cache_dir`` holds a complete cache of ``splits`` built with
    vocabularies of sha256 ``vocab`` from files with the fingerprints ``corpus`` (None: not
    compared), else ``(None, why not)``."""
    cache_dir = Path(cache_dir)
    try:
        manifest = json.loads((cache_dir / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, "no cache"
    except (OSError, ValueError):
        return None, "its manifest cannot be read"
    if not isinstance(manifest, dict) or manifest.get("format") != CACHE_FORMAT or \
            manifest.get("version") != CACHE_VERSION:
        return None, "another format"
    if vocab is not None and manifest.get("vocab") != vocab:
        return None, "other vocabularies"
    if corpus is not None:
        built = manifest.get("corpus") or {}
        for name, fp in corpus.items():
            old = built.get(name) or {}
            if (old.get("bytes"), old.get("blake2b")) != (fp["bytes"], fp["blake2b"]):
                return None, f"{name} changed"
    for split in splits:
        info = (manifest.get("splits") or {}).get(split)
        if not info:
            return None, f"no {split} split"
        for name, size in info["files"].items():
            path = cache_dir / name
            if not path.is_file() or path.stat().st_size != size:
                return None, f"{name} is missing or truncated"
    return manifest, ""


def open_cache(cache_dir: str | os.PathLike, splits: Sequence[str]) -> dict[str, "MappedSplit"]:
    """Map the splits of a complete cache (sizes checked against the manifest): the version that
    ``cache_dir`` points at now, held with a shared lock on its ``readers.lock`` while any of the
    returned splits (or a split selected from them) is alive, so that no builder removes it."""
    version = Path(cache_dir).resolve()
    reader = _try_lock(version / READERS_LOCK, shared=True) if version.is_dir() else None
    manifest, why = read_manifest(version, splits=splits)
    if manifest is None:
        if reader is not None:
            reader.close()
        raise DataError(f"{cache_dir}: not a usable data cache ({why})")
    return {split: MappedSplit(version, split, manifest["splits"][split], reader=reader) for split in splits}


def ensure_cache(cache_dir: str | os.PathLike, data_dir: str | os.PathLike, splits: Sequence[str],
                 src_lang: str, tgt_lang: str, src_vocab, tgt_vocab, *, threads: int = 1,
                 report: Callable[[str], None] | None = None, corpus: dict | None = None) -> dict[str, "MappedSplit"]:
    """The mapped splits of DIR encoded with these vocabularies: the cache in ``cache_dir`` if it
    is complete and was built from these vocabularies and files, else a new one built first.
    ``corpus``: the files' fingerprints (:func:`scan_splits`), if the caller has them."""
    corpus = corpus or scan_splits(data_dir, splits, src_lang, tgt_lang)
    manifest, why = read_manifest(cache_dir, vocab=_vocab_key(src_vocab, tgt_vocab), corpus=corpus,
                                  splits=splits)
    if manifest is None:
        with cache_lock(cache_dir):  # another builder may have made it while this one waited
            manifest, why = read_manifest(cache_dir, vocab=_vocab_key(src_vocab, tgt_vocab), corpus=corpus,
                                          splits=splits)
            if manifest is None:
                if report:
                    report(f"encoding {data_dir} into {cache_dir} ({why})")
                build_cache(cache_dir, data_dir, splits, src_lang, tgt_lang, src_vocab, tgt_vocab,
                            threads=threads, corpus=corpus)
            return open_cache(cache_dir, splits)
    return open_cache(cache_dir, splits)


def _map(path: Path, dtype: np.dtype | str, shape: tuple[int, ...]) -> np.ndarray:
    if int(np.prod(shape)) == 0:
        return np.zeros(shape, dtype=dtype)
    return np.memmap(path, dtype=dtype, mode="r", shape=shape)


class MappedSplit(Dataset):
    """One split of a cache, memory-mapped: item ``j`` is ``(src_ids + [EOS], tgt_ids, j)``, as
    :class:`companion.data.batching.PairDataset` gives for the same pairs.

    ``rows`` (from :meth:`select`) restricts the split to some pairs, in order; ``lengths`` is
    the ``(N, 2)`` array of source and target pieces, :meth:`cost` each item's padded cost for
    the bucketing sampler. Pickling keeps only the paths (DataLoader workers map the files
    again); nothing is read until an item is asked for. ``reader``: the open lock file that
    keeps the version mapped (:func:`open_cache`), shared by every split selected from this one.
    """

    def __init__(self, cache_dir: str | os.PathLike, split: str, info: dict, rows: np.ndarray | None = None,
                 reader=None):
        self.cache_dir, self.split, self.info = Path(cache_dir), split, info
        self.rows = rows
        self._reader = reader
        self._open()

    def _open(self) -> None:
        d, split, info = self.cache_dir, self.split, self.info
        n = info["pairs"]
        self.tok = {side: _map(d / f"{split}.{side}.tok", info[f"{side}_dtype"], (info[f"{side}_tokens"],))
                    for side in SIDES}
        self.off = {side: _map(d / f"{split}.{side}.off", np.int64, (n + 1,)) for side in SIDES}
        self.lengths = _map(d / f"{split}.len", np.int32, (n, 2))

    def __getstate__(self) -> dict:
        return {"cache_dir": self.cache_dir, "split": self.split, "info": self.info, "rows": self.rows}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._reader = None  # the process that pickled it holds the version
        self._open()

    def __len__(self) -> int:
        return self.info["pairs"] if self.rows is None else len(self.rows)

    def __getitem__(self, j: int):
        i = int(j if self.rows is None else self.rows[j])
        a, b = self.off["src"][i:i + 2]
        src = self.tok["src"][a:b].tolist()
        src.append(EOS)
        c, e = self.off["tgt"][i:i + 2]
        return src, self.tok["tgt"][c:e].tolist(), j

    def select(self, max_len: int | None = None, limit: int | None = None) -> "MappedSplit":
        """The pairs whose sides both have at most ``max_len`` pieces (all if None; what
        :func:`~companion.data.batching.encode_pairs` keeps), the first ``limit`` of them."""
        if max_len is not None and max_len < 1:
            raise DataError(f"max_len must be a positive integer or None, got {max_len!r}")
        n = self.info["pairs"]
        rows = None
        if max_len is not None:
            lengths = self.lengths
            keep = (lengths[:, 0] <= max_len) & (lengths[:, 1] <= max_len)
            if not keep.all():
                rows = np.flatnonzero(keep).astype(np.int64 if n >= 2**31 else np.int32)
                log.info("%s: dropped %d of %d pairs longer than %d pieces", self.split, n - len(rows), n, max_len)
            del keep
        if limit is not None:
            rows = np.arange(min(limit, n), dtype=np.int64) if rows is None else rows[:limit]
        return MappedSplit(self.cache_dir, self.split, self.info, rows, reader=self._reader)

    def cost(self) -> np.ndarray:
        """``(len(self),)`` int32: each item's padded cost ``max(src + 1, tgt + 1)`` (see
        :func:`~companion.data.batching.example_lengths`)."""
        lengths = self.lengths if self.rows is None else self.lengths[self.rows]
        return np.maximum(lengths[:, 0], lengths[:, 1]) + np.int32(1)
