"""Run directories: what the ``train``, ``translate`` and ``evaluate`` commands share -- a run's
vocabularies, loaders built from its config, and a model rebuilt from a checkpoint.

A run directory ``RUN/`` holds::

    vocab.src.model, vocab.tgt.model   SentencePiece models trained on DIR's train split
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

from companion.config import Config, config_from_dict
from companion.data.batching import encode_pairs, make_loader
from companion.data.parallel import load_split
from companion.data.vocab import load_vocab, train_vocabs, vocab_from_bytes
from companion.errors import CheckpointError, DataError
from companion.models import build_model
from companion.training import checkpoint as ckpt_io
from companion.training.distributed import DistInfo, barrier

VOCAB_FILES = {"src": "vocab.src.model", "tgt": "vocab.tgt.model"}


def prepare_vocabs(cfg: Config, data_dir: str | Path, run_dir: Path, dist: DistInfo) -> tuple[Any, Any]:
    """Load ``RUN/vocab.{src,tgt}.model``, or train them on DIR's train split and save them
    (rank 0 trains; the other ranks wait and load)."""
    paths = {side: run_dir / name for side, name in VOCAB_FILES.items()}
    if not all(p.exists() for p in paths.values()) and dist.is_main:
        pairs = load_split(data_dir, "train", cfg.data.src_lang, cfg.data.tgt_lang)
        src, tgt = train_vocabs(pairs, cfg.data.src_vocab_size, cfg.data.tgt_vocab_size,
                                model_type=cfg.data.vocab_model_type, seed=cfg.train.seed,
                                character_coverage=cfg.data.character_coverage)
        run_dir.mkdir(parents=True, exist_ok=True)
        src.save(paths["src"])
        tgt.save(paths["tgt"])
    barrier()
    return load_vocab(paths["src"]), load_vocab(paths["tgt"])


def vocab_record(src_vocab: Any, tgt_vocab: Any) -> dict:
    """The checkpoint's ``vocab`` entry: both models' bytes and sha256."""
    return {"src": ckpt_io.vocab_entry(src_vocab.to_bytes()), "tgt": ckpt_io.vocab_entry(tgt_vocab.to_bytes())}


def make_split_loader(cfg: Config, data_dir: str | Path, split: str, src_vocab: Any, tgt_vocab: Any, *,
                      shuffle: bool, dist: DistInfo | None = None, limit: int | None = None):
    """``(loader, pairs)`` for one split of DIR, batched under ``data.max_tokens``."""
    pairs = load_split(data_dir, split, cfg.data.src_lang, cfg.data.tgt_lang)
    if limit:
        pairs = pairs[:limit]
    examples = encode_pairs(pairs, src_vocab, tgt_vocab, cfg.data.max_len if shuffle else None)
    if not examples:
        raise DataError(f"{data_dir}: no {split} pairs left within data.max_len={cfg.data.max_len}")
    dist = dist or DistInfo()
    loader = make_loader(examples, cfg.data.max_tokens, shuffle=shuffle, seed=cfg.train.seed,
                         num_workers=cfg.data.num_workers, num_replicas=dist.world_size if shuffle else 1,
                         rank=dist.rank if shuffle else 0, pin_memory=dist.device.type == "cuda")
    return loader, pairs


def write_config(cfg: Config, run_dir: Path) -> None:
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.yaml").write_text(yaml.safe_dump(cfg.to_dict(), sort_keys=False, allow_unicode=True),
                                         encoding="utf-8")


def load_run(path: str | Path, device: str | torch.device = "cpu") -> tuple[nn.Module, Any, Any, Config, dict]:
    """Rebuild ``(model, src_vocab, tgt_vocab, config, checkpoint)`` from a checkpoint file.

    The vocabularies come from the checkpoint itself; their bytes must match the stored sha256."""
    ckpt = ckpt_io.load_checkpoint(path)
    cfg = config_from_dict(ckpt["config"], f"{path} (stored config)")
    vocabs = []
    for side in ("src", "tgt"):
        entry = ckpt["vocab"].get(side) if isinstance(ckpt["vocab"], dict) else None
        if not entry or "bytes" not in entry:
            raise CheckpointError(f"{path}: the checkpoint holds no {side} vocabulary")
        if ckpt_io.vocab_entry(entry["bytes"])["sha256"] != entry.get("sha256"):
            raise CheckpointError(f"{path}: the {side} vocabulary does not match its stored sha256")
        vocabs.append(vocab_from_bytes(entry["bytes"], source=f"{path} ({side} vocabulary)"))
    model = build_model(cfg.model, len(vocabs[0]), len(vocabs[1]))
    try:
        model.load_state_dict(ckpt["model"])
    except RuntimeError as exc:
        first = str(exc).strip().splitlines()[0]
        raise CheckpointError(f"{path}: weights do not fit the stored model config ({first})") from None
    model.to(device).eval()
    return model, vocabs[0], vocabs[1], cfg, ckpt
