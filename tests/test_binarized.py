"""The binarised corpus: the same batches as the in-memory path, a cache that is never read stale
or half-written, bad input reported before any encoding, one cache shared by DDP ranks."""

from __future__ import annotations

import gc
import json
import os
import pickle
import shutil
import subprocess
import sys
import time
from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.multiprocessing as mp

from companion.data import binarized as B
from companion.data.batching import (BucketBatchSampler, dataset_loader, encode_pairs, example_lengths,
                                     make_loader)
from companion.data.binarized import MappedSplit, ensure_cache, read_manifest
from companion.data.parallel import load_split
from companion.data.vocab import SentencePieceVocab, train_vocabs
from companion.errors import DataError

ROOT = Path(__file__).resolve().parents[1]
SPLITS = ("train", "valid")


def _corpus(folder: Path, n: int = 400, seed: int = 0) -> Path:
    """A toy Korean-English corpus with varied lengths (some over max_len 12 pieces)."""
    import random

    rng = random.Random(seed)
    ko_words = ["고양이가", "개를", "사과를", "학생이", "책을", "물을", "집에서", "학교에", "친구와", "밥을"]
    en_words = ["the", "cat", "dog", "apple", "student", "book", "water", "house", "school", "friend"]
    folder.mkdir(parents=True, exist_ok=True)
    for split, size in (("train", n), ("valid", n // 10)):
        ko, en = [], []
        for _ in range(size):
            k = rng.randrange(1, 9)
            ko.append(" ".join(rng.choice(ko_words) for _ in range(k)) + " 본다.")
            en.append(" ".join(rng.choice(en_words) for _ in range(k + rng.randrange(3))) + ".")
        (folder / f"{split}.ko").write_text("\n".join(ko) + "\n", encoding="utf-8")
        (folder / f"{split}.en").write_text("\n".join(en) + "\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return _corpus(tmp_path_factory.mktemp("bin") / "data")


@pytest.fixture(scope="module")
def vocabs(corpus):
    return train_vocabs(load_split(corpus, "train", "ko", "en"), 40, 30, hard_vocab_limit=False)


def _build(cache: Path, corpus: Path, vocabs) -> dict:
    return ensure_cache(cache, corpus, SPLITS, "ko", "en", *vocabs)


def _same_batches(a, b) -> int:
    n = 0
    for x, y in zip(a, b, strict=True):
        for f in fields(x):
            u, v = getattr(x, f.name), getattr(y, f.name)
            assert (u is None and v is None) or torch.equal(u, v), f.name
        n += 1
    return n


@pytest.mark.parametrize("batching", ["bucketed", "mixed"])
@pytest.mark.parametrize("max_len", [None, 12])
def test_mapped_and_in_memory_loaders_give_identical_batches(corpus, vocabs, tmp_path, max_len, batching):
    pairs = load_split(corpus, "train", "ko", "en")
    examples = encode_pairs(pairs, *vocabs, max_len)
    mapped = _build(tmp_path / "data-bin", corpus, vocabs)["train"].select(max_len=max_len)
    assert len(mapped) == len(examples) and (max_len is None or len(examples) < len(pairs))
    assert [mapped[j] for j in range(len(mapped))] == [(s, t, j) for j, (s, t) in enumerate(examples)]
    assert mapped.cost().tolist() == example_lengths(examples)
    for replicas in (1, 2):
        for rank in range(replicas):
            kw = dict(shuffle=True, seed=3, num_replicas=replicas, rank=rank, batching=batching)
            memory = make_loader(examples, 60, **kw)
            disk = dataset_loader(mapped, mapped.cost(), 60, **kw)
            for epoch in (0, 1):
                memory.batch_sampler.set_epoch(epoch)
                disk.batch_sampler.set_epoch(epoch)
                assert _same_batches(memory, disk) == len(memory) > 5


def test_a_runs_loaders_follow_data_batching(corpus, vocabs, tmp_path):
    from companion.config import Config
    from companion.data.batching import MixedBatchSampler
    from companion.training.rundata import run_loaders
    from companion.training.rundir import make_split_loader

    cfg = Config()
    cfg.data.max_tokens, cfg.data.batching = 60, "mixed"
    train, valid, _ = run_loaders(cfg, corpus, tmp_path / "run", *vocabs)
    assert type(train.batch_sampler) is MixedBatchSampler  # training batches mix lengths
    assert type(valid.batch_sampler) is BucketBatchSampler  # evaluation keeps the cheap buckets
    memory, _ = make_split_loader(cfg, corpus, "train", *vocabs, shuffle=True)
    assert _same_batches(train, memory) == len(train) > 5


def test_valid_limit_keeps_the_first_pairs(corpus, vocabs, tmp_path):
    valid = _build(tmp_path / "c", corpus, vocabs)["valid"].select(limit=7)
    examples = encode_pairs(load_split(corpus, "valid", "ko", "en")[:7], *vocabs)
    assert _same_batches(make_loader(examples, 50, shuffle=False), dataset_loader(valid, valid.cost(), 50,
                                                                                   shuffle=False)) > 0


def test_sampler_takes_a_mapped_lengths_array_without_copying(corpus, vocabs, tmp_path):
    mapped = _build(tmp_path / "c", corpus, vocabs)["train"]
    lengths = mapped.lengths[:, 0]  # a view of the memory map
    sampler = BucketBatchSampler(lengths, 40, seed=1)
    assert np.shares_memory(sampler.lengths, mapped.lengths)
    assert sampler.global_batches() == BucketBatchSampler(np.array(lengths, dtype=np.int64), 40,
                                                          seed=1).global_batches()


def test_the_greedy_cut_is_the_documented_loop():
    """The vectorised cut equals the plain loop the docstring describes, for random lengths,
    budgets, replica counts and drop_last."""
    def reference(lengths, budget, R, drop_last):
        batches, cur = [], []
        for i in np.argsort(lengths, kind="stable").tolist():
            if cur and (len(cur) + 1) * lengths[i] > budget and len(cur) >= R:
                batches.append(cur)
                cur = []
            cur.append(i)
        if len(cur) < R and (drop_last or batches):
            if not drop_last:
                batches[-1].extend(cur)
        else:
            batches.append(cur)
        return batches

    rng = np.random.default_rng(0)
    for trial in range(300):
        n, R = int(rng.integers(2, 200)), int(rng.integers(1, 4))
        lengths = rng.integers(1, int(rng.choice([4, 40, 300])), size=max(n, R))
        budget, drop = int(rng.integers(1, 500)), bool(rng.integers(2))
        got = BucketBatchSampler(lengths, budget, shuffle=False, num_replicas=R, drop_last=drop).global_batches()
        assert got == reference(lengths.tolist(), budget, R, drop), trial


def _count_builds(monkeypatch) -> list:
    builds = []
    real = B.build_cache

    def counting(*args, **kwargs):
        builds.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(B, "build_cache", counting)
    return builds


def test_the_cache_is_reused_only_for_the_same_vocabularies_and_data(corpus, vocabs, tmp_path, monkeypatch):
    data = _corpus(tmp_path / "data", n=120, seed=5)
    builds = _count_builds(monkeypatch)
    cache = tmp_path / "data-bin"
    first = _build(cache, data, vocabs)["train"]
    _build(cache, data, vocabs)
    assert len(builds) == 1  # a second start maps what the first built
    os.utime(data / "train.en")  # touched, unchanged: still valid
    _build(cache, data, vocabs)
    assert len(builds) == 1
    other = train_vocabs(load_split(corpus, "train", "ko", "en"), 30, 30, model_type="char",
                         hard_vocab_limit=False)[0]
    again = _build(cache, data, (other, vocabs[1]))["train"]  # other vocabularies
    assert len(builds) == 2 and again[0][0] != first[0][0]
    en = (data / "train.en").read_text(encoding="utf-8").splitlines()
    en[3] = "the dog."  # other data
    (data / "train.en").write_text("\n".join(en) + "\n", encoding="utf-8")
    changed = _build(cache, data, vocabs)["train"]
    assert len(builds) == 3 and changed[3][1] == vocabs[1].encode("the dog.")
    manifest, why = read_manifest(cache, vocab={"src": vocabs[0].sha256, "tgt": vocabs[1].sha256},
                                  corpus=B.scan_splits(data, SPLITS, "ko", "en"), splits=SPLITS)
    assert manifest is not None and why == ""


@pytest.mark.parametrize("damage", ["truncate", "delete", "manifest"])
def test_a_damaged_cache_is_rebuilt_never_read(corpus, vocabs, tmp_path, monkeypatch, damage):
    cache = tmp_path / "data-bin"
    _build(cache, corpus, vocabs)
    builds = _count_builds(monkeypatch)
    if damage == "truncate":
        with open(cache / "train.tgt.tok", "r+b") as f:
            f.truncate(os.path.getsize(cache / "train.tgt.tok") - 2)
    elif damage == "delete":
        (cache / "valid.len").unlink()
    else:
        (cache / "manifest.json").write_text('{"format": "companion-data-bin", "vers', encoding="utf-8")
    assert read_manifest(cache, splits=SPLITS)[0] is None
    with pytest.raises(DataError, match="not a usable data cache"):
        B.open_cache(cache, SPLITS)
    mapped = _build(cache, corpus, vocabs)
    assert len(builds) == 1
    examples = encode_pairs(load_split(corpus, "train", "ko", "en"), *vocabs)
    assert [mapped["train"][j][:2] for j in range(len(examples))] == [tuple(e) for e in examples]


_KILL_MID_BUILD = """
import os, signal, sys
from companion.data import binarized as B
from companion.data.vocab import load_vocab
B.CHUNK = 16
calls = []
src, tgt = load_vocab(sys.argv[2]), load_vocab(sys.argv[3])
real = type(tgt).encode_batch
def encode_batch(self, texts, num_threads=1):
    calls.append(1)
    if len(calls) == 5:
        os.kill(os.getpid(), signal.SIGKILL)  # killed while writing: no cleanup runs
    return real(self, texts, num_threads)
type(tgt).encode_batch = encode_batch
B.ensure_cache(sys.argv[1], sys.argv[4], ("train", "valid"), "ko", "en", src, tgt)
"""


def test_a_build_killed_midway_leaves_no_cache_and_the_next_start_rebuilds(corpus, vocabs, tmp_path):
    cache = tmp_path / "run" / "data-bin"
    cache.parent.mkdir()
    vocabs[0].save(tmp_path / "src.model")
    vocabs[1].save(tmp_path / "tgt.model")
    run = subprocess.run([sys.executable, "-c", _KILL_MID_BUILD, str(cache), str(tmp_path / "src.model"),
                          str(tmp_path / "tgt.model"), str(corpus)], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == -9, run.stderr
    leftovers = sorted(p.name for p in cache.parent.iterdir())
    assert not cache.exists() and len(leftovers) == 2 and leftovers[0] == "data-bin.lock"
    assert leftovers[1].startswith("data-bin.tmp-")
    assert (cache.parent / leftovers[1] / "train.src.tok").stat().st_size > 0  # it had begun writing
    mapped = _build(cache, corpus, vocabs)  # the lock died with the builder: this one is not kept waiting
    names = sorted(p.name for p in cache.parent.iterdir())
    assert names[:2] == ["data-bin", "data-bin.lock"] and len(names) == 3 and names[2].startswith("data-bin.v-")
    assert os.readlink(cache) == names[2]  # the half-written one is gone; the link names the new version
    assert len(mapped["train"]) == 400 and read_manifest(cache, splits=SPLITS)[0] is not None


_PAUSE_MID_BUILD = """
import os, sys, time
from pathlib import Path
from companion.data import binarized as B
from companion.data.vocab import load_vocab
B.CHUNK = 16
calls = []
src, tgt = load_vocab(sys.argv[2]), load_vocab(sys.argv[3])
flags = Path(sys.argv[5])
real = type(tgt).encode_batch
def encode_batch(self, texts, num_threads=1):
    calls.append(1)
    if len(calls) == 5:  # half-way through the train split: say so, then wait to be let go
        (flags / "writing").write_text(str(os.getpid()))
        for _ in range(2400):
            if (flags / "go").exists():
                break
            time.sleep(0.05)
        else:
            sys.exit(3)
    return real(self, texts, num_threads)
type(tgt).encode_batch = encode_batch
B.ensure_cache(sys.argv[1], sys.argv[4], ("train", "valid"), "ko", "en", src, tgt)
"""


def _wait_for(path: Path, proc: subprocess.Popen) -> None:
    for _ in range(2400):
        if path.exists() or proc.poll() is not None:
            break
        time.sleep(0.05)
    assert path.exists(), proc.communicate()[1]


def test_a_live_builder_keeps_its_lock_and_temporary_and_a_second_start_reuses_its_cache(corpus, vocabs, tmp_path,
                                                                                          monkeypatch):
    """While one process builds, another start's clean-up leaves its temporary alone (its pid is
    alive) and cannot take the lock; the leftovers of dead builders and of the earlier layout's
    swap are removed; when the builder is done, the second start maps its cache without building."""
    cache, flags = tmp_path / "run" / "data-bin", tmp_path / "flags"
    cache.parent.mkdir()
    flags.mkdir()
    vocabs[0].save(tmp_path / "src.model")
    vocabs[1].save(tmp_path / "tgt.model")
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (cache.parent / f"data-bin.tmp-{int(dead.stdout)}-1").mkdir()  # a builder that was killed
    (cache.parent / "data-bin.old-12").mkdir()  # the earlier layout's swap, killed between its renames
    builder = subprocess.Popen([sys.executable, "-c", _PAUSE_MID_BUILD, str(cache), str(tmp_path / "src.model"),
                                str(tmp_path / "tgt.model"), str(corpus), str(flags)], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for(flags / "writing", builder)
        live = [p for p in cache.parent.glob(f"data-bin.tmp-{builder.pid}-*")]
        assert len(live) == 1
        assert B._try_lock(cache.parent / "data-bin.lock", shared=False) is None  # the builder holds it
        B.remove_stale(cache)
        assert live[0].is_dir() and (live[0] / "train.src.tok").stat().st_size > 0  # a live writer's: kept
        assert sorted(p.name for p in cache.parent.iterdir()) == ["data-bin.lock", live[0].name]
    finally:
        (flags / "go").write_text("")
        _, err = builder.communicate()
    assert builder.returncode == 0, err
    builds = _count_builds(monkeypatch)
    mapped = _build(cache, corpus, vocabs)
    assert not builds and read_manifest(cache)[0]["built"]["by_pid"] == builder.pid
    names = sorted(p.name for p in cache.parent.iterdir())
    assert names == ["data-bin", "data-bin.lock", os.readlink(cache)]
    assert len(mapped["train"]) == 400


def test_a_mapped_version_outlives_a_rebuild_until_its_readers_are_gone(corpus, vocabs, tmp_path):
    """A reader (and a DataLoader worker, which maps the files again from a pickle) keeps reading
    the version it opened while a builder publishes another; the old version is removed by a
    later build once nobody maps it."""
    cache = tmp_path / "data-bin"
    mapped = _build(cache, corpus, vocabs)
    first = os.readlink(cache)
    before = [mapped["train"][j] for j in range(len(mapped["train"]))]
    worker_copy = pickle.dumps(mapped["train"].select(max_len=12))
    other = train_vocabs(load_split(corpus, "train", "ko", "en"), 30, 30, model_type="char",
                         hard_vocab_limit=False)[0]
    again = _build(cache, corpus, (other, vocabs[1]))
    assert os.readlink(cache) != first and (tmp_path / first).is_dir()  # still mapped: kept
    assert [mapped["train"][j] for j in range(len(mapped["train"]))] == before
    worker = pickle.loads(worker_copy)
    assert worker.cache_dir.name == first and [worker[j][:2] for j in range(len(worker))] == \
        [x[:2] for x in before if len(x[0]) <= 13 and len(x[1]) <= 12]
    del mapped, worker
    gc.collect()
    _build(cache, corpus, vocabs)  # a third version: the first is mapped by nobody now
    assert not (tmp_path / first).exists() and len(list(tmp_path.glob("data-bin.v-*"))) == 2  # the second: mapped
    del again
    gc.collect()
    B.remove_stale(cache)
    assert [p.name for p in tmp_path.glob("data-bin.v-*")] == [os.readlink(cache)]


def test_a_cache_of_the_earlier_layout_is_read_then_replaced(corpus, vocabs, tmp_path, monkeypatch):
    cache = tmp_path / "data-bin"
    _build(tmp_path / "built", corpus, vocabs)
    shutil.copytree(tmp_path / "built", cache)  # a plain directory, as copytree or an older package leaves it
    builds = _count_builds(monkeypatch)
    assert len(_build(cache, corpus, vocabs)["train"]) == 400 and not builds
    other = train_vocabs(load_split(corpus, "train", "ko", "en"), 30, 30, model_type="char",
                         hard_vocab_limit=False)[0]
    _build(cache, corpus, (other, vocabs[1]))
    assert len(builds) == 1 and cache.is_symlink() and not list(tmp_path.glob("data-bin.old-*"))


@pytest.mark.parametrize("break_it,message", [
    (lambda d: (d / "train.en").write_text("a.\nb.\n", encoding="utf-8"),
     r"train\.en:3: line-count mismatch: .*train\.en has 2 lines but .*train\.ko has 400"),
    (lambda d: (d / "valid.ko").write_bytes(b"\xec\x82\xac\xea\xb3\xbc.\n" * 5 + b"ok \xff.\n"
                                            + b"x.\n" * 34),
     r"valid\.ko:6: invalid UTF-8 \(byte 0xff at byte 4 of the line\)"),
    (lambda d: (d / "train.ko").write_text("가.\n" * 7 + "\n" + "나.\n" * 392, encoding="utf-8"),
     r"train\.ko:8: empty source side"),
])
def test_bad_input_is_reported_with_file_and_line_before_any_encoding(corpus, vocabs, tmp_path, monkeypatch,
                                                                       break_it, message):
    data = tmp_path / "data"
    data.mkdir()
    for name in ("train.ko", "train.en", "valid.ko", "valid.en"):
        (data / name).write_bytes((corpus / name).read_bytes())
    break_it(data)
    encoded = []
    monkeypatch.setattr(SentencePieceVocab, "encode_batch", lambda *a, **k: encoded.append(1) or [])
    with pytest.raises(DataError, match=message):
        _build(tmp_path / "data-bin", data, vocabs)
    assert not encoded and not (tmp_path / "data-bin").exists()
    assert not list(tmp_path.glob("data-bin.tmp-*"))


def test_a_mapped_split_pickles_as_paths(corpus, vocabs, tmp_path):
    train = _build(tmp_path / "c", corpus, vocabs)["train"].select(max_len=12)
    blob = pickle.dumps(train)
    assert len(blob) < 2000 + train.rows.nbytes  # paths, the manifest entry and the kept rows
    back = pickle.loads(blob)
    assert [back[j] for j in range(len(back))] == [train[j] for j in range(len(train))]
    workers = dataset_loader(train, train.cost(), 60, shuffle=True, seed=2, num_workers=1)
    assert _same_batches(workers, dataset_loader(train, train.cost(), 60, shuffle=True, seed=2)) > 0


def _rank(rank: int, world: int, port: int, folder: str) -> None:
    """One gloo rank of a run: prepare_data, then this rank's first-epoch batches."""
    from companion.config import Config
    from companion.data.vocab import load_vocab
    from companion.training.distributed import cleanup, init_distributed
    from companion.training.rundata import run_loaders

    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(rank), WORLD_SIZE=str(world),
                      LOCAL_RANK=str(rank))
    info = init_distributed("cpu")
    cfg = Config()
    cfg.data.max_tokens, cfg.data.max_len = 60, 12
    run = Path(folder) / "run"
    try:
        loader, _, _ = run_loaders(cfg, Path(folder) / "data", run, load_vocab(run / "vocab.src.model"),
                                   load_vocab(run / "vocab.tgt.model"), info)
    except DataError as exc:  # bad input: every rank must stop with rank 0's message, none may hang
        (Path(folder) / f"rank{rank}.json").write_text(json.dumps({"error": str(exc)}))
        cleanup()
        return
    rows = [b.indices.tolist() for b in loader]
    manifest = json.loads((run / "data-bin" / "manifest.json").read_text())
    (Path(folder) / f"rank{rank}.json").write_text(json.dumps(
        {"pid": os.getpid(), "built_by": manifest["built"]["by_pid"], "rows": rows,
         "files": sorted(p.name for p in (run / "data-bin").iterdir())}))
    cleanup()


@pytest.mark.slow
def test_ddp_ranks_share_one_cache_and_read_their_shares(corpus, vocabs, tmp_path):
    from test_ddp import _free_port

    (tmp_path / "run").mkdir()
    vocabs[0].save(tmp_path / "run" / "vocab.src.model")
    vocabs[1].save(tmp_path / "run" / "vocab.tgt.model")
    (tmp_path / "data").mkdir()
    for name in ("train.ko", "train.en", "valid.ko", "valid.en"):
        (tmp_path / "data" / name).write_bytes((corpus / name).read_bytes())
    mp.spawn(_rank, args=(2, _free_port(), str(tmp_path)), nprocs=2, join=True)
    ranks = [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in range(2)]
    assert ranks[0]["built_by"] == ranks[1]["built_by"] == ranks[0]["pid"] != ranks[1]["pid"]  # rank 0 built
    assert ranks[0]["files"] == ranks[1]["files"]
    assert len(list((tmp_path / "run").glob("data-bin.v-*"))) == 1  # one cache, no per-rank copy
    assert not list((tmp_path / "run").glob("data-bin.tmp-*"))
    examples = encode_pairs(load_split(tmp_path / "data", "train", "ko", "en"), *vocabs, 12)
    sampler = BucketBatchSampler(example_lengths(examples), 60, seed=0, num_replicas=2)
    merged = [a + b for a, b in zip(ranks[0]["rows"], ranks[1]["rows"], strict=True)]
    assert [sorted(m) for m in merged] == [sorted(g) for g in sampler.global_batches()]
    for a, b in zip(ranks[0]["rows"], ranks[1]["rows"]):
        assert not set(a) & set(b)  # each rank read only its share
    # a corpus that rank 0 refuses stops both ranks with its message
    lines = (tmp_path / "data" / "valid.en").read_text(encoding="utf-8").splitlines()
    lines[2] = ""
    (tmp_path / "data" / "valid.en").write_text("\n".join(lines) + "\n", encoding="utf-8")
    mp.spawn(_rank, args=(2, _free_port(), str(tmp_path)), nprocs=2, join=True)
    errors = [json.loads((tmp_path / f"rank{r}.json").read_text())["error"] for r in range(2)]
    assert errors[0] == errors[1] and errors[0].endswith("valid.en:3: empty target side")


def test_encoding_threads_do_not_change_the_cache(corpus, vocabs, tmp_path):
    one = B.build_cache(tmp_path / "one", corpus, SPLITS, "ko", "en", *vocabs, threads=1)
    two = B.build_cache(tmp_path / "two", corpus, SPLITS, "ko", "en", *vocabs, threads=2)
    assert one["splits"] == two["splits"]
    for name in one["splits"]["train"]["files"]:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes(), name
