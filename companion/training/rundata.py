"""A run's data at any corpus size: vocabularies trained once on a sample of the corpus, the
corpus encoded once into ``RUN/data-bin/`` and memory-mapped by every later start, resume and
DDP rank.

Beside what :mod:`companion.training.rundir` describes, a run directory holds::

    vocab.json      the settings and train files the run's vocabularies were built from
    data-bin/       the train and valid splits, binarised (:mod:`companion.data.binarized`)

``companion prepare`` does both ahead of training; ``companion train`` does whatever is missing
or stale. Under torchrun, rank 0 builds and the other ranks wait at a barrier, then every rank
maps the same files: nothing is encoded or copied per rank, and each rank's DataLoader reads
only its share of each batch.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import islice
from pathlib import Path
from typing import Any

from companion.config import Config
from companion.data.batching import dataset_loader
from companion.data.binarized import (MappedSplit, ensure_cache, open_cache, read_manifest, scan_splits,
                                      validate_splits)
from companion.data.parallel import iter_moses, split_files
from companion.data.vocab import load_vocab, train_vocabs_from_files
from companion.errors import DataError
from companion.training.distributed import DistInfo, all_gather_object
from companion.training.runfiles import CACHE_DIR, SPLITS, VOCAB_FILES, VOCAB_KEYS, VOCAB_RECORD, resolve_batching

__all__ = ["CACHE_DIR", "SPLITS", "VOCAB_RECORD", "check_split", "new_run_vocabs", "prepare_data",
           "run_loaders", "scan_corpus", "vocab_settings"]


def vocab_settings(cfg: Config) -> dict:
    """What a run's vocabularies depend on besides the train files."""
    keys = dict.fromkeys((*VOCAB_KEYS, "vocab_sample_sentences"))
    return {**{k: getattr(cfg.data, k) for k in keys}, "seed": cfg.train.seed}


def check_split(cfg: Config, data_dir: str | Path, split: str) -> None:
    """A missing file or an empty split of DIR is a one-line DataError (the first pair is read
    with every check; the whole split is read when it is encoded, before any encoding work)."""
    pairs = iter_moses(*split_files(data_dir, split, cfg.data.src_lang, cfg.data.tgt_lang))
    if next(pairs, None) is None:
        raise DataError(f"{Path(data_dir) / split}.{cfg.data.src_lang}: the {split} split is empty "
                        f"(no {cfg.data.src_lang}-{cfg.data.tgt_lang} pairs)")
    pairs.close()


def _record_matches(record_path: Path, expected: dict, paths: dict[str, Path]) -> bool:
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(record, dict) or {k: record.get(k) for k in expected} != expected:
        return False
    try:
        return all(load_vocab(p).sha256 == record.get("sha256", {}).get(side) for side, p in paths.items())
    except (DataError, OSError):
        return False


def scan_corpus(cfg: Config, data_dir: str | Path, dist: DistInfo | None = None) -> dict:
    """The fingerprints of DIR's train and valid files (:func:`~companion.data.binarized.scan_splits`):
    read once by rank 0 and shared with the other ranks (a bad file is every rank's one-line
    :class:`DataError`)."""
    dist = dist or DistInfo()
    corpus, error = None, None
    if dist.is_main:
        try:
            corpus = scan_splits(data_dir, SPLITS, cfg.data.src_lang, cfg.data.tgt_lang)
        except DataError as exc:
            error = str(exc)
    corpus, error = all_gather_object((corpus, error))[0]
    if error is not None:
        raise DataError(error)
    return corpus


def new_run_vocabs(cfg: Config, data_dir: str | Path, run_dir: Path, corpus: dict | None = None) -> None:
    """(Main process.) Write a new run's vocabularies to ``RUN/vocab.{src,tgt}.model``: kept
    when ``RUN/vocab.json`` records that they were built with the config's settings from these
    train files (what ``companion prepare`` leaves), else trained on a sample of at most
    ``data.vocab_sample_sentences`` sentences of each side of DIR's train split, after the train
    and valid splits have been read once with every check. ``corpus``: DIR's fingerprints, if
    the caller has them (:func:`scan_corpus`)."""
    paths = {side: run_dir / name for side, name in VOCAB_FILES.items()}
    corpus = corpus or scan_splits(data_dir, SPLITS, cfg.data.src_lang, cfg.data.tgt_lang)
    train_files = {k: {"bytes": v["bytes"], "blake2b": v["blake2b"]} for k, v in corpus.items()
                   if k.startswith("train.")}
    expected = {"settings": vocab_settings(cfg), "train_files": train_files}
    record_path = run_dir / VOCAB_RECORD
    if _record_matches(record_path, expected, paths):
        return
    record_path.unlink(missing_ok=True)
    validate_splits(data_dir, SPLITS, cfg.data.src_lang, cfg.data.tgt_lang, corpus)
    src_path, tgt_path = split_files(data_dir, "train", cfg.data.src_lang, cfg.data.tgt_lang)
    src, tgt = train_vocabs_from_files(src_path, tgt_path, cfg.data.src_vocab_size, cfg.data.tgt_vocab_size,
                                       sample=cfg.data.vocab_sample_sentences, model_type=cfg.data.vocab_model_type,
                                       seed=cfg.train.seed, character_coverage=cfg.data.character_coverage)
    src.save(paths["src"])
    tgt.save(paths["tgt"])
    lines = corpus[Path(src_path).name]["lines"]
    record = {**expected, "sentences": lines, "sampled": min(lines, cfg.data.vocab_sample_sentences),
              "sha256": {"src": src.sha256, "tgt": tgt.sha256}}
    record_path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def prepare_data(cfg: Config, data_dir: str | Path, run_dir: Path, src_vocab: Any, tgt_vocab: Any,
                 dist: DistInfo | None = None, threads: int = 1,
                 report: Callable[[str], None] | None = None, corpus: dict | None = None) -> dict[str, MappedSplit]:
    """The run's mapped train and valid splits: rank 0 checks ``RUN/data-bin`` against these
    vocabularies and DIR's files (``corpus``: their fingerprints, if the caller has them) and
    (re)builds it if it is missing, stale or truncated (saying why to ``report``); then every
    rank maps it."""
    dist = dist or DistInfo()
    cache = Path(run_dir) / CACHE_DIR
    splits, error = None, None
    if dist.is_main:
        try:
            splits = ensure_cache(cache, data_dir, SPLITS, cfg.data.src_lang, cfg.data.tgt_lang, src_vocab,
                                  tgt_vocab, threads=threads, report=report, corpus=corpus)
        except DataError as exc:  # bad input: every rank stops with rank 0's message
            error = str(exc)
    error = all_gather_object(error)[0]  # the other ranks wait here while rank 0 builds
    if error is not None:
        raise DataError(error)
    if splits is None:
        manifest, why = read_manifest(cache, vocab={"src": src_vocab.sha256, "tgt": tgt_vocab.sha256},
                                      splits=SPLITS)
        if manifest is None:
            raise DataError(f"{cache}: rank {dist.rank} cannot use the cache rank 0 prepared ({why})")
        splits = open_cache(cache, SPLITS)
    return splits


def run_loaders(cfg: Config, data_dir: str | Path, run_dir: Path, src_vocab: Any, tgt_vocab: Any,
                dist: DistInfo | None = None, corpus: dict | None = None):
    """``(train_loader, valid_loader, valid_pairs)`` of a run, from its mapped corpus: the train
    pairs within ``data.max_len`` (each rank's share of every batch), the first
    ``data.valid_max_sentences`` valid pairs, and those pairs as text when ``train.valid_bleu``
    needs them (else an empty list). The batches are those that
    :func:`~companion.training.rundir.make_split_loader` makes from the same files."""
    dist = dist or DistInfo()
    splits = prepare_data(cfg, data_dir, run_dir, src_vocab, tgt_vocab, dist, threads=cfg.train.threads or 1,
                          corpus=corpus)
    train = splits["train"].select(max_len=cfg.data.max_len)
    if not len(train):
        raise DataError(f"{data_dir}: no train pairs left within data.max_len={cfg.data.max_len}")
    cuda = dist.device.type == "cuda"
    train_loader = dataset_loader(train, train.cost(), cfg.data.max_tokens, shuffle=True, seed=cfg.train.seed,
                                  num_workers=cfg.data.num_workers, num_replicas=dist.world_size, rank=dist.rank,
                                  pin_memory=cuda, batching=resolve_batching(cfg.data.batching, cfg.model.name))
    limit = cfg.data.valid_max_sentences
    valid = splits["valid"].select(limit=limit)
    valid_loader = dataset_loader(valid, valid.cost(), cfg.data.max_tokens, shuffle=False, seed=cfg.train.seed,
                                  num_workers=cfg.data.num_workers, pin_memory=cuda)
    valid_pairs = []
    if cfg.train.valid_bleu:
        pairs = iter_moses(*split_files(data_dir, "valid", cfg.data.src_lang, cfg.data.tgt_lang))
        valid_pairs = list(islice(pairs, limit) if limit else pairs)
    return train_loader, valid_loader, valid_pairs
