"""``companion train --config CFG --data DIR --out RUN [--max-steps N] [--resume] [--set k=v ...]``

Trains the model of CFG on DIR (``{train,valid}.{src_lang,tgt_lang}``, e.g. what
``generate-data`` writes). When RUN has no vocabularies yet they are trained on DIR's train split
and stored in RUN and in every checkpoint. Under ``torchrun`` it runs DistributedDataParallel;
only rank 0 writes to RUN.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

import torch

from companion.config import load_config
from companion.errors import CheckpointError, ConfigError
from companion.evaluation.metrics import bleu_validator
from companion.models import build_model, with_defaults
from companion.repro import set_determinism
from companion.training import checkpoint as ckpt_io
from companion.training.distributed import cleanup, init_distributed
from companion.training.rundir import make_split_loader, prepare_vocabs, vocab_record, write_config
from companion.training.trainer import Trainer


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, help="YAML config, e.g. configs/cpu/seq2seq.yaml")
    parser.add_argument("--data", required=True, help="directory with {train,valid}.{src,tgt} files")
    parser.add_argument("--out", required=True, help="run directory (vocabularies, checkpoints, metrics)")
    parser.add_argument("--max-steps", type=int, default=None, help="override train.max_steps")
    parser.add_argument("--resume", action="store_true", help="continue from RUN/checkpoint-last.pt")
    parser.add_argument("--set", dest="overrides", nargs="+", action="extend", default=[],
                        metavar="KEY=VALUE", help="override config values, e.g. train.lr=0.5")
    parser.add_argument("--compile", action="store_true", help="torch.compile the model")
    parser.add_argument("--device", default=None, help="cpu or cuda (default: cuda if available)")
    parser.add_argument("--no-progress", action="store_true",
                        help="no progress bar (it is shown only when stderr is a terminal)")


def run(args: argparse.Namespace) -> int:
    overrides = list(args.overrides)
    if args.max_steps is not None:
        overrides.append(f"train.max_steps={args.max_steps}")
    if args.compile:
        overrides.append("train.compile=true")
    cfg = load_config(args.config, overrides)
    run_dir = Path(args.out)
    last = run_dir / "checkpoint-last.pt"
    if args.resume and not last.exists():
        raise CheckpointError(f"{last}: nothing to resume (train without --resume to start a run)")
    if not args.resume and last.exists():
        raise CheckpointError(f"{run_dir} already holds a checkpoint; pass --resume to continue it "
                              f"or choose a new --out")
    dist = init_distributed(args.device)
    try:
        return _train(cfg, args, run_dir, dist)
    finally:
        cleanup()


def _train(cfg, args, run_dir: Path, dist) -> int:
    set_determinism(cfg.train.seed, cfg.train.threads, cfg.train.deterministic)
    src_vocab, tgt_vocab = prepare_vocabs(cfg, args.data, run_dir, dist)
    vocab = vocab_record(src_vocab, tgt_vocab)
    resume = None
    if args.resume:
        resume = ckpt_io.load_checkpoint(run_dir / "checkpoint-last.pt")
        ckpt_io.check_vocab(resume, {s: v["sha256"] for s, v in vocab.items()}, run_dir / "checkpoint-last.pt")
        stored = resume["config"].get("model") or {"name": None}
        if stored.get("name") == cfg.model.name:  # compare with defaults filled in
            resume["config"]["model"] = with_defaults(stored)
        ckpt_io.check_model_config(resume, with_defaults(cfg.model.to_dict()), run_dir / "checkpoint-last.pt")
        resume["config"]["model"] = stored
    train_loader, _ = make_split_loader(cfg, args.data, "train", src_vocab, tgt_vocab, shuffle=True, dist=dist)
    valid_loader, valid_pairs = make_split_loader(cfg, args.data, "valid", src_vocab, tgt_vocab, shuffle=False,
                                                  limit=cfg.data.valid_max_sentences)
    model = build_model(cfg.model, len(src_vocab), len(tgt_vocab))
    validate_fn = None
    if cfg.train.valid_bleu:
        validate_fn = bleu_validator(src_vocab, tgt_vocab, valid_pairs, max_len_a=cfg.decode.max_len_a,
                                     max_len_b=cfg.decode.max_len_b)
    if dist.is_main:
        write_config(cfg, run_dir)
    trainer = Trainer(model, train_loader, valid_loader, config=cfg.train, out_dir=run_dir,
                      progress=not args.no_progress and sys.stderr.isatty(), device=dist.device, dist=dist,
                      run_config=cfg.to_dict(), vocab=vocab, validate_fn=validate_fn,
                      d_model=cfg.model.args.get("d_model"))
    if resume is not None:
        if resume["step"] >= cfg.train.max_steps:
            raise ConfigError(f"{run_dir}: the checkpoint is at step {resume['step']}; "
                              f"raise --max-steps above it to train further")
        trainer.load_state_dict(resume)  # restores rank 0's generators on every rank
    if dist.rank:  # other ranks draw their own dropout masks; rank 0 keeps the single-process stream
        torch.manual_seed(cfg.train.seed + 1000 * dist.rank + trainer.step)
    history = trainer.fit()
    if dist.is_main:
        summary = f"step {trainer.step}"
        if history.valid:
            v = history.valid[-1]
            summary += f", valid nll {v['valid_nll']:.4f}, ppl {v['valid_ppl']:.2f}"
        print(f"{summary}; checkpoint {run_dir / 'checkpoint-last.pt'}", file=sys.stderr)
    if history.interrupted is not None:
        if dist.is_main:
            name = signal.Signals(history.interrupted).name
            print(f"{name}: saved step {trainer.step} to {run_dir / 'checkpoint-last.pt'}; continue with "
                  f"--resume", file=sys.stderr)
        return 128 + int(history.interrupted)
    return 0
