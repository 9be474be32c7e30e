"""``companion prepare --config CFG --data DIR --out RUN [--set k=v ...] [--threads N]``

Does once, ahead of training, what ``companion train`` would otherwise do at its first start:
reads DIR's train and valid splits once with every check (file:line), trains the vocabularies
on a sample of at most ``data.vocab_sample_sentences`` sentences per side, and encodes both
splits into ``RUN/data-bin`` (flat token arrays, offsets and lengths, memory-mapped by every
later start; see :mod:`companion.training.rundata`). ``companion train`` with the same CFG, DIR
and RUN then reuses both; run again, it reuses what is still valid and rebuilds the rest. With a
checkpoint in RUN, the checkpoint's vocabularies are used (as ``train --resume`` would), and a
train split other than the checkpoint's is refused (``train --resume --reset-data`` changes it
deliberately). The config's model is built on the ``meta`` device first, so a model option its
constructor refuses fails before any vocabulary is trained.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from companion.config import load_config
from companion.validation import check_input_dir, check_int, check_output_dir


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, help="preset name or YAML config (its data section is used)")
    parser.add_argument("--data", required=True, help="directory with {train,valid}.{src,tgt} files")
    parser.add_argument("--out", required=True, help="run directory (vocabularies and data-bin/ are written there)")
    parser.add_argument("--set", dest="overrides", nargs="+", action="extend", default=[],
                        metavar="KEY=VALUE", help="override config values, e.g. data.src_vocab_size=8000")
    parser.add_argument("--threads", type=int, default=1,
                        help="SentencePiece encoding threads (default 1; the ids do not depend on it)")


def run(args: argparse.Namespace) -> int:
    from companion.training import checkpoint as ckpt_io
    from companion.training.distributed import DistInfo
    from companion.data.parallel import split_files
    from companion.training.resume import check_resume_corpus, corpus_record
    from companion.training.rundata import CACHE_DIR, VOCAB_RECORD, check_split, prepare_data, scan_corpus
    from companion.training.rundir import check_model_builds, check_resume, prepare_vocabs

    t0 = time.perf_counter()
    cfg = load_config(args.config, list(args.overrides))
    check_int("--threads", args.threads, 1)
    check_model_builds(cfg)
    check_input_dir("--data", args.data, "data directory")
    split_files(args.data, "train", cfg.data.src_lang, cfg.data.tgt_lang)  # both splits: before anything is written
    check_split(cfg, args.data, "valid")
    run_dir = Path(args.out)
    check_output_dir("--out", run_dir)
    last = run_dir / "checkpoint-last.pt"
    resume = None
    if last.exists():
        resume = ckpt_io.load_checkpoint(last)
        check_resume(resume, cfg, last)
    files = scan_corpus(cfg, args.data)
    if resume is not None:
        check_resume_corpus(resume.get("corpus"), corpus_record(files, cfg.data.valid_max_sentences), last)
    src_vocab, tgt_vocab = prepare_vocabs(cfg, args.data, run_dir, DistInfo(), resume=resume, corpus=files)
    splits = prepare_data(cfg, args.data, run_dir, src_vocab, tgt_vocab, threads=args.threads,
                          report=lambda msg: print(msg, file=sys.stderr, flush=True), corpus=files)
    size = sum(p.stat().st_size for p in (run_dir / CACHE_DIR).iterdir())
    sample = ""
    if resume is None and (run_dir / VOCAB_RECORD).exists():
        import json

        record = json.loads((run_dir / VOCAB_RECORD).read_text(encoding="utf-8"))
        sample = f" from {record['sampled']:,} of {record['sentences']:,} sentences"
    parts = ", ".join(f"{name} {len(s):,} pairs ({s.info['src_tokens']:,} + {s.info['tgt_tokens']:,} pieces)"
                      for name, s in splits.items())
    print(f"prepared {run_dir}: vocabularies {len(src_vocab):,} + {len(tgt_vocab):,} pieces{sample}; "
          f"{CACHE_DIR}: {parts}, {size / 2**20:,.1f} MiB; {time.perf_counter() - t0:.1f}s", file=sys.stderr)
    return 0
