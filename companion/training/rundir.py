"""Run directories: what the ``train``, ``translate`` and ``evaluate`` commands share -- a run's
vocabularies, loaders built from its config, and a model rebuilt from a checkpoint.

A run directory ``RUN/`` holds::

    vocab.src.model, vocab.tgt.model   SentencePiece models trained on DIR's train split
    vocab.json, data-bin/              what they were built from; the corpus, binarised
                                       (companion.training.rundata)
    config.yaml                        the resolved configuration of the run
    metrics.jsonl                      one JSON object per log line / evaluation
    checkpoint-last.pt, checkpoint-best.pt, checkpoint-step{N}.pt
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch
import yaml
from torch import nn

from companion.config import Config, config_from_dict, drop_removed_keys
from companion.data.batching import encode_pairs, make_loader
from companion.data.parallel import load_split
from companion.data.vocab import load_vocab, vocab_from_bytes
from companion.errors import CheckpointError, CompanionError, ConfigError, DataError
from companion.models import build_model
from companion.models.weights import weights_mismatch
from companion.training import checkpoint as ckpt_io
from companion.training.distributed import DistInfo, barrier
from companion.training.resume import Resets, check_resume_config, complete_config
from companion.training.rundata import check_split, new_run_vocabs
from companion.training.runfiles import VOCAB_FILES, VOCAB_KEYS, reads_packed, resolve_batching

__all__ = ["VOCAB_FILES", "VOCAB_KEYS", "check_model_builds", "check_resume", "effective_batching", "load_run",
           "make_split_loader", "prepare_vocabs", "read_split", "reads_packed", "search_options", "vocab_record",
           "write_config"]


def prepare_vocabs(cfg: Config, data_dir: str | Path, run_dir: Path, dist: DistInfo,
                   resume: dict | None = None, corpus: dict | None = None) -> tuple[Any, Any]:
    """The run's vocabularies, stored in ``RUN/vocab.{src,tgt}.model``.

    - A new run (``resume`` is None) trains them on a sample of DIR's train split (at most
      ``data.vocab_sample_sentences`` sentences per side) with the config's ``data`` settings and
      writes them to RUN, replacing any that an earlier attempt left there -- unless
      ``RUN/vocab.json`` records that those were built with the same settings from the same train
      files (``companion prepare`` leaves such a record): files built with other settings are
      never reused (:func:`companion.training.rundata.new_run_vocabs`). (Rank 0 trains; the other
      ranks wait and load.)
    - A resumed run uses the vocabularies of its checkpoint: :func:`check_resume` has refused a
      config whose vocabulary settings differ from the checkpoint's, and the files in RUN must be
      the checkpoint's (a missing file is written back from the checkpoint).

    ``corpus``: DIR's fingerprints (:func:`~companion.data.binarized.scan_splits`) if the
    caller has them (they are computed here otherwise).
    """
    paths = {side: run_dir / name for side, name in VOCAB_FILES.items()}
    if dist.is_main:
        run_dir.mkdir(parents=True, exist_ok=True)
        if resume is None:
            new_run_vocabs(cfg, data_dir, run_dir, corpus=corpus)
        else:
            for side, path in paths.items():
                entry = (resume.get("vocab") or {}).get(side) or {}
                if not path.exists() and "bytes" in entry:
                    path.write_bytes(entry["bytes"])
    barrier()
    return load_vocab(paths["src"]), load_vocab(paths["tgt"])


def check_resume(resume: dict, cfg: Config, path: str | Path, resets: Resets = Resets(),
                 sections: tuple[str, ...] = ("data", "model", "train", "decode")) -> list:
    """Refuse to resume checkpoint ``resume`` (read from ``path``) under ``cfg`` if an option of
    ``sections`` differs from the run's that is neither free nor allowed by ``resets`` -- the
    model and the vocabulary settings (:data:`VOCAB_KEYS`) never are -- with one line naming
    every such option (see :mod:`companion.training.resume`). Returns the allowed changes."""
    return check_resume_config(complete_config(resume.get("config") or {}), complete_config(cfg.to_dict()),
                               path, resets, sections)


def vocab_record(src_vocab: Any, tgt_vocab: Any) -> dict:
    """The checkpoint's ``vocab`` entry: both models' bytes and sha256."""
    return {"src": ckpt_io.vocab_entry(src_vocab.to_bytes()), "tgt": ckpt_io.vocab_entry(tgt_vocab.to_bytes())}


def read_split(cfg: Config, data_dir: str | Path, split: str) -> list[tuple[str, str]]:
    """The pairs of ``DIR/{split}.{src_lang,tgt_lang}``; a missing file or an empty split is a
    one-line :class:`DataError` naming it."""
    pairs = load_split(data_dir, split, cfg.data.src_lang, cfg.data.tgt_lang)
    if not pairs:
        check_split(cfg, data_dir, split)  # raises: the split is empty
    return pairs


def effective_batching(cfg: Config) -> str:
    """``data.batching`` with ``auto`` resolved: ``packed`` for a model that reads packed rows,
    else ``bucketed`` (:func:`~companion.training.runfiles.resolve_batching`)."""
    return resolve_batching(cfg.data.batching, cfg.model.name)


def check_model_builds(cfg: Config) -> None:
    """Build the model of ``cfg`` on the ``meta`` device (shapes only, no memory, no data) for
    the configured vocabulary sizes, so that a model option its constructor refuses (e.g.
    ``num_heads`` that does not divide ``d_model``) is a one-line :class:`ConfigError` before
    any vocabulary is trained or any file is written."""
    try:
        with torch.device("meta"):
            build_model(cfg.model, cfg.data.src_vocab_size, cfg.data.tgt_vocab_size)
    except CompanionError:
        raise
    except (ValueError, TypeError, RuntimeError, AssertionError) as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise ConfigError(f"model {cfg.model.name!r}: cannot be built with these options ({first})") from None


def make_split_loader(cfg: Config, data_dir: str | Path, split: str, src_vocab: Any, tgt_vocab: Any, *,
                      shuffle: bool, dist: DistInfo | None = None, limit: int | None = None):
    """``(loader, pairs)`` for one split of DIR, batched under ``data.max_tokens`` (a shuffled
    split as ``data.batching`` says, an evaluated one in length buckets)."""
    pairs = read_split(cfg, data_dir, split)
    if limit:
        pairs = pairs[:limit]
    examples = encode_pairs(pairs, src_vocab, tgt_vocab, cfg.data.max_len if shuffle else None)
    if not examples:
        raise DataError(f"{data_dir}: no {split} pairs left within data.max_len={cfg.data.max_len}")
    dist = dist or DistInfo()
    loader = make_loader(examples, cfg.data.max_tokens, shuffle=shuffle, seed=cfg.train.seed,
                         num_workers=cfg.data.num_workers, num_replicas=dist.world_size if shuffle else 1,
                         rank=dist.rank if shuffle else 0, pin_memory=dist.device.type == "cuda",
                         batching=effective_batching(cfg) if shuffle else "bucketed")
    return loader, pairs


def search_options(cfg: Config, beam_size: int) -> dict:
    """The decoding options of ``cfg.decode`` for a search of width ``beam_size`` (greedy search
    takes no length penalty)."""
    options = {"max_len_a": cfg.decode.max_len_a, "max_len_b": cfg.decode.max_len_b}
    if beam_size > 1:
        options["length_penalty"] = cfg.decode.length_penalty
    return options


def write_config(cfg: Config, run_dir: Path, resumes: list[dict] = ()) -> None:
    """``RUN/config.yaml``: the resolved configuration (``--config RUN/config.yaml`` trains it
    again), headed by one comment line per resume that reset or changed something."""
    run_dir.mkdir(parents=True, exist_ok=True)
    head = "".join(f"# resumed at step {r['step']}" + (f" with {' '.join('--reset-' + n for n in r['resets'])}"
                                                         if r["resets"] else "")
                   + "".join(f"; {k}: {old!r} -> {new!r}" for k, (old, new) in r["changed"].items()) + "\n"
                   for r in resumes)
    text = head + yaml.safe_dump(cfg.to_dict(), sort_keys=False, allow_unicode=True)
    (run_dir / "config.yaml").write_text(text, encoding="utf-8")


def load_run(path: str | Path, device: str | torch.device = "cpu") -> tuple[nn.Module, Any, Any, Config, dict]:
    """Rebuild ``(model, src_vocab, tgt_vocab, config, checkpoint)`` from a checkpoint file.

    The vocabularies come from the checkpoint itself; their bytes must match the stored sha256."""
    ckpt = ckpt_io.load_checkpoint(path)
    stored = drop_removed_keys(ckpt["config"]) if isinstance(ckpt["config"], dict) else ckpt["config"]
    cfg = config_from_dict(stored, f"{path} (stored config)")
    vocabs = []
    for side in ("src", "tgt"):
        entry = ckpt["vocab"].get(side) if isinstance(ckpt["vocab"], dict) else None
        if not entry or "bytes" not in entry:
            raise CheckpointError(f"{path}: the checkpoint holds no {side} vocabulary")
        if ckpt_io.vocab_entry(entry["bytes"])["sha256"] != entry.get("sha256"):
            raise CheckpointError(f"{path}: the {side} vocabulary does not match its stored sha256")
        vocabs.append(vocab_from_bytes(entry["bytes"], source=f"{path} ({side} vocabulary)"))
    model = build_model(cfg.model, len(vocabs[0]), len(vocabs[1]))
    problem = weights_mismatch(model, ckpt["model"], cfg.model.name) if isinstance(ckpt["model"], dict) else None
    if problem:
        raise CheckpointError(f"{path}: weights do not fit the stored model config (model.name "
                              f"{cfg.model.name}): {problem}")
    try:
        model.load_state_dict(ckpt["model"])
    except RuntimeError as exc:
        first = str(exc).strip().splitlines()[0]
        raise CheckpointError(f"{path}: weights do not fit the stored model config ({first})") from None
    model.to(device).eval()
    return model, vocabs[0], vocabs[1], cfg, ckpt
