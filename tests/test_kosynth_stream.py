"""The corpus writer streams: its files are the in-memory corpus, its memory does not grow with
the number of pairs, its splits come from hashes of the English side."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from companion.data.kosynth import corpus as C
from companion.data.kosynth import (datasheet, format_alignment, generate_pairs, split_pairs,
                                    split_sizes, write_corpus)
from companion.data.kosynth.corpus import FORMAT_VERSION, Pair, challenge_sets, iter_pairs
from companion.data.kosynth.digests import DigestSet, digest64
from companion.data.kosynth.heldout import KEY_SPACE, assign, candidate_bound, split_key

ROOT = Path(__file__).resolve().parents[1]


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _assert_files_hold(folder: Path, splits: dict, challenges: dict) -> None:
    for name, pairs in splits.items():
        assert _lines(folder / f"{name}.ko") == [p.ko for p in pairs], name
        assert _lines(folder / f"{name}.en") == [p.en for p in pairs], name
        assert _lines(folder / f"{name}.align") == [format_alignment(p.align) for p in pairs], name
    for name, pairs in challenges.items():
        assert _lines(folder / "challenge" / f"{name}.ko") == [p.ko for p in pairs], name
        assert _lines(folder / "challenge" / f"{name}.en") == [p.en for p in pairs], name


def test_the_files_are_the_in_memory_corpus(tmp_path):
    sheet = write_corpus(tmp_path / "c", 1500, 4, level="small", challenge_size=10)
    splits = split_pairs(generate_pairs(1500, 4, "small"), 4)
    train = splits["train"]
    challenges = challenge_sets(4, 10, {p.ko for p in train}, {p.en for p in train}, "small")
    _assert_files_hold(tmp_path / "c", splits, challenges)
    assert sheet == datasheet(splits, challenges, 4, 1500, "small")
    assert sheet["format_version"] == FORMAT_VERSION == 2 and "hash" in sheet["format_note"]
    assert {k: v["pairs"] for k, v in sheet["splits"].items()} == split_sizes(1500)
    assert sorted(p.name for p in (tmp_path / "c").iterdir()) == [
        "challenge", "datasheet.json", *(f"{s}.{e}" for s in ("test", "train", "valid")
                                        for e in ("align", "en", "ko"))]  # the spool is gone


def test_the_writer_reads_every_key_back_when_the_kept_ones_run_short(tmp_path, monkeypatch):
    """A bound under which too few keys fall: the writer still makes the same splits."""
    monkeypatch.setattr(C, "candidate_bound", lambda size, held: KEY_SPACE // 50)
    write_corpus(tmp_path / "c", 600, 2, level="small", challenge_size=3)
    splits = split_pairs(generate_pairs(600, 2, "small"), 2)
    train = splits["train"]
    _assert_files_hold(tmp_path / "c", splits,
                       challenge_sets(2, 3, {p.ko for p in train}, {p.en for p in train}, "small"))


@pytest.mark.parametrize("level", ["tiny", "small", "full"])
def test_splits_are_leak_free_and_never_larger_than_asked(level):
    pairs = generate_pairs(800, 5, level)
    assert len({p.ko for p in pairs}) == len(pairs)  # a Korean sentence occurs once
    s = split_pairs(pairs, 5)
    assert sorted(map(id, s["train"] + s["valid"] + s["test"])) == sorted(map(id, pairs))
    for name in ("valid", "test"):
        assert 0 < len(s[name]) <= split_sizes(800)[name]
        assert not {p.en for p in s[name]} & {p.en for p in s["train"]}
        assert [p for p in pairs if p in s[name]] == s[name]  # draw order kept
    assert not {p.en for p in s["valid"]} & {p.en for p in s["test"]}
    if level == "full":  # English sentences rarely repeat: the sizes are met exactly
        assert {k: len(v) for k, v in s.items()} == split_sizes(800)


def test_the_smallest_corpus_has_one_pair_per_split():
    s = split_pairs(generate_pairs(3, 0), 0)
    assert {k: len(v) for k, v in s.items()} == {"test": 1, "valid": 1, "train": 1}


def test_split_keys_depend_on_the_seed_and_the_english_only():
    assert split_key("A cat sleeps.", 0) == split_key("A cat sleeps.", 0)
    assert split_key("A cat sleeps.", 0) != split_key("A cat sleeps.", 1)
    assert split_key("A cat sleeps.", 0) != split_key("A dog sleeps.", 0)
    code = "from companion.data.kosynth.heldout import split_key; print(split_key('A cat sleeps.', 0))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONHASHSEED": "123", "PATH": "/usr/bin:/bin"}, cwd=ROOT).stdout
    assert int(out) == split_key("A cat sleeps.", 0)  # not Python's salted hash


def test_assign_from_a_prefix_of_the_keys_equals_assign_from_all():
    rng = random.Random(0)
    keys = [rng.getrandbits(64) | 1 for _ in range(5000)]
    keys += keys[:700]  # English sentences shared by several pairs
    sizes = split_sizes(len(keys))
    everything = assign(sorted(keys), sizes)
    bound = candidate_bound(len(keys), sizes["test"] + sizes["valid"])
    assert bound < KEY_SPACE
    prefix = assign(sorted(k for k in keys if k < bound), sizes, complete=False)
    assert np.array_equal(prefix.test, everything.test) and np.array_equal(prefix.valid, everything.valid)
    counts = {"test": 0, "valid": 0, "train": 0}
    for k in keys:
        counts[everything.split_of(k)] += 1
    assert counts == sizes
    assert assign(sorted(keys)[:300], sizes, complete=False) is None  # too few: ask for every key


def test_a_korean_sentence_drawn_again_with_another_english_is_dropped(monkeypatch):
    drawn = iter([Pair("가 나.", "A b.", ((0, 0),), frozenset()),
                  Pair("가 나.", "C d.", ((0, 0),), frozenset()),  # same Korean, other English
                  Pair("다 라.", "A b.", ((0, 0),), frozenset())])
    monkeypatch.setattr(C, "_draw", lambda builder, require=None: next(drawn))
    assert [p.en for p in iter_pairs(2, 0)] == ["A b.", "A b."]


def test_digest_set_remembers_in_four_bytes_a_slot():
    s = DigestSet(expected=1000)
    words = [f"문장 {i}" for i in range(1000)]
    assert all(s.add(digest64(w)) for w in words)
    assert not any(s.add(digest64(w)) for w in words)
    assert len(s) == 1000 and all(digest64(w) in s for w in words)
    assert sum(digest64(f"다른 문장 {i}") in s for i in range(10_000)) == 0
    assert s.nbytes <= 4 * 1000 / 0.8 + 4
    assert digest64("a", b"k1") != digest64("a", b"k2")
    with pytest.raises(ValueError, match="non-zero 64-bit"):
        s.add(0)
    with pytest.raises(OverflowError, match="sized for 1000 members is full"):
        s.add(digest64("one more"))


_LIMIT = 320 * 2**20  # address space: the streaming writer needs ~150 MB, a list of 200k pairs ~1 GB

_UNDER_LIMIT = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
from companion.data.kosynth import generate_pairs, write_corpus
if sys.argv[1] == "stream":
    sheet = write_corpus(sys.argv[2], 200_000, 0, challenge_size=20)
    # VmHWM: the peak RSS of this program's own memory map (ru_maxrss would also count the pages of
    # the forked pytest worker before exec)
    hwm = next(line for line in open("/proc/self/status") if line.startswith("VmHWM:"))
    print(sheet["splits"]["train"]["pairs"], int(hwm.split()[1]))
else:
    generate_pairs(200_000, 0)
"""


@pytest.mark.slow
def test_200k_pairs_are_written_under_a_memory_limit(tmp_path):
    code = _UNDER_LIMIT.format(limit=_LIMIT)
    run = subprocess.run([sys.executable, "-c", code, "stream", str(tmp_path / "c")], cwd=ROOT,
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-2000:]
    pairs, peak_kib = map(int, run.stdout.split())
    assert pairs == 180_000
    assert sum(1 for _ in open(tmp_path / "c" / "train.ko", encoding="utf-8")) == 180_000
    assert peak_kib * 1024 < _LIMIT  # the writer's own peak, not its parent's before exec
    # the limit bites: holding the same pairs in memory does not fit under it
    held = subprocess.run([sys.executable, "-c", code, "list"], cwd=ROOT, capture_output=True,
                          text=True, timeout=900)
    # (out of memory inside a C call, CPython may report it as SystemError "error return
    # without exception set" instead of MemoryError: either way the list did not fit)
    assert held.returncode != 0 and ("MemoryError" in held.stderr or
                                     "error return without exception set" in held.stderr), \
        held.stderr[-500:]
