"""``companion train --config CFG --data DIR --out RUN [--max-steps N] [--resume [--reset-...]] [--set k=v ...]``

CFG is a preset name (``cpu/seq2seq``, ``gpu/transformer``: ``companion presets`` lists them) or
a YAML file. Trains the model of CFG on DIR (``{train,valid}.{src_lang,tgt_lang}``, e.g. what
``generate-data`` writes). A new run trains its vocabularies on (a sample of) DIR's train split and
stores them in RUN and in every checkpoint; a resumed run keeps its checkpoint's (see
:func:`companion.training.rundir.prepare_vocabs`). The corpus is encoded once into ``RUN/data-bin``
and memory-mapped by every later start (``companion prepare`` does both ahead; see
:mod:`companion.training.rundata`). ``--resume`` continues exactly or refuses,
naming every option that differs from the run's, and refuses another train split (the
checkpoint keeps the fingerprints of the files it was trained on); ``--reset-optimizer``,
``--reset-schedule`` and ``--reset-data`` allow deliberate changes and are recorded (see
:mod:`companion.training.resume`); another validation set resets the best validation loss. The
config stored in RUN and in the checkpoints names the batching that ``data.batching: auto``
resolved to. The model is built on the ``meta`` device (shapes only) before any data work, so a
model option its constructor refuses fails at once and writes nothing. Under ``torchrun`` it
runs DistributedDataParallel; only rank 0 writes to RUN. Stderr gets the precision used, one line
every ``train.log_every`` steps when it is not a terminal (else a progress bar) and one line per
evaluation.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

from companion.config import load_config
from companion.errors import CheckpointError, ConfigError
from companion.validation import check_device, check_input_dir, check_output_dir


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True,
                        help="a preset name (e.g. cpu/seq2seq; `companion presets` lists them) or a YAML file")
    parser.add_argument("--data", required=True, help="directory with {train,valid}.{src,tgt} files")
    parser.add_argument("--out", required=True, help="run directory (vocabularies, checkpoints, metrics)")
    parser.add_argument("--max-steps", type=int, default=None, help="override train.max_steps")
    parser.add_argument("--resume", action="store_true",
                        help="continue from RUN/checkpoint-last.pt exactly (a changed option is refused, "
                             "unless a --reset flag allows it)")
    for part, what in (("optimizer", "a new optimiser (train.preset, clip_norm, accum_steps, label_smoothing, "
                                     "loss_normalization may change)"),
                       ("schedule", "the learning-rate schedule starts again (train.preset, lr, warmup_steps, "
                                    "decay_* may change)"),
                       ("data", "a new epoch in a new batch order (data.max_tokens, data.max_len, train.seed "
                                "may change)")):
        parser.add_argument(f"--reset-{part}", action="store_true", help=f"with --resume: {what}")
    parser.add_argument("--set", dest="overrides", nargs="+", action="extend", default=[],
                        metavar="KEY=VALUE", help="override config values, e.g. train.lr=0.5")
    parser.add_argument("--compile", action="store_true", help="torch.compile the model")
    parser.add_argument("--device", default=None, help="cpu, cuda or cuda:N (default: cuda if available)")
    parser.add_argument("--no-progress", action="store_true",
                        help="no progress bar (it is shown only when stderr is a terminal)")


def run(args: argparse.Namespace) -> int:
    from companion.training.distributed import barrier, cleanup, init_distributed

    overrides = list(args.overrides)
    if args.max_steps is not None:
        overrides.append(f"train.max_steps={args.max_steps}")
    if args.compile:
        overrides.append("train.compile=true")
    cfg = load_config(args.config, overrides)
    for part in ("optimizer", "schedule", "data"):
        if getattr(args, f"reset_{part}") and not args.resume:
            raise ConfigError(f"--reset-{part} needs --resume (a new run has nothing to reset)")
    if args.device is not None:
        check_device("--device", args.device)
    from companion.training.rundata import check_split
    from companion.training.rundir import check_model_builds, effective_batching

    check_model_builds(cfg)  # a model its constructor refuses: before any file is read or written
    cfg.data.batching = effective_batching(cfg)  # stored as resolved: a resume compares the batches trained on
    check_input_dir("--data", args.data, "data directory")
    check_split(cfg, args.data, "valid")  # a missing or empty valid split: before anything is written or trained
    run_dir = Path(args.out)
    last = run_dir / "checkpoint-last.pt"
    if args.resume and not last.exists():
        raise CheckpointError(f"{last}: nothing to resume (train without --resume to start a run)")
    if not args.resume and last.exists():
        raise CheckpointError(f"{run_dir} already holds a checkpoint; pass --resume to continue it "
                              f"or choose a new --out")
    check_output_dir("--out", run_dir)
    dist = init_distributed(args.device)
    try:
        code = _train(cfg, args, run_dir, dist)
        # every rank tears the process group down together: a rank that destroyed its gloo group
        # while rank 0 was still writing the last checkpoint was seen to abort at exit
        # ("terminate called without an active exception"); not on an error path, where a
        # barrier would wait for a rank that is gone
        barrier()
        return code
    finally:
        cleanup()


def _train(cfg, args, run_dir: Path, dist) -> int:
    from companion.evaluation.metrics import bleu_validator
    from companion.models import build_model
    from companion.repro import set_determinism
    from companion.training import checkpoint as ckpt_io
    from companion.training.resume import Resets, check_resume_corpus, corpus_record, describe
    from companion.training.rundata import run_loaders, scan_corpus
    from companion.training.rundir import check_resume, prepare_vocabs, reads_packed, vocab_record, write_config
    from companion.training.trainer import Trainer

    set_determinism(cfg.train.seed, cfg.train.threads, cfg.train.deterministic)  # the model's init
    if cfg.data.batching == "packed" and not reads_packed(cfg.model.name):
        raise ConfigError(f"data.batching: packed needs a model that reads packed rows (the Transformer); "
                          f"model {cfg.model.name!r} does not: use 'mixed' or 'bucketed'")
    last = run_dir / "checkpoint-last.pt"
    resume, changes = None, []
    resets = Resets(args.reset_optimizer, args.reset_schedule, args.reset_data)
    if args.resume:
        resume = ckpt_io.load_checkpoint(last)
        changes = check_resume(resume, cfg, last, resets)
    files = scan_corpus(cfg, args.data, dist)  # DIR's fingerprints, read once (rank 0)
    corpus = corpus_record(files, cfg.data.valid_max_sentences)
    if resume is not None:  # another train split: refused before anything in RUN is touched
        changes += check_resume_corpus(resume.get("corpus"), corpus, last, resets)
    src_vocab, tgt_vocab = prepare_vocabs(cfg, args.data, run_dir, dist, resume=resume, corpus=files)
    vocab = vocab_record(src_vocab, tgt_vocab)
    if resume is not None:
        ckpt_io.check_vocab(resume, {s: v["sha256"] for s, v in vocab.items()}, last)
        if resume["step"] >= cfg.train.max_steps:
            raise ConfigError(f"{run_dir}: the checkpoint is at step {resume['step']}; "
                              f"raise --max-steps above it to train further")
    # the corpus encoded once into RUN/data-bin and memory-mapped (rank 0 builds it if missing or stale)
    train_loader, valid_loader, valid_pairs = run_loaders(cfg, args.data, run_dir, src_vocab, tgt_vocab, dist,
                                                          corpus=files)
    model = build_model(cfg.model, len(src_vocab), len(tgt_vocab))
    validate_fn = None
    if cfg.train.valid_bleu:
        validate_fn = bleu_validator(src_vocab, tgt_vocab, valid_pairs, max_len_a=cfg.decode.max_len_a,
                                     max_len_b=cfg.decode.max_len_b)
    # the config's seed/threads/deterministic are applied again by the Trainer: training's random
    # stream starts from the seed whatever building the model drew
    trainer = Trainer(model, train_loader, valid_loader, config=cfg.train, out_dir=run_dir,
                      progress=not args.no_progress and sys.stderr.isatty(), device=dist.device, dist=dist,
                      run_config=cfg.to_dict(), vocab=vocab, validate_fn=validate_fn,
                      d_model=cfg.model.args.get("d_model"), log_stream=sys.stderr, corpus=corpus)
    if resume is not None:
        trainer.load_state_dict(resume, resets, source=str(last))  # every rank continues its own random stream
        if resets.names() or changes:  # a deliberate change: recorded in metrics.jsonl, config.yaml, checkpoints
            event = describe(trainer.step, resets, changes)
            trainer.resumes.append(event)
            trainer.record(event)
    if dist.is_main:
        write_config(cfg, run_dir, trainer.resumes)
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
